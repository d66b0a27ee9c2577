"""A lead the record compiler puts before a clinician's words ("I've had", "I have", "I take", "I'm") fits
what follows it, or the sentence is not said in the patient's words (stop 30, issue 13: "I'm overdose of
paracetamol", "I take combined pill", "I've been married Karen", "I've had periods regular"). Sentences
written for these tests, not taken from any record; expectations written by reading them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases.compile import voiced


@pytest.mark.parametrize(
    "section, sentence",
    [
        ("history_of_present_illness", "Now about three nights a week."),  # an adverb, not what is had
        ("history_of_present_illness", "about school, about 'being picked last', and about the bus."),
        ("personal_history", "previously a keen runner and swimmer."),  # "I had a previously a ..."
        ("past_psychiatric_history", "Okafor, on 3 May with panic attacks"),  # a name split off its sentence
    ],
)
def test_a_lead_that_does_not_fit_is_not_said(section: str, sentence: str) -> None:
    assert voiced(section, sentence, "female") is None


@pytest.mark.parametrize(
    "section, sentence, said",
    [
        ("history_of_present_illness", "Appetite and concentration worse since March.",
         "My appetite and concentration have been worse since March."),
        ("history_of_present_illness", "Energy poor.", "My energy is poor."),
        ("personal_history", "Married Priya in 2008.", "I married Priya in 2008."),
        ("personal_history", "Married for nine years.", "I've been married for nine years."),
        ("personal_history", "Pharmacist for nine years.", "I've been a pharmacist for nine years."),
        ("substance_use", "Drinks two pints a night since age 30.", "I've drunk two pints a night since I was 30."),
        ("substance_use", "Smokes ten a day since the age of 14.", "I've smoked ten a day since I was 14."),
        ("substance_use", "an estimated 40 units a week", "I have about 40 units a week."),
        ("substance_use", "Occasional ketamine in his teens, none since.", "I had occasional ketamine in my teens, none since."),
        ("medications", "Progesterone-only pill.", "I take the progesterone-only pill."),
        ("medications", "Beclometasone inhaler twice daily; sertraline 50 mg.", "I take a beclometasone inhaler and sertraline."),
        ("history_of_present_illness", "He describes himself as 'useless'.", "I'm useless."),
        # a thing had, never a state ("I'm overdose of ...", "I'm contraceptive implant")
        ("past_psychiatric_history", "Overdose of sertraline at 19 after exams", "I had an overdose of sertraline at 19 after exams."),
        ("medical_history", "Contraceptive implant.", "I have a contraceptive implant."),
        # what already fitted still does
        ("substance_use", "About 12 units a week.", "I have about 12 units a week."),
        ("history_of_present_illness", "He has recently started drinking alone.", "I have recently started drinking alone."),
        ("personal_history", "Close to his sister.", "I'm close to my sister."),
        ("medical_history", "Hypertension since 2015.", "I've had high blood pressure since 2015."),
    ],
)
def test_a_lead_fits_what_follows_it(section: str, sentence: str, said: str) -> None:
    assert voiced(section, sentence, "male") == said


@settings(max_examples=25, deadline=None)
@given(
    nouns=st.sampled_from(["sleep", "appetite", "concentration", "energy", "memory", "sleep and appetite"]),
    adjective=st.sampled_from(["poor", "worse", "better"]),
    when=st.sampled_from(["", " in the last month", " this week"]),
)
def test_a_verbless_clause_is_said_with_its_verb(nouns: str, adjective: str, when: str) -> None:
    """A note's "noun adjective" ("Sleep poor") is the patient's own state said with its verb, never a lead
    before it ("I've had sleep poor", "I'm sleep poor")."""
    said = voiced("history_of_present_illness", f"{nouns[0].upper()}{nouns[1:]} {adjective}{when}.", "female")
    verb = "are" if " and " in nouns else "is"
    assert said == f"My {nouns} {verb} {adjective}{when}."
