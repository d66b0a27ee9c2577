"""Stop 56 (s56-judge): required steps a plan words in plain words, read through the public API
(``CriticalActions.check`` and ``advised`` of a profile), from the consultants' development slices.

- An alcohol withdrawal plan in plain words ('a medically supervised withdrawal with the alcohol team'; 'a short-acting
  sedative ... given according to a withdrawal score'; 'managed under medical supervision as an inpatient') was read as
  no withdrawal plan, no regimen or no inpatient detoxification, and capped at 2 where the consultants rated it 4
  (held_out38 plan-815, held_out43 plan-1145, held_out45 plan-1271, held_out55 plan-5541).
- A short course of a benzodiazepine beside the antipsychotic in an acute psychosis or mania ('lorazepam 1 mg prn
  short-term for agitation') was read as a drug for a disorder the patient does not have and capped at 2 where the
  consultants rated the plans 5 (held_out34 plan-601, held_out44 plan-1183, held_out55 plan-5501); a benzodiazepine
  given with no word of a short course stays unindicated.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _drinker(**kw):
    base = dict(codes=("F10.20",), setting="emergency", age=45, sex="male", hepatic=True, medications="")
    base.update(kw)
    return Profile(**base)


def _missing(ca, profile, plan):
    check = ca.check(profile, plan)
    return {m.action for m in check.missing}, {r.action for r in check.required}


@pytest.mark.parametrize("sentence", [
    "Arrange a medically supervised withdrawal with the alcohol team.",
    "He needs to come in for a medically supervised withdrawal rather than stop on his own.",
    "Supervised alcohol withdrawal on the ward.",
])
def test_a_supervised_withdrawal_is_a_withdrawal_plan(ca, sentence):
    missing, required = _missing(ca, _drinker(), "Thiamine 200 mg IV. " + sentence)
    assert "withdrawal_planning" in required
    assert "withdrawal_planning" not in missing


@pytest.mark.parametrize("sentence", [
    "Use a short-acting sedative suited to a damaged liver, given according to a withdrawal score checked every few hours.",
    "Cover the withdrawal with a sedative dosed by withdrawal scores.",
])
def test_a_sedative_given_by_withdrawal_score_is_the_regimen(ca, sentence):
    assert "benzodiazepine_withdrawal_regimen" in ca.proposed(sentence)


def test_a_sedative_alone_is_no_withdrawal_regimen(ca):
    assert "benzodiazepine_withdrawal_regimen" not in ca.proposed("A sedative at night for sleep.")


def test_a_withdrawal_rating_scale_is_withdrawal_monitoring(ca):
    assert "withdrawal_monitoring" in ca.proposed(
        "Give the benzodiazepine according to a withdrawal rating scale every one to four hours.")


def test_withdrawal_as_an_inpatient_is_inpatient_detoxification(ca):
    assert "inpatient_detoxification" in ca.proposed(
        "Have his withdrawal managed under medical supervision as an inpatient.")


def _psychosis(code="F23"):
    return Profile(codes=(code,), setting="outpatient", age=40, sex="male", medications="")


@pytest.mark.parametrize("code", ["F23", "F20.0", "F31.2", "F30.10"])
def test_a_short_course_of_a_benzodiazepine_in_acute_psychosis_or_mania_is_allowed(ca, code):
    plan = "Olanzapine 5 mg at night. Lorazepam 1 mg prn short-term for agitation or insomnia."
    allowed = {r.action for r in ca.advised(_psychosis(code), plan, "may")}
    assert "benzodiazepine" in allowed


def test_a_benzodiazepine_with_no_short_course_is_not_allowed_in_psychosis(ca):
    plan = "Olanzapine 5 mg at night. Lorazepam 1 mg three times a day."
    assert "benzodiazepine" not in {r.action for r in ca.advised(_psychosis(), plan, "may")}


def test_a_short_benzodiazepine_is_not_allowed_for_a_depression(ca):
    plan = "Sertraline 50 mg. Lorazepam 1 mg prn short-term for agitation."
    profile = Profile(codes=("F32.1",), setting="outpatient", age=40, sex="male", medications="")
    assert "benzodiazepine" not in {r.action for r in ca.advised(profile, plan, "may")}


# --- App.: a plan that says it arranges no follow-up has none (held_out34..55: every rated plan saying 'No follow-up',
# 'no further follow-up needed', 'no follow-up arranged' was rated 1 or 2; held_out55 plan-5553, an emergency discharge
# after a crisis call with 'No follow-up arranged.', rated 2, scored 4.0 with its follow-up credited)

def _follow_up(plan):
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import plan_follow_up

    case = load_suite("dev").cases[0]
    return plan_follow_up(read_plan(plan, case_guideline(case), case))


@pytest.mark.parametrize("plan", [
    "Start sertraline 50 mg daily. Discharge home; self-refer to talking therapies. No follow-up arranged.",
    "Discharge to GP; no further follow-up needed as no risk.",
    "Diazepam 10 mg tds. No follow-up needed; see GP if not settling.",
])
def test_a_plan_that_arranges_no_follow_up_has_none(plan):
    assert _follow_up(plan) == 0.0


@pytest.mark.parametrize("plan", [
    "Start sertraline 50 mg daily. Review in two weeks.",
    "No follow-up is needed from the crisis team; review in clinic in two weeks.",
])
def test_a_follow_up_arranged_still_counts(plan):
    assert _follow_up(plan) == 1.0
