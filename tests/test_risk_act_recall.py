"""A plan or preparatory act the record states of the patient reaches the question that asks it (issue 13, stop 47).

Stop 46's fresh record uw-020 held, in the clinician's lines, a self-interrupted act with her father's handgun, and
in her own account the gun taken from the drawer (told only when asked directly); asked "Have you made any plans or
preparations?" she said the first screen's "I haven't had any plan, intent, preparatory acts or past attempts."
An earlier screen's denial, or the closed world's "I don't have a plan", must not answer a risk the record states:
the patient tells their own account of the act, or keeps it back.

The record here is written for these tests (synthetic, in a clinician's plain prose), through the public API.
"""

from __future__ import annotations

import re

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "Low mood since the winter.",
    "history_of_present_illness": (
        "First visit, 3 March: low mood and poor sleep since January after his business failed. Passive death wish. "
        "Denies plan, intent, preparatory acts or past attempts.\n"
        "Review, 12 May: mood worse. When asked directly about plans he said that on the night of 4 May he drove "
        "to the quarry with a length of hose in the boot, sat at the edge for an hour and drove home (told only "
        "when asked directly about plans or preparations)."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "None.",
    "medications": "None.",
    "allergies": "None known.",
    "substance_use": "Drinks a few pints at the weekend. Non-smoker.",
    "family_history": "No psychiatric history in the family.",
    "personal_history": "Divorced, lives alone. Ran a joinery business until January.",
    "mental_status_exam": {"mood": "'Rock bottom'", "affect": "Flat.",
                           "thought_content": "Made an aborted suicide attempt at the quarry on 4 May."},
    "risk_assessment": {
        "suicide": "High: an aborted attempt on 4 May with a hose at the quarry, living alone, business failure."
    },
}

_DENIES = re.compile(r"^(?:\w+[,.] )?(?:no\b|i haven't|i have not|i don't|i've never|nothing)", re.IGNORECASE)
_WARM_UP = ("What has brought you here today?", "How has your mood been?",
            "Have you had thoughts of ending your life?")


@pytest.fixture(scope="module")
def case():
    return load_case(record("risk-act-001", _EHR, {"age": 52, "sex": "male"}, written_for="test_risk_act_recall.py"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_plan_question_is_not_answered_by_the_first_screen_denial(case, seed) -> None:
    *_, reply = ask(case, *_WARM_UP, "Have you made any plans or preparations to end your life?", seed=seed)
    assert not _DENIES.search(reply), reply
    assert not re.search(r"\bpreparatory\b|\bno plan\b|\bany plan\b", reply, re.IGNORECASE), reply


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_asked_directly_the_patient_tells_the_act_or_keeps_it_back(case, seed) -> None:
    *_, reply = ask(case, *_WARM_UP,
                    "When things are at their worst, have you thought about how you might end your life? "
                    "Have you made any plans or preparations?", seed=seed)
    told = re.search(r"\bquarry\b|\bhose\b", reply, re.IGNORECASE)
    kept_back = re.search(r"\b(?:rather not|rather talk|go into that|something else|come back to|have to answer)\b",
                          reply, re.IGNORECASE)
    assert told or kept_back, reply
