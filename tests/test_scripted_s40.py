"""Stop 40's supervisor reading of the scripted clinician on fresh narrative records (issue 15, part 5): psychotic
cues are followed with the psychosis questions, a drug told gets its own questions and a place in the plan, a
"psychotic depression" needs a depressive episode to lead, and ECT is proposed only where a reference would."""

from __future__ import annotations

import re

from scripted_encounters import PSYCHOTIC_DEPRESSION, start
from scripted_encounters import ask as _ask


def _doctor(text="Outpatient clinic. A 22-year-old man is here to see you, accompanied by his mother.", budget=40):
    return start(text, budget)


def _plan_of(doctor):
    return doctor._plan()


def test_being_watched_through_a_device_is_followed_as_a_persecutory_cue():
    """'I think they have eyes on me through the smoke alarm' was let pass (uw-013); the note asserts no delusion."""
    doctor = _doctor()
    question = _ask(doctor, "Patient: I think they have eyes on me through the smoke alarm in my room.")
    assert doctor.last_concept == "follow:belief", question
    assert "persecutory_delusions" in doctor.findings.inferred
    assert "persecutory_delusions" not in doctor.findings.present  # ranking only: the note quotes, never asserts
    # people merely looking is a social anxiety's words, no persecutory cue
    doctor = _doctor()
    _ask(doctor, "Patient: I feel people look at me in the canteen.")
    assert "persecutory_delusions" not in doctor.findings.inferred
    assert doctor.last_concept != "follow:belief"


def test_voices_are_followed_by_persecution_and_drug_questions():
    doctor = _doctor()
    _ask(doctor, "Patient: I hear voices.")
    assert doctor.last_concept == "follow:voices"
    asked = [doctor.last_concept]
    for _ in range(3):
        _ask(doctor, "Patient: I'd rather not say.")
        asked.append(doctor.last_concept)
    assert "follow:psychosis_persecution" in asked and "drug_use" in asked, asked


def test_a_drug_told_gets_its_own_questions_and_names_its_dependence():
    doctor = _doctor()
    question = _ask(doctor, "Patient: I smoke skunk, cannabis, every day.")
    assert doctor.last_concept == "follow:use_amount" and "cannabis" in question, question
    question = _ask(doctor, "Patient: About two grams a day, since last year. More than I used to.")
    assert doctor.last_concept == "follow:use_without" and "cannabis" in question, question
    _ask(doctor, "Patient: I tried to stop in July and couldn't sleep at all, so I started again.")
    assert "F12.20" in doctor._drug_dependence_told()
    # the harms (debts, driving) are asked where the turn budget leaves room for a third question
    roomy = _doctor(budget=60)
    _ask(roomy, "Patient: I smoke skunk, cannabis, every day.")
    _ask(roomy, "Patient: About two grams a day.")
    question = _ask(roomy, "Patient: I get irritable.")
    assert roomy.last_concept == "follow:use_harms" and re.search(r"debt|driv", question), question
    # a past use, or a word the reader takes for a drug ("jointly"), asks nothing
    for reply in ["Patient: I had occasional cannabis in my twenties, none since.",
                  "Patient: Until this year the couple managed money jointly."]:
        doctor = _doctor()
        _ask(doctor, reply)
        assert not str(doctor.last_concept).startswith("follow:use"), reply
    # a child is asked none of it
    child = _doctor("Outpatient clinic. A 9-year-old boy is here to see you, accompanied by his mother.")
    _ask(child, "Mother: His cousin gave him cannabis once.")
    assert not str(child.last_concept).startswith("follow:use")


def _psychosis_with_flatness(doctor):
    _ask(doctor, "Patient: I hear voices.")
    _ask(doctor, "Patient: My housemates, talking about me through the walls.")
    _ask(doctor, "Patient: I think they have eyes on me through the smoke alarm in my room.")
    _ask(doctor, "Patient: My mood has been flat, I feel low.")


def test_voices_and_a_persecutor_beside_flatness_lead_as_a_psychosis_not_a_psychotic_depression():
    """uw-013: two groups of a depressive episode beside voices and a persecutor were called F32.3 with ECT."""
    doctor = _doctor()
    _psychosis_with_flatness(doctor)
    lead = doctor._leading()
    assert lead[0][0].category == "schizophrenia_spectrum", [(h.code, s) for h, s in lead]
    plan = _plan_of(doctor)
    assert "early intervention in psychosis" in plan, plan
    assert not re.search(r"electroconvulsive|\bECT\b", plan), plan
    assert "sertraline" not in plan.lower(), plan


def test_a_full_depressive_episode_with_voices_stays_a_psychotic_depression():
    doctor = _doctor("Outpatient clinic. A 58-year-old woman is here to see you, alone.")
    for reply in PSYCHOTIC_DEPRESSION:
        _ask(doctor, reply)
    assert doctor._mood_groups_heard("F32") >= 4
    lead = doctor._leading()
    assert lead[0][0].category == "depressive", [(h.code, s) for h, s in lead]


def test_a_nihilistic_delusion_keeps_a_psychotic_depression_on_few_groups_heard():
    """hw-015: 'my insides are rotting', hopeless, waking at three, better off gone: three groups heard, and a
    mood-congruent delusion; it stays a depression with psychotic features, never a delusional disorder."""
    doctor = _doctor("Outpatient clinic. A 70-year-old man is here to see you, accompanied by his wife.")
    for reply in [
        "Patient: I've been refusing food for a week. And I'm convinced my insides are rotting. It's too late.",
        "Patient: I feel low and hopeless.",
        "Patient: I wake at 3 a.m. and pace the hallway.",
        "Patient: It would be better for her if I went.",
    ]:
        _ask(doctor, reply)
    # fewer groups than an episode needs (four since stop 41 counts hopelessness as ICD-10's bleak views of the future)
    assert doctor._mood_groups_heard("F32") < doctor.script["episode_threshold"]["F32"]["min"]
    assert doctor._leading()[0][0].category == "depressive", [(h.code, s) for h, s in doctor._leading()]


def test_a_method_told_beside_a_denial_is_followed_with_intent_and_means():
    """uw-003: "I'm ashamed and don't want to die today. The idea of hanging had been in the back of my head a few
    weeks and I looked at the beam in the garage more than once." was read as a denial; no means was asked."""
    doctor = _doctor("Emergency department. A 54-year-old man is here to see you, alone.")
    _ask(doctor, "Patient: I'm ashamed and don't want to die today. The idea of hanging had been in the back of my "
                 "head a few weeks and that I looked at the beam in the garage more than once.")
    assert doctor.risk_followed and doctor.last_concept.startswith("risk:"), doctor.last_concept
    assert "suicidal_ideation" not in doctor.findings.denied
    asked = [doctor.last_concept]
    for _ in range(4):
        _ask(doctor, "Patient: I'm not sure.")
        asked.append(doctor.last_concept)
    assert "risk:means" in asked, asked
    risk = next(line for line in doctor._note().splitlines() if line.startswith("Risk assessment:"))
    assert "beam in the garage" in risk and "Denies suicidal ideation" not in risk, risk
    # a denial with no method told sets nothing off
    doctor = _doctor("Emergency department. A 54-year-old man is here to see you, alone.")
    _ask(doctor, "Patient: No, I've never thought of ending my life.")
    assert not doctor.risk_followed
