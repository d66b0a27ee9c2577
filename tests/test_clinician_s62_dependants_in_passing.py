"""Stop 62 (uw-034, Adriano, 36, a Brazilian CAPS chart): his son Kauã, 8, was named only in passing ("I've been made
a bench for my son", told of the men who watch him); the reader took it for the dependants' answer and 'Do you have
children or anyone who depends on you?' was never asked, so the note and plan never had the boy who visits a man with
a knife under his pillow and a tin of tablets. A child named in passing on another question is still asked about
(``ask_even_if_known.named_in_passing``); one told in answer about home is not asked twice."""

from __future__ import annotations

from tests.scripted_encounters import questions

WALK_IN = "Outpatient clinic. A 36-year-old man is here to see you, alone."
ASKED = "Tell me about your children, or anyone else who depends on you"


def test_a_son_named_in_passing_is_asked_about():
    def reply(question: str) -> str:
        if "brought you" in question:
            return "The nights are the worst, doctor. I've been made a bench for my son."
        if "live with" in question:
            return "I live alone on my mother's lot."
        return "Not sure."

    asked = questions(WALK_IN, reply)
    assert any(q.endswith(f"{ASKED}: how old are they, who do they live with, and when are they with you?") for q in asked), asked


def test_children_told_of_at_home_are_not_asked_twice():
    def reply(question: str) -> str:
        if "live with" in question:
            return "I live with my wife and our two children."
        return "Not sure."

    asked = questions(WALK_IN, reply)
    assert not any(ASKED in q for q in asked), asked


def test_an_older_adults_children_named_in_passing_are_not_asked_about():
    def reply(question: str) -> str:
        if "brought you" in question:
            return "I worry about my son."
        if "live with" in question:
            return "I live alone."
        return "Not sure."

    asked = questions("Outpatient clinic. A 67-year-old woman is here to see you, alone.", reply)
    assert not any(ASKED in q for q in asked), asked


def test_children_who_are_not_the_patients_are_not_asked_about():
    def reply(question: str) -> str:
        if "brought you" in question:
            return "The radio DJ says I've been chosen to lead the children of the estate."
        if "live with" in question:
            return "I live alone."
        return "Not sure."

    asked = questions(WALK_IN, reply)
    assert not any(ASKED in q for q in asked), asked
