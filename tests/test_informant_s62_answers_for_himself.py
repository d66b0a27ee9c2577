"""Stop 62 (integration): the cue of a companion who answers for the patient was read case-blind, so its name's
pattern took 'he answers for himself and she answers when asked' as the wife answering for him (and stop 61's 'Pat
answers for herself' as her daughter answering for Pat): the doctor put every history question to the wife and never
saw him alone. A patient who answers for himself is not one whose companion gives the history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mentalhospital_env.cases import Case, load_case
from mentalhospital_env.patient.informant import informant_role

RECORD = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "patient_exam" / "unseen" / "uw-035.json"


def _with_companion(informant: str, tmp_path: Path) -> Case:
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    data["case_id"] = "companion-test"
    data["demographics"]["age"] = 47
    data["persona"]["informant"] = informant
    path = tmp_path / "companion-test.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_case(path)


@pytest.mark.parametrize("informant", [
    "His wife is in the room; he answers for himself and she answers when asked. She knows the dates.",
    "Her daughter is present. Pat answers for herself; the daughter corrects her now and then.",
    "His brother sits in; they answer for themselves, each in turn.",
])
def test_a_patient_who_answers_for_himself_is_not_answered_for(informant, tmp_path):
    assert informant_role(_with_companion(informant, tmp_path)) != "history"


@pytest.mark.parametrize("informant", [
    "His key worker Dean sometimes answers for Craig.",
    "His wife answers for him when he goes quiet.",
    "Her son answers for her.",
])
def test_a_companion_who_answers_for_the_patient_still_gives_the_history(informant, tmp_path):
    assert informant_role(_with_companion(informant, tmp_path)) == "history"
