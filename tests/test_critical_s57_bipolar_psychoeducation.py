"""Stop 57 (s57-judge): psychoeducation in bipolar depression, in the words plans use for it.

Interpersonal and social rhythm therapy (IPSRT) and family-focused therapy are psychoeducational treatments built on
mood and sleep monitoring, and 'explain the condition, teach her to chart her mood' is psychoeducation with mood
monitoring; each was read as no psychoeducation and the plan capped at 2 where the consultants rated it 4
('Quetiapine 50 mg nocte -> 300 mg ... Safety plan; 1 week's supply at a time. CBT/IPSRT referral. Weekly review.',
held_out36 plan-700; plan-725; held_out45 plan-1259).
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions

BASE = "Quetiapine 50 mg at night, titrating to 300 mg. Safety plan; weekly dispensing. Weekly review."


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _missing(ca, plan):
    profile = Profile(codes=("F31.4",), setting="outpatient", age=35, sex="male", medications="")
    return {m.action for m in ca.check(profile, plan).missing}


@pytest.mark.parametrize("sentence", [
    "CBT/IPSRT referral.",
    "Talking therapy for the depression (CBT, social-rhythm work).",
    "Refer for interpersonal and social rhythm therapy.",
    "Family-focused therapy with her husband.",
    "Explain the condition, teach her to chart her mood, and refer for CBT.",
    "Keep a mood and sleep diary.",
])
def test_psychoeducation_in_other_words_meets_it(ca, sentence):
    assert "bipolar_psychoeducation" not in _missing(ca, BASE + " " + sentence)


def test_a_bipolar_depression_plan_with_none_still_misses_it(ca):
    assert "bipolar_psychoeducation" in _missing(ca, BASE + " Refer for CBT.")
    assert "bipolar_psychoeducation" in _missing(ca, BASE + " No IPSRT for now.")
