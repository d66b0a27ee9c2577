"""Stop 23 (issue 14): the reader's contradictions between sections, plan clauses left open, doses
written as alternatives, repeated patient quotes and jobs drawn against their sex ratio, each caught
by the audit's ``agree`` group or a suite rule, and each settled by the generator at the source."""

from __future__ import annotations

import random

import pytest

from mentalhospital_env.cases.audit import RULES, audit_case, audit_suite
from mentalhospital_env.cases.generator import generate_cases
from mentalhospital_env.cases.generator.plans import one_target, settle_plan
from mentalhospital_env.cases.loader import validate_case

from test_audit import _categories, _changed, _clean, _with


def _agree(changes: dict) -> set[str]:
    raw = _changed(changes)
    raw["diagnosis"]["categories"] = _categories(raw)
    return {f.rule for f in audit_case(validate_case(raw)) if f.rule.startswith("agree.")}


@pytest.mark.parametrize(
    "changes, rule",
    [
        ({"treatment.plan": "Start sertraline 50 mg daily. Consider admission if risk is high."}, "agree.plan_conditional"),
        ({"treatment.plan": "Start sertraline 50 mg daily. Thiamine: Pabrinex IV for 3-5 days if at risk of Wernicke's encephalopathy."}, "agree.plan_conditional"),
        ({"treatment.plan": "Legal framework: informal admission if he or she agrees and has capacity."}, "agree.plan_conditional"),
        ({"treatment.plan": "Start methylphenidate 5 mg twice daily (immediate release) or 18 mg once daily (extended release).",
          "treatment.medications": [{"name": "methylphenidate", "dose": "5 mg twice daily (immediate release) or 18 mg once daily (extended release)"}]}, "agree.dose_alternatives"),
        ({"treatment.plan": "Start lithium 300 mg twice daily (or 400 mg at night).", "treatment.medications": [{"name": "lithium", "dose": "300 mg twice daily (or 400 mg at night)"}]}, "agree.dose_alternatives"),
        ({"treatment.plan": "Start lithium 400 mg at night, adjusted to a trough level of 0.6-1.0 mmol/L. Check the lithium level 12 hours post-dose (aim 0.4-1.0 mmol/L)."}, "agree.level_targets"),
        ({"treatment.plan": "Grounding skills; avoid benzodiazepines. Do not stop drinking suddenly: plan a medically assisted withdrawal."}, "agree.benzodiazepines"),
        ({"exams": [{"name": "Pregnancy test", "kind": "lab", "result": "negative"}],
          "treatment.plan": "Start lamotrigine 25 mg daily. Pregnancy test first, and discuss contraception."}, "agree.ordered_on_file"),
        ({"ehr.risk_assessment": {"suicide": "No thoughts of suicide or self-harm; would not act because of her family."}}, "agree.risk_reason"),
        ({"ehr.personal_history": "Currently working as a farm worker. Married for 18 years.",
          "ehr.history_of_present_illness": "Low for four months; she feels unable to return to work."}, "agree.employment"),
        ({"ehr.personal_history": "Grew up with both parents; an ordinary, settled upbringing. Several convictions for robbery; on probation."}, "agree.upbringing"),
        ({"ehr.history_of_present_illness": "Low for four months. \"I drink every day, half a bottle of vodka, maybe more.\"",
          "ehr.substance_use": "Heavy daily drinking, about 9 units a day of vodka, for 6 years."}, "agree.drink_units"),
        ({"ehr.medical_history": "Multiple sclerosis, diagnosed two years ago."}, "agree.medical_plan"),
        ({"ehr.personal_history": "Has a job as a care worker. Single.",
          "ehr.history_of_present_illness": "Low for four months; by now she has lost a job after arguing with colleagues."}, "agree.job_lost"),
        ({"ehr.history_of_present_illness": "Low for four months. \"I carry something to protect myself,\" she says.",
          "ehr.risk_assessment": {"violence": "No violence in her history; denies thoughts of hurting anyone."}}, "agree.weapon_risk"),
        ({"exams": [{"name": "PHQ-9", "kind": "scale", "result": "total 27/27 (severe)"}]}, "agree.scale_severity"),
        ({"ehr.history_of_present_illness": "Low for four months; he has had repeated admissions, his sister adds.",
          "ehr.past_psychiatric_history": "Depression since 30. One previous admission, 1 year ago."}, "agree.admissions"),
        ({"exams": [{"name": "MADRS", "kind": "scale", "result": "total 47/60 (severe)"}],
          "ehr.risk_assessment": {"suicide": "Passive death wishes without plan or intent."}}, "agree.scale_severity"),
    ],
)
def test_agree_rules_catch_the_readers_contradictions(changes: dict, rule: str) -> None:
    assert rule in RULES
    assert rule in _agree(changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"treatment.plan": "Start sertraline 50 mg daily. No indication for admission today."},
        {"treatment.plan": "Grounding skills; no benzodiazepines beyond the fixed withdrawal regimen. Plan a medically assisted withdrawal."},
        {"exams": [{"name": "Pregnancy test", "kind": "lab", "result": "negative"}], "treatment.plan": "Start lamotrigine 25 mg daily. Pregnancy test negative today."},
        {"ehr.risk_assessment": {"suicide": "Passive death wishes; would not act because of her family."}},
        {"ehr.personal_history": "Grew up with both parents; a settled childhood. Never arrested, never in court."},
        {"ehr.history_of_present_illness": "Low for four months. \"I drink every day, half a bottle of vodka, maybe more.\"",
         "ehr.substance_use": "Heavy daily drinking, about 16 units a day of vodka, for 6 years."},
        {"ehr.medical_history": "Multiple sclerosis, diagnosed two years ago.",
         "treatment.plan": "Start sertraline 50 mg daily. Liaise with her MS team about the mood change."},
        {"exams": [{"name": "MADRS", "kind": "scale", "result": "total 38/60 (severe)"}]},
    ],
)
def test_agree_rules_leave_consistent_records(changes: dict) -> None:
    assert _agree(changes) == set()


