"""Stop 56: 'o.n.' (omni nocte) and 'o.m.' (omni mane) after a dose were read as no dosing at all, so heldout54's
'Li carbonate 300 mg o.n. only' was credited to 'Lithium 300 mg twice daily'. They now read as 'nocte' and 'mane'
do (every night, every morning: contrasts.json spoken_amounts.after_number)."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.adjudication import statement_conflict


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Olanzapine 10 mg twice daily.", "Olanzapine 10 mg o.n."),
        ("Promazine 25 mg three times a day.", "Promazine 25 mg o.n. only."),
    ],
)
def test_every_night_is_not_twice_a_day(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Quetiapine 50 mg nocte.", "Quetiapine 50 mg o.n."),
        ("Quetiapine 50 mg o.n.", "Quetiapine 50 mg at night."),
    ],
)
def test_every_night_said_two_ways_agrees(checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
