"""Stop 60 (s60-clin): hw-021, a man of 26 with schizophrenia whose daughter of 3 stays with him alternate weekends,
answered 'Do you have children or anyone who depends on you?' with 'I live alone in a housing association flat.', which
its word 'alone' took for an answer: his child was never heard of and the plan had no step for her care. Living alone
says nothing of a child who lives with the other parent: such an answer is asked again, in words that name a child who
lives elsewhere (reask.questions.dependants; 'alone' and 'on my own' are no longer the topic's words)."""

from __future__ import annotations

from tests.scripted_encounters import questions


def reply(question: str) -> str:
    q = question.lower()
    if "brought you" in q:
        return "The neighbour is filming me through the walls."
    if "who do you live with" in q or "depends on you" in q:
        return "I live alone in a housing association flat."
    return "No, not really."


def test_living_alone_is_no_answer_to_who_depends_on_him():
    asked = questions("Inpatient ward. A 26-year-old man is here to see you, alone.", reply, "Mother")
    assert any("live with someone else or stay with you some of the time" in q for q in asked), asked


def test_a_plain_no_children_answers_it():
    def no_children(question: str) -> str:
        if "depends on you" in question.lower():
            return "No, I don't have any children, nobody depends on me."
        return reply(question)
    asked = questions("Inpatient ward. A 26-year-old man is here to see you, alone.", no_children, "Mother")
    assert not any("live with someone else or stay with you some of the time" in q for q in asked), asked


def test_the_only_child_he_was_names_no_child_at_home():
    from tests.scripted_encounters import with_findings, write
    # test-v2-0332 at s60 head: asked again who depends on him, 'I was an only child. Quiet, but fine.'
    doctor = with_findings("Emergency department. A 55-year-old man is here to see you, alone.",
                           present={"dependants": "I was an only child. Quiet, but fine.",
                                    "alcohol_use": "Most days it's vodka, half a bottle."},
                           answers={"living_situation": "I live with my partner.",
                                    "dependants": "I was an only child. Quiet, but fine."})
    plan = write(doctor, "treat")
    assert "The children at home" not in plan, plan
