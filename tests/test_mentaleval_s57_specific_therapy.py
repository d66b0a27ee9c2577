"""Stop 57 (s57-judge): a generic 'CBT' is not the principal disorder's specific CBT when another disorder of the case
calls for the generic one.

The scripted clinician's depression plans for a principal binge-eating disorder (held_out46 plan-1308), gambling
disorder (plan-1314) and body dysmorphic disorder (held_out45 plan-1248), each rated 3 ('it ignores the binge eating
she was referred for'), had their 'cognitive behavioural therapy' read as 'cognitive behavioural therapy for binge
eating' (the qualifier is cut off so that 'CBT' names it), and scored 4.6. Where a comorbid disorder calls for the
generic therapy and the plan says nothing of what the specific one is for (its qualifier's words, or the synonyms of
``cues.json`` ``therapy_topic_synonyms``: 'CBT aimed at the appearance preoccupation'), the CBT is the comorbid
disorder's, and the plan that treats only it is held to 3 as one that leaves the principal disorder untreated.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.rewards.chart import Chart
from mentalhospital_env.rewards.mentaleval import OfflineJudge

DEPRESSION_PLAN = ("Start sertraline 50 mg once daily. Refer for cognitive behavioural therapy and behavioural "
                   "activation. Ask about suicidal thoughts at every visit. Review in 2 weeks.")


@pytest.fixture(scope="module")
def judge():
    return OfflineJudge()


def _plan(judge, case_id, text):
    case = load_suite("test-v2")[case_id]
    return judge.readings(case, Chart(treatment=text))["plan"], judge.score(case, Chart(treatment=text))


def test_a_depression_plan_for_a_binge_eating_disorder_leaves_it_untreated(judge):
    reading, scores = _plan(judge, "test-v2-0174", DEPRESSION_PLAN)  # binge eating, with depression and GAD
    assert not reading.first_line_therapies
    assert any("nothing aimed at the principal disorder" in g for g in reading.gaps)
    assert scores["treatment_appropriateness"] <= 3.0


@pytest.mark.parametrize("therapy", [
    "cognitive behavioural therapy for the binge eating",
    "CBT focused on the bingeing, with regular meals",
])
def test_the_specific_cbt_named_for_its_topic_counts(judge, therapy):
    reading, _ = _plan(judge, "test-v2-0174", DEPRESSION_PLAN.replace("cognitive behavioural therapy", therapy))
    assert reading.first_line_therapies
    assert not any("nothing aimed at the principal disorder" in g for g in reading.gaps)


def test_cbt_aimed_at_the_appearance_preoccupation_is_cbt_for_bdd(judge):
    plan = ("Fluoxetine 10 mg. CBT aimed at the appearance preoccupation and CBT for social anxiety. "
            "Written safety plan. See within a week.")
    reading, _ = _plan(judge, "test-v2-0110", plan)  # body dysmorphic disorder with social anxiety
    assert not any("nothing aimed at the principal disorder" in g for g in reading.gaps)
