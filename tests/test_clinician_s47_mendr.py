"""Stop 47 review M4 and M5: what the patient told of a stopped drug and of a preparatory act reaches the plan and
the risk assessment, read from every reply of the interview.

M4 (test-v2-0018): "I take lithium, I'm on tablets." to the medicines question and "Lithium helped. But I stopped it a
few weeks ago" to the history question gave "he already takes lithium ... raise the dose": the latest statement about a
drug wins, in whatever reply it is told, and a drug stopped is restarted with its level, never raised.
M5 (uw-020): "I took my father's handgun from his nightstand drawer." to the plan question gave "Plan or preparations:
asked, no direct answer" and "Denies suicidal ideation": a preparatory act (a verb of acting and a means, read by the
shared parse, not negated) is the plan's answer, is no denial, and restricts the means."""

from __future__ import annotations

import pytest

from mentalhospital_env.agents.scripted import ScriptedClinician


def _doctor(walk_in: str = "Outpatient clinic. A 40-year-old man is here to see you, alone.") -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    return doctor


def _answer(doctor: ScriptedClinician, concept: str, reply: str) -> None:
    doctor.last_question, doctor.last_concept = doctor._question(concept), concept
    doctor.act({"text": f"Patient: {reply}"}, {"allowed_actions": ["ask"]})


def _reply(doctor: ScriptedClinician, reply: str) -> None:
    """The patient answers whatever the clinician asked last."""
    doctor.act({"text": f"Patient: {reply}"}, {"allowed_actions": ["ask"]})


def _line(doctor: ScriptedClinician, heading: str) -> str:
    return next((line for line in doctor._note().splitlines() if line.startswith(heading)), "")


def _manic_on_lithium(history: str) -> ScriptedClinician:
    doctor = _doctor()
    _answer(doctor, "elevated_mood", "I feel on top of the world, I hardly need any sleep.")
    _answer(doctor, "medications_current", "I take lithium, I'm on tablets.")
    _answer(doctor, "past_psychiatric_treatment", history)
    return doctor


def test_a_drug_stopped_in_a_later_reply_is_not_already_taken():
    doctor = _manic_on_lithium("I've been known to the community team for years. Lithium helped. But I stopped it a few weeks ago.")
    plan = doctor._plan()
    assert "already takes lithium" not in plan, plan
    assert "raise the dose" not in plan, plan
    assert "restart lithium" in plan.lower() or "lithium, which the patient says was stopped" in plan.lower(), plan
    assert "lithium level" in plan.lower(), plan  # restarted with its level


def test_a_drug_still_taken_is_reviewed_not_restarted():
    doctor = _manic_on_lithium("I've been known to the community team for years. Lithium helped and I still take it every night.")
    plan = doctor._plan()
    assert "already takes lithium" in plan, plan


def test_the_latest_statement_about_a_drug_wins():
    doctor = _manic_on_lithium("I stopped the lithium in the spring. I've been taking it again since last month.")
    assert "lithium" not in doctor._drugs_stopped()


def _plan_answered(reply: str) -> ScriptedClinician:
    doctor = _doctor("Outpatient clinic. A 19-year-old woman is here to see you, alone.")
    _answer(doctor, "low_mood", "I've been feeling low for months.")
    _answer(doctor, "suicidal_ideation", "I don't want to die.")
    _answer(doctor, "self_harm", "I cut myself with a razor blade last month.")
    assert doctor.last_concept == "risk:plan"  # the follow-up asks the plan next
    _reply(doctor, reply)
    _reply(doctor, "No.")
    return doctor


def test_a_preparatory_act_told_to_the_plan_question_is_recorded_as_told():
    doctor = _plan_answered("I took my father's handgun from his nightstand drawer.")
    risk = _line(doctor, "Risk assessment:")
    assert "Plan or preparations: \"I took my father's handgun" in risk, risk
    assert "Denies suicidal ideation" not in risk, risk
    assert "preparatory act" in risk, risk
    assert not doctor._death_wish_passive()
    plan = doctor._plan()
    assert "firearm" in plan, plan  # means restricted: the gun


@pytest.mark.parametrize("reply", ["I tied a rope to the beam in the garage.", "I stood at the edge of the bridge."])
def test_other_acts_are_read_by_their_verb_and_means(reply):
    doctor = _plan_answered(reply)
    risk = _line(doctor, "Risk assessment:")
    assert f'Plan or preparations: "{reply.rstrip(".")}' in risk, risk
    assert "Denies suicidal ideation" not in risk, risk


@pytest.mark.parametrize("reply", ["I didn't take the gun.", "My dad keeps a gun in his drawer.", "I took my tablets this morning."])
def test_no_act_is_read_where_none_was_told(reply):
    doctor = _doctor()
    assert doctor._act_told(reply) is None


def test_a_means_put_out_of_reach_is_no_preparatory_act():
    # uw-002 (first run of this change): a mother who hid the kitchen knives from herself was read as preparing
    doctor = _doctor()
    assert doctor._act_told("And I have hidden the kitchen knives in a high cupboard.") is None


def test_a_means_named_in_reply_to_the_plan_question_is_its_answer():
    # uw-020 at seed 7 (83719f4): "I confirm the handgun episode of 26 November." was "asked, no direct answer"
    doctor = _plan_answered("I confirm the handgun episode of 26 November.")
    risk = _line(doctor, "Risk assessment:")
    assert 'Plan or preparations: "I confirm the handgun episode' in risk, risk


# Stop 47, review 2 must-fix 2 and 3 (the integrator's plan mend): a lithium that 'stopped working' is still taken, not
# stopped to be restarted (uw-017: a lithium overdose, then 'My lithium stopped working'), and a drug class the
# patient already takes is not started a second time (hw-034: lithium and quetiapine taken, the plan added 'Start an
# antipsychotic ... aripiprazole or olanzapine').
WARD = "Inpatient ward. A 35-year-old woman is here to see you, alone."


def _mania(doctor: ScriptedClinician) -> None:
    _answer(doctor, "elevated_mood", "I've been on top of the world, I haven't slept for four nights and I don't need to.")
    _answer(doctor, "grandiosity", "I'm going to run the company, I've got special plans nobody else understands.")


def test_a_lithium_that_stopped_working_is_not_a_lithium_stopped_to_restart():
    doctor = _doctor(WARD)
    _mania(doctor)
    _answer(doctor, "medications_current", "I take lithium and quetiapine.")
    _answer(doctor, "low_mood", "My lithium stopped working, so I took the whole box with vodka.")
    plan = doctor._plan()
    assert "which the patient says was stopped" not in plan, plan


def test_an_antipsychotic_taken_now_is_not_started_a_second_time():
    doctor = _doctor(WARD)
    _mania(doctor)
    _answer(doctor, "auditory_hallucinations", "I hear God's voice telling me I'm chosen.")
    _answer(doctor, "medications_current", "I take lithium and quetiapine.")
    plan = doctor._plan()
    assert "Start an antipsychotic" not in plan, plan
    # and the antipsychotic she takes is named as continued: the plan does not leave the mania's step unmet
    assert "already takes quetiapine" in plan and "continued" in plan, plan
