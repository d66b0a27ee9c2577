"""The knowledge base: the bundled data validates, resolution works, and corrupted copies fail loudly.

Corrupted copies are written to a temporary folder with the bundled layout and read with
``read_knowledge(folder)``; every one must raise ``KnowledgeError`` naming the right file, entry and
field. Hypothesis picks which entry and which kind of damage.
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mentalhospital_env import knowledge
from mentalhospital_env.knowledge import KnowledgeError, load_knowledge, read_knowledge
from mentalhospital_env.knowledge.codes import category_ids, category_of_code

DATA = Path(str(resources.files("mentalhospital_env.knowledge").joinpath("data")))

REQUIRED_EXAMS = ["PHQ-9", "GAD-7", "HAM-D", "HAM-A", "MADRS", "YMRS", "MDQ", "PANSS", "BPRS", "AUDIT", "CIWA-Ar", "COWS", "DAST-10", "MoCA", "MMSE", "Y-BOCS", "PCL-5", "ASRS", "EDE-Q", "SCOFF", "ISI", "C-SSRS", "EPDS", "AQ-10", "CBC", "BMP", "LFT", "GGT", "TSH", "HbA1c", "RPR", "ECG", "EEG"] + [
    "ESS (Epworth)", "DES-II", "Vitamin B12", "Folate", "Lipid panel", "Lithium level", "Valproate level",
    "Urine drug screen", "Blood alcohol", "Prolactin", "Pregnancy test", "HIV test", "Ammonia", "Urinalysis",
    "CT head", "MRI brain", "Polysomnography", "Multiple sleep latency test", "DEXA scan",
]  # fmt: skip


@pytest.fixture(scope="module")
def kb():
    return load_knowledge()


# ------------------------------------------------------------------------------------ the bundle


def test_bundled_knowledge_validates_and_is_cached(kb):
    assert load_knowledge() is kb
    assert len(kb.disorders) >= 45
    assert {d.category for d in kb.disorders} == set(category_ids())
    assert len(kb.exams) >= 40
    assert len(kb.mse) == 11
    assert len(kb.lexicon) >= 160


def test_every_disorder_code_maps_to_its_category(kb):
    for d in kb.disorders:
        assert category_of_code(d.code) == d.category, d.code
        assert kb.disorders_in(d.category).count(d) == 1


def test_every_disorder_has_a_complete_clinical_entry(kb):
    for d in kb.disorders:
        assert 2 <= len(d.core_features) <= 6, d.code
        assert d.onset and d.course and d.safety, d.code
        assert d.treatment.medications or d.treatment.psychotherapy or d.treatment.other, d.code
        assert d.exams, d.code
        assert d.age_range[0] <= d.typical_age[0] <= d.typical_age[1] <= d.age_range[1], d.code
        assert abs(sum(d.settings.values()) - 1) < 1e-6, d.code
        for m in d.treatment.medications:
            drug = kb.resolve_drug(m.drug)
            assert drug is not None and d.code not in drug.unsafe_with, (d.code, m.drug)


def test_every_disorder_has_a_presentation_with_lexicon_concepts(kb):
    assert {p.code for p in kb.presentations} == {d.code for d in kb.disorders}
    for p in kb.presentations:
        for s in p.symptoms:
            assert s.concept in kb.lexicon


def test_the_required_exams_all_resolve(kb):
    for name in REQUIRED_EXAMS:
        assert kb.resolve_exam(name) is not None, name


def test_scale_bands_tile_the_score_range(kb):
    scales = [e for e in kb.exams if e.kind == "scale"]
    assert len(scales) >= 25
    for e in scales:
        lo, hi = e.score_range
        steps = round((hi - lo) / e.score_step)
        for i in range(steps + 1):
            score = round(lo + i * e.score_step, 6)
            assert sum(b.contains(score) for b in e.bands) == 1, (e.name, score)
        assert e.band_of(hi + e.score_step) is None
    phq = kb.resolve_exam("PHQ-9")
    assert phq.band_of(19).label == "moderately severe" and phq.band_of(3).normal


def test_the_work_up_bands_are_bands_of_the_scale(kb):
    severe = kb.resolve_disorder("F32.2")
    phq = next(x for x in severe.exams if x.exam == "PHQ-9")
    assert phq.reading == "abnormal" and phq.band == "severe"
    withdrawal = kb.resolve_disorder("F10.230")
    findings = {x.exam: x.finding for x in withdrawal.exams}
    assert findings["CBC"] == "raised_mcv" and "GGT" in findings


def test_the_first_line_of_mania_spares_antidepressants(kb):
    mania = kb.resolve_disorder("F31.2")
    assert "sertraline" in {c.drug for c in mania.contraindicated_drugs}
    assert "F31.2" in kb.resolve_drug("sertraline").unsafe_with


# ------------------------------------------------------------------------------------ resolution


@pytest.mark.parametrize(
    "text, code",
    [
        ("F32.1", "F32.1"),
        ("f321", "F32.1"),
        (" F43.10 ", "F43.10"),
        ("Major depressive disorder, single episode, moderate", "F32.1"),
        ("major depressive disorder, single episode, MODERATE", "F32.1"),
        ("MDD", "F32.1"),
        ("PTSD", "F43.10"),
        ("post traumatic stress disorder", "F43.10"),
        ("Generalised anxiety disorder", "F41.1"),
        ("F90.2 ADHD, combined", "F90.2"),
        ("ADHD", "F90.2"),
        ("emotionally unstable personality disorder", "F60.3"),
    ],
)
def test_resolve_disorder(kb, text, code):
    assert kb.resolve_disorder(text).code == code
    assert knowledge.resolve_disorder(text).code == code


@pytest.mark.parametrize("text", ["", "   ", "F99.9", "tennis elbow", "X"])
def test_resolve_disorder_unknown_is_none(kb, text):
    assert kb.resolve_disorder(text) is None


@pytest.mark.parametrize(
    "text, name",
    [("PHQ9", "PHQ-9"), ("phq 9", "PHQ-9"), ("Epworth", "ESS"), ("full blood count", "CBC"), ("U&E", "BMP"),
     ("thyroid function", "TSH"), ("EKG", "ECG"), ("UDS", "Urine drug screen"), ("Mini-Mental State Examination", "MMSE")],
)  # fmt: skip
def test_resolve_exam(kb, text, name):
    assert kb.resolve_exam(text).name == name
    assert knowledge.resolve_exam(text).name == name


@pytest.mark.parametrize(
    "text, name", [("Zoloft", "sertraline"), ("LITHIUM CARBONATE", "lithium"), ("Suboxone", "buprenorphine")]
)
def test_resolve_drug(kb, text, name):
    assert kb.resolve_drug(text).name == name
    assert knowledge.resolve_drug(text).name == name
    assert kb.resolve_drug("no such pill") is None


def test_disorders_in_category(kb):
    assert {d.code for d in knowledge.disorders_in("bipolar")} == {
        "F31.2",
        "F31.12",
        "F31.4",
        "F31.81",
        "F34.0",
    }
    assert kb.disorders_in("no such category") == ()


# ------------------------------------------------------------------------------ corrupted copies


def _bundle() -> dict[str, Any]:
    files = {p.relative_to(DATA).as_posix(): json.loads(p.read_text("utf-8")) for p in DATA.rglob("*.json")}
    return files


BUNDLE = _bundle()


def _write(folder: Path, files: dict[str, Any]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content), "utf-8")


_CLEAN = tempfile.TemporaryDirectory(prefix="kb-clean-")
_write(Path(_CLEAN.name), BUNDLE)


def _load_broken(files: dict[str, Any]) -> KnowledgeError:
    """Load a copy of the bundle where only the files that differ from it are rewritten."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        shutil.copytree(_CLEAN.name, folder)
        for name in set(BUNDLE) - set(files):
            (folder / name).unlink()
        _write(folder, {name: content for name, content in files.items() if BUNDLE.get(name) != content})
        with pytest.raises(KnowledgeError) as info:
            read_knowledge(folder)
    return info.value


