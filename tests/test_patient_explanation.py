"""A question that asks the patient's own view of what is happening (issue 13, stop 34; ``recall.json``
``explanatory_model``, ``phrases.json`` ``own_view``) is answered with that view, not a denial of the examiner's
sign of poor insight ('Nothing like that, really') nor a sentence a word of it found ('I haven't been making
myself sick' to 'What do you make of ...'): stop 33's blind reader, hw-007, hw-025, uw-007."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.loader import load_case
from mentalhospital_env.patient import make_patient

QUESTIONS = ("What do you make of what has been happening?", "What do you think is causing this?",
             "What do you make of what has been happening to you? Do you think it could be an illness?")


def _record(insight: str, persona_insight: str = "full"):
    return load_case({
        "case_id": "t-view", "language": "en",
        "demographics": {"age": 41, "sex": "female", "occupation": "cook", "marital_status": "married",
                         "living_situation": "lives with her husband"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Low mood and poor sleep for three months.",
            "history_of_present_illness": ("She has been making herself skip meals at work. She lost track of a recipe "
                                           "she had made for twenty years. Low mood since the spring."),
            "medical_history": "No health problems to speak of before this illness.",
            "mental_status_exam": {"mood": "'Low.'", "insight": insight},
        },
        "persona": {"insight": persona_insight},
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Moderate depressive episode", "code": "F32.1"}]},
        "treatment": {"plan": "Sertraline; review in four weeks."},
        "exams": [],
    })


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_patients_view_is_no_denial_and_no_keyword(question) -> None:
    reply = make_patient(_record("Good; accepts she is unwell and wants help."), seed=0).respond(question).text
    assert not reply.startswith("Nothing"), reply
    assert "recipe" not in reply and "meals" not in reply and "health problems" not in reply, reply


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_patients_own_quoted_view_is_said(question) -> None:
    reply = make_patient(_record("Limited: 'I'm just getting old.'", "partial"), seed=0).respond(question).text
    assert reply == "I'm just getting old.", reply


def test_a_third_persons_quote_is_not_said_as_the_view() -> None:
    reply = make_patient(_record("Limited; says he 'gets told off a lot'.", "partial"), seed=0).respond(QUESTIONS[1]).text
    assert "gets told off" not in reply, reply
