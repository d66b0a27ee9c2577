"""What the patient answers (issue 13, independent reader of stop 21), through the public API:

* a person knows who they live with: "Married 20 yrs, 2 children" answers "Who do you live with?";
* a wh-question is not answered "No." / "Nope." ("How has your memory been?" - "Fine, really.");
* nothing is said again word for word to a new question: the next fact, or "Like I said, ...";
* the chief complaint, told at the start, is not told again to an unrelated question;
* a childhood the personal history is silent on is not "I'm not sure" because of a panic attack's
  "trauma" in the presenting illness.

The records here are written for these tests (synthetic, in a clinician's plain prose).
"""

from __future__ import annotations

import re

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.patient import make_patient

_DONT_KNOW = re.compile(r"\b(?:i'?m not sure|i (?:really )?don'?t (?:really )?know|no idea|couldn'?t tell you)\b", re.I)
_NO_OPENER = re.compile(r"^\W*(?:no|nope|nah)\b", re.I)


_EHR = {
    "chief_complaint": "Low mood and poor sleep for three months.",
    "history_of_present_illness": (
        "Over three months her mood has dropped after her mother's death. She cries most days and "
        "has stopped going to her choir. She wakes at 4 a.m. and cannot get back to sleep."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Asthma.",
    "medications": "Salbutamol inhaler as needed.",
    "allergies": "Penicillin (rash).",
    "substance_use": "Two glasses of wine at weekends. Non-smoker. No drugs.",
    "family_history": "Mother had depression.",
    "personal_history": "Married 12 years, 3 children. Works as a school secretary.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Tearful.", "thought_content": "No suicidal ideation."},
    "risk_assessment": {"suicide": "No thoughts of ending her life. No self-harm."},
}


def _record(**ehr: str) -> dict:
    return record("answer-choice-001", _EHR, {"age": 44, "sex": "female"}, written_for="test_answer_choice.py", **ehr)


@pytest.fixture(scope="module")
def case():
    return load_case(_record())


def test_who_you_live_with_is_known_from_the_marriage(case) -> None:
    (reply,) = ask(case, "Who do you live with?")
    assert not _DONT_KNOW.search(reply), reply
    assert re.search(r"married|children", reply, re.I), reply


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_how_question_about_a_silent_screen_is_not_answered_no(case, seed) -> None:
    for question in ("How has your memory been?", "How is your concentration, for example when reading?",
                     "What thoughts come into your mind again and again, even though you don't want them?"):
        (reply,) = ask(case, question, seed=seed)
        assert not _NO_OPENER.match(reply), (question, reply)


def test_a_yes_no_screen_still_gets_no(case) -> None:
    (reply,) = ask(case, "Do you ever hear voices when nobody is around?")
    assert _NO_OPENER.match(reply) or re.search(r"\b(?:never|don't|haven't)\b", reply), reply


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_reply_is_said_again_word_for_word_to_a_new_question(case, seed) -> None:
    questions = (
        "What has brought you here today?",
        "How has your mood been?",
        "In your own words, how would you describe your mood right now?",
        "How has your mood been over the past few weeks?",
        "How have you been sleeping?",
        "What time do you go to bed?",
        "Sometimes people feel so low they think of ending their life. Have you?",
        "Sometimes when feelings get overwhelming people hurt themselves. What happens for you at those times?",
    )
    replies = ask(case, *questions, seed=seed)
    seen: dict[str, str] = {}
    for question, reply in zip(questions, replies):
        norm = " ".join(re.findall(r"[a-z']+", reply.lower()))
        assert norm not in seen, f"{question!r} got {reply!r}, already said to {seen.get(norm)!r}"
        seen[norm] = question
        sentences = [s for s in re.split(r"(?<=[.?!])\s+", reply) if len(s.split()) >= 5]
        earlier = " ".join(replies[: questions.index(question)])
        repeated = [s for s in sentences if s in earlier]
        assert not repeated or re.search(r"\b(?:like|as) I (?:said|mentioned)\b", reply, re.I), (question, reply)


