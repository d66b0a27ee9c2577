"""Stop 37's answers of the offline patient (issue 13) that did not answer the question, through the public API
(make_patient, Patient.respond).

Each premise is checked against the record before the reply is judged, so a redrawn or edited record fails loudly
instead of passing for nothing."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient


def _case(suite: str, case_id: str):
    return next(c for c in load_suite(suite).cases if c.case_id == case_id)


def _replies(case, *questions: str, seed: int = 3) -> list[str]:
    patient = make_patient(case, variant="full", seed=seed)
    return [patient.respond(q).text for q in questions]


def _record(case) -> str:
    ehr = case.ehr
    return " ".join(str(getattr(ehr, f, "") or "") for f in (
        "history_of_present_illness", "past_psychiatric_history", "risk_assessment", "medications"))


# stop 46 marked this strict xfail (moved by the topic reader deciding alone); stop 49's answer fixer (a sentence that
# alone answers how a treatment went is kept though told before: recall.json outcome) makes it pass again
def test_how_a_treatment_went_is_told_the_sentence_that_says_it_though_told_before():
    # hw-003: "How did you get on with it?" after the citalopram was told got "Like I said, I was treated for
    # depression with citalopram at 27", not how it went
    case = _case("handwritten", "hw-003")
    assert "wired and reckless" in _record(case) and "citalopram" in _record(case)
    first, then = _replies(case, "Have you had treatment for your mood before?", "How did you get on with it?")
    assert "citalopram" in first.lower()
    assert "wired" in then.lower() or "stopped it" in then.lower()


# stop 48: the topic reader read no topic in "What helped you last time?" (help_tried under its bar); a question read
# empty now keeps the cues' topics the reader gives 0.1 or more (understanding.EMPTY_FLOOR), and the reply is the
# treatment again ("As I said, both were treated by the GP with sertraline. It helped within six weeks.")
def test_what_helped_last_time_is_the_treatment_that_helped_not_a_sentence_sharing_a_word():
    # hw-001: "What helped you last time?" got "Over the last two months I've felt flat most days" ("last")
    case = _case("handwritten", "hw-001")
    assert "sertraline, which helped" in _record(case)
    _, then = _replies(case, "Have you ever felt like this before?", "What helped you last time?")
    assert "sertraline" in then.lower()
    assert "last two months" not in then.lower()
    # said again briefly, the sentence "It helped within six weeks." keeps the one it goes on from
    assert not then.split(", ", 1)[-1].startswith(("It ", "it "))


def test_a_subject_the_told_sentence_says_is_not_denied_beside_it():
    # hw-032: "How's your appetite and weight?" got "My weight hasn't changed." of a record that says he "has lost
    # about 2 kg"
    case = _case("handwritten", "hw-032")
    assert "lost about 2 kg" in _record(case)
    for questions in (("How's your appetite and weight?",),
                      ("Have you had thoughts that life isn't worth it?", "How's your appetite and weight?")):
        reply = _replies(case, *questions)[-1].lower()
        assert "weight hasn't changed" not in reply and "same weight" not in reply, reply
        assert reply.strip()


def test_a_record_that_says_eating_poorly_is_not_met_with_a_normal_appetite():
    # hw-010: "How are you eating?" got "My appetite's normal." where the risk assessment says "Eating poorly."
    case = _case("handwritten", "hw-010")
    assert "Eating poorly" in _record(case)
    reply = _replies(case, "How are you eating?")[0].lower()
    assert "normal" not in reply and "fine" not in reply and "good" not in reply, reply
    assert "appetite" in reply or "eat" in reply


def test_do_you_gamble_is_told_the_betting_not_the_drink_on_betting_nights():
    # hw-036: "What do you bet on?" got "I drink 20 to 25 units a week, more on betting nights."; the history's
    # "betting on football and online slots" was filed under no gambling topic (betting was no word of use)
    case = _case("handwritten", "hw-036")
    assert "betting on football and online slots" in case.ehr.history_of_present_illness
    for question in ("Do you gamble?", "What do you bet on?"):
        reply = _replies(case, question)[0]
        assert "football" in reply.lower() or "slots" in reply.lower(), reply
        assert not reply.lower().startswith(("i drink", "i suppose i drink")), reply


def test_the_first_time_it_happened_is_told_from_the_history_not_the_complaint_again():
    # hw-004: "Tell me about the first time it happened." after the complaint got the complaint said again
    case = _case("handwritten", "hw-004")
    assert "The first attack came out of the blue" in case.ehr.history_of_present_illness
    _, then = _replies(case, "What brings you to see us today?", "Tell me about the first time it happened.")
    assert "first attack" in then.lower() and "motorway" in then.lower(), then


def test_sudden_or_gradual_is_answered_how_it_came_on_not_only_when():
    # hw-008: "Has it come on suddenly, or gradually?" got the timeline's "About two years ago, I'd say."
    case = _case("handwritten", "hw-008")
    assert "Gradually worsening memory" in case.ehr.chief_complaint
    reply = _replies(case, "And your tablets?", "Has it come on suddenly, or gradually?")[-1].lower()
    assert "gradual" in reply or "slow" in reply, reply
