"""Words of the lexicon that mean something else in a record (issue 13, stop 34; ``recall.json`` ``misread``):
a strip light 'buzzing' is no elation, 'correcting other children' at school no dependants. Found by hand reading
uw-007 at stop 33: asked about voices she said 'I feel on top of the world', and a question about dependants was
answered with her primary school."""

from __future__ import annotations

from mentalhospital_env.cases.loader import load_case
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.recall import FactIndex


def _record(hpi: str, perception: str = "No hallucinations.", personal: str = "One brother."):
    return load_case({
        "case_id": "t-misread", "language": "en",
        "demographics": {"age": 29, "sex": "female", "occupation": "laboratory technician", "marital_status": "single",
                         "living_situation": "lives alone in a rented flat"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Tired and low since a change at work.",
            "history_of_present_illness": hpi,
            "personal_history": personal,
            "mental_status_exam": {"perception": perception, "mood": "'Flat.'"},
        },
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Mild depressive episode", "code": "F32.0"}]},
        "treatment": {"plan": "Review in four weeks."},
        "exams": [],
    })


def _affirmed(case) -> set[str]:
    return {c for f in FactIndex(case).facts for c in f.affirms}


def test_a_buzzing_light_is_no_elation() -> None:
    case = _record("She asked to sit away from the window because the strip light was buzzing. Low mood for months.",
                   perception="Sensitive to sound and light (the strip light buzzing); no hallucinations.")
    assert "elevated_mood" not in _affirmed(case)
    reply = make_patient(case, seed=0).respond("Have you ever heard voices when no one was around?").text
    assert "top of the world" not in reply and "amazing" not in reply, reply


def test_buzzing_said_of_the_patient_is_still_elation() -> None:
    case = _record("Last spring she felt buzzing for a week and hardly slept. Low mood for months.")
    assert "elevated_mood" in _affirmed(case)


def test_other_children_at_school_are_no_dependants() -> None:
    case = _record("Low mood for months.",
                   personal="At primary school she followed the rules to the letter, correcting other children.")
    assert "dependants" not in _affirmed(case)
    reply = make_patient(case, seed=0).respond("Do you have children or anyone who depends on you?").text
    assert "rules" not in reply and "alone" in reply, reply


def test_her_own_children_are_still_dependants() -> None:
    case = _record("Low mood for months.", personal="Two children, aged 4 and 7, who live with her.")
    assert "dependants" in _affirmed(case)


def test_the_onset_said_as_the_change_is_no_menstrual_history() -> None:
    """The generator's onset wording ('She dates the change to a new responsibility at work', 'a little while after
    a move, the change came', insight 'aware of the change') was read as 'the change' of life: a man's record
    affirmed menstrual history, and a question about periods was answered with the onset."""
    case = _record("Three months ago, a little while after a move, the change came. She dates the change to a new "
                   "responsibility at work. Low mood since.")
    assert "menstrual_history" not in _affirmed(case)
    reply = make_patient(case, seed=0).respond("When was your last period?").text
    assert "change" not in reply and "responsibility" not in reply, reply


def test_the_change_of_life_is_still_menstrual_history() -> None:
    case = _record("Low mood for months.", personal="Periods stopped at 51; she went through the change without trouble.")
    assert "menstrual_history" in _affirmed(case)


def test_a_referral_letters_own_request_is_never_said() -> None:
    """uw-007: the GP letter's opening, quoted in the history, was said in the first person: 'I would be grateful
    if you could see my Marsh, 26, who has had low mood ...' (compile.json not_told_cues)."""
    case = _record("GP letter: 'I would be grateful if you could see Jane Doe, 29, who has had low mood since her "
                   "teens and is now off work. Many thanks.' She says her mood dropped after a move at work.")
    patient = make_patient(case, seed=0)
    for question in ("What brings you here today?", "How long have you felt low?",
                     "What was going on in your life when this started?", "Tell me more."):
        reply = patient.respond(question).text
        assert "grateful" not in reply and "Many thanks" not in reply, reply


def _medical_record():
    return load_case({
        "case_id": "t-high", "language": "en",
        "demographics": {"age": 78, "sex": "female", "occupation": "retired cook", "marital_status": "married",
                         "living_situation": "lives with her husband"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Forgetful for a year.",
            "history_of_present_illness": "She lost track of a recipe she had made for forty years. No elation at any time.",
            "medical_history": "High cholesterol. High blood pressure for 20 years, often too high at home.",
            "mental_status_exam": {"mood": "'Fine.'"},
        },
        "diagnosis": {"categories": ["neurocognitive"], "disorders": [{"name": "Mild cognitive impairment", "code": "F06.7"}]},
        "treatment": {"plan": "Memory clinic."},
        "exams": [],
    })


def test_the_words_of_a_symptom_asked_do_not_find_a_sentence_that_shares_them() -> None:
    """hw-028, asked about highs, was answered 'I have high cholesterol. I've had high blood pressure for 20 years'
    (stop 33's blind reader): the words that name elation are answered by elation's facts or its denial."""
    patient = make_patient(_medical_record(), seed=0)
    reply = patient.respond("Have you ever had a spell of feeling really high or hyper?").text
    assert "cholesterol" not in reply and "blood pressure" not in reply, reply
    assert "blood pressure" in make_patient(_medical_record(), seed=0).respond("Have you had high blood pressure?").text


def test_no_suicide_attempts_answers_a_question_about_attempts() -> None:
    """uw-007: 'no plans and no suicide attempts' (no 'previous' before it) was not read as ruling out attempts, so
    'Have you ever tried to end your life?' was answered with the wish to disappear alone (recall.json
    meaning_denied)."""
    case = _record("She has had fleeting wishes to disappear for a while, but no thoughts of wanting to be dead, no "
                   "plans and no suicide attempts. Low mood for months.")
    reply = make_patient(case, seed=0).respond("Have you ever tried to end your life?").text
    assert reply.startswith("No"), reply


def test_no_attempts_to_cut_down_is_no_denial_of_suicide_attempts() -> None:
    case = _record("Drinks six pints a night, no attempts to cut down. Low mood for months.")
    index = FactIndex(case)
    assert "prior_suicide_attempt" not in index.denied_by_meaning