# Each corruption: (file, mutate(content, draw) -> (entry, field)). draw(n) picks an index below n.
Corruption = Callable[[dict, Callable[[int], int]], "tuple[str, str]"]


def _pick(items: list, draw: Callable[[int], int]) -> tuple[int, Any]:
    i = draw(len(items))
    return i, items[i]


def wrong_category(c, draw):
    _, d = _pick(c["disorders"], draw)
    others = [x for x in category_ids() if x != d["category"]]
    d["category"] = others[draw(len(others))]
    return d["code"], "category"


def unknown_comorbidity(c, draw):
    _, d = _pick([d for d in c["disorders"] if d["comorbidities"]], draw)
    j, link = _pick(d["comorbidities"], draw)
    link["code"] = "F99.9"
    return d["code"], f"comorbidities[{j}].code"


def unknown_differential(c, draw):
    _, d = _pick(c["disorders"], draw)
    j, _ = _pick(d["differentials"], draw)
    d["differentials"][j] = "Z00.00"
    return d["code"], f"differentials[{j}]"


def unknown_exam(c, draw):
    _, d = _pick(c["disorders"], draw)
    j, x = _pick(d["exams"], draw)
    x["exam"] = "Tarot reading"
    return d["code"], f"exams[{j}].exam"


def unknown_band(c, draw):
    _, d = _pick([d for d in c["disorders"] if any("band" in x for x in d["exams"])], draw)
    _, x = _pick([x for x in d["exams"] if "band" in x], draw)
    x["band"] = "catastrophic"
    return d["code"], f"exams[{d['exams'].index(x)}].band"


