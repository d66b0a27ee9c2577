"""Stop 53 (s53-clin2): a plan must not read as starting a drug the patient takes now (a consultant rated such plans 3,
'written as if starting lithium'; the judge rule that caps them, s53-judge's started_while_taken, was reverted with
the judge merge by PREREGISTERED53 and waits on branch s53-judge). Played on test-v2 at 77f653e4, the scripted
clinician's plans for patients on lithium
were worded for a continuation (stop 51), but a mania's follow-up still read 'lithium level 5-7 days after starting'
for a woman on lithium for years (test-v2-0114, 0473); and a lithium stopped and restarted had its work-up worded
'Before starting lithium' (test-v2-0018, 0365), as if it were a first start."""

from __future__ import annotations

from tests.test_scripted_routes import encounter, replies

MANIA_ON_LITHIUM = [
    (r"brought you here", "I'm on top of the world, I don't need sleep, two hours and I'm raring to go. God has chosen me, he speaks to me."),
    (r"medicines do you take", "I take lithium 300 mg twice daily."),
    (r"help for your mental health before", "I have bipolar disorder, I've been on lithium for years."),
    (r"voices|hear", "Yes, God speaks to me out loud, I hear him clearly."),
    (r"high|energy|full of|spend", "I've spent thousands this week, I have so many plans, my thoughts are racing."),
]


def test_a_lithium_taken_is_followed_up_after_a_dose_change_not_after_starting():
    # test-v2-0473 (inpatient mania, lithium 300 mg twice daily): 'Follow-up: daily review as inpatient; lithium level
    # 5-7 days after starting.'
    out = encounter("Inpatient ward. A 30-year-old woman is here to see you, alone.", replies(MANIA_ON_LITHIUM))
    plan = out["treat"]
    assert "already takes lithium" in plan, plan
    assert "after starting" not in plan, plan
    assert "lithium level" in plan.split("Follow-up:")[-1], plan


BIPOLAR_STOPPED_LITHIUM = [
    (r"brought you here", "I'm so happy, I could hug everyone in this room. I don't need sleep, two hours and I'm raring to go."),
    (r"medicines do you take", "I take lithium, I'm on medication for my mental health, and I stopped the lithium a few weeks back."),
    (r"help for your mental health before", "I have bipolar disorder, lithium from the community team was stopped a few weeks ago."),
    (r"irritab|temper|nerves", "I'll be honest, everyone gets on my nerves."),
]


def test_a_lithium_stopped_and_restarted_has_a_restart_work_up():
    # test-v2-0365: 'restart lithium ...' then 'Before starting lithium: baseline renal function ...'
    out = encounter("Outpatient clinic. A 45-year-old man is here to see you, alone.", replies(BIPOLAR_STOPPED_LITHIUM))
    plan = out["treat"]
    assert "restart lithium" in plan, plan
    assert "Before starting lithium" not in plan, plan
    assert "Before restarting lithium" in plan and "eGFR" in plan and "thyroid" in plan, plan
    assert "On lithium already" not in plan, plan


BIPOLAR_STOPPED_VALPROATE = [
    (r"brought you here", "Ten days ago the trouble started, after my valproate was stopped. I don't need sleep, I'm full of plans."),
    (r"medicines do you take", "I take valproate, I'm on medication for my mental health, and I stopped the valproate a few weeks back."),
    (r"help for your mental health before", "I have bipolar disorder, valproate from the community team was stopped a few weeks ago."),
    (r"irritab|temper|nerves", "Everyone gets on my nerves."),
    (r"high|energy|spend", "I've spent a fortune this week and I haven't slept."),
]


def test_a_valproate_stopped_is_addressed_when_another_drug_is_chosen():
    # test-v2-0094: a relapse ten days after valproate was stopped; the plan started lithium and said nothing of the
    # valproate (why it was stopped, whether to restart it)
    out = encounter("Inpatient ward. A 34-year-old woman is here to see you, alone.", replies(BIPOLAR_STOPPED_VALPROATE))
    plan = out["treat"]
    assert "Valproate, which the patient says was stopped: ask why" in plan, plan
    assert "On valproate already" not in plan and "Before starting valproate" not in plan, plan
