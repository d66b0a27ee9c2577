"""Stop 32 (issue 14): what stop 31's consultant found in test-v2 records, mended by cause.

Plans fitted to the patient: a dependent drinker (or a driver put on a sedating drug) hears about driving
and the DVLA; an older patient or one with a damaged liver is given lorazepam rather than chlordiazepoxide,
and the plan says why; cyclothymia keeps its own drug instead of sertraline 'for the co-occurring anxiety'.
The clone rule counts a mental state shared line for line however short its lines. Relatives' illnesses are
named as families name them."""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases.audit import RULES, audit_case, benzodiazepine_caution, clone_pairs, clone_score, own_lines, review_facts
from mentalhospital_env.cases.generator import generate_case, generate_cases
from mentalhospital_env.cases.generator.plans import follow_record
from mentalhospital_env.cases.loader import validate_case

from test_audit import _categories, _changed

_DRINKER = {
    "demographics.age": 44, "demographics.sex": "male", "demographics.occupation": "delivery driver",
    "demographics.living_situation": "lives with his wife and two sons",
    "ehr.substance_use": "Drinks about 16 units a day, mostly cider; drinking on waking for the past year.",
    "ehr.chief_complaint": "Drinking more and more since his father died in the spring, about four months ago.",
    "ehr.history_of_present_illness": "His father died in March; since then he drinks from waking and has shakes until the first can.",
    "diagnosis": {"disorders": [{"name": "Alcohol dependence syndrome", "code": "F10.20"}]},
    "treatment.plan": "Outpatient care. Oral thiamine 100 mg three times daily. Community detoxification: chlordiazepoxide on a reducing regimen over a week, CIWA-Ar at each daily visit.",
    "treatment.medications": [{"name": "chlordiazepoxide", "dose": "reducing over 7 days"}, {"name": "thiamine", "dose": "100 mg three times daily"}],
}


def _rules_found(changes: dict) -> set[str]:
    raw = _changed(changes)
    raw["diagnosis"]["categories"] = _categories(raw)
    return {f.rule for f in audit_case(validate_case(raw))}


def test_new_rules_are_audit_rules() -> None:
    assert {"plan.driving", "plan.benzodiazepine_choice"} <= set(RULES)


def test_dependent_driver_without_driving_advice_is_found() -> None:
    assert "plan.driving" in _rules_found(_DRINKER)
    told = {**_DRINKER, "treatment.plan": _DRINKER["treatment.plan"] + " No driving while drinking or withdrawing; he must tell the DVLA."}
    assert "plan.driving" not in _rules_found(told)


def test_sedating_drug_for_a_driver_needs_driving_advice_and_none_without_one() -> None:
    zolpidem = {"treatment.plan": "Offer CBT-I first; zolpidem 5 mg at bedtime only if sleep stays very poor, for no more than 2 weeks.",
                "treatment.medications": [{"name": "zolpidem", "dose": "5 mg at bedtime"}]}
    assert "plan.driving" in _rules_found(zolpidem)  # the clean record's patient drives a bus
    assert "plan.driving" not in _rules_found({**zolpidem, "demographics.occupation": "librarian",
                                               "ehr.personal_history": "A librarian for eleven years. Married for 18 years."})


@pytest.mark.parametrize(
    "changes, why",
    [
        ({"demographics.age": 78, "demographics.occupation": "retired postman"}, "at 78"),
        ({"exams": [{"name": "LFT", "kind": "lab", "result": "ALT 98 U/L (raised), AST 257 U/L (raised), ALP 90 U/L, bilirubin 14 umol/L, albumin 41 g/L"}]}, "AST at 257 U/L"),
    ],
)
def test_chlordiazepoxide_for_an_older_or_liver_damaged_drinker_is_found(changes: dict, why: str) -> None:
    raw = _changed({**_DRINKER, **changes})
    raw["diagnosis"]["categories"] = _categories(raw)
    case = validate_case(raw)
    assert why in (benzodiazepine_caution(case) or "")
    assert "plan.benzodiazepine_choice" in {f.rule for f in audit_case(case)}


@pytest.mark.parametrize(
    "changes, found",
    [
        # hw-013's exit: a switch to oxazepam when the liver tests worsen weighs the liver...
        ({"exams": [{"name": "LFT", "kind": "lab", "result": "ALT 98 U/L (raised), AST 257 U/L (raised), ALP 90 U/L, bilirubin 14 umol/L, albumin 41 g/L"}]}, False),
        # ...not a 78-year-old's age (stop 39, the stop-38 review)
        ({"demographics.age": 78, "demographics.occupation": "retired postman"}, True),
    ],
)
def test_a_switch_for_worsening_liver_tests_answers_the_liver_not_the_age(changes: dict, found: bool) -> None:
    raw = _changed({**_DRINKER, **changes})
    raw["treatment"]["plan"] = (raw["treatment"]["plan"] + " Chlordiazepoxide on a reducing regimen by the CIWA-Ar; liver "
                                "function monitored (switch to oxazepam if bilirubin or clotting worsen).")
    raw["diagnosis"]["categories"] = _categories(raw)
    case = validate_case(raw)
    assert ("plan.benzodiazepine_choice" in {f.rule for f in audit_case(case)}) is found


