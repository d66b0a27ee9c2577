"""Stop 56 (s56-pat): the persona's voice as the case's author wrote it. uw-029 (a deaf, Welsh-speaking retired
teacher of 79) and uw-028 (a Nottingham van driver) were read at stops 54-55 with no mishearing, no 'Pardon?',
no Welsh, no teacher's English and none of their quoted sayings: the sayings had no saying verb before them,
and the style named its dialect by the words it quoted, not by a word the traits knew.

The records here are written for these tests (synthetic, in a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

from patient_records import record

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.decide import persona_for

_EHR = {
    "chief_complaint": "Low mood and poor sleep for two months.",
    "history_of_present_illness": (
        "Over two months her mood has been low and she has lost interest in her garden. "
        "She wakes at five and cannot get back to sleep. Her memory is good for her age."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Hypertension.",
    "medications": "Amlodipine 5 mg daily.",
    "allergies": "No known drug allergies.",
    "substance_use": "A small sherry at Christmas. Never smoked. No drugs.",
    "family_history": "No mental illness known.",
    "personal_history": "Retired primary school teacher. Widowed. Lives alone.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Reactive.", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No thoughts of ending her life."},
}

_QUESTIONS = (
    "How has your mood been?",
    "How are you sleeping?",
    "Do you still enjoy things?",
    "Have you had any thoughts of ending your life?",
    "Do you hear voices when nobody is there?",
    "Do you drink alcohol?",
    "How is your memory?",
    "Do you smoke?",
    "What medicines do you take?",
    "Any problems with your physical health?",
)


def _case(n: int, style: str, verbosity: str = "talkative"):
    data = record(f"s56-pat-{n:03d}", _EHR, {"age": 79, "sex": "female", "living_situation": "lives alone"},
                  written_for="test_patient_s56_voice.py")
    data["persona"] = {"verbosity": verbosity, "guardedness": 0.2, "insight": "partial", "speech_style": style}
    return load_case(data)


def _replies(case, seeds=range(3)) -> list[tuple[str, str]]:
    out = []
    for seed in seeds:
        patient = make_patient(case, "full", seed=seed)
        out += [(q, patient.respond(q).text) for q in _QUESTIONS]
    return out


def test_a_saying_placed_by_its_topic_is_said_to_that_topic_only() -> None:
    # no saying verb before it: "No thoughts of ending her life ('That's for the Lord')", "Irritated by talk of
    # memory tests ('I know where I put things')"
    case = _case(1, "Plain speech. No thoughts of ending her life ('That's for the Lord'). "
                    "Irritated by talk of memory tests or care homes ('I know where I put things').")
    replies = _replies(case)
    lord = [q for q, r in replies if "That's for the Lord" in r]
    things = [q for q, r in replies if "I know where I put things" in r]
    assert lord and things, replies
    assert all("ending your life" in q for q in lord), lord
    assert all("memory" in q for q in things), things


def test_a_formal_speaker_says_her_words_in_full() -> None:
    case = _case(2, "Precise, correct, rather formal English.")
    said = " ".join(r for _q, r in _replies(case, range(2)))
    assert not re.search(r"\b\w+(?:n't|'m|'ve|'re)\b", said), said
    # and the same record without the style contracts as anyone does (the test can fail)
    plain = " ".join(r for _q, r in _replies(_case(3, "Plain speech."), range(2)))
    assert re.search(r"\b\w+(?:n't|'m|'ve|'re)\b", plain), plain


def test_a_speaker_hard_of_hearing_asks_for_the_question_again() -> None:
    case = _case(4, "Hard of hearing, aids in the drawer.")
    replies = _replies(case)
    assert any(re.match(r"(?:Pardon|Say again|Sorry, what was that)\?", r) for _q, r in replies), replies


def test_the_dialect_the_quoted_words_show() -> None:
    # uw-028: "Quiet East Midlands English ('me duck', 'I were', 'nowt', 'summat')" named no trait the styles knew
    notts = persona_for(_case(5, "Quiet English from Hucknall ('me duck', 'I were', 'nowt', 'summat'), short answers."))
    assert "northern" in notts.traits
    welsh = persona_for(_case(6, "Speaks with Welsh phrases: 'Duw, Duw', 'twp', 'cariad'."))
    assert "welsh" in welsh.traits
    assert not {"northern", "welsh"} & persona_for(_case(7, "Plain speech ('it's fine', 'whatever').")).traits
