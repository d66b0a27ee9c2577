"""Stop 56: contraries that heldout55's even half and heldout54 showed the matcher crediting (7 of their 29 wrong
accepts), written apart from the pairs: lacking decision-making capacity against having it, partial insight against
full, doses skipped against taken every time, a test value raised against within range ('not elevated' is the
second side through the flip cue), poor sleep against undisturbed sleep, and a plan denied against one worked out
in lay words ('I've worked it all out'; 'without plan or intent' is a denial too). Each is read by contrary_clash
and turns the matcher's accept away; the same side on both statements still matches."""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import contrary_clash

OPPOSITES = [
    ("Lacks capacity to consent to the admission.", "He has capacity to refuse the admission."),
    ("Partial insight into her illness.", "She fully accepts that she has an illness."),
    ("Skipping her olanzapine most days.", "I take my olanzapine every single day, never miss a dose."),
    ("Creatine kinase not elevated.", "CK was markedly raised on the second day."),
    ("Raised ALT at 140.", "Liver tests within normal limits."),
    ("Sleeping badly since the move.", "Sleep undisturbed since the move."),
    ("Fleeting thoughts of death without plan or intent.", "I've worked it all out, the where and the when."),
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
        ("Lacks capacity to consent to the admission.", "He does not have capacity to decide about the admission."),
        ("Partial insight into her illness.", "Her insight is partial: she accepts some of it."),
        ("Skipping her olanzapine most days.", "I've been skipping my olanzapine most days."),
        ("Prolactin elevated.", "Prolactin was raised."),
        ("Sleep undisturbed.", "She sleeps undisturbed most nights."),
        ("Passive death wishes without plan or intent.", "I sometimes wish I wouldn't wake up, but I've got no plan."),
    ],
)
def test_the_same_side_is_no_contrary(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None
