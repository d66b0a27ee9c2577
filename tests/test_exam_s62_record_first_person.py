"""Stop 62: the record read aloud in the first person, the misses of stop 61's lint (exam audit 62: nine
replies graded fine that read record sentences aloud). Each sentence alone read as speech (no clinician's
register, a subject, no three-item series), so record_first_person let it pass; two sentences in a row
that are each the record's own sentence are the record read out. And the record's attribution ("according
to him") turned on the speaker. Natural speech that tells one record sentence among its own words stays
unflagged."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import exam_grading as eg  # noqa: E402

CASE = {"case_id": "t62", "ehr": {"history": {
    "education": "Left school with good grades despite missing a term through illness; took two years longer than expected to qualify as an electrician.",
    "drugs": "There was no alcohol use according to him and his brother. Never smoked cannabis or taken pills.",
    "weight": "Over the past year he has lost around six kilograms without trying.",
}}}


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def test_two_record_sentences_read_one_after_the_other_are_the_record(lints):
    reply = "I left school with good grades despite missing a term through illness. I took two years longer than expected to qualify as an electrician."
    found = lints.record_first_person(reply, CASE, "How did you get on at school?")
    assert found and "sentence by sentence" in found[0]


def test_the_records_attribution_turned_on_the_speaker(lints):
    found = lints.record_first_person("No, there was no alcohol use according to me and my brother.", CASE, "Do you drink?")
    assert found and "according to me" in found[0]


def test_one_record_sentence_among_the_speakers_own_words_is_speech(lints):
    assert not lints.record_first_person("No, not really. Over the past year I've lost around six kilograms without trying.", CASE, "How's your appetite?")
    assert not lints.record_first_person("I left school with good grades despite missing a term through illness. Then I just drifted, to be honest.", CASE, "How did you get on at school?")


def test_through_grade_the_reply_is_unnatural(lints):
    q = eg.parse_question({"id": "t62.a1", "case_id": "t62", "suite": "x", "conversation": "t62.a", "turn": 1, "kind": "open",
                           "ask": "How did you get on at school?", "stance": "affirm", "details": [["school", "grades"]], "contradicts": []}, "test")
    g = eg.grade(q, "I left school with good grades despite missing a term through illness. I took two years longer than expected to qualify as an electrician.", CASE, lints)
    assert g.verdict == "unnatural"


def test_thoughts_told_and_replies_to_an_open_question_are_the_speakers_own(lints):
    case = {"case_id": "t62b", "ehr": {"h": "He feels he has let everyone down at work and at home. He feels nothing will ever change for him now.",
                                       "impact": "He has been off sick for three months. He no longer walks the dog in the mornings."}}
    assert not lints.record_first_person("I feel I've let everyone down at work and at home. I feel nothing will ever change for me now.", case, "How do you see things going?")
    assert not lints.record_first_person("I've been off sick for three months. I no longer walk the dog in the mornings.", case, "How is this affecting your life?")
    # the same two facts, to a closed question, are the record read out
    assert lints.record_first_person("I've been off sick for three months. I no longer walk the dog in the mornings.", case, "Are you working at the moment?")
