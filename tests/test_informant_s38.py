"""The informant (a child's parent) at stop 38 (issue 13): faults read on uw-011's whole scripted episode
(a nine-year-old with his mother), written as questions to that record."""

from __future__ import annotations

from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

UW011 = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen/uw-011.json"


@pytest.fixture(scope="module")
def case():
    return load_case(str(UW011))


def _reply(case, question: str) -> str:
    r = make_patient(case, "full", seed=0).respond(question)
    return getattr(r, "text", r)


def test_parent_says_the_allergy_not_the_chart(case) -> None:
    # the mother read the chart's entry out: "Widespread itchy blotchy rash on day 5 of a course of amoxicillin ..."
    said = _reply(case, "Mum, is he allergic to any medicines?")
    assert said.startswith("He's allergic to penicillin"), said
    assert "recorded by the GP" not in said


def test_parent_is_the_subject_of_her_own_clause(case) -> None:
    # "on the three nights a week me works night shifts" and "with me, 33 and half-sister Ellie-May, 4"
    said = _reply(case, "Mum, who does he live with?")
    assert "me works" not in said and "I work night shifts" in said, said
    assert "me, 33" not in said and "his half-sister" in said, said


def test_child_does_not_deny_the_tempers_the_record_holds(case) -> None:
    # meltdowns three or four times a week, a shoe thrown at his sister, two lunchtime altercations: the boy said
    # "I don't snap over nothing. I don't fly off the handle." and "I don't lash out."
    for q in ("Tell me about the last time you lost your temper.", "Do you ever lash out or hit people?"):
        said = _reply(case, q)
        assert not said.startswith(("No", "Not at all")) and "I don't" not in said, (q, said)


def test_clinic_observation_is_not_the_childs(case) -> None:
    # "Rhys answered questions about school and his interests but said little else until the end." was said by him
    said = _reply(case, "What do you do for enjoyment these days, and how does it feel?")
    assert "answered questions" not in said and "said little" not in said, said
