"""Stop 57: "not a drop" and "not for me" deny a habit, they do not turn it down.

"I'm teetotal, not a drop." (heldout55) was refused against "Does not drink alcohol.": "drop" read as a word
pointing down, so the absent phrase "teetotal" was doubted and dropped, and nothing was left. "Alcohol's not for
me, I'm teetotal." (heldout47) read the alcohol as taken: "not for me" after what it denies was no negation.
"not a drop" and "a drop of" are now phrases with no direction (language.json's ``non_directional_phrases``; "a drop
in my mood" keeps its direction), and "not for me" a negation that follows what it denies
(``trailing_negation_cues``). The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

import pytest
from conftest import entailed


@pytest.mark.parametrize(
    "output",
    ["Teetotal, me - not a drop since I was twenty.", "Drink's not for me, never has been."],
)
def test_the_habit_is_denied(matcher, output):
    assert entailed(matcher, "Does not drink alcohol.", output)
    assert not entailed(matcher, "Drinks alcohol.", output)


def test_a_drop_in_mood_keeps_its_direction(matcher):
    assert not entailed(matcher, "Mood has improved.", "There's been a drop in my mood.")
