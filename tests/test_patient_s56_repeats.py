"""Stop 56 (s56-na): a plan or intent question after the suicide screen is answered from what the record says of the plan,
the act and the intent, not with the first plan sentence again ('Like I said, if nothing's fixed by Christmas I don't see
the point.' three times to uw-020, stop 55's reading at seed 5520).

uw-020 (a bundled unseen record): the risk line quotes her conditional plan, the thought content states a
self-interrupted act with her father's handgun (told in the history only when asked directly), and the history keeps her
own 'not going to do anything' for the intent. Asked through the public API, in the order of the stop 55 reading.
"""

from __future__ import annotations

import pytest

_SCREEN = [
    "Thank you for coming in today. I'd like to understand what has been happening for you. What has brought you here?",
    "How has your mood been over the past few weeks?",
    "Thank you for telling me that. It's important that you did. When things are at their worst, have you thought about "
    "how you might end your life? Have you made any plans or preparations?",
]
_HOW = "Take your time with any of these. Let me ask that another way. Have you gone as far as thinking how, or getting anything ready?"
_ACT = "When thoughts of ending your life or harming yourself come, do you feel you might act on them?"
_KEEPS = "What keeps you going when things are hard, and what has stopped you acting on these thoughts?"


@pytest.fixture(scope="module")
def replies() -> dict[str, str]:
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient.patient import make_patient

    patient = make_patient(load_suite("benchmarks/data/patient_exam/unseen/uw-020.json").cases[0], seed=5520)
    out = {q: patient.respond(q).text for q in _SCREEN}
    for q in (_HOW, _ACT, _KEEPS):
        out[q] = patient.respond(q).text
    return out


def test_the_plan_asked_again_is_the_act_not_the_quoted_plan_again(replies):
    assert "Christmas" in replies[_SCREEN[-1]], replies[_SCREEN[-1]]
    reply = replies[_HOW]
    assert "Christmas" not in reply, reply
    assert "handgun" in reply, reply


def test_whether_they_would_act_is_answered_by_the_intent_the_record_gives(replies):
    reply = replies[_ACT]
    assert "Christmas" not in reply, reply
    assert "not going to do anything" in reply.lower(), reply


def test_what_stopped_them_acting_is_still_what_keeps_them_going(replies):
    reply = replies[_KEEPS]
    assert "not going to do anything" not in reply.lower(), reply
    assert "brother" in reply, reply
