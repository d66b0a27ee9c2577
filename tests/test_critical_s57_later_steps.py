"""Stop 57 (s57-judge): a drug named for later or from the past is not started now; a pregnancy prevention
programme is the pregnancy step.

- 'Restart lithium 400 mg at night once settled, with a level ...' (tune plan-058, rated 5), 'discuss whether lithium
  should be restarted once she is stable' (held_out36 plan-697, rated 5), 'Once settled: ... long-term prophylaxis
  (lithium worked before)' and 'Ask for the old records (lithium history)' were read as lithium started today, and
  the plans capped at 2 for a pregnancy test or lithium checks of a drug they did not start.
- 'Restart valproate ... only within a pregnancy prevention programme (effective contraception agreed ...)'
  (held_out36 plan-691, rated 5) was read as no pregnancy test: the programme includes the test.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


@pytest.mark.parametrize("sentence", [
    "Restart lithium 400 mg at night once settled.",
    "Discuss whether lithium should be restarted once she is stable.",
    "Once settled, a discussion of long-term prophylaxis with lithium.",
    "A discussion of long-term prophylaxis (lithium worked before).",
    "Ask for the old records (lithium history).",
])
def test_lithium_for_later_or_from_the_past_is_not_started(ca, sentence):
    assert "lithium" not in ca.started(sentence)


@pytest.mark.parametrize("sentence", [
    "Start lithium 400 mg at night.",
    "Restart lithium, which helped before, 400 mg at night.",
])
def test_lithium_given_now_is_started(ca, sentence):
    assert "lithium" in ca.started(sentence)


def _woman():
    return Profile(codes=("F31.2",), setting="outpatient", age=30, sex="female", medications="")


def test_lithium_once_settled_asks_no_pregnancy_test_today(ca):
    plan = "Olanzapine 10 mg at night. Restart lithium 400 mg at night once settled. Daily review."
    assert "pregnancy_test" not in {r.action for r in ca.check(_woman(), plan).required}


def test_a_pregnancy_prevention_programme_is_the_pregnancy_step(ca):
    plan = ("Restart valproate 250 mg three times daily only within a pregnancy prevention programme. "
            "Weekly review.")
    check = ca.check(_woman(), plan)
    assert "pregnancy_test" in {r.action for r in check.required}
    assert "pregnancy_test" not in {m.action for m in check.missing}


def test_lithium_started_today_still_needs_the_test(ca):
    plan = "Start lithium 400 mg at night with a level, renal and thyroid function. Weekly review."
    assert "pregnancy_test" in {m.action for m in ca.check(_woman(), plan).missing}
