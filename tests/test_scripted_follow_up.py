"""The scripted clinician follows a disclosure up before the screen moves on (a supervisor at stop 29), within the turn
budget, and files what it hears where a supervisor looks for it (``disclosure_follow_up`` of clinician.json)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.agents.scripted import ScriptedClinician
from scripted_encounters import ask as _ask
from scripted_encounters import start


def _doctor(text="Outpatient clinic. A 44-year-old man is here to see you, alone.", budget=40):
    return start(text, budget)


def _essential(doctor):
    keep = doctor.script["reask"]["keep_room_for"]
    return [c for _, c in doctor.plan if c in keep]


def _line(doctor, heading):
    return next(line for line in doctor._note().splitlines() if line.startswith(heading))


def test_a_persecutory_belief_is_explored_and_the_risk_to_its_target_asked_without_losing_the_history():
    """test-v2-0420: 'People are following me.' was followed at once by a question about obsessions."""
    doctor = _doctor()
    essential = _essential(doctor)
    question = _ask(doctor, "Patient: People are following me. They've been listening to my phone.")
    assert doctor.last_concept == "follow:belief" and "who" in question.lower(), question
    question = _ask(doctor, "Patient: The neighbours. Since we argued about the fence I know they've been watching me.")
    assert doctor.last_concept == "follow:belief_action" and "harm" in question, question
    _ask(doctor, "Patient: I've complained to the police twice, and I've told them I'll sort it myself if nothing happens.")
    # every question of the history still to take is still on the plan: a screening question gave way instead
    assert _essential(doctor) == essential
    hpi = _line(doctor, "History of present illness:")
    assert "Since we argued about the fence" in hpi, hpi
    risk = _line(doctor, "Risk assessment:")
    assert "I'll sort it myself" in risk and "risk to others" in risk, risk
    # once an encounter: a second mention is not followed again
    _ask(doctor, "Patient: People are following me, like I said.")
    assert not str(doctor.last_concept).startswith("follow:belief")


def test_panic_is_characterised_and_a_denial_asks_nothing():
    """test-v2-0061: 'The panic comes out of nowhere.' got no follow-up and panic disorder was missed."""
    doctor = _doctor()
    _ask(doctor, "Patient: The panic comes out of nowhere. My heart races so hard I think it'll burst.")
    assert doctor.last_concept == "follow:panic"
    doctor = _doctor()
    _ask(doctor, "Patient: No, I don't get panic attacks.")
    assert not str(doctor.last_concept).startswith("follow:")


def test_a_child_out_all_night_is_a_missing_episode_whose_whereabouts_are_asked_of_the_parent():
    """test-v2-0474: 'I stay out all night, mum doesn't know where I am' from an 11-year-old: nobody asked where or
    with whom, and the risk section left it out, and 'I punched a teacher' with it."""
    doctor = _doctor("Outpatient clinic. An 11-year-old boy is here to see you, accompanied by his mother.")
    question = _ask(doctor, "Mother: He explains: I stay out all night, mum doesn't know where I am.")
    assert doctor.last_concept == "follow:whereabouts" and question.count("Mum,") == 1 and "older" in question, question
    _ask(doctor, "Mother: With older lads from the estate. He came back with a new phone last week.")
    _ask(doctor, "Patient: I punched a teacher.")
    assert doctor.last_concept == "follow:violence"
    risk = _line(doctor, "Risk assessment:")
    assert "Missing episodes" in risk and "older lads" in risk, risk
    assert "I punched a teacher" in risk, risk
    # an adult out all night is no missing child
    doctor = _doctor()
    _ask(doctor, "Patient: I stay out all night sometimes.")
    assert not str(doctor.last_concept).startswith("follow:")
    assert "Missing episodes" not in _line(doctor, "Risk assessment:")


def test_who_depends_on_them_is_asked_again_when_the_no_speaks_of_something_else():
    """test-v2-0061: 'Do you have children or anyone who depends on you?' -> 'No, I'm not seeing anyone.', from a
    full-time carer for a parent after a stroke, admitted from the emergency department."""
    doctor = _doctor("Emergency department. A 23-year-old man is here to see you, alone.")
    doctor.last_question, doctor.last_concept = doctor._question("dependants"), "dependants"
    again = _ask(doctor, "Patient: No, I'm not seeing anyone.")
    assert doctor.last_concept == "dependants" and "look after" in again, again
    assert "dependants" not in doctor.findings.denied
    for reply in ("Patient: No.", "Patient: No, nobody relies on me.", "Patient: I look after my dad since his stroke."):
        doctor = _doctor("Emergency department. A 23-year-old man is here to see you, alone.")
        doctor.last_question, doctor.last_concept = doctor._question("dependants"), "dependants"
        _ask(doctor, reply)
        assert doctor.last_concept != "dependants", reply


def test_the_thought_content_leaves_out_behaviour_and_bodily_signs():
    """test-v2-0474 and 0348: 'Thought content: physical aggression', 'Thought content: palpitations; ...'."""
    doctor = _doctor()
    doctor.last_question, doctor.last_concept = doctor._question("excessive_worry"), "excessive_worry"
    _ask(doctor, "Patient: I worry all the time. My heart pounds and I feel dizzy and short of breath.")
    mse = _line(doctor, "Mental status examination:")
    assert "worry" in mse and not re.search(r"palpitations|dizziness|shortness of breath", mse), mse


@given(st.text(max_size=120))
@settings(max_examples=40, deadline=None)
def test_follow_ups_never_raise_and_never_outgrow_the_turn_budget(reply):
    doctor = _doctor(budget=40)
    for _ in range(45):
        action = doctor.act({"text": f"Patient: {reply} People are following me. The panic comes out of nowhere."},
                            {"allowed_actions": ["ask", "order_exams"]})
        if not action.startswith("<ask>"):
            break
    assert doctor.turns <= 40 - doctor.script["interview_reserve_turns"] + 1


def test_a_past_overdose_is_no_medicine_and_no_plan_and_an_inhaler_no_means():
    """test-v2-0051 and 0078: 'I've taken tablets before' filed under the medications and as a plan; 'I've got an
    inhaler' quoted as access to means."""
    doctor = _doctor("Outpatient clinic. A 40-year-old woman is here to see you, alone.")
    _ask(doctor, "Patient: Some nights I wish I wouldn't wake up.")
    assert doctor.last_concept == "risk:plan"
    _ask(doctor, "Patient: I've taken tablets before.")
    while doctor.last_concept != "risk:means":
        _ask(doctor, "Patient: I don't know.")
    _ask(doctor, "Patient: I've got an inhaler.")
    doctor.last_question, doctor.last_concept = doctor._question("medications_current"), "medications_current"
    _ask(doctor, "Patient: I've taken tablets before. I take sertraline 50 mg.")
    note = doctor._note()
    meds = next((line for line in note.splitlines() if line.startswith("Medications:")), "")
    assert "sertraline" in meds and "before" not in meds, meds
    risk = _line(doctor, "Risk assessment:")
    assert "Plan or preparations: \"I've taken tablets before" not in risk, risk
    assert "Overdose" in risk and "inhaler" not in risk, risk


