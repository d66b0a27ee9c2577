"""Lay idioms for findings a patient says without the clinical word (heldout48's and heldout49's misses read at stop
50): 'cones' is cannabis, 'out of a job' is the work history, coming out with something stupid is the fear of social
scrutiny, nothing in the tank is a lack of energy, a pane of glass between me and my family is detachment."""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.lexicon import load_lexicon


@pytest.mark.parametrize(
    ("said", "concept"),
    [
        ("Honestly, I have got nothing in the tank these days.", "fatigue"),
        ("Marked lack of energy.", "fatigue"),
        ("It's like there's a pane of glass between us, I can't feel close to anyone.", "emotional_numbing"),
        ("I smoke cones every night, helps me switch off.", "cannabis_use"),
        ("A few cones after work, that's all.", "cannabis_use"),
        ("The shop shut three weeks back and that was me out of a job.", "occupation"),
        ("I'm always scared I'll come out with something stupid.", "social_anxiety"),
    ],
)
def test_a_lay_idiom_names_its_finding(said, concept):
    assert concept in load_lexicon().concepts_in(said)


def test_an_unrelated_sentence_names_none_of_them():
    found = load_lexicon().concepts_in("We bought two ice creams and put the glass back in the tank.")
    assert not found & {"fatigue", "cannabis_use", "occupation", "social_anxiety", "emotional_numbing"}


@pytest.mark.parametrize(
    "said",
    [
        "We get ice cream cones on the seafront every day in summer.",
        "I put out traffic cones on the motorway every day.",
        "There's nothing in the tank of the car most weeks, money's that tight.",
    ],
)
def test_the_literal_cones_and_tank_name_no_finding(said):
    assert not load_lexicon().concepts_in(said) & {"cannabis_use", "fatigue"}
