"""The patient's replies do not depend on the hidden reference diagnosis (stop 45, issue 13's recall room).

At stop 44 a diagnosis code implied its core features, and recall hedged on an unstated core feature where it denied
any other: over 280 cases a silent feature was hedged 14 times as often when it belonged to the reference disorder
(``benchmarks/patient_leak.py``), so a doctor policy could learn the diagnosis from which screening questions got
"Hard to say". The record's own sentences, tests and plan decide what the patient is unsure of; the diagnosis never.
"""

from __future__ import annotations

import copy

import pytest

from mentalhospital_env.cases.loader import bundled_suite_path, load_suite, validate_case
from mentalhospital_env.patient import make_patient

SCREEN = (
    "Have you been feeling low or down?",
    "Have you lost interest in things you used to enjoy?",
    "Have you been feeling tired or short of energy?",
    "Have you ever had spells of feeling very high, full of energy and needing little sleep?",
    "Do you get unwanted thoughts that keep coming back into your mind?",
    "Have you had panic attacks?",
    "Do you find it hard to pay attention?",
    "Have you had problems with your memory?",
    "Are you afraid of putting on weight?",
    "Do memories of something terrible keep coming back to you?",
)
DIAGNOSES = (
    ("depressive", "Severe depressive episode without psychotic symptoms", "F32.2"),
    ("bipolar", "Bipolar disorder, current episode manic without psychotic features", "F31.10"),
    ("obsessive_compulsive", "Obsessive-compulsive disorder", "F42.2"),
    ("neurodevelopmental", "Attention-deficit hyperactivity disorder, combined type", "F90.2"),
    ("neurocognitive", "Delirium due to known physiological condition", "F05"),
    ("feeding_eating", "Anorexia nervosa", "F50.00"),
    ("trauma_stressor", "Post-traumatic stress disorder", "F43.10"),
)


def _raw(suite: str, case_id: str) -> dict:
    case = next(c for c in load_suite(bundled_suite_path(suite)).cases if c.case_id == case_id)
    raw = copy.deepcopy(case.to_dict())
    raw.pop("facts", None)
    raw.pop("checkpoints", None)
    return raw


def _screen(raw: dict) -> list[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    patient = make_patient(validate_case(raw), variant="full", seed=0)
    out = []
    for q in SCREEN:
        patient.reset(0)  # each question a fresh encounter: no "as I said" between them
        r = patient.respond(q)
        out.append((r.text, r.denied, r.unknown, r.withheld))
    return out


@pytest.mark.parametrize("suite,case_id", [("test-v2", "test-v2-0090"), ("handwritten", "hw-006")])
def test_the_screen_is_answered_alike_whatever_the_diagnosis(suite, case_id):
    raw = _raw(suite, case_id)
    control = _screen(raw)
    for category, name, code in DIAGNOSES:
        swapped = copy.deepcopy(raw)
        swapped["diagnosis"] = {"categories": [category], "disorders": [{"name": name, "code": code}]}
        replies = _screen(swapped)
        changed = [(q, a[0], b[0]) for q, a, b in zip(SCREEN, control, replies) if a != b]
        assert not changed, (code, changed)


def test_a_finding_the_history_states_under_no_subject_stops_the_denial_of_its_subject():
    # "Where are we?" asks orientation (the memory subject); a history that says she has become muddled, in a
    # sentence filed under no subject, is no "My memory's all right"
    raw = _raw("test-v2", "test-v2-0090")
    question = "Where are we at the moment, do you know?"
    control = make_patient(validate_case(raw), variant="full", seed=0).respond(question)
    raw["ehr"]["history_of_present_illness"] += " Since last week she has become muddled and frightened in the evenings."
    reply = make_patient(validate_case(raw), variant="full", seed=0).respond(question)
    assert "memory's all right" in control.text.lower()  # the premise: silence on the subject is the closed world's no
    assert "all right" not in reply.text.lower() and "muddled" in reply.text.lower(), reply.text
