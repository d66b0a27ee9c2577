"""The patient answers the question asked, not a sentence from another part of the record (issue 13, stop 30).

Four mechanisms that chose an off-question sentence, each tested on a record written here for these tests
(synthetic, in a clinician's plain prose):

* a time question is not timed by how long a job or a marriage has lasted ("worked there for 31 years");
* a sentence found close to the question by one shared word ("full" of "full of energy" in "a full driving
  licence") does not answer a screen the record answers (its denial of highs);
* "Who do you live with?" is who is at home, from the demographics when no sentence of the patient's own
  says it, not another person's home ("Her sister lives in Leeds");
* "anything you could use to harm yourself, such as medicines?" of a record with no medicines is the means'
  denial, not "I don't take any".
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from patient_records import ask, record

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient.timeline import timeline

_EHR = {
    "chief_complaint": "Low mood since the spring.",
    "history_of_present_illness": (
        "Ms Okafor has driven buses for the council, where she has worked for twenty-two years. Since March "
        "she has felt low most days and wakes at 5 a.m. She says the thought of walking into the sea has come "
        "to her more than once. She has lost interest in her choir. No elevated mood at any time and no "
        "psychotic symptoms."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Asthma.",
    "medications": "None.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks two glasses of wine a week. Never smoked. No drugs.",
    "family_history": "No psychiatric history in the family.",
    "personal_history": (
        "Grew up in Bristol. Married for nineteen years. Her sister lives in Leeds with her two dogs. "
        "She holds a full clean driving licence."
    ),
    "mental_status_exam": {"mood": "'Low'", "affect": "Subdued.",
                           "thought_content": "Passive thoughts of walking into the sea, no plan or intent."},
    "risk_assessment": {"suicide": "Passive thoughts without plan or intent; no previous attempts."},
}

_DEMOGRAPHICS = {"age": 47, "sex": "female", "occupation": "bus driver", "marital_status": "married",
                 "living_situation": "lives with her husband Tunde and their son Femi (16)"}


def _record(**ehr: object) -> dict:
    return record("on-question-001", _EHR, _DEMOGRAPHICS, written_for="test_recall_on_question.py", **ehr)


@pytest.fixture(scope="module")
def case():
    return load_case(_record())


# -- a time question is timed by the illness ---------------------------------------------------------


def test_the_illness_is_not_timed_by_how_long_a_job_has_lasted(case) -> None:
    (reply,) = ask(case, "When did you first notice this, and how has it changed since then?")
    assert "twenty-two" not in reply and "years" not in reply, reply
    assert "March" in reply, reply


@settings(max_examples=40, deadline=None)
@given(
    lasted=st.sampled_from(["worked there", "been married", "lived in the village", "been employed",
                            "worked as a porter", "been together"]),
    number=st.sampled_from(["six", "twelve", "20", "31", "fifteen"]),
    unit=st.sampled_from(["year", "month"]),
)
def test_how_long_a_circumstance_has_lasted_never_times_the_illness(lasted, number, unit) -> None:
    history = (f"He has {lasted} for {number} {unit}s. Over the last two months he has felt flat and "
               "wakes early.")
    said = timeline(history).say("onset")
    assert said is not None and "two months" in said, said
    assert number not in said, said


def test_a_hedged_month_still_times_the_illness() -> None:
    assert timeline("From about November he has felt flat and low most days.").say("onset") == "It started in November."


# -- one shared word is not the answer ----------------------------------------------------------------


@pytest.mark.parametrize("question", [
    "Have there been times when you felt unusually good, cheerful or full of energy, more than is normal for you?",
    "Has there been a period of several days when you needed much less sleep but felt full of energy?",
])
def test_a_screen_the_record_answers_is_not_answered_by_a_shared_word(case, question) -> None:
    (reply,) = ask(case, question)
    assert "licence" not in reply, reply
    assert re.search(r"\b(?:no|never|nope|haven't|don't)\b", reply, re.I), reply


def test_the_sentence_in_the_questions_own_words_still_answers(case) -> None:
    # close in all its words, not one: the licence is the answer to a question about driving
    (reply,) = ask(case, "Do you hold a driving licence?")
    assert "licence" in reply, reply


# -- who is at home -----------------------------------------------------------------------------------


def test_who_they_live_with_is_who_is_at_home(case) -> None:
    (reply,) = ask(case, "Who do you live with?")
    assert "Tunde" in reply or "husband" in reply, reply
    assert "Leeds" not in reply, reply


def test_a_sentence_of_their_own_home_is_kept_over_the_demographics() -> None:
    record = _record(personal_history="Grew up in Bristol. Lives with her husband in a terraced house. "
                                      "Her sister lives in Leeds.")
    (reply,) = ask(load_case(record), "Who do you live with?")
    assert "terraced house" in reply, reply
    assert "Leeds" not in reply, reply


# -- the means at hand ---------------------------------------------------------------------------------


def test_the_means_of_a_record_with_no_medicines_are_denied_not_the_medicines(case) -> None:
    (reply,) = ask(case, "Do you have access to anything you could use to harm yourself, such as medicines or weapons?")
    assert "don't take any" not in reply.lower(), reply
    assert re.search(r"\b(?:no|nothing)\b", reply, re.I), reply


def test_the_medicines_they_keep_still_answer_the_means() -> None:
    record = _record(medications="Sertraline 50 mg daily; salbutamol inhaler.")
    (reply,) = ask(load_case(record), "Do you have access to anything you could use to harm yourself, such as medicines?")
    assert "sertraline" in reply.lower(), reply


def test_living_with_the_illness_still_times_it() -> None:
    assert timeline("She has lived with the pain for two years.").say("onset") == "About two years ago, I'd say."
