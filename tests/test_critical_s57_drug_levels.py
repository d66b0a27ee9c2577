"""Stop 57 (s57-judge): a mood stabiliser's level and checks in the words clinics use.

- 'Continue lithium; check level, U&E, TSH.' (held_out50 plan-5042, rated 3) and 'Li level + U&E + TFT in 1/52' were
  read as no lithium level; 'check adherence and plasma level' of valproate (held_out39 plan-895, rated 5) and 'measure
  the blood level' (plan-899, rated 4) as no valproate level; each capped at 2.
- 'recheck its blood level 12 hours after a dose with kidney and thyroid tests' (held_out42 plan-1067, rated 4):
  'after' is a refusal cue ('rash after lamotrigine'), and it refused the kidney and thyroid tests that followed; a
  time said with it ('12 hours after a dose', 'days after') refuses nothing.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions
from mentalhospital_env.rewards.mentaleval.features import plain_plan


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _missing(ca, medications, plan):
    profile = Profile(codes=("F31.1",), setting="outpatient", age=50, sex="male", medications=medications)
    return {m.action for m in ca.check(profile, plain_plan(plan)).missing}


@pytest.mark.parametrize("plan", [
    "Continue lithium; check level, U&E, TSH. Review 2/52.",
    "Continue lithium 300 mg BD. Li level + U&E + TFT in 1/52.",
    "Keep her on her current mood stabiliser; recheck its blood level 12 hours after a dose with kidney and thyroid tests.",
])
def test_lithium_checks_in_clinic_words(ca, plan):
    missing = _missing(ca, "Lithium 400 mg at night", plan)
    assert not missing & {"lithium_monitoring", "lithium_renal_function", "lithium_thyroid_function"}


@pytest.mark.parametrize("plan", [
    "Continue valproate 250 mg three times daily; check adherence and plasma level, LFT and FBC.",
    "Carry on with her current mood stabiliser; check she is taking it and measure the blood level with liver tests.",
])
def test_a_valproate_level_in_clinic_words(ca, plan):
    assert "valproate_level" not in _missing(ca, "Sodium valproate 250 mg three times daily", plan)


def test_lithium_with_no_checks_still_misses_them(ca):
    missing = _missing(ca, "Lithium 400 mg at night", "Continue lithium. Review in 3 months.")
    assert {"lithium_monitoring", "lithium_renal_function", "lithium_thyroid_function"} <= missing


def test_after_still_refuses_what_caused_harm(ca):
    assert "lamotrigine" not in ca.proposed("Rash after lamotrigine.")