def test_chlordiazepoxide_for_a_healthy_middle_aged_drinker_is_not_found() -> None:
    raw = _changed(_DRINKER)
    raw["diagnosis"]["categories"] = _categories(raw)
    case = validate_case(raw)
    assert benzodiazepine_caution(case) is None
    assert "plan.benzodiazepine_choice" not in {f.rule for f in audit_case(case)}


def test_admitted_from_the_department_gets_the_wards_withdrawal_wording() -> None:
    raw = _changed({**_DRINKER, "setting": "emergency",
                    "treatment.plan": "Assess in the emergency department; admission arranged today given the risk found. Oral thiamine 100 mg three times daily."})
    raw["diagnosis"]["categories"] = _categories(raw)
    case = validate_case(raw)
    plan = follow_record(case.treatment.plan, {"plan": case.treatment.plan, "medications": []}, case, random.Random(3))
    assert re.search(r"chlordiazepoxide|CIWA", plan)
    assert not re.search(r"before (?:he|she) leaves|before discharge|community alcohol team", plan), plan


def _shared_mse(n_same: int) -> list:
    fields = ["appearance", "behavior", "speech", "mood", "affect", "thought_process", "thought_content", "perception", "cognition", "insight", "judgment"]
    one = {f: f"{f} wording one" for f in fields}
    other = {f: (one[f] if i < n_same else f"{f} wording two") for i, f in enumerate(fields)}
    cases = []
    for cid, mse in (("a", one), ("b", other)):
        raw = _changed({"case_id": cid, "ehr.mental_status_exam": mse})
        raw["diagnosis"]["categories"] = _categories(raw)
        cases.append(validate_case(raw))
    return cases


def _mse_score(n_same: int) -> float:
    a, b = _shared_mse(n_same)
    mine, theirs = own_lines(a), own_lines(b)
    return clone_score([kind for key, kind in mine.items() if key in theirs and key.startswith("M ")])


def test_a_mental_state_of_short_lines_shared_line_for_line_is_a_near_clone() -> None:
    assert len("appearance wording one".split()) < 6  # each line below the clone rule's length
    need = review_facts()["clone"]["min_score"]
    assert _mse_score(7) >= need
    assert _mse_score(3) < need
    assert [(a, b) for a, b, _ in clone_pairs(_shared_mse(11))] == [("a", "b")]


@pytest.fixture(scope="module")
def drawn() -> list:
    return [validate_case(c) for c in generate_cases(80, 3202, prefix="fit", version=2)]


def test_generated_plans_fit_age_liver_and_driving(drawn: list) -> None:
    cautious = [c for c in drawn if benzodiazepine_caution(c) and re.search(r"lorazepam|chlordiazepoxide", c.treatment.plan)]
    dependent = [c for c in drawn if any(x.startswith("F10.2") and x != "F10.21" for x in c.diagnosis.codes) and c.demographics.age >= 17]
    assert cautious and dependent  # the premise: the draw holds both
    for c in cautious:
        assert not re.search(r"(?<!rather than )(?<!in place of )\bchlordiazepoxide\b", c.treatment.plan, re.I), c.case_id
        assert "chlordiazepoxide" not in {m.name.lower() for m in c.treatment.medications or ()}
    for c in dependent:
        assert re.search(r"\bdriv(?:e|es|ing)\b|\bDVLA\b", c.treatment.plan), c.case_id


def test_relatives_illnesses_are_named_as_families_name_them(drawn: list) -> None:
    labels = re.compile(r"use disorder|cyclothymi|bipolar II|hoarding disorder|body dysmorphic|illness anxiety disorder|dysthymi|intellectual disability", re.I)
    named = [c.ehr.family_history for c in drawn if re.search(r"\b(?:has|treated for|history of)\b", c.ehr.family_history or "")]
    assert named
    assert [t for t in named if labels.search(t)] == []


def test_cyclothymia_keeps_its_own_drug() -> None:
    for seed in range(3):
        case = generate_case(random.Random(seed), f"cyc-{seed}", principal="F34.0", version=2)
        names = {m["name"].lower() for m in case["treatment"].get("medications") or ()}
        assert "sertraline" not in names and "co-occurring anxiety" not in case["treatment"]["plan"]


def test_a_teenager_with_adhd_is_not_sent_for_multisystemic_therapy() -> None:
    teens = []
    for seed in range(60, 80):
        case = generate_case(random.Random(seed), f"adhd-{seed}", principal="F90.2", version=2)
        if 14 < case["demographics"]["age"] < 18:
            teens.append(case)
    assert teens  # the premise: the draw holds young people old enough for the parent-training rewrite
    assert [c["case_id"] for c in teens if "multisystemic" in c["treatment"]["plan"].lower()] == []
