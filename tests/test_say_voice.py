"""How the patient words an answer (issue 13, unnatural replies read at stop 28): a list broken into sentences
keeps its "I", no clause that says again what the wording says, one denial for one subject, no clause twice in a
pressured run-on, children's own words, and nothing off the question's subject added to an answer on it."""

from __future__ import annotations

import re
from functools import cache

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.cases.compile import voiced
from mentalhospital_env.patient import make_patient

HPI = "history_of_present_illness"


@cache
def _case(suite: str, case_id: str):
    return next(c for c in load_suite(suite).cases if c.case_id == case_id)


def _reply(suite: str, case_id: str, question: str, seed: int = 0) -> str:
    return make_patient(_case(suite, case_id), "full", seed=seed).respond(question).text


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text) if s]


@pytest.mark.parametrize(
    ("record", "sex", "said"),
    [
        ("She now eats a little fruit and salad a day, counts every calorie and runs each evening.", "female",
         "I count every calorie and run each evening."),
        (("She has been off work for five months, no longer takes the children swimming, and her husband now "
          "does the school run."), "female", "I no longer take the children swimming."),
        ("He wakes at 3 a.m. and paces the hallway.", "male", "I wake at 3 a.m. and pace the hallway."),
    ],
)
def test_a_list_cut_into_sentences_keeps_its_speaker(record, sex, said):
    says = voiced(HPI, record, sex)
    assert says is not None and said in says
    # no later sentence opens on a bare verb
    for sentence in _sentences(says)[1:]:
        assert not re.match(r"^(?:And |No longer )?(?:count|take|pace|run|read)\b", sentence, re.IGNORECASE), says


def test_a_phrase_that_runs_on_past_a_comma_is_not_cut_there():
    says = voiced(HPI, "Woke at 06:30 with a heavy, 'dead' left leg and clumsy left hand.", "female")
    assert says is not None and "with a heavy, dead left leg" in says and "heavy." not in says


def test_no_naming_clause_after_a_wording_that_says_it():
    reply = _reply("test", "test-0408", "Do you smoke or vape?")
    assert "smoke" in reply and "smoker" not in reply


def test_one_stock_denial_for_one_subject():
    reply = _reply("test", "test-0199", "How has your appetite been?")
    assert "appetite" in reply and "always hungry" not in reply
    reply = _reply("test-v2", "test-v2-0112", "Have there been times when you felt unusually good, cheerful or full of energy, more than is normal for you?")
    assert len([s for s in _sentences(reply) if "haven't" in s]) <= 1, reply


def test_a_child_denies_in_a_childs_words():
    reply = _reply("handwritten", "hw-017", "Have you ever had thoughts of ending your life?")
    assert "ending my life" not in reply and "die" in reply


def test_a_pressured_run_on_says_nothing_twice():
    patient = make_patient(_case("dev", "dev-0051"), "full", seed=0)
    for question in ("How have you been feeling lately?", "Since when?", "Any thoughts of ending your life?"):
        reply = patient.respond(question).text.lower()
        clauses = [c.strip(" .!?") for c in re.split(r",|\.|\?|!", reply) if len(c.split()) >= 4]
        assert len(clauses) == len(set(clauses)), reply


@pytest.mark.parametrize(
    ("case_id", "question", "said", "not_said"),
    [
        ("hw-007", "How much are you eating on a normal day?", "fruit and salad", "high achiever"),
        ("hw-003", "Have you had treatment for your mood before?", "citalopram", "contraceptive"),
    ],
)
def test_an_answer_keeps_to_the_question(case_id, question, said, not_said):
    reply = _reply("handwritten", case_id, question)
    assert said in reply and not_said not in reply, reply


@pytest.mark.parametrize(
    ("case_id", "question"),
    [
        ("hw-002", "How are you sleeping and eating at the moment?"),  # stopped eating: the food had been tampered with
        ("hw-026", "How has your appetite been?"),  # a manic man 'not eating regular meals'
    ],
)
def test_eating_less_is_not_voiced_as_an_eating_disorder(case_id, question):
    """Stop 30's blind readers: a manic man whose record says only 'not eating regular meals' said "I count every
    calorie", the stock wording of food restriction; a psychotic woman who stopped eating for fear of poison said it too.
    Food restriction is any eating less; calorie counting and dieting are an eating disorder's own words and come from
    its record, not from the stock wording."""
    reply = _reply("handwritten", case_id, question).lower()
    assert not re.search(r"calorie|diet\b|as little as possible", reply), reply
