"""The bundled suites: dev and test (generator version 1), dev-v2 and test-v2 (version 2), handwritten.

Every case of every bundled suite passes the loader and the clinical consistency checks; the generated
suites cover all 15 categories and at least 45 disorders with a general psychiatric service's case
mix; test, dev, test-v2 and dev-v2 are frozen by their SHA-256 (earlier results stay reproducible);
the version-2 suites pass the clinical audit with zero findings.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.cases.audit import audit_suite
from mentalhospital_env.cases.consistency import check_case
from mentalhospital_env.cases.generator.suites import FROZEN, SUITE_SEEDS, SUITE_VERSIONS, build_suite
from mentalhospital_env.cases.loader import bundled_suite_path
from mentalhospital_env.cases.stats import suite_stats
from mentalhospital_env.cli import main
from mentalhospital_env.knowledge.codes import category_ids, category_of_code

# The frozen test suite. Changing it changes every published score: rebuild it only on purpose
# (python -m mentalhospital_env.cases.generator.suites test --force) and put the new digest here.
TEST_SUITE_SHA256 = "8733c65d3ec52a7648aff2fbdac40dd2aa6acff13ad752ff7b67c1c3de6fda6b"
# dev (version 1) is pinned too: the knowledge base has moved on since it was drawn, so version 1 no
# longer redraws it byte for byte; the file is what earlier dev figures were measured on.
DEV_SUITE_SHA256 = "a80c1f43e29d8e109f08709b301a19204ecb3c46342eb84ff28c3c2d9baad255"
# The version-2 suites (issue 14), drawn by ``python -m mentalhospital_env.cases.generator.suites
# test-v2 dev-v2 --force``; test-v2 is the leaderboard's default suite.
TEST_V2_SUITE_SHA256 = "c77499dbe4e222b53742ca73f1f23f116da93f018255c0a4e4c4c7daa228a2e3"
DEV_V2_SUITE_SHA256 = "abd0dfa35a9f7f6c4a34b6dd80f39bf0a889d4682da3fd4f7e5b14235f7d4cea"
GENERATED = ("dev", "test", "dev-v2", "test-v2")


@pytest.fixture(scope="module")
def suites():
    return {name: load_suite(name) for name in GENERATED + ("handwritten",)}


@pytest.mark.parametrize(
    "name, digest", [("dev", DEV_SUITE_SHA256), ("test-v2", TEST_V2_SUITE_SHA256), ("dev-v2", DEV_V2_SUITE_SHA256)]
)
def test_other_suites_are_frozen(name: str, digest: str) -> None:
    assert hashlib.sha256(bundled_suite_path(name).read_bytes()).hexdigest() == digest, f"the frozen {name} suite changed"
    if name in FROZEN:
        with pytest.raises(PermissionError, match="frozen"):
            build_suite(name)


#: Reference plans of the frozen suites that the audit finds without a safeguarding screen since stop 54 made it a
#: must beside violence with dependants at home (rule dependants_violence, critical_actions.json): the generator wrote
#: them when the screen was a gap; the suites are frozen (their digests pinned above), so these stay listed, by case,
#: until a new suite version carries the line. Any other finding fails. Re-read at stop 55 against the records, each TRUE:
#: a child at home and violence, no screen in the plan (dev-v2-0034: 'lives with partner and a young child', 'Punched a
#: wall last month; has threatened a neighbour'; dev-v2-0161: 'lives with spouse and two children', 'Two fights in the
#: past year', an assault conviction; test-v2-0251: 'lives with partner and a young child', 'one episode of pushing a
#: family member'). dev-v2-0177 was FALSE (its plan says 'screen for risk to children or domestic violence', now read).
SAFEGUARDING_GAPS_OF_FROZEN_PLANS = {"dev-v2-0034", "dev-v2-0161", "test-v2-0251"}


@pytest.mark.parametrize("name", ["dev-v2", "test-v2"])
def test_version_2_suites_pass_the_clinical_audit(suites, name: str) -> None:
    findings = [f for f in audit_suite(suites[name])
                if not (f.case_id in SAFEGUARDING_GAPS_OF_FROZEN_PLANS and f.rule == "plan.critical"
                        and "rule dependants_violence" in f.message)]
    assert findings == [], "\n".join(str(f) for f in findings[:20])
    assert all(c.source["version"] == 2 for c in suites[name])
    assert all(c.source["version"] == 1 for c in suites[name.replace("-v2", "")])


def test_test_suite_is_frozen() -> None:
    digest = hashlib.sha256(bundled_suite_path("test").read_bytes()).hexdigest()
    assert digest == TEST_SUITE_SHA256, "the frozen test suite changed; see the note above TEST_SUITE_SHA256"
    assert "test" in FROZEN
    with pytest.raises(PermissionError, match="frozen"):
        build_suite("test")


#: SHA-256 of the test suite's checkpoints as the loader derives them (the file stores facts only).
#: The leaderboard scores against these: a change to checkpoint derivation changes every published
#: figure, so it must be deliberate: update this digest and say so in the changelog of results.
TEST_CHECKPOINTS_SHA256 = "aa98655f57e05d4b41ed2506e545dd7be954448a732d255fa5b4389ce87eac87"


def test_test_suite_checkpoints_are_frozen(suites) -> None:
    digest = hashlib.sha256()
    for case in suites["test"]:
        digest.update(json.dumps([case.case_id, case.checkpoints.to_dict()], sort_keys=True).encode())
    assert digest.hexdigest() == TEST_CHECKPOINTS_SHA256, "derived checkpoints of the frozen test suite changed"


def test_sizes_ids_and_seeds(suites) -> None:
    dev, test, hand = suites["dev"], suites["test"], suites["handwritten"]
    assert len(dev) >= 200 and len(test) >= 400 and len(suites["test-v2"]) >= 480 and len(hand) == HANDWRITTEN_SIZE
    for name in GENERATED:
        suite = suites[name]
        assert SUITE_VERSIONS[name] == (2 if name.endswith("-v2") else 1)
        seed, n = SUITE_SEEDS[name]
        assert len(suite) == n
        assert suite.case_ids == tuple(f"{name}-{i:04d}" for i in range(1, n + 1))
        assert {c.source["seed"] for c in suite} == {seed}
        assert all(c.source["synthetic"] is True for c in suite)
    assert len({SUITE_SEEDS[n][0] for n in GENERATED}) == len(GENERATED)
    dev_texts = {c.ehr.history_of_present_illness for c in dev}
    assert not dev_texts & {c.ehr.history_of_present_illness for c in test}, "dev and test share a case"
    dev2 = {c.ehr.history_of_present_illness for c in suites["dev-v2"]}
    assert not dev2 & {c.ehr.history_of_present_illness for c in suites["test-v2"]}, "dev-v2 and test-v2 share a case"


# Contradictions that the frozen version 1 suite carries and the lexicon learnt to read after it was
# frozen: both histories say the illness began "after a period of being high" and also "No elevated
# mood" (the lay phrase "periods of being high" joined the lexicon in issue 18). A frozen suite cannot
# be mended without changing earlier results; `mentalhospital cases audit test` reports version 1's
# other contradictions. More appeared when the lexicon learnt "persecutory beliefs" and "wish to die" (issues 13
# and 15, stop 23): "occasional paranoia when intoxicated" beside "no persecutory beliefs", and a mental state of
# "passive wishes to die" beside "No suicidal ideation" and a negative C-SSRS. Stop 39's lexicon learnt "police caution"
# (issue 18): dev-0215's "has received a police caution" beside "No contact with the police. Never been arrested, no."
# Any other contradiction fails.
FROZEN_CONTRADICTIONS = {
    "dev-0012": [
        "exams[3] C-SSRS: 'negative', but the record describes suicidal thoughts",
        "facts mse.thought_content-1 and risk.suicide-1: suicidal_ideation is both present and denied",
    ],
    "dev-0129": [
        "exams[3] C-SSRS: 'negative', but the record describes suicidal thoughts",
        "facts mse.thought_content-1 and risk.suicide-1: suicidal_ideation is both present and denied",
    ],
    "dev-0136": [
        "facts hpi-8 and mse.thought_content-1: persecutory_delusions is both present and denied",
    ],
    "dev-0212": [
        "exams[3] C-SSRS: 'negative', but the record describes suicidal thoughts",
        "facts mse.thought_content-1 and risk.suicide-1: suicidal_ideation is both present and denied",
    ],
    "dev-0215": [
        "facts hpi-10 and ph-5: legal_problems is both present and denied",
    ],
    "test-0167": [
        "exams[3] C-SSRS: 'negative', but the record describes suicidal thoughts",
        "facts mse.thought_content-1 and risk.suicide-1: suicidal_ideation is both present and denied",
    ],
    "test-0209": [
        "facts hpi-10 and mse.thought_content-1: persecutory_delusions is both present and denied",
    ],
    "test-0261": [
        "exams[3] C-SSRS: 'negative', but the record describes suicidal thoughts",
        "facts hpi-2 and hpi-13: elevated_mood is both present and denied",
        "facts mse.thought_content-1 and risk.suicide-1: suicidal_ideation is both present and denied",
    ],
    "test-0352": [
        "exams[3] C-SSRS: 'negative', but the record describes suicidal thoughts",
        "facts hpi-2 and hpi-17: elevated_mood is both present and denied",
        "facts mse.thought_content-1 and risk.suicide-1: suicidal_ideation is both present and denied",
    ],
    "test-0441": [
        "facts hpi-10 and mse.thought_content-1: persecutory_delusions is both present and denied",
    ],
}


@pytest.mark.slow
def test_every_case_passes_the_consistency_checks(suites) -> None:
    failures = {c.case_id: p for s in suites.values() for c in s if (p := check_case(c))}
    assert failures == FROZEN_CONTRADICTIONS


@pytest.mark.parametrize("name", GENERATED)
def test_coverage_and_case_mix(suites, name: str) -> None:
    suite = suites[name]
    stats = suite_stats(suite)
    principal = Counter(category_of_code(c.diagnosis.principal.code) for c in suite)
    assert set(principal) == set(category_ids()), "every category is a principal category somewhere"
    assert len({c.diagnosis.principal.code for c in suite}) >= 45
    # a general psychiatric service: mood, anxiety, substance and psychosis lead; rarities stay rare
    top = [cat for cat, _ in principal.most_common(5)]
    assert "depressive" in top[:2] and {"anxiety", "substance_related"} <= set(top)
    assert principal["depressive"] > 2 * principal["dissociative"]
    assert 0.2 <= stats["comorbidity_rate"] <= 0.65
    assert stats["setting"]["outpatient"] > stats["setting"]["inpatient"] > 0 and stats["setting"]["emergency"] > 0
    # women at least as many as men within sampling noise (one standard deviation of the difference, sqrt(n), about
    # 15 in dev-v2's 240: stop 34's draw has 115 women and 120 men, stop 33's 118 and 118; test-v2 has 270 women and 201 men)
    n = stats["sex"]["female"] + stats["sex"]["male"]
    assert stats["sex"]["female"] >= stats["sex"]["male"] - n**0.5
    assert stats["sex"]["male"] > 10 * stats["sex"]["other"] >= 0
    children = stats["age_band"]["3-12"] + stats["age_band"]["13-17"]
    assert 0 < children < 0.2 * len(suite)
    assert stats["age_band"]["26-44"] == max(stats["age_band"].values())


def test_generated_cases_carry_facts_in_lay_words(suites) -> None:
    for case in list(suites["dev"])[:40]:
        assert not case.facts_derived and case.checkpoints_derived
        assert sum(f.patient_says is not None for f in case.facts) >= len(case.facts) // 2
        assert case.persona is not None and case.persona.speech_style
        groups = {c.group for c in case.checkpoints.note}
        assert {"chief_complaint", "history", "mental_status", "risk"} <= groups
        assert case.checkpoints.exam == case.indicated_exams
        assert any(not e.indicated for e in case.exams), "a few non-indicated exams are on file"


#: The hand-written suite grows in reviewed batches; each batch moves this figure on purpose.
HANDWRITTEN_SIZE = 40


def test_handwritten_suite(suites) -> None:
    hand = suites["handwritten"]
    assert hand.case_ids == tuple(f"hw-{i:03d}" for i in range(1, HANDWRITTEN_SIZE + 1))
    listed = Counter(cat for c in hand for cat in c.diagnosis.categories)
    assert set(listed) == set(category_ids()) and min(listed.values()) >= 2, "every category at least twice"
    assert sum(c.demographics.age < 13 and bool(c.persona and c.persona.informant) for c in hand) >= 3, "children with a parent"
    assert sum(c.demographics.age > 70 for c in hand) >= 4, "older adults"
    settings = Counter(c.setting for c in hand)
    assert settings["emergency"] >= 5 and settings["inpatient"] >= 5
    assert sum(len(c.diagnosis.disorders) > 1 for c in hand) >= 8, "comorbidity"
    assert sum(bool((c.extra or {}).get("not_obvious")) for c in hand) >= 5, "principal diagnosis not the first guess"
    raw = [json.loads(line) for line in bundled_suite_path("handwritten").read_text(encoding="utf-8").splitlines()]
    for case, data in zip(hand, raw):
        assert data["source"] == {"author": "hand-written", "synthetic": True}
        assert "facts" not in data and "checkpoints" not in data
        assert case.facts_derived and case.checkpoints_derived and len(case.facts) >= 20
        assert re.fullmatch(r"hw-\d{3}", case.case_id)
        assert check_case(case) == [], case.case_id


def test_stats_command_on_bundled_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cases", "stats", "test", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["name"] == "test" and stats["cases"] == SUITE_SEEDS["test"][1] and stats["categories_covered"] == 15
    assert main(["cases", "validate", str(bundled_suite_path("dev"))]) == 0
    assert "all valid" in capsys.readouterr().out


def test_user_narrative_record_loads_clean() -> None:
    """The record a user brings (a clinic letter converted by hand, tests/data) loads and passes the checks."""
    from pathlib import Path

    from mentalhospital_env.cases.loader import load_case

    data = json.loads((Path(__file__).parent / "data" / "user_narrative_record.json").read_text(encoding="utf-8"))
    assert "facts" not in data and "checkpoints" not in data and "persona" not in data
    case = load_case(data)
    assert case.facts_derived and len(case.facts) >= 20
    assert check_case(case) == []