def test_told_before_is_said_so(case) -> None:
    first, again = ask(case, "How has your mood been?", "In your own words, how would you describe your mood right now?")
    if again != first:
        assert not again.endswith(first), again
    assert not _DONT_KNOW.search(again), again


def test_the_chief_complaint_is_not_told_again_to_an_unrelated_question(case) -> None:
    opening, bedtime, people = ask(
        case, "What has brought you here today?", "What time do you go to bed?", "How do you get on with people?"
    )
    complaint = [s for s in re.split(r"(?<=[.?!])\s+", opening) if len(s.split()) >= 3]
    for reply in (bedtime, people):
        assert not any(s in reply for s in complaint), (opening, reply)


def test_a_panic_attacks_trauma_tag_does_not_silence_a_childhood() -> None:
    # hw-004: nothing on childhood in the personal history; the presenting illness is panic attacks
    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-004")
    (reply,) = ask(case, "What was it like for you growing up?")
    assert not _DONT_KNOW.search(reply), reply


def test_who_you_live_with_from_the_demographics_when_the_examination_says_flat() -> None:
    # hw-030: "Anxious and flat" in the examination is no home; the demographics say "lives with her wife"
    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-030")
    (reply,) = ask(case, "Who do you live with?")
    assert not _DONT_KNOW.search(reply), reply
    assert re.search(r"\bwife\b|\bRuth\b", reply), reply


@pytest.fixture(scope="module")
def handwritten():
    return {c.case_id: c for c in load_suite("handwritten").cases}


def test_what_brought_you_is_not_answered_with_childhood_or_dont_know(handwritten) -> None:
    # hw-003: "brought" read as "brought up"; the referral line is not said aloud, the history tells it
    (reply,) = ask(handwritten["hw-003"], "What has brought you here?")
    assert not _DONT_KNOW.search(reply) and "growing up" not in reply, reply
    assert re.search(r"depress|spell", reply, re.I), reply


def test_a_person_knows_whether_they_have_been_through_something_frightening(handwritten) -> None:
    (reply,) = ask(handwritten["hw-001"], "Have you been through something very frightening or upsetting, "
                                             "such as an accident, an attack or a disaster?")
    assert not _DONT_KNOW.search(reply), reply


def test_what_it_does_to_a_day_is_told_from_the_presenting_illness(handwritten) -> None:
    # hw-003: "The depression now stops her working more than a few hours a day."
    (reply,) = ask(handwritten["hw-003"], "How is this affecting your day-to-day life?")
    assert not _DONT_KNOW.search(reply), reply
    assert "working" in reply and "graduate" not in reply, reply


def test_a_wh_screen_the_checker_will_not_let_deny_in_words_is_not_answered_no(handwritten) -> None:
    # hw-004: "attacks" reads as violence, so "I'd never hurt anyone" fails the claim check; the plain
    # fallback to a what-question is no bare "No."
    (reply,) = ask(handwritten["hw-004"], "When you are angry with someone, what sort of thoughts go through your mind?")
    assert not _NO_OPENER.match(reply) and not _DONT_KNOW.search(reply), reply


def test_what_you_enjoy_is_told_from_the_record_not_denied(handwritten) -> None:
    # hw-030: "she still enjoys walks and cooking with Ruth"
    (reply,) = ask(handwritten["hw-030"], "What do you do for enjoyment these days, and how does it feel?")
    assert "walks" in reply and not _NO_OPENER.match(reply), reply


def test_the_patients_quoted_words_are_said_not_a_denial_beside_them(handwritten) -> None:
    # hw-025: "no suicidal thoughts now; in the bad week 'life feels pointless' but no plans"
    (reply,) = ask(handwritten["hw-025"], "Have you had thoughts that life is not worth living?")
    assert "pointless" in reply.lower(), reply
    assert "boyfriend" not in reply, reply  # "life ... living" is not "I live with my boyfriend"


@pytest.mark.parametrize("case_id", ["hw-016", "hw-019", "hw-022"])
def test_a_person_knows_whether_they_were_ever_admitted(handwritten, case_id) -> None:
    # a past psychiatric history that names no admission: "no", never "I'm not sure"
    (reply,) = ask(handwritten[case_id], "Have you ever been admitted to a hospital for your mental health?")
    assert not _DONT_KNOW.search(reply), reply


