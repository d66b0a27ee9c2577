"""Amounts said in different units: weights in kilograms, pounds and stone; a bottle or a drink of spirit against
units of alcohol (contrasts.json's mass_units and drink_units.spirits)."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.adjudication import _amounts_differ, _quantities


def differ(checkpoint: str, output: str) -> str | None:
    return _amounts_differ(_quantities(checkpoint), _quantities(output), checkpoint, output)


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Has lost about 12 lb since November.", "I've dropped about twelve kilos since the fall."),
        ("Has lost about 9 kg over two months.", "He's lost maybe two or three pounds, nothing to write home about."),
        ("Lost about 4 kg.", "Nearly two stone has come off me since January."),
        ("Drinks about eight units at weekends.", "I'll get through a bottle of vodka between Friday and Sunday."),
        ("Drinks about a litre of vodka a day (around 40 units).", "A couple of vodkas of an evening, that's me."),
    ],
)
def test_amounts_in_other_units_that_differ(checkpoint, output):
    assert differ(checkpoint, output) is not None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Lost about 4 kg.", "I've lost about nine pounds this year."),
        ("Gained about 8 kg in a year.", "I'm about eighteen pounds heavier than this time last year."),
        ("Has lost about twelve kilograms over nine months.", "She's dropped about two stone since the spring."),
        # a fraction read only in part is not compared ("five and a half kilos" is read as five)
        ("Has lost about 12 lb since November.", "I've lost about five and a half kilos since November."),
        ("Has lost about 9 kg in a year.", "He's gone from eleven stone to about nine and a half in the past year."),
        ("Has lost about 4 kg over two months.", "The scales say I'm about half a stone down."),
        # money in pounds is no weight
        ("Smokes skunk daily, about 20 pounds a day.", "Every day, yeah, but a fiver's worth at most."),
        # spirit measures only where a spirit is named; two bottles of wine are about 20 units
        ("Drinks about a litre of vodka a day (around 40 units).", "About forty units a day, it's all vodka."),
        ("Drinks about 20 units a week.", "Two bottles of wine."),
        ("Drinks about 30 units a week.", "I'll get through a bottle of vodka on a Saturday."),
    ],
)
def test_amounts_in_other_units_that_agree(checkpoint, output):
    assert differ(checkpoint, output) is None
