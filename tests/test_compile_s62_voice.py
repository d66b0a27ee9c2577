"""The patient says what he knows of himself, in his own voice (stop 62, uw-035, a Swedish child and adolescent
psychiatry journal in translation). Its blind coding found other people's words told as the boy's: the father's
telephone complaint ("I'm also angry that Sara lets me sleep till two", the entry's ISO date stamp and its "Telephone -
father" title were not read as an entry of the father's), the school mentor's report after the father's quotation
("He zones out. He rereads ...", a role label read as the boy's name), the mother's view under a bare "Mother:" label
("I think it is depression and that the father's home pushed me out"), the examiner's "Status:" ("I've had quiet, slow
to answer, little eye contact."), the drug information given ("I've had effect after 4 to 6 weeks, ... the warning
about suicidal thoughts ..."), a consultant's "Revised formulation" as his, and his father's household as his own
("... lives 20 minutes away with my partner Emma and their daughter Alva.").

A short record written for the test, read through the public API."""

from __future__ import annotations

import json

import pytest

from mentalhospital_env.cases import load_case
from tests.patient_records import told_sentences

HPI = """Patient: BERG, Luca, 15 y, male. Lives with his mother and his brother.
Father: Tomas Berg (46), electrician, lives 20 minutes away with his partner Maja (33) and their daughter Elsa (3).

2026-04-23 FIRST VISIT - Dr Nils Ek, ST-lakare. Luca and his mother.
Luca alone: says he feels 'kinda down' most days since the autumn. Sleeps about 01-07 on school days.
Status: tall, slim, hood. Quiet, slow to answer, little eye contact. Mood low by his account, affect restricted.
Status: unconvicted, remanded in custody by the magistrates' court on 2 November.

2026-05-28 DOCTOR'S VISIT - Dr Ek. Luca and mother.
No better. Agreed homework: notice the checking and write down how long. Information on sertraline: effect after 4-6 weeks, side effects (stomach, sleep), the warning about suicidal thoughts in the first weeks in young people.

2026-07-09 Telephone - father (incoming call to the nurse). Father's account: Luca came for one night at the summer house and 'went weird'. Father thinks he is 'rude to Maja'. Also angry that Anna 'lets him sleep till two'.

2026-08-20 Telephone - father (incoming). Father's account: found snus in his jacket. Father: 'He's always been a bit fussy, he had that thing when he was nine with the light switches, it passed.'

2026-09-10 SCHOOL HEALTH TEAM MEETING (at the school). Present: principal, mentor, the mother, Luca for the first 15 minutes.
School's account: absence 55% since the start of term. Mentor: 'He zones out. He rereads the same sentence, rubs out until the paper tears, starts a text five times.' Kurator: no bullying seen.
Luca (while present): 'I can't be in class. My head's too loud.'
Mother: disagrees that it is social anxiety, 'he was never shy'; thinks it is depression and that the father's home 'pushed him out'.

2026-12-03 TEAM CONFERENCE - Dr Ek, psychologist.
Revised formulation (Dr Ek, the last opinion in this record): 'The picture is not a primary depressive illness. Since autumn 2025 Luca has had unwanted thoughts of harming a small child, which he fights with checking. The low mood and the withdrawal follow from this, and his suicidal thoughts come from the fear of being "a bad person".'"""

