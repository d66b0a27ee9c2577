"""Stop 58 (s58-clin): hw-014, asked what keeps her going, said 'Aisha, my job and my cat.'; the risk assessment wrote it
as what keeps her safe, and the lexicon's reading of 'my job' put it under 'Personal history: Occupation' too, an
answer filed under a heading it does not answer. A bare list told only in reply to a risk follow-up question is left
out of the history headings, not rewritten; a clause with a verb ("I live with my wife in a bungalow", said with
what keeps him going, hw-015) is still filed, as is one told in reply to another history question."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write

_WALK_IN = "Emergency department. A 24-year-old woman is here to see you, alone."
_SUICIDAL = {"suicidal_ideation": "I wanted to die, or at least for everything to stop for a bit."}


def _note(reply: str, key: str) -> str:
    doctor = with_findings(_WALK_IN, present={**_SUICIDAL, "occupation": reply}, answers={key: reply})
    doctor.findings.replies.append(("question", reply))
    doctor.findings.reply_keys.append(key)
    return write(doctor, "write_note")


def test_what_keeps_her_going_is_no_occupation():
    note = _note("Aisha, my job and my cat.", "risk:protective")
    assert "Occupation:" not in note, note


def test_a_job_told_to_another_history_question_is_still_filed():
    note = _note("I work in a call centre, my job is stressful.", "living_situation")
    assert "Occupation:" in note or "call centre" in note, note


def test_a_home_told_with_what_keeps_him_going_is_still_his_living_situation():
    reply = "I have two sons, one nearby. I live with my wife in a bungalow."
    doctor = with_findings(_WALK_IN, present={**_SUICIDAL, "living_situation": reply}, answers={"risk:protective": reply})
    doctor.findings.replies.append(("question", reply))
    doctor.findings.reply_keys.append("risk:protective")
    note = write(doctor, "write_note")
    assert 'Living situation: "I live with my wife in a bungalow"' in note, note
