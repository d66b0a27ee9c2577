"""Stop 62 (uw-034, Adriano, 36): asked about a plan he said 'Better to sleep and not wake up. It should have been me.',
and told the night he sat with the tin of tablets 'meaning to take them all with the cachaça' when asked whether he
might act on his thoughts. The note wrote 'Plan or preparations: asked, no direct answer', quoted the tin nowhere and
called the thoughts a passive death wish. A preparation told in another item's reply answers the plan
(``risk_follow_up.item_subjects.risk:plan.answered_elsewhere``) and is no passive wish; a plan denied with nothing
prepared is still written as before."""

from __future__ import annotations

from tests.scripted_encounters import interview, write

WALK_IN = "Outpatient clinic. A 36-year-old man is here to see you, alone."
TIN = ("On the night of 19 October, after the cemetery, I opened the box. And I sat with the tin in my hand, meaning to "
       "take them all with the cachaça. I wouldn't do that to Kauã.")


def _risk_line(intent_reply: str) -> str:
    def reply(question: str) -> str:
        low = question.lower()
        if "brought you" in low:
            return "The nights are the worst, doctor."
        if "life is not worth living" in low:
            return "I keep thinking it would be better to sleep and not wake up. I wouldn't do that to Kauã."
        if "plans or preparations" in low:
            return "Better to sleep and not wake up. It should have been me."
        if "act on them" in low or "how likely" in low:
            return intent_reply
        return "Not sure."

    doctor, _ = interview(WALK_IN, reply)
    note = write(doctor, "write_note")
    return next(line for line in note.split("\n") if line.startswith("Risk assessment"))


def test_a_preparation_told_under_intent_answers_the_plan():
    line = _risk_line(f"Like I mentioned, {TIN}")
    assert 'Plan or preparations: "I sat with the tin in my hand, meaning to take them all with the cachaça"' in line, line
    assert "passive death wish" not in line, line


def test_a_plan_denied_with_nothing_prepared_is_written_as_before():
    line = _risk_line("No. I wouldn't do that to Kauã.")
    assert 'Plan or preparations: "I sat with the tin' not in line, line
