"""A young patient does not say what only the chart measures (stop 62, the exam audit's 'a 13-year-old saying "14
ibuprofen 200 mg tablets"'): hw-040's Ruby, 13, asked what happened today, read the chart's dose out. A young person
says what she took ("14 ibuprofen tablets"); a tablet's strength is left out of what she says (``young`` of
``data/render.json``); an adult's medicines keep theirs ("lithium 300 mg twice daily", dev-0012).

Bundled records, read through the public API."""

from __future__ import annotations

import re

from mentalhospital_env.patient import make_patient

STRENGTH = re.compile(r"\b\d+(?:\.\d+)?\s?(?:mg|mcg)\b", re.IGNORECASE)


def _case(suite: str, case_id: str):
    from mentalhospital_env.cases import load_suite

    return {c.case_id: c for c in load_suite(suite).cases}[case_id]


def test_a_young_patient_says_no_tablet_strength():
    case = _case("handwritten", "hw-040")
    assert case.demographics.age < 18
    for seed in range(3):
        patient = make_patient(case, "full", seed=seed)
        reply = patient.respond("Ruby, can you tell me what happened today?").text
        assert "ibuprofen" in reply and not STRENGTH.search(reply), reply
        reply = patient.respond("What did you take?").text
        assert not STRENGTH.search(reply), reply


def test_an_adult_keeps_the_strength_of_his_medicines():
    said = [make_patient(_case("dev", "dev-0012"), "full", seed=seed).respond("What medication are you on?").text
            for seed in range(3)]
    assert any(STRENGTH.search(s) for s in said), said
