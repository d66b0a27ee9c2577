"""What the persona will not talk about (stop 57): uw-030's Craig 'will not talk about hurting himself or hitting his
head ('No. Stop.') or about the funeral', yet said 'Right, well, I've been hurting myself.' to the self-harm question
and 'I hit my head with right palm 5 times.' to a question about anger."""

from __future__ import annotations

from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

UW030 = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen/uw-030.json"


@pytest.fixture(scope="module")
def uw030():
    return load_case(str(UW030))


def _reply(case, question: str):
    return make_patient(case, "full", seed=0).respond(question)


def test_he_will_not_talk_about_hurting_himself_in_his_own_words(uw030) -> None:
    # the persona: "Will not talk about hurting himself or hitting his head ('No. Stop.')"
    reply = _reply(uw030, "Sometimes when feelings get overwhelming people hurt themselves. What happens for you at those times?")
    assert reply.speaker == "patient" and reply.text == "No. Stop.", reply.text
    # the head-hitting recalled for another question is not said either
    said = _reply(uw030, "When you are angry with someone, what sort of thoughts go through your mind?").text
    assert "hit my head" not in said and "head-hitting" not in said, said


def test_a_refused_fact_recalled_beside_the_answer_is_left_out(uw030) -> None:
    # the energy question recalled "hit side of head once during visit" beside "I'm tired all the time": the refusal
    # was said after the answer ("I'm tired all the time. No. Stop."), to a question that never asked about it
    # (stop 59: his recorded 'Tired.' is a sentence of its own now, and may be the one the question recalls)
    assert _reply(uw030, "How is your energy through the day?").text in ("I'm tired all the time.", "I'm tired."), (
        _reply(uw030, "How is your energy through the day?").text)
