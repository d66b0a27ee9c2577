"""Stop 58 (s58-clin): hw-014, asked about access to means, said 'I take the combined pill', and the plan restricted it as a
means of harm ('Means: told in the interview ("I take the combined pill")'). The contraceptive pill is none; stored
pills still are."""

from __future__ import annotations

from tests.scripted_encounters import with_findings, write


_SUICIDAL = {"suicidal_ideation": "I wanted to die, or at least for everything to stop for a bit."}


def _means_plan(answer: str) -> str:
    doctor = with_findings(
        "Outpatient clinic. A 24-year-old woman is here to see you, alone.",
        present=_SUICIDAL, answers={"risk:means": answer},
    )
    doctor.risk_followed = True  # the disclosure was followed up: plan, intent, means, attempts
    return write(doctor, "treat")


def test_the_contraceptive_pill_is_no_means_of_harm():
    plan = _means_plan("I take the combined pill.")
    assert "combined pill" not in plan, plan


def test_stored_pills_are_still_a_means():
    plan = _means_plan("I've got a drawer full of pills at home.")
    assert 'Means: told in the interview ("I\'ve got a drawer full of pills at home' in plan, plan
