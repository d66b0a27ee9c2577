"""Who is in the room is a state of the encounter (stop 62, uw-035: the doctor could not ask Oscar's mother to step
out, though the chart's plan was to see him alone for part of the visit). The doctor asks the person present out and
back in, in natural words; they answer that turn briefly in their own voice, the patient says nothing; while out they
answer nothing, correct nothing and voice no worries; back in, they take part again; the chart turn says the patient
was seen alone. A short record written for the test, read through the public API."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s62-room",
    "language": "en",
    "demographics": {"age": 15, "sex": "female", "occupation": "student", "marital_status": "single"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mia Cole, 15: not eating.",
        "history_of_present_illness": "She has been skipping lunch since September. She runs every morning. "
                                      "She showers for ten minutes.",
        "past_psychiatric_history": "None.",
        "mental_status_exam": {"mood": "'Fine.'"},
        "risk_assessment": {"suicide": "No thoughts of ending her life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["feeding_eating"],
                  "disorders": [{"name": "Anorexia nervosa, restricting type", "code": "F50.01"}]},
    "treatment": {"plan": "Family-based treatment."},
    "persona": {"verbosity": "average", "guardedness": 0.2, "insight": "partial", "speech_style": "plain, brief.",
                "informant": "Her mother, Kate Cole, in the room throughout; Mia answers for herself. Corrects her: "
                             "'it's an hour in the shower, not ten minutes'. Is worried that she will faint at "
                             "school."},
}
CASE = load_case(RECORD)


@pytest.mark.parametrize("out", [
    "Kate, would you mind waiting outside for a few minutes? I'd like to talk with Mia on her own.",
    "Could I see Mia on their own for a bit?",
    "Can we have a few minutes alone?",
])
def test_the_person_present_steps_out_when_asked_and_says_so_briefly(out: str) -> None:
    patient = make_patient(CASE, "full", seed=13)
    assert not patient.seen_alone
    reply = patient.respond(out)
    assert reply.speaker == "informant" and len(reply.text.split()) <= 8, reply
    assert patient.seen_alone


def test_while_out_they_correct_nothing_and_voice_no_worries_and_back_in_they_do() -> None:
    patient = make_patient(CASE, "full", seed=13)
    patient.respond("Can we have a few minutes alone?")
    shower = patient.respond("How long do you spend in the shower?")
    assert shower.speaker == "patient" and not shower.added, shower
    worries = patient.respond("Is there anything you are worried about?")
    assert "faint" not in worries.text and "faint" not in worries.added, worries
    asked = patient.respond("When did the skipping lunch start? What did your mum make of it?")
    assert asked.speaker == "patient", asked
    back = patient.respond("Thank you for waiting, Kate, please come back in.")
    assert back.speaker == "informant" and not patient.seen_alone, back
    again = patient.respond("Anything else you are worried about?")
    assert "faint" in again.added or "faint" in again.text, again


def test_an_ordinary_question_about_going_out_alone_moves_nobody() -> None:
    patient = make_patient(CASE, "full", seed=13)
    for q in ("Do you ever go out on your own, or spend time alone?", "Can we talk about times you spend alone?"):
        patient.respond(q)
    assert not patient.seen_alone


def test_the_chart_turn_says_the_patient_was_seen_alone() -> None:
    from mentalhospital_env.hospital.encounter import Encounter

    encounter = Encounter(CASE, patient=make_patient(CASE, "full", seed=13))
    encounter.reset(seed=13)
    for said in ("How are you?", "Can we have a few minutes alone?", "How is school?", "Thanks for waiting, Kate, please come back in."):
        encounter.step(f"<ask>{said}</ask>")
    turns = [t.to_dict() for t in encounter.chart.turns]
    assert [t.get("alone", False) for t in turns] == [False, True, True, False], turns
    assert turns[1]["speaker"] == "informant", turns[1]


def test_a_request_with_a_question_to_the_patient_has_the_question_answered_with_the_room_empty() -> None:
    patient = make_patient(CASE, "full", seed=13)
    reply = patient.respond("I'd like to talk with you on your own for a few minutes, as I do with everyone your age. "
                            "Now that it's just us, how long do you spend in the shower?")
    assert reply.speaker == "patient" and "shower" in reply.text.lower(), reply
    assert patient.seen_alone and not reply.added, reply


def test_spoken_to_while_out_they_are_back_in_the_room() -> None:
    patient = make_patient(CASE, "full", seed=13)
    patient.respond("Can we have a few minutes alone?")
    reply = patient.respond("Mum, when did the skipping lunch start?")
    assert reply.speaker == "informant" and not patient.seen_alone, reply
