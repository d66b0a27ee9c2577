"""Stop 48, question -> which facts are told (uw-021 and uw-020, read by hand at stop 47).

uw-021 (Des Halloran, 61, Korsakoff syndrome): a direct question on suicidal thoughts was denied from the GP's
October screen though the psychiatrist's later note records the thoughts; "Who do you live with?" and "Do you have
children?" went unanswered though the record gives his wife and his daughter and son; the current medicines were
answered "I used to take thiamine.". uw-020: a clinician's verb ("confirms the handgun episode") was said in the
patient's mouth to four risk questions in a row.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.decide import _opened, _subjects_told
from mentalhospital_env.patient.recall import _says_only_ended

UNSEEN = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "patient_exam" / "unseen"


def _case(name: str):
    return load_suite(UNSEEN / f"{name}.json").cases[0]


@pytest.fixture(scope="module")
def des():
    return _case("uw-021")


def _ask(case, *questions: str) -> list[str]:
    patient = make_patient(case, "full", seed=13)
    return [patient.respond(q).text for q in questions]


def test_a_later_account_outranks_an_earlier_screens_denial(des) -> None:
    (reply,) = _ask(des, "Have you thought of being dead or of ending your life?")
    low = reply.lower()
    assert "never had thoughts" not in low and "haven't had any thoughts" not in low, reply
    assert "trev" in low or "ending my life" in low, reply  # told, not deflected: a deflection is no answer


def test_a_denial_written_after_the_finding_still_stands(des) -> None:
    # the same record with the GP's denial moved after the psychiatrist's account: the later screen is the record's word
    facts = list(des.facts)
    denial = next(f for f in facts if f.text.strip() == "Denies suicidal ideation.")
    facts.remove(denial)
    moved = replace(des, facts=tuple(facts) + (denial,))
    patient = make_patient(moved, "full", seed=13)
    memory = patient.memory
    account = [f for f in patient.index.affirming.get("suicidal_ideation", ()) if f.present]
    assert account
    denials = [f for f in patient.index.ruling_out.get("suicidal_ideation", ()) if f.tellable]
    assert denials and not memory._stated_after("suicidal_ideation", denials)


def test_who_he_lives_with_is_his_wife(des) -> None:
    (reply,) = _ask(des, "Who do you live with?")
    assert "wife" in reply.lower(), reply


def test_his_children_are_named_from_the_family_history(des) -> None:
    (reply,) = _ask(des, "Do you have children?")
    assert "daughter" in reply.lower() or "son" in reply.lower().split(), reply
    assert "salary" not in reply.lower() and "dogs" not in reply.lower(), reply


def test_what_he_takes_now_is_not_what_he_used_to_take(des) -> None:
    (reply,) = _ask(des, "What medicines do you take at the moment?")
    assert "used to" not in reply.lower(), reply
    assert "i take" in reply.lower(), reply


def test_words_that_only_say_a_thing_is_over() -> None:
    assert _says_only_ended("I used to take thiamine.")
    assert not _says_only_ended("I take folic acid and omeprazole. I used to take candesartan.")
    assert not _says_only_ended("I take sertraline.")
    assert not _says_only_ended("")


def test_a_chart_verb_is_never_the_patients() -> None:
    case = _case("uw-020")
    patient = make_patient(case, "full", seed=13)
    told = [f for f in patient.index.facts if f.tellable]
    assert not any("I confirm" in (f.fact.patient_says or "") for f in told)
    replies = [patient.respond(q).text for q in (
        "When things are at their worst, have you thought about how you might end your life?",
        "Have you ever tried to end your life?",
    )]
    assert not any("confirm" in r.lower() for r in replies), replies
    # the plan in her own quoted words ("'if nothing's fixed by Christmas I don't see the point'", a quote with an
    # apostrophe inside it), then the act when asked about trying
    assert "christmas" in replies[0].lower(), replies
    assert "handgun" in replies[1].lower(), replies


def test_a_habit_told_opens_its_details_but_not_the_risk_beside_it(des) -> None:
    patient = make_patient(des, "full", seed=13)
    index = patient.index
    drink = next(f for f in index.facts if f.sensitive and f.present and "alcohol" in f.topics
                 and not {"suicide", "self_harm"} & set(f.topics))
    opened = _subjects_told({drink.id}, index)
    assert "alcohol" in opened
    assert _subjects_told(set(), index) == frozenset()
    risky = [f for f in index.facts if "alcohol" in f.topics and "suicide" in f.topics]
    assert risky and all(not _opened(f, opened) for f in risky)
    plain = [f for f in index.facts if f.topics == ("alcohol",)]
    assert plain and all(_opened(f, opened) for f in plain)


def test_after_telling_the_thoughts_he_does_not_deny_them(des) -> None:
    first, second = _ask(
        des,
        "Sometimes when people feel this low, they have thoughts that life is not worth living. What thoughts like that "
        "have you had?",
        "Have you ever tried to end your life?",
    )
    assert "trev" in first.lower(), first
    assert "not that sort" not in first.lower(), first  # the earlier screen's line, filed under suicide, not tacked on
    assert "haven't had any thoughts" not in second.lower() and "never had thoughts" not in second.lower(), second


def test_the_drink_told_does_not_open_the_cannabis() -> None:
    # review s48 MUST 9: the rule is per habit. uw-016 tells the drink ('to get through' anything social); a line that
    # also tells the cannabis he hides ("Diagnosis: depression; cannabis use; alcohol misuse.") is not opened by it
    patient = make_patient(_case("uw-016"), "full", seed=13)
    index = patient.index
    drink = next(f for f in index.facts if f.sensitive and f.present and "alcohol" in f.topics
                 and "cannabis" not in f.topics and "drinks" in f.fact.text.lower())
    opened = _subjects_told({drink.id}, index)
    assert "alcohol" in opened and "cannabis" not in opened
    both = [f for f in index.facts if f.sensitive and {"alcohol", "cannabis"} <= set(f.topics)]
    assert both and not any(_opened(f, opened) for f in both), [f.fact.text for f in both if _opened(f, opened)]
    drink_only = [f for f in index.facts if f.sensitive and "alcohol" in f.topics and "cannabis" not in f.topics
                  and "suicide" not in f.topics and f.id != drink.id]
    assert drink_only and any(_opened(f, opened) for f in drink_only)
    # both told: the line on both is open
    weed = next(f for f in index.facts if f.sensitive and f.present and f.topics == ("onset", "cannabis"))
    assert any(_opened(f, _subjects_told({drink.id, weed.id}, index)) for f in both)


def test_a_list_of_denials_answers_by_its_own_item_after_another_was_affirmed() -> None:
    # review s48 MUST 8: uw-016 tells being watched at the till (read as persecutory), then is asked about special
    # messages; the chart's list "No belief of being followed, monitored, of special messages, TV/radio referring to
    # him" is close to the question by its own item, not by the one affirmed, and is still his answer
    replies = _ask(
        _case("uw-016"),
        "Thank you for coming in today. I'd like to understand what has been happening for you. What has brought you "
        "here?",
        "When did you first notice this, and how has it changed since then?",
        "Was anything going on in your life around the time it started?",
        "Thank you for telling me. How is this affecting your day-to-day life?",
        "You mentioned you're not crazy. That's a lot to carry. How do you feel other people have been treating you, "
        "and is anyone against you?",
        "You told me you go red, you look like an idiot. I'm sorry it has been so difficult. Do you ever hear voices "
        "or sounds when nobody is around?",
        "Do things on TV, online or around you ever seem to carry special messages for you?",
    )
    assert "special messages" in replies[-1].lower(), replies[-1]
