"""What the daughter in the room knows of her mother's history (stop 60, uw-033): asked when the change began,
Kristen said "When she was 2." (the record's "waking at 2-3 a.m." read as an age), and asked whether anyone in
the family had had mental health problems she said "I'm not sure, to be honest." (so did her mother): "lives
alone in the family ranch house" had been read as the family's mental health, and the relatives' dementia and
depression were passed over for it.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json
import re

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s60-history",
    "language": "en",
    "demographics": {"age": 74, "sex": "female", "occupation": "retired librarian", "marital_status": "widowed",
                     "education": "college", "living_situation": "lives alone; her son Peter visits daily"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Low mood and poor memory since her husband died.",
        "history_of_present_illness": "Poor sleep since her husband died, waking at 3-4 a.m. most nights. Not herself "
                                      "for more than a year: low mood most days, tearful. Forgets appointments.",
        "past_psychiatric_history": "None.",
        "medical_history": "Hypertension.",
        "medications": "Amlodipine 5 mg daily.",
        "allergies": "No known drug allergies.",
        "substance_use": "No alcohol.",
        "family_history": "Mother had dementia in her eighties. Brother Alan treated for depression.",
        "personal_history": "Lives alone in the family home in Harrogate.",
        "mental_status_exam": {"mood": "'Low.'"},
        "risk_assessment": {"suicide": "Low. No thoughts of ending her life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
    "treatment": {"plan": "Sertraline.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "Four weeks."},
    "persona": {
        "verbosity": "average",
        "guardedness": 0.2,
        "insight": "partial",
        "speech_style": "74-year-old retired librarian, polite, a little vague on dates.",
        "informant": "Her son, Peter Ward, in the room throughout; she answers for herself and he answers when asked.",
    },
}


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s60") / "history.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def test_her_son_times_the_change_from_the_record_not_from_the_clock(case) -> None:
    reply = make_patient(case, "full", seed=13).respond(
        "A question for her son: When did the change in her start, and how has it gone since?")
    assert reply.speaker == "informant", reply.text
    assert not re.search(r"\bwhen she was \d", reply.text, re.IGNORECASE), reply.text
    assert "year" in reply.text and "about more than" not in reply.text.lower(), reply.text


def test_the_family_history_is_told_not_the_family_home(case) -> None:
    for question in ("A question for her son: Has anyone in her family had problems with their mental health?",
                     "Has anyone in your family had problems with their mental health?"):
        reply = make_patient(case, "full", seed=13).respond(question)
        assert "not sure" not in reply.text.lower(), (question, reply.text)
        assert "family home" not in reply.text, (question, reply.text)
        assert re.search(r"dementia|depression", reply.text), (question, reply.text)


def test_her_own_name_as_an_object_is_me(case) -> None:
    # uw-033: "She's angry with I about the car." (the record's "angry with Kristen", said by Kristen)
    from mentalhospital_env.patient.informant import informant_for

    son = informant_for(case)
    said = son.say("She is angry with Peter about the car and sometimes shouts at Peter.", "history_of_present_illness")
    assert "with me" in said and "at me" in said and not re.search(r"\b(?:with|at) I\b", said), said
