"""Readings the stop-49 matcher got wrong in kind (heldout48's misses and the faults reported at stop 48): a measure
read through a synonym group it only shares a stem with ("pounds" as palpitations), "cannot" not read as the "can't"
of a lay phrase, a negation inside a phrase ("hears no voices"), the speaker adding themselves to a relative's
finding ("My mum's anxious, and I am too"), "ending her own life" unread, and "bus stop" read as something stopped.
Each pair is checked through the matcher, both ways where the opposite must still be refused."""

from __future__ import annotations

import pytest
from conftest import entailed
from mentalhospital_env.rewards.adjudication import read_statement

from mentalhospital_env.knowledge.language import quantities


def test_pounds_are_a_weight_not_palpitations():
    assert quantities("I lost two pounds.") == frozenset({(2.0, "pound")})
    assert quantities("twelve kilos") == frozenset({(12.0, "kilogram")})


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Palpitations.", "I lost two pounds over Christmas.", False),
        ("Palpitations.", "My heart's pounding all the time.", True),
        ("Has lost about 5 kg.", "I've lost about eleven pounds.", True),
        ("Has lost about 5 kg.", "I've lost two pounds.", False),
    ],
)
def test_weights_in_pounds(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


def test_cannot_is_read_as_the_cant_of_a_lay_phrase():
    for text in ("Wakes early and cannot get back to sleep.", "He cannot sleep."):
        reading = read_statement(text)
        assert ("insomnia", False) in {(c.concept_id, c.negated) for c in reading.concepts}, text


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Wakes at five every morning and cannot get back to sleep.",
         "Five o'clock, every morning, wide awake, and that's it, I can't drop back off.", True),
        ("Wakes at five every morning and cannot get back to sleep.", "I sleep right through till my alarm.", False),
        # once "cannot get back to sleep" is insomnia, a late sleeper's insomnia must not pass for early waking
        ("Wakes at five every morning and cannot get back to sleep.",
         "I can't get off to sleep till three, then I sleep till lunchtime.", False),
    ],
)
def test_cannot_get_back_to_sleep(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Hears no voices.", "I don't hear any voices.", True),
        ("Hears no voices.", "I hear voices at night.", False),
        ("Auditory hallucinations.", "He hears no voices.", False),
        ("Denies auditory hallucinations.", "I hear no voices, only my own thoughts.", True),
    ],
)
def test_a_negation_inside_a_phrase_denies_it(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


def test_a_phrase_holding_its_own_negation_word_is_not_denied():
    assert ("fatigue", False) in {(c.concept_id, c.negated) for c in read_statement("I have no energy.").concepts}


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Feels anxious much of the time.", "My mum's anxious, and I am too.", True),
        ("Low mood.", "My dad gets really down, and so do I.", True),
        ("Feels anxious much of the time.", "My mum's anxious, but I'm not.", False),
        ("Mother has anxiety.", "My mum's anxious, and I am too.", True),
    ],
)
def test_the_speaker_adding_themselves_to_a_relatives_finding(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        ("Has no thoughts of ending her own life.", "I've never thought about killing myself.", True),
        ("Has no thoughts of ending her own life.", "I think about killing myself most days.", False),
    ],
)
def test_ending_her_own_life(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


def test_a_bus_stop_is_nothing_stopped(matcher):
    checkpoint = "Excessive daytime sleepiness, falling asleep in most lessons and on the bus."
    assert entailed(matcher, checkpoint, "I fall asleep in nearly every lesson, and I've missed my bus stop twice.")


@pytest.mark.parametrize(
    ("checkpoint", "output", "entails"),
    [
        # the cue asked, or denied after it, adds nothing
        ("Hears voices.", "My brother hears voices. Me too? No, never.", False),
        ("Hears voices.", "My brother hears voices. Does that mean me too?", False),
        ("Hears voices.", "My uncle hears voices. Same here? No.", False),
        ("Excessive worry.", "My wife worries about money. So do I?", False),
        ("Hears voices.", "My brother hears voices. Me too. No, not really.", False),
        # a cue that is no clause of its own, or does not end its sentence
        ("Hears voices.", "My uncle heard voices and was sectioned. I'm the same age he was then.", False),
        ("Self-harms.", "My sister self-harms. I worry I'll end up like her, me too.", False),
        ("Uses cannabis.", "My friend smokes weed, I don't, but he wants me too.", False),
        # the person compared with, not everyone named before
        ("Alcohol dependence.", "My mum had depression and my dad was an alcoholic. I'm the same as my mum, really.", False),
        ("Low mood.", "My mum had depression and my dad was an alcoholic. I'm the same as my mum, really.", True),
        ("Low mood.", "My mum gets depressed and my dad drinks, me too.", False),
        ("Anxious.", "My mum's anxious and my dad drinks. I'm the same as my mum.", True),
        ("Drinks alcohol.", "My mum's anxious and my dad drinks. I'm the same as my mum.", False),
        # kept
        ("Previous suicide attempt.", "My dad tried to kill himself, and I have too.", True),
        ("Anxious.", "My mum's anxious, and I am too.", True),
        ("Hears voices.", "My brother hears voices. Me too.", True),
        ("Previous suicide attempt.", "My dad tried to kill himself. So did I.", True),
        ("Excessive worry.", "My wife worries about money, so do I, really.", True),
        # a family history copied to the patient is the patient's own finding
        ("Drinks alcohol.", "My dad drinks, so do I.", True),
        ("Drinks alcohol.", "My dad drinks a lot, and I do too.", True),
    ],
)
def test_self_inclusion_takes_only_the_finding_it_answers(matcher, checkpoint, output, entails):
    assert entailed(matcher, checkpoint, output) is entails


def test_a_family_history_added_to_the_patient_is_their_own_finding():
    concepts = {(c.concept_id, c.subject) for c in read_statement("My dad drinks, so do I.").concepts}
    assert ("alcohol_use", "patient") in concepts
    assert ("family_substance_use", "patient") not in concepts
