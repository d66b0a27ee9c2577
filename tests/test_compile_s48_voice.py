"""Stop 48 (the voice room): whose fact or words a record sentence is. The patient's names come from the record's
patient line, not from a titled name of someone else; another's quotation, a clause whose subject is another named
person, a subjectless clinician's action, a name line and an administrative label are never said by the patient as
his own; his own quoted words are kept. Records written here for the test (no bundled record's words)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.compile import _patient_names, _quoted_segments, compile_facts, split_sentences
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences

RECORD = (
    "Patient: MORLEY, Gregory Alan ('Greg'). DOB 2/2/1970.\n"
    "Address: Flat 2, 14 Quarry Lane, Ashby.\n"
    "Collateral from: wife Maureen Morley; son Callum Morley; employer Mr Pask.\n"
    "10/3/26 GP CONSULT\n"
    "Greg has been low since his mother died in January.\n"
    "Maureen: 'He's not sleeping. He's drinking every night and he won't talk to me.'\n"
    "Greg: 'I'm just tired, that's all.'\n"
    "Callum's gambling is his own business but he should not be lent money.\n"
    "Maureen dates the change to 'about Christmas, when he stopped going to the allotment'.\n"
    "Discussed that the sleeping tablets with alcohol are dangerous.\n"
    "Pask (OT)\n"
    "Sleeps four hours a night.\n"
)


def _facts():
    return compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=RECORD), "male")


def test_the_patient_line_names_the_patient_and_never_a_titled_other() -> None:
    names = _patient_names(EHR(chief_complaint="Low mood.", history_of_present_illness=RECORD), "male")
    assert "Gregory" in names and "Greg" in names, names
    assert "Pask" not in names and "Morley" not in names, names  # the employer; the surname is the family's


def test_his_own_name_as_subject_is_said_in_the_first_person() -> None:
    said = told_sentences(_facts())
    assert "I've been low since my mother died" in said, said
    assert "Greg" not in said, said


def test_anothers_words_and_facts_are_never_his() -> None:
    said = told_sentences(_facts())
    for theirs in ("I'm not sleeping", "not sleeping", "won't talk to me", "gambling", "lent money", "dates the change",
                   "dangerous", "address", "Quarry Lane", "pask"):
        assert theirs.lower() not in said.lower(), (theirs, said)


def test_his_own_quoted_words_and_his_own_facts_are_kept() -> None:
    said = told_sentences(_facts())
    assert "I'm just tired, that's all" in said, said
    assert "four hours" in said, said


def test_a_wrapped_line_wraps_past_trailing_spaces_and_an_indent() -> None:
    assert split_sentences("He said he was tired \n   and went home.\nNEXT ENTRY") == [
        "He said he was tired\nand went home.", "NEXT ENTRY"]


# --- stop 48 mend (review_patient MUST 1-7): the patient's own facts are never silenced for another's words ---


@pytest.mark.parametrize(("sentence", "quotes"), [
    ("He hears his three flatmates 'laughing about me through the floors' - he calls it 'the noise'.",
     ["laughing about me through the floors", "the noise"]),
    ("He says the thought of drowning had 'sat in the back of my head for days' and that he stood on the pier 'more than twice'.",
     ["sat in the back of my head for days", "more than twice"]),
    ("He feels he has 'let down my own parents' and that he is useless.", ["let down my own parents"]),
    ("Over the winter she had 'shutdowns' most weeks: she goes to bed.", ["shutdowns"]),
    ("She reports 'months' of poor sleep.", ["months"]),
    ("She slept in her parents' bed until she was nine.", []),
])
def test_a_closing_quote_after_an_s_pairs_with_its_opening(sentence, quotes) -> None:
    assert _quoted_segments(sentence) == quotes


HER_RECORD = EHR(
    chief_complaint="CC: low mood and poor sleep for two months.",
    history_of_present_illness=(
        "Patient: QUINLAN, Tessa Marie. DOB 4/4/1990.\n"
        "Ms Quinlan reports she has been sleeping only four hours a night since the new year.\n"
        "Before taking the tablets she took the rifle from the cupboard and held it 'for a while', put it back because "
        "'Ellie would have to know her mom did that'.\n"
        "She lived with partner Kieran until May; her friend Priya visits daily.\n"
        "Kieran moved out to his brother's on 2 May and wants her things out by June.\n"
        "Priya is her main support.\n"
        "Priya says she has 'not been herself' since Easter.\n"
    ),
    medical_history=("Restless legs for some years, worse at night. Diagnosed by her GP in 2024 and started on ropinirole. "
                     "Increased in September 2024 because of night symptoms."),
    allergies="Carbamazepine (widespread rash 2019).",
)


@pytest.fixture(scope="module")
def her_facts():
    return compile_facts(HER_RECORD, "female")


def test_her_own_act_outside_a_clinicians_quote_is_kept(her_facts) -> None:
    said = told_sentences(her_facts)
    assert "held it" in said and "rifle" in said, said


def test_what_another_does_in_her_life_is_hers_and_anothers_account_is_not(her_facts) -> None:
    said = told_sentences(her_facts)
    assert "moved out" in said, said  # the precipitant: no attribution verb
    assert "main support" in said, said  # a protective factor
    assert "not been herself" not in said.lower() and "not been myself" not in said.lower(), said  # Priya says


def test_a_drug_on_the_allergy_list_is_no_name(her_facts) -> None:
    assert "carbamazepine" in told_sentences(her_facts).lower()


def test_her_titled_surname_is_her(her_facts) -> None:
    said = told_sentences(her_facts)
    assert "I've been sleeping only four hours a night" in said, said
    assert "Quinlan" in _patient_names(HER_RECORD, "female")


def test_a_chief_complaint_label_is_told(her_facts) -> None:
    said = told_sentences(her_facts)
    assert "poor sleep" in said, said


def test_her_drug_history_is_no_clinicians_action(her_facts) -> None:
    said = told_sentences(her_facts)
    assert "September 2024" in said and "ropinirole" in said.lower(), said


def test_a_surname_or_a_units_word_is_no_first_name() -> None:
    from mentalhospital_env.cases.compile import _data, _named_people

    whole = ("Transfer to 4 West Adult Inpatient Psychiatry, 3/14/27. Father Tyler Bishop (29); ex Tyler Bishop (29, "
             "driver) - she says Tyler shouts. Partner Jordan Pike (31, plumber); MD phoned Jordan Pike; lives with "
             "boyfriend Jordan.")
    people = _named_people(whole, ("Kayla",), _data())
    assert {"tyler", "jordan"} <= people and not people & {"bishop", "pike", "inpatient"}, people
