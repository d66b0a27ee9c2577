"""Stop 57: an amount the checkpoint states, said back in other words, carries the checkpoint's words for it.

A note or a patient says a duration or a count in digits where the record spells it ("24 yrs" for "twenty-four
years"), or in another unit of time ("96 hours ago" for "four days ago", "120 minutes" for "two hours"). The share
of the checkpoint's words the output carries counted none of them, so the pair fell below the share. When every
amount the checkpoint states is said (the same value, or the same time within contrasts.json's
``same_amount_ratio``), its number words and units now count as carried (``amount_stems_carried``). An amount said
otherwise carries nothing. The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import amount_stems_carried


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Worked as a nurse for twenty-four years.", "Nurse, 24 yrs."),
        ("Symptoms began four days ago.", "It started about 96 hours ago."),
    ],
)
def test_an_amount_said_in_other_words_is_carried(matcher, checkpoint, output):
    assert entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Symptoms began four days ago.", "It started about 48 hours ago."),
        ("Drinks eight cans a day.", "6 cans daily."),
    ],
)
def test_another_amount_is_not_carried(matcher, checkpoint, output):
    assert not amount_stems_carried(checkpoint, output)
    assert not entailed(matcher, checkpoint, output)


def test_every_amount_of_the_checkpoint_must_be_said():
    # the hours are said, the days a week are not
    assert not amount_stems_carried("Trains two hours a day, five days a week.", "I train 120 minutes a day.")
    assert amount_stems_carried("Trains two hours a day.", "I train 120 minutes a day.") >= {"two", "hour"}
