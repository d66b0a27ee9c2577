"""The person present never tells what the persona says they do not know, nor what the patient tells only when seen
alone, nor what the record says was kept from them (stop 62, uw-035: Oscar's mother, whose persona says she "does not
know about the nicotine pouches, the cutting, the blade in the pencil case, or that he counted her zopiklon", told the
doctor "he found my zopiklon in my handbag" and that "he scratches his forearm sometimes", which he had asked to be
kept from her). A short record written for the test, read through the public API."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s62-knowledge",
    "language": "en",
    "demographics": {"age": 16, "sex": "male", "occupation": "student", "marital_status": "single"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Sam Reid, 16: low mood.",
        "history_of_present_illness": "Low mood since the spring. Missing school two days a week.\n"
                                      "He vapes most days, bought from older boys.\n"
                                      "In March he took his father's diazepam tablets from the bathroom cabinet and "
                                      "counted them.\n"
                                      "Asked about self-harm: said he picks the skin on his fingers until they "
                                      "bleed, 'to calm down'; showed the marks; wanted it not told to his mother.\n"
                                      "Seen alone (told only when asked directly and seen alone): he burns his wrist "
                                      "with a lighter.",
        "past_psychiatric_history": "None.",
        "mental_status_exam": {"mood": "'Low.'"},
        "risk_assessment": {"suicide": "No thoughts of ending his life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"],
                  "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}]},
    "treatment": {"plan": "CBT."},
    "persona": {"verbosity": "average", "guardedness": 0.0, "insight": "partial", "speech_style": "plain, brief.",
                "informant": "His mother, Claire Reid, in the room; Sam answers for himself and she answers when "
                             "asked. She knows the school absences. Does not know about the vaping or that he took "
                             "his father's diazepam (she believes it was lost)."},
}
CASE = load_case(RECORD)


def _mother_says(question: str) -> str:
    patient = make_patient(CASE, "full", seed=13)
    reply = patient.respond(question)
    assert reply.speaker == "informant", reply
    return reply.text


def test_she_does_not_tell_what_the_persona_says_she_does_not_know() -> None:
    said = _mother_says("Claire, does he vape or smoke?")
    assert "vape" not in said.lower() and "older boys" not in said, said
    said = _mother_says("Claire, has he ever taken anyone's tablets?")
    assert "diazepam" not in said.lower() and "counted" not in said, said


def test_she_does_not_tell_what_he_tells_only_alone_nor_what_was_kept_from_her() -> None:
    said = _mother_says("Claire, has he ever hurt himself?")
    assert "lighter" not in said and "burn" not in said.lower(), said
    assert "picks" not in said and "bleed" not in said, said


def test_she_still_tells_what_she_knows() -> None:
    said = _mother_says("Claire, how has school been going for him?")
    assert "school" in said.lower(), said
