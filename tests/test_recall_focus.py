"""The part of a subject a question asks picks the sentence that says it (issue 13, stop 46).

Of the sentences the record files under a subject, the patient answers with the one that carries what the question
asks for (its focus), not the first of the subject in record order:

* "How many jobs have you had?" is the sentence that counts them, not "Sales jobs since.";
* "Has the sertraline helped?" is the sentence that says it made no difference, though that sentence is the
  complaint told at the start, not the medicines list;
* "Are you married?" is the sentence that says "married", though told already and in the past ("widowed"), not
  another sentence of the relationships told for the first time.

One record written here in a clinician's plain prose (synthetic; no exam record's words).
"""

from __future__ import annotations

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "Low mood for six months, not responding to sertraline 100 mg for three months.",
    "history_of_present_illness": (
        "Mr Varga describes six months of low mood, poor sleep and losing interest in his allotment. "
        "He has had seven jobs in ten years, mostly warehouse work, leaving each after rows with managers. "
        "He has been lonely since his wife died two years ago."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Type 2 diabetes.",
    "medications": "Sertraline 100 mg daily; metformin 500 mg twice daily.",
    "allergies": "No known drug allergies.",
    "substance_use": "About six units of alcohol a week. Never smoked.",
    "family_history": "No known mental illness.",
    "personal_history": (
        "Warehouse jobs since. Married 30 years; wife died two years ago. "
        "Described by his daughter as 'a proud man who keeps himself to himself'."
    ),
    "mental_status_exam": {"mood": "'Low'", "affect": "Restricted.", "thought_content": "No suicidal thoughts."},
    "risk_assessment": {"suicide": "No suicidal thoughts; low risk."},
}
_DEMOGRAPHICS = {"age": 61, "sex": "male", "occupation": "warehouse operative", "living_situation": "lives alone"}


@pytest.fixture(scope="module")
def case():
    return load_case(record("focus-001", _EHR, _DEMOGRAPHICS, written_for="test_recall_focus.py"))


def test_how_many_is_answered_by_the_sentence_that_counts(case):
    (reply,) = ask(case, "How many jobs have you had?")
    assert "seven jobs" in reply, reply


def test_has_it_helped_is_answered_by_the_outcome_even_from_the_complaint(case):
    replies = ask(case, "What has brought you here today?", "What medicines do you take?", "Has the sertraline helped?")
    assert "not responding" in replies[-1] or "no difference" in replies[-1].lower(), replies


def test_a_yes_no_question_is_answered_by_the_sentence_that_names_its_thing(case):
    replies = ask(case, "How do you get on with people?", "Are you married?")
    assert "married" in replies[-1].lower() or "wife" in replies[-1].lower(), replies
