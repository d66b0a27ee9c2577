"""The closed world never flatly denies what the record implies (s44-recall, issue 13's recall room).

A patient whose record says nothing of a finding in words may still have it by implication: a depressive episode's
low energy, the drinking behind a raised GGT or a detox in the plan, the thought of dying behind an overdose. The
relations live in ``patient/data/implied.json`` (between concepts, codes, tests and treatments, never a record's
words). Each test changes one thing of a record (the diagnosis, one test, one sentence) and checks that the denial
goes with the implication and stays without it, so the closed world still denies what nothing implies.

Stop 45: the reference diagnosis implies nothing any more. A patient who hedged on the unstated core features of
their own (hidden) diagnosis and denied everyone else's told a doctor policy the diagnosis by which questions got
"Hard to say" (benchmarks/patient_leak.py); the depressive episode below now changes no reply."""

from __future__ import annotations

import copy

from mentalhospital_env.cases.loader import bundled_suite_path, load_suite, validate_case
from mentalhospital_env.patient import make_patient


def _social_phobia() -> dict:
    """test-v2-0090 (social phobia; a record silent on energy, on thoughts of death's acts and, with its substance
    line rewritten below, on drinking), as a dict to change one thing at a time."""
    case = next(c for c in load_suite(bundled_suite_path("test-v2")).cases if c.case_id == "test-v2-0090")
    raw = copy.deepcopy(case.to_dict())
    raw.pop("facts", None)
    raw.pop("checkpoints", None)
    return raw


def _reply(raw: dict, *questions: str):
    patient = make_patient(validate_case(raw), variant="full", seed=0)
    reply = None
    for q in questions:
        reply = patient.respond(q)
    return reply


def test_a_depressive_episode_in_the_hidden_diagnosis_changes_no_reply():
    raw = _social_phobia()
    control = _reply(raw, "How is your energy through the day?")
    assert "fatigue" in control.denied  # nothing the record says implies it: the closed world's "no" stands
    raw["diagnosis"] = {"categories": ["depressive"], "disorders": [{"name": "Moderate depressive episode", "code": "F32.1"}]}
    reply = _reply(raw, "How is your energy through the day?")
    assert (reply.text, reply.denied, reply.unknown) == (control.text, control.denied, control.unknown)
    raw["ehr"]["history_of_present_illness"] += " She feels exhausted all day and has no energy for anything."
    assert "fatigue" not in _reply(raw, "How is your energy through the day?").denied  # the record's own sentence does


def test_a_positive_drug_screen_is_not_answered_with_no_drugs():
    raw = _social_phobia()
    raw["ehr"]["substance_use"] = "Drinks rarely, a few times a month. Never smoked."  # silent on drugs: closed world
    control = _reply(raw, "Do you use any drugs, such as cannabis?")
    assert "cannabis_use" in control.denied
    raw["exams"] = [*raw["exams"], {"name": "Urine drug screen", "kind": "lab", "result": "positive for cannabinoids"}]
    reply = _reply(raw, "Do you use any drugs, such as cannabis?")
    assert "cannabis_use" not in reply.denied and "drug_use" not in reply.denied
    assert "weed" not in reply.text.lower()


def test_a_raised_ggt_is_kept_back_rather_than_hedged_or_denied():
    raw = _social_phobia()
    raw["ehr"]["substance_use"] = "Never smoked."
    raw["exams"] = [*raw["exams"], {"name": "GGT", "kind": "lab", "result": "190 U/L (high; reference 8-61)"}]
    reply = _reply(raw, "Do you drink alcohol?")
    assert "alcohol_use" in reply.withheld and "alcohol_use" not in reply.denied
    raw["treatment"]["plan"] = raw["treatment"]["plan"] + " No detox is needed."
    raw["exams"] = raw["exams"][:-1]
    assert "alcohol_use" not in _reply(raw, "Do you drink alcohol?").withheld  # a plan that rules it out implies nothing


def test_an_overdose_answers_the_question_about_thoughts_of_dying():
    raw = _social_phobia()
    raw["ehr"]["risk_assessment"] = {"violence": "No violence in her history; no threats made."}
    control = _reply(raw, "It sounds like things have been hard.", "Have you ever had thoughts of ending your life?")
    assert "suicidal_ideation" in control.denied
    raw["ehr"]["past_psychiatric_history"] = "She took an overdose of paracetamol two years ago and was seen in A&E."
    reply = _reply(raw, "It sounds like things have been hard.", "Have you ever had thoughts of ending your life?")
    assert "suicidal_ideation" not in reply.denied and "never" not in reply.text.lower()
    # the overdose answers, or, with the rapport of a first meeting, the patient keeps it back; never "no"
    assert "overdose" in reply.text.lower() or "suicidal_ideation" in reply.withheld
