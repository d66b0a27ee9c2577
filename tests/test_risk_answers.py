"""What the patient answers to the scripted clinician's suicide-risk follow-ups (issue 13, stop 28),
through the public API:

* "Who or what helps you stay safe?" is answered with what keeps the patient going, as the record's
  protective factors name it (her children, her faith), not with the death wishes;
* "Has there been a time before when you acted on thoughts like these?" is answered with the past (no
  previous attempts), not by saying the disclosure again;
* a passive death wish is never voiced as "I want to die".

The record here is written for these tests (synthetic, in a clinician's plain prose).
"""

from __future__ import annotations

import re

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case, load_suite

_WANTS_TO_DIE = re.compile(r"\bwant(?:ed)? to die\b", re.I)
_DEATH_WISH = re.compile(r"\b(?:die|dead|death|better off|ending my life|end my life)\b", re.I)
_DENIAL = re.compile(r"\b(?:no|never|haven't|have not)\b", re.I)


_EHR = {
    "chief_complaint": "Low mood for two months.",
    "history_of_present_illness": (
        "Over two months her mood has been low since she lost her job. She sleeps badly and has lost "
        "interest in her garden. She has fleeting thoughts that she would rather not wake up."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "None.",
    "medications": "None.",
    "allergies": "None known.",
    "substance_use": "Rarely drinks. Non-smoker.",
    "family_history": "No psychiatric history in the family.",
    "personal_history": "Married, two children aged 8 and 11. Attends church weekly.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Subdued.", "thought_content": "Passive death wishes."},
    "risk_assessment": {
        "suicide": (
            "Passive death wishes, no plan, no intent and no previous attempts; protective factors are "
            "her children and her faith."
        )
    },
}


def _record() -> dict:
    return record("risk-answers-001", _EHR, {"age": 39, "sex": "female"}, written_for="test_risk_answers.py")


@pytest.fixture(scope="module")
def case():
    return load_case(_record())


_WARM_UP = ("What has brought you here today?", "How has your mood been?",
            "Sometimes people feel so low they think of ending their life. Have you?")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_what_keeps_them_safe_is_the_protective_factors(case, seed) -> None:
    *_, reply = ask(case, *_WARM_UP, "Who or what in your life matters to you and helps you stay safe?", seed=seed)
    assert re.search(r"\b(?:children|faith)\b", reply, re.I), reply
    assert not _DEATH_WISH.search(reply), reply


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_past_attempt_question_is_answered_with_the_past(case, seed) -> None:
    *warm, reply = ask(
        case, *_WARM_UP,
        "Has there been a time before when you acted on thoughts like these, for example an overdose?", seed=seed,
    )
    assert _DENIAL.search(reply), reply
    assert not _WANTS_TO_DIE.search(reply), reply
    assert not re.search(r"\bwake up\b|\b(?:like|as) I (?:said|mentioned)\b", reply, re.I), (warm[-1], reply)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_passive_death_wish_is_never_i_want_to_die(case, seed) -> None:
    replies = ask(case, *_WARM_UP, "Have you had any thoughts of ending your life?", "What keeps you going?",
                   "Who or what in your life matters to you and helps you stay safe?", seed=seed)
    assert not any(_WANTS_TO_DIE.search(r) for r in replies), replies


def test_hw001_protective_question_names_her_sons_and_faith() -> None:
    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-001")
    (reply,) = ask(case, "Who or what in your life matters to you and helps you stay safe?")
    assert re.search(r"\bsons\b", reply) and re.search(r"\bfaith\b", reply), reply
    assert not _DEATH_WISH.search(reply), reply


# -- stop 29: protective lists without a colon, records without one, attempts by silence, means, onset --------

def _variant(**ehr) -> dict:
    record = _record()
    record["case_id"] = "risk-answers-s29"
    record["ehr"] = {**record["ehr"], **ehr}
    return record


