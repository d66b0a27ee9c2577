"""Stop 60: an avoided place or activity said as a habit is the contrary of avoiding it (issue 18, heldout56).

'Avoids the cinema and parties' was credited to 'we go to the cinema every Friday', and 'avoids bath time with his
son' to 'bath time's mine every night': the shared place or activity carried the pair, and no negation word marks
the opposite. What an avoidance (contrasts.json's avoidance contrary) is of, said as done weekly or more often with no
negation, avoidance, inability or finding beside it, now differs from it. The sentences below are written apart
from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Avoids the swimming pool and the gym.", "I'm at the gym every morning before work."),
        ("Avoids the supermarket.", "I do the big shop at the supermarket every Sunday."),
        ("Avoids the pub.", "I'm down the pub every Saturday with my mates."),
    ],
)
def test_the_avoided_thing_done_by_habit_is_not_avoidance(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Avoids the pub.", "I stay away from the pub."),
    ],
)
def test_avoidance_said_another_way_still_is(matcher, checkpoint, output):
    assert entailed(matcher, checkpoint, output)
