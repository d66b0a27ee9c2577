"""A week of a medicine missed is a break in its course, not its end (stop 57, uw-030): 'Sertraline 100 mg each
morning ... (25 mg from 08/05/2026, 50 mg from 22/05/2026; missed 13-19/07/2026 through a pharmacy error)' was told
'I used to take sertraline.', and the medicines he takes at the moment were then answered with his laxative."""

from __future__ import annotations

from pathlib import Path

from mentalhospital_env.cases import load_case

UW030 = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen/uw-030.json"


def test_a_missed_week_does_not_stop_the_sertraline() -> None:
    case = load_case(str(UW030))
    said = [f.patient_says or "" for f in case.facts if f.section == "medications" and "ertraline" in f.text]
    assert said and any(s.startswith("I take sertraline") for s in said), said
    assert not any("used to take sertraline" in s for s in said), said
