"""Stop 50 (the speech room, on uw-023 and uw-022): a family entry that names the relative before what they did is
said of the relative ('My father had robert Rab him died 2009'); the family's surname after a relative's given name
is no pronoun for the patient ('My mother is Margaret him'); a risk or diagnostic formulation line is the
clinician's ('I've had future-orientated, ...', 'I've had harmful use of alcohol'); a note's 'Meds:' line is read as
a medication entry ('I've had meds, propranolol 10 mg tds'); a note saying a medicine is taken, written before the
record stops it, is not said as taken now; a role that is over ('Former heavy drinker') is said as what he is now.
Records written here for the test (no bundled record's words)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.compile import compile_facts, voiced
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences

HPI = (
    "Mr Sean Moran is a 44-year-old plasterer referred with attacks of a racing heart.\n"
    "He is taking propranolol 10 mg prn, which helps a little.\n"
    "Meds: amitriptyline 10 mg nocte, propranolol 10 mg tds prn.\n"
    "Call from Aoife Moran (wife) at 10:15.\n"
    "\nRisk:\n"
    "To self: one passive remark when drunk in 5/26; no plan, no intent; future-orientated (his daughter's wedding, "
    "the allotment). Risk to self low at present; would rise with more drinking.\n"
    "\nFormulation: a panic disorder after a fright at work. Harmful use of alcohol, escalating since the spring, "
    "drinking to get to sleep, with shaky mornings that bring on the attacks.\n"
)
FAMILY = (
    "Father: Declan 'Dec' Moran died 2015 aged 60 of a stroke at home.\n"
    "Mother: Nuala Moran (70), widowed, lives in Sligo.\n"
    "Brother: Owen (41), lives in Leeds, well.\n"
)
MEDS = ("Current: amitriptyline 10 mg at night.\n"
        "Stopped: propranolol 10 mg three times a day as needed (GP 3/6/26), tapered and stopped 2/11/26.")


@pytest.fixture(scope="module")
def facts():
    return compile_facts(EHR(chief_complaint="Attacks of a racing heart.", history_of_present_illness=HPI,
                             family_history=FAMILY, medications=MEDS), "male")


def test_a_family_entry_naming_the_relative_before_a_verb_is_said_of_the_relative(facts) -> None:
    said = told_sentences(facts, "family_history")
    assert "had declan" not in said.lower() and "has had owen" not in said.lower(), said
    assert "My father died 2015 aged 60 of a stroke" in said, said
    assert "My brother lives in Leeds" in said, said


def test_the_familys_surname_after_a_relatives_name_is_not_the_patient(facts) -> None:
    said = told_sentences(facts)
    for wrong in ("Nuala him", "Nuala me", "Aoife me", "Aoife him", "Dec him", "Dec me"):
        assert wrong not in said, said
    assert "Nuala" in said, said


def test_risk_and_diagnostic_formulation_lines_are_not_his_speech(facts) -> None:
    said = told_sentences(facts).lower()
    assert "future-orientated" not in said and "harmful use" not in said and "risk to self" not in said, said


def test_a_notes_meds_line_is_read_as_a_medication_entry(facts) -> None:
    said = told_sentences(facts, "history_of_present_illness")
    assert "meds," not in said.lower() and "tds" not in said, said
    assert "amitriptyline" in said, said


def test_a_medicine_the_record_stops_is_not_said_as_taken_now(facts) -> None:
    said = told_sentences(facts).lower()
    assert "taking propranolol" not in said and "i take propranolol" not in said, said
    assert "used to take propranolol" in said, said


@pytest.mark.parametrize("text,says", [
    ("Former heavy drinker.", "I'm a former heavy drinker."),
    ("Former smoker (quit 2010).", "I'm a former smoker."),
    ("Heavy drinker in his twenties.", "I was a heavy drinker in my twenties."),
])
def test_a_role_that_is_over_is_said_as_what_he_is_now(text: str, says: str) -> None:
    assert voiced("substance_use", text, "male") == says


def test_a_postnatal_notes_mother_is_the_patient_not_her_mother() -> None:
    hpi = ("Husband Tom present, on 2 wks paternity leave. Mother tearful at times - 'it's all a bit much, I'm worn "
           "out'. Day 3-5 weepy per Tom.\n"
           "Baby wt 3.5 kg, feeding well. Mother 'fine, just tired'. Tom does baths.\n"
           "Social history: lives with her partner Tom and the baby. Mother lives nearby and is supportive.\n")
    facts = compile_facts(EHR(chief_complaint="Low since the birth.", history_of_present_illness=hpi), "female")
    said = told_sentences(facts)
    assert "mother tearful" not in said.lower() and "my mother is fine" not in said.lower(), said
    assert "My mother lives nearby" in said, said  # her own mother, in a paragraph of no postnatal care


def test_an_illness_before_a_comma_in_a_family_entry_is_no_name() -> None:
    # "Mother: Depression, was treated ..." looked "depression," up with its comma, took it for a name and dropped it
    family = ("Father: Alcoholism, died of liver failure in 2010.\n"
              "Mother: Depression, was treated with ECT in her forties.\n"
              "Sister: Anorexia, was admitted twice as a teenager.\n"
              "Uncle: Bipolar, took lithium for years.\n"
              "Brother: Gary, has bipolar disorder.\n")
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness="Mr John Kerr is 40.",
                              family_history=family), "male")
    said = told_sentences(facts, "family_history").lower()
    for illness in ("alcoholism", "my mother has had depression", "anorexia", "my uncle has had bipolar"):
        assert illness in said, said
    assert "gary" not in said and "my brother has bipolar disorder" in said, said


def test_a_stopped_medicine_told_of_beside_the_one_taken_now_is_still_said() -> None:
    hpi = ("Mr Tom Hale is a 50-year-old driver with low mood.\n"
           "He says: 'I'm on mirtazapine now, the citalopram did nothing for me.'\n"
           "He takes his mirtazapine at night and stopped the citalopram himself in March.\n"
           "He says: 'I'm still taking the citalopram most days.'\n")
    meds = "Current: mirtazapine 30 mg nocte.\nPrevious: citalopram 20 mg (stopped March 2026)."
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=hpi, medications=meds), "male")
    said = told_sentences(facts, "history_of_present_illness")
    assert "the citalopram did nothing for me" in said, said
    assert "stopped the citalopram myself in March" in said, said
    assert "taking the citalopram" not in said, said  # a stopped medicine said as taken now is still dropped


def test_a_family_or_helping_mother_is_not_the_postnatal_patient() -> None:
    family = ("Mother had a postnatal psychosis after an emergency caesarean in 1990 and was admitted to a mother and "
              "baby unit. Father is well.")
    personal = ("Lives with her partner Tom and their baby. Mother lives nearby and helps with the nappies and night "
                "feeds; breastfeeding is going well.")
    hpi = ("Seen at the six-week check with her partner. Mother lives nearby and helps with the nappies. Mother "
           "tearful at times.\n")
    facts = compile_facts(EHR(chief_complaint="Low mood after the birth.", history_of_present_illness=hpi,
                              family_history=family, personal_history=personal), "female")
    said = told_sentences(facts)
    assert "My mother had a postnatal psychosis" in said, said
    assert said.count("My mother lives nearby and helps with the nappies") == 2, said
    assert "mother tearful" not in said.lower() and "my mother is tearful" not in said.lower(), said
