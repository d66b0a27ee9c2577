"""What a young person tells only when seen alone (stop 62, uw-035: Oscar, 15, whose cutting and count of his mother's
sleeping tablets the chart marks "(told only when asked directly and seen alone)"; the mark was an ordinary sensitive
one, and the mother, beside him throughout, was never asked out). The compiled fact keeps the kind of gate; with his
mother in the room he deflects a direct question on it, and once she has stepped out he tells it. A short record
written for the test, read through the public API."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s62-alone",
    "language": "en",
    "demographics": {"age": 15, "sex": "male", "occupation": "student", "marital_status": "single"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Leo Hart, 15: low mood and missing school.",
        "history_of_present_illness": "Low mood since the summer; missing school most weeks. He sleeps badly.\n"
                                      "Not known to his mother (told only when asked directly and seen alone): he cuts "
                                      "his thigh with a razor blade about once a week. He keeps the blade in his sock "
                                      "drawer.",
        "past_psychiatric_history": "None.",
        "mental_status_exam": {"mood": "'Kinda down.'"},
        "risk_assessment": {"suicide": "No thoughts of ending his life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"],
                  "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}]},
    "treatment": {"plan": "CBT; review in two weeks."},
    "persona": {"verbosity": "terse", "guardedness": 0.3, "insight": "partial", "speech_style": "quiet, brief.",
                "informant": "His mother, Anna Hart, is in the room; Leo answers for himself."},
}
CASE = load_case(RECORD)
OUT = "Anna, would you mind waiting outside for a few minutes? I'd like to talk with Leo on his own."
BACK = "Thank you for waiting, Anna, please come back in."
ASK = "Do you ever hurt yourself on purpose, like cutting?"


def _replies(*questions: str) -> list:
    patient = make_patient(CASE, "full", seed=13)
    return [patient.respond(q) for q in questions]


def test_with_the_mother_in_the_room_he_does_not_tell_it() -> None:
    (reply,) = _replies(ASK)
    assert "blade" not in reply.text and "cut" not in reply.text.lower(), reply.text
    assert reply.speaker == "patient", reply


def test_seen_alone_and_asked_directly_he_tells_it() -> None:
    _, reply = _replies(OUT, ASK)
    assert "blade" in reply.text or "cut" in reply.text.lower(), reply.text


def test_back_in_the_room_the_gate_closes_again_for_what_is_untold() -> None:
    _, _, reply = _replies(OUT, BACK, ASK)
    assert "blade" not in reply.text and "razor" not in reply.text, reply.text


def test_seen_alone_an_open_question_on_the_illness_does_not_draw_it_out() -> None:
    _, reply = _replies(OUT, "Was anything going on in your life around the time it started?")
    assert "razor" not in reply.text and "blade" not in reply.text, reply.text
