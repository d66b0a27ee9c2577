"""Stop 57 (s57-judge): a structured therapy for an emotionally unstable personality, described rather than named.

'Skills-based therapy for emotional regulation' (held_out35 plan-669, rated 5), 'a skills-based programme for emotion
regulation and distress tolerance ... or a therapy that builds understanding of his own and others' states of mind'
(held_out47 plan-1367, rated 5), 'skills-based dialectical therapy / mentalising-based therapy' (held_out41 plan-1031,
rated 5) and 'the specialist group and individual therapy programme' (held_out53 plan-5302, rated 4) are DBT and MBT in
plain words; each was read as no personality-disorder therapy, the core treatment, and the plan held to 3. Skills
training for the attention problems of ADHD is not such a therapy.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _core_missing(ca, plan, code="F60.3"):
    profile = Profile(codes=(code,), setting="outpatient", age=25, sex="female", medications="")
    return {r.action for r in ca.check(profile, plan).core_missing}


@pytest.mark.parametrize("sentence", [
    "Motivational work now; skills-based therapy for emotional regulation.",
    "Refer to a skills-based programme for emotion regulation and distress tolerance (individual + group).",
    "A therapy that builds understanding of his own and others' states of mind.",
    "Refer PD pathway: skills-based dialectical therapy / mentalising-based therapy.",
    "Refer her for the specialist group and individual therapy programme.",
])
def test_the_therapy_in_plain_words_is_the_core_treatment(ca, sentence):
    assert "personality_disorder_therapy" not in _core_missing(ca, "Crisis plan agreed. " + sentence)


def test_a_plan_without_it_still_misses_it(ca):
    assert "personality_disorder_therapy" in _core_missing(ca, "Crisis plan agreed. Refer for CBT.")


def test_skills_training_for_adhd_is_not_a_personality_therapy(ca):
    assert "personality_disorder_therapy" not in ca.proposed("Skills-based therapy for the attention problems.")
