"""Stop 57 (s57-clin): one answer said twice is written once under its heading.

hw-003: 'Family history: "My father has bipolar disorder and takes lithium". "My father has bipolar disorder and takes
lithium, I reckon".' (asked about the family's mental and then physical health); test-v2-0269: 'Past psychiatric
history: "I saw someone when I was 17, but I didn't keep going". "..., if I'm honest".' A part that differs from an
earlier one under the same heading only by a hedge at its end is left out."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write


def _line(note: str, head: str) -> str:
    return next(line for line in note.splitlines() if line.startswith(head))


def test_an_answer_said_again_with_a_hedge_is_written_once():
    doctor = with_findings(
        "Outpatient clinic. A 31-year-old woman is here to see you, alone.",
        present={"low_mood": "I've been feeling heavy.", "family_psychiatric_history": "My father has bipolar disorder."},
        answers={"family_psychiatric_history": "My father has bipolar disorder and takes lithium.",
                 "family_medical_history": "My father has bipolar disorder and takes lithium, I reckon."},
    )
    family = _line(write(doctor, "write_note"), "Family history:")
    assert family.count("takes lithium") == 1, family


def test_two_different_answers_under_one_heading_are_both_written():
    doctor = with_findings(
        "Outpatient clinic. A 31-year-old woman is here to see you, alone.",
        present={"low_mood": "I've been feeling heavy.", "family_psychiatric_history": "My father has bipolar disorder."},
        answers={"family_psychiatric_history": "My father has bipolar disorder and takes lithium.",
                 "family_medical_history": "My mother had a heart attack at sixty."},
    )
    family = _line(write(doctor, "write_note"), "Family history:")
    assert "takes lithium" in family and "heart attack" in family, family
