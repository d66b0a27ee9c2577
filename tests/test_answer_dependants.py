"""Who depends on the patient (issue 13, stop 41): a record whose only word of the children is the clinician's
("protective factors are her sons" in the risk formulation) is told who is at home, never the risk line's own
finding voiced for it ("Who depends on you?" - "I think I'd be better off dead.", hw-001 at stop 40).

The record here is written for these tests (synthetic, in a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "Low mood and poor sleep for two months.",
    "history_of_present_illness": (
        "Over two months her mood has been low and she has lost interest in her garden. "
        "She wakes at five and cannot get back to sleep."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Hypothyroidism.",
    "medications": "Levothyroxine 100 micrograms daily.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks a glass of wine at weekends. Non-smoker. No drugs.",
    "family_history": "No mental illness known.",
    "personal_history": "Grew up on a farm. Works as a pharmacist.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Tearful.", "thought_content": "Passive death wishes."},
    "risk_assessment": {
        "suicide": "Passive death wishes, no plan, no intent; protective factors are her sons and her faith."
    },
}


@pytest.fixture(scope="module")
def case():
    return load_case(record("dependants-001", _EHR,
                            {"age": 47, "sex": "female", "living_situation": "lives with her husband and two teenage sons"},
                            written_for="test_answer_dependants.py"))


@pytest.mark.parametrize("asked", ["Who depends on you?", "Do you have any dependants?"])
def test_who_depends_on_them_is_who_is_at_home(case, asked: str) -> None:
    (reply,) = ask(case, asked)
    assert re.search(r"\bsons?\b|husband", reply, re.I), reply
    assert not re.search(r"better off dead|death|die\b", reply, re.I), reply
