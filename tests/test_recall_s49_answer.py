"""Stop 49, which sentences answer a question (issue 13, "not answering").

A question on how a treatment went ("Has the citalopram helped?", "How did you get on with it?") was told the list
of medicines, though the record says how it went (in the complaint, or in the past history); a fact the record wrote
as a list was read out whole ("Do you have any physical health problems?" was nine sentences, uw-022).
"""

from __future__ import annotations

import re
from pathlib import Path

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient

UNSEEN = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "patient_exam" / "unseen"


def _handwritten(case_id: str):
    return next(c for c in load_suite("handwritten").cases if c.case_id == case_id)


def _ask(case, *questions: str, seed: int = 0) -> list[str]:
    patient = make_patient(case, "full", seed=seed)
    return [patient.respond(q).text for q in questions]


def test_how_a_treatment_went_is_told_from_the_past_history() -> None:
    # hw-003: "she felt 'wired and reckless' within a month and stopped it" is written in the past psychiatric
    # history; the answer was "I take the combined pill."
    _, reply = _ask(_handwritten("hw-003"), "Have you had treatment for your mood before?", "How did you get on with it?")
    assert "wired" in reply.lower(), reply
    assert "combined pill" not in reply.lower(), reply


def test_a_drug_that_has_not_helped_is_not_answered_with_the_medicine_list() -> None:
    # hw-019: the complaint says "not responding to citalopram"; told already, it is still how the citalopram went,
    # not "I take citalopram and amlodipine."
    _, reply = _ask(_handwritten("hw-019"), "What brings you here?", "Has the citalopram helped?")
    assert "not responding" in reply.lower(), reply
    assert "amlodipine" not in reply.lower(), reply


def test_a_fact_written_as_a_list_is_not_read_out_whole() -> None:
    case = load_suite(UNSEEN / "uw-022.json").cases[0]
    (reply,) = _ask(case, "Do you have any physical health problems?", seed=13)
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", reply) if s]
    assert len(sentences) <= 6, reply  # was nine: the whole obstetric history of one fact, then two more
    # hyperemesis is a diagnosis of her history: each is said, the follow-on sentences go first (review, stop 49)


def test_a_closed_question_on_a_treatment_that_did_nothing_is_answered_no_first() -> None:
    # hw-028: "Sertraline was started a year ago and increased in the spring with no change at all." was the whole
    # answer to "Has the sertraline helped?": a closed question is answered no first
    (reply,) = _ask(_handwritten("hw-028"), "Has the sertraline helped?")
    assert reply.lower().startswith("no"), reply
    assert "no change" in reply.lower(), reply


def test_a_capped_history_keeps_every_diagnosis_and_drops_the_follow_on_first() -> None:
    # hw-028: "I have high cholesterol. I've had high blood pressure for 20 years. And it is often too high. I had a
    # transient ischaemic attack three years ago. ..." was cut after the third sentence and lost the TIA
    (reply,) = _ask(_handwritten("hw-028"), "Do you have any physical health problems?")
    assert "ischaemic attack" in reply.lower(), reply
    assert "cholesterol" in reply.lower() and "blood pressure" in reply.lower(), reply


def test_no_is_not_put_before_a_reply_that_says_the_treatment_did_something() -> None:
    # hw-028: "Any side effects?" was answered "No, sertraline ... with no change at all": no change is no side effect
    hw28 = _ask(_handwritten("hw-028"), "Any side effects?")[-1]
    assert not hw28.lower().startswith("no, sertraline"), hw28

