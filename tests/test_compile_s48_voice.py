"""Stop 48 (the voice room): whose fact or words a record sentence is. The patient's names come from the record's
patient line, not from a titled name of someone else; another's quotation, a clause whose subject is another named
person, a subjectless clinician's action, a name line and an administrative label are never said by the patient as
his own; his own quoted words are kept. Records written here for the test (no bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import _patient_names, compile_facts, split_sentences
from mentalhospital_env.cases.model import EHR

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


def _said(facts) -> str:
    return " ".join(f.patient_says or "" for f in facts if f.told)


def test_the_patient_line_names_the_patient_and_never_a_titled_other() -> None:
    names = _patient_names(EHR(chief_complaint="Low mood.", history_of_present_illness=RECORD), "male")
    assert "Gregory" in names and "Greg" in names, names
    assert "Pask" not in names and "Morley" not in names, names  # the employer; the surname is the family's


def test_his_own_name_as_subject_is_said_in_the_first_person() -> None:
    said = _said(_facts())
    assert "I've been low since my mother died" in said, said
    assert "Greg" not in said, said


def test_anothers_words_and_facts_are_never_his() -> None:
    said = _said(_facts())
    for theirs in ("I'm not sleeping", "not sleeping", "won't talk to me", "gambling", "lent money", "dates the change",
                   "dangerous", "address", "Quarry Lane", "pask"):
        assert theirs.lower() not in said.lower(), (theirs, said)


def test_his_own_quoted_words_and_his_own_facts_are_kept() -> None:
    said = _said(_facts())
    assert "I'm just tired, that's all" in said, said
    assert "four hours" in said, said


def test_a_wrapped_line_wraps_past_trailing_spaces_and_an_indent() -> None:
    assert split_sentences("He said he was tired \n   and went home.\nNEXT ENTRY") == [
        "He said he was tired\nand went home.", "NEXT ENTRY"]
