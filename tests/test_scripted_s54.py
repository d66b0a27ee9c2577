"""Stop 54 (s54-clin): faults a consultant marked down in the scripted clinician's plans and diagnoses on test-v2 at
stop 53 (benchmarks/data/judge_agreement/ratings.jsonl, held_out53, and the blind A/B of /work/notes/s53/sets/ab53*),
each fixed by a mechanism meant to carry to cases not seen."""

from __future__ import annotations

import re

from tests.test_scripted_routes import encounter, replies

WALK_IN = "Outpatient clinic. A 41-year-old woman is here to see you, alone."

DEPRESSED = [
    (r"brought you here", "I've been so low for two months. I can't enjoy anything any more."),
    (r"sleep", "I wake at four every morning."),
    (r"energy|day-to-day", "No energy at all, I can't face work."),
    (r"enjoy", "Nothing, I can't enjoy anything."),
    (r"medicines do you take", "I don't take any tablets."),
    (r"alcohol", "Just a glass of wine at the weekend."),
]


def test_a_death_wish_told_limits_the_supply_now_not_if_risk_is_raised():
    # test-v2-0206, 0355 (stop 53's consultant) and 0100, 0281, 0300, 0382 (stop 54's sample): suicidal thoughts were in
    # the record, yet the plan limited the tablets dispensed only 'if risk is raised'
    told = [(r"life is not worth|end your life|suicid", "Sometimes I think I'd be better off dead, but I wouldn't act on it."),
            (r"plans or preparations|thinking how", "No, I don't have a plan.")]
    plan = encounter(WALK_IN, replies(told + DEPRESSED))["treat"]
    assert re.search(r"\bstart sertraline\b", plan), plan
    assert "if risk is raised" not in plan, plan
    assert re.search(r"limit the medication supply now", plan), plan
    assert "Restrict access to means" not in plan, plan  # the step is met, not said twice


def test_suicidal_thoughts_denied_keep_the_supply_limit_conditional():
    told = [(r"life is not worth|end your life|suicid", "No, never, I've got my kids to think about.")]
    plan = encounter(WALK_IN, replies(told + DEPRESSED))["treat"]
    assert "limit quantities of medication dispensed if risk is raised" in plan, plan
