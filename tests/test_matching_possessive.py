"""A person named as the owner of what the patient acts on is no subject of the clause (stop 48).

"Injected her mother's insulin" is the patient's act; "her mother's depression" stays the mother's; "since her
mother's death" dates by the mother's event. Read by the parse (knowledge.language._possessors_of_objects)."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.adjudication import statement_conflict, subject_clash, verb_subjects

from mentalhospital_env.knowledge.language import clauses


def subjects(text: str) -> list[str]:
    return [c.subject for c in clauses(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Injected her mother's insulin before each of the lows.",
        "Takes his wife's co-codamol most nights.",
        "Took the tablets from her mother's bathroom cabinet.",
    ],
)
def test_owner_of_an_object_is_not_the_subject(text):
    assert subjects(text) == ["patient"]


@pytest.mark.parametrize(
    "text",
    [
        "Her mother's depression got worse.",
        "Depression in her mother's family.",
        "His wife takes co-codamol for her endometriosis.",
    ],
)
def test_owner_who_is_the_subject_stays_other(text):
    assert subjects(text)[0] == "other"


def test_a_dating_phrase_stays_about_the_person():
    # "since her mother's death": the death is the mother's, the clause dates by it
    assert subjects("Has felt lonely and invisible since her mother's death and the divorce.")[-1] == "other"


def test_an_owned_finding_stays_the_owner_s():
    # a symptom owned by a relative is not made the patient's by the clause's verb
    reply = "I worry about my mum's depression, and my brother's drinking."
    assert statement_conflict("Low mood.", "My mum's depression got worse.") is not None
    assert subjects(reply)[0] == "patient"  # the worrying is the patient's


def test_the_patient_taking_a_relative_s_drug_against_the_relative_taking_it():
    checkpoint = "Takes his wife's co-codamol most nights."
    assert statement_conflict(checkpoint, "I've been having a couple of my wife's co-codamol at night.") is None
    assert statement_conflict(checkpoint, "His wife takes co-codamol for her endometriosis.") is not None


def test_a_later_self_does_not_keep_an_owner_as_subject():
    # "took my dad's gun ... thinking I'd just end it": the owner is the object's, the clause the patient's
    reply = "I went in, took my dad's gun out of the drawer and sat with it thinking I'd just end it."
    assert "other" not in subjects(reply)[1:2]


def test_a_gerund_or_a_subject_is_its_owner_s():
    # "my brother's drinking": the drinking is the brother's, whether "'s" is read as a possessive or as "is"
    assert verb_subjects("My brother's drinking is out of control.", False) == {("drink", False)}
    assert verb_subjects("My mum's depression has got worse.", False) == {("depression", False)}
    assert subject_clash("He drinks heavily.", "My brother's drinking is out of control.") is not None
    assert subject_clash("His brother drinks heavily.", "My brother's drinking is out of control.") is None


def test_a_being_verb_s_complement_is_said_of_its_subject():
    assert verb_subjects("I'm depressed.", False) == {("depress", True)}
    assert subject_clash("He is depressed.", "My mum's been depressed for years.") is not None
    # said of both: nobody's alone, no clash
    assert subject_clash("She is depressed.", "I'm depressed, and my mum's depressed too.") is None
