"""Cue faults read in heldout52's even half at stop 53, each tried on wordings the set does not hold (the mends carry
to a writer's next phrasing, they fit no one utterance): euphemisms for suicide ("doing away with yourself", thoughts of
joining the dead), lay and regional names of drink and drugs ("on the sauce", hidden bottles, "bevvies", "brown sugar"),
Indian English "taking tension" for worry, harm to "somebody" (violence, not self-harm), beliefs of bewitchment (juju,
witchcraft, black magic), help sought from a pastor or a traditional healer, schooling named by its place ("medical
school", Scottish Highers), "no strength" for energy, self-care named by bathing or "looking after herself", and a
relative called "da", "ma" or "mammy" (the relative's own history, not the patient's)."""

from __future__ import annotations

import pytest

from mentalhospital_env.patient.understanding import understand


@pytest.mark.parametrize(
    ("utterance", "topic"),
    [
        ("Have you had any thoughts of doing away with yourself?", "suicide"),
        ("Since your wife died, any thoughts of joining her?", "suicide"),
        ("Is he back on the sauce?", "alcohol"),
        ("Have you found him hiding bottles in the shed?", "alcohol"),
        ("How many bevvies would you have on a night out?", "alcohol"),
        ("Is anyone selling you brown sugar?", "opioids"),
        ("Do you take tension over every little thing?", "worry"),
        ("Do you think somebody has put juju on you?", "beliefs"),
        ("Does she believe it's witchcraft that's made her ill?", "beliefs"),
        ("Has he ever been seen by a traditional healer for this?", "help_tried"),
        ("Did you go to an imam about it first?", "help_tried"),
        ("Have you felt like you might harm somebody?", "violence"),
        ("What did you do after medical school?", "education"),
        ("How did your Highers go?", "education"),
        ("Do you feel like there's no strength in you at all?", "energy"),
        ("Is he still bathing and looking after himself?", "functioning"),
        ("Did your da ever see a psychiatrist?", "family_history"),
        ("Was your ma ever in hospital with her nerves?", "family_history"),
    ],
)
def test_a_heldout52_cue_fault_is_mended_in_a_new_wording(utterance, topic):
    assert topic in understand(utterance).topics


@pytest.mark.parametrize(
    ("utterance", "topic"),
    [
        ("Any urges to harm somebody else?", "self_harm"),  # harm to another is violence, not self-harm
        ("Did your da have diabetes?", "medical_history"),  # the father's illness is family history
    ],
)
def test_the_mended_wording_no_longer_reads_the_wrong_topic(utterance, topic):
    assert topic not in understand(utterance).topics


# Wrong readings a reviewer found in the cues above (each read so at 5257ffaa), each as a wording that must not read a
# topic, beside wordings the mended cue must still hear.
@pytest.mark.parametrize(
    "utterance",
    [
        "Any thoughts of joining a gym or a class to get out?",  # read suicide at 5257ffaa (nothing before)
        "Any thoughts of joining a support group?",
    ],
)
def test_joining_a_group_is_no_wish_to_join_the_dead(utterance):
    assert "suicide" not in understand(utterance).topics


@pytest.mark.parametrize(
    "utterance",
    [
        "Since your husband passed, have you thought of joining him in heaven?",
        "Any thoughts of joining your mum?",  # the mum is the dead one joined, not a relative whose history is asked
    ],
)
def test_joining_the_dead_is_still_heard(utterance):
    assert "suicide" in understand(utterance).topics


@pytest.mark.parametrize(
    "utterance",
    [
        "Did you take all the pills you were prescribed this week?",  # read suicide alone at 5257ffaa (medication before)
        "Have you taken all your pills as prescribed?",
    ],
)
def test_taking_the_pills_as_prescribed_is_adherence_not_an_overdose(utterance):
    topics = understand(utterance).topics
    assert "suicide" not in topics and "medication" in topics


@pytest.mark.parametrize(
    "utterance",
    ["Have you ever taken all your pills in one go?", "Did he swallow all his tablets at once?"],
)
def test_an_overdose_of_all_the_pills_is_still_heard(utterance):
    assert "suicide" in understand(utterance).topics


def test_an_ma_is_a_degree_not_a_mother():
    # read ['education'] at 5257ffaa: 'MA' taken for a mother made the illness hers and dropped the patient's own
    read = understand("Did you get an MA after the degree, any illness then?")
    assert "medical_history" in read.topics and read.relative is None


def test_your_da_is_still_a_father():
    read = understand("Was your da a heavy drinker?")
    assert "family_history" in read.topics and read.relative == "father"


def test_empty_bottles_alone_ask_no_drink():
    # read ['alcohol'] at 5257ffaa: in an overdose assessment the bottles by the bed may be the pills'
    assert "alcohol" not in understand("Were there any empty bottles at his bedside?").topics
    assert "alcohol" in understand("Were there empty bottles of vodka by her bed?").topics



def test_the_morning_tablets_taken_at_once_are_no_overdose():
    # the first frame of f9760258 took 'at once' for an overdose: the morning tablets are taken together
    assert "suicide" not in understand("Do you take all your tablets at once in the morning?").topics
    assert "suicide" in understand("Have you ever taken all your tablets all at once?").topics


def test_bottles_of_pills_hidden_are_no_drink():
    # 5257ffaa's 'hide bottles' read 'Does he hide bottles of pills?' as alcohol: the bottles are named as the pills'
    assert "alcohol" not in understand("Does he hide bottles of pills?").topics
    assert "alcohol" in understand("Have you found him hiding bottles in the shed?").topics
