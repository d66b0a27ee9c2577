"""Stop 54 (s54-pat): the patient answers the question asked - the attention screen with attention, who depends on
them with who depends on them.

The record here is written for these tests (synthetic, in a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest
from patient_records import ask, record

from mentalhospital_env.cases import load_case, load_suite

_EHR = {
    "chief_complaint": "Low mood and poor sleep for two months.",
    "history_of_present_illness": (
        "Over two months his mood has been low and he has lost interest in football. "
        "He wakes at five and cannot get back to sleep."
    ),
    "past_psychiatric_history": "None.",
    "medical_history": "Asthma.",
    "medications": "Salbutamol inhaler as needed.",
    "allergies": "No known drug allergies.",
    "substance_use": "Drinks a pint at weekends. Non-smoker. No drugs.",
    "family_history": "No mental illness known.",
    "personal_history": "Grew up in Leeds. Works as a bus driver. Married for six years.",
    "mental_status_exam": {"mood": "'Low'", "affect": "Reactive.", "thought_content": "No thoughts of self-harm."},
    "risk_assessment": {"suicide": "No suicidal ideation."},
}


def _case(n: int, living: str = "lives with his wife in a rented flat", **ehr):
    return load_case(record(f"s54-pat-{n:03d}", _EHR, {"age": 38, "sex": "male", "living_situation": living},
                            written_for="test_patient_s54_pat.py", **ehr))


@pytest.mark.parametrize("n", range(8))
def test_attention_denied_as_attention_not_restlessness(n: int) -> None:
    # stop 53's leak benchmark: 'Does your attention come and go during the day?' of a record silent on attention was
    # denied 'No, I can sit still and get things done.' - sitting still is restlessness (hyperactivity), not attention
    (reply,) = ask(_case(n), "Does your attention come and go during the day?")
    assert not re.search(r"sit still|restless|on the go|fidget", reply, re.I), reply
    # and in words: the wording put in its place passes the check room (one it refused left a bare 'No.')
    assert re.search(r"focus|attention|concentrat|nothing like that", reply, re.I), reply


_DEPENDS = "Do you have children or anyone who depends on you?"


def test_no_dependant_named_anywhere_is_said_with_the_household() -> None:
    # dev-0109, hw-039 at stop 53: 'I live with my partner in a rented flat.' never said whether anyone depends on
    # them; the record names no child, no one cared for, so no one does (not 'I don't have any children')
    # (his own childhood, 'As a child he was shy', names no child of his)
    (reply,) = ask(_case(20, personal_history="Grew up in Leeds. As a child he was shy. Works as a bus driver. "
                                              "Married for six years."), _DEPENDS)
    assert re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply
    assert re.search(r"\bwife\b", reply, re.I), reply
    assert not re.search(r"children", reply, re.I), reply


@pytest.mark.parametrize("mention", [
    "Grew up in Leeds. Works as a bus driver. Married for six years. Has a son, aged 19, at university.",
    "Grew up in Leeds. Works as a bus driver. Married; they look after his granddaughter on weekdays.",
    "Grew up in Leeds. Works as a bus driver. Married for six years; his wife is pregnant.",
])
def test_no_one_depends_is_never_said_where_the_record_names_a_child(mention: str) -> None:
    (reply,) = ask(_case(21, personal_history=mention), _DEPENDS)
    assert not re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply


def test_a_dependant_named_answers_over_the_marriage_and_a_sentence_that_misreads() -> None:
    # hw-006 at stop 53: 'lives with his wife and daughter', and 'a crash in which a child died' read as dependants,
    # was answered 'I've been married for twelve years.' (the relationships topic) - never who depends on him
    hpi = (_EHR["history_of_present_illness"] + " Eight months ago he attended a crash in which a child died.")
    (reply,) = ask(_case(22, "lives with his wife and daughter", history_of_present_illness=hpi), _DEPENDS)
    assert re.search(r"\bdaughter\b", reply, re.I), reply
    assert not re.search(r"married|crash|died", reply, re.I), reply


def test_a_person_cared_for_answers() -> None:
    # hw-018 at stop 53: the main carer of her mother was answered 'I'm single. I have friends but little time for them.'
    ph = "Grew up in Leeds. Works as a bus driver. Single. Friends but little time for them."
    (reply,) = ask(_case(23, "lives with his mother, who has multiple sclerosis, and is her main carer",
                         personal_history=ph), _DEPENDS)
    assert re.search(r"\bmother\b", reply, re.I), reply
    assert not re.search(r"single|friends", reply, re.I), reply


def test_a_reflection_that_names_a_child_is_not_asked_who_depends_on_them() -> None:
    # hw-006 (exam c3): 'You were doing everything you could for that child.' - of the child who died at a crash -
    # read the dependants concept; it asks nothing, so it is no cue to tell who lives at home
    hpi = (_EHR["history_of_present_illness"] + " Eight months ago he attended a crash in which a child died.")
    (reply,) = ask(_case(24, "lives with his wife and daughter", history_of_present_illness=hpi),
                   "You were doing everything you could for that child.")
    assert not re.search(r"\b(?:daughter|live with|nobody|no one)\b", reply, re.I), reply


def test_a_child_who_only_speaks_of_them_is_not_the_answer_who_lives_where_is() -> None:
    # hw-024: 'Described by his son as always a bit prickly and private' was the answer over 'lives alone; son lives
    # 40 miles away' (the son is the source there, not someone who depends on him)
    ph = ("Grew up in Leeds. Retired bus driver. Widowed four years ago. "
          "Described by his son as 'always a bit prickly and private'.")
    (reply,) = ask(_case(25, "lives alone in a terraced house; son lives 40 miles away", personal_history=ph), _DEPENDS)
    assert re.search(r"live alone|40 miles", reply, re.I), reply
    assert not re.search(r"prickly", reply, re.I), reply


def test_an_elderly_parent_at_home_is_no_one_depending_denied() -> None:
    # 'I live with my elderly mother.' may be a carer's household: no 'nobody depends on me' before it
    (reply,) = ask(_case(26, "lives with his elderly mother"), _DEPENDS)
    assert re.search(r"mother", reply, re.I), reply
    assert not re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply


@pytest.mark.parametrize("mention", [
    # stop 54 review: the block list was closed, so each of these got 'No, nobody depends on me.' before the household
    # or beside a record that names children, money sent home or care given
    dict(personal_history="Grew up in Leeds. Works as a bus driver. Lives with his wife and their two boys (7 and 9)."),
    dict(personal_history="Grew up in Leeds. Works as a bus driver. Lives with his partner and her stepkids."),
    dict(personal_history="Grew up in Leeds. Works as a bus driver. Married with three girls under ten."),
    dict(personal_history="Grew up in Lagos. Works as a bus driver. "
                          "Sends most of his wage home to support his parents and younger siblings."),
    dict(personal_history="Grew up in Leeds. Works as a bus driver. "
                          "His mother, who has COPD, lives with them and needs help with washing."),
])
def test_no_one_depends_is_said_only_where_the_record_supports_it(mention: dict) -> None:
    (reply,) = ask(_case(27, **mention), _DEPENDS)
    assert not re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply


@pytest.mark.parametrize("living", ["lives with his brother and his brother's family", "lives in a rented house"])
def test_a_household_of_people_not_known_adults_is_told_without_a_denial(living: str) -> None:
    # the denial needs the record's support: living alone, or only a partner, flatmates or parents at home
    (reply,) = ask(_case(28, living), _DEPENDS)
    assert not re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply
    assert re.search(r"\blive\b", reply, re.I), reply


@pytest.mark.parametrize("living", ["lives alone in a council flat", "lives with his girlfriend and two flatmates"])
def test_living_alone_or_with_adults_only_still_says_no_one_depends(living: str) -> None:
    # stop 53's fault (dev-0109, hw-039: the household alone) stays mended where the record supports the denial
    (reply,) = ask(_case(29, living), _DEPENDS)
    assert re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply
    assert re.search(r"alone|girlfriend", reply, re.I), reply


@pytest.mark.parametrize("case_id, said, not_said", [
    # stop 53's faults stay mended on the records themselves: dev-0109 (partner) and hw-039 (fiance) said only who is
    # at home; hw-032 (lives alone, his son farms next door) was told the marriage in place of who depends on him
    ("dev-0109", r"\b(?:nobody|no one)\b.*\bpartner\b", None),
    ("hw-039", r"\b(?:nobody|no one)\b.*\bfiance\b", None),
    ("hw-032", r"\bson\b", r"\b(?:nobody|no one)\b"),
])
def test_the_stop_53_dependants_records_stay_answered(case_id: str, said: str, not_said: str | None) -> None:
    suite = "dev" if case_id.startswith("dev-") else "handwritten"
    case = next(c for c in load_suite(suite).cases if c.case_id == case_id)
    (reply,) = ask(case, _DEPENDS)
    assert re.search(said, reply, re.I), reply
    assert not_said is None or not re.search(not_said, reply, re.I), reply


@pytest.mark.parametrize("history", [
    "Grew up in Leeds. In foster care from age eight. Works as a bus driver.",
    "Grew up in Leeds. Works as a bus driver. Says 'I haven't really been looking after myself.'",
])
def test_their_own_foster_care_or_self_neglect_leaves_the_denial(history: str) -> None:
    # dev-0029, dev-0042 on the merged review: their own childhood in care and 'looking after myself' name no one
    # who depends on them, and took the denial from a man who lives alone
    (reply,) = ask(_case(30, "lives alone in a rented flat", personal_history=history), _DEPENDS)
    assert re.search(r"\b(?:nobody|no one)\b", reply, re.I), reply
