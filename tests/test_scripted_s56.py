"""Stop 56 (s56-clin): faults a consultant marked down in the scripted clinician's plans (held_out55's ratings,
/work/notes/s55/closing55.md 'Noticed and left alone'), chosen by how many of 40 test-v2 cases
(random.Random(5601).sample, the fresh slice removed) show them, each fixed by a mechanism meant to carry to cases not
seen."""

from __future__ import annotations

import pytest

from tests.scripted_encounters import played


def _played(case_id: str, suite: str = "test-v2"):
    return played(case_id, suite)


CHILDREN_SENTENCE = "The children at home: who cares for them"


@pytest.mark.parametrize("case_id", ["test-v2-0213", "test-v2-0284"])
def test_children_at_home_beside_a_dependence_are_asked_about(case_id):
    # held_out55's consultant on test-v2-0213 ('nothing on the two children's safety'; the record: 'With two children in
    # the household and drinking at 13 units of beer a day, their safety is a safeguarding question for the plan'), and
    # test-v2-0284 of the 40 sampled (seed 5601): a dependent drinker who said 'I live with my partner and our two
    # children' got a plan that never named them. A dependence believed beside children at home gets the safeguarding
    # step worded for the children (who cares for them, whether they have seen the drinking, children's social care)
    chart = _played(case_id)
    assert any(c.startswith("F10.2") for c in chart.disorders), chart.disorders
    assert CHILDREN_SENTENCE in chart.treatment, chart.treatment


def test_a_dependence_with_nobody_at_home_depending_gets_no_childrens_sentence():
    # test-v2-0059: dependent drinking, a past withdrawal fit, 'No, nobody depends on me': no children are invented
    chart = _played("test-v2-0059")
    assert any(c.startswith("F10.2") for c in chart.disorders), chart.disorders
    assert CHILDREN_SENTENCE not in chart.treatment, chart.treatment
    assert "children" not in chart.treatment.lower(), chart.treatment


def _follow_up(plan: str) -> str:
    import re

    return " ".join(re.findall(r"Follow-up[^.]*\.", plan))


def test_a_violent_adolescent_is_not_reviewed_only_every_six_to_twelve_months():
    # held_out55's consultant on test-v2-0439 (plan 3/5): 'follow-up every 6-12 months is far too sparse for an
    # escalating, violent, bullied 14-year-old'. The intellectual disability's maintenance interval opened the plan's
    # follow-up though a risk to others was heard and a risk management plan agreed. A follow-up that opens with an
    # interval of months gets an early review while a risk to others or of suicide is managed (plan.follow_up_sooner)
    chart = _played("test-v2-0439")
    assert chart.disorders[0].startswith("F7"), chart.disorders
    follow = _follow_up(chart.treatment)
    assert "Risk to others" in chart.treatment, chart.treatment
    assert follow.startswith("Follow-up: within 1-2 weeks"), follow


def test_a_first_assessment_of_an_intellectual_disability_has_a_first_review_before_the_yearly_ones():
    # test-v2-0433 of the 40 sampled (seed 5601): an intellectual disability and autism recognised at 36, adapted CBT,
    # positive behaviour support and social care referred, and the first review 'every 6-12 months' (the reference:
    # every 3-6 months). A first assessment of a lifelong condition whose routine reviews are months apart has a first
    # review once the referrals are made (plan.follow_up_sooner.first_review_codes)
    chart = _played("test-v2-0433")
    assert chart.disorders[0].startswith("F7"), chart.disorders
    follow = _follow_up(chart.treatment)
    assert follow.startswith("Follow-up: a first review in 4-6 weeks"), follow
    assert "6-12 months" in follow, follow


def test_a_months_long_follow_up_of_another_disorder_without_risk_is_left():
    # test-v2-0290: a mild neurocognitive disorder, no risk heard: its cognitive testing in 6-12 months is its own
    # schedule, no early review is added
    chart = _played("test-v2-0290")
    follow = _follow_up(chart.treatment)
    assert follow == "Follow-up: repeat cognitive testing in 6-12 months.", follow


def test_not_eating_in_an_acute_psychosis_is_no_referral_to_an_eating_disorder_service():
    # held_out55's consultant on test-v2-0070 (plan 3/5): 'refers to a specialist eating disorder service a man who is
    # not eating because of psychosis'. 'Lately I'm not eating or sleeping', told beside voices and a belief that someone
    # wants to kill him, was read as an eating disorder's restriction (plan_safety.findings_imply), as eating little
    # with a poor appetite once was; a psychotic finding heard explains it as well (findings_explained_by)
    chart = _played("test-v2-0070")
    assert chart.disorders[0].startswith("F2"), chart.disorders
    assert "eating disorder service" not in chart.treatment, chart.treatment
    assert "F50" not in " ".join(chart.disorders), chart.disorders


def test_a_psychosis_of_two_days_leads_as_a_brief_psychotic_disorder_though_off_the_differential():
    # held_out55's consultant on test-v2-0070 (note 3/5): 'labels a two-day illness paranoid schizophrenia (brief
    # psychotic disorder not even in the differential)'. The lead whose minimum duration the illness heard has not met
    # gave way only to a disorder on the differential that fits (duration_principal); schizophrenia, unspecified
    # schizophrenia and a schizoaffective disorder filled it. A disorder of the lead's category ranked further down,
    # with findings of its own heard and a duration rule the illness fits, now leads; the old lead stays beside it
    chart = _played("test-v2-0070")
    assert chart.disorders[0] == "F23", chart.disorders
    assert any(c.startswith("F20") for c in chart.disorders[1:]), chart.disorders


def test_a_brief_psychosis_in_a_man_gets_no_postpartum_safety_item():
    # the brief psychotic disorder's safety item 'in postpartum onset, assess risk to the infant' (knowledge data) was
    # copied onto the plan of a man of 25 with no baby (test-v2-0070, once it led as F23). An item for an illness after a
    # birth is said only where a birth was told (plan.after_a_birth_only, read with after_a_birth.said)
    chart = _played("test-v2-0070")
    assert chart.disorders[0] == "F23", chart.disorders
    assert "postpartum" not in chart.treatment and "infant" not in chart.treatment, chart.treatment
    assert "assess risk to self and others" in chart.treatment, chart.treatment


def test_a_short_history_of_a_disorder_with_a_long_minimum_does_not_lead_as_another_of_its_category():
    # hw-025 (read after the brief psychosis lead, 0403734a): premenstrual mood symptoms for two months, a premenstrual
    # dysphoric disorder provisional (it needs a year of cycles) with its diary over two cycles, became a moderate
    # depressive episode started on sertraline, found off the differential because it fits two months. Only the
    # time-limited form of the category (a duration rule with a maximum the illness fits: a brief psychotic disorder, an
    # acute stress reaction) leads from off the differential
    chart = _played("hw-025", "handwritten")
    assert chart.disorders[0] == "F32.81", chart.disorders
    assert "symptom diary" in chart.treatment, chart.treatment
