"""The sentence chosen answers the question asked (issue 13, stop 40), through the public API:

* "What do you worry will happen?" is told what the worry holds (a "that ..." fear), not only that there is worry;
* the examiner's question framing a record sentence ("Asked about times of being unusually high") is not said as
  the patient's own act ("I asked about ...");
* a clock time ("seen ... at 14:00") is no age of onset ("When I was 14.");
* a topic named only in a bracketed aside the patient's rendering leaves out ("(she weighs 44 kg)") does not make
  the sentence the answer to a question on that topic.

The records here are written for these tests (synthetic, in a clinician's plain prose).
"""

from __future__ import annotations

import re

from patient_records import ask, record

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient.timeline import timeline

_EHR = {
    "chief_complaint": "Anxiety about leaving the house for six months.",
    "history_of_present_illness": (
        "For six months she has felt on edge whenever she has to go out. "
        "She avoids buses and supermarkets and now shops online. "
        "She is frightened that she will collapse in the street and that nobody will stop to help her. "
        "She sleeps badly and wakes several times a night."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Asthma.",
    "medications": "Salbutamol inhaler as needed.",
    "allergies": "No known drug allergies.",
    "substance_use": "Does not drink. Non-smoker. No drugs.",
    "family_history": "No family history of mental illness.",
    "personal_history": "Lives with her husband. Works from home as a bookkeeper.",
    "mental_status_exam": {"mood": "'On edge'", "thought_content": "No suicidal ideation."},
    "risk_assessment": {"suicide": "No thoughts of ending her life. No self-harm."},
}


def _record(case_id: str, **ehr: object) -> dict:
    return record(case_id, _EHR, {"age": 38, "sex": "female"}, written_for="test_answer_sentence_s40.py", **ehr)


def test_what_the_worry_holds_is_told() -> None:
    case = load_case(_record("answer-sentence-001"))
    (reply,) = ask(case, "What are you worried might happen when you go out?")
    assert re.search(r"collapse|help", reply, re.I), reply


def test_the_examiners_question_is_not_the_patients_act() -> None:
    hpi = (
        "For three months her mood has been low and she has stopped seeing friends. "
        "Asked about times of being unusually high. "
        "Asked whether other people can know her thoughts, she paused for a long time."
    )
    case = load_case(_record("answer-sentence-002", history_of_present_illness=hpi))
    replies = ask(case, "Have you ever been unusually high?", "Can other people know your thoughts?",
                  "Is there anything else you'd like to tell me?")
    for reply in replies:
        assert not re.search(r"\bI asked (?:about|whether)\b", reply), replies


def test_a_clock_time_is_no_age_of_onset() -> None:
    history = (
        "He was seen for a first assessment on Thursday 3 December 2026 at 14:00 by the registrar. "
        "From September 2025 he stopped going to lectures."
    )
    said = timeline(history)
    assert said.onset_age is None, said
    assert said.onset_point is not None and "September" in said.onset_point[1], said


def test_a_topic_only_in_a_left_out_bracket_does_not_answer() -> None:
    hpi = (
        "At lunchtime today she swallowed 14 ibuprofen 200 mg tablets (2.8 g; she weighs 44 kg, about 64 mg/kg) "
        "from the bathroom cabinet. She has felt low for two months."
    )
    case = load_case(_record("answer-sentence-003", history_of_present_illness=hpi))
    (reply,) = ask(case, "How has your weight been over the last few months?")
    assert "ibuprofen" not in reply.lower(), reply
