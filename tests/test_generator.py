"""The synthetic case generator (version 1, which wrote the frozen ``test`` and ``dev`` suites) and
the clinical consistency checks. Version 2 is tested in test_generator_v2.py.

Most tests run against a small knowledge base written here, in the schema of the knowledge files, so
that they test the generator's rules and not the current content of the bundled knowledge base; a
few run against the bundled one.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.cases.consistency import check_case, scale_score
from mentalhospital_env.cases.derive import derive_checkpoints
from functools import partial

from mentalhospital_env.cases.generator import (
    GenerationError,
    case_line,
    plan_principals,
)
from mentalhospital_env.cases.generator import generate_case as _generate_case
from mentalhospital_env.cases.generator import generate_cases as _generate_cases
from mentalhospital_env.cases.generator import write_cases as _write_cases

# these tests describe version 1, which must keep reproducing the frozen suites
generate_case = partial(_generate_case, version=1)
generate_cases = partial(_generate_cases, version=1)
write_cases = partial(_write_cases, version=1)
from mentalhospital_env.cases.generator.composer import FitRules, Household, first_person, load_material
from mentalhospital_env.cases.generator.results import Expectation, band_of, exam_result
from mentalhospital_env.cases.reference import ClinicalReference
from mentalhospital_env.cli import main
from mentalhospital_env.knowledge.lexicon import Concept, Lexicon

# ----------------------------------------------------------------------------- a small knowledge base


def _concept(cid: str, kind: str, terms: list[str], lay: list[str], sensitive: bool = False) -> Concept:
    return Concept(cid, kind, "test", tuple(terms), tuple(lay), ("How are you?",), sensitive, ())


LEXICON = Lexicon(
    [
        _concept("low_mood", "symptom", ["depressed mood", "low mood"], ["feel down"]),
        _concept("anhedonia", "symptom", ["anhedonia", "loss of interest"], ["enjoy nothing"]),
        _concept("insomnia", "symptom", ["insomnia"], ["can't sleep"]),
        _concept("suicidal_ideation", "symptom", ["suicidal ideation", "death wishes", "suicidal thoughts"], ["better off dead"], True),
        _concept("suicide_plan", "symptom", ["suicide plan", "plan to end life"], [], True),
        _concept("auditory_hallucinations", "symptom", ["auditory hallucinations", "hallucinations"], ["hear voices"]),
        _concept("elevated_mood", "symptom", ["elevated mood", "euphoria"], ["on top of the world"]),
        _concept("decreased_need_for_sleep", "symptom", ["decreased need for sleep"], []),
        _concept("pressured_speech", "sign", ["pressured speech"], []),
        _concept("withdrawal_tremor", "symptom", ["withdrawal tremor", "tremor"], ["the shakes"], True),
        _concept("craving", "symptom", ["craving"], [], True),
        _concept("alcohol_use", "history", ["alcohol use", "drinking"], ["drink"], True),
        _concept("separation_anxiety", "symptom", ["separation anxiety"], ["miss mum"]),
        _concept("school_refusal", "symptom", ["school refusal"], []),
        _concept("premenstrual_mood_change", "symptom", ["premenstrual mood change"], []),
    ]
)

MSE = {
    "appearance": ["casually dressed", "tired-looking, fair self-care"],
    "behavior": ["cooperative, poor eye contact"],
    "speech": ["quiet, slow"],
    "mood": ["'low'", "'flat'"],
    "affect": ["constricted, tearful"],
    "thought_process": ["linear"],
    "thought_content": ["guilty themes; no suicidal ideation", "passive death wishes, no plan"],
    "perception": ["no hallucinations"],
    "cognition": ["alert and oriented"],
    "insight": ["partial"],
    "judgment": ["fair"],
}


def _presentation(code: str, symptoms: list[tuple[str, float, str, list[str]]], negatives: list[str], mse: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {
        "code": code,
        "symptoms": [{"concept": c, "p": p, "text": t, "patient_says": s} for c, p, t, s in symptoms],
        "pertinent_negatives": negatives,
        "onset_phrases": ["gradually over the past {duration}", "starting roughly {duration} ago"],
        "durations": ["three weeks", "two months"],
        "precipitants": ["losing a job", "the death of a parent", "the birth of a second child"],
        "impact": ["has stopped seeing friends", "has been signed off work", "struggling to keep up at school"],
        "mse": mse or MSE,
        "persona": {"verbosity": ["terse", "average"], "insight": ["partial"], "guardedness": [0.2, 0.6], "speech_style": ["slow and quiet"]},
    }


def _disorder(code: str, name: str, category: str, **kw: Any) -> dict[str, Any]:
    entry = {
        "code": code,
        "name": name,
        "synonyms": kw.pop("synonyms", [name.lower()]),
        "category": category,
        "core_features": ["a feature"],
        "onset": "any age",
        "course": kw.pop("course", "episodic"),
        "age_range": kw.pop("age_range", [18, 90]),
        "typical_age": kw.pop("typical_age", [25, 60]),
        "sex_weights": kw.pop("sex_weights", {"female": 1.0, "male": 1.0, "other": 0.05}),
        "service_weight": kw.pop("service_weight", 1.0),
        "settings": kw.pop("settings", {"outpatient": 0.6, "inpatient": 0.3, "emergency": 0.1}),
        "comorbidities": kw.pop("comorbidities", []),
        "differentials": [],
        "exams": kw.pop("exams", []),
        "treatment": kw.pop("treatment", {"medications": [], "psychotherapy": ["supportive therapy"], "other": [], "follow_up": "review in 4 weeks"}),
        "safety": kw.pop("safety", ["agree a safety plan"]),
    }
    entry.update(kw)
    return entry


DISORDERS = [
    _disorder(
        "F32.2", "Major depressive disorder, single episode, severe without psychotic features", "depressive",
        synonyms=["severe depression"], service_weight=6.0, course="single episode",
        comorbidities=[{"code": "F10.230", "p": 0.3}],
        exams=[
            {"exam": "PHQ-9", "reading": "abnormal", "band": "severe"},
            {"exam": "C-SSRS", "reading": "abnormal", "band": "low risk"},
            {"exam": "TSH", "reading": "normal"},
            {"exam": "CBC", "reading": "normal"},
        ],
        treatment={"medications": [{"drug": "sertraline", "starting_dose": "50 mg once daily"}], "psychotherapy": ["cognitive behavioural therapy"], "other": ["sleep hygiene"], "follow_up": "review in 2 weeks"},
        safety=["ask about suicidal thoughts at every visit"],
    ),
    _disorder(
        "F10.230", "Alcohol dependence with withdrawal, uncomplicated", "substance_related",
        synonyms=["alcohol withdrawal"], service_weight=3.0, sex_weights={"female": 1.0, "male": 2.0, "other": 0.05},
        exams=[
            {"exam": "CBC", "reading": "abnormal", "finding": "raised_mcv"},
            {"exam": "GGT", "reading": "abnormal"},
            {"exam": "TSH", "reading": "normal"},
        ],
        treatment={"medications": [{"drug": "chlordiazepoxide", "starting_dose": "20 mg four times daily, reducing"}], "psychotherapy": ["motivational interviewing"], "other": [], "follow_up": "daily while withdrawing"},
    ),
    _disorder(
        "F31.12", "Bipolar disorder, current episode manic without psychotic features, moderate", "bipolar",
        synonyms=["bipolar disorder"], service_weight=2.0, course="relapsing and remitting",
        exams=[{"exam": "TSH", "reading": "normal"}, {"exam": "Pregnancy test", "reading": "normal"}],
        treatment={"medications": [{"drug": "lithium", "starting_dose": "400 mg at night"}, {"drug": "sertraline", "starting_dose": "50 mg once daily"}], "psychotherapy": ["psychoeducation"], "other": [], "follow_up": "weekly"},
    ),
    _disorder(
        "F93.0", "Separation anxiety disorder of childhood", "anxiety",
        synonyms=["separation anxiety"], age_range=[4, 17], typical_age=[6, 12], service_weight=1.0,
        settings={"outpatient": 1.0},
        exams=[{"exam": "PHQ-9", "reading": "normal", "band": "minimal"}],
    ),
    _disorder(
        "F32.81", "Premenstrual dysphoric disorder", "depressive",
        synonyms=["premenstrual dysphoria"], age_range=[14, 50], typical_age=[20, 45],
        sex_weights={"female": 1.0, "male": 0.0, "other": 0.02}, settings={"outpatient": 1.0},
    ),
]

PRESENTATIONS = [
    _presentation(
        "F32.2",
        [
            ("low_mood", 0.95, "Severely depressed mood, most of the day", ["I feel down all the time.", "My wife says I've changed."]),
            ("anhedonia", 0.8, "Loss of interest in everything", ["I enjoy nothing now."]),
            ("insomnia", 0.7, "Early morning waking", ["I'm awake at four."]),
            ("suicidal_ideation", 0.5, "Passive death wishes without a plan", ["Sometimes I'd be better off dead."]),
        ],
        ["auditory_hallucinations", "elevated_mood", "alcohol_use"],
    ),
    _presentation(
        "F10.230",
        [
            ("withdrawal_tremor", 0.9, "Coarse tremor of the hands since stopping drinking", ["I've got the shakes."]),
            ("craving", 0.8, "Strong craving for alcohol", ["I'm desperate for a drink."]),
        ],
        ["auditory_hallucinations"],
    ),
    _presentation(
        "F31.12",
        [
            ("elevated_mood", 0.9, "Elevated, expansive mood", ["I'm on top of the world."]),
            ("decreased_need_for_sleep", 0.8, "Sleeping two hours a night without tiredness", ["Who needs sleep?"]),
            ("pressured_speech", 0.7, "Pressured speech", ["I can't stop talking."]),
        ],
        ["low_mood", "auditory_hallucinations"],
        mse={**MSE, "mood": ["'fantastic'"], "thought_content": ["grandiose themes; no suicidal ideation"], "affect": ["elated"]},
    ),
    _presentation(
        "F93.0",
        [
            ("separation_anxiety", 0.95, "Distress when apart from mother", ["I miss mum when I'm at school."]),
            ("school_refusal", 0.7, "Refuses to go to school", ["I don't want to go to school."]),
        ],
        ["low_mood"],
        mse={**MSE, "thought_content": ["worries about mother's safety; no suicidal ideation"]},
    ),
    _presentation(
        "F32.81",
        [("premenstrual_mood_change", 0.95, "Low mood and irritability in the week before menses", ["I'm a different person before my period."])],
        [],
    ),
]

EXAMS = [
    {"name": "PHQ-9", "aliases": ["PHQ9"], "kind": "scale", "indicated_for": ["depressive", "bipolar"], "item_count": 9, "score_range": [0, 27],
     "bands": [{"label": "minimal", "min": 0, "max": 4, "normal": True}, {"label": "mild", "min": 5, "max": 9, "normal": False},
               {"label": "moderate", "min": 10, "max": 14, "normal": False}, {"label": "moderately severe", "min": 15, "max": 19, "normal": False},
               {"label": "severe", "min": 20, "max": 27, "normal": False}],
     "normal_result": "total {score}/27 ({band})", "abnormal_result": "total {score}/27 ({band})"},
    {"name": "C-SSRS", "aliases": [], "kind": "scale", "indicated_for": ["depressive"], "item_count": 6, "score_range": [0, 6],
     "bands": [{"label": "negative", "min": 0, "max": 0, "normal": True}, {"label": "low risk", "min": 1, "max": 2, "normal": False},
               {"label": "moderate risk", "min": 3, "max": 3, "normal": False}, {"label": "high risk", "min": 4, "max": 6, "normal": False}],
     "normal_result": "highest item {score}/6 ({band})", "abnormal_result": "highest item {score}/6 ({band})"},
    {"name": "TSH", "aliases": ["thyroid function"], "kind": "lab", "indicated_for": ["depressive", "bipolar"], "unit": "mIU/L", "reference_range": [0.4, 4.0],
     "abnormal_direction": "either", "normal_result": "{value} {unit} (within reference range {low}-{high})", "abnormal_result": "{value} {unit} ({flag}; reference {low}-{high})"},
    {"name": "GGT", "aliases": [], "kind": "lab", "indicated_for": ["substance_related"], "unit": "U/L", "reference_range": [8, 61],
     "abnormal_direction": "high", "normal_result": "{value} {unit} (within reference range {low}-{high})", "abnormal_result": "{value} {unit} ({flag}; reference {low}-{high})"},
    {"name": "CBC", "aliases": ["full blood count"], "kind": "lab", "indicated_for": ["substance_related"],
     "normal_result": "Hb 14 g/dL, MCV 90 fL (all within reference range)", "abnormal_result": "abnormal blood count (see finding)",
     "components": [{"name": "haemoglobin", "unit": "g/dL", "reference_range": [12.0, 17.5]}, {"name": "MCV", "unit": "fL", "reference_range": [80, 100]}],
     "findings": {"raised_mcv": "Hb 13.6 g/dL, MCV 104 fL (raised)"}},
    {"name": "Lithium level", "aliases": ["serum lithium"], "kind": "lab", "indicated_for": ["bipolar"], "unit": "mmol/L", "reference_range": [0.6, 1.0],
     "abnormal_direction": "either", "normal_result": "{value} {unit} (within reference range {low}-{high})", "abnormal_result": "{value} {unit} ({flag}; reference {low}-{high})"},
    {"name": "Pregnancy test", "aliases": [], "kind": "lab", "indicated_for": ["bipolar"], "normal_result": "negative", "abnormal_result": "positive"},
    {"name": "ECG", "aliases": [], "kind": "physiological", "indicated_for": ["schizophrenia_spectrum"], "normal_result": "sinus rhythm 70/min, QTc 410 ms", "abnormal_result": "QTc 500 ms"},
]

DRUGS = [
    {"name": "sertraline", "synonyms": ["Zoloft"], "class": "SSRI", "starting_dose": "50 mg once daily", "unsafe_with": ["F31.12"]},
    {"name": "lithium", "synonyms": [], "class": "mood stabiliser", "starting_dose": "400 mg at night", "unsafe_with": []},
    {"name": "chlordiazepoxide", "synonyms": [], "class": "benzodiazepine", "starting_dose": "20 mg four times daily", "unsafe_with": []},
]

REF = ClinicalReference(DISORDERS, PRESENTATIONS, EXAMS, DRUGS, LEXICON)


def _case(seed: int, principal: str | None = None) -> dict[str, Any]:
    return generate_case(random.Random(seed), f"t-{seed}", principal=principal, reference=REF)


# ----------------------------------------------------------------------------------------- generation


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([None, "F32.2", "F10.230", "F31.12", "F93.0", "F32.81"]))
def test_every_generated_case_loads_and_is_consistent(seed: int, principal: str | None) -> None:
    raw = _case(seed, principal)
    case = load_case(raw)
    assert check_case(case, REF) == []
    if principal:
        assert case.diagnosis.principal.code == principal
    entry = REF.disorder(case.diagnosis.principal.code)
    low, high = entry["age_range"]
    assert low <= case.demographics.age <= high
    assert entry["sex_weights"].get(case.demographics.sex, 1) > 0
    assert set(case.diagnosis.categories) == {REF.disorder(d.code)["category"] for d in case.diagnosis.disorders}
    # the narrative is the facts joined, section by section
    for section, text in case.ehr.sections():
        assert text == " ".join(f.text for f in case.facts if f.section == section)
    assert case.checkpoints == derive_checkpoints(case.facts, case.exams)
    assert not case.facts_derived and case.checkpoints_derived
    assert {c.group for c in case.checkpoints.note} >= {"chief_complaint", "history", "mental_status", "risk"}
    assert case.persona is not None and case.persona.speech_style == "slow and quiet"
    assert raw["source"]["synthetic"] is True
    assert len(case.ehr.mental_status_exam.items()) >= 8


def test_children_get_childhood_disorders_and_a_parent_present() -> None:
    for seed in range(15):
        case = load_case(_case(seed, "F93.0"))
        assert 4 <= case.demographics.age <= 17
        assert case.persona.informant, "a child comes with a parent or carer"
        assert "pupil" in (case.demographics.occupation or "") or "student" in (case.demographics.occupation or "")
        assert "drinks about" not in (case.ehr.substance_use or "").lower()


def test_sex_weights_are_respected() -> None:
    assert all(load_case(_case(s, "F32.81")).demographics.sex != "male" for s in range(30))


def test_principal_frequency_follows_service_weight() -> None:
    draws = [load_case(_case(s)).diagnosis.principal.code for s in range(150)]
    assert draws.count("F32.2") > draws.count("F31.12") > 0
    assert draws.count("F32.2") > draws.count("F32.81")


def test_severe_depression_reads_severe_and_treats_first_line() -> None:
    for seed in range(20):
        case = load_case(_case(seed, "F32.2"))
        phq = case.exam("PHQ-9")
        entry = REF.exam("PHQ-9")
        assert band_of(entry, scale_score(phq.result, entry))["label"] == "severe"
        assert phq.indicated
        meds = {m.name: m.dose for m in case.treatment.medications}
        assert meds.get("sertraline") == "50 mg once daily"
        assert re.search(r"sertraline (at )?50 mg once daily", case.treatment.plan)
        assert case.treatment.follow_up == "review in 2 weeks"
        risk = case.ehr.risk_assessment.suicide
        cssrs = case.exam("C-SSRS")
        suicidal = any(f.text.startswith("Passive death wishes") for f in case.facts)
        assert ("negative" in cssrs.result) == (not suicidal), (cssrs.result, risk)


def test_alcohol_withdrawal_shows_raised_mcv_and_ggt() -> None:
    for seed in range(10):
        case = load_case(_case(seed, "F10.230"))
        assert "MCV 104 fL (raised)" in case.exam("CBC").result
        ggt = case.exam("GGT").result
        assert "(high;" in ggt and float(ggt.split()[0]) > 61
        assert "chlordiazepoxide" in {m.name for m in case.treatment.medications}
        assert re.search(r"\b(units|drinks|drinking|teetotal)\b", case.ehr.substance_use, re.I)
        assert "Teetotal" not in case.ehr.substance_use and "Does not drink" not in case.ehr.substance_use


def test_lithium_level_only_when_on_lithium_and_unsafe_drugs_never() -> None:
    with_level = 0
    for seed in range(40):
        case = load_case(_case(seed, "F31.12"))
        names = {m.name for m in case.treatment.medications}
        assert "sertraline" not in names, "an SSRI is unsafe in mania"
        level = case.exam("Lithium level")
        if level is not None:
            with_level += 1
            assert "lithium" in (case.ehr.medications or "")
            assert "lithium" in names
            if "not taken" in case.ehr.medications:
                assert "(low;" in level.result
        if case.demographics.sex == "male":
            assert case.exam("Pregnancy test") is None
    assert with_level > 0


def test_quotes_and_phrases_fit_the_household() -> None:
    for seed in range(40):
        raw = _case(seed, "F32.2")
        says = " ".join(f.get("patient_says") or "" for f in raw["facts"])
        demo = raw["demographics"]
        if "My wife says" in says:
            assert demo["marital_status"] == "married"
        if "signed off work" in raw["ehr"]["history_of_present_illness"]:
            assert not any(w in demo["occupation"] for w in ("unemployed", "student", "retired"))
        assert "school" not in raw["ehr"]["history_of_present_illness"].lower() or demo["age"] < 19


def test_sensitive_facts_and_patient_words() -> None:
    raw = next(_case(s, "F32.2") for s in range(50) if "Passive death wishes" in json.dumps(_case(s, "F32.2")))
    case = load_case(raw)
    si = next(f for f in case.facts if f.text.startswith("Passive death wishes"))
    assert si.sensitive and si.patient_says == "Sometimes I'd be better off dead."
    denials = [f for f in case.facts if f.text.startswith(("Denies", "No "))]
    assert all(not f.sensitive for f in denials)
    hpi = [f for f in case.facts if f.section == "history_of_present_illness"]
    assert sum(f.patient_says is not None for f in hpi) >= len(hpi) - 1


# ---------------------------------------------------------------------------------------- determinism


def test_same_seed_same_bytes_and_different_seeds_differ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = [case_line(c) for c in generate_cases(12, seed=3, prefix="d", reference=REF)]
    b = [case_line(c) for c in generate_cases(12, seed=3, prefix="d", reference=REF)]
    c = [case_line(c) for c in generate_cases(12, seed=4, prefix="d", reference=REF)]
    assert a == b and a != c
    assert [json.loads(x)["case_id"] for x in a] == [f"d-{i:04d}" for i in range(1, 13)]
    assert all(json.loads(x)["source"]["seed"] == 3 for x in a)


def test_plan_covers_every_disorder_when_n_allows() -> None:
    plan = plan_principals(40, seed=1, reference=REF)
    assert len(plan) == 40 and set(plan) == {d["code"] for d in DISORDERS}
    assert plan.count("F32.2") > plan.count("F32.81")
    assert plan == plan_principals(40, seed=1, reference=REF)
    small = plan_principals(5, seed=1, reference=REF)
    assert len(small) == 5 and plan_principals(8, seed=1, reference=REF)[:5] == small


def test_checkpoints_written_on_request_equal_the_derived_ones() -> None:
    plain = generate_case(random.Random(5), "w", principal="F32.2", reference=REF)
    full = generate_case(random.Random(5), "w", principal="F32.2", reference=REF, with_checkpoints=True)
    assert "checkpoints" not in plain and list(full)[-2:] == ["checkpoints", "source"]
    assert load_case(full).checkpoints == load_case(plain).checkpoints
    assert not load_case(full).checkpoints_derived


def test_inconsistent_drafts_are_redrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    from mentalhospital_env.cases.generator import composer as composer_module

    real = composer_module.CaseComposer.compose
    drafts: list[dict[str, Any]] = []

    def spoiled_first(self, rng, case_id, principal=None):  # the first draft of each case: a child with severe depression
        raw = real(self, rng, case_id, principal)
        drafts.append(raw)
        if len(drafts) == 1:
            raw["demographics"]["age"] = 5
        return raw

    monkeypatch.setattr(composer_module.CaseComposer, "compose", spoiled_first)
    raw = generate_case(random.Random(1), "redraw", principal="F32.2", reference=REF)
    assert len(drafts) == 2 and raw is drafts[1] and raw["demographics"]["age"] >= 13

    def always_spoiled(self, rng, case_id, principal=None):
        raw = real(self, rng, case_id, principal)
        raw["demographics"]["age"] = 5
        return raw

    monkeypatch.setattr(composer_module.CaseComposer, "compose", always_spoiled)
    with pytest.raises(GenerationError, match="age 5 is outside"):
        generate_case(random.Random(1), "never", principal="F32.2", reference=REF)


def test_unknown_principal_is_a_generation_error() -> None:
    with pytest.raises(GenerationError, match="F99"):
        generate_case(random.Random(0), "x", principal="F99", reference=REF)


# -------------------------------------------------------------------------------- consistency checks


@pytest.fixture(scope="module")
def depression() -> dict[str, Any]:
    return _case(7, "F32.2")


def _problems(raw: dict[str, Any]) -> list[str]:
    return check_case(load_case(raw), REF)


def test_check_flags_age_and_sex_that_do_not_fit(depression: dict[str, Any]) -> None:
    child = copy.deepcopy(depression)
    child["demographics"]["age"] = 9
    assert any("age 9 is outside" in p for p in _problems(child))
    pmdd = _case(3, "F32.81")
    pmdd["demographics"]["sex"] = "male"
    pmdd["exams"] = [e for e in pmdd["exams"] if not e["name"].startswith("Pregnancy")]
    assert any("does not occur in a male" in p for p in _problems(pmdd))


def test_check_flags_scores_out_of_range_and_wrong_bands(depression: dict[str, Any]) -> None:
    def with_phq(result: str) -> list[str]:
        raw = copy.deepcopy(depression)
        for e in raw["exams"]:
            if e["name"] == "PHQ-9":
                e["result"] = result
        return _problems(raw)

    assert with_phq("total 23/27 (severe)") == []
    assert any("outside the scale's range" in p for p in with_phq("total 31/27 (severe)"))
    assert any("but the result says 'moderate'" in p for p in with_phq("total 23/27 (moderate)"))
    assert any("fits none of the case's disorders" in p for p in with_phq("total 6/27 (mild)"))
    assert any("states no score" in p for p in with_phq("completed, see scanned form"))


def test_check_flags_drug_levels_unsafe_drugs_and_male_pregnancy_tests() -> None:
    mania = next(r for r in (_case(s, "F31.12") for s in range(60)) if r["treatment"]["medications"])
    raw = copy.deepcopy(mania)
    raw["exams"] = [e for e in raw["exams"] if e["name"] not in ("Lithium level", "Pregnancy test")]
    raw["exams"].append({"name": "Lithium level", "kind": "lab", "result": "0.8 mmol/L", "indicated": False})
    raw["ehr"]["medications"] = "No regular medications."
    raw["treatment"]["medications"] = [{"name": "sertraline", "dose": "50 mg once daily"}]
    raw["treatment"]["plan"] = "Start sertraline 50 mg once daily."
    raw["demographics"]["sex"] = "male"
    raw["exams"].append({"name": "Pregnancy test", "kind": "lab", "result": "negative", "indicated": False})
    problems = _problems(raw)
    assert any("lithium level, but the patient is not on lithium" in p for p in problems)
    assert any("sertraline: unsafe with F31.12" in p for p in problems)
    assert any("pregnancy test for a male" in p for p in problems)
    raw["treatment"]["plan"] = "Start sertraline 50 mg once daily despite the mania, because of specialist advice."
    assert not any("sertraline" in p for p in _problems(raw))


def test_check_flags_contradictions_and_orphan_categories(depression: dict[str, Any]) -> None:
    raw = copy.deepcopy(depression)
    raw["ehr"]["history_of_present_illness"] += " Denies low mood."
    raw["facts"].append({"id": "x-1", "section": "history_of_present_illness", "text": "Denies low mood.", "patient_says": "No."})
    assert any("low_mood is both present and denied" in p for p in _problems(raw))
    relative = copy.deepcopy(depression)
    relative["ehr"]["family_history"] = "Mother has depressed mood. Sister denies low mood."
    relative.pop("facts")
    assert not any("both present and denied" in p for p in _problems(relative))
    orphan = copy.deepcopy(depression)
    orphan["diagnosis"]["categories"].append("sleep_wake")
    assert any("sleep_wake is listed but no disorder" in p for p in _problems(orphan))
    unknown = copy.deepcopy(depression)
    unknown["diagnosis"]["disorders"].append({"name": "Something else", "code": "F99"})
    unknown["diagnosis"]["categories"] = unknown["diagnosis"]["categories"]
    assert any("F99" in p for p in check_case(unknown, REF))


def test_check_accepts_a_plain_mapping(depression: dict[str, Any]) -> None:
    assert check_case(depression, REF) == []


# ------------------------------------------------------------------------------------------ wording


def test_first_person() -> None:
    assert first_person("has stopped seeing friends") == "I've stopped seeing friends."
    assert first_person("has been signed off work") == "I've been signed off work."
    assert first_person("struggling to keep up at work") == "I'm struggling to keep up at work."
    assert first_person("stopped going to the gym and choir") == "I've stopped going to the gym and choir."
    assert first_person("relies on partner for childcare") is None
    assert first_person("household tasks and bills left undone") is None


def test_fit_rules() -> None:
    rules = FitRules(load_material("people")["fit_rules"]["rules"])
    single = Household(30, "female", "nurse", "single", None, False, False, True, False)
    married = Household(45, "male", "unemployed", "married", "wife", True, False, False, False)
    assert rules.fits("I feel down all the time.", single)
    assert not rules.fits("My wife says I've changed.", single) and rules.fits("My wife says I've changed.", married)
    assert not rules.fits("I've been signed off work.", married) and rules.fits("I've been signed off work.", single)
    assert not rules.fits("The kids notice.", single) and rules.fits("The kids notice.", married)
    assert not rules.fits("My grandkids visit.", married)


def test_exam_results_inside_bands_and_ranges() -> None:
    rng = random.Random(0)
    phq = REF.exam("PHQ-9")
    for band in ("minimal", "mild", "moderate", "moderately severe", "severe"):
        for _ in range(20):
            text = exam_result(phq, Expectation("PHQ-9", "abnormal", band=band), rng)
            assert band_of(phq, scale_score(text, phq))["label"] == band and f"({band})" in text
    tsh = REF.exam("TSH")
    for _ in range(50):
        value = float(exam_result(tsh, Expectation("TSH", "normal"), rng).split()[0])
        assert 0.4 <= value <= 4.0
        high = exam_result(REF.exam("GGT"), Expectation("GGT", "abnormal"), rng)
        assert float(high.split()[0]) > 61 and "(high;" in high
        low = exam_result(REF.exam("Lithium level"), Expectation("Lithium level", "abnormal", direction="low"), rng)
        assert float(low.split()[0]) < 0.6 and "(low;" in low


# ------------------------------------------------------------------------------ the bundled knowledge


@pytest.mark.slow
def test_bundled_knowledge_generates_valid_consistent_cases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    assert write_cases(out, 20, seed=11) == 20
    suite = load_suite(out)
    assert len(suite) == 20 and all(check_case(c) == [] for c in suite)
    assert main(["cases", "generate", "--n", "3", "--seed", "11", "--version", "1"]) == 0
    printed = capsys.readouterr().out
    assert main(["cases", "generate", "--n", "3", "--seed", "11", "--version", "1", "--out", str(tmp_path / "three.jsonl")]) == 0
    assert printed == (tmp_path / "three.jsonl").read_text(encoding="utf-8")
    assert [json.loads(x)["case_id"] for x in printed.splitlines()] == ["case-0001", "case-0002", "case-0003"]
