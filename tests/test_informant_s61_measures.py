"""A second correction is said where the patient's reply names what it corrects, and a measure of time or a count is
no such thing (stop 61, integration): a mother's "It's an hour in the shower, not ten minutes." followed her son's
reply that named minutes on another subject altogether (how far away his father lives). A short record written for
the test, read through the public API."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s61-measures",
    "language": "en",
    "demographics": {"age": 16, "sex": "female", "occupation": "student", "marital_status": "single"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Ella Ward, 16: washing and checking.",
        "history_of_present_illness": "She washes her hands many times a day. She says she showers for ten minutes. "
                                      "She lives with her mother; her father lives 20 minutes away with his partner.",
        "personal_history": "Her father lives 20 minutes away by bus.",
        "mental_status_exam": {"mood": "'Okay.'"},
        "risk_assessment": {"suicide": "No thoughts of ending her life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["obsessive_compulsive"],
                  "disorders": [{"name": "Obsessive-compulsive disorder", "code": "F42.2"}]},
    "treatment": {"plan": "CBT with exposure and response prevention."},
    "persona": {"verbosity": "average", "guardedness": 0.3, "insight": "partial", "speech_style": "plain, brief.",
                "informant": "Her mother, Jo Ward, in the room throughout; Ella answers for herself. Corrects her: "
                             "'it's an hour in the shower, not ten minutes'; 'you wash your hands forty times a day'."},
}
CASE = load_case(RECORD)


def _added_to(question: str, *before: str) -> tuple[str, str]:
    patient = make_patient(CASE, "full", seed=13)
    for q in before:
        patient.respond(q)
    reply = patient.respond(question)
    return reply.text, reply.added


def test_minutes_on_another_subject_are_not_what_the_shower_correction_corrects() -> None:
    text, added = _added_to("Tell me about your father.", "How often do you wash your hands?")
    assert "minutes" in text, text
    assert "shower" not in (added or ""), (text, added)


def test_the_shower_itself_is_still_corrected() -> None:
    text, added = _added_to("How long do you spend in the shower?")
    assert "shower" in text.lower(), text
    assert "an hour in the shower" in (added or ""), (text, added)
