"""Stop 62: the same fact said twice within one reply in other words (exam audit 62: "No, I don't drink, and
I've never used drugs, nothing like that, and I don't take drugs."): the repetition lint compared sentences
by their content words and missed a denial stitched on twice in one sentence. Two denials of different
things stay natural."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import exam_grading as eg  # noqa: E402


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def test_the_same_thing_denied_twice_in_one_reply(lints):
    found = lints.repetition("No, I've never placed a bet, nothing like that, and I don't place bets.")
    assert found and "denies again" in found[0]


def test_two_denials_of_different_things_are_natural(lints):
    assert not lints.repetition("No, I don't drink, and I've never used drugs.")
    assert not lints.repetition("I don't smoke. I don't take any tablets either.")


def test_a_restatement_straight_after_is_natural(lints):
    """The stop-24 blind readers coded "I don't take any tablets, I'm not on tablets." fine."""
    assert not lints.repetition("I don't take any pills, I'm not on pills.")
