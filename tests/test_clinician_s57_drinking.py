"""Stop 57 (s57-clin): the amount drunk is a hazard, not a dependence.

Of 80 cases read (the 40 handwritten records and 40 test-v2 cases drawn by random.Random(5757)), three were given
alcohol dependence from the amount alone: hw-014 ('I binge-drink Friday and Saturday, around 12 to 14 units a night':
Pabrinex IV for 3-5 days and a planned withdrawal), hw-030 ('I have wine at weekends, 4 to 6 units') and hw-039 ('I
drink a bottle of wine over two or three evenings', AUDIT 9): their antidepressant withheld 'while she drinks
dependently' and the DVLA told of a dependence. Dependence is read from its signs, a bottle a day or night, or 15 units
a day or more day after day; a binge or a weekend's amount gets the hazardous drinker's advice."""

from __future__ import annotations

import pytest

from tests.scripted_encounters import codes, with_findings, write

WALK_IN = "Outpatient clinic. A 31-year-old woman is here to see you, alone."
LOW = {"low_mood": "I've been feeling low most days.", "anhedonia": "Nothing gives me any joy now."}


def _doctor(drinking: str):
    return with_findings(WALK_IN, present=dict(LOW, alcohol_use=drinking),
                         answers={"alcohol_use": drinking, "mse:mood": "I've been feeling low most days."})


@pytest.mark.parametrize("drinking", [
    "I binge-drink Friday and Saturday, around 12 to 14 units a night.",
    "I have wine at weekends, 4 to 6 units.",
    "I've had wine, about 20 units a week since the crash. I drink a bottle of wine over two or three evenings to get to sleep.",
])
def test_an_amount_without_the_signs_of_dependence_is_no_dependence(drinking):
    doctor = _doctor(drinking)
    assert not any(c.startswith("F10.2") for c in codes(write(doctor, "diagnose"))), drinking
    plan = write(doctor, "treat")
    for step in ("Pabrinex", "assisted withdrawal", "drinks dependently", "alcohol dependence has to be declared"):
        assert step not in plan, (step, plan)


def test_a_weekend_binge_gets_the_hazardous_drinkers_advice():
    plan = write(_doctor("I binge-drink Friday and Saturday, around 12 to 14 units a night."), "treat")
    assert "Alcohol: feedback on the amount" in plan, plan


@pytest.mark.parametrize("drinking", [
    "It's a bottle of wine a night, sometimes more at weekends.",
    "I have about 110 units of alcohol a week. Now it's a bottle of wine and several cans of lager every night.",
    "I have a drink first thing now, just to get going. I drink all day, every day.",
    "I drink about 18 units a day.",
])
def test_dependent_drinking_is_still_read_as_dependence(drinking):
    assert any(c.startswith("F10.2") for c in codes(write(_doctor(drinking), "diagnose"))), drinking
