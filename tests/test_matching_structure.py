"""How the matcher reads who does what in a reply (issue 18, stop 43): a word that only dates or counts belongs to
no one, and a person perceived or found by someone else is the subject of what they are perceived doing."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.matching import Matcher

from mentalhospital_env.knowledge.language import clauses, tokenize


def credited(matcher: Matcher, checkpoint: str, reply: str) -> bool:
    return matcher.match([checkpoint], [reply])[0] is not None


def subjects(text: str) -> list[tuple[str, str]]:
    tokens = tokenize(text)
    return [(" ".join(tokens[c.start : c.end]), c.subject) for c in clauses(text)]


@pytest.mark.parametrize(
    "checkpoint, reply",
    [
        # a background clause about someone else dates the patient's finding: the date is no one's
        ("Tearful most days since about three weeks after the birth.",
         "Since he was about three weeks old I've been crying most days."),
        ("Low mood since his wife died eight months ago.",
         "Since she passed, eight months back now, I've been really low."),
    ],
)
def test_a_date_said_of_someone_else_dates_the_patients_finding(matcher, checkpoint, reply):
    assert credited(matcher, checkpoint, reply)


def test_the_finding_itself_said_of_someone_else_is_still_refused(matcher):
    # the date is shared, the finding is another person's: no credit
    assert not credited(matcher, "Mother had depression for six weeks.", "She was low for about six weeks.")
    assert not credited(
        matcher, "Low mood since his wife died eight months ago.", "My wife has been really low for eight months."
    )


@pytest.mark.parametrize(
    "text, perceived_clause",
    [
        ("For a year now my wife can hear me snoring through the wall.", "me snoring through the wall"),
        ("His grandmother has seen him stop breathing in his sleep.", "him stop breathing in his sleep"),
        ("Last week my son found me on the kitchen floor.", "me on the kitchen floor"),
    ],
)
def test_the_person_perceived_is_the_subject_of_what_follows(text, perceived_clause):
    read = dict(subjects(text))
    assert read[perceived_clause] == "patient"
    assert any(subject == "other" for _, subject in subjects(text))  # the one who hears, sees or finds


@pytest.mark.parametrize(
    "text",
    [
        "I can hear her crying at night.",  # the patient speaking: "her" is someone else
        "My mum saw me and cried.",  # the mother cried
        "Lives with her mother; sees her father monthly.",  # "her father" is a person, not "her" seen
    ],
)
def test_no_patient_clause_where_the_object_is_someone_else_or_does_nothing(text):
    assert all(clause.split()[0] not in ("me", "her") for clause, _ in subjects(text))


@pytest.mark.parametrize(
    "checkpoint, reply",
    [
        ("Snoring has got much louder over the last two years.",
         "For the last two years my partner can hear me snoring much louder through the wall."),
        ("Lay on the floor for hours after a fall until his son found him.",
         "I went over in the kitchen and my son found me on the floor hours later."),
    ],
)
def test_a_finding_perceived_by_a_relative_is_the_patients(matcher, checkpoint, reply):
    assert credited(matcher, checkpoint, reply)


def test_until_opens_a_background_clause():
    read = subjects("Lay on the floor until his daughter found him.")
    assert read[0] == ("lay on the floor", "patient")
    assert read[1][0].startswith("until")
