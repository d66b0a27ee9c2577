"""What the record carries is never denied, what it lacks is never affirmed (issue 13, stop 23).

The stop-22 reader found the errors that matter where the diagnosis turns: a persecutory belief, a
threat and intrusive images met with the lexicon's stock denial, cannabis invented from "Home visit
(joint, CPN and SpR)", and a four-month illness dated "For a week now". These tests ask the same
kind of question of hw-015, hw-024 and a GP letter written for this stop (``uw-002``, which no code
of the patient was tuned on) and read the replies for the denial, not for one wording.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mentalhospital_env.cases import Fact, load_suite
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.recall import AFFIRM, load_recall_rules, meant, names_use
from mentalhospital_env.patient.question import read_question

LETTER = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "patient_exam" / "unseen" / "uw-002.json"


@pytest.fixture(scope="module")
def handwritten():
    return {c.case_id: c for c in load_suite("handwritten").cases}


def _patient(case, open_up: bool = False):
    patient = make_patient(case, "full", seed=3)
    if open_up:  # rapport as after a warm interview: sensitive findings may be told
        patient.representation.rapport.value = 1.0
    return patient


def test_other_words_for_a_finding_are_read_as_it() -> None:
    rules = load_recall_rules()
    assert {"hopelessness", "suicidal_ideation"} <= meant("She says her family would be better off without her.", rules)
    assert "homicidal_ideation" in meant("Said he would 'sort them out if the police won't'.", rules)
    assert "persecutory_delusions" in meant("He believes they pump gas through the vents to drive him out.", rules)
    assert "obsessions" in meant("Sudden pictures come into her head of the baby going under the water.", rules)
    # negated in its clause: nothing
    assert "homicidal_ideation" not in meant("No thoughts of harming others.", rules)
    assert "persecutory_delusions" not in meant("Denies that anyone is against him.", rules)


def test_a_substance_is_affirmed_only_by_a_sentence_of_using_it() -> None:
    rules = load_recall_rules()
    assert not names_use(Fact(id="h-1", section="history_of_present_illness", text="Home visit (joint, CPN and SpR)."), rules)
    assert names_use(Fact(id="h-2", section="history_of_present_illness", text="'I smoke weed every day,' he admits."), rules)
    assert names_use(Fact(id="s-1", section="substance_use", text="Cannabis, 2 g a day."), rules)


def test_the_persecutory_belief_is_told_not_denied(handwritten) -> None:
    reply = _patient(handwritten["hw-024"]).respond(
        "How do you feel other people have been treating you, and is anyone against you?").text.lower()
    assert "against me" not in reply and "nobody" not in reply.split(",")[0]
    assert any(w in reply for w in ("loft", "gas", "next door", "neighbour")), reply


def test_the_threat_is_told_when_rapport_allows_and_never_denied(handwritten) -> None:
    question = "When you are angry with someone, what sort of thoughts go through your mind?"
    guarded = _patient(handwritten["hw-024"]).respond(question).text.lower()
    assert "hurt" not in guarded and "never" not in guarded, guarded
    told = _patient(handwritten["hw-024"], open_up=True).respond(question).text.lower()
    assert "sort them out" in told, told


def test_no_substance_the_record_does_not_name(handwritten) -> None:
    patient = _patient(handwritten["hw-024"])
    question = "Do you use any drugs, such as cannabis, cocaine or others?"
    plan = patient.memory.plan(read_question(question, patient.index.lexicon))
    assert not any(i.stance == AFFIRM and i.subject == "cannabis_use" and not i.silent for i in plan.items)
    reply = patient.respond(question).text.lower()
    assert "i use cannabis" not in reply and "home visit" not in reply, reply


def test_the_illness_is_dated_from_its_timeline(handwritten) -> None:
    patient = _patient(handwritten["hw-015"])
    patient.respond("What has brought you here?")
    reply = patient.respond("When did you first notice this, and how has it changed since then?").text.lower()
    assert "four months" in reply and "a week now" not in reply, reply


def test_the_rope_is_disclosed_when_asked_about_plans(handwritten) -> None:
    reply = _patient(handwritten["hw-015"], open_up=True).respond("Have you made any plans to end your life?").text.lower()
    assert "rope" in reply, reply


def test_a_letter_no_code_was_tuned_on_keeps_its_central_symptoms() -> None:
    (case,) = load_suite(LETTER).cases
    patient = _patient(case, open_up=True)
    intrusive = patient.respond("What thoughts come into your mind again and again, even though you don't want them?").text.lower()
    assert "don't have thoughts" not in intrusive and any(w in intrusive for w in ("bath", "water", "knife", "knives", "thoughts")), intrusive
    future = patient.respond("How do you see the future?").text.lower()
    assert "don't feel hopeless" not in future and "fine" not in future.split(".")[0], future


# -- stop 24: a question's meaning, central symptoms, referral wording, negatives never held back ------------


@pytest.fixture(scope="module")
def generated():
    """Two narcolepsy records of the test-v2 draw, frozen (a redraw of the suite does not move them)."""
    import json

    from mentalhospital_env.cases import load_case

    raw = json.loads((Path(__file__).resolve().parent / "data" / "narcolepsy_records.json").read_text())
    return {c.case_id: c for c in map(load_case, raw["cases"])}


def test_a_question_asked_in_other_words_is_read_as_its_finding() -> None:
    from mentalhospital_env.patient.recall import asked_meaning

    assert "cataplexy" in asked_meaning("Do you ever suddenly go weak when you laugh?")
    assert "suicide_plan" in asked_meaning("Have you done anything to prepare, or thought about how you might do it?")
    assert "persecutory_delusions" in asked_meaning("Is anyone against you?")
    # a question's wording never reads a record ("protect yourself" is asked, not a belief of the record's)
    assert "persecutory_delusions" not in meant("She learnt to protect yourself at a self-defence class.", load_recall_rules())
    assert not asked_meaning("How is your appetite?")


@pytest.mark.parametrize("case_id", ["test-v2-0397", "test-v2-0278"])
def test_cataplexy_asked_in_lay_words_is_told_not_denied(generated, case_id) -> None:
    reply = _patient(generated[case_id]).respond("Do you ever suddenly go weak when you laugh?").text.lower()
    assert any(w in reply for w in ("buckle", "floppy", "slack")), reply
    assert not reply.startswith(("no", "nothing", "not ")), reply


def test_the_referrals_wording_is_never_read_out_and_its_finding_never_denied(generated) -> None:
    patient = _patient(generated["test-v2-0278"])  # "The referral is about poor concentration and poor sleep"
    replies = [patient.respond(q).text for q in ("How are you sleeping?", "How is your concentration?")]
    assert not any("referral" in r.lower() for r in replies), replies
    assert "fine" not in replies[1].lower() and "concentrat" in replies[1].lower(), replies


def test_a_screen_the_record_answers_no_is_answered_no_whatever_the_rapport(handwritten) -> None:
    patient = _patient(handwritten["hw-024"])
    patient.representation.rapport.value = 0.0
    reply = patient.respond("Have you had any thoughts of harming yourself?").text.lower()
    assert reply.startswith("no") and "answer that" not in reply and "rather" not in reply, reply
