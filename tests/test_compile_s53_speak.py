"""Stop 53, the speech room on terse charts (an Indian teaching-hospital case sheet, uw-026, and the other unseen
registers): what a clinic writes that a patient never says aloud. Records written here for the test (no bundled
record's words)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


@pytest.mark.parametrize(("line", "date"), [
    ("On Sunday 21/10 early morning walked to the lake meaning to drown.", "21 October"),
    ("Told her sister on Sat 13/11 that she had ruined the family.", "13 November"),
    ("Went to the temple Fri 19/10 with her aunt.", "19 October"),
])
def test_a_weekday_before_a_day_and_month_makes_it_a_date(line: str, date: str) -> None:
    # a pair after a weekday was read as a score ('21 out of 10' for 21/10) or with its slash as 'or' ('13 or 09')
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=line), "female")
    said = told_sentences(facts)
    assert date in said, said
    assert " or 1" not in said and "out of" not in said, said


@pytest.mark.parametrize("frame", ["In her words once she could speak (04/11):", "In her own words (registrar review, 3/11):"])
def test_the_writers_frame_with_a_when_before_her_words_is_not_said(frame: str) -> None:
    # 'In her words once she could speak (04/11): ...' was said 'In my words once I could speak.' as her opening
    # complaint, and her quotation was lost
    facts = compile_facts(EHR(chief_complaint=(
        f"Brought by husband with reduced talk and poor food intake. {frame} 'I am a sinner, Doctor. My stomach has "
        "rotted.'"), history_of_present_illness="Seen in the ward."), "female")
    said = told_sentences(facts)
    assert "in my" not in said.lower() and "sinner" in said, said
