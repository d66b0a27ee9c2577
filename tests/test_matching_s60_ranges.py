"""Stop 60: an amount said inside a range the other statement writes agrees with it (issue 18, heldout56's misses).

'At its height drank about 55-65 units of alcohol a week' was refused against 'Peak EtOH ~60 u/wk': amounts of one
unit were compared value by value, and 60 is neither 55 nor 65. A value inside a range written between two numbers
('55-65', '4 to 6') of the same unit now agrees with it; a value outside it still differs. 'Half a dozen' is six
(it was read as a dozen). The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Smokes 15-20 cigarettes a day.", "About 18 cigarettes a day."),
        ("Drinks 30-40 units of alcohol a week.", "Roughly 35 units a week."),
        ("Drinks about six cans of lager a night.", "Half a dozen cans of lager a night."),
    ],
)
def test_an_amount_inside_the_range_is_credited(matcher, checkpoint, output):
    assert entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks 30-40 units of alcohol a week.", "Roughly 70 units a week."),
        ("Drinks about six cans of lager a night.", "A dozen cans of lager a night."),
    ],
)
def test_an_amount_outside_it_is_not(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)