def test_a_quote_in_many_records_is_reported() -> None:
    cases = []
    for i in range(20):
        raw = _with("case_id", f"q-{i}")
        raw["ehr"]["history_of_present_illness"] += f" \"It's like the colour's gone out of things. Number {i} of us.\""
        cases.append(validate_case(raw))
    found = [f for f in audit_suite(cases) if f.rule == "template.quote" and "colour's gone out of things" in f.message]
    assert {f.case_id for f in found} == {c.case_id for c in cases}
    assert not any("number" in f.message for f in audit_suite(cases) if f.rule == "template.quote")  # each record's own words pass


def test_a_job_held_against_its_sex_ratio_is_reported() -> None:
    cases = []
    for i in range(6):
        raw = _with("case_id", f"o-{i}")
        raw["demographics"]["occupation"] = "self-employed builder"
        raw["demographics"]["sex"] = "female" if i < 4 else "male"
        cases.append(validate_case(raw))
    found = {f.case_id for f in audit_suite(cases) if f.rule == "people.occupation_sex"}
    assert found == {"o-0", "o-1", "o-2", "o-3"}


def test_one_target_keeps_the_first_range() -> None:
    plan = "Start lithium 400 mg at night, adjusted to a trough level of 0.6-1.0 mmol/L. Check the lithium level 12 hours post-dose (aim 0.4-1.0 mmol/L), renal function."
    out = one_target(plan)
    assert out.count("mmol/L") == 1 and "0.6-1.0 mmol/L" in out and "renal function" in out


def test_settle_plan_reports_a_test_on_file_and_qualifies_benzodiazepines() -> None:
    raw = _clean()
    raw["exams"].append({"name": "Pregnancy test", "kind": "lab", "result": "negative"})
    raw["diagnosis"]["categories"] = _categories(raw)
    case = validate_case(raw)
    plan = "Pregnancy test first, and discuss contraception. Grounding skills; avoid benzodiazepines. Plan a medically assisted withdrawal. Informal admission if he or she agrees."
    out = settle_plan(plan, case, random.Random(1))
    assert "test first" not in out.lower() and "negative" in out.lower()
    assert "avoid benzodiazepines." not in out.lower() and "withdrawal regimen" in out
    assert "he or she" not in out and "if she agrees" in out


def test_generated_cases_pass_the_agree_rules() -> None:
    cases = [validate_case(c) for c in generate_cases(40, 23, "agree")]
    found = [f for f in audit_suite(cases) if f.rule.startswith("agree.") or f.rule in ("template.quote", "people.occupation_sex")]
    assert found == []
    plans = " ".join(c.treatment.plan for c in cases).lower()
    assert "if risk is high" not in plans and "if at risk of wernicke" not in plans


def test_settle_plan_says_knowledge_base_clauses_by_the_case() -> None:
    raw = _clean()
    raw["ehr"]["history_of_present_illness"] += " Admitted under section this week."
    raw["exams"].append({"name": "PHQ-9", "kind": "scale", "result": "total 25/27 (severe)"})
    raw["diagnosis"]["categories"] = _categories(raw)
    case = validate_case(raw)
    plan = "Screen for depression and suicidal thoughts. Assess risk; consider the Mental Health Act if lacking capacity and at risk."
    out = settle_plan(plan, case, random.Random(3))
    assert "screen for depression" not in out.lower() and "25/27" in out
    assert "consider the Mental Health Act" not in out and "Mental Health Act" in out
