"""Stop 35 readers' faults of the offline patient, through the public API (make_patient, respond)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.informant import informant_for

ROOT = Path(__file__).resolve().parents[1]


def _case(suite: str, case_id: str):
    return next(c for c in load_suite(suite).cases if c.case_id == case_id)


def _reply(case, *questions: str) -> str:
    patient = make_patient(case, variant="full", seed=3)
    text = ""
    for q in questions:
        text = patient.respond(q).text
    return text


def test_a_relative_named_in_a_question_is_not_a_question_about_the_household():
    case = _case("handwritten", "hw-026")  # married to Anne, lives with her
    assert "wife" in (case.ehr.personal_history or "").lower() or "anne" in (case.ehr.personal_history or "").lower()
    reply = _reply(case, "Does the missus moan about your snoring?").lower()
    assert "live with" not in reply and "married" not in reply and "my wife" not in reply, reply
    # asked about the wife herself, the household is still the answer
    assert "wife" in _reply(case, "Who do you live with?").lower()


INSIGHT = "What do you make of what has been happening to you? Do you think it could be an illness?"


@pytest.mark.parametrize("case_id", ["hw-009", "hw-010", "hw-023", "hw-034"])
def test_the_view_of_a_long_standing_problem_is_no_rough_patch(case_id):
    reply = _reply(_case("handwritten", case_id), INSIGHT).lower()
    for short in ("rough patch", "isn't normal for me", "maybe it's stress"):
        assert short not in reply, (case_id, reply)


def test_a_recent_illness_keeps_the_recent_view():
    # hw-002: a psychosis of four days; a patient of days does not speak of years
    reply = _reply(_case("handwritten", "hw-002"), INSIGHT).lower()
    assert "years" not in reply and "long time" not in reply, reply


def test_the_parent_named_by_a_pronoun_in_the_record_speaks_as_herself():
    suite = load_suite(ROOT / "benchmarks/data/patient_exam/unseen/uw-008.json")
    case = suite.cases[0]
    informant = informant_for(case)
    assert informant is not None and informant.relation == "mother" and case.demographics.sex == "male"
    sentence = next(s for s in re.split(r"(?<=[.!?])\s+", case.ehr.history_of_present_illness) if "written to her" in s)
    said = informant.say(sentence)  # the premise: the record's "her" is the mother who came with him
    assert "written to me" in said and "to her" not in said, said
    # a woman the sentence names first keeps her pronoun
    assert "told her" in informant.say("His sister told her about it.")
    # a daughter seen with her mother: "her" may be the girl, so it is left alone
    mother_of_girl = replace(informant, sex="female")
    assert mother_of_girl.say("She sleeps in her bed.") == "She sleeps in her bed."
