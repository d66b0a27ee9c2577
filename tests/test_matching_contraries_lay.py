"""Lay wordings of the two sides of contrasts.json's contraries: a medicine that worked wonders against one that
made no difference, sleeping straight through against broken nights, a big group of friends against few friends."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.adjudication import contrary_clash


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Sertraline has made no difference.", "The sertraline's been marvellous, I'm much brighter on it."),
        ("Avoids parties.", "I'm the first one there and the last to leave at any party going."),
        ("Few friends; eats lunch alone.", "I sit with my big group of friends every lunchtime."),
        ("Partner is supportive.", "My partner's washed his hands of me."),
        ("Has lost enjoyment, even in his sewing.", "The sewing's the one thing that still gives me a lift."),
        ("Broken night sleep with vivid dreams.", "Nights are great, I sleep straight through, eight hours solid."),
        ("Marriage has been strained this year.", "This has been our happiest year together."),
        ("Can't get off to sleep even when exhausted.", "Getting off is easy, it's waking at four that's the problem."),
    ],
)
def test_a_lay_opposite_is_a_contrary(checkpoint, output):
    assert contrary_clash(checkpoint, output) is not None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Sertraline has helped a great deal.", "The sertraline's been marvellous, I'm much brighter on it."),
        ("Sociable, with a wide circle of friends.", "I sit with my big group of friends every lunchtime."),
        ("Sleeps well.", "I sleep straight through, eight hours solid."),
        ("Broken sleep.", "My nights are broken, I'm up every couple of hours."),
        ("Can't get off to sleep.", "I can't get off to sleep however tired I am."),
    ],
)
def test_the_same_side_is_no_contrary(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        # heldout49's opposites said without a negation word, each side in general lay English
        ("Poor appetite; has to force herself to eat.", "I'm eating like a horse, I never stop picking."),
        ("Manages his shopping and bills without help.", "My son does all my shopping and sorts the bills now."),
        ("Has declined a promotion.", "I took the promotion last year."),
        # heldout48's: lost enjoyment against the lay words of looking forward to it, a course finished late
        ("Has lost enjoyment in playing the guitar.", "Guitar's the best bit of my day, I practise for hours."),
        ("Loss of enjoyment in running.", "Running's the one thing keeping me going, I still look forward to it."),
        ("Took longer than planned to finish her degree.", "I finished my degree on time, got a 2:1."),
    ],
)
def test_lay_opposites_without_a_negation_word_are_contraries(checkpoint, output):
    assert contrary_clash(checkpoint, output) is not None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Poor appetite; has to force herself to eat.", "I've no appetite, I have to force myself to eat."),
        ("Relies on her son for shopping and bills.", "My son does all my shopping and sorts the bills now."),
        ("Has declined a promotion.", "They offered me team leader and I turned it down."),
        ("Loss of enjoyment in running.", "I don't look forward to anything any more."),
        ("Took longer than planned to finish her degree.", "Uni took me five years, longer than I planned."),
        # 'nobody' and 'no one' turn a side as 'no' does (the negation cues hold them; the flip cues did not)
        ("Manages his bills without help.", "I manage all my bills myself, nobody does it for me."),
    ],
)
def test_the_same_side_of_those_contraries_is_no_clash(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        # picking at food is eating little, and 'always picking' may be at food or at a person, never eating plenty
        ("Poor appetite.", "I'm not eating well at all, I just pick at my food."),
        ("Poor appetite.", "I'm always picking at my food, never finish a plate."),
        ("Poor appetite since the bullying started.", "I can't eat, my manager is always picking on me."),
        # 'I sort my bills' and 'I do all my own shopping' say the person does it (stemmed, 'sorts my' read as 'sort my')
        ("Manages his bills without help.", "I sort my bills myself."),
        ("Manages her shopping and bills without help.", "I do all my own shopping and I sort my bills myself."),
        # what once kept one going, or was the best part of the day then, is no pleasure now
        ("Loss of enjoyment in most things.", "Nothing's fun any more, it's only the kids keeping me going."),
        ("Loss of pleasure in his work.", "Work was the best part of my day once, now it's a slog."),
        ("Loss of interest in going out.", "I used to look forward to going out with the girls, not now."),
    ],
)
def test_a_lay_word_that_does_not_say_the_other_side_is_no_clash(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None
