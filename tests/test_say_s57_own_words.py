"""A terse adult's own words for a topic (stop 57): uw-030's Craig speaks 'in short, literal sentences of two to
four words', and his persona lists what he says now ("Current: ... sleeping 'bit better'; 'miss Mum'; 'bit sad'"),
yet he answered the mood question 'Are you sad? With photos I chose the sad face.' and the sleep question 'Back in
January, in bed, curtains shut, up after 20 minutes.'"""

from __future__ import annotations

import json
from pathlib import Path

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.decide import own_words

UNSEEN = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen"


def _reply(case, question: str) -> str:
    return make_patient(case, "full", seed=0).respond(question).text


def test_he_answers_his_mood_and_his_sleep_in_his_own_words() -> None:
    case = load_case(str(UNSEEN / "uw-030.json"))
    assert _reply(case, "How has your mood been over the past few weeks?") == "Bit sad."
    assert _reply(case, "How have you been sleeping?") == "Bit better."


def test_only_words_the_style_ties_to_a_topic_are_his_answers() -> None:
    # uw-028: "Current: on fluoxetine 60 mg, 'a bit better', low mood, ...": 'a bit better' names no topic of its own
    style = json.loads((UNSEEN / "uw-028.json").read_text())["persona"]["speech_style"]
    assert own_words(style) == ()
    # uw-030's "Echoes the last words of a question ('tea or coffee?' - 'coffee'; 'are you happy?' - 'happy')" and
    # "answers 'tired' for sad, bored or sleepy" are how he answers, not what he says of his mood
    style = json.loads((UNSEEN / "uw-030.json").read_text())["persona"]["speech_style"]
    said = dict(own_words(style))
    assert said["Bit sad."] == {"mood"} and said["Bit better."] == {"sleep"}
    assert not {"Happy.", "Tired.", "Are you happy?"} & set(said)