def unknown_drug(c, draw):
    _, d = _pick([d for d in c["disorders"] if d["treatment"]["medications"]], draw)
    j, m = _pick(d["treatment"]["medications"], draw)
    m["drug"] = "snake oil"
    return d["code"], f"treatment.medications[{j}].drug"


def missing_field(c, draw):
    _, d = _pick(c["disorders"], draw)
    fields = [
        "name",
        "category",
        "core_features",
        "onset",
        "course",
        "age_range",
        "sex_weights",
        "settings",
        "exams",
        "treatment",
        "safety",
    ]
    f = fields[draw(len(fields))]
    del d[f]
    return d["code"], f


def reversed_ages(c, draw):
    _, d = _pick(c["disorders"], draw)
    d["age_range"] = list(reversed(d["age_range"]))
    return d["code"], "age_range"


def ambiguous_synonym(c, draw):
    i = 1 + draw(len(c["disorders"]) - 1)
    d = c["disorders"][i]
    other = c["disorders"][draw(i)]  # an earlier disorder already owns the name
    d["synonyms"] = list(d["synonyms"]) + [other["name"]]
    return d["code"], f"synonyms[{len(d['synonyms']) - 1}]"


def band_gap(c, draw):
    _, e = _pick([e for e in c["exams"] if e["kind"] == "scale" and len(e["bands"]) > 1], draw)
    k = 1 + draw(len(e["bands"]) - 1)
    e["bands"][k]["min"] += 2 * e.get("score_step", 1)
    if e["bands"][k]["min"] > e["bands"][k]["max"]:
        return e["name"], f"bands[{k}]"
    return e["name"], f"bands[{k}].min"


def band_short_of_top(c, draw):
    _, e = _pick([e for e in c["exams"] if e["kind"] == "scale"], draw)
    e["score_range"][1] += 1
    return e["name"], f"bands[{len(e['bands']) - 1}].max"


def unknown_indication(c, draw):
    _, e = _pick(c["exams"], draw)
    j, _ = _pick(e["indicated_for"], draw)
    e["indicated_for"][j] = "astrology"
    return e["name"], f"indicated_for[{j}]"


def impossible_fit(c, draw):
    """An exam made for ages that run backwards, or for a sex the catalog does not know."""
    _, e = _pick(c["exams"], draw)
    if draw(2):
        e["fits"] = {"ages": [55, 12]}
        return e["name"], "fits.ages"
    e["fits"] = {"sexes": ["woman"]}
    return e["name"], "fits.sexes"


def unknown_unsafe_code(c, draw):
    _, d = _pick(c["drugs"], draw)
    d["unsafe_with"] = list(d["unsafe_with"]) + ["F99.1"]
    return d["name"], f"unsafe_with[{len(d['unsafe_with']) - 1}]"


def older_maximum_above_adult(c, draw):
    """Stop 40: the prescribing judge's maxima live in drugs.json; an older adult's maximum above the adult one is refused."""
    _, d = _pick([d for d in c["drugs"] if d.get("max_mg_day")], draw)
    d["older_max_mg_day"], d["older_from_age"] = d["max_mg_day"] * 2, 65
    return d["name"], "older_max_mg_day"


def dose_without_source(c, draw):
    _, d = _pick([d for d in c["drugs"] if d.get("max_mg_day")], draw)
    del d["dose_source"]
    return d["name"], "dose_source"


def unknown_symptom_concept(c, draw):
    _, p = _pick(c["presentations"], draw)
    j, s = _pick(p["symptoms"], draw)
    s["concept"] = "no_such_concept"
    return p["code"], f"symptoms[{j}].concept"


def unknown_negative_concept(c, draw):
    _, p = _pick([p for p in c["presentations"] if p.get("pertinent_negatives")], draw)
    j, _ = _pick(p["pertinent_negatives"], draw)
    p["pertinent_negatives"][j] = "no_such_concept"
    return p["code"], f"pertinent_negatives[{j}]"


def dropped_presentation(c, draw):
    i, p = _pick(c["presentations"], draw)
    del c["presentations"][i]
    return p["code"], "code"


def dropped_mse_domain(c, draw):
    i, d = _pick(c["domains"], draw)
    del c["domains"][i]
    return d["key"], "key"


def bad_concept_kind(c, draw):
    _, concept = _pick(c["concepts"], draw)
    concept["kind"] = "rumour"
    return concept["id"], "kind"


def negated_absent_phrase(c, draw):
    _, concept = _pick(c["concepts"], draw)
    phrases = concept.setdefault("absent_phrases", [])
    j = draw(len(phrases) + 1)
    phrases.insert(j, draw_negated_phrase(draw))
    return concept["id"], f"absent_phrases[{j}]"


