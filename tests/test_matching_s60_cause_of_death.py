"""Stop 60: a death by accident is not a death by illness (issue 18, heldout56's false accepts).

'Cousin died of sudden cardiac death in February 2026' was credited to 'His cousin died in a car crash on the M74':
the relative and his death carried the pair. contrasts.json gains the contrary 'cause of death: an accident against
an illness'. The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Uncle died of a heart attack at 50.", "My uncle was killed in a car crash."),
        ("Her brother was killed in a road accident in 2019.", "Her brother died of cancer in 2019."),
    ],
)
def test_another_cause_of_death_is_not_credited(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)


def test_the_same_cause_still_is(matcher):
    assert entailed(matcher, "Uncle died of a heart attack at 50.", "My uncle had a heart attack and died, he was 50.")
