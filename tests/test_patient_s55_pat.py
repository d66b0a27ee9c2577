"""Stop 55 (s55-pat): who depends on them is answered with everyone the record names - the children in any words,
the person they care for whatever the sentence's topic - and the household's list words are data.

The record here is written for these tests (synthetic, in a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case, load_suite

_EHR = {
    "chief_complaint": "Low mood and poor sleep for two months.",
    "history_of_present_illness": (
        "Over two months his mood has been low and he has lost interest in football. "
        "He wakes at five and cannot get back to sleep."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Asthma.",
    "medications": "Salbutamol inhaler as needed.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks a pint at weekends. Non-smoker. No drugs.",
    "family_history": "No mental illness known.",
    "personal_history": "Grew up in Leeds. Works as a bus driver. Married for six years.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Reactive.", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}

_DEPENDS = "Do you have children or anyone who depends on you?"


def _case(n: int, living: str = "lives with his wife in a rented flat", **ehr):
    return load_case(record(f"s55-pat-{n:03d}", _EHR, {"age": 38, "sex": "male", "living_situation": living},
                            written_for="test_patient_s55_pat.py", **ehr))


@pytest.mark.parametrize("n, history, said", [
    # stop 54's reading: 'Married with three girls under ten' -> 'I live with my wife in a rented flat.' (the girls
    # unsaid: 'girls' and 'boys' were not words that name a dependant, only words that block the denial)
    (0, "Grew up in Leeds. Works as a bus driver. Married with three girls under ten.", r"\bgirls\b"),
    (1, "Grew up in Leeds. Works as a bus driver. Married with twins aged four.", r"\btwins\b"),
    (2, "Grew up in Leeds. Works as a bus driver. His two boys stay with him every other weekend.", r"\bboys\b"),
])
def test_children_named_in_any_words_answer_who_depends_on_them(n: int, history: str, said: str) -> None:
    (reply,) = ask(_case(n, personal_history=history), _DEPENDS)
    assert re.search(said, reply, re.I), reply
    assert not re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply


def test_a_care_duty_is_told_beside_the_child_at_home() -> None:
    # dev-0027: 'Lives with partner and a young child.' and 'Currently full-time carer for a parent.' both name who
    # depends on her; the carer sentence (filed under work) was cut as off the household topic
    case = next(c for c in load_suite("dev").cases if c.case_id == "dev-0027")
    (reply,) = ask(case, _DEPENDS)
    assert re.search(r"\bchild\b", reply, re.I), reply
    assert re.search(r"\bcarer\b", reply, re.I), reply


def test_the_household_list_words_are_read_from_the_data() -> None:
    # the words that part the people after 'lives with' (recall.json household_answers nobody_with_splits; they were
    # English words in the code): 'his wife together with her parents' are three adults, so no one depends on him
    (reply,) = ask(_case(4, "lives with his wife together with her parents"), _DEPENDS)
    assert re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply


@pytest.mark.parametrize("question", [
    "Do you feel you might act on them?",
    "Thank you for being so open with me. When thoughts of ending your life or harming yourself come, do you feel you "
    "might act on them?",
])
def test_an_intent_question_is_answered_on_intent(question: str) -> None:
    # hw-032 at stop 54: 'do you feel you might act on them?' -> 'I've never hurt myself on purpose before. I don't
    # have a plan to end it.' (the record: passive thoughts 'without plan or intent'; the intent unanswered)
    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-032")
    (reply,) = ask(case, question)
    assert re.search(r"\b(?:act on|go through with)\b", reply, re.I), reply
    assert not re.search(r"\bI (?:would|might|will) act\b", reply, re.I), reply


def test_a_plan_question_is_still_answered_on_the_plan() -> None:
    # the intent wording is for a question on intent only: asked of a plan, the plan's own denial stands
    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-032")
    (reply,) = ask(case, "Have you made any plans to end your life?")
    assert re.search(r"\bplan", reply, re.I), reply
    assert not re.search(r"\bact on\b|go through with", reply, re.I), reply


def test_a_bare_echo_is_dropped_once_the_denial_names_what_it_denies() -> None:
    # dev-0158 at stop 54: 'Denies persecutory delusions.' (said 'No, I haven't.') to 'is anyone against you?' became
    # 'No, nobody is out to get me, I haven't.': the clause naming the denial was worked in before the echo
    case = next(c for c in load_suite("dev").cases if c.case_id == "dev-0158")
    (reply,) = ask(case, "How do you feel other people have been treating you, and is anyone against you?")
    assert re.search(r"\bnobody is out to get me\b", reply, re.I), reply
    assert not re.search(r", I haven't\b", reply, re.I), reply



@pytest.mark.parametrize("n, history", [
    (6, "Born in Barnsley, the elder of two boys. Works as a bus driver."),
    (7, "Grew up in Leeds. Works as a bus driver. Says he 'can't talk to girls'."),
])
def test_boys_and_girls_of_their_own_family_or_talk_are_no_dependants(n: int, history: str) -> None:
    # 'the elder of two boys' (uw-003's wording), 'I can't talk to girls' (uw-016's) name no child of theirs: boys,
    # girls and twins count only when counted or owned (household_answers words_counted)
    (reply,) = ask(_case(n, "lives alone in a rented flat", personal_history=history), _DEPENDS)
    assert not re.search(r"\b(?:boys|girls)\b", reply, re.I), reply
