"""Stop 51, the speech room on terse charts (a US VA CPRS chart, Scottish and Irish notes): a slash between numbers
is a score or a date, never 'or' ('pain 7/10' was 'pain 7 or 10', 'one blue 11/01' '11 or 01', 'in 11/25' '11 or
25'); a denial of a doing that names a noun ('No eating disorder') is a thing not had, not 'I haven't been eating
disorder'; a family list entry saying what the relative was ('Father: Alcoholic') is not an illness he 'had'; another
person's pronoun ('his mother' in a woman's record) is not 'my'; a disability rating list ('SC 60%: lumbar spine 40%,
tinnitus 10%') is no illness the patient has. Records written here for the test (no bundled record's words)."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.cases.compile import compile_facts, expand_abbreviations, voiced
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


@pytest.mark.parametrize("text, want", [
    ("Pain today 6/10, worse at night.", "My pain today is 6 out of 10"),
    ("Pain 4-5/10 most days.", "4 to 5 out of 10"),
    ("Today pain 8/10 'no better'.", "My pain is 8 out of 10"),
])
def test_a_score_out_of_ten_is_no_or(text: str, want: str) -> None:
    said = voiced("history_of_present_illness", text, "male") or ""
    assert " or " not in said and want in said, said


def test_a_dates_slash_is_no_or() -> None:
    # a zero-padded day and month is a date in the record's own order, even with no preposition before it
    assert expand_abbreviations("Used one pill 11/03 after an argument.", "month") == \
        "Used one pill 3 November after an argument."
    assert expand_abbreviations("Used one pill 11/03 after an argument.", "day") == \
        "Used one pill 11 March after an argument."
    # 'in' a month and a two-digit year is that month, whatever the order
    for order in ("day", "month"):
        assert expand_abbreviations("Robbed at work in 10/24.", order) == "Robbed at work in October 2024."
    # a score is left alone by the dates, and a slash between words is still 'or'
    assert expand_abbreviations("Mood 3/10 today.", "month") == "Mood 3/10 today."
    # nor a score after its scale's name
    assert expand_abbreviations("PDSS 11/28, GAD-7 3/5.", "month") == "PDSS 11/28, GAD-7 3/5."
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness=(
        "Seen 25/10/26 and 28/10/26. He was robbed at the shop in 10/24, then stopped going out.")), "male")
    said = told_sentences(facts)
    assert "October 2024" in said and " or " not in said, said


def test_a_denied_doing_that_names_a_noun_is_a_thing_not_had() -> None:
    said = voiced("history_of_present_illness", "No gambling problem.", "male") or ""
    assert "been gambling" not in said and "gambling problem" in said, said
    assert voiced("history_of_present_illness", "No hearing voices.", "male") == "I haven't been hearing voices."


def test_a_family_entry_of_what_the_relative_was() -> None:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness="Seen in clinic.", family_history=(
        "Father: Alcoholic, died 2015.\nBrother: heavy drinker.\nMother: depression.")), "male")
    said = told_sentences(facts)
    assert "had alcoholic" not in said and "My father was an alcoholic" in said, said
    assert "My brother has been a heavy drinker" in said, said
    assert "My mother has had depression" in said, said  # an illness is still one she has had


def test_another_persons_pronoun_is_not_mine() -> None:
    facts = compile_facts(EHR(chief_complaint="Low mood after the birth.", history_of_present_illness="Seen in clinic.", family_history=(
        "In-laws: live in Cork; his father Donal drives her to the clinic.")), "female")
    said = told_sentences(facts)
    assert "My father" not in said, said


def test_a_disability_rating_list_is_not_an_illness() -> None:
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness="Seen in clinic.", medical_history=(
        "Asthma since childhood. SC 70%: left shoulder 30%, hearing loss 10%, migraine 30%.")), "male")
    said = told_sentences(facts)
    assert "%" not in said and "asthma" in said.lower(), said


def test_an_intolerance_is_not_an_allergy_and_a_childhood_rash_was() -> None:
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness="Seen in clinic.", allergies=(
        "Amoxicillin (rash as a child). Venlafaxine intolerance (not allergy). Reports allergy to latex (hives).")), "female")
    said = told_sentences(facts)
    assert "allergic to venlafaxine" not in said and "not an allergy" not in said.replace("not allergic", ""), said
    assert "Venlafaxine didn't agree with me, but I'm not allergic to it." in said, said
    assert "I'm allergic to amoxicillin, it gave me a rash as a child." in said, said
    assert "I'm allergic to latex, it gives me hives." in said, said


@pytest.mark.parametrize("text", ["Lethal means counselling; gun lock accepted.", "Safety plan completed. Crisis numbers given."])
def test_a_chart_note_of_what_was_accepted_or_given_is_not_said(text: str) -> None:
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness="He sleeps badly. " + text), "male")
    said = told_sentences(facts)
    assert not re.search(r"\b(?:accepted|completed|given)\b", said) and "sleep badly" in said, said


@pytest.mark.parametrize("text,wrong", [("Mood improved in 4/52 on citalopram.", "2052"),
                                        ("Low during 3/52 admission.", "2052"),
                                        ("Booked in 38/40 for delivery.", "2040"),
                                        ("Assaulted in 11/45.", "2045")])
def test_a_uk_duration_after_in_is_no_month_and_year(text: str, wrong: str) -> None:
    said = expand_abbreviations(text, "day")
    assert wrong not in said and "April 2052" not in said, said


def test_a_month_and_year_after_in_is_still_one() -> None:
    assert "November 2025" in expand_abbreviations("Assaulted on his bus in 11/25.", "day")


def test_an_intolerance_with_a_reaction_keeps_the_reaction() -> None:
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness="Seen in clinic.", allergies=(
        "Codeine intolerance (nausea and vomiting). Tramadol sensitivity (dizziness). Sertraline intolerance (not an allergy).")), "female")
    said = told_sentences(facts)
    assert "Codeine didn't agree with me, it gave me nausea and vomiting." in said, said
    assert "Tramadol didn't agree with me, it gave me dizziness." in said, said
    assert "Sertraline didn't agree with me, but I'm not allergic to it." in said, said
    assert "allergic to tramadol" not in said and "allergic to codeine" not in said, said


@pytest.mark.parametrize("text", ["PIP claim declined.", "Apprenticeship completed.", "Redundancy package accepted.",
                                  "Plea deal accepted.", "Inpatient detox completed."])
def test_the_patients_own_event_accepted_or_completed_is_said(text: str) -> None:
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness="He sleeps badly.", personal_history=text), "male")
    said = told_sentences(facts)
    word = re.search(r"(declined|completed|accepted)", text).group(1)
    assert word in said, said


@pytest.mark.parametrize("text", ["Cable lock accepted.", "Naloxone nasal spray 4 mg twice dispensed.",
                                  "Crisis plan and numbers given.", "Leaflet provided."])
def test_a_clinicians_action_accepted_or_given_stays_unsaid(text: str) -> None:
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness="He sleeps badly. " + text), "male")
    said = told_sentences(facts)
    assert not re.search(r"\b(?:accepted|dispensed|given|provided)\b", said) and "sleep badly" in said, said


def test_a_family_entry_that_denies_what_the_relative_was() -> None:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness="Seen in clinic.", family_history=(
        "Brother: not a drinker.\nSister: never a smoker.")), "male")
    said = told_sentences(facts)
    assert "a not" not in said and "a never" not in said, said
    assert "My brother isn't a drinker" in said and "My sister has never been a smoker" in said, said
