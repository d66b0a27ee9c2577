"""Stop 57 (s57-judge): a same-day medical admission in plain words.

'He needs a medical assessment and admission today' (held_out34 plan-628, rated 5), 'same-day paeds admission for
stabilisation' (held_out40 plan-977, rated 4) and 'Continue inpatient care with daily ECG ...' for a girl already on
the ward (tune plan-019, rated 5) were read as no medical admission for a medically unstable eating disorder and
capped at 2.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions
from mentalhospital_env.rewards.mentaleval.features import plain_plan


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _missing(ca, plan):
    profile = Profile(codes=("F50.01",), setting="outpatient", age=19, sex="male", medications="",
                      findings=frozenset({"pulse_below_40"}))
    check = ca.check(profile, plain_plan(plan))
    assert "medical_admission" in {r.action for r in check.required}
    return {m.action for m in check.missing}


@pytest.mark.parametrize("sentence", [
    "He needs a medical assessment and admission today.",
    "Unstable (HR 38) -> same-day paeds admission for stabilisation.",
    "Continue inpatient care with daily ECG, U&Es and phosphate.",
    "Medical assessment now: ECG, U&Es, lying and standing blood pressure.",
])
def test_a_same_day_admission_in_plain_words_meets_it(ca, sentence):
    assert "medical_admission" not in _missing(ca, sentence)


@pytest.mark.parametrize("sentence", [
    "Refer to the eating disorder service. Weekly weight.",
    "No admission today; weekly weight.",
])
def test_a_plan_that_keeps_him_out_misses_it(ca, sentence):
    assert "medical_admission" in _missing(ca, sentence)
