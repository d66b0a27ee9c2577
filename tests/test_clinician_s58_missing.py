"""Stop 58 (s58-clin): hw-027, a boy of 14 who told of new trainers and a second phone his mother could not account for,
and older boys in a car who pick him up from the estate (signs of criminal exploitation), was never asked whether he
goes missing: the missing screen waited for rule-breaking or aggression, and when it did fire the generic screen held
the turns. Asked, he said 'I've been truanting, staying out until 2 to 3 a.m.', which his note filed under 'Missing
episodes', and his plan still had no missing-episode plan. Signs of a child's exploitation now call for the missing
screen, which may take a last screening question's turn, and a missing episode the note files has its plan."""

from __future__ import annotations

from tests.scripted_encounters import ask, start, with_findings, write

_WALK_IN = "Outpatient clinic. A 14-year-old boy is here to see you, accompanied by his mother."


def test_signs_of_exploitation_call_for_the_missing_screen():
    doctor = start(_WALK_IN)
    question = ask(doctor, "Patient: I have new trainers and a second phone that my mum can't account for, and older "
                           "boys in a car pick me up from the estate.")
    asked = [question] + [q for q, _ in doctor.plan]
    assert any("stayed out all night" in q for q in asked), asked


def test_a_missing_episode_told_has_its_plan():
    doctor = with_findings(_WALK_IN, present={
        "rule_violations": "I've been excluded for fighting.",
        "aggression": "I threatened a teacher.",
    })
    doctor.findings.replies.append(("Have you ever stayed out all night?", "I've been truanting, staying out until 2 to 3 a.m."))
    plan = write(doctor, "treat")
    assert "Missing episodes: the parent reports the child missing to the police at once" in plan, plan


def test_a_child_being_exploited_has_the_referral_in_its_own_words():
    doctor = with_findings(_WALK_IN, present={
        "rule_violations": "I've been excluded for fighting.",
        "aggression": "I threatened a teacher.",
        "serious_rule_violations": "I've been truanting most weeks.",
    })
    doctor.findings.replies.append(("What's on your mind?", "I have new trainers and a second phone that my mum can't "
                                    "account for, and older boys in a car pick me up from the estate."))
    plan = write(doctor, "treat")
    assert "Safeguarding referral today to children's social care" in plan, plan
    assert plan.count("Safeguarding referral today") == 1, plan
