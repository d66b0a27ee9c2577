"""A time anchor says when, not what (issue 13, stop 41): "Before you stopped smoking, what did you weigh?"
asks the weight, not the smoking; "Before your divorce, were you a worrier?" asks the worrying. Read whole,
the anchor's own words picked the anchor event as the answer ("I stopped smoking three years ago.").

The record here is written for these tests (synthetic, in a clinician's plain prose); the anchor reading is
:func:`mentalhospital_env.patient.timeline.without_time_anchor`, the answers go through the public API.
"""

from __future__ import annotations

import re

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient.timeline import without_time_anchor

_EHR = {
    "chief_complaint": "Tiredness and worry about his heart for four months.",
    "history_of_present_illness": (
        "Over four months he has felt tired all day and worries most evenings that his heart will stop. "
        "Appetite is good and he has gained about 9 kg since he stopped smoking two years ago. "
        "He sleeps badly, waking two or three times a night."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Hypertension.",
    "medications": "Ramipril 5 mg daily.",
    "allergies": "No known drug allergies.",
    "substance_use": "Ex-smoker, 20 a day for 25 years. Drinks about 10 units a week. No drugs.",
    "family_history": "Father died of a heart attack at 58.",
    "personal_history": "Married, two teenage sons. Works as a bus driver.",
    "mental_status_exam": {"mood": "'Worried'", "affect": "Anxious.", "thought_content": "No suicidal ideation."},
    "risk_assessment": {"suicide": "No thoughts of ending his life."},
}


def _first(reply: str) -> str:
    return re.split(r"(?<=[.!?])\s+", reply.strip())[0]


@pytest.fixture(scope="module")
def case():
    return load_case(record("time-anchor-001", _EHR, {"age": 51, "sex": "male"}, written_for="test_answer_time_anchor.py"))


@pytest.mark.parametrize(("asked", "rest"), [
    ("Before you stopped smoking, what did you weigh?", "What did you weigh?"),
    ("Before your wife left, how much were you drinking?", "How much were you drinking?"),
    ("When was the last time, before Friday?", "When was the last time?"),
    ("I see. Since the operation, how has your sleep been?", "I see. How has your sleep been?"),
])
def test_the_anchor_is_left_out_of_what_is_asked(asked: str, rest: str) -> None:
    assert without_time_anchor(asked) == rest


@pytest.mark.parametrize("asked", [
    "Before these last two months, how were you sleeping?",  # the illness itself: the timeline's "before" question
    "Before all this, how were you sleeping?",
    "After a binge, do you do anything to get rid of the food?",  # a situation that recurs is the subject asked
    "Before an event, how do you feel?",
    "How much were you drinking before the crash?",  # no comma: read whole, as before
    "And before the accident?",  # nothing left to ask
])
def test_no_anchor_is_cut_where_it_is_the_question(asked: str) -> None:
    assert without_time_anchor(asked) is None


def test_the_weight_is_told_not_the_smoking(case) -> None:
    (reply,) = ask(case, "Before you stopped smoking, what did you weigh?")
    # the weight opens the reply: not "I used to smoke." (the anchor event) first
    assert re.search(r"\b9 ?kg|\bkilo|gained|put on|lighter", _first(reply), re.I), reply


def test_the_worry_is_told_not_the_anchor_event(case) -> None:
    (reply,) = ask(case, "Before you stopped smoking, were you a worrier?")
    assert re.search(r"worr", _first(reply), re.I), reply
