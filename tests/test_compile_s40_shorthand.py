"""A record in clinic shorthand compiles into the patient's own speech (issue 13, stop 40).

UK clinic letters are often notes, not prose: "c/o low mood x 4/12", "ETOH 20-25 u/wk", "Lives w/ wife + 2
children", "Denies SI/SH", "NKDA", "PMHx: HTN, T2DM". The compiler spells the shorthand out from a data file
(``abbreviations.json``) before it splits the record, and a last gate parses every rendered ``patient_says`` at compile
time: a sentence with shorthand left in capitals, clinician words, a subjectless "-s" verb or no finite verb is reworded
where one rewording is known, else left unsaid. Checked on three abbreviated records written for this test
(``tests/data/abbreviated_records.jsonl``) through the public API, and on sentences of the same shapes in other words.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.cases.compile import compile_facts, expand_abbreviations, voiced
from mentalhospital_env.cases.model import EHR
from mentalhospital_env.patient import make_patient

_RECORDS = Path(__file__).parent / "data" / "abbreviated_records.jsonl"
_SHORTHAND = re.compile(r"\b(?:c/o|w/|u/wk|x ?\d+/(?:12|52|7)|NKDA|ETOH|SI|SH|DW|PMHx|FH|SH|DH|HTN|T2DM|RTC|SOB|PRN|OD|pt|Pt|hx|sx|nil|Nil)\b|\+|/|;|\u2191")
_CLINICIAN = re.compile(r"\b(?:denies|denied|reports|complains of|ideation|protective factors?|risk factors?|collateral|"
                        r"possible depression|the patient|history of|psychiatric history|formulation)\b", re.IGNORECASE)
_QUESTIONS = [
    "What has brought you here today?", "How long has this been going on?", "How have you been sleeping?",
    "How is your appetite?", "How is your mood?", "Have you had thoughts of ending your life?",
    "Have you ever harmed yourself?", "Who do you live with?", "What do you do for work?",
    "How much alcohol do you drink?", "Do you use any drugs?", "Do you smoke?", "What medicines do you take?",
    "Are you allergic to any medicines?", "Do you have any physical health problems?",
    "Has anyone in your family had mental health problems?", "Does anything run in your family?", "Have you had help for your mental health before?",
    "Do you ever hear voices when nobody is there?", "Have you ever been in trouble with the police?",
]


@pytest.fixture(scope="module")
def replies() -> dict[str, list[tuple[str, str]]]:
    out = {}
    for case in load_suite(_RECORDS).cases:
        patient = make_patient(case, "full", seed=0)
        out[case.case_id] = [(q, patient.respond(q).text) for q in _QUESTIONS]
    return out


def test_no_reply_says_the_shorthand_or_the_clinicians_words(replies) -> None:
    for case_id, pairs in replies.items():
        for q, reply in pairs:
            assert not _SHORTHAND.search(reply), (case_id, q, reply)
            assert not _CLINICIAN.search(reply), (case_id, q, reply)


def test_no_reply_speaks_of_the_patient_in_the_third_person(replies) -> None:
    for case_id, pairs in replies.items():
        for q, reply in pairs:
            if re.search(r"\b(?:mother|father|mum|dad|wife|partner|uncle|aunt|niece|neighbours?|police)\b", reply, re.IGNORECASE):
                continue
            assert not re.search(r"\b(?:he|she|him|his|her)\b", reply, re.IGNORECASE), (case_id, q, reply)


def test_the_shorthand_is_understood(replies) -> None:
    said = {case_id: " ".join(r for _q, r in pairs) for case_id, pairs in replies.items()}
    # NKDA is a denial of allergies; "Penicillin - rash" is an allergy; "Lives w/ wife + 2 children" is who they live with
    assert "not allergic" in said["ab-001"] and "not allergic" in said["ab-003"]
    assert re.search(r"allergic to penicillin.*rash", said["ab-002"])
    assert re.search(r"I live with my wife and 2 children", said["ab-001"])
    # "ETOH: 20-25 u/wk" and "Smokes 10 cig/day" are drinking and smoking, said as such
    assert re.search(r"\b20 to 25 units a week\b", said["ab-001"])
    assert re.search(r"\bI smoke 10 cigarettes a day\b", said["ab-003"])
    # "Denies SI/SH" is a denial of suicidal thoughts and self-harm, not an experience
    ab2 = dict(replies["ab-002"])
    assert re.search(r"\bhaven't|\bnever|\bno\b", ab2["Have you had thoughts of ending your life?"], re.IGNORECASE)
    # "Mum - anxiety. Maternal aunt - bipolar affective disorder." is the family's history, in lay words
    assert re.search(r"my mum has had anxiety", said["ab-002"], re.IGNORECASE)
    assert "bipolar disorder" in said["ab-002"] and "affective" not in said["ab-002"]


def test_the_clinicians_text_is_not_told() -> None:
    for case in load_suite(_RECORDS).cases:
        for f in case.facts:
            if f.section.startswith(("mental_status_exam.", "risk_assessment.")) and f.section != "mental_status_exam.mood":
                assert not f.told, (case.case_id, f.text, f.patient_says)
            if f.told and f.patient_says:
                assert not _SHORTHAND.search(f.patient_says), (case.case_id, f.text, f.patient_says)


def test_expansion_is_data_and_leaves_prose_alone() -> None:
    prose = "She has felt low since the spring; she drinks two glasses of wine a week.\n\nShe lives with her son."
    assert expand_abbreviations(prose) == prose
    assert expand_abbreviations("Denies SI/SH.") == "Denies suicidal ideation or self-harm."
    assert expand_abbreviations("Sertraline 100mg OD. No hx of OD.") == "Sertraline 100mg once daily. No history of overdose."
    assert expand_abbreviations("c/o poor sleep x 3/52, ETOH 30 u/wk.") == "Complains of poor sleep for 3 weeks, alcohol 30 units a week."


def test_the_gate_rewords_or_leaves_unsaid_shapes_no_rule_foresaw() -> None:
    # a note's noun and predicate: said as the patient's own ("Energy poor." is not "I've had energy poor.")
    assert voiced("history_of_present_illness", "Energy poor.", "female") in ("My energy is poor.", "My energy has been poor.")
    # a subjectless "-s" verb after "as": the patient's own "I"
    said = voiced("history_of_present_illness", "Stopped going out as thinks people are watching.", "male")
    assert said == "I stopped going out as I think people are watching."
    # shorthand the table does not know is never said aloud
    assert voiced("medical_history", "Known PCOS, on metformin.", "female") is None or "PCOS" not in voiced(
        "medical_history", "Known PCOS, on metformin.", "female")
    # a clinician's query tacked on to a complaint is left out, the complaint kept
    facts = compile_facts(EHR(chief_complaint="c/o poor sleep x 2/12, irritability, ?bipolar.",
                              history_of_present_illness="Worse since Jan."), "male")
    says = [f.patient_says for f in facts if f.section == "chief_complaint" and f.told]
    assert says and all("bipolar" not in s and "possible" not in s for s in says), says


def test_a_written_date_is_a_date_and_an_expansion_keeps_its_article():
    """A day/month/year date in a clinic letter is said as a date, never as alternatives ('25/09/26' was said
    '25 or 09 or 26'); an expansion after 'an' takes 'a' ('an RTC' was said 'an road traffic collision')."""
    from mentalhospital_env.cases.compile import expand_abbreviations

    assert expand_abbreviations("Drove home after drinking on 25/09/26.") == "Drove home after drinking on 25 September 2026."
    assert expand_abbreviations("Seen on 3/4/2025 by the GP.") == "Seen on 3 April 2025 by the GP."
    assert expand_abbreviations("He witnessed an RTC.") == "He witnessed a road traffic collision."
    assert expand_abbreviations("an hour, an MRI, an honest answer, a unit") == "an hour, an MRI, an honest answer, a unit"
    assert expand_abbreviations("Low mood x3/12.") != "Low mood x3 March."
