"""One correction per topic, unless the patient has just said what another names (stop 61, uw-033): Pat said "...
awful dreams. I rolled out of bed once, you know." and her daughter said "Dad slept in the guest room from 2017
because you punched him in your sleep."; her other sleep correction, "you rolled off the bed in October", was then
never said, the sleep being corrected already. Now a second correction on the topic asked is said beside the first
when the patient's own reply names what it corrects; one the reply does not touch still waits (the drinking asked
again is not corrected with the next thing that reads as drink).

A short record written for the test, read through the public API."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s61-corrects",
    "language": "en",
    "demographics": {"age": 69, "sex": "male", "occupation": "retired plumber", "marital_status": "married"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Ray Dunn, 69: bad dreams and falls from bed.",
        "history_of_present_illness": "Vivid dreams for five years. He says he rolled out of bed once. Sleep poor.",
        "substance_use": "Beer, 'a couple at the weekend'.",
        "mental_status_exam": {"mood": "'Fine.'"},
        "risk_assessment": {"suicide": "No thoughts of ending his life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["sleep_wake"], "disorders": [{"name": "REM sleep behaviour disorder", "code": "G47.52"}]},
    "treatment": {"plan": "Sleep clinic."},
    "persona": {"verbosity": "average", "guardedness": 0.1, "insight": "partial", "speech_style": "plain.",
                "informant": "His wife, Val Dunn, in the room throughout; he answers for himself. Corrects him: "
                             "'I moved to the spare room because you kick in your sleep'; 'you rolled out of bed three "
                             "times in May'; 'it's six cans a night, not a couple at the weekend'."},
}
CASE = load_case(RECORD)


def test_what_he_just_said_is_corrected_beside_the_first() -> None:
    patient = make_patient(CASE, "full", seed=13)
    reply = patient.respond("How have you been sleeping?")
    assert reply.speaker == "patient" and "rolled out of bed" in reply.text, reply
    assert "You rolled out of bed three times in May." in reply.added, reply
    assert "spare room" in reply.added, reply


def test_a_correction_his_reply_does_not_touch_waits() -> None:
    patient = make_patient(CASE, "full", seed=13)
    drink = patient.respond("How much alcohol do you drink in a typical week?")
    assert drink.added == "It's six cans a night, not a couple at the weekend.", drink
    assert not patient.respond("Do you drink alcohol at all?").added
