"""Stop 51, the speech room on terse charts (a US VA CPRS chart, Scottish and Irish notes): a slash between numbers
is a score or a date, never 'or' ('pain 7/10' was 'pain 7 or 10', 'one blue 11/01' '11 or 01', 'in 11/25' '11 or
25'). Records written here for the test (no bundled record's words)."""

from __future__ import annotations


import pytest

from mentalhospital_env.cases.compile import compile_facts, expand_abbreviations, voiced
from mentalhospital_env.cases.model import EHR


def _said(facts) -> str:
    return " ".join(f.patient_says or "" for f in facts if f.told)


@pytest.mark.parametrize("text, want", [
    ("Pain today 6/10, worse at night.", "My pain today is 6 out of 10"),
    ("Pain 4-5/10 most days.", "4 to 5 out of 10"),
    ("Today pain 8/10 'no better'.", "My pain is 8 out of 10"),
])
def test_a_score_out_of_ten_is_no_or(text: str, want: str) -> None:
    said = voiced("history_of_present_illness", text, "male") or ""
    assert " or " not in said and want in said, said


def test_a_dates_slash_is_no_or() -> None:
    # a zero-padded day and month is a date in the record's own order, even with no preposition before it
    assert expand_abbreviations("Used one pill 11/03 after an argument.", "month") == \
        "Used one pill 3 November after an argument."
    assert expand_abbreviations("Used one pill 11/03 after an argument.", "day") == \
        "Used one pill 11 March after an argument."
    # 'in' a month and a two-digit year is that month, whatever the order
    for order in ("day", "month"):
        assert expand_abbreviations("Robbed at work in 10/24.", order) == "Robbed at work in October 2024."
    # a score is left alone by the dates, and a slash between words is still 'or'
    assert expand_abbreviations("Mood 3/10 today.", "month") == "Mood 3/10 today."
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness=(
        "Seen 25/10/26 and 28/10/26. He was robbed at the shop in 10/24. Took sertraline 4/11 and 5/11, then stopped.")), "male")
    said = _said(facts)
    assert "October 2024" in said and "4 November" in said and " or " not in said, said
