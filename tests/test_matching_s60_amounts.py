"""Stop 60: amounts the matcher read past (issue 18, heldout56's false accepts).

Three readings of an amount were missing, and the pair was credited on the words it shares:
a score written out of a scale's total other than 10, 21, 27 or 30 ('ACE-III 87/100' against '78/100'), a count
with a word between it and what it counts ('three previous admissions' was read as three of 'previous', so 'the one
admission' agreed with it), and a spirit drunk by the bottle and a half ('a bottle and a half of whisky a day' was
read as one bottle, no rate). The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Cognitive screen 52/60, borderline.", "Cognitive screen 38/60."),
        ("Two previous overdoses.", "Only the one overdose, years back."),
        ("Four prior admissions to hospital.", "One admission to hospital, in 2010."),
        ("Drinks about 10 units a day, mostly vodka.", "A bottle and a half of vodka every day."),
    ],
)
def test_another_amount_is_not_credited(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Addenbrooke's score 91/100 last spring.", "Addenbrooke's 91/100 at the memory service."),
        ("Two previous overdoses.", "Two overdoses, both with paracetamol."),
    ],
)
def test_the_same_amount_still_is(matcher, checkpoint, output):
    assert entailed(matcher, checkpoint, output)
