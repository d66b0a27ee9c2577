"""A means of harm taken away is told with who holds it and where it is now (stop 60, uw-033): the daughter who
moved her late father's guns to her own house was told by her mother as "Guns and ammunition moved to my house."
(the guns moved out of the patient's home, said as in it). The possessive of a place after a verb of taking or
moving is the taker's where the taker is named or a relative ("when Kristen moved them ... to her house"); the
thing moved with nobody named ("guns and ammunition moved to her house") is not said as the patient's place.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json
import re

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s60-means",
    "language": "en",
    "demographics": {"age": 71, "sex": "female", "occupation": "retired nurse", "marital_status": "widowed",
                     "education": "college", "living_situation": "lives alone; her daughter Megan visits most days"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mrs Ellen Price, 71: low mood since her husband died.",
        "history_of_present_illness": "Low mood for eight months since her husband died, with thoughts in the spring "
                                      "that she would rather not wake up. 03/06/2026 Megan phoned: shotgun and "
                                      "cartridges moved to her house.",
        "past_psychiatric_history": "None.",
        "medical_history": "Hypertension.",
        "medications": "Amlodipine 5 mg daily.",
        "allergies": "No known drug allergies.",
        "substance_use": "No alcohol.",
        "family_history": "None known.",
        "personal_history": "Retired nurse. Guns (told only when asked directly about guns in the home): her late "
                            "husband's shotgun was in the hall cupboard until June 2026, when Megan moved it and the "
                            "cartridges to her house. Her son took the spare tablets to his flat in May. Her brother Ray keeps "
                            "hunting rifles at his house by the river.",
        "mental_status_exam": {"mood": "'Low.'"},
        "risk_assessment": {"suicide": "Low to moderate. Passive wishes in the spring, none now."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
    "treatment": {"plan": "Sertraline.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "Four weeks."},
    "persona": {"verbosity": "average", "guardedness": 0.2, "insight": "full",
                "speech_style": "71-year-old retired nurse, plain-spoken."},
}

_MINE = re.compile(r"\b(?:to|at|in) my (?:house|flat|home)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s60") / "means.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def test_the_means_taken_away_is_never_said_as_at_her_own_place(case) -> None:
    said = [f.patient_says for f in case.facts if f.patient_says]
    assert not any(_MINE.search(s) for s in said), [s for s in said if _MINE.search(s)]
    # said with who took it and where it is now
    assert any(re.match(r"My late husband's shotgun was in the hall cupboard until June 2026, when Megan moved it and the "
                        r"cartridges to her house\.", s) for s in said), said
    assert any(re.search(r"\b[Mm]y son took the spare tablets to his flat\b", s) for s in said), said
    # "keeps hunting rifles at his house" (the parser's "hunting" a verb of its own): still her brother's house
    assert any(re.search(r"\b[Mm]y brother Ray keeps hunting rifles at his house\b", s) for s in said), said


def test_asked_about_guns_she_says_where_they_are_now(case) -> None:
    reply = make_patient(case, "full", seed=13).respond("Are there any guns in the home?")
    assert not _MINE.search(reply.text), reply.text
    assert "her house" in reply.text, reply.text
