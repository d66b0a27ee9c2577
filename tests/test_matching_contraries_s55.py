"""Stop 55: contraries that heldout54's even half showed the matcher crediting (six of its seven wrong accepts),
written apart from the pairs: a scan showing lost tissue against one showing it preserved, a denied plan against
preparation, being off work against working, a feeling tied to one topic against one present whatever the topic,
and drinking to sleep or cope against drinking for company. Each is read by contrary_clash and turns the
matcher's accept away; the same side on both statements still matches."""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import contrary_clash

OPPOSITES = [
    ("CT head: generalised cerebral atrophy.", "CT head: brain volumes preserved for age, no bleed."),
    ("Suicidal thoughts at times, no plan or intent.", "I've been stockpiling my pills in a drawer."),
    ("Off work for three months with low mood.", "I'm still working, I just come home and collapse."),
    ("Panicky when money is mentioned.", "She was on edge regardless of the topic."),
    ("Uses cannabis to cope with the flashbacks.", "I only have a smoke at parties, on special occasions."),
]


@pytest.mark.parametrize(("checkpoint", "output"), OPPOSITES)
def test_the_other_side_is_a_contrary(checkpoint, output):
    assert contrary_clash(checkpoint, output) is not None


@pytest.mark.parametrize(("checkpoint", "output"), OPPOSITES)
def test_the_matcher_does_not_credit_the_other_side(matcher, checkpoint, output):
    assert not entailed(matcher, checkpoint, output)


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("MRI: hippocampal atrophy.", "The scan showed the memory part of my brain has shrunk, atrophy they called it."),
        ("Passive death wishes, no plan.", "I sometimes wish I wouldn't wake up, but I've got no plan to do anything."),
        ("Signed off work with stress.", "The GP signed me off work last month with the stress."),
        ("Drinks to get to sleep.", "I have a few whiskies at night to get to sleep."),
    ],
)
def test_the_same_side_is_no_contrary(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None


# stop 55's review: 'signed me off' was on neither side, so 'Work has been stressful so the GP signed me off.' read as
# working only and was refused for 'Signed off work with stress.'. The doctor's signing off, with its object between,
# is the off-work side; a statement that says both sides (stressful work and signed off) is no contrary either way
BOTH_SIDES = [
    ("Signed off work with stress.", "Work has been stressful so the GP signed me off."),
    ("Off sick from work.", "Work's been really stressful, so the doctor signed her off for a month."),
]


@pytest.mark.parametrize(("checkpoint", "output"), BOTH_SIDES + [(b, a) for a, b in BOTH_SIDES])
def test_a_statement_saying_both_sides_of_work_is_no_contrary(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None


SIGNED_OFF = [
    ("Still working full time.", "The GP signed me off last week."),
    ("Still at work as a nurse.", "My doctor signed him off in March."),
]


@pytest.mark.parametrize(("checkpoint", "output"), SIGNED_OFF + [(b, a) for a, b in SIGNED_OFF])
def test_signed_off_with_its_object_between_is_the_off_work_side(checkpoint, output):
    assert contrary_clash(checkpoint, output) is not None
