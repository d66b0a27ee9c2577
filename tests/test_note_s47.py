"""Stop 47: every sentence said is filed under the section its content belongs to (issue 15, note completeness).

The consultants' largest reasons for marking the scripted clinician's notes down (benchmarks/data/judge_agreement/
ratings.jsonl) were elicited positive findings left out of the note (a follow-up answer's off-subject sentence
dropped: the heroin amount told when asked what happens without it) and quotes misfiled (an informant's own history
in the first person read as the child's). One mechanism answers both: each sentence the note neither quotes nor
retells is filed by its own topic, with its speaker. Then two readings made from data: a risk item answered in
another item's reply, and results read by the catalog's bands (vital signs against their ranges)."""

from __future__ import annotations

from mentalhospital_env.agents.scripted import ScriptedClinician


def _doctor(walk_in: str = "Outpatient clinic. A 40-year-old man is here to see you, alone.") -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": 40})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})  # the opening question
    return doctor


def _answer(doctor: ScriptedClinician, concept: str, reply: str, question: str | None = None, speaker: str = "Patient") -> None:
    if question is None:
        question = doctor._question(concept) if ":" not in concept else "Could you tell me more about that?"
    doctor.last_question, doctor.last_concept = question, concept
    doctor.act({"text": f"{speaker}: {reply}"}, {"allowed_actions": ["ask"]})


def _line(doctor: ScriptedClinician, heading: str) -> str:
    return next((line for line in doctor._note().splitlines() if line.startswith(heading)), "")


def test_an_off_subject_sentence_of_a_follow_up_answer_is_filed_by_its_topic():
    doctor = _doctor()
    _answer(doctor, "drug_use", "I use heroin.")
    # asked what happens without it; the amount is told in the same reply: not the question's subject, still said
    _answer(doctor, "follow:use_without", "I sleep all right. I'm using heroin every day, about half a gram.",
            question="What happens if you go without?")
    note = doctor._note()
    assert "half a gram" in note, note


def test_a_sentence_already_quoted_is_not_filed_again():
    doctor = _doctor()
    _answer(doctor, "alcohol_use", "I drink a bottle of wine a night.")
    note = doctor._note()
    assert note.count("bottle of wine a night") == 1, note


def test_an_informants_own_history_is_theirs_not_the_childs():
    doctor = _doctor("Outpatient clinic. A 8-year-old girl is here to see you, accompanied by her mother.")
    _answer(doctor, "family_psychiatric_history", "I had panic attacks in my twenties, treated with CBT.", speaker="Mother")
    assert "panic_attacks" not in doctor.findings.present  # the mother's panic attacks are no finding of the child's
    note = doctor._note()
    assert "Her mother, of her own history" in _line(doctor, "Family history:"), note
    assert "panic attacks" not in _line(doctor, "History of present illness:"), note


def test_an_informant_speaking_of_the_child_in_the_first_person_is_still_read_as_the_childs():
    doctor = _doctor("Outpatient clinic. A 8-year-old girl is here to see you, accompanied by her mother.")
    assert doctor._informant_own("I had panic attacks in my twenties.")
    assert not doctor._informant_own("I noticed she stopped eating after Christmas.")


def test_intent_answered_in_the_plan_reply_is_not_written_unanswered():
    doctor = _doctor()
    _answer(doctor, "suicidal_ideation", "I've had fleeting thoughts that my family would be better off without me.")
    doctor.risk_followed = True
    _answer(doctor, "risk:plan", "I have no plan and no intention of doing anything.")
    _answer(doctor, "risk:intent", "No problems there, really.")  # the reply that answers nothing of intent
    _answer(doctor, "risk:means", "No problems there, really.")
    risk = _line(doctor, "Risk assessment:")
    # found only for intent: the plan's sentence answers no question of means
    assert "Access to means: asked, no direct answer" in risk, risk
    intent = risk.split("Intent:")[1].split(".")[0] if "Intent:" in risk else ""
    assert "no direct answer" not in intent and "intention" in intent, risk


def test_a_c_ssrs_naming_no_method_is_no_method_on_file():
    doctor = _doctor()
    doctor.findings.exam_results += [("C-SSRS", "screen: wish to be dead endorsed; no method, intent or plan; highest item 1/6")]
    assert doctor._risk_results() == []
    doctor.findings.exam_results = [("C-SSRS", "screen: method considered (hanging); highest item 3/6 (high risk)")]
    assert doctor._risk_results()


def test_a_pulse_of_44_is_read_low_and_weighed_and_a_normal_one_is_not():
    doctor = _doctor()
    doctor.findings.exam_results += [("Vital signs", "pulse 44/min, BP 86/54 mmHg, temperature 35.6 C")]
    note = doctor._note()
    assert "pulse low at 44/min" in _line(doctor, "Investigations:"), note
    assert "pulse low at 44/min" in _line(doctor, "Assessment:"), note
    doctor.findings.exam_results = [("Vital signs", "pulse 76/min, BP 122/78 mmHg, temperature 36.8 C")]
    assert "low at" not in doctor._note() and "high at" not in doctor._note()


def test_a_scale_is_read_by_the_catalogs_bands():
    doctor = _doctor()
    assert doctor._band_reading("PHQ-9", "total 22/27 (severe)") is True
    assert doctor._band_reading("PHQ-9", "total 3/27 (minimal)") is False
    assert doctor._band_reading("AUDIT", "total 2/40 (low risk)") is False
    assert doctor._band_reading("TSH", "2 mIU/L (within reference range 0.4-4)") is None  # a lab: its flag words


def test_a_sentence_said_twice_is_filed_once_and_this_episodes_admission_is_no_past_history():
    doctor = _doctor()
    _answer(doctor, "alcohol_use", "I don't drink.")
    for question in ("How have you been sleeping?", "How is your energy?"):
        _answer(doctor, "sleep", "Honestly I'm using heroin every day, about half a gram.", question=question)
    _answer(doctor, "hpi:3", "I was admitted to the ward yesterday after the crisis team visits stopped working.",
            question="How is this affecting your day-to-day life?")
    note = doctor._note()
    assert note.count("half a gram") == 1, note
    assert "admitted" not in _line(doctor, "Past psychiatric history:"), note
