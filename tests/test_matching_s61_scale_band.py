"""Stop 61: a rating scale named with a band and no score does not state the checkpoint's score; a score said in
words is read.

heldout56 and heldout54 (development data at stop 61) accepted a scale's band or a note that the scale was not done
('in the severe range', 'not completed today') against a checkpoint that gives the score: the scale's name alone
carried the pair. heldout60's notes write scores in words ('PHQ-9 nineteen'), which were not read as scores. The
sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import statement_conflict


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("MADRS 38/60 (severe).", "MADRS in the severe band."),
        ("AUDIT 24 at intake.", "AUDIT not done, patient declined."),
        ("MoCA 22/30.", "MoCA thirteen out of thirty."),
    ],
)
def test_a_band_or_another_score_is_not_the_checkpoints_score(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("MADRS 38/60 (severe).", "MADRS thirty-eight, severe."),
        ("MoCA 22/30.", "MoCA twenty-two out of thirty."),
        ("AUDIT 24 at intake.", "AUDIT twenty four."),
        ("PHQ-9 12.", "PHQ-9 one week ago was 12."),  # a number not read as the score is no evidence either way
    ],
)
def test_a_score_said_in_words_is_the_score(checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
