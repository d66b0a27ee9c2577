"""A child named in apposition is told as the patient's (stop 61, hw-021): "Has a daughter, Lily, with Chloe
(separated two years)" was parsed with the named daughter for its subject, rendered "Has a daughter, Lily, with
Chloe." and never told; asked "Do you have children or anyone who depends on you?", the father of a three-year-old
who stays every other weekend said only "I live alone in a housing association flat." Now "I have a daughter, Lily,
with Chloe." (compile.json circumstance_leads), and the dependants question hears it.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s61-dependants",
    "language": "en",
    "demographics": {"age": 27, "sex": "male", "occupation": "warehouse worker", "marital_status": "single",
                     "education": "secondary", "living_situation": "lives alone in a rented flat"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Kyle Dunn, 27: believes his phone is being hacked by his workmates.",
        "history_of_present_illness": "For three months he has believed his workmates read his messages and talk "
                                      "about him through the radio. Sleeping poorly.",
        "past_psychiatric_history": "None.",
        "medical_history": "None.",
        "medications": "None.",
        "allergies": "No known drug allergies.",
        "substance_use": "Cannabis at weekends.",
        "family_history": "None known.",
        "personal_history": "Grew up locally. Has a son, Alfie, with Jade (separated a year); Alfie stays with him "
                            "at weekends.",
        "mental_status_exam": {"mood": "'Stressed.'"},
        "risk_assessment": {"violence": "No thoughts of harming others."},
    },
    "exams": [],
    "diagnosis": {"categories": ["schizophrenia_spectrum"], "disorders": [{"name": "Delusional disorder", "code": "F22"}]},
    "treatment": {"plan": "Review.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "Two weeks."},
    "persona": {"verbosity": "average", "guardedness": 0.2, "insight": "none",
                "speech_style": "27-year-old warehouse worker, wary."},
}


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s61") / "dependants.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def test_the_named_son_is_told_as_his(case) -> None:
    said = [f.patient_says for f in case.facts if f.told and f.patient_says and "Alfie, with Jade" in f.text]
    assert said and said[0].startswith("I have a son, Alfie, with Jade"), said


def test_asked_about_children_he_tells_his_son(case) -> None:
    reply = make_patient(case, "full", seed=13).respond("Do you have children or anyone who depends on you?")
    assert "Alfie" in reply.text, reply.text
