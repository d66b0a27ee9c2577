"""Stop 54, the speech room on terse charts (uw-027, a Nigerian ward chart coded reply by reply by a psychiatrist, and
the other unseen registers): a slash between numbers, another person's words, the clinician's wording. Records written
here for the test (no bundled record's words)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR


def _said(facts) -> str:
    return " ".join(f.patient_says or "" for f in facts if f.told)


@pytest.mark.parametrize(("line", "date"), [
    ("Was held at the station 29/10 after a fight at the market.", "29 October"),
    ("Came off the bus 10/27 and walked home alone.", "27 October"),
    ("Moved back in with his aunt on 14/11/2026 after the eviction.", "14 November 2026"),
])
def test_a_day_and_month_that_read_one_way_are_said_as_a_date(line: str, date: str) -> None:
    # '29/10' was said '29 out of 10' (the out-of-ten row took any number before /10), '10/27' '10 or 27'
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness=line), "male")
    said = _said(facts)
    assert date in said, said
    assert "out of 10" not in said and not any(f"{n} or " in said for n in range(10)), said


@pytest.mark.parametrize("line", [
    "Seen by the night nurse: BP 132/84, pulse 96, slept 4 hrs.",
    "Took suboxone 8/2 mg from a friend twice last week.",
    "Went back to the mosque 3/11 and prayed there.",
])
def test_a_slash_between_numbers_is_never_said_or(line: str) -> None:
    # a blood pressure was said '132 or 84', a drug's strengths '8 or 2', an ambiguous date '3 or 11'
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness=line), "male")
    said = _said(facts)
    assert not any(f"{n} or " in said for n in range(10)), said


def test_a_score_out_of_ten_is_still_said_so() -> None:  # a guard: passes before and after
    facts = compile_facts(EHR(chief_complaint="Back pain.", history_of_present_illness="Pain 7/10 most days since the fall."), "female")
    assert "7 out of 10" in _said(facts), _said(facts)
