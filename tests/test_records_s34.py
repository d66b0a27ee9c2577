"""Stop 34 (issue 14): what stop 33's consultant found in ten test-v2 records, mended by class.

A registered health professional who is dependent on alcohol or drugs is told about fitness to practise
(test-v2-0074: a nurse drinking 21 units a day). The vague 'plan a medically assisted withdrawal' is not
said beside the regimen the plan gives (test-v2-0450, on the ward). A liver multiple in the plan names the
enzyme and the limit it is a multiple of (0450: '2.9 times the upper limit' that no result on file gave).
Daily cannabis is not written beside 'Never smoked' (0068, 0280). Panic disorder is not coded beside
agoraphobia (0375: F41.0 with F40.00)."""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases.audit import RULES, audit_case, benzodiazepine_caution
from mentalhospital_env.cases.generator import generate_case
from mentalhospital_env.cases.generator.plans import follow_record
from mentalhospital_env.cases.loader import validate_case

from test_audit import _categories, _changed
from test_records_plans_fit import _DRINKER


def _case(changes: dict):
    raw = _changed({**_DRINKER, **changes})
    raw["diagnosis"]["categories"] = _categories(raw)
    return validate_case(raw)


def _rules(changes: dict) -> set[str]:
    return {f.rule for f in audit_case(_case(changes))}


def test_the_new_rules_are_audit_rules() -> None:
    assert {"plan.fitness_to_practise", "plan.withdrawal_twice"} <= set(RULES)


@pytest.mark.parametrize("job, regulator", [("nurse", "NMC"), ("pharmacist", "GPhC"), ("paramedic", "HCPC"), ("dental nurse", "GDC")])
def test_a_dependent_health_professional_hears_about_fitness_to_practise(job: str, regulator: str) -> None:
    changes = {"demographics.occupation": job}
    assert "plan.fitness_to_practise" in _rules(changes)
    case = _case(changes)
    plan = follow_record(case.treatment.plan, {"plan": case.treatment.plan, "medications": []}, case, random.Random(5))
    assert re.search(rf"\b{regulator}\b", plan) and "occupational health" in plan, plan
    told = {**changes, "treatment.plan": _DRINKER["treatment.plan"] + f" Fitness to practise discussed; occupational health with consent; the {regulator}'s advice sought."}
    assert "plan.fitness_to_practise" not in _rules(told)


@pytest.mark.parametrize("changes", [
    {"demographics.occupation": "retired nurse"},
    {"demographics.occupation": "librarian"},
    {"demographics.occupation": "nurse", "diagnosis": {"disorders": [{"name": "Alcohol abuse", "code": "F10.10"}]}},
])
def test_no_fitness_to_practise_step_without_a_practising_professional_who_is_dependent(changes: dict) -> None:
    assert "plan.fitness_to_practise" not in _rules(changes)


_WARD = {"setting": "inpatient", "treatment.plan": "Continue inpatient care on general observations. Plan a medically assisted withdrawal. "
         "Assisted withdrawal on the ward: chlordiazepoxide reducing over a week, the CIWA-Ar scored four-hourly. Pabrinex IV for 3-5 days."}


def test_the_vague_withdrawal_clause_beside_the_regimen_is_found_and_struck() -> None:
    assert "plan.withdrawal_twice" in _rules(_WARD)
    case = _case(_WARD)
    plan = follow_record(case.treatment.plan, {"plan": case.treatment.plan, "medications": []}, case, random.Random(2))
    assert "Plan a medically assisted withdrawal" not in plan and "reducing over a week" in plan, plan
    outpatient = {"treatment.plan": "Outpatient care. Warn not to stop drinking suddenly: plan a medically assisted withdrawal (community or inpatient detoxification). "
                  "Community detoxification through the alcohol service: a fixed reducing regimen of chlordiazepoxide over about a week."}
    assert "plan.withdrawal_twice" in _rules(outpatient)
    case = _case(outpatient)
    plan = follow_record(case.treatment.plan, {"plan": case.treatment.plan, "medications": []}, case, random.Random(2))
    assert "Warn not to stop drinking suddenly." in plan and "(community or inpatient detoxification)" not in plan, plan


def test_the_withdrawal_clause_alone_is_left() -> None:
    alone = {"treatment.plan": "Outpatient care. Plan a medically assisted withdrawal; involve family where wanted. Oral thiamine 100 mg three times daily."}
    assert "plan.withdrawal_twice" not in _rules(alone)


