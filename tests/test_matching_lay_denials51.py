"""Stop 51: an opposite said without a negation word, read as data. Eating little said as 'barely/hardly eaten'
against eating a whole meal or clearing one's plate (contrasts.json, eating contrary); restlessness denied as being
calm or able to sit for hours (the lexicon's absent phrases of restlessness). Sentences written for the test, not
taken from a pair set."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.adjudication import contrary_clash


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Has hardly eaten breakfast this week.", "I eat the whole breakfast, every bit, every morning."),
        ("Barely eats at dinner.", "I clear my plate at dinner and have seconds."),
        ("Restless and cannot sit still.", "I'm calm in myself, I can sit for hours watching the cricket."),
        ("Restless, can't sit still in lessons.", "I can sit for hours in lessons without moving."),
    ],
)
def test_an_opposite_without_a_negation_word_is_refused(matcher, checkpoint, output):
    assert matcher.match([checkpoint], [output])[0] is None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Eats the whole meal.", "I clear my plate at dinner and have seconds."),
        ("Has barely eaten today.", "I've hardly eaten a thing all day."),
    ],
)
def test_the_same_side_is_no_contrary(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None


def test_calm_denies_restlessness(matcher):
    assert matcher.match(["Denies restlessness."], ["I'm calm in myself, I can sit for hours watching the cricket."])[0]


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("No psychiatric admissions.", "I've never been kept in hospital for my mental health."),
        ("Two psychiatric admissions, both voluntary.", "I've been kept on a ward twice, both times I went in myself."),
    ],
)
def test_a_psychiatric_admission_in_lay_words(matcher, checkpoint, output):
    # 'psychiatric admission(s)' without 'previous' named no concept, and 'kept in hospital / on a ward' was no lay
    # phrase of an admission
    assert matcher.match([checkpoint], [output])[0] is not None


def test_a_denied_admission_does_not_state_one(matcher):
    assert matcher.match(["Two psychiatric admissions."], ["I've never been kept in hospital."])[0] is None


@pytest.mark.parametrize(
    "output",
    [
        "I was drinking a bottle of vodka a day at nineteen, but that's long gone.",
        "I used to drink a bottle of vodka a day, that's all in the past.",
        "Drinking a bottle of vodka a day was years ago, it's a thing of the past.",
    ],
)
def test_a_habit_said_to_be_long_gone_is_not_current(matcher, output):
    # an ended habit said as 'long gone' / 'all in the past' / 'a thing of the past' read as still going on
    assert matcher.match(["Drinks a bottle of vodka a day."], [output])[0] is None
