"""What a patient did to protect himself answers "what have you done about it" (stop 61, hw-024): the man who
believes his neighbours come through the loft and pump gas in had taped over the air vents and the boiler flue "to
keep their gas out" (a carbon-monoxide danger); asked what he had done about it he gave his living situation or the
complaint again, since the sentence was filed under the course of the illness. A sentence that says an act to keep
what is feared out, or to protect oneself (``data/recall.json`` ``topic_said.help_tried``), is filed under what was
done about it too.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json
import re

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s61-done-about-it",
    "language": "en",
    "demographics": {"age": 79, "sex": "male", "occupation": "retired postman", "marital_status": "widowed",
                     "education": "secondary", "living_situation": "lives alone in a bungalow"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Walter Pike, 79: believes the people next door are getting into his bungalow.",
        "history_of_present_illness": (
            "For about six months he has believed that the family next door get into his bungalow through the roof space "
            "at night and move his things. He has been sleeping badly. Last week he sealed the air bricks and the gas "
            "fire's flue with tape 'to keep their fumes out'. He has phoned the police four times."),
        "past_psychiatric_history": "None.",
        "medical_history": "Hypertension.",
        "medications": "Amlodipine 5 mg daily.",
        "allergies": "No known drug allergies.",
        "substance_use": "No alcohol.",
        "family_history": "None known.",
        "personal_history": "Retired postman; widowed three years ago.",
        "mental_status_exam": {"mood": "'Fed up.'"},
        "risk_assessment": {"self_neglect": "Flue sealed with tape: carbon monoxide risk."},
    },
    "exams": [],
    "diagnosis": {"categories": ["schizophrenia_spectrum"], "disorders": [{"name": "Delusional disorder", "code": "F22"}]},
    "treatment": {"plan": "Gas safety check.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "One week."},
    "persona": {"verbosity": "average", "guardedness": 0.2, "insight": "none",
                "speech_style": "79-year-old retired postman, polite and certain."},
}


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s61") / "done_about_it.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def test_asked_what_he_has_done_about_it_he_tells_the_flue_he_sealed(case) -> None:
    patient = make_patient(case, "full", seed=13)
    patient.respond("What has brought you here today?")
    reply = patient.respond("What have you done about it so far?")
    assert re.search(r"\bflue\b", reply.text), reply.text
