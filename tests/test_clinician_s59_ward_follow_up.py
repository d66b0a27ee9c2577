"""Stop 59 (s59-clin): test-v2-0292, an 18-year-old seen in clinic and sent home, called a severe depression with
psychotic features, was given 'Follow-up: daily as inpatient.' (the disorder's follow-up, written for the ward). A patient
who goes home is reviewed in the community within days; a patient on the ward keeps the ward's daily review."""

from __future__ import annotations

from scripted_encounters import PSYCHOTIC_DEPRESSION, start
from scripted_encounters import ask as _ask


def _plan(walk_in: str) -> str:
    doctor = start(walk_in)
    for reply in PSYCHOTIC_DEPRESSION:
        _ask(doctor, reply)
    assert doctor._leading()[0][0].code.startswith("F32.3"), [(h.code, s) for h, s in doctor._leading()]
    return doctor._plan()


def test_a_psychotic_depression_sent_home_is_not_followed_up_as_an_inpatient():
    plan = _plan("Outpatient clinic. A 58-year-old woman is here to see you, alone.")
    assert "as inpatient" not in plan, plan
    assert "within 48 hours by the crisis or home treatment team" in plan, plan


def test_on_the_ward_the_daily_review_stays():
    plan = _plan("Inpatient ward. A 58-year-old woman is here to see you, alone.")
    assert "Follow-up: daily as inpatient" in plan, plan
