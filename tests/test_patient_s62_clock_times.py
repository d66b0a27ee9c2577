"""A chart's clock time is said as a person says it (stop 62, the exam audit's 'the record read aloud'): hw-036's man,
asked what happened tonight, said he was found on the footbridge "at 23:00"; hw-018's woman that she "woke at 06:30"
with a dead leg; uw-035's boy of 15 that he sleeps "about 02 to 10". A person says "eleven at night", "half six in
the morning", "two to ten" (``clock`` of ``data/render.json``); a count ("10 to 12 cans") stays a count.

Bundled handwritten records, read through the public API, and the wording function itself."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.say import spoken_clock

CLOCK = re.compile(r"\b\d{1,2}:\d\d\b")


def _handwritten(case_id: str):
    from mentalhospital_env.cases import load_suite

    return {c.case_id: c for c in load_suite("handwritten").cases}[case_id]


@pytest.mark.parametrize("case_id, questions, said", [
    ("hw-036", ["Can you tell me what happened tonight?"], "eleven at night"),
    ("hw-018", ["What brings you in today?", "Can you tell me what happened?", "When did it start?",
                "How have you been sleeping?"], "half six in the morning"),
])
def test_no_clock_time_as_the_chart_writes_it(case_id, questions, said):
    heard = []
    for seed in range(3):
        patient = make_patient(_handwritten(case_id), "full", seed=seed)
        for question in questions:
            reply = patient.respond(question).text
            assert not CLOCK.search(reply), (question, reply)
            heard.append(reply)
    assert any(said in r for r in heard), heard


@pytest.mark.parametrize("chart, spoken", [
    ("I woke at 06:30 with a heavy leg.", "I woke at half six in the morning with a heavy leg."),
    ("I was found at 23:00.", "I was found at eleven at night."),
    ("Numbness from about 02:40 that day.", "Numbness from about twenty to three in the morning that day."),
    ("I sleep about 02 to 10.", "I sleep about two to ten."),
    ("At 07:00 in the morning I left.", "At seven in the morning I left."),
    ("I drink 10 to 12 cans.", "I drink 10 to 12 cans."),
    ("It was 14:07.", "It was about five past two in the afternoon."),
])
def test_spoken_clock(chart, spoken):
    assert spoken_clock(chart) == spoken
