"""Stop 57 (s57-judge): an early review in other words is a prompt follow-up.

'A standard antidepressant ..., with an early check because of his age' (held_out38 plan-849, rated 4) and 'See her
regularly, every one to two weeks at first' (held_out53 plan-5302, rated 4) were read as no follow-up within a week
and capped at 2 where a young person starts an antidepressant or a patient at risk is seen in clinic.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _missing(ca, plan):
    profile = Profile(codes=("F43.1",), setting="outpatient", age=20, sex="male", medications="")
    check = ca.check(profile, plan)
    assert "prompt_follow_up" in {r.action for r in check.required}
    return {m.action for m in check.missing}


@pytest.mark.parametrize("sentence", [
    "A standard antidepressant, with an early check because of his age.",
    "Add a serotonin antidepressant at a low dose, with early review because of the small risk of agitation.",
    "Start sertraline 50 mg. See him regularly, every one to two weeks at first.",
    "Start sertraline 50 mg. Review every 1-2 weeks.",
])
def test_an_early_review_in_other_words_is_prompt(ca, sentence):
    assert "prompt_follow_up" not in _missing(ca, sentence)


@pytest.mark.parametrize("sentence", [
    "Start sertraline 50 mg. Review in 4 weeks.",
    "Start sertraline 50 mg. No early review needed.",
])
def test_a_late_or_refused_review_is_not(ca, sentence):
    assert "prompt_follow_up" in _missing(ca, sentence)
