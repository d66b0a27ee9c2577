"""Stop 60 (s60-clin): uw-033, a widow of 67 with a year of fluctuating attention, falls, things seen, a
'presynaptic nigrostriatal dopaminergic deficit' and 'a severe extrapyramidal reaction at 5 mg' of aripiprazole, was
started on olanzapine (and, once her cognition was asked, haloperidol and quetiapine). From 60, a parkinsonism or a
severe stiffness on an antipsychotic told keeps every antipsychotic out of the plan, which says why
(plan.antipsychotic_sensitivity); a young adult's reaction to one drug does not."""

from __future__ import annotations

from mentalhospital_env.knowledge.critical import load_critical_actions
from tests.scripted_encounters import with_findings, write

PSYCHOSIS = {
    "auditory_hallucinations": "I hear people talking in the house at night.",
    "persecutory_delusions": "They're coming through the loft to get me.",
}
REACTION = ("Are you allergic to any medicines?",
            "I'm allergic to aripiprazole, it gave me a severe extrapyramidal reaction at 5 mg.")


def plan_at(age: int, reply: tuple[str, str] = REACTION) -> str:
    doctor = with_findings(f"Outpatient clinic. A {age}-year-old woman is here to see you, alone.", present=PSYCHOSIS,
                           answers={"allergies": reply[1]}, denied={"low_mood", "elevated_mood", "drug_use"})
    doctor.findings.replies.append(reply)
    return write(doctor, "treat")


def test_an_older_adult_with_a_severe_stiffness_on_an_antipsychotic_is_started_on_none():
    plan = plan_at(70)
    assert "antipsychotic" not in load_critical_actions().proposed(plan), plan
    assert "Avoid antipsychotics" in plan and "stroke and death" in plan, plan


def test_a_parkinsonism_told_keeps_antipsychotics_out_too():
    plan = plan_at(75, ("Do you have any physical health problems?", "I have Parkinson's disease, diagnosed in 2020."))
    assert "antipsychotic" not in load_critical_actions().proposed(plan), plan


def test_a_young_adult_with_a_reaction_to_one_drug_still_gets_an_antipsychotic():
    plan = plan_at(30)
    assert "antipsychotic" in load_critical_actions().proposed(plan), plan
    assert "Avoid antipsychotics" not in plan, plan
