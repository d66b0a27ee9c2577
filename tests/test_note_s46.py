"""Stop 46: the scripted clinician's note says what the encounter said (issue 15, note precision).

Consultants' reasons for the scripted clinician's rated notes (benchmarks/data/judge_agreement/ratings.jsonl)
repeatedly marked three faults of how the note is written, whatever the case: a history question asked and
answered "None." or "Not that I know of." left out of the note as if never asked (the drug-allergy answer above
all); a passive wish to be dead ("I'd be better off dead", "easier not to wake up") headlined as "suicidal
ideation"; and a rating scale or a flagged value on file never read in the assessment (an MMSE of 14, a PHQ-9 of
14)."""

from __future__ import annotations

import pytest

from mentalhospital_env.agents.scripted import ScriptedClinician


def _doctor() -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": "Outpatient clinic. A 40-year-old woman is here to see you, alone."}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})  # the opening question
    return doctor


def _answer(doctor: ScriptedClinician, concept: str, reply: str) -> None:
    question = doctor._question(concept) if ":" not in concept else "Have you thought about how you might end your life?"
    doctor.last_question, doctor.last_concept = question, concept
    doctor.act({"text": "Patient: " + reply}, {"allowed_actions": ["ask"]})


def _line(doctor: ScriptedClinician, heading: str) -> str:
    return next((line for line in doctor._note().splitlines() if line.startswith(heading)), "")


@pytest.mark.parametrize("reply", ["None.", "Not that I know of.", "No, none."])
def test_an_allergy_question_answered_with_a_denial_is_recorded_as_none(reply):
    doctor = _doctor()
    _answer(doctor, "allergies", reply)
    line = _line(doctor, "Allergies:")
    assert "none reported" in line.lower(), doctor._note()  # "Allergies: None reported" (no doubled label, S4)


def test_an_allergy_question_never_asked_or_not_denied_is_not_written_none():
    doctor = _doctor()
    assert "none reported" not in doctor._note()
    _answer(doctor, "allergies", "I'm not sure, I'd have to check.")  # not knowing is no denial
    assert "none reported" not in _line(doctor, "Allergies:"), doctor._note()


@pytest.mark.parametrize("reply", [
    "I think I'd be better off dead.",
    "Sometimes I think it'd be easier not to wake up, but I wouldn't do anything.",
    "Sometimes I wish I didn't exist.",
])
def test_a_passive_wish_to_be_dead_is_charted_as_a_passive_death_wish(reply):
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", reply)
    # passive is read from a plan question asked and denied (review M1), never from the absence of act words
    _answer(doctor, "risk:plan", "No, I haven't got a plan.")
    risk = _line(doctor, "Risk assessment:")
    assert "Reports a passive death wish" in risk and "suicidal ideation" not in risk, risk
    assert "Thought content: a passive death wish" in _line(doctor, "Mental status examination:")


@pytest.mark.parametrize("reply", [
    "I've thought about ending my life.",
    "I think about killing myself most days.",
])
def test_thoughts_of_taking_ones_life_stay_suicidal_ideation(reply):
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", reply)
    assert "Reports suicidal ideation" in _line(doctor, "Risk assessment:"), doctor._note()


def test_a_method_told_in_another_answer_makes_a_death_wish_active():
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "I think I'd be better off dead.")
    _answer(doctor, "risk:plan", "Most days I think about it. I know how, but I haven't got a plan.")
    assert "Reports suicidal ideation" in _line(doctor, "Risk assessment:"), doctor._note()


def test_a_denied_plan_does_not_make_a_death_wish_active():
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "I think I'd be better off dead.")
    _answer(doctor, "risk:plan", "No. I don't have a plan to end it.")
    assert "Reports a passive death wish" in _line(doctor, "Risk assessment:"), doctor._note()


def test_a_scale_in_an_abnormal_band_is_named_in_the_assessment_and_a_normal_one_is_not():
    doctor = _doctor()
    _answer(doctor, "anhedonia", "I've lost interest in everything I used to enjoy.")
    doctor.findings.exam_results += [("PHQ-9", "total 22/27 (severe)"), ("AUDIT", "total 2/40 (low risk)"),
                                     ("TSH", "2 mIU/L (within reference range 0.4-4)")]
    assessment = _line(doctor, "Assessment:")
    assert "PHQ-9 total 22/27 (severe)" in assessment, assessment
    assert "AUDIT" not in assessment and "TSH" not in assessment, assessment


