"""The person in the room corrects the patient where her persona says she does (stop 60, uw-033): Pat's daughter
Kristen, whose persona gives her "Corrects her: ... 'it was a box of wine a week, not a small glass'; 'Dad slept in
the guest room from 2017 because you punched him in your sleep' ...", heard her mother say "I boxed white wine. I
never took more than I'm supposed to." and said nothing. Now, after the patient's own answer on the topic of one of
her corrections, she says it, once, in her words, named as hers.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s60-corrects",
    "language": "en",
    "demographics": {"age": 72, "sex": "male", "occupation": "retired bus driver", "marital_status": "widowed",
                     "education": "secondary school", "living_situation": "lives alone; his daughter Sandra visits daily"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Frank Doyle, 72: low mood and poor sleep since his wife died.",
        "history_of_present_illness": "Low mood for nine months since his wife died. Poor sleep, waking early. He says "
                                      "he has 'a couple of beers at the weekend'. His daughter says he drinks most "
                                      "evenings.",
        "past_psychiatric_history": "None.",
        "medical_history": "Type 2 diabetes.",
        "medications": "Metformin 500 mg twice a day.",
        "allergies": "No known drug allergies.",
        "substance_use": "Beer, 'a couple at the weekend'.",
        "family_history": "None known.",
        "personal_history": "Retired bus driver.",
        "mental_status_exam": {"mood": "'Fed up.'"},
        "risk_assessment": {"suicide": "Low. No thoughts of ending his life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
    "treatment": {"plan": "Sertraline.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "Four weeks."},
    "persona": {
        "verbosity": "average",
        "guardedness": 0.2,
        "insight": "partial",
        "speech_style": "72-year-old retired bus driver, gruff, plays it down.",
        "informant": "His daughter, Sandra Doyle, in the room throughout; he answers for himself and she answers when "
                     "asked. Corrects him: 'Dad, it's four or five cans every night, not a couple at the weekend'; "
                     "'you've been up walking about at 3 every night since the funeral'.",
    },
}



@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s60") / "corrects.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def test_after_his_own_answer_on_drinking_she_says_her_correction(case) -> None:
    patient = make_patient(case, "full", seed=13)
    reply = patient.respond("How much alcohol do you drink in a typical week?")
    assert reply.speaker == "patient", reply.text
    # his words stay his; hers come after them, named as hers where the doctor hears them (the encounter)
    assert reply.text.strip() and "Sandra" not in reply.text and "four or five cans" not in reply.text, reply.text
    assert reply.added == "Dad, it's four or five cans every night, not a couple at the weekend.", reply
    # one point corrected once
    again = patient.respond("Do you drink alcohol at all?")
    assert not again.added, again


def test_each_correction_goes_with_its_own_topic(case) -> None:
    patient = make_patient(case, "full", seed=13)
    mood = patient.respond("How has your mood been?")
    assert not mood.added, mood
    sleep = patient.respond("How have you been sleeping?")
    assert sleep.added == "You've been up walking about at 3 every night since the funeral.", sleep


def test_she_corrects_only_where_her_persona_says_so(case) -> None:
    plain = dict(RECORD, case_id="s60-no-corrections", persona=dict(
        RECORD["persona"], informant="His daughter, Sandra Doyle, in the room throughout; she answers when asked."))
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "plain.json"
    path.write_text(json.dumps(plain))
    reply = make_patient(load_case(str(path)), "full", seed=13).respond("How much alcohol do you drink in a typical week?")
    assert not reply.added, reply


def test_the_doctor_hears_her_correction_as_hers(case) -> None:
    from mentalhospital_env.rewards.chart import Turn

    from mentalhospital_env.hospital.actions import Ask, Vocabulary, category_aliases
    from mentalhospital_env.hospital.encounter import Encounter, EncounterSettings
    from mentalhospital_env.hospital.roles import NoRewards
    from mentalhospital_env.knowledge.codes import load_categories

    vocabulary = Vocabulary(lambda n: None, lambda n: None, category_aliases(load_categories()))
    encounter = Encounter(case, make_patient(case, "full", seed=13), NoRewards(), EncounterSettings(10), vocabulary)
    encounter.reset(seed=13)
    seen = encounter.step(Ask("How much alcohol do you drink in a typical week?")).text
    said, _, hers = seen.partition("\nDaughter (Sandra): ")
    assert said.startswith("Patient: ") and "four or five cans" not in said, seen
    assert hers == "Dad, it's four or five cans every night, not a couple at the weekend.", seen
    turn = encounter.chart.turns[-1]
    assert turn.speaker == "patient" and turn.added == hers and hers not in turn.patient, turn
    # the chart keeps it with the turn, and a turn without it is written as before
    assert Turn.from_dict(turn.to_dict()) == turn
    assert "added" not in Turn("Q?", "A.").to_dict()
