"""Stop 62: an earlier reply's sentence said again whole with a hedge added (exam audit 62: "The first attack
came out of the blue while I was driving on the motorway, if I'm honest." to a new question). It names the
item's detail ("first"), so stop 61's repeated_earlier took it for an answer given again; the tail does not
make it a new sentence. The same sentence said again bare, answering a question asked twice, stays natural."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import exam_grading as eg  # noqa: E402

EARLIER = ["The first fit happened in the queue at the post office last spring. My legs went and I couldn't speak."]
DETAILS = [["no", "never", "first", "last spring"]]


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def test_an_earlier_sentence_with_a_hedge_added_is_said_again(lints):
    found = lints.repeated_earlier("The first fit happened in the queue at the post office last spring, to be fair.", EARLIER, DETAILS)
    assert found and "repeated earlier" in found[0]


def test_the_same_sentence_bare_answering_again_is_natural(lints):
    assert not lints.repeated_earlier("The first fit happened in the queue at the post office last spring.", EARLIER, DETAILS)


def test_a_new_sentence_that_reuses_a_few_words_is_natural(lints):
    assert not lints.repeated_earlier("No, never, the post office was the first time, if I'm honest.", EARLIER, DETAILS)
