"""Stop 57 (s57-judge): 'no routine follow-up' arranges no follow-up.

'Start sertraline 50 mg daily. Refer for CBT. ... GP to issue repeat prescriptions for 6 months; no routine
follow-up.' (held_out40 plan-986, rated 2: 'arranges no follow-up, leaving six months of repeat prescriptions
unsupervised') had its follow-up credited, the word 'follow-up' inside the refusal read as one (stop 56 took out 'no
follow-up', 'no further follow-up', not 'no routine follow-up').
"""

from __future__ import annotations

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.rewards.mentaleval.features import read_plan
from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
from mentalhospital_env.rewards.mentaleval.offline import plan_follow_up


def _follow_up(plan):
    case = load_suite("dev").cases[0]
    return plan_follow_up(read_plan(plan, case_guideline(case), case))


def test_no_routine_follow_up_is_none():
    assert _follow_up("Start sertraline 50 mg daily. GP to issue repeat prescriptions for 6 months; no routine follow-up.") == 0.0


@pytest.mark.parametrize("plan", [
    "Start sertraline 50 mg daily. Routine follow-up in two weeks.",
    "No routine benzodiazepines. Review in two weeks.",
])
def test_a_routine_follow_up_arranged_still_counts(plan):
    assert _follow_up(plan) == 1.0
