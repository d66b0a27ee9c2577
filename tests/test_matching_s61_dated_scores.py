"""Stop 61: a rating scale's score read through the words and dates that say when it was scored.

heldout60 (development data at stop 61) showed four scale scores that differed accepted on the scale's name: a word
or date stood between the name and the score ('on admission', 'in July', 'on <day/month>'), so the score went
unread, or a written date's numbers (an ISO date in brackets) were read as further scores that happened to agree.
The words that date a score are contrasts.json's ``scale_scores.dated_by``; a written date is never a score; the
scale's range said after a score ('of 27') is no further score. The sentences below are written apart from the
pair set.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import statement_conflict


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("GAD-7 15/21 (2026-10-02).", "GAD-7 on 2/10 scored 5."),
        ("AUDIT 22 at intake.", "AUDIT at screening 12."),
        ("MoCA 19/30.", "MoCA today 27."),
        ("Y-BOCS 31/40 (03/09/2026).", "Y-BOCS in September 13 of 40."),
    ],
)
def test_a_scale_scored_otherwise_when_dated_is_not_entailed(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("AUDIT 22 at intake.", "AUDIT at screening 22."),
        ("MoCA 19/30.", "MoCA today 19."),
        ("Y-BOCS 31/40 (03/09/2026).", "Y-BOCS in September 31 of 40."),
        ("GAD-7 15/21 (2026-10-02).", "GAD-7 in October scored 15."),  # the date's numbers are no scores
    ],
)
def test_the_same_score_dated_is_no_conflict(checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
