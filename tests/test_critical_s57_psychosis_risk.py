"""Stop 57 (s57-judge): a psychosis treated in the community needs its risk assessed and planned for.

Every rated outpatient psychosis plan with no word of risk was rated 3 or below by the consultants ('Start
aripiprazole 10 mg daily. Refer for CBT for psychosis. Review in 3 months.', held_out35 plan-646, rated 2: 'a man with
no insight, unexplored command hallucinations and self-neglect ... needs risk assessment'; held_out36 plan-705,
held_out38 plan-843, held_out49 plan-4923, held_out55 plan-5504 and plan-5516 likewise), while the judge scored them
3.6 to 4.6. The rule ``psychosis_outpatient_risk`` requires ``psychosis_risk_assessment``, met by any plain wording of
the enquiry (what the voices command, intent to act on the beliefs, risk to self and others, a crisis plan) or by a
plan for the risk to others; inpatient and emergency plans are held to their own rules.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions

THIN = "Start aripiprazole 10 mg daily. Refer for CBT for psychosis. Review in 3 months."


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _profile(code="F20.9", setting="outpatient"):
    return Profile(codes=(code,), setting=setting, age=30, sex="male", medications="")


def _missing(ca, profile, plan):
    return {m.action for m in ca.check(profile, plan).missing}


@pytest.mark.parametrize("code", ["F20.9", "F20.0", "F22", "F23", "F25.0", "F29"])
def test_an_outpatient_psychosis_plan_with_no_risk_step_misses_one(ca, code):
    assert "psychosis_risk_assessment" in _missing(ca, _profile(code), THIN)


@pytest.mark.parametrize("sentence", [
    "Risk: re-ask command AH and actions re cameras; self-neglect.",
    "At each contact, ask what the voices say and whether he feels he has to act.",
    "Assess risk to himself and others including command voices, and self-neglect.",
    "Ask about voices telling him to do things and whether he might act against the person he fears.",
    "Check the risk to anyone the belief is about and whether there are weapons at home.",
    "Write down her early warning signs and a crisis plan.",
    "His threat to the neighbours is shared with the police neighbourhood team.",
])
def test_a_risk_step_in_plain_words_meets_it(ca, sentence):
    assert "psychosis_risk_assessment" not in _missing(ca, _profile(), THIN + " " + sentence)


def test_a_refused_risk_assessment_does_not_meet_it(ca):
    assert "psychosis_risk_assessment" in _missing(ca, _profile(), THIN + " No risk assessment needed.")


@pytest.mark.parametrize("setting", ["inpatient", "emergency"])
def test_inpatient_and_emergency_plans_are_held_to_their_own_rules(ca, setting):
    required = {r.action for r in ca.check(_profile(setting=setting), THIN).required}
    assert "psychosis_risk_assessment" not in required


def test_a_depression_needs_no_psychosis_risk_step(ca):
    required = {r.action for r in ca.check(_profile("F32.1"), "Sertraline 50 mg. Review in 2 weeks.").required}
    assert "psychosis_risk_assessment" not in required


def test_the_judge_caps_the_thin_plan_and_not_the_full_one():
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval import OfflineJudge
    from mentalhospital_env.rewards.chart import Chart

    case = load_suite("test-v2")["test-v2-0087"]  # a relapse of schizophrenia with self-neglect, seen in clinic
    assert case.setting == "outpatient"
    judge = OfflineJudge()
    full = (THIN + " Risk: ask about command hallucinations and intent to act on the beliefs at every contact; "
            "agree a crisis plan with crisis numbers. Review weekly at first.")
    thin = judge.score(case, Chart(treatment=THIN))["treatment_appropriateness"]
    whole = judge.score(case, Chart(treatment=full))["treatment_appropriateness"]
    assert thin <= 2.0 < whole
