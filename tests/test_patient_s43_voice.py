"""Stop 43: which reply the offline patient gives and how it is voiced (issue 13), through the public API.

Cases are chosen by what their records say, and each premise is checked before the reply is judged, so a redrawn or
edited record fails loudly instead of passing for nothing."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient


def _cases_saying(suite: str, pattern: str):
    return [c for c in load_suite(suite).cases if re.search(pattern, " ".join(f.text for f in c.facts))]


def _ask(case, *questions: str, seed: int = 0) -> str:
    patient = make_patient(case, variant="full", seed=seed)
    text = ""
    for q in questions:
        text = patient.respond(q).text
    return text


@pytest.mark.xfail(strict=True, reason="stop 46: the topic reader reads \"What do you think is going on with your body?\" as insight alone (somatic 0.2 and under), so the belief about the body is not told (the exam lost hw-015.a3 the same way)")
def test_a_fact_of_two_subjects_is_said_in_the_part_asked():
    # a record sentence that says the food refused and the belief about the body: asked about the body, the
    # belief is the answer and the food is not tacked on before it
    cases = [c for c in _cases_saying("handwritten", r"(?i)insides are rotting")
             if re.search(r"(?i)refus\w+ food", " ".join(f.text for f in c.facts))]
    assert cases, "premise: a handwritten record with both the belief and the refused food"
    for seed in range(3):
        reply = _ask(cases[0], "What do you think is going on with your body?", seed=seed)
        assert "rotting" in reply.lower()
        assert "food" not in reply.lower(), reply


def test_a_relatives_history_is_told_whole():
    # the sentence-level trim never touches a relative's history: what they had is the answer whatever subject
    # it names
    cases = _cases_saying("handwritten", r"(?i)\b(?:mother|father|brother|sister|uncle|aunt)\b.{0,60}\b(?:depress|anxiety|bipolar|suicide|alcohol|drink)")
    assert cases, "premise: a handwritten record with a relative's mental health"
    told = 0
    for case in cases:
        reply = _ask(case, "Has anyone in your family had problems with their mental health?").lower()
        told += bool(re.search(r"depress|anxi|bipolar|suicide|drink|alcohol|nerves|low", reply))
    assert told >= len(cases) - 1


def test_what_they_do_with_their_days_is_the_job_not_the_stock_answer():
    cases = _cases_saying("dev", r"(?i)volunteer at a charity shop")
    assert cases, "premise: a dev record whose only word on the day is the voluntary job"
    case = cases[0]
    assert not any(f.section == "daily_routine" for f in case.facts)
    reply = _ask(case, "What do you do with your days?")
    assert "charity shop" in reply.lower(), reply
    assert "just the usual" not in reply.lower()
