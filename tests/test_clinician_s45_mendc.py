"""Stop 45 (review1 must-fix 5): an affirmed thought of death is suicidal ideation, however the reply is worded.

uw-018 (severe depression, a note written to her son, insulin pens hidden) answered the suicide screen "Right now I
don't see how I face anyone, thoughts of death today, yes, fleeting." The lexicon's negation scope runs past the
comma, so the "don't" of the first clause denied the death thought of the second: the clinician asked no plan,
intent or means, and charted "Denies suicidal ideation" on general observation. A denial is charted only from a
denial."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.agents.scripted import ScriptedClinician
from mentalhospital_env.evaluation import EvaluationSpec, run_episode


def _screened(reply: str) -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 40-year-old woman is here to see you, alone."}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})  # the opening question
    doctor.last_question, doctor.last_concept = doctor._question("suicidal_ideation"), "suicidal_ideation"
    doctor.act({"text": "Patient: " + reply}, {"allowed_actions": ["ask"]})
    return doctor


def _risk(doctor: ScriptedClinician) -> str:
    return next(line for line in doctor._note().splitlines() if line.startswith("Risk assessment:"))


@pytest.mark.parametrize("reply", [
    "Right now I don't see how I face anyone, thoughts of death today, yes, fleeting.",
    "I can't say why, thoughts of death every day.",
    "I don't see a way out, thoughts of ending it, yes.",
    "Nobody knows this, wishing I was dead, most nights.",
])
def test_a_death_thought_affirmed_after_an_unrelated_negated_clause_is_ideation_and_followed_up(reply):
    doctor = _screened(reply)
    # the next questions are the risk follow-up: plan or preparations first, then intent and means
    assert doctor.risk_followed and str(doctor.last_concept).startswith("risk:"), doctor.last_concept
    queued = [str(doctor.last_concept)] + [str(c) for _, c in doctor.plan]
    assert {"risk:plan", "risk:intent", "risk:means"} <= set(queued), queued
    assert "suicidal_ideation" in doctor.findings.present and "suicidal_ideation" not in doctor.findings.denied
    note = doctor._note()
    # stop 46 (review M1): before the plan question is answered no death thought is written passive
    assert "Reports suicidal ideation" in _risk(doctor), _risk(doctor)
    assert "enies suicidal ideation" not in note, note  # neither the risk line nor the mental state's thought content
    # a death thought that names no act, with the plan asked and denied, is charted as the passive death wish it is;
    # one that names ending one's life as suicidal ideation; either way as reported, never denied
    doctor.last_question, doctor.last_concept = "Have you thought about how you might end your life?", "risk:plan"
    doctor.act({"text": "Patient: No, I haven't got a plan."}, {"allowed_actions": ["ask"]})
    reported = "Reports suicidal ideation" if "ending it" in reply else "Reports a passive death wish"
    assert reported in _risk(doctor), _risk(doctor)
    assert "enies suicidal ideation" not in doctor._note(), doctor._note()


@pytest.mark.parametrize("reply", [
    "I don't have thoughts of suicide, self-harm or hurting anyone.",
    "I don't have thoughts of suicide, or of self-harm.",
    "No, I don't want to die, I have my kids.",
    "No, never. I've never had thoughts of ending my life.",
])
def test_a_denied_death_thought_and_a_denied_list_are_still_charted_as_denials(reply):
    # a clause read on its own is no item of a list an earlier clause denied ("..., self-harm")
    doctor = _screened(reply)
    assert not doctor.risk_followed and not str(doctor.last_concept).startswith("risk:"), doctor.last_concept
    assert "suicidal_ideation" in doctor.findings.denied and "self_harm" not in doctor.findings.present
    assert "Denies suicidal ideation" in _risk(doctor), _risk(doctor)


def test_uw018_played_is_asked_plan_intent_and_means_and_not_charted_as_denying():
    path = "benchmarks/data/patient_exam/unseen/uw-018.json"
    record = run_episode("scripted", EvaluationSpec(suite=path, patient_variant="full", seeds=(13,)), "uw-018", 13)["record"]
    chart = record["chart"]
    asked = [s["action_text"] for s in record["steps"] if s["action_text"].startswith("<ask>")]
    screen = next(i for i, s in enumerate(record["steps"]) if re.search(r"thoughts? of death", s.get("observation") or "", re.I))
    after = " ".join(s["action_text"] for s in record["steps"][screen + 1 : screen + 4]).lower()
    assert re.search(r"end your life|plans?|prepar", after) and re.search(r"act on|intend", after), after
    assert asked  # an interview was played
    risk = next(line for line in chart["note"].splitlines() if line.startswith("Risk assessment:"))
    assert "Reports suicidal ideation" in risk and "Denies suicidal ideation" not in risk, risk
    assert "general observation" not in chart["treatment"] and "continuous observation" in chart["treatment"]
