"""Stop 57 (s57-clin): a relative's suicide denied is no family history of suicide.

hw-014 (24F, borderline personality disorder): 'There's no suicide in my family that I know of' matched the word
'suicide', and her plan said 'Family history of suicide: ask about suicidal thoughts at every review'. A pattern under
a negation of its sentence tells none; a relative's suicide told still puts the step on the plan."""

from __future__ import annotations

import pytest

from tests.scripted_encounters import with_findings, write

STEP = "Family history of suicide"


def _plan(family: str) -> str:
    doctor = with_findings(
        "Outpatient clinic. A 31-year-old woman is here to see you, alone.",
        present={"excessive_worry": "I worry all the time.", "restlessness": "I can't relax, ever."},
        answers={"family_psychiatric_history": family},
    )
    return write(doctor, "treat")


@pytest.mark.parametrize("family", [
    "There's no suicide in my family that I know of.",
    "Nobody in my family has killed themselves.",
    "No mental illness, no suicide, nothing like that.",
])
def test_a_denied_suicide_in_the_family_is_no_family_history_of_suicide(family):
    assert STEP not in _plan(family)


@pytest.mark.parametrize("family", [
    "My maternal grandfather took their own life.",
    "No, but my uncle died by suicide.",
])
def test_a_relatives_suicide_told_is_still_acted_on(family):
    assert STEP in _plan(family)
