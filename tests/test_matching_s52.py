"""Readings the stop-52 matcher got wrong (heldout51's even half, grouped): a rate in chart shorthand ("3-4x/wk",
"4-6 h/d", "1-2x/month") read as a bare number, so "Nightmares 1-2x/month" covered "Nightmares almost every night";
a partner's relative ("her fiance's mum") read as the patient's own, so it covered "Mother has depression"; and a
finding dated to a decade of life long gone ("back in my twenties") not read as then only; and opposites said
without a negation word (a wrist on the other side, straight back to sleep against awake for hours, evenings only
against from early in the day). Each is checked through
the matcher, with the pair that must still be accepted beside it. The sentences are written here, not copied from a
pair set."""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import _quantities, amount_levels

from mentalhospital_env.knowledge.language import relatives_named


def test_shorthand_rates_are_read_as_rates():
    assert _quantities("Panic attacks 2-3x/wk.") == frozenset({(2.0, "time/week"), (3.0, "time/week")})
    assert _quantities("Gaming 5 h/d.") == frozenset({(5.0, "hour/day")})
    assert amount_levels("Flashbacks 1-2x/month.")[0] == (3, 3)  # rare, as "once a month" is
    assert _quantities("BP 120/80.") == frozenset()  # a ratio, no rate


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Flashbacks almost every day.", "Flashbacks 1-2x/month.", False),
        ("Flashbacks almost every day.", "Flashbacks most days.", True),
        ("Drinks alcohol twice a month.", "Drinks 2x/month.", True),
    ],
)
def test_shorthand_rates_against_rates_in_words(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


def test_a_partners_relative_is_an_in_law():
    assert {r.role for r in relatives_named("His wife's sister drinks.")} == {"wife", "sister_in_law"}
    assert {r.role for r in relatives_named("My partner's dad is unwell.")} == {"partner", "father_in_law"}
    assert {r.role for r in relatives_named("My mum's sister drinks.")} == {"aunt"}  # a parent's: as before


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Sister has bipolar disorder.", "His wife's sister has bipolar disorder.", False),
        ("Father has schizophrenia.", "My boyfriend's dad has schizophrenia.", False),
        ("Father has schizophrenia.", "My dad has schizophrenia.", True),
    ],
)
def test_a_partners_relative_is_not_the_patients(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Hears voices.", "I heard voices in my thirties, when I was using.", False),
        ("Hears voices.", "I've heard voices since my thirties.", True),
    ],
)
def test_a_decade_of_life_long_gone(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Sprained left ankle.", "I twisted my right ankle.", False),
        ("Lies awake for hours after waking at night.", "When I wake I go straight back to sleep.", False),
        ("Lies awake for hours after waking at night.", "Once I'm up at night I lie awake for hours.", True),
        ("Smokes cannabis from early in the day.", "I only have a smoke of weed after 6pm.", False),
        ("Smokes cannabis from early in the day.", "I have a joint first thing in the morning.", True),
    ],
)
def test_opposites_without_a_negation_word(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails
