"""A time question is answered by the sentence that says the time of the thing asked (issue 13, not answering):
of the sentences that say how long, the one in the question's own words first, and a rate ("two or three days a
week") is not how long something has gone on."""

from __future__ import annotations

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.recall import duration_in


def test_a_rate_is_not_a_duration() -> None:
    assert duration_in("I'm calling in sick two or three days a week.") is None
    assert duration_in("I spend three days each week at my mum's.") is None
    # a duration is still one
    assert duration_in("It's been going on for about two months.") == "about two months"
    assert duration_in("My wife left three months ago.") == "three months ago"


def test_when_did_it_start_is_told_the_time_of_the_thing_asked() -> None:
    # hw-007: "When did you start cutting back?" is the sentence that says when the cutting back began, not the
    # complaint's "weight loss and restrictive eating over nine months" said again beside it
    case = {c.case_id: c for c in load_suite("handwritten").cases}["hw-007"]
    patient = make_patient(case, "full", seed=1)
    for q in ("Hi, I'm a doctor on the team. How are you finding it here?", "Can you tell me what happened at school?",
              "How much are you eating on a normal day?"):
        patient.respond(q)
    reply = patient.respond("When did you start cutting back?").text
    assert "cutting" in reply and "nine months" in reply.lower()
    assert "restrictive eating over nine months" not in reply