def test_trauma_questions_wait_for_a_trauma():
    """test-v2-0474: four questions about 'what happened' put to a boy who described no event."""
    doctor = _doctor()
    gate = set(doctor.script["hypothesis_gates"]["rules"][0]["concepts"])
    for concept in ("emotional_numbing", "irritability", "trauma_related_guilt"):
        doctor.findings.present[concept] = "Patient: I feel nothing and I snap, and it's my fault."
    assert doctor._ranked()[0][0].code.startswith("F43.1")  # PTSD leads
    wanted = doctor._hypothesis_concepts()
    assert wanted[0] == "trauma_history" and not set(wanted) & gate, wanted
    doctor.findings.present["trauma_history"] = "Patient: I was in a crash last year."
    assert {"intrusive_memories", "trauma_avoidance"} <= set(doctor._hypothesis_concepts())


def test_follow_ups_take_no_question_of_the_history_within_the_turn_budget():
    """test-v2-0015 at this stop's first try: the follow-ups of voices, highs and a persecutor pushed 'Who do you live
    with?' and the dependants out of the budget (screening questions past the budget had been given way)."""
    keep = set(ScriptedClinician().script["reask"]["keep_room_for"])

    def asked(first):
        doctor = _doctor(budget=40)
        reply = first
        for _ in range(45):
            action = doctor.act({"text": reply}, {"allowed_actions": ["ask", "order_exams"]})
            if not action.startswith("<ask>"):
                break
            reply = "Patient: Hard to say."
        return doctor.findings.asked & keep, doctor

    plain, _ = asked("Patient: Hard to say.")
    told, doctor = asked("Patient: People are following me. The panic comes out of nowhere. I hear voices. I punched my brother.")
    assert doctor.followed >= {"persecution", "panic", "voices", "violence"}, doctor.followed
    assert plain and plain <= told, (plain - told)
