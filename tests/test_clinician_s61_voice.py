"""Stop 61 (s61-clin): uw-034 hears his dead brother's voice calling his name at night; a psychiatrist asks what the
voice says, whether it tells him to do things, and whether he knows it is not real (his insight into it). A voice
heard is followed by the question whether it seems real (disclosure_follow_up 'voices', 'follow:voices_real'), after
its content; the note files the answer in the present illness."""

from __future__ import annotations

from tests.scripted_encounters import opening_reply, questions, with_findings, write

REAL = "does it seem like a real voice from outside"


def test_a_voice_heard_is_followed_by_its_content_then_whether_it_seems_real():
    asked = questions("Outpatient clinic. A 36-year-old man is here to see you, alone.",
                      opening_reply("At night I hear my brother's voice calling my name from the street."))
    content = next(i for i, q in enumerate(asked) if "What do the voices say" in q)
    real = next(i for i, q in enumerate(asked) if REAL in q)
    assert content < real, asked


def test_no_reality_question_without_a_voice():
    asked = questions("Outpatient clinic. A 40-year-old man is here to see you, alone.",
                      opening_reply("I've been feeling low and I can't sleep."))
    assert not any(REAL in q for q in asked), asked


def test_the_note_files_whether_the_voice_seems_real():
    doctor = with_findings(
        "Outpatient clinic. A 36-year-old man is here to see you, alone.",
        present={"auditory_hallucinations": "At night I hear my brother calling my name."},
        answers={"follow:voices_real": "I know it can't be him. It's my head playing tricks."},
    )
    note = write(doctor, "write_note")
    assert "Whether the voice seems real to the patient" in note, note