RECORD = {
    "case_id": "s62-voice",
    "language": "en",
    "demographics": {"age": 15, "sex": "male", "occupation": "pupil in year 9", "marital_status": "single",
                     "education": "compulsory school", "living_situation": "lives with his mother and brother"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "School nurse's referral: absence, stomach ache, tired. Question: depression?",
        "history_of_present_illness": HPI,
        "past_psychiatric_history": "None before.",
        "medical_history": "Mild asthma as a child.",
        "medications": "Sertraline 50 mg each morning.",
        "allergies": "No known drug allergies.",
        "substance_use": "Denies alcohol.",
        "family_history": "None known.",
        "personal_history": "Plays video games with one friend.",
        "mental_status_exam": {"mood": "'Dunno.'"},
        "risk_assessment": {"suicide": "Thoughts of dying, no plan."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode, moderate", "code": "F32.1"}]},
    "treatment": {"plan": "Review.", "medications": [], "psychotherapy": [], "safety": [], "follow_up": "Four weeks."},
    "persona": {"verbosity": "terse", "guardedness": 0.6, "insight": "partial",
                "speech_style": "15-year-old, terse: 'dunno', 'it's fine'."},
}


# the school's meeting right after the father's telephone entry, as in the chart: his quotation ("Father: '...'") made
# the next one-word label ("Mentor: '...'") read as the patient's name
MEETING = """Patient: BERG, Luca, 15 y, male. Lives with his mother and his brother.

2026-08-20 Telephone - father (incoming). Father's account: found snus in his jacket. Father: 'He's always been a bit fussy, he had that thing when he was nine with the light switches, it passed.' Asks again about ADHD.

2026-09-10 SCHOOL HEALTH TEAM MEETING (at the school). Present: principal, mentor, the mother, Luca for the first 15 minutes.
School's account: absence 55% since the start of term. Mentor: 'He zones out. He rereads the same sentence, rubs out until the paper tears, starts a text five times.' Kurator: no bullying seen.
Luca (while present): 'I can't be in class. My head's too loud.' Mood: 'it's fine, I'm just tired all the time'.

2026-11-19 ELEVHALSA follow-up meeting (Teams). Present: mentor, kurator, the mother. Attendance since the adjusted timetable: about 60% of the reduced schedule; the special-education teacher: 'He works when the room is empty; if a lower-school class walks past the door he stops.' Grades at risk in several subjects."""


def _told(tmp_path_factory, hpi: str) -> str:
    record = json.loads(json.dumps(RECORD))
    record["ehr"]["history_of_present_illness"] = hpi
    path = tmp_path_factory.mktemp("s62") / "voice.json"
    path.write_text(json.dumps(record))
    return told_sentences(load_case(str(path)).facts)


@pytest.fixture(scope="module")
def told(tmp_path_factory) -> str:
    return _told(tmp_path_factory, HPI)


@pytest.fixture(scope="module")
def meeting(tmp_path_factory) -> str:
    return _told(tmp_path_factory, MEETING)


def test_his_own_words_are_still_told(told) -> None:
    # his own line inside the school's meeting entry ("Luca (while present): '...'") stays his
    assert "kinda down" in told and "I can't be in class" in told, told


def test_a_dated_telephone_entry_with_the_father_is_the_fathers(told) -> None:
    # "2026-07-09 Telephone - father (...)": an ISO date stamp opens the entry, its title names the father
    for words in ("sleep till two", "rude to Maja", "went weird", "I've had father"):
        assert words not in told, (words, told)


def test_a_role_label_after_a_relatives_quotation_is_no_name_of_his(told, meeting) -> None:
    # "Mentor: '...'" after the father's "Father: '...'" was read as the patient's name before his words
    for said in (told, meeting):
        assert "zones out" not in said and "rereads" not in said, said
    assert "I can't be in class" in meeting, meeting
    # a topic label before his own words after the father's quotation stays his (uw-027's "Mood: 'I dey kampe!'")
    assert "just tired all the time" in meeting, meeting


def test_a_relatives_label_before_her_view_gives_her_view(told) -> None:
    assert "pushed me out" not in told and "never shy" not in told, told


def test_the_examiners_status_is_not_his(told) -> None:
    for words in ("little eye contact", "affect restricted", "tall, slim"):
        assert words not in told, (words, told)
    # a legal status under the same label is his to tell (uw-019's remand, compile.json clinician_label_unless)
    assert "remanded in custody" in told, told


def test_the_drug_information_given_is_not_a_symptom(told) -> None:
    assert "4 to 6 weeks" not in told and "warning about suicidal thoughts" not in told, told
    assert "write down how long" not in told, told  # the therapist's homework, no answer of his


def test_a_revised_formulation_is_the_consultants(told) -> None:
    assert "follow from this" not in told and "fear of being a bad person" not in told, told
    assert "harming a small child" not in told, told


def test_his_fathers_household_stays_his_fathers(told) -> None:
    assert "my partner" not in told, told
    assert "My father, Tomas Berg, electrician, lives 20 minutes away with his partner Maja and their daughter Elsa." in told, told


def test_a_piece_of_a_teachers_quotation_is_the_teachers(meeting) -> None:
    # the quotation torn in two facts by its semicolon: "'He works when the room is empty" was said "I work when the
    # room is empty."
    assert "I work when the room is empty" not in meeting and "walks past the door" not in meeting, meeting
