"""The adult whose mother answers for him and corrects him (stop 58, uw-031): Josh, 20, guarded, with his mother
Ana in the room, who 'answers for him and corrects him' and 'says he pushed past her in April and did not hit
her'. His guardedness is his own: asked whether he has ever hurt anyone, she said "That's something we'd rather
talk about later, if that's all right." of the April push she gives in her own words. And when he would not answer
the harm-to-others question ("That's... hard. Can we come back to it?"), the scripted doctor went on to his
drinking and never asked her.

A short record written for the test; the doctor is driven through ``act`` against canned replies."""

from __future__ import annotations

import json
import re

import pytest
from mentalhospital_env.agents.scripted import ScriptedClinician

from mentalhospital_env.cases import load_case
from mentalhospital_env.hospital.encounter import walk_in_text
from mentalhospital_env.patient import make_patient
from tests.scripted_encounters import questions

RECORD = {
    "case_id": "s58-corrects",
    "language": "en",
    "demographics": {"age": 22, "sex": "male", "occupation": "apprentice joiner", "marital_status": "single",
                     "education": "college", "living_situation": "lives with his mother Rosa and his younger brother"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Review after an admission with a manic episode in March.",
        "history_of_present_illness": "Well until February, when he slept three hours a night, spent his savings and "
                                      "talked fast. Admitted in March for three weeks. Mood settled on lithium since April.",
        "past_psychiatric_history": "One admission, March 2026. No self-harm and no suicide attempts.",
        "medical_history": "None.",
        "medications": "Lithium carbonate 800 mg at night.",
        "allergies": "No known drug allergies.",
        "substance_use": "Alcohol 6 pints at weekends.",
        "family_history": "Maternal aunt treated for depression.",
        "personal_history": "Apprentice joiner, back at work since May.",
        "mental_status_exam": {"mood": "'Fine.'", "thought_content": "No suicidal or homicidal ideas."},
        "risk_assessment": {
            "suicide": "Low. No suicidal ideas now.",
            "violence": "Low now. March 2026 while manic: threatened a neighbour, punched a hole in a wall, pushed past "
                        "his mother (his mother says he pushed past her to get out). None since.",
        },
    },
    "exams": [],
    "diagnosis": {"categories": ["bipolar"], "disorders": [{"name": "Bipolar I disorder, current episode in remission",
                                                              "code": "F31.70"}]},
    "treatment": {"plan": "Continue lithium; levels every three months.", "medications": [], "psychotherapy": [],
                  "safety": [], "follow_up": "Six weeks."},
    "persona": {
        "verbosity": "terse",
        "guardedness": 0.95,
        "insight": "partial",
        "speech_style": "22-year-old, guarded, short answers; says March was 'nothing'.",
        "informant": "His mother, Rosa Blake, in the room throughout. Answers for him and corrects him; says he pushed "
                     "past her in March and did not hit her.",
    },
}

RISK = ("life is not worth living", "hurt themselves", "end your life", "harm yourself")


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s58") / "corrects.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def test_his_guardedness_does_not_hold_back_what_his_mother_saw(case) -> None:
    reply = make_patient(case, "full", seed=0).respond(
        "A question for his mother: Has he ever hurt or threatened anyone, even when he was unwell?")
    assert reply.speaker == "informant", reply.text
    assert "pushed past" in reply.text and not re.search(r"rather talk|later|come back to", reply.text), reply.text


def test_the_walk_in_says_she_gives_the_history(case) -> None:
    assert walk_in_text(case).endswith("His mother can give the history.")


def _interview(walk_in: str, reply, budget: int = 40) -> list[str]:
    return questions(walk_in, reply, "Mother (Rosa)", budget)


def test_a_harm_question_he_will_not_answer_is_asked_of_her() -> None:
    walk_in = ("Outpatient clinic. A 22-year-old man is here to see you, accompanied by his mother. "
               "His mother can give the history.")

    def reply(question: str) -> str:
        return "That's... hard. Can we come back to it?" if "angry with someone" in question else "Not sure."

    asked = _interview(walk_in, reply)
    refused = next(i for i, q in enumerate(asked) if "angry with someone" in q)
    assert "A question for his mother: Has he ever hurt or threatened anyone" in asked[refused + 1], asked[refused:refused + 2]
    assert not re.search(r"\byou\b", asked[refused + 1], re.IGNORECASE), asked[refused + 1]
    # without a companion who gives his history, nothing changes: the question is not pressed
    alone = _interview("Outpatient clinic. A 22-year-old man is here to see you, alone.", reply)
    i = next(i for i, q in enumerate(alone) if "angry with someone" in q)
    assert "hurt or threatened anyone" not in alone[i + 1]


def test_a_key_worker_is_not_told_of_the_family() -> None:
    # uw-030: "That sounds like a lot for the family to carry. A question for his key worker: ..." said to Dean
    walk_in = ("Outpatient clinic. A 34-year-old man is here to see you, accompanied by a key worker. "
               "The key worker can give the history.")
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": 40})
    to_him = []
    text = walk_in
    for _ in range(40):
        out = doctor.act({"text": text}, {"turn_budget": 40, "allowed_actions": ["ask", "order_exams"]})
        m = re.fullmatch(r"<ask>(.*)</ask>", out, re.DOTALL)
        if not m:
            break
        if "question for his key worker" in m.group(1):
            to_him.append(m.group(1))
        text = "Patient: I've been feeling low and not sleeping."
    warm = [q.split("A question for")[0] for q in to_him]
    assert len([w for w in warm if w.strip()]) >= 2, to_him
    assert not any(re.search(r"\b(?:family|at home)\b", w) for w in warm), warm