_KEEPS_GOING = "What keeps you going when things are hard, and what has stopped you acting on these thoughts?"
_STAY_SAFE = "Who or what in your life matters to you and helps you stay safe?"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_protective_list_without_a_colon_is_named_not_the_death_wish(seed) -> None:
    case = load_case(_variant(risk_assessment={"suicide": (
        "Fleeting passive death wishes, no plan or intent; protective factors are his daughter and his wife.")}))
    replies = ask(case, *_WARM_UP, _KEEPS_GOING, _STAY_SAFE, seed=seed)
    for reply in replies[-2:]:
        assert re.search(r"\bdaughter\b", reply) and re.search(r"\bwife\b", reply), replies
        assert not _DEATH_WISH.search(reply), replies


@pytest.mark.parametrize("seed", [0, 1])
def test_protective_names_keep_their_capital(seed) -> None:
    case = load_case(_variant(risk_assessment={"suicide": (
        "Ongoing passive thoughts, no current plan. Protective: Aisha, her job, her cat.")}))
    replies = ask(case, *_WARM_UP, _KEEPS_GOING, _STAY_SAFE, seed=seed)
    for reply in replies[-2:]:
        assert "Aisha" in reply and re.search(r"\bmy cat\b", reply), replies
        assert not re.search(r"\bher (?:job|cat)\b", reply), replies


def test_no_protective_list_is_told_from_the_family_history_not_the_attempt() -> None:
    case = load_case(_variant(
        history_of_present_illness=(
            "Over two months her mood has been low since she lost her job. Last week her husband found her in "
            "the garage with a rope; she says she would be better off dead."),
        risk_assessment={"suicide": "High: aborted attempt last week with a rope; ongoing wish to die."},
    ))
    *_, reply = ask(case, *_WARM_UP, _KEEPS_GOING)
    assert re.search(r"\b(?:children|husband|church)\b", reply), reply
    assert not re.search(r"\brope\b|\bdead\b|\bdie\b", reply), reply


def test_a_suicide_risk_line_without_an_attempt_answers_ever_tried_with_no() -> None:
    case = load_case(_variant(risk_assessment={"suicide": "Passive death wishes, no plan or intent."}))
    for seed in range(3):
        *_, reply = ask(case, *_WARM_UP, "Have you ever tried to end your life?", seed=seed)
        assert re.search(r"\bnever\b|\bno\b", reply, re.I), reply
        assert not _DEATH_WISH.search(reply.replace("end my life", "")), reply
        assert "I'd have said if so" not in reply, reply


def test_past_overdoses_the_lexicon_misses_answer_ever_tried() -> None:
    case = load_case(_variant(
        past_psychiatric_history="Three previous overdoses, all after arguments; two needing acetylcysteine.",
        risk_assessment={"suicide": "Ongoing passive thoughts, no current plan."},
    ))
    *_, reply = ask(case, *_WARM_UP, "Have you ever tried to end your life?")
    assert re.search(r"\boverdoses\b", reply), reply
    assert not re.search(r"\bnever\b", reply), reply


def test_a_means_question_is_not_answered_with_a_violence_denial() -> None:
    # stop 46's strict xfail (the reader deciding alone dropped the medicines from the means question) mended at stop 51:
    # a means question that names medicines is asked of the medicines they keep (recall.json means_medicines)
    case = load_case(_variant(medications="Sertraline 50 mg daily."))
    *_, reply = ask(case, *_WARM_UP,
                     "Do you have access to anything you could use to harm yourself, such as medicines or weapons?")
    assert re.search(r"sertraline", reply, re.I), reply
    assert not re.search(r"hurt anybody|hurt anyone", reply), reply


def test_a_precipitant_only_a_clinician_wrote_is_told_in_the_patients_words() -> None:
    case = load_case(_variant(
        chief_complaint="Intrusive worries about illness.",
        history_of_present_illness=(
            "The story begins about two years ago, after a single sexual encounter with a stranger at a festival. "
            "She has had eleven negative tests."),
    ))
    reply, onset = ask(case, "What has brought you here today?", "Was anything going on in your life around the time it started?")
    assert re.search(r"\bencounter with a stranger at a festival\b", onset), onset
    assert not re.search(r"\b(?:she|her)\b", onset), onset
