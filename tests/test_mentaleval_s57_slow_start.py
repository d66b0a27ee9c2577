"""Stop 57 (s57-judge): lamotrigine and clozapine started fast are a harm, App. at most 1.

'Start lamotrigine 200 mg once daily from today' (held_out44 plan-1178, rated 1: 'a serious risk of Stevens-Johnson
syndrome') scored 2.6; 'Lamotrigine 100 mg daily from today' (held_out37 plan-764, rated 1) and 'Start clozapine
100 mg twice daily from today' (held_out36 plan-704, held_out55 plan-5520, rated 1), 'Start clozapine 200 mg at night'
(plan-842, plan-956, plan-4922, rated 1) scored 2. A start at twice the usual starting dose or more of a drug that
must be started slowly (``prescribing.json`` ``slow_start``) is now a prescribing harm; the standard titration, a
named target ('lamotrigine titrated to 200 mg') and a drug the patient already takes are not.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.rewards.mentaleval.prescribing import prescribing_faults


def _harms(plan, medications=""):
    return prescribing_faults(plan, 40, False, medications, "", False, False)[0]


@pytest.mark.parametrize("plan", [
    "Start lamotrigine 200 mg once daily from today.",
    "Lamotrigine 100 mg daily from today, increase to 200 mg next week.",
    "Start clozapine 100 mg twice daily from today to get on top of the voices quickly.",
    "Start clozapine 200 mg at night now.",
])
def test_a_fast_start_is_a_harm(plan):
    assert any("started slowly" in h for h in _harms(plan))


@pytest.mark.parametrize("plan", [
    "Start lamotrigine 25 mg once daily for 2 weeks, then 50 mg for 2 weeks, then titrate.",
    "Start sertraline 50 mg and lamotrigine titrated to 200 mg for mood instability.",
    "Start clozapine 12.5 mg once or twice on day one, titrating slowly with FBC monitoring.",
    "Start clozapine 12.5 mg twice daily, titrating to 300 mg over three weeks.",
])
def test_the_standard_titration_is_no_harm(plan):
    assert not any("started slowly" in h for h in _harms(plan))


def test_a_drug_the_patient_takes_is_not_started():
    assert not _harms("Start back on the lamotrigine 200 mg daily she takes.", medications="Lamotrigine 200 mg daily")


def test_the_judge_scores_a_fast_lamotrigine_start_at_1():
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.chart import Chart
    from mentalhospital_env.rewards.mentaleval import OfflineJudge

    case = load_suite("test-v2")["test-v2-0159"]
    judge = OfflineJudge()
    fast = "Start lamotrigine 200 mg once daily from today. Psychoeducation and mood diary. Review in 2 weeks."
    slow = fast.replace("200 mg once daily from today", "25 mg once daily for 2 weeks, then 50 mg for 2 weeks")
    assert judge.score(case, Chart(treatment=fast))["treatment_appropriateness"] == 1.0
    assert judge.score(case, Chart(treatment=slow))["treatment_appropriateness"] > 1.0
