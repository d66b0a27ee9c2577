"""Stop 45 mend (issue 13): regressions of the s45 merge, through the public API.

1. A clinician's questioned or differential impression marked chart knowledge ("Impression: possible emerging
   psychosis (?ideas of reference ...) vs depression", told=False) is no finding the patient affirms.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient

UNSEEN = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "patient_exam" / "unseen"


def _case(path: Path, case_id: str):
    return {c.case_id: c for c in load_suite(str(path)).cases}[case_id]


def test_a_questioned_impression_in_the_chart_is_not_affirmed_by_the_patient() -> None:
    case = _case(UNSEEN / "uw-016.json", "uw-016")
    impression = [f for f in case.facts if not f.told and "?" in f.text and "vs" in f.text]
    assert impression, "premise: the record holds an untold questioned impression"
    reply = make_patient(case, "full", seed=13).respond(
        "Do things on TV or the radio ever seem to carry special messages for you?")
    assert not reply.affirmed, (reply.text, reply.affirmed)
    assert not {f.id for f in impression} & set(reply.fact_ids), reply.fact_ids


def _denies(reply) -> bool:
    return bool(reply.denied) or reply.text.lower().startswith(("no", "nope"))


def test_a_depression_scale_past_its_cut_off_keeps_its_core_features_from_a_flat_denial() -> None:
    from dataclasses import replace

    case = _case(UNSEEN / "uw-002.json", "uw-002")
    assert any(e.name == "EPDS" for e in case.exams), "premise: the record holds an EPDS total"
    for question in ("How is your energy? Are you tired all the time?", "How is your concentration?"):
        reply = make_patient(case, "full", seed=13).respond(question)
        assert not _denies(reply), (question, reply.text)
    # the total below its cut-off implies nothing: the closed world answers again (no rule keyed on the record)
    low = replace(case, exams=tuple(replace(e, result="5/30 (no depression)") if e.name == "EPDS" else e
                                    for e in case.exams))
    reply = make_patient(low, "full", seed=13).respond("How is your energy? Are you tired all the time?")
    assert _denies(reply), reply.text


def test_a_positive_confusion_assessment_keeps_fluctuation_and_memory_from_a_flat_denial() -> None:
    case = {c.case_id: c for c in load_suite("handwritten").cases}["hw-011"]
    assert any("CAM" in e.name and "positive" in e.result for e in case.exams), "premise: a positive CAM"
    for question in ("Do you find you drift in and out, some times clearer than others?", "How is your memory?"):
        reply = make_patient(case, "full", seed=13).respond(question)
        assert not _denies(reply), (question, reply.text)


@pytest.mark.parametrize("rapport", [0.0, 1.0])
def test_a_self_harm_screen_the_record_denies_is_not_silenced_by_a_threat_to_others(rapport) -> None:
    # hw-024: "No thoughts of self-harm" beside "Said he would 'sort them out'": the topic reader reads
    # 'violence' beside self-harm; the threat to others does not turn the self-harm denial into "I couldn't tell you"
    case = {c.case_id: c for c in load_suite("handwritten").cases}["hw-024"]
    patient = make_patient(case, "full", seed=3)
    patient.representation.rapport.value = rapport
    reply = patient.respond("Have you had any thoughts of harming yourself?")
    assert reply.text.lower().startswith("no") and "self_harm_history" in reply.denied, reply.text
