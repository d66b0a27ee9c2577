"""Stop 61: a reply that says again, word for word, an earlier reply of the same conversation (exam audit
61: hw-022.a3 "repeats both earlier replies word for word"); the conversation's earlier replies reach the
grader through grade(..., earlier=...), as patient_exam.py passes them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import exam_grading as eg  # noqa: E402

CASE = {"case_id": "t61r", "ehr": {}}
EARLIER = [
    "I've been feeling different and not good enough for as long as I can remember.",
    "In conversations I rehearse what to say and go over them for hours afterwards.",
]


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def question(**over):
    raw = {"id": "t.a3", "case_id": "t61r", "suite": "handwritten", "conversation": "t.a", "turn": 3, "kind": "closed",
           "ask": "How long have you felt like that?", "stance": "affirm", "details": [["years", "always", "as long as", "since"]]}
    raw.update(over)
    return eg.parse_question(raw, "test")


def test_an_earlier_reply_replayed_is_unnatural(lints):
    reply = EARLIER[0] + " " + EARLIER[1]
    assert eg.grade(question(), reply, CASE, lints).verdict == "fine"  # without the conversation: unseen
    g = eg.grade(question(), reply, CASE, lints, earlier=EARLIER)
    assert g.verdict == "unnatural" and any(f.startswith("repeated earlier") for f in g.lints)


def test_an_earlier_sentence_said_again_off_the_question(lints):
    q = question(ask="Do you drink before social things?", details=[["beer*", "drink*", "pint*"]])
    g = eg.grade(q, "No. In conversations I rehearse what to say and go over them for hours afterwards.", CASE, lints, earlier=EARLIER)
    assert any(f.startswith("repeated earlier") for f in g.lints)


def test_a_callback_a_short_no_and_an_answer_given_again_are_not(lints):
    assert not lints.repeated_earlier("As I said, I've been feeling different and not good enough for as long as I can remember.", EARLIER, question().details)
    assert not lints.repeated_earlier("No.", ["No.", "No."], question().details)
    assert not lints.repeated_earlier("Since I was little, I've been feeling different and not good enough for as long as I can remember.", EARLIER, question().details)
    assert not lints.repeated_earlier("I don't really want to go into that.", ["I don't really want to go into that."], [["drink"]])