def draw_negated_phrase(draw) -> str:
    """An absent phrase with a negation in it: read as the concept denied, it would say the opposite."""
    return ("never felt better", "no problems sleeping", "don't worry much", "nothing wrong")[draw(4)]


CORRUPTIONS: list[tuple[str, Corruption]] = [
    ("disorders.json", wrong_category),
    ("disorders.json", unknown_comorbidity),
    ("disorders.json", unknown_differential),
    ("disorders.json", unknown_exam),
    ("disorders.json", unknown_band),
    ("disorders.json", unknown_drug),
    ("disorders.json", missing_field),
    ("disorders.json", reversed_ages),
    ("disorders.json", ambiguous_synonym),
    ("exams.json", band_gap),
    ("exams.json", band_short_of_top),
    ("exams.json", unknown_indication),
    ("exams.json", impossible_fit),
    ("drugs.json", unknown_unsafe_code),
    ("drugs.json", older_maximum_above_adult),
    ("drugs.json", dose_without_source),
    ("presentations.json", unknown_symptom_concept),
    ("presentations.json", unknown_negative_concept),
    ("presentations.json", dropped_presentation),
    ("mse.json", dropped_mse_domain),
    ("lexicon/history.json", bad_concept_kind),
    ("lexicon/symptoms.json", bad_concept_kind),
    ("lexicon/history.json", negated_absent_phrase),
    ("lexicon/symptoms.json", negated_absent_phrase),
]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(CORRUPTIONS), seed=st.data())
def test_a_corrupted_copy_names_file_entry_and_field(which, seed):
    file, corrupt = which
    files = copy.deepcopy(BUNDLE)
    entry, field = corrupt(files[file], lambda n: seed.draw(st.integers(0, n - 1)))
    err = _load_broken(files)
    assert (err.file, err.entry, err.field) == (file, entry, field), str(err)
    assert file in str(err) and field in str(err)


def test_a_concept_id_in_two_lexicon_files_is_refused():
    files = copy.deepcopy(BUNDLE)
    files["lexicon/zz_extra.json"] = {
        "_about": "test",
        "concepts": [files["lexicon/history.json"]["concepts"][0]],
    }
    err = _load_broken(files)
    assert err.file == "lexicon/zz_extra.json" and err.field == "id"
    assert "lexicon/history.json" in str(err)


def test_a_missing_or_unreadable_file_is_named():
    files = copy.deepcopy(BUNDLE)
    del files["drugs.json"]
    err = _load_broken(files)
    assert err.file == "drugs.json" and "missing" in str(err)
    with tempfile.TemporaryDirectory() as tmp:
        _write(Path(tmp), BUNDLE)
        (Path(tmp) / "exams.json").write_text("{not json", "utf-8")
        with pytest.raises(KnowledgeError, match="exams.json: not valid JSON"):
            read_knowledge(tmp)


def test_a_clean_copy_loads_through_load_knowledge(tmp_path):
    _write(tmp_path, BUNDLE)
    kb = load_knowledge(tmp_path)
    assert kb is load_knowledge(tmp_path) and kb is not load_knowledge()
    assert len(kb.disorders) == len(load_knowledge().disorders)


def test_presentations_are_optional_until_the_file_exists(tmp_path):
    files = {k: v for k, v in BUNDLE.items() if k != "presentations.json"}
    _write(tmp_path, files)
    assert read_knowledge(tmp_path).presentations == ()


def test_importing_the_package_reads_no_data():
    import subprocess
    import sys

    code = (
        "import sys, mentalhospital_env.knowledge as k; "
        "assert 'mentalhospital_env.knowledge.base' not in sys.modules, 'base imported eagerly'; "
        "print(k.load_knowledge().__class__.__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "KnowledgeBase"


def test_every_code_has_the_icd10_who_code_a_uk_chart_writes() -> None:
    from mentalhospital_env.knowledge import load_knowledge
    from mentalhospital_env.knowledge.codes import chart_code, charted_diagnosis

    for d in load_knowledge().disorders:
        found = chart_code(d.code)
        assert found is not None, d.code
        who, title = found
        assert title, d.code
        # WHO ICD-10 has four characters, and a fifth only where WHO itself subdivides (F40.00, F44.81, F60.31)
        assert "." not in who or len(who.split(".")[1]) == 1 or who in ("F40.00", "F44.81", "F60.31"), (d.code, who)
    assert chart_code("F43.10") == ("F43.1", "Post-traumatic stress disorder")
    assert chart_code("F31.81")[0] == "F31.8"
    assert charted_diagnosis("F32.81", "Premenstrual dysphoric disorder").endswith("(N94.3)")
    assert charted_diagnosis("X99.9", "Unknown") == "Unknown (X99.9)"