def test_a_liver_multiple_names_its_enzyme_and_limit() -> None:
    case = _case({"demographics.sex": "female", "demographics.living_situation": "lives with her husband",
                  "exams": [{"name": "LFT", "kind": "lab", "result": "ALT 44 U/L (raised), AST 174 U/L (raised), ALP 90 U/L, bilirubin 14 umol/L, albumin 41 g/L"}]})
    why = benzodiazepine_caution(case) or ""
    m = re.search(r"(AST|ALT) at (\d+) U/L, (\d+(?:\.\d)?) times its upper limit of (\d+)", why)
    assert m and m.group(1) == "AST" and m.group(2) == "174", why
    assert abs(float(m.group(3)) - 174 / float(m.group(4))) < 0.5  # the multiple is the quoted value over the quoted limit


def test_daily_cannabis_is_not_written_beside_never_smoked() -> None:
    seen = 0
    for seed in range(12):
        case = generate_case(random.Random(seed), f"weed-{seed}", principal="F12.20", version=2)
        use = case["ehr"].get("substance_use") or ""
        if re.search(r"cannabis|skunk", use, re.I):
            seen += 1
            assert "Never smoked" not in use, use
    assert seen >= 6  # the premise: the draws hold cannabis histories


def test_panic_disorder_is_not_coded_beside_agoraphobia() -> None:
    for principal in ("F41.0", "F40.00"):
        for seed in range(15):
            case = generate_case(random.Random(seed), f"panic-{seed}", principal=principal, version=2)
            codes = [d["code"] for d in case["diagnosis"]["disorders"]]
            assert not ("F41.0" in codes and any(c.startswith("F40.0") for c in codes)), codes


_SMOKER = {"ehr.substance_use": "Smokes about 3 g of cannabis a day, from first thing in the morning. Alcohol: about 3 units a week.",
           "ehr.chief_complaint": "Smoking skunk from morning to night for about a year.",
           "ehr.history_of_present_illness": "Since his separation a year ago he smokes from waking; he cannot relax without it.",
           "diagnosis": {"disorders": [{"name": "Cannabis dependence", "code": "F12.20"}, {"name": "Generalized anxiety disorder", "code": "F41.1"}]},
           "treatment.plan": "Outpatient care. Motivational enhancement therapy and CBT. Commence sertraline 50 mg once daily.",
           "treatment.medications": [{"name": "sertraline", "dose": "50 mg once daily"}]}


def test_an_antidepressant_waits_for_abstinence_where_cannabis_dependence_is_principal() -> None:
    assert "plan.abstinence_first" in _rules(_SMOKER)
    case = _case(_SMOKER)
    plan = follow_record(case.treatment.plan, {"plan": case.treatment.plan, "medications": []}, case, random.Random(1))
    assert re.search(r"abstinen\w+ from cannabis", plan) and "sertraline" in plan, plan
    assert "plan.abstinence_first" not in _rules({**_SMOKER, "treatment.plan": plan})
    stopped = {**_SMOKER, "ehr.substance_use": "Smoked cannabis daily until he stopped two months ago; none since."}
    assert "plan.abstinence_first" not in _rules(stopped)
    anxious_first = {**_SMOKER, "diagnosis": {"disorders": [{"name": "Generalized anxiety disorder", "code": "F41.1"}, {"name": "Cannabis dependence", "code": "F12.20"}]}}
    assert "plan.abstinence_first" not in _rules(anxious_first)


def test_a_phrase_said_twice_in_a_row_is_found() -> None:
    said = {"treatment.plan": _DRINKER["treatment.plan"] + " Commence sertraline 50 mg once daily in the morning in the morning."}
    assert "text.repeated_clause" in _rules(said)
    once = {"treatment.plan": _DRINKER["treatment.plan"] + " Commence sertraline 50 mg once daily in the morning, with food."}
    assert "text.repeated_clause" not in _rules(once)


def test_a_suite_draw_allows_the_drafts_its_frame_cap_may_refuse() -> None:
    from mentalhospital_env.cases.audit import review_facts
    from mentalhospital_env.cases.generator import MAX_ATTEMPTS_V2, _attempts

    R = review_facts()
    assert _attempts(2, False) == MAX_ATTEMPTS_V2  # a single case: as before
    assert _attempts(2, True) == MAX_ATTEMPTS_V2 + R["clone"]["generator_tries"] + R["template"]["generator_tries"]
    assert R["template"]["generator_tries"] > 0
