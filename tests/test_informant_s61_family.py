"""A relative named in the family history and what was done for them ("Sister Joan (70) treated for depression.",
uw-033) was said "My sister was Joan treated for depression." by the patient, and so "Her sister was Joan treated for
depression." by her daughter in the room: the compiler's "was" went after the relation, before the name. Now the
name stays with its relation and the "was" goes before what was done ("My sister Joan was treated for depression.").

The daughter here gives his history, as uw-033's does (she says his own words of him).

A short record written for the test, read through the public API."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s61-family",
    "language": "en",
    "demographics": {"age": 74, "sex": "male", "occupation": "retired joiner", "marital_status": "widowed"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Bill Hart, 74: forgetful for a year.",
        "history_of_present_illness": "Forgetful for a year; repeats questions.",
        "family_history": "Brother Alan (77) treated for depression. Mother died at 80.",
        "mental_status_exam": {"mood": "'All right.'"},
        "risk_assessment": {"suicide": "No thoughts of ending his life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["neurocognitive"], "disorders": [{"name": "Mild cognitive impairment", "code": "F06.7"}]},
    "treatment": {"plan": "Memory clinic."},
    "persona": {"verbosity": "average", "guardedness": 0.1, "insight": "partial", "speech_style": "plain.",
                "informant": "His daughter, Lucy Hart, in the room throughout; she gives most of the history."},
}
CASE = load_case(RECORD)


def test_the_named_relative_keeps_his_name_beside_his_relation() -> None:
    fact = next(f for f in CASE.facts if "Alan" in f.text)
    assert fact.patient_says == "My brother Alan was treated for depression.", fact


def test_the_daughter_says_it_so_too() -> None:
    reply = make_patient(CASE, "full", seed=13).respond(
        "A question for his daughter: has anyone in his family had problems with their mental health?")
    assert reply.speaker == "informant", reply
    assert "brother Alan was treated for depression" in reply.text and "was Alan" not in reply.text, reply.text
