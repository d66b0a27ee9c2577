"""The past-attempt question reaches the attempt or the act the record states (issue 13, stop 47, mender).

After the plan question reached the act the record holds (s47-answer), "Have you ever tried to end your life?" still
went wrong in two ways on the development records:
- an attempt the record states only under a clinician's label the compiler drops ("Suicide attempt x1: took ~24 x
  acetaminophen 500 mg ...", "prior attempt 2014 (OD)" in the risk line) was not read as an attempt: the patient said
  a passive death wish again ("As I said, sometimes I wish I'd just not wake up from one.") or the aftermath only;
- an intake screen's "no attempts" answered a record that later states an act short of an attempt (the father's
  handgun held, an interrupted hanging): the later act outranks the earlier denial.
A denial of attempts before tonight's act still stands beside the patient's own account of it (the footbridge).
The records are the development records of benchmarks/data (chosen by what they hold), through the public API.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.patient import make_patient

ROOT = Path(__file__).resolve().parents[1]
_WARM_UP = ("What has brought you here today?", "How has your mood been over the past few weeks?",
            "How have you been sleeping?", "Thank you for telling me. How is this affecting your day-to-day life?",
            "Have you had thoughts of ending your life?")
_PLAN_Q = ("When things are at their worst, have you thought about how you might end your life? Have you made any "
           "plans or preparations?")
_RISK = (_PLAN_Q,
         "When thoughts of ending your life or harming yourself come, do you feel you might act on them?",
         "Do you have access to anything you could use to harm yourself, such as medicines or weapons?")
_ATTEMPT_Q = "Have you ever tried to end your life?"


def _unseen(name: str):
    return load_suite(str(ROOT / f"benchmarks/data/patient_exam/unseen/{name}.json")).cases[0]


def _attempt_reply(case, seed: int = 13) -> str:
    patient = make_patient(case, "full", seed=seed)
    for q in (*_WARM_UP, *_RISK):
        patient.respond(q)
    return patient.respond(_ATTEMPT_Q).text


def _handwritten(content: str):
    """The handwritten record whose history holds ``content`` (chosen by what it holds, not by its id)."""
    found = [c for c in load_suite("handwritten").cases if re.search(content, str(c.ehr), re.IGNORECASE)]
    assert found, content
    return found[0]


_DENIAL = re.compile(r"^(?:\w+[,.] )?(?:no\b|i haven't|i have not|i've never|never)", re.IGNORECASE)


@pytest.mark.parametrize("seed", [13, 0])
def test_an_attempt_under_a_dropped_label_is_told_not_a_death_wish(seed) -> None:
    # "Suicide attempt x1 (told only when asked about past attempts): 10/2014 took ~24 x acetaminophen ..."
    reply = _attempt_reply(_unseen("uw-015"), seed)
    assert re.search(r"acetaminophen|overdose", reply, re.IGNORECASE), reply
    assert not re.search(r"wake up", reply, re.IGNORECASE), reply


@pytest.mark.parametrize("seed", [13, 0])
def test_a_later_act_outranks_the_intake_denial_of_attempts(seed) -> None:
    # intake: "no hospitalizations, no attempts, no self-harm"; later: her father's loaded handgun held at Thanksgiving
    reply = _attempt_reply(_unseen("uw-020"), seed)
    assert not _DENIAL.search(reply), reply
    assert not re.search(r"no attempts|no self-harm", reply, re.IGNORECASE), reply
    assert re.search(r"handgun|gun\b", reply, re.IGNORECASE), reply


@pytest.mark.parametrize("seed", [13, 0])
def test_an_interrupted_hanging_is_told_not_no_previous_attempts(seed) -> None:
    # "no previous suicide attempts or self-harm" at the first screen; weeks of rehearsal at the garage beam since
    reply = _attempt_reply(_unseen("uw-003"), seed)
    assert not _DENIAL.search(reply), reply
    assert re.search(r"beam|hang", reply, re.IGNORECASE), reply


@pytest.mark.parametrize("seed", [13, 0])
def test_tonights_act_and_the_denial_of_earlier_attempts_both_stand(seed) -> None:
    reply = _attempt_reply(_handwritten(r"footbridge"), seed)
    assert re.search(r"footbridge", reply, re.IGNORECASE), reply
    assert re.search(r"previous suicide attempts", reply, re.IGNORECASE), reply
    assert not re.search(r"rather (?:leave|not)|idea, sorry", reply, re.IGNORECASE), reply


_PLAN_ONLY = {
    "chief_complaint": "Low mood for three months.",
    "history_of_present_illness": (
        "Low mood, poor sleep and guilt since her divorce in the spring. Thoughts that she might take all her "
        "tablets at once; she has not acted on them. No previous suicide attempts. No self-harm."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Hypothyroidism.",
    "medications": "Levothyroxine 100 mcg daily.",
    "allergies": "None known.",
    "substance_use": "Occasional wine. Non-smoker.",
    "family_history": "Mother had depression.",
    "personal_history": "Divorced, lives with her daughter. Works as a bookkeeper.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Reactive, tearful.",
                           "thought_content": "Suicidal thoughts with a plan to overdose on her tablets; no intent."},
    "risk_assessment": {"suicide": "Moderate: a plan to overdose, no intent, no previous attempts, daughter protective."},
}


def test_a_plan_only_thought_of_leaves_the_denial_of_attempts_standing() -> None:
    from patient_records import record

    case = load_case(record("risk-attempt-001", _PLAN_ONLY, {"age": 47, "sex": "female"},
                            written_for="test_risk_attempt_recall.py"))
    reply = _attempt_reply(case, 0)
    assert re.search(r"\bno\b|\bnever\b|haven't", reply, re.IGNORECASE), reply
