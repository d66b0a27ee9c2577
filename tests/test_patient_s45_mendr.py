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
