"""Stop 47 mender: the note filer's faults its own branch saw on its held-out half (s47-clin, section 6).

Each sentence the note neither quotes nor retells is filed under the section its content belongs to
(ScriptedClinician._filed_clauses). Left open there: a denial filed as a finding, a sentence said again with a hedge
filed twice, sentences cut at an abbreviation's full stop, a passive death wish written suicidal ideation when the plan
was denied before it was asked, and a low-risk screen named in the assessment as an abnormal result."""

from __future__ import annotations

from mentalhospital_env.agents.scripted import ScriptedClinician


def _doctor(walk_in: str = "Outpatient clinic. A 34-year-old woman is here to see you, alone.") -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})  # the opening question
    return doctor


def _answer(doctor: ScriptedClinician, concept: str, reply: str, question: str | None = None) -> None:
    if question is None:
        question = doctor._question(concept) if ":" not in concept else "Could you tell me more about that?"
    doctor.last_question, doctor.last_concept = question, concept
    doctor.act({"text": f"Patient: {reply}"}, {"allowed_actions": ["ask"]})


def _line(doctor: ScriptedClinician, heading: str) -> str:
    return next((line for line in doctor._note().splitlines() if line.startswith(heading)), "")


def test_a_denial_is_not_filed_as_a_finding():
    doctor = _doctor()
    _answer(doctor, "living_situation", "I live in a shared flat near the station.")
    _answer(doctor, "hpi:3", "I get by. No, there was no drug use according to me and my flatmates.",
            question="How is this affecting your day-to-day life?")
    assert "flatmates" not in _line(doctor, "Personal history:"), doctor._note()  # no finding of living situation


def test_a_clause_affirmed_beside_an_opening_no_is_still_filed():
    doctor = _doctor()
    _answer(doctor, "hpi:3", "No, I rent a flat with two housemates and I drink every single day.",
            question="Has anything like this happened before?")
    assert "drink every single day" in doctor._note()


def test_a_sentence_said_again_with_a_hedge_is_filed_once():
    doctor = _doctor()
    _answer(doctor, "hpi:3", "I know I am destined for greatness.", question="How is this affecting your day-to-day life?")
    _answer(doctor, "hpi:2", "I know I am destined for greatness, if that makes sense.",
            question="Was anything going on in your life around the time it started?")
    note = doctor._note()
    assert note.count("destined for greatness") == 1, note


def test_a_sentence_is_not_cut_at_an_abbreviations_full_stop():
    doctor = _doctor()
    _answer(doctor, "hpi:3", "I wake at 4 a.m. and lie there worrying about money.",
            question="How is this affecting your day-to-day life?")
    note = doctor._note()
    assert "a.m" not in note or "a.m. and lie there" in note, note


def test_a_plan_denied_before_it_was_asked_makes_the_death_wish_passive():
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "I've had passing thoughts of wanting to die. It should have been me, without any plan.")
    doctor.risk_followed = True
    _answer(doctor, "risk:intent", "I don't have a plan to end it.")
    _answer(doctor, "risk:attempts", "I've never tried to end my life.")
    risk = _line(doctor, "Risk assessment:")
    assert "passive death wish" in risk and "suicidal ideation" not in risk, risk


def test_a_low_risk_screen_is_not_weighed_as_an_abnormal_result():
    doctor = _doctor()
    assert doctor._band_reading("C-SSRS", "screen 1/6 (low risk)") is False
    assert doctor._band_reading("C-SSRS", "screen 5/6 (high risk)") is True
    doctor.findings.exam_results += [("PHQ-9", "total 19/27 (moderately severe)"),
                                     ("C-SSRS", "passive wish to be dead; screen 1/6 (low risk)")]
    assessment = _line(doctor, "Assessment:")
    assert "PHQ-9" in assessment and "C-SSRS" not in assessment, assessment


def test_a_denied_history_finding_is_written_as_its_headings_pertinent_negative():
    doctor = _doctor()
    _answer(doctor, "living_situation", "I live in a shared flat near the station.")
    _answer(doctor, "alcohol_use", "I drink about six units a week.")
    _answer(doctor, "hpi:3", "I get by. No, there was no drug use according to me and my flatmates.",
            question="How is this affecting your day-to-day life?")
    substance = _line(doctor, "Substance use:")
    assert "Denies illicit drug use" in substance and "according to me and my flatmates" in substance, doctor._note()
    assert "flatmates" not in _line(doctor, "Personal history:")
