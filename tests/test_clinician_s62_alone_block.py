"""Stop 62 (integration; uw-035 at seed 13, read whole): Oscar, 15, was seen alone for his suicidal thoughts, plan,
intent, means, attempts and reasons to live, and his mother was asked back in before the self-harm, alcohol, drug and
tobacco questions, because the replies alone had put the home and family questions (the children's, asked after the
home's) ahead of them in the plan. While the companion waits outside, every private question still in the plan is
asked before any other, whatever the replies added since the step-out."""

from __future__ import annotations

import re

from tests.scripted_encounters import questions

TEEN = "Outpatient clinic. A 15-year-old boy is here to see you, accompanied by his mother."
OUT = re.compile(r"would you mind waiting outside for a few minutes\?")
BACK = re.compile(r"^Thank you for waiting, (?:[A-Z][a-z]+, )?please come back in\.$")
PRIVATE = re.compile(r"end your life|life is not worth living|hurt themselves|hurt yourself|harm yourself|alcohol|"
                     r"drugs|smoke or vape")


def _wishes_to_die(question: str) -> str:
    q = question.lower()
    if "not worth living" in q:
        return "I think I'd be better off dead. I've told nobody."
    if "act on" in q or "plans" in q:
        return "No. I don't have a plan."
    return "Dunno."


def test_every_private_question_is_asked_before_the_companion_comes_back():
    asked = questions(TEEN, _wishes_to_die, companion="Mother (Sara)")
    out = next(i for i, q in enumerate(asked) if OUT.search(q))
    back = next(i for i, q in enumerate(asked) if BACK.match(q))
    private = [i for i, q in enumerate(asked) if PRIVATE.search(q)]
    assert len(private) >= 5, asked
    assert all(out < i < back for i in private), [asked[i] for i in private if not out < i < back]
