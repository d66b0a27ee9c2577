"""The person in the room says her own worries when a question reaches them (stop 61, uw-033): Pat's daughter
Kristen, whose persona "wants to know what the illness is, what to expect and whether her mother can stay alone at
night", sat through "What kinds of things have been on your mind or worrying you?" and said nothing of her own. Now,
where the persona gives the person present worries, a question on worries (or "anything else?") has them say those
worries once, in their own voice, after the patient's reply; put to them, they are their reply.

A short record written for the test, read through the public API."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s61-worries",
    "language": "en",
    "demographics": {"age": 81, "sex": "male", "occupation": "retired postman", "marital_status": "widowed"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Ted Moss, 81: forgetful for two years.",
        "history_of_present_illness": "Forgetful for two years; repeats questions; worries about his pension.",
        "mental_status_exam": {"mood": "'Fine.'"},
        "risk_assessment": {"suicide": "No thoughts of ending his life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["neurocognitive"], "disorders": [{"name": "Mild cognitive impairment", "code": "F06.7"}]},
    "treatment": {"plan": "Memory clinic."},
    "persona": {"verbosity": "average", "guardedness": 0.1, "insight": "partial", "speech_style": "plain.",
                "informant": "His son, Neil Moss, in the room throughout; he answers when asked. Tired; wants to know "
                             "whether his father can still manage the stairs and who will check on him at night."},
}
CASE = load_case(RECORD)
HIS = "I want to know whether he can still manage the stairs and who will check on him at night."


def test_asked_what_worries_the_patient_the_son_adds_his_own_once() -> None:
    patient = make_patient(CASE, "full", seed=13)
    reply = patient.respond("I can see this has been worrying. What kinds of things have been on your mind or worrying you?")
    assert reply.speaker == "patient" and HIS not in reply.text, reply
    assert reply.added == HIS, reply
    assert not patient.respond("Is there anything else you think I should know?").added


def test_put_to_him_they_are_his_reply() -> None:
    reply = make_patient(CASE, "full", seed=13).respond("A question for his son: is there anything you are worried about?")
    assert reply.speaker == "informant" and reply.text == HIS, reply


def test_a_preface_that_says_worrying_is_no_question_on_worries() -> None:
    reply = make_patient(CASE, "full", seed=13).respond("That must have been worrying to see. How has your mood been?")
    assert not reply.added, reply


def test_no_worries_where_the_persona_gives_none() -> None:
    plain = load_case(dict(RECORD, case_id="s61-no-worries", persona=dict(
        RECORD["persona"], informant="His son, Neil Moss, in the room throughout; he answers when asked.")))
    reply = make_patient(plain, "full", seed=13).respond("What kinds of things have been worrying you?")
    assert not reply.added, reply


def test_asked_about_his_father_s_worries_he_says_those_and_then_his_own() -> None:
    reply = make_patient(CASE, "full", seed=13).respond("A question for his son: what has been worrying him?")
    assert reply.speaker == "informant" and reply.text.endswith(HIS) and reply.text != HIS, reply


def test_one_not_in_the_room_for_the_whole_visit_keeps_them() -> None:
    for away in ("joins for the second half", "seen alone first, then he joins", "by telephone",
                 "present for the first part of the appointment"):
        later = load_case(dict(RECORD, case_id="s61-worries-away", persona=dict(
            RECORD["persona"], informant=f"His son, Neil Moss, {away}. Wants to know whether his father can still "
                                         "manage the stairs.")))
        reply = make_patient(later, "full", seed=13).respond("What kinds of things have been worrying you?")
        assert not reply.added, (away, reply)