def test_what_is_on_your_mind_is_told_what_is_going_on_not_a_stock_denial(handwritten) -> None:
    # hw-040: nothing filed under worry; the presenting illness is what is on her mind
    patient = make_patient(handwritten["hw-040"], "full", seed=0)
    reply = patient.respond("What kinds of things have been on your mind or worrying you?").text
    assert "worry about everything" not in reply and not _NO_OPENER.match(reply), reply
    screen = make_patient(handwritten["hw-040"], "full", seed=0).respond("Do you worry a lot about everyday things?").text
    assert screen, screen


def test_a_fact_told_before_that_answers_the_question_is_said_again_as_said(handwritten) -> None:
    # hw-032: the shotguns were told in the opening answer; "Are there any guns at home?" still gets them
    patient = make_patient(handwritten["hw-032"], "full", seed=0)
    patient.respond("How have you been since Megan moved into the home?")
    reply = patient.respond("Are there any guns at home?").text
    assert "shotgun" in reply.lower(), reply


def test_getting_on_with_people_after_an_empathic_preamble_is_not_the_complaint_again() -> None:
    # the scripted clinician's "It makes sense that this has been worrying you." reads as the complaint
    case = load_case(_record())
    patient = make_patient(case, "full", seed=0)
    opening = patient.respond("What has brought you here today?").text
    reply = patient.respond("It makes sense that this has been worrying you. "
                            "How have you been getting on with the people around you?").text
    complaint = [s for s in re.split(r"(?<=[.?!])\s+", opening) if len(s.split()) >= 3]
    assert not any(s in reply for s in complaint), (opening, reply)
    assert not _DONT_KNOW.search(reply), reply


@pytest.mark.parametrize("case_id", ["hw-009", "hw-025", "hw-030"])
def test_a_history_the_record_answers_none_is_told_not_unknown(handwritten, case_id) -> None:
    # "Past psychiatric history: None.", "Medications: None.": a person knows they have had no help
    patient = make_patient(handwritten[case_id], "full", seed=0)
    for question in ("Have you had any help for your mental health before?",
                     "What medicines do you take at the moment, including anything from the pharmacy or herbal remedies?"):
        reply = patient.respond(question).text
        assert not _DONT_KNOW.search(reply), (question, reply)


_AROUND_ONSET = "Was anything going on in your life around the time it started?"


def test_what_was_going_on_at_onset_is_the_precipitant_of_the_presenting_illness() -> None:
    # a reader of stop 28: hw-014 was told "I'm medically fit after acetylcysteine" and a childhood move where her
    # record has a partner ending the relationship by text on Friday evening
    case = load_case(_record(
        chief_complaint="Low mood and tearfulness; medically fit after a course of antibiotics.",
        history_of_present_illness=(
            "Six weeks ago, on a Friday evening, her partner of two years ended the relationship by text. "
            "Since then she cries most days and has stopped going to her choir."
        ),
        personal_history="Moved to live with her grandmother at 11 after her parents split up. Works as a school secretary.",
    ))
    (reply,) = ask(case, _AROUND_ONSET)
    assert re.search(r"ended the relationship", reply), reply
    assert not re.search(r"antibiotic|grandmother", reply), reply


def test_what_was_going_on_at_onset_is_not_a_past_episode_nor_a_habit() -> None:
    # hw-011 was told "no previous episodes like this, including after a hysterectomy", hw-029 "I take 6 to 8 senna
    # tablets after the worst ones": neither is what was going on when this illness began
    case = load_case(_record(
        history_of_present_illness=(
            "Over three months her mood has dropped. She cries most days and has stopped going to her choir. "
            "Takes two paracetamol after the worst headaches."
        ),
        past_psychiatric_history="No previous episodes like this, including after a hysterectomy in her fifties.",
    ))
    (reply,) = ask(case, _AROUND_ONSET)
    assert not re.search(r"hysterectomy|paracetamol|previous", reply, re.I), reply
