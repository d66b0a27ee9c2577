"""A reply said again whole is said once, as a callback (stop 62, the exam audit's 'an earlier reply repeated word for
word'): asked "How long does an attack last?" after "How often are you getting them now?", hw-004's man gave his last
reply again, word for word and unmarked ("The attacks now come two or three times a week. They peak within ten
minutes and leave me exhausted."); hw-016's, asked how much time the washing takes, the four sentences on it again;
hw-022's, asked how long he had felt like that, both his earlier replies again. A patient asked again in other words
points back ("Like I said, ...") and says the part that answers, in a sentence or two; a reply with anything new in it
is said as it is, and a guarded patient's stock "I don't really want to go into that." is never called back.

Bundled handwritten records, read through the public API."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.patient import make_patient

LEADS = ("Like I said,", "As I said,", "Like I mentioned,")
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")

CONVERSATIONS = {
    "hw-004": ["What brings you to see us today?", "Tell me about the first time it happened.",
               "And how long ago was that?", "How often are you getting them now?", "How long does an attack last?"],
    "hw-016": ["How long does the relief last after a negative result?",
               "Do you check your body for signs, like swollen glands?", "Do you do a lot of washing or cleaning?",
               "How much time does that take up?"],
    "hw-022": ["What would you like to be different?", "What goes through your mind when you're with people?",
               "How long have you felt like that?"],
}


def _handwritten(case_id: str):
    from mentalhospital_env.cases import load_suite

    return {c.case_id: c for c in load_suite("handwritten").cases}[case_id]


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def _said_again(reply: str, earlier: list[str]) -> list[str]:
    """The sentences of substance of ``reply`` (five words or more) each said earlier word for word; empty when any
    sentence of substance is new."""
    said = [f" {_words(e)} " for e in earlier]
    body = [s for s in SENTENCE.split(reply) if len(_words(s).split()) >= 5]
    again = [s for s in body if any(f" {_words(s)} " in e for e in said)]
    return again if body and len(again) == len(body) else []


@pytest.mark.parametrize("case_id", sorted(CONVERSATIONS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_reply_said_again_whole_is_a_short_callback(case_id, seed):
    patient = make_patient(_handwritten(case_id), "full", seed=seed)
    earlier: list[str] = []
    for question in CONVERSATIONS[case_id]:
        reply = patient.respond(question).text
        again = _said_again(reply, earlier)
        if again:
            assert reply.startswith(LEADS) or any(s.startswith(LEADS) for s in SENTENCE.split(reply)), (question, reply)
            assert len(again) <= 2, (question, reply)
            assert reply not in earlier, (question, reply)
        earlier.append(reply)


def test_the_callback_keeps_the_answer_asked():
    """hw-004: the attack's length (its peak within ten minutes) is in the callback, not only how often they come."""
    patient = make_patient(_handwritten("hw-004"), "full", seed=3)
    for question in CONVERSATIONS["hw-004"][:-1]:
        patient.respond(question)
    reply = patient.respond("How long does an attack last?").text
    assert "ten minutes" in reply, reply


def test_a_stock_deflection_is_not_called_back():
    """A guarded answer said again is said as it was ("That's... hard. Can we come back to it?"), never "That's...
    hard. Like I said, can we come back to it?" (dev-0023, asked about borrowing for his gambling)."""
    from mentalhospital_env.cases import load_suite

    case = {c.case_id: c for c in load_suite("dev").cases}["dev-0023"]
    questions = ["How can we help?", "What kind of gambling do you do?", "Have you tried to stop?",
                 "Have you borrowed or taken money to cover it?", "Has it ever got so bad you thought about ending your life?"]
    for seed in (8, 9):
        patient = make_patient(case, "full", seed=seed)
        for question in questions:
            reply = patient.respond(question).text
            assert not re.search(r"(?:Like|As) I (?:said|mentioned), (?:I don't really want|can we|do I have to|I'd rather)",
                                 reply, re.IGNORECASE), reply
