"""Stop 47 (review of the merged build, review2 must-fix 2 and 3): the scripted clinician's plan reads a lithium that
'stopped working' as a lithium still taken, not a stopped one to restart (uw-017: a lithium overdose, then 'My lithium
stopped working'), and a drug class the patient already takes is not started a second time (hw-034: lithium and
quetiapine taken, the plan added 'Start an antipsychotic ... aripiprazole or olanzapine')."""

from __future__ import annotations

from mentalhospital_env.agents.scripted import ScriptedClinician

WARD = "Inpatient ward. A 35-year-old woman is here to see you, alone."


def _doctor(walk_in: str = WARD) -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    return doctor


def _answer(doctor: ScriptedClinician, concept: str, reply: str) -> None:
    doctor.last_question, doctor.last_concept = doctor._question(concept), concept
    doctor.act({"text": f"Patient: {reply}"}, {"allowed_actions": ["ask"]})


def _mania(doctor: ScriptedClinician) -> None:
    _answer(doctor, "elevated_mood", "I've been on top of the world, I haven't slept for four nights and I don't need to.")
    _answer(doctor, "grandiosity", "I'm going to run the company, I've got special plans nobody else understands.")


def test_a_lithium_that_stopped_working_is_not_a_lithium_stopped_to_restart():
    doctor = _doctor()
    _mania(doctor)
    _answer(doctor, "medications_current", "I take lithium and quetiapine.")
    _answer(doctor, "low_mood", "My lithium stopped working, so I took the whole box with vodka.")
    plan = doctor._plan()
    assert "which the patient says was stopped" not in plan, plan


def test_an_antipsychotic_taken_now_is_not_started_a_second_time():
    doctor = _doctor()
    _mania(doctor)
    _answer(doctor, "auditory_hallucinations", "I hear God's voice telling me I'm chosen.")
    _answer(doctor, "medications_current", "I take lithium and quetiapine.")
    plan = doctor._plan()
    assert "Start an antipsychotic" not in plan, plan
