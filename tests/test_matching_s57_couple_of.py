"""Stop 57: "couple of" without its article is a count of two.

"Couple of cans of lager a day." was accepted against "Drinks six cans of lager a day.": the amount reader read
"a couple of" as two but not the spoken "couple of", so the cans had no number and no amount differed (heldout48's
"Couple of cans after work, mate, that's me." against four to six cans a day came within a hair of it). language.json's
``number_words`` now hold "couple of" as 2. The sentences below are written apart from the pair sets.
"""

from __future__ import annotations

from conftest import entailed
from mentalhospital_env.knowledge.language import quantities


def test_couple_of_counts_two():
    assert (2.0, "can") in quantities("Couple of cans after tea.")


def test_a_couple_of_cans_is_not_six(matcher):
    assert not entailed(matcher, "Drinks six cans of lager a day.", "Couple of cans of lager a day.")
    assert entailed(matcher, "Drinks two cans of lager a day.", "Couple of cans of lager a day.")
