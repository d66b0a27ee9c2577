"""Stop 59 (s59-clin): hw-021, a man admitted after the police detained him, with persecutory beliefs about his
neighbour, was asked 'What have you done about it so far? Have you confronted anyone, or thought about harming them to
protect yourself?' and answered 'I'm not ill. Her mother, Chloe, stopped contact after I accused her of being in on it.'
The note wrote 'Action on the belief (risk to others): asked, no direct answer'; the plan kept general observation and
had no plan for the risk to others. A risk to others that cannot be assessed is planned for as if present (as an
unanswered question about suicidal thoughts is): a risk management plan and raised observation on the ward."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write

_WALK_IN = "Inpatient ward. A 26-year-old man is here to see you, alone."
_PERSECUTORY = {"persecutory_delusions": "The neighbour is filming me through the walls.",
                "auditory_hallucinations": "I hear two men talking about me."}


def _plan(action_answer: str) -> str:
    doctor = with_findings(_WALK_IN, present=_PERSECUTORY, answers={"follow:belief_action": action_answer})
    return write(doctor, "treat")


def test_no_answer_on_acting_on_the_belief_is_planned_for_as_a_risk_to_others():
    plan = _plan("I'm not ill. Her mother, Chloe, stopped contact after I accused her of being in on it.")
    assert "agree a risk management plan" in plan, plan
    assert "intermittent observation" in plan, plan


def test_a_plain_denial_of_acting_on_it_is_no_risk_to_others():
    plan = _plan("No, I haven't done anything about it. I just keep away from him.")
    assert "agree a risk management plan" not in plan, plan
    assert "general observation" in plan, plan


def test_no_answer_after_the_belief_itself_was_denied_is_no_risk_to_others():
    """hw-033: 'No, I don't think anyone's against me.' on further questioning, then 'When I'm in here people look after
    me.' to the action question: no belief about others to act on, no risk management plan."""
    doctor = with_findings(_WALK_IN, present=_PERSECUTORY, answers={
        "follow:belief": "No, I don't think anyone's against me.",
        "follow:belief_action": "When I'm in here people look after me. I didn't have any wish to die with the episodes.",
    })
    assert "agree a risk management plan" not in write(doctor, "treat")
