"""Stop 44, review 1 (must-fix 3): the screen for alcohol and for drugs is a core screen, asked in every full
interview. It sat after the risk block and was the first question to give way to the history when an earlier
disclosure's follow-up had taken the turns (``history_first``): once the interview took another path, a woman
admitted after an overdose taken with vodka was never asked about drink or drugs, and her note's alcohol line quoted
the overdose sentence. The screen is now kept with the history (``history_first.also_keep``), and a drink named in
passing still counts as a question to take (``ask_even_if_known``) when the turns left are counted."""

from __future__ import annotations

import pytest
from scripted_encounters import ask, start

WARD = "Inpatient ward. A 27-year-old woman is here to see you, alone."
OVERDOSE = "I took an overdose of my tablets with vodka after a fight. I want to die."


def _interview(budget: int, first_reply: str) -> list[str]:
    doctor = start(WARD, budget)
    asked, reply = [], first_reply
    for _ in range(budget):
        ask(doctor, reply)
        reply = "No."
        if doctor.phase != "interview" or doctor.last_concept in asked[-1:]:
            break
        asked.append(doctor.last_concept)
    return asked


@pytest.mark.parametrize("budget", [24, 40])
def test_alcohol_and_drugs_are_asked_when_a_disclosure_takes_the_turns(budget):
    """A suicidal disclosure's follow-up takes five turns; with a short budget the screen gave way to the history and
    neither drink nor drugs was asked (24 turns at 02a719a). Both are asked whatever path the interview took."""
    asked = _interview(budget, OVERDOSE)
    assert "alcohol_use" in asked and "drug_use" in asked, asked
    assert "suicidal_ideation" in asked or any(c.startswith("risk:") for c in asked if c), asked


def test_a_drink_named_in_passing_is_still_asked_how_much():
    """'with vodka' names the drink, not how much or how often: the alcohol question is still put, and the turns left
    are counted with it, so it is not the question the last turns lose."""
    asked = _interview(26, OVERDOSE)
    assert asked.count("alcohol_use") == 1, asked


@pytest.mark.parametrize("reply, written", [
    ("Just trapped.", 'Mood described as "trapped"'),
    ("Just embarrassed.", 'Mood described as "embarrassed"'),
    ("Embarrassed.", 'Mood described as "Embarrassed"'),
    ("Just whatever.", "Mood not described"),
])
def test_a_one_word_mood_is_written_without_its_filler_and_a_non_mood_is_none(reply, written):
    """Review 1 (s44-note): 'Just trapped', 'Just whatever', 'Just embarrassed' were written as the mood. 'Just' is a
    filler, and 'whatever' gives no mood (note_writing.mood_one_word.not_moods)."""
    from scripted_encounters import with_findings, write

    doctor = with_findings("Outpatient clinic. A 29-year-old woman is here to see you, alone.",
                           present={"low_mood": "I feel low."}, answers={"mse:mood": reply})
    note = write(doctor, "write_note")
    mse = next(line for line in note.splitlines() if line.startswith("Mental status examination"))
    assert written in mse, mse
