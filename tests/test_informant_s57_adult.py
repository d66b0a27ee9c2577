"""The adult with someone in the room who answers for him (stop 57): uw-030, a man of 34 with a mild intellectual
disability and autism whose key worker Dean 'sometimes answers for Craig' and whom he 'looks at ... to answer for
him', who 'cannot tell the doctor his weight, the dates or the medicine doses', was interviewed as if alone:
Dean never spoke and Craig said 'I take macrogol compound oral powder.' to the medicines question."""

from __future__ import annotations

from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.informant import informant_for

UNSEEN = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen"


@pytest.fixture(scope="module")
def uw030():
    return load_case(str(UNSEEN / "uw-030.json"))


def _reply(case, question: str):
    return make_patient(case, "full", seed=0).respond(question)


def test_the_key_worker_is_named_by_the_relation_beside_him(uw030) -> None:
    # "Key worker Dean Ashworth ... crying at night with Mum's scarf": a carer named Dean, not a mother named "Key"
    informant = informant_for(uw030)
    assert (informant.relation, informant.name, informant.answers_for) == ("carer", "Dean", True)
    assert informant.label == "Carer (Dean)"


def test_the_key_worker_tells_his_medicines_and_when_it_started(uw030) -> None:
    for question in ("What medicines do you take at the moment?", "When did you first notice this, and how has it changed since then?",
                     "Has anyone in your family had problems with their mental health?"):
        reply = _reply(uw030, question)
        assert reply.speaker == "informant", (question, reply.text)
        assert not reply.text.startswith(("I take", "I've", "My ")), (question, reply.text)


def test_how_he_feels_and_the_risk_questions_stay_his(uw030) -> None:
    for question in ("How has your mood been over the past few weeks?", "What do you enjoy doing?",
                     "Have you had thoughts that life is not worth living?"):
        assert _reply(uw030, question).speaker == "patient", question


def test_nobody_answers_for_a_woman_whose_boyfriend_was_sent_out() -> None:
    # uw-015: Travis "answered for her ... and was asked to step out; she is interviewed alone"
    case = load_case(str(UNSEEN / "uw-015.json"))
    informant = informant_for(case)
    assert informant.relation == "partner" and informant.name == "Travis" and not informant.answers_for
    assert _reply(case, "What medicines do you take at the moment?").speaker == "patient"


def test_a_young_person_still_answers_for_herself() -> None:
    # uw-008, 15: his mother "gives most of the history", but he is asked his own medicines
    case = load_case(str(UNSEEN / "uw-008.json"))
    assert not informant_for(case).answers_for
    assert _reply(case, "What medicines do you take at the moment?").speaker == "patient"


def test_the_key_worker_reads_the_sertraline_from_the_chart(uw030) -> None:
    # the drug under review, never named by Craig, is the first line of the key worker's answer
    said = _reply(uw030, "What medicines do you take at the moment, including anything from the pharmacy?").text
    assert said.startswith("Sertraline 100 mg each morning"), said


def test_his_daughter_says_what_she_knows_of_the_family() -> None:
    # uw-006: "There's no depression, psychosis or suicide in his family that he knows of." said by his daughter
    case = load_case(str(UNSEEN / "uw-006.json"))
    reply = _reply(case, "Has anyone in your family had problems with their mental health?")
    assert reply.speaker == "informant" and "that he knows of" not in reply.text, reply.text


def test_the_key_worker_tells_the_head_hitting_craig_will_not(uw030) -> None:
    # asked after Craig's "No. Stop.", the key worker said "No, not that I know of." (the risk line, what only a
    # clinician writes, was passed over and a silent "no" said in its place), though his logs hold the head-hitting
    reply = _reply(uw030, "That must have been worrying to see. A question for his key worker: Has he hurt himself lately, or hit himself?")
    assert reply.speaker == "informant" and "head-hitting" in reply.text and not reply.text.startswith("No"), reply.text


def test_his_words_said_of_him_are_cut_as_his_reply_would_be(uw030) -> None:
    # "He had mum coming Saturday. No work. He wants to be with his mum in the sky, consultant outpatient review 4
    # December 2026, with me, on sertraline 100 mg.": the March wish said as now, and the chart's frame read out
    said = _reply(uw030, "A question for his key worker: How is this affecting his day-to-day life?").text
    assert "in the sky" not in said and "consultant" not in said, said
