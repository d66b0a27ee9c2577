"""Stop 60 (s60-clin): new trouble with attention or memory in middle or late life was screened as adult ADHD
(uw-033, a widow of 67 with new fluctuating attention: 'How easy is it to sit still, for example in a meeting or a
class?', 'What were you like as a child at school?'; uw-032, a man of 47; hw-028, 74). The ADHD screen after a poor
concentration is now a young adult's (screen_when: 'max_age'), or anyone's who tells it as lifelong; from 45 a
memory change, and from 65 a poor concentration too, opens the later-life route (complaint_domains'
later_life_cognition): how it came and has gone, whether it comes and goes, falls and safety at home, driving. A
driver on that route is advised on driving in the plan (plan.cognition_driving: hw-028, 'I drive locally', had none)."""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import ScriptedClinician

from tests.scripted_encounters import questions, write


def reply(question: str) -> str:
    q = question.lower()
    if "brought you" in q:
        return "I can't concentrate any more and I keep losing track of things."
    if "concentrat" in q:
        return "My concentration is terrible, I lose track of what I'm reading."
    if "drive" in q:
        return "Yes, I drive to the shops most days."
    if "falls" in q:
        return "I burnt a pan last week."
    return "No, not really."


def walk_in(age: int) -> str:
    return f"Outpatient clinic. A {age}-year-old woman is here to see you, alone."


def asked(age: int) -> str:
    return "\n".join(questions(walk_in(age), reply, "Daughter")).lower()


def test_new_poor_concentration_at_67_takes_the_later_life_route_not_an_adhd_screen():
    questions = asked(67)
    assert "sit still" not in questions and "as a child at school" not in questions, questions
    assert "come and go" in questions, questions  # fluctuation: a delirium or a Lewy body dementia
    assert "any falls" in questions and "the cooker or the gas" in questions, questions
    assert "still drive" in questions, questions


def test_a_young_adult_with_poor_concentration_is_still_screened_for_adhd():
    questions = asked(28)
    assert "sit still" in questions and "as a child at school" in questions, questions
    assert "come and go" not in questions and "still drive" not in questions, questions


def test_at_47_a_poor_concentration_alone_opens_neither_the_adhd_screen_nor_old_age_questions():
    questions = asked(47)
    assert "sit still" not in questions and "as a child at school" not in questions, questions
    assert "any falls" not in questions and "still drive" not in questions, questions


def test_a_driver_on_the_later_life_route_is_advised_on_driving():
    doctor = ScriptedClinician()
    info = {"turn_budget": 40}
    doctor.reset({"text": walk_in(70)}, info)
    text = walk_in(70)
    for _ in range(40):
        out = doctor.act({"text": text}, dict(info, allowed_actions=["ask"]))
        m = re.fullmatch(r"<ask>(.*)</ask>", out, re.DOTALL)
        if not m:
            break
        text = "Patient: " + reply(m.group(1))
    plan = write(doctor, "treat")
    assert "Driving: while the memory and attention change is assessed" in plan, plan
