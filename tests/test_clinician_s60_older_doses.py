"""Stop 60 (s60-clin): hw-024, a man of 82 with a first psychosis late in life, was started on risperidone 2 mg (an
adult's dose) and referred to the early intervention in psychosis service (the knowledge base's own plan item, whatever
the age). From 65 an antipsychotic starts at an older adult's dose (plan.older_adult_doses: start low, go slow), and
the early intervention service, age-bounded (plan.first_episode_psychosis 'min_age'-'max_age'), gives way past its
ages to the older adults' community team."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write

PSYCHOSIS = {
    "auditory_hallucinations": "I hear banging and whispering through the wall at night.",
    "persecutory_delusions": "They're coming through the loft to get me, and nobody will do a thing about it.",
}


def plan_at(age: int) -> str:
    doctor = with_findings(f"Outpatient clinic. A {age}-year-old man is here to see you, alone.", present=PSYCHOSIS,
                           denied={"low_mood", "elevated_mood", "drug_use"})
    return write(doctor, "treat")


def test_an_older_adult_starts_an_antipsychotic_low_and_is_not_sent_to_early_intervention():
    plan = plan_at(82)
    assert "risperidone 0.5 mg" in plan and "risperidone 2 mg" not in plan, plan
    assert "early intervention" not in plan.lower(), plan
    assert "older adults' community mental health team" in plan, plan


def test_a_young_adult_keeps_the_adult_dose_and_the_early_intervention_service():
    plan = plan_at(30)
    assert "risperidone 0.5 mg" not in plan and "older adults'" not in plan, plan
    assert "early intervention in psychosis service" in plan, plan
