"""Stop 61 (integration, uw-034 read whole after the risk fixer's change): asked whether he had thought how he might end
his life, a man answered with the night he sat with his stored tablets 'meaning to take them all', and the clinician,
hearing no word of its plan cues ('plan', 'tablet', 'overdose'...: the tablets were named in an earlier reply and are
'them' here), asked again in other words and wrote 'Plan or preparations: asked, no direct answer' above his told
stockpile. Taking or swallowing them all (or the lot) answers the plan question (``reask`` subject cues and the plan
item's own words, data in agents/data/clinician.json). Records and replies written here."""

from __future__ import annotations

import pytest

from mentalhospital_env.agents.scripted import ScriptedClinician


def _doctor() -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 40-year-old man is here to see you, alone."}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})
    return doctor


def _answer(doctor: ScriptedClinician, concept: str, reply: str) -> str:
    doctor.last_question, doctor.last_concept = doctor._question(concept), concept
    return doctor.act({"text": f"Patient: {reply}"}, {"allowed_actions": ["ask"]})


def _risk_line(doctor: ScriptedClinician) -> str:
    return next((line for line in doctor._note().splitlines() if line.startswith("Risk assessment:")), "")


@pytest.mark.parametrize("reply", [
    "Last Sunday I sat on the bed with the box in my lap, meaning to take them all with the rum.",
    "I nearly swallowed the lot on my birthday.",
    "I had them counted out on the table to take them all.",
])
def test_taking_them_all_answers_the_plan_question(reply):
    doctor = _doctor()
    _answer(doctor, "low_mood", "I've been low since the funeral.")
    _answer(doctor, "suicidal_ideation", "Some nights I think it would be better not to wake up.")
    assert doctor.last_concept == "risk:plan"
    asked_next = doctor.act({"text": f"Patient: {reply}"}, {"allowed_actions": ["ask"]})
    assert "another way" not in asked_next and "put that clearly" not in asked_next, asked_next
    risk = _risk_line(doctor)
    assert "Plan or preparations: asked, no direct answer" not in risk, risk
    assert f'Plan or preparations: "{reply.rstrip(".")}' in risk, risk


def test_a_plan_question_answered_about_something_else_is_still_asked_again():
    doctor = _doctor()
    _answer(doctor, "low_mood", "I've been low since the funeral.")
    _answer(doctor, "suicidal_ideation", "Some nights I think it would be better not to wake up.")
    assert doctor.last_concept == "risk:plan"
    asked_next = doctor.act({"text": "Patient: My sister came round on Sunday with the kids."}, {"allowed_actions": ["ask"]})
    assert "another way" in asked_next or "put that clearly" in asked_next or "come back" in asked_next, asked_next
