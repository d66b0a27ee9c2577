"""Decide: what is said again is said "as I said" only when the doctor asks about it (stop 30, issue 13: a
psychiatrist's reading found "As I said / Like I said" leading content recycled to an unrelated question
in 9 of 10 such replies), and a rebuilt plan keeps every field of the plan it came from. Premises built
here: a fact, a question, a plan."""

from __future__ import annotations

from dataclasses import replace

from mentalhospital_env.cases.model import Fact
from mentalhospital_env.patient.decide import PersonaProfile, partial, said_again
from mentalhospital_env.patient.question import Question
from mentalhospital_env.patient.recall import AFFIRM, DENY, TELL, AnswerItem, AnswerPlan, IndexedFact


def _fact(text: str, topics: tuple[str, ...], affirms: frozenset[str] = frozenset()) -> IndexedFact:
    return IndexedFact(
        Fact("f1", "history_of_present_illness", text, patient_says=text), 0, affirms, frozenset(), frozenset(),
        True, False, False, {}, frozenset(), topics=topics,
    )


def _question(text: str, topics: tuple[str, ...], concepts: tuple[str, ...] = ()) -> Question:
    return Question(text, concepts, topics, False, None, False, False, text.lower(), items_asked=1)


def _plan(question: Question, fact: IndexedFact, stance: str = TELL, subject: str = "similar") -> AnswerPlan:
    return AnswerPlan(question, (AnswerItem(stance, subject, (fact,)),), again=True)


SMOKING = _fact("I gave up smoking years ago.", ("substances",))


def test_a_sentence_told_before_to_an_unrelated_question_is_not_said_as_said_before() -> None:
    plan = _plan(_question("What do you do for enjoyment these days?", ("enjoyment",)), SMOKING)
    decided = said_again(plan)
    assert decided.again is False
    assert decided.items == plan.items  # the words stay; only the "Like I said" is left off


def test_what_is_asked_again_is_said_as_said_before() -> None:
    # on a topic asked
    plan = _plan(_question("Do you still smoke?", ("substances",)), SMOKING)
    assert said_again(plan) is plan
    # sharing a word of substance with the question, whatever the topics
    checks = _fact("I check for lumps every day.", ("worry",))
    plan = _plan(_question("Do you check your body?", ("somatic",)), checks)
    assert said_again(plan) is plan
    # a yes to a concept asked
    plan = _plan(_question("Do you hear voices?", ("psychosis",), ("hallucinations",)), checks, AFFIRM, "hallucinations")
    assert said_again(plan) is plan


def test_partial_keeps_the_plan_s_again_and_asked() -> None:
    facts = [_fact(f"Thing {n} happened.", ("mood",)) for n in range(4)]
    question = replace(_question("How is your mood, sleep, appetite and energy?", ("mood",)), items_asked=4)
    plan = AnswerPlan(question, tuple(AnswerItem(TELL if n < 3 else DENY, "mood", (f,)) for n, f in enumerate(facts)),
                      again=True, asked=("low_mood",))
    persona = PersonaProfile("terse", 0.5, "partial", None, None, frozenset(), 1, 0.0, 0.0, 0.0, 2)
    cut, was_cut = partial(plan, persona)
    assert was_cut and len(cut.items) == 2
    assert cut.again is True and cut.asked == ("low_mood",)
