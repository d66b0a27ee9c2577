"""Stop 54 (s54-pat): the patient answers the question asked - the attention screen with attention, who depends on
them with who depends on them.

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
        "Over two months his mood has been low and he has lost interest in football. "
        "He wakes at five and cannot get back to sleep."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Asthma.",
    "medications": "Salbutamol inhaler as needed.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks a pint at weekends. Non-smoker. No drugs.",
    "family_history": "No mental illness known.",
    "personal_history": "Grew up in Leeds. Works as a bus driver. Married for six years.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Reactive.", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}


def _case(n: int, living: str = "lives with his wife in a rented flat", **ehr):
    return load_case(record(f"s54-pat-{n:03d}", _EHR, {"age": 38, "sex": "male", "living_situation": living},
                            written_for="test_patient_s54_pat.py", **ehr))


@pytest.mark.parametrize("n", range(8))
def test_attention_denied_as_attention_not_restlessness(n: int) -> None:
    # stop 53's leak benchmark: 'Does your attention come and go during the day?' of a record silent on attention was
    # denied 'No, I can sit still and get things done.' - sitting still is restlessness (hyperactivity), not attention
    (reply,) = ask(_case(n), "Does your attention come and go during the day?")
    assert not re.search(r"sit still|restless|on the go|fidget", reply, re.I), reply
    # and in words: the wording put in its place passes the check room (one it refused left a bare 'No.')
    assert re.search(r"focus|attention|concentrat|nothing like that", reply, re.I), reply
