"""Stop 60: a date casts no vote on negation (issue 18, heldout56's misses).

'No falls since June 2026' was refused against 'Not had a fall since that one in June, touch wood', and 'Cannot
promise his safety beyond tonight' against 'The kids would stop me tonight, but next week... I can't promise you':
the shared date ('June', 'tonight') was read as denied in one statement and said in the other (the denial and the
date stand in different clauses), and with one other shared word that was half the vote. A word that only dates
(contrasts.json's dates_without_polarity, and numbers in digits) read differently now casts no vote where it bounds
the denial ('since June', 'beyond tonight'); a date that is itself denied ('never at weekends') and the finding's own
words still do. The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("No seizures since March 2025.", "Not had a seizure since the one in March, thankfully."),
    ],
)
def test_a_denial_dated_in_another_clause_is_credited(matcher, checkpoint, output):
    assert entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("No seizures since March 2025.", "I had a seizure in March and another last week."),
        ("No cannabis since September.", "I smoked some cannabis in September at the festival."),
        # a date that is itself denied still votes
        ("Headaches on school days, never at weekends.", "My head hurts at the weekends too."),
    ],
)
def test_the_finding_said_against_its_denial_is_not(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)
