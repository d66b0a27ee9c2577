"""Stop 62: tacked_on fired on a part that belongs with the answer (exam audit 62's false alarms): a
sentence giving the answer's reason ("I'm frightened ...") and a clause on the answering part's own subject
("My appetite is good and I've gained ..." to a weight question). An unrelated sentence added after an
answer is still tacked on."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import exam_grading as eg  # noqa: E402


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def test_a_sentence_giving_the_reason_belongs_with_the_answer(lints):
    reply = "I can't get on a bus by myself now. I'm scared I'll panic and nobody will help me."
    assert not lints.tacked_on(reply, "Can you use the buses on your own?", [["can't", "not on my own", "someone with me"]])


def test_a_clause_on_the_answers_own_subject_is_not_tacked_on(lints):
    reply = "I eat well enough, and I've put on about nine kilos since I gave up cigarettes."
    assert not lints.tacked_on(reply, "Before you gave up smoking, what did you weigh?", [["nine", "kilo*", "lighter", "put on"]])


def test_an_unrelated_sentence_after_the_answer_is_still_tacked_on(lints):
    reply = "I sleep about six hours. I've never thought about ending my life."
    assert lints.tacked_on(reply, "How have you been sleeping?", [["hours", "sleep*"]])


def test_the_records_own_words_of_the_patient_are_no_notes_fragment(lints):
    """dev-0015.a5's false alarm (a fragment lint, not tacked_on): the record's patient_says line said as is."""
    case = {"case_id": "t62f", "ehr": {"substance_use": "Heavy drinking, about 9 units a day, for 4 years."},
            "facts": [{"id": "sub-1", "text": "Heavy drinking, about 9 units a day.", "patient_says": "Mostly cider. Big bottles of cider, every night."}]}
    assert not lints.record_voice("Big bottles of cider, every night.", case)
    assert lints.record_voice("Big bottles of strong cider, most nights.", {"case_id": "t62g", "ehr": {}})
