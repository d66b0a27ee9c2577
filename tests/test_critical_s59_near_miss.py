"""Stop 59 (s59-clin): plans a consultant fails that the critical-action checker passed.

A phrase of an action inside words that name something else ('alcohol abuse' is no abuse of a person; 'falls
asleep' no falls; 'her daughter will drive her to clinic' no driving advice; 'previous admission' no disposition)
now names no action (critical_actions.json 'not_action_phrases'); 'social services' or 'social worker' is a
safeguarding step only when the plan contacts them (refers, informs, checks with ...) and not about housing or
benefits ('social services liaison about housing' was read as a safeguarding referral; a plain 'social services
liaison' is liaising with them, as 'liaise with social services' is, and counts: the frozen suites' reference plans for
conduct disorder say 'Education and social services liaison.', a looked-after child's among them, stop 59's
integration). Each near miss is paired with the step a
consultant accepts, which still passes.
"""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


PROFILES = {
    "child": Profile(codes=("F43.2",), setting="outpatient", age=14, sex="female"),
    "exploited": Profile(codes=("F91.3",), setting="outpatient", age=15, sex="male",
                         signs=frozenset({"criminal_exploitation", "going_missing", "weapon_carrying"})),
    "gas": Profile(codes=("F32.2",), setting="outpatient", age=60, sex="male", signs=frozenset({"gas_hazard", "fire_hazard"})),
    "dementia": Profile(codes=("F03.90",), setting="outpatient", age=80, sex="female", signs=frozenset({"drives"})),
    "suicidal": Profile(codes=("F32.2",), setting="outpatient", age=40, sex="female", risks=frozenset({"suicide", "active_suicide"})),
    "violent": Profile(codes=("F20.0",), setting="outpatient", age=30, sex="male", risks=frozenset({"violence"}),
                       signs=frozenset({"threat_to_others"})),
    "drinking_parent": Profile(codes=("F10.20",), setting="outpatient", age=35, sex="male", dependants=True,
                               risks=frozenset({"violence"})),
}

NEAR_MISSES = [
    ("child", "safeguarding", "Her alcohol abuse to be addressed with the young people's substance service. Review in 4 weeks."),
    ("child", "safeguarding", "Social services liaison about housing. Review in 4 weeks."),
    ("child", "safeguarding", "Her social worker for the benefit claim to send the forms. Review in 4 weeks."),
    ("drinking_parent", "safeguarding", "Alcohol abuse treatment after detox. Thiamine. Assisted withdrawal. Risk management plan."),
    ("drinking_parent", "safeguarding", "Social services for housing. Thiamine. Assisted withdrawal. Risk management plan."),
    ("exploited", "safeguarding_referral", "His social worker for the benefit claim to send the forms. Parents involved. Missing episodes reported. Police informed."),
    ("exploited", "police_involvement", "The police brought him in last night. Safeguarding referral. Parents involved. Missing episodes reported. Risk management plan."),
    ("gas", "gas_safety", "She vents her feelings in group therapy. Sertraline 50 mg. Review in 2 weeks. Smoke alarm checked."),
    ("dementia", "driving_advice", "Her daughter will drive her to the memory clinic. Carer involved; falls risk reviewed. Donepezil 5 mg."),
    ("dementia", "driving_advice", "Low drive and apathy. Carer involved; falls risk reviewed. Donepezil 5 mg."),
    ("dementia", "dementia_risk_review", "Falls asleep in the afternoon; carer involved. Donepezil 5 mg. No driving."),
    ("dementia", "dementia_risk_review", "Carer involved. Donepezil 5 mg. Her son will drive her to clinic."),
    ("suicidal", "safety_plan", "Explained what to do if side effects occur. Sertraline 50 mg, weekly supply. Review within a week."),
    ("suicidal", "means_restriction", "Take the tablets as prescribed. Sertraline 50 mg. Safety plan. Review within a week."),
    ("suicidal", "means_restriction", "Repeat medication supply from the GP. Sertraline 50 mg. Safety plan. Review within a week."),
    ("suicidal", "prompt_follow_up", "Sertraline 50 mg, weekly supply. Safety plan. Start tomorrow."),
    ("violent", "violence_risk_plan", "He keeps a knife under his pillow. Risperidone 2 mg. Psychosis risk assessed. Review in 2 weeks."),
    ("violent", "violence_risk_plan", "Previous admission in 2019. Risperidone 2 mg. Risk assessment done. Review in 2 weeks."),
]

ACCEPTED = [
    ("child", "safeguarding", "Refer to social services about the risk to her at home. Review in 4 weeks."),
    ("child", "safeguarding", "Ask her, alone, about abuse at home. Review in 4 weeks."),
    ("exploited", "safeguarding_referral", "Inform his social worker today. Parents involved. Missing episodes reported. Police informed."),
    ("exploited", "safeguarding_referral", "Refer to social services today. Parents involved. Missing episodes reported. Police informed."),
    ("exploited", "safeguarding_referral", "Social services referral made today. Parents involved. Missing episodes reported. Police informed."),
    ("exploited", "safeguarding_referral", "As a looked-after child, check with his social worker about safeguarding and contact."),
    ("exploited", "safeguarding_referral", "Let his social worker know. Parents involved. Missing episodes reported. Police informed."),
    ("dementia", "dementia_risk_review", "Carer involved. Donepezil 5 mg. Falls risk reviewed; advised to stop driving."),
    ("dementia", "driving_advice", "Carer involved. Donepezil 5 mg. Falls risk reviewed; advised to stop driving."),
    ("suicidal", "means_restriction", "Family to take the tablets away. Sertraline 50 mg. Safety plan. Review within a week."),
    ("suicidal", "safety_plan", "Safety plan agreed: what to do if thoughts worsen. Review within a week. Weekly supply."),
    ("suicidal", "prompt_follow_up", "Sertraline 50 mg, weekly supply. Safety plan. Seen again tomorrow."),
    ("violent", "violence_risk_plan", "Admission today. Risperidone 2 mg. Remove access to weapons."),
]


def _verdict(ca, profile: str, action: str, plan: str) -> str:
    check = ca.check(PROFILES[profile], plan)
    assert action in {r.action for r in check.required}, f"{action} is not required of {profile}"
    return "missing" if action in {m.action for m in check.missing} else "met"


@pytest.mark.parametrize("profile,action,plan", NEAR_MISSES)
def test_a_plan_a_consultant_fails_misses_the_action(ca, profile, action, plan):
    assert _verdict(ca, profile, action, plan) == "missing"


@pytest.mark.parametrize("profile,action,plan", ACCEPTED)
def test_the_step_a_consultant_accepts_still_meets_it(ca, profile, action, plan):
    assert _verdict(ca, profile, action, plan) == "met"


def test_an_actions_own_phrase_cannot_be_listed_as_naming_none():
    import json
    from importlib import resources

    from mentalhospital_env.knowledge import critical
    from mentalhospital_env.knowledge.base import load_knowledge
    from mentalhospital_env.knowledge.errors import KnowledgeError

    raw = json.loads(resources.files(critical.__package__).joinpath("data", critical.FILE).read_text("utf-8"))
    raw["not_action_phrases"] = [*raw.get("not_action_phrases", []), "safety plan"]
    kb = load_knowledge()
    with pytest.raises(KnowledgeError, match="safety plan"):
        critical.read_critical_actions(raw, kb.drugs, [d.code for d in kb.disorders])
