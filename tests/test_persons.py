"""The persons a record names (knowledge/persons.py) and coverage reading a named person as their role."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import load_suite
from mentalhospital_env.knowledge.persons import Persons, case_persons


@pytest.fixture(scope="module")
def cases():
    return {c.case_id: c for c in load_suite("handwritten")}


def test_a_record_names_its_persons_with_their_roles(cases):
    roles = dict(case_persons(cases["hw-017"]).roles)
    assert roles["Rachel"] == "mother" and roles["Amelia"] == "patient" and roles["Oliver"] == "brother"
    assert dict(case_persons(cases["hw-040"]).roles)["Helen"] == "mother"  # "her mother (Helen)"
    assert dict(case_persons(cases["hw-035"]).roles)["Sana"] == "parent"  # "both parents, Sana and Imran"
    roles = dict(case_persons(cases["hw-016"]).roles)
    assert roles["Daniel"] == roles["Reeve"] == "patient"  # "Mr Daniel Reeve", not the GP after "Dear Dr"
    assert "Okafor" not in roles


def test_a_possessive_that_is_not_the_patients_names_someone_elses_relative(cases):
    # hw-021 (a man): "her mother, Chloe" is his daughter's mother, not his
    roles = dict(case_persons(cases["hw-021"]).roles)
    assert roles.get("Lily") == "daughter"
    assert "Chloe" not in roles


def test_a_name_is_read_as_the_role(cases):
    persons = case_persons(cases["hw-017"])
    assert persons.read("Rachel had panic attacks in her twenties, treated with CBT.") == (
        "Her mother had panic attacks in her twenties, treated with CBT."
    )
    assert persons.read("Amelia has panic attacks.") == "She has panic attacks."
    assert persons.read("I told Rachel.") == "I told my mother."  # a patient speaking: "my"
    # a note quoting the patient's "I" is still the writer's third person
    assert case_persons(cases["hw-015"]).read("Margaret found him; he said 'it would be better if I went'.") == (
        "His wife found him; he said 'it would be better if I went'."
    )
    assert case_persons(cases["hw-016"]).read("Sam joined us with Daniel's agreement.") == (
        "Sam joined us with his agreement."
    )


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Lu",)), max_size=80))
def test_a_text_that_names_nobody_is_read_as_itself(text):
    persons = Persons((("Rachel", "mother"), ("Amelia", "patient")), "female")
    assert persons.read(text) == text  # no capital letter, so no name
    assert Persons().read(text) == text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Rachel", "Amelia", "said", "that", "her", "mum", "was", "ill", ",", "."]), max_size=12))
def test_no_named_person_is_left_in_a_read_text(words):
    persons = Persons((("Rachel", "mother"), ("Amelia", "patient")), "female")
    read = persons.read(" ".join(words))
    assert "Rachel" not in read and "Amelia" not in read


def test_coverage_credits_a_named_relatives_finding_to_that_relative_only(cases):
    from mentalhospital_env.rewards.coverage import InterviewCoverage, interview_coverage

    case = cases["hw-017"]
    target = next(c for c in case.checkpoints.interview if c.text.startswith("Rachel had panic attacks"))
    right = interview_coverage(case, ["My mum had panic attacks in her twenties and had CBT for them."])
    assert target.id in right.matched
    assert right.matched[target.id].checkpoint == target.text  # the record's own text is reported
    assert target.id not in interview_coverage(case, ["I have panic attacks at school."]).matched
    step = InterviewCoverage(case)
    assert target.id in step.update("My mum had panic attacks in her twenties and had CBT for them.")
    assert step.result().matched[target.id].unit == "My mum had panic attacks in her twenties and had CBT for them."


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Sam keeps asking Daniel whether towels are safe.", "Sam keeps asking him whether towels are safe."),
        ("Claire rang Daniel twice.", "His wife rang him twice."),
        ("Claire left Daniel in May.", "His wife left him in May."),
        ("After Daniel left, Claire cried.", "After he left, his wife cried."),
        ("Daniel asks Claire several times a day.", "He asks his wife several times a day."),
    ],
)
def test_the_patient_named_after_a_verb_is_read_as_its_object(text, read):
    persons = Persons(roles=(("Daniel", "patient"), ("Claire", "wife")), sex="male")
    assert persons.read(text) == read
