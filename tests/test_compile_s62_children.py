"""A man's children counted in the chart's shorthand are told as his (stop 62, uw-034): "One son, Kauã, 8, lives with
the mother." had no first person and was never told, so asked about his family the father of an eight-year-old who
visits on Sundays never named him. Now "I have one son, Kauã, 8, who lives with the mother." (compile.json
counted_children). A son who lives with "his" father is left as it was (whose father the record means is not read).

A short record written for the test, read through the public API."""

from __future__ import annotations

import json

import pytest

from mentalhospital_env.cases import load_case
from tests.patient_records import told_sentences

RECORD = {
    "case_id": "s62-children",
    "language": "en",
    "demographics": {"age": 34, "sex": "male", "occupation": "delivery courier", "marital_status": "separated",
                     "education": "secondary", "living_situation": "lives alone in a back house on his mother's lot"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Not sleeping since his brother was killed.",
        "history_of_present_illness": "Sleeps three hours a night since October. Lives alone since his partner left. "
                                      "One son, Caio, 8, lives with the mother. Two daughters, 10 and 12, live with "
                                      "their mother in Recife.",
        "past_psychiatric_history": "None.",
        "medical_history": "None.",
        "medications": "None.",
        "allergies": "No known drug allergies.",
        "substance_use": "Beer at weekends.",
        "family_history": "None known.",
        "personal_history": "Grew up in the same neighbourhood.",
        "mental_status_exam": {"mood": "'Tired.'"},
        "risk_assessment": {"suicide": "Denies thoughts of dying."},
    },
    "exams": [],
    "diagnosis": {"categories": ["trauma_stressor"], "disorders": [{"name": "Post-traumatic stress disorder", "code": "F43.1"}]},
    "treatment": {"plan": "Review.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "Two weeks."},
    "persona": {"verbosity": "terse", "guardedness": 0.5, "insight": "partial", "speech_style": "34, few words."},
}


@pytest.fixture(scope="module")
def told(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("s62") / "children.json"
    path.write_text(json.dumps(RECORD))
    return told_sentences(load_case(str(path)).facts)


def test_his_counted_children_are_told_as_his(told) -> None:
    assert "I have one son, Caio, 8, who lives with the mother." in told, told
    assert "I have two daughters, 10 and 12, who live with their mother in Recife." in told, told
