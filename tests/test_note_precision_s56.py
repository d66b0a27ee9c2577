"""Stop 56 (s56-judge, Qual.): accurate notes charged with findings 'never raised' because the patient said them in words
the reader did not read (held_out55: note-5509, rated 5, scored 1: 'thought insertion' beside his 'Thoughts get put in
my head that aren't mine'; note-5523, rated 5: 'outbursts of temper' and 'property damage' beside 'I smashed my phone',
'I put my fist through a wall', 'I've punched holes in walls'). Through the public API (``check_note``)."""

from __future__ import annotations

import pytest

from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.mentaleval.ladders import calibration_case
from mentalhospital_env.rewards.mentaleval.precision import check_note


def _never(reply: str, note: str) -> set[str]:
    chart = Chart(turns=(Turn("Tell me more about what has been happening.", reply),), note=note)
    return {e.concept for e in check_note(calibration_case(), chart).errors if e.kind == "never"}


@pytest.mark.parametrize("reply,note,concept", [
    ("Thoughts get put in my head that aren't mine.", "MSE: thought insertion.", "thought_broadcasting"),
    ("I put my fist through a wall.", "History: property damage when angry.", "property_destruction"),
    ("I've punched holes in walls.", "History: property damage when angry.", "property_destruction"),
    ("I smashed my phone because it wouldn't load.", "History: outbursts of temper out of proportion.", "anger_outbursts"),
])
def test_a_finding_said_in_the_patients_words_is_raised(reply, note, concept):
    assert concept not in _never(reply, note)


def test_a_finding_never_said_is_still_never_raised():
    assert "property_destruction" in _never("I feel low most days.", "History: property damage when angry.")
