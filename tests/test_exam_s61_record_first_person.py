"""Stop 61: the record read aloud in the first person (exam audit 61: "Manages her medication with a
dosette box and her own banking online" said as "I manage my medication ..."; record_copy compares
third-person runs, so the pronoun turned to "I" escaped it). Stop 28's lesson holds: sharing words is
not enough; only a run whose sentence reads as the record, or holds the record's series, is flagged."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import exam_grading as eg  # noqa: E402

CASE = {"case_id": "t61", "ehr": {"history": {
    "presenting": "Over two years she has started repeating questions, missing appointments and losing her way on familiar walks.",
    "first": "The first attack came out of the blue while she was driving on the motorway to work.",
    "function": "She is stable on lithium and quetiapine until about six weeks ago when her mother was in hospital.",
}}}


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def test_a_record_series_read_in_the_first_person_is_the_record(lints):
    found = lints.record_first_person("Well, over two years I've started repeating questions, missing appointments and losing my way on familiar walks.", CASE, "How is your memory?")
    assert found and "series" in found[0]
    # and through grade(): the record_copy of before stop 61 saw nothing here
    assert not lints.record_copy("Over two years I've started repeating questions, missing appointments and losing my way on familiar walks.", CASE, question="How is your memory?")


def test_a_clinicians_register_read_in_the_first_person(lints):
    assert lints.record_first_person("I was stable on lithium and quetiapine until about six weeks ago when my mother was in hospital.", CASE, "Have you been taking your tablets?")


def test_natural_speech_that_shares_the_records_words_is_left_alone(lints):
    assert not lints.record_first_person("The first attack came out of the blue while I was driving on the motorway to work.", CASE, "Tell me about the first one.")
    assert not lints.record_first_person("I keep forgetting things and getting lost, my wife's worried.", CASE, "How is your memory?")


def test_an_informant_is_left_to_record_copy(lints):
    assert not lints.record_first_person("Over two years she has started repeating questions, missing appointments and losing her way.", CASE, "How is her memory?")


def test_a_list_closed_by_comma_and_is_a_series(lints):
    case = {"case_id": "t61b", "ehr": {"h": "Over the last weeks: sleeping two hours a night, cleaning the flat at night, spending her money on craft materials, and irritable with her mother."}}
    reply = "I've been sleeping two hours a night, cleaning the flat at night, spending my money on craft materials, and irritable with my mother."
    assert lints.record_first_person(reply, case, "How have you been sleeping?")


def test_three_things_one_manages_is_speech_not_a_list(lints):
    case = {"case_id": "t61c", "ehr": {"h": "She manages her bills, pension and appointments without help and walks to the shops."}}
    assert not lints.record_first_person("I manage my bills, pension and appointments without help, thank you.", case, "Do you manage your own bills?")
