"""Stop 40: what stop 39's blind consultant found in generated records (2.67/5, the diagnosis given away in 6 of
6): histories that never tell the principal's core complaint, exam lists that name the disorder's own rating scale,
stock protective factors, a risk section softer than the mental state, plan lines for the wrong patient. Each is an
audit rule (the generator redraws what fails) and the generator's own draw."""

from __future__ import annotations

import copy

import pytest

from mentalhospital_env.cases.audit import audit_case, core_untold, giveaway_scales
from mentalhospital_env.cases.generator import generate_cases
from mentalhospital_env.cases.loader import validate_case
from mentalhospital_env.knowledge.codes import category_of_code


def _ocd() -> dict:
    return {
        "case_id": "s40-1", "language": "en",
        "demographics": {"age": 27, "sex": "male", "occupation": "security guard", "marital_status": "in a relationship",
                         "education": "left school at 16", "living_situation": "lives with partner"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Rows at home for five years.",
            "history_of_present_illness": "His GP referred him. It started at 22, after a health scare in the family. \"I'm shattered all the time,\" he says.",
            "personal_history": "Works as a security guard. Lives with his partner of seven years.",
            "substance_use": "Does not drink alcohol. No illicit drugs.",
            "mental_status_exam": {"thought_content": "Preoccupied; no delusions; no suicidal ideation."},
            "risk_assessment": {"suicide": "No thoughts of suicide or self-harm; protective factors include his partner."},
        },
        "exams": [{"name": "PHQ-9", "kind": "scale", "result": "total 6/27 (mild)"}],
        "diagnosis": {"categories": [], "disorders": [{"name": "Mixed obsessional thoughts and acts", "code": "F42.2"}]},
        "treatment": {"plan": "Outpatient care; offer cognitive behavioural therapy with exposure and response prevention.", "safety": []},
    }


def _case(raw: dict):
    raw = copy.deepcopy(raw)
    raw["diagnosis"]["categories"] = list(dict.fromkeys(category_of_code(d["code"]) for d in raw["diagnosis"]["disorders"]))
    return validate_case(raw)


def _rules(raw: dict) -> set[str]:
    return {f.rule for f in audit_case(_case(raw))}


def test_a_history_without_the_core_complaint_is_found() -> None:
    """test-v2-0415 (stop 39): an OCD referral whose history holds only 'I'm shattered all the time'."""
    raw = _ocd()
    assert core_untold(_case(raw)) is not None and "history.core_told" in _rules(raw)
    raw["ehr"]["history_of_present_illness"] += " \"I check the door is locked twenty times.\""
    assert core_untold(_case(raw)) is None and "history.core_told" not in _rules(raw)


def test_the_disorders_own_scale_on_a_first_assessment_is_found() -> None:
    """A Y-BOCS on the exam list of a first OCD assessment names the diagnosis; a service that knows it rates it."""
    raw = _ocd()
    raw["exams"].append({"name": "Y-BOCS", "kind": "scale", "result": "total 20/40 (moderate)"})
    assert giveaway_scales(_case(raw)) == ["Y-BOCS"] and "exams.giveaway_scale" in _rules(raw)
    known = copy.deepcopy(raw)
    known["extra"] = {"known_diagnosis": "relapse"}
    assert giveaway_scales(_case(known)) == []
    raw["exams"][-1] = {"name": "GAD-7", "kind": "scale", "result": "total 12/21 (moderate)"}
    assert "exams.giveaway_scale" not in _rules(raw)


def test_a_protective_factor_the_record_holds_nowhere_else_is_found() -> None:
    """'talks warmly about his pets' with no pet anywhere in the record (stop 39: stock faith and pets)."""
    raw = _ocd()
    raw["ehr"]["risk_assessment"]["suicide"] = "No thoughts of suicide or self-harm; talks warmly about his pets."
    assert "risk.protective_unfounded" in _rules(raw)
    raw["ehr"]["personal_history"] += " Walks his two dogs every evening."
    assert "risk.protective_unfounded" not in _rules(raw)


def test_passive_wishes_beside_a_method_thought_of_are_found() -> None:
    raw = _ocd()
    raw["ehr"]["mental_status_exam"]["thought_content"] = "Frequent suicidal ideation with some thoughts of method, no plan; no delusions."
    raw["ehr"]["risk_assessment"]["suicide"] = "Passive death wishes without plan or intent; protective factors include his partner."
    assert "risk.method_understated" in _rules(raw)
    raw["ehr"]["risk_assessment"]["suicide"] = "Thinks of suicide most days and has considered a method; no plan today; risk raised."
    assert "risk.method_understated" not in _rules(raw)


def test_plan_lines_need_the_facts_they_answer() -> None:
    """'advise against alcohol to cope' for a non-drinker, harm-thought reassurance with no harm thought recorded."""
    raw = _ocd()
    raw["treatment"]["plan"] += " Advise against alcohol to cope; reassure that intrusive harm thoughts are not intentions."
    found = [f for f in audit_case(_case(raw)) if f.rule == "joins.plan_assumes"]
    assert len(found) == 2
    raw["ehr"]["substance_use"] = "About 14 units a week, mostly beer at weekends."
    raw["ehr"]["history_of_present_illness"] += " \"I hide the knives because of the thoughts.\""
    assert not [f for f in audit_case(_case(raw)) if f.rule == "joins.plan_assumes"]


@pytest.fixture(scope="module")
def drawn() -> list:
    return [validate_case(c) for c in generate_cases(10, 40040, prefix="s40", version=2)]


def test_generated_records_tell_the_core_complaint_without_a_giveaway_scale(drawn) -> None:
    for case in drawn:
        assert core_untold(case) is None, case.case_id
        assert giveaway_scales(case) == [], case.case_id
        said = case.ehr.risk_assessment.suicide if case.ehr.risk_assessment else ""
        assert "faith" not in (said or "") and "pets" not in (said or ""), case.case_id