def test_preparations_told_make_a_death_wish_words_suicidal_ideation():
    # hw-015's shape: "It would be better for her if I went" beside being found holding a rope three days ago
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "It would be better for her if I went. Three days ago my wife found me in the garage holding a length of tow rope.")
    risk = _line(doctor, "Risk assessment:")
    assert "Reports suicidal ideation" in risk and "passive" not in risk, risk


# --- stop 46 review (s46-mendc): M1/S1 passive only over a denied plan, M2/S4 "none reported" only over a denial ---

def _risk_and_plan(doctor: ScriptedClinician) -> tuple[str, set[str]]:
    return _line(doctor, "Risk assessment:"), set(doctor.profile().risks)


@pytest.mark.parametrize("answers", [
    [("suicidal_ideation", "I'd be better off dead."), ("risk:plan", "I'd use the rope in the shed.")],
    [("suicidal_ideation", "I'd be better off dead."), ("risk:plan", "I've written letters to the kids.")],
    [("suicidal_ideation", "I wish I could go to sleep and never wake up. I went up to the bridge last week.")],
    [("suicidal_ideation", "I'd be better off dead."), ("risk:plan", "No. I'd use the rope in the shed.")],
])
def test_a_told_plan_or_preparation_is_never_written_a_passive_death_wish(answers):
    doctor = _doctor()
    for concept, reply in answers:
        _answer(doctor, concept, reply)
    risk, risks = _risk_and_plan(doctor)
    assert "Reports suicidal ideation" in risk and "passive" not in doctor._note(), doctor._note()
    assert "active_suicide" in risks, risks  # the plan reads the same risk as the note (S1)


def test_a_death_wish_with_the_plan_never_asked_is_not_written_passive():
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "I'd be better off dead.")
    risk, risks = _risk_and_plan(doctor)
    assert "passive" not in risk and "active_suicide" in risks, (risk, risks)


@pytest.mark.parametrize("reply", ["I'd be better off dead.", "Sometimes I wish I didn't exist."])
def test_note_and_plan_read_a_denied_plan_death_wish_alike(reply):
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", reply)
    _answer(doctor, "risk:plan", "No. I don't have a plan to end it.")
    risk, risks = _risk_and_plan(doctor)
    assert "Reports a passive death wish" in risk, risk
    assert "active_suicide" not in risks and "suicide" in risks, risks


@pytest.mark.parametrize("concept, reply, heading", [
    ("legal_problems", "No. I did six months inside for assault, but that was years ago.", "Personal history:"),
    ("prior_hospitalisation", "No. Well, I was in the Priory for a month last year.", "Past psychiatric history:"),
    ("legal_problems", "No. Well, a caution for shoplifting when I was 16.", "Personal history:"),
    ("allergies", "Nobody's ever asked me that.", "Allergies:"),
    ("allergies", "Never been tested.", "Allergies:"),
])
def test_none_reported_is_not_written_over_a_history_told_or_a_non_denial(concept, reply, heading):
    doctor = _doctor()
    _answer(doctor, concept, reply)
    assert "none reported" not in doctor._note().lower(), _line(doctor, heading)


def test_a_bare_denial_over_several_sentences_is_still_none_reported_without_a_doubled_heading():
    doctor = _doctor()
    _answer(doctor, "allergies", "No. None at all.")
    line = _line(doctor, "Allergies:")
    assert "none reported" in line.lower() and "Drug allergies" not in line, line


@pytest.mark.parametrize("plan, passive", [
    ("I have no plan and no intention of doing anything.", True),  # hw-001's answer: the plan named and negated
    ("No plan, but I've saved up my tablets.", False),  # a preparation told in a clause the opening "No" does not deny
])
def test_a_plan_answer_is_read_clause_by_clause(plan, passive):
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "I've had fleeting thoughts that my family would be better off without me.")
    _answer(doctor, "risk:plan", plan)
    risk, risks = _risk_and_plan(doctor)
    assert ("Reports a passive death wish" in risk) is passive and ("active_suicide" in risks) is not passive, (risk, risks)


def test_an_act_word_in_a_reply_not_about_the_risk_does_not_make_a_death_wish_active():
    # hw-006's shape: "I'm jumpy" (a startle answer) carries "jump", one of the act words, but is no reply about the risk
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "I think I'd be better off dead.")
    _answer(doctor, "risk:plan", "No. I don't have a plan to end it.")
    _answer(doctor, "anhedonia", "I'm jumpy.")
    risk, risks = _risk_and_plan(doctor)
    assert "Reports a passive death wish" in risk and "active_suicide" not in risks, (risk, risks)
