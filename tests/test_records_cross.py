"""Stop 25 round 2 (issue 14): the consultant's contradictions between sections (household against
history, family against personal history, timeline against course, an acute confusion against the
mental state) and plans that ignore the record (a birth, a young person, advanced liver disease), each
caught by an audit rule naming case and field, and none of them drawn by generator v2."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.audit import RULES, audit_case, audit_suite
from mentalhospital_env.cases.generator import generate_cases
from mentalhospital_env.cases.loader import validate_case

from test_audit import _categories, _changed

NEW_RULES = {
    "sections.parents_conflict", "sections.relative_house", "sections.birth_order", "sections.unexplained_onset",
    "sections.acute_confusion", "sections.cyclical_course", "labs.scale_maximum",
    "plan.perinatal", "plan.young_person", "plan.liver_workup",
}
_HPI = "Low for four months. "


def _found(changes: dict) -> set[tuple[str, str]]:
    raw = _changed(changes)
    raw["diagnosis"]["categories"] = _categories(raw)
    return {(f.rule, f.field) for f in audit_case(validate_case(raw)) if f.rule in NEW_RULES}


@pytest.mark.parametrize(
    "changes, rule, field",
    [
        ({"demographics.living_situation": "lives with mother and a younger brother",
          "ehr.history_of_present_illness": _HPI + "He is in constant conflict with his parents."}, "sections.parents_conflict", "history_of_present_illness"),
        ({"ehr.history_of_present_illness": _HPI + "A few days at her husband's house gave some respite."}, "sections.relative_house", "history_of_present_illness"),
        ({"ehr.family_history": "Younger brother was treated for alcohol use disorder.",
          "ehr.personal_history": "The last of three children; a busy, loving home."}, "sections.birth_order", "family_history"),
        ({"ehr.history_of_present_illness": "In August the trouble started, with nothing to explain it.",
          "ehr.past_psychiatric_history": "Bipolar disorder diagnosed at 30; she took lamotrigine until a few months ago."}, "sections.unexplained_onset", "history_of_present_illness"),
        ({"demographics.age": 79, "ehr.history_of_present_illness": "Forgetful for two years. This morning the carers found her far more muddled than usual.",
          "ehr.mental_status_exam": {"appearance": "Frail.", "cognition": "Alert, attention intact; disoriented to date."}}, "sections.acute_confusion", "mental_status_exam.cognition"),
        ({"ehr.history_of_present_illness": "Low and irritable in the week before each period for three years; each week has taken more out of her.",
          "diagnosis": {"disorders": [{"name": "Premenstrual dysphoric disorder", "code": "F32.81"}]}}, "sections.cyclical_course", "history_of_present_illness"),
        ({"exams": [{"name": "SI-R", "kind": "scale", "result": "total 92/92 (clinical range)"}]}, "labs.scale_maximum", "exams[0] SI-R"),
        ({"ehr.history_of_present_illness": "Low since the birth of her second child two months ago."}, "plan.perinatal", "treatment.plan"),
        ({"demographics.age": 17, "demographics.occupation": "sixth-form student", "demographics.education": "in sixth form",
          "demographics.marital_status": "single", "demographics.living_situation": "lives with both parents"}, "plan.young_person", "treatment.plan"),
        ({"exams": [{"name": "FBC", "kind": "lab", "result": "Hb 12.9 g/dL, platelets 54 x10^9/L (low)"},
                    {"name": "LFT", "kind": "lab", "result": "AST 218 U/L (high), ALT 90 U/L (high)"}]}, "plan.liver_workup", "treatment.plan"),
    ],
)
def test_each_contradiction_is_found_with_its_field(changes: dict, rule: str, field: str) -> None:
    assert rule in RULES
    assert (rule, field) in _found(changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"demographics.living_situation": "lives with both parents", "ehr.history_of_present_illness": _HPI + "He is in constant conflict with his parents."},
        {"ehr.history_of_present_illness": _HPI + "A few days at her sister's house gave some respite."},
        {"ehr.family_history": "Older brother was treated for alcohol use disorder.", "ehr.personal_history": "The last of three children."},
        {"ehr.history_of_present_illness": "In August the trouble started, after her lamotrigine was stopped.",
         "ehr.past_psychiatric_history": "Bipolar disorder diagnosed at 30; she took lamotrigine until a few months ago."},
        {"exams": [{"name": "MoCA", "kind": "scale", "result": "total 30/30 (normal)"}]},
        {"ehr.history_of_present_illness": "Low since the birth of her second child two months ago.",
         "treatment.plan": "Start sertraline 50 mg daily, compatible with breastfeeding; refer to the perinatal mental health team."},
        {"exams": [{"name": "FBC", "kind": "lab", "result": "Hb 12.9 g/dL, platelets 54 x10^9/L (low)"},
                   {"name": "LFT", "kind": "lab", "result": "AST 218 U/L (high), ALT 90 U/L (high)"}],
         "treatment.plan": "Start sertraline 50 mg daily. Platelets 54 with AST four times the upper limit: clotting, liver ultrasound and FibroScan, and a hepatology referral."},
    ],
)
def test_consistent_records_pass(changes: dict) -> None:
    assert _found(changes) == set()


def test_generator_v2_draws_none_of_them() -> None:
    cases = [validate_case(c) for c in generate_cases(60, 11, "cross", version=2)]
    found = [f for f in audit_suite(cases) if f.rule in NEW_RULES]
    assert found == []
