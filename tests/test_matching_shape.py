"""The structural readings the coverage matcher applies to its accepts (rewards/structure.py, issue 18): rates on one
scale, a fear or wish against a fact, an answer that commits to nothing, when something began."""

from __future__ import annotations

import pytest

from mentalhospital_env.rewards import matching, structure
from mentalhospital_env.rewards.matching import Matcher, MatcherConfig
from mentalhospital_env.rewards.structure import (
    feared_clash,
    noncommittal_clash,
    onset_clash,
    rate_clash,
    rates,
    structural_clash,
)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks around 5 units of alcohol a week.", "I finish a bottle of vodka on a Friday, on my own."),
        ("Drinks about 90 units a week.", "Just a pint or two at the weekend."),
        ("Smokes 5 cigarettes a day.", "Two packs a day, easy."),
        ("Takes sertraline 50 mg once daily.", "I only take it maybe once a week, when I remember."),
        ("Goes to the gym three mornings a week.", "I'm down the gym twice in the whole year, if that."),
    ],
)
def test_rates_apart_on_one_scale_clash(checkpoint, output):
    assert rate_clash(checkpoint, output) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks about 45 units a week.", "Four or five pints, five or six nights a week."),
        ("Drinks about 12 units a night at weekends.", "Saturdays I'll have about twelve units on the night."),
        ("Takes sertraline 50 mg once daily.", "One tablet every morning, the fifty milligram."),
        ("Drinks about 120 units a week.", "I reckon it's around a hundred and twenty units a week."),
        ("Wakes at about five most mornings.", "Most days I'm up at 5 am and can't get back off."),
    ],
)
def test_rates_that_agree_or_are_not_rates_pass(checkpoint, output):
    assert rate_clash(checkpoint, output) is None


def test_units_are_converted_per_week():
    assert rates("A bottle of vodka on a Saturday.")["alcohol"] == frozenset({(26.0, 28.0)})
    assert rates("Twice daily.")["events"] == frozenset({(14.0, 14.0)})
    # a measure or a duration is not a count of anything
    assert rates("Ran 10 km for six years.") == {}


def test_a_fear_or_wish_is_not_a_fact():
    assert feared_clash("Has lost her job.", "I'm scared I'll lose my job if this goes on.") is not None
    assert feared_clash("Has tried to stop gambling.", "I'd like to try stopping one day.") is not None
    # said as fact before the fear word, or a checkpoint about the fear itself
    assert feared_clash("Has lost her job.", "I lost my job in May and I'm worried I'll never get another.") is None
    assert feared_clash("Anxiety about losing her job.", "I'm scared I'll lose my job.") is None
    # a present thought is not a wish
    assert feared_clash("Active suicidal ideation at present.", "I'm thinking about killing myself right now.") is None


def test_a_noncommittal_answer_entails_nothing():
    assert noncommittal_clash("Feels hopeless.", "Hopeless? I don't know. Maybe.") is not None
    # a hedge that is part of a statement, or an answer that says something of the finding
    assert noncommittal_clash("Unsure of his identity.", "I don't know who I am any more.") is None
    assert noncommittal_clash("Feels hopeless.", "Hopeless? Maybe. I feel hopeless most days.") is None
    assert noncommittal_clash("Feels hopeless.", "Yes. I don't know, maybe.") is None
    # the doubt is what is said
    assert noncommittal_clash("Unsure whether the pain is serious.", "Whether it's anything more, I don't know.") is None


def test_onset_against_a_lay_anchor():
    assert onset_clash("Panic attacks for eight months.", "They only started last week.") is not None
    assert onset_clash("Low mood since about March.", "I've been low since I was a teenager.") is not None
    assert onset_clash("Panic attacks for eight months.", "They started about eight months ago.") is None


def test_the_matcher_refuses_a_shape_clash_and_accepts_it_without_the_check(monkeypatch):
    checkpoint = "Drinks around 5 units of alcohol a week."
    # (a bottle of vodka, about 28 units in one go, the amount rules now refuse by themselves; a few bottles of wine
    # they do not count)
    output = "I'll get through a few bottles of wine on a Saturday."
    matcher = Matcher(MatcherConfig(embedder="hashing"))
    monkeypatch.setattr(matching, "structural_clash", lambda c, o: None)
    assert matcher.match([checkpoint], [output])[0] is not None  # the rules alone accept it
    monkeypatch.undo()
    assert structural_clash(checkpoint, output) is not None
    assert Matcher(MatcherConfig(embedder="hashing")).match([checkpoint], [output])[0] is None


def test_every_applied_check_exists():
    assert set(structure.CHECKS) <= set(structure.ALL_CHECKS)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        # review M4: a finding whose clinical form is a thought, a belief, a fear, panic or a wish is entailed by the
        # patient voicing that fear or wish
        ("Thoughts of self-harm.", "I'm scared I might hurt myself."),
        ("Suicidal ideation.", "I'm frightened I might do something stupid, end it all."),
        ("Intrusive thoughts of harming her baby.", "I'm terrified I'll hurt the baby."),
        ("Persecutory delusions: believes neighbours will poison him.", "I'm afraid they'll poison my food."),
        ("Panic attacks in busy shops.", "I start panicking if I'm in a busy shop."),
        ("Motivated to stop drinking.", "I'd like to stop drinking, I really would."),
    ],
)
def test_a_fear_or_wish_entails_a_finding_that_is_one(checkpoint, output):
    assert feared_clash(checkpoint, output) is None
    assert structural_clash(checkpoint, output) is None
    assert Matcher(MatcherConfig(embedder="hashing")).match([checkpoint], [output])[0] is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        # review M3: the mood "in the patient's own words" is itself a hedge (11 suite checkpoints)
        ("'don't know'", "Don't know."),
        ("'okay, I suppose'", "Okay, I suppose."),
    ],
)
def test_a_hedge_entails_a_checkpoint_that_is_the_hedge(checkpoint, output):
    assert noncommittal_clash(checkpoint, output) is None
    assert structural_clash(checkpoint, output) is None
    assert Matcher(MatcherConfig(embedder="hashing")).match([checkpoint], [output])[0] is not None


@pytest.mark.parametrize("checkpoint", ["'okay' in his own word.", "'okay, to be honest'"])
def test_the_quoted_own_word_said_beside_a_hedge_is_an_answer(checkpoint):
    assert noncommittal_clash(checkpoint, "Okay, I suppose.") is None
    assert noncommittal_clash("Feels hopeless.", "Okay, I suppose.") is not None
