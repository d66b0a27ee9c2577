"""Stop 62: a dose said as a number of tablets of a strength is the total it makes.

heldout56 and heldout60 (development data at stop 62) refused a total daily or nightly dose against a reply or note
giving it as tablets of a strength ('N of the X mg tablets', 'X mg caps xN'): the strength alone was read, so the
milligrams differed. The total is now read beside the strength (contrasts.json ``dose_units``); a dose whose total
is another amount is still refused. The sentences below are written apart from the pair set.
"""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.adjudication import statement_conflict


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Quetiapine 300 mg at night.", "He takes three 100 mg tablets of quetiapine at night."),
        ("Sertraline 150 mg each morning.", "Sertraline 50 mg tabs x3 every morning."),
        ("Venlafaxine 225 mg daily.", "Three of the seventy-five milligram capsules of venlafaxine a day."),
    ],
)
def test_the_total_of_the_tablets_agrees(checkpoint, output):
    assert statement_conflict(checkpoint, output) is None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Quetiapine 400 mg at night.", "He takes three 100 mg tablets of quetiapine at night."),
        ("Sertraline 200 mg each morning.", "Sertraline 50 mg tabs x3 every morning."),
    ],
)
def test_another_total_is_still_refused(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
