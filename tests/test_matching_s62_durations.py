"""Stop 62: lengths of time said in hours against minutes.

heldout61 (development data at stop 62) credited hours a day lost to a compulsion from a reply putting it at minutes
a day: amounts are compared unit by unit, and hours and minutes were never the same unit. Durations over the same
period (or none) in different units are now compared in minutes (contrasts.json ``duration_units``), differing when
every two lie more than the ratio apart; one unit on both sides is compared as said, a fraction word ('half an hour')
leaves the statement uncompared. The sentences below are written apart from the pair set.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import statement_conflict


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Spends about two hours a day checking the cooker and taps.", "Checking the cooker and taps is 15 minutes a day, tops."),
        ("Takes 40 minutes to fall asleep.", "It takes her four hours to fall asleep most nights."),
        ("Plays online poker about five hours a night.", "Online poker, maybe twenty minutes a night."),
    ],
)
def test_a_length_of_time_in_other_units_and_far_apart_is_not_entailed(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Spends about an hour a day checking the cooker.", "Checking the cooker takes 50 minutes a day."),
        ("Takes 90 minutes to fall asleep.", "It takes her an hour and a half to fall asleep."),
        # a fraction word: the number is read only in part
        ("Takes an hour to settle at night.", "Takes half an hour to settle at night."),
    ],
)
def test_close_lengths_other_periods_and_fractions_are_not_set_apart(checkpoint, output):
    assert statement_conflict(checkpoint, output) is None


def test_one_minute_against_one_hour_is_a_turn_of_speech(matcher):
    checkpoint = "Fluctuating alertness: drowsy one hour and bright the next."
    output = "One minute he's dozing in the chair, the next he's up and chatting."
    assert statement_conflict(checkpoint, output) is None
