"""A finding said as stopped ("gave up the cigarettes") and the same finding said as stopped in the reader's
negated form ("stopped smoking", "no alcohol since") are one statement; an attempt or a finding that is itself a
stopping ("my periods stopped") is not a habit given up (language.json ``cessation_cues``)."""

import pytest
from mentalhospital_env.rewards.adjudication import says_stopped, statement_conflict


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("She stopped smoking at 60.", "I gave up the cigarettes the year I turned sixty."),
        ("He stopped smoking in 1990.", "I packed in the cigs in 1990. Twenty a day I was on, before that."),
        ("Has stopped going to the baby group.", "I don't go to the baby group any more."),
    ],
)
def test_stopped_said_two_ways_is_one_statement(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
    assert matcher.entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("She stopped smoking at 60.", "I still smoke, about ten a day; I've tried to stop."),
        ("Periods regular.", "My periods stopped months ago."),
        ("No panic attacks.", "I had a full-blown panic attack at the bus stop on Tuesday."),
        ("Denies excessive worry.", "I can't stop fretting about bills and whether I'm ill."),
    ],
)
def test_an_attempt_or_a_stopping_finding_is_no_habit_given_up(matcher, checkpoint, output):
    assert not matcher.entails(checkpoint, output)


def test_what_says_stopped():
    assert says_stopped("I gave up the cigarettes")
    assert says_stopped("He is an ex-smoker.")
    assert not says_stopped("I can't stop fretting")
    assert not says_stopped("My periods stopped months ago.")  # the finding's own phrase


def test_a_lost_ability_is_no_habit_given_up(matcher):
    assert not says_stopped("I can't go to the shops or on buses any more.")
    assert statement_conflict("Denies avoidance of public places.", "I can't go to the shops or on buses any more.")
