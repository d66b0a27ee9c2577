"""The clinical audit reads a user's narrative chart as a psychiatrist reads it (stop 37, issue 14).

Stop 36 ran the audit on uw-010 (a US chart, a 68-year-old man with Lewy body dementia) and it gave eleven
findings, nearly all false: glucose 104 mg/dL read as 104 mmol/L, a plan that declines the referrer's
antipsychotic and warns against haloperidol read as proposing one, 'no driving' read as no driving advice,
a man who quit smoking in 1998 read as smoking 15 a day, his brother's age at death read as his own
timeline. Each cause is pinned here with the finding it must still give when the chart does say it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mentalhospital_env.cases.audit import audit_case, lab_values
from mentalhospital_env.cases.loader import validate_case
from mentalhospital_env.knowledge.critical import load_critical_actions

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def uw010() -> dict:
    return json.loads((ROOT / "benchmarks/data/patient_exam/unseen/uw-010.json").read_text("utf-8"))


def _rules(raw: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in audit_case(validate_case(raw)):
        out.setdefault(f.rule, []).append(f.message)
    return out


def _exam(raw: dict, name: str) -> dict:
    return next(e for e in raw["exams"] if e["name"] == name)


def test_uw010_is_read_without_the_false_findings(uw010) -> None:
    rules = _rules(uw010)
    for rule in ("labs.range", "labs.flag", "plan.smoking", "timeline.age"):
        assert rule not in rules, (rule, rules.get(rule))


def test_uw010_plan_is_read_without_a_false_critical_finding(uw010) -> None:
    """Stop 54 landed a false 'misses safeguarding' (rule dependants_violence): the grandchildren who live in the next
    county and visit at weekends, and a son in Denver who phones weekly, were read as dependants at home. Stop 55: a
    sentence that places the people it names away (critical_actions.json dependant_away_cues) is no dependant."""
    rules = _rules(uw010)
    assert "plan.critical" not in rules, rules.get("plan.critical")


def test_us_units_are_read_with_their_unit(uw010) -> None:
    values = dict((n, v) for n, v, _ in lab_values(_exam(uw010, "Comprehensive metabolic panel")["result"]))
    assert values["glucose"] == pytest.approx(104 / 18.02, rel=0.01)
    assert values["creatinine"] == pytest.approx(88.4, rel=0.01)
    assert values["sodium"] == 139  # already in the component's unit
    # the same numbers written in SI units are impossible, and still said so
    raw = copy.deepcopy(uw010)
    _exam(raw, "Comprehensive metabolic panel")["result"] = "sodium 139 mmol/L, glucose 104 mmol/L, creatinine 1.0 umol/L"
    assert len(_rules(raw)["labs.range"]) == 2
    # a US value outside its range and called normal is still caught once read in its unit (300 mg/dL = 16.6 mmol/L)
    _exam(raw, "Comprehensive metabolic panel")["result"] = "Normal: sodium 139 mmol/L, glucose 300 mg/dL, creatinine 1.0 mg/dL"
    assert any("glucose 16.6" in m for m in _rules(raw)["labs.flag"])


@pytest.mark.parametrize(
    "plan",
    [
        "The referral's suggestion of risperidone augmentation is declined.",
        "Haloperidol: not to be given.",
        "We did not start olanzapine.",
        "Do not start quetiapine.",
        "Severe sensitivity to haloperidol in 2024 is recorded.",
        "A typical antipsychotic nearly caused a life-threatening reaction.",
        "Antipsychotic and medicine cautions on a wallet card.",
        "He declined aripiprazole.",
    ],
)
def test_a_refused_antipsychotic_is_not_proposed(plan) -> None:
    assert "antipsychotic" not in load_critical_actions().proposed(plan)


def test_a_started_antipsychotic_still_is() -> None:
    ca = load_critical_actions()
    assert "antipsychotic" in ca.proposed("Start risperidone 0.5 mg at night.")
    assert "antipsychotic" in ca.proposed("The referral suggests quetiapine; we agree and start it at 25 mg.")
    assert "benzodiazepine" not in ca.proposed("Avoid anticholinergics and minimize benzodiazepines.")
    assert "benzodiazepine" in ca.proposed("Lorazepam 0.5 mg at night for a week.")


def test_antipsychotic_started_in_dementia_is_still_found(uw010) -> None:
    raw = copy.deepcopy(uw010)
    raw["treatment"]["plan"] += "\n13. Start haloperidol 1 mg twice daily for the hallucinations."
    messages = _rules(raw).get("plan.critical", [])
    assert any(m.startswith("proposes an antipsychotic") for m in messages), messages


def test_no_driving_is_driving_advice(uw010) -> None:
    assert "driving_advice" in load_critical_actions().proposed("Safety plan given; no driving, and no power tools.")
    raw = copy.deepcopy(uw010)
    plan = raw["treatment"]["plan"]
    cut = plan.index("no driving")
    raw["treatment"]["plan"] = plan[:cut] + plan[plan.index("no power tools"):]
    raw["treatment"]["safety"] = [s for s in raw["treatment"]["safety"] if "driving" not in s]
    assert any("driving" in m for m in _rules(raw).get("plan.critical", []))


def test_past_smoking_is_not_current(uw010) -> None:
    raw = copy.deepcopy(uw010)
    sub = raw["ehr"]["substance_use"]
    told = "Tobacco: smoked about 15 cigarettes a day from 17 until 40 (about 17 pack-years) and quit in 1998 when his daughter asked him to;"
    assert told in sub
    for past in ("Tobacco: smokes 15 a day, stopped in 1998;", "Tobacco: ex-smoker, smoked 15 cigarettes a day;"):
        raw["ehr"]["substance_use"] = sub.replace(told, past)
        assert "plan.smoking" not in _rules(raw), past
    raw["ehr"]["substance_use"] = sub.replace(told, "Tobacco: smokes about 15 cigarettes a day and has tried to quit twice;")
    assert _rules(raw)["plan.smoking"]


def test_a_relatives_age_is_not_the_patients_timeline(uw010) -> None:
    raw = copy.deepcopy(uw010)
    assert "aged 71" in raw["ehr"]["history_of_present_illness"]
    raw["ehr"]["history_of_present_illness"] += " He moved in with his mother at age 71."
    assert any("age 71" in m for m in _rules(raw)["timeline.age"])


def test_a_drug_screen_is_read_for_what_it_is_positive_for() -> None:
    lines = (ROOT / "mentalhospital_env/cases/suites/handwritten.jsonl").read_text("utf-8").splitlines()
    raw = next(r for r in map(json.loads, lines) if r["case_id"] == "hw-021")
    screen = _exam(raw, "Urine drug screen")
    assert "negative for cocaine, opiates" in screen["result"]
    assert "joins.drug_screen" not in _rules(raw)  # hw-021: 'positive for cannabinoids; negative for ... opiates ...'
    screen["result"] = "positive for cannabinoids and opiates; negative for cocaine"
    assert any("opiates" in m for m in _rules(raw)["joins.drug_screen"])


def test_cocaine_used_years_ago_is_not_use_beside_children() -> None:
    raw = json.loads((ROOT / "benchmarks/data/patient_exam/unseen/uw-009.json").read_text("utf-8"))
    sub = raw["ehr"]["substance_use"]
    told = "Cocaine twice at a stag weekend in 2015, none since."
    assert told in sub and "children" in raw["demographics"]["living_situation"]
    assert "plan.safeguarding" not in _rules(raw)
    raw["ehr"]["substance_use"] = sub.replace(told, "Cocaine most weekends with friends.")
    assert _rules(raw)["plan.safeguarding"]


def test_a_relapse_drug_said_after_the_withdrawal_is_not_started_while_drinking() -> None:
    lines = (ROOT / "mentalhospital_env/cases/suites/handwritten.jsonl").read_text("utf-8").splitlines()
    raw = next(r for r in map(json.loads, lines) if r["case_id"] == "hw-010")
    plan = raw["treatment"]["plan"]
    assert "withdrawal in the community" in plan and "Afterwards start acamprosate" in plan
    assert "plan.substance" not in _rules(raw)  # 'Plan an assisted alcohol withdrawal ... Afterwards start acamprosate'
    raw["treatment"]["plan"] = plan.replace("Afterwards start acamprosate", "Start acamprosate")
    assert _rules(raw)["plan.substance"]


def test_indian_lakh_counts_are_read_in_the_components_unit() -> None:
    """An Indian chart writes a platelet count in lakhs per cubic millimetre ('platelets 2.8 lakh/cumm' is 280 x10^9/L);
    stop 52's reading of a Bengaluru case sheet found the audit taking it for 2.8 x10^9/L, 'outside what a living adult
    has'. A lakh count is read as the hundred thousands it is; a count that really is impossible is still said so."""
    def read(result: str) -> dict[str, float]:
        return {name: value for name, value, _ in lab_values(result)}

    assert read("Hb 10.1 g/dL, MCV 74 fL, platelets 2.8 lakh/cumm; smear normocytic.")["platelets"] == pytest.approx(280)
    assert read("platelets 1.5 lakhs/cumm")["platelets"] == pytest.approx(150)
    assert read("platelets 2.8 x10^9/L")["platelets"] == pytest.approx(2.8)
