"""Stop 57 (s57-clin): the scripted clinician's mental state examination opens with what the doctor saw at the visit.

hw-012's consultant: the 'Mental status examination' held only what the patient said ('Mood described as ...'),
nothing observed, though the doctor saw the boy walk in with his mother. The observed part says only what the walk-in
observation shows (age, sex, who came) and who gave the history; never the diagnosis, and no appearance, affect or
speech the encounter did not show."""

from __future__ import annotations

import re

from tests.scripted_encounters import played, with_findings, write


def _played(case_id: str, suite: str = "handwritten"):
    return played(case_id, suite)


def _mse(note: str) -> str:
    return next(line for line in note.splitlines() if line.startswith("Mental status examination:"))


def test_a_child_seen_with_his_mother_is_described_as_seen():
    chart = _played("hw-012")
    mse = _mse(chart.note)
    assert "Appearance and behaviour: a 9-year-old boy, attending with his mother" in mse, mse
    # the mother answered most of the questions put to her
    assert "who gave most of the history" in mse, mse
    # what the patient said stays the patient's: the mood is still his own words
    assert re.search(r"Mood described as \"", mse), mse


def test_an_adult_seen_alone_is_said_to_be_seen_alone_and_nothing_unobserved_is_added():
    doctor = with_findings(
        "Outpatient clinic. A 44-year-old woman is here to see you, alone.",
        present={"low_mood": "I've been feeling flat and useless."},
        answers={"mse:mood": "I've been feeling flat and useless."},
    )
    mse = _mse(write(doctor, "write_note"))
    assert mse.startswith("Mental status examination: Appearance and behaviour: a 44-year-old woman, seen alone."), mse
    # no affect, speech or appearance the encounter never showed, and no diagnosis
    for word in ("affect", "speech", "well kempt", "unkempt", "depress", "normal"):
        assert word not in mse.lower(), (word, mse)


def test_the_article_agrees_with_the_age_as_it_is_said():
    for walk_in, person in (("A 8-year-old girl", "an 8-year-old girl"), ("A 11-year-old girl", "an 11-year-old girl"),
                            ("A 82-year-old man", "an 82-year-old man"), ("A 18-year-old man", "an 18-year-old man"),
                            ("A 13-year-old girl", "a 13-year-old girl"), ("A 28-year-old man", "a 28-year-old man")):
        doctor = with_findings(f"Outpatient clinic. {walk_in} is here to see you, alone.",
                               answers={"mse:mood": "I feel fine."})
        assert f"Appearance and behaviour: {person}, seen alone." in _mse(write(doctor, "write_note")), walk_in
