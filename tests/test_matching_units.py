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


@pytest.mark.parametrize(
    ("said", "amounts"),
    [
        ("I've been down for about a month and a half now.", {(6.0, "week")}),
        ("Year and a half ago it all started.", {(18.0, "month")}),
        ("I've been snappy this last fortnight.", {(2.0, "week")}),
        ("Maybe an hour or two a night, if that.", {(1.0, "hour/day"), (2.0, "hour/day")}),
    ],
)
def test_lay_amounts_are_read_as_the_amounts_they_are(said, amounts):
    """contrasts.json's spoken_amounts: 'a month and a half' was no amount at all, 'an hour or two a night' was two
    nights."""
    assert _quantities(said) == frozenset(amounts)


def test_an_hour_or_two_a_night_differs_from_five_hours_and_agrees_with_two():
    assert differ("Sleeping about five hours a night.", "Maybe an hour or two a night, if that.") is not None
    assert differ("Sleeping about two hours a night.", "Maybe an hour or two a night, if that.") is None
