"""Stop 43 (issue 13): a US chart's mechanics. A record's numeric dates are read in the record's own order
(month first where a date's second number is over 12, or a US cue and no day-first date), never a slash read as
"or" in a date, a lab unit or "s/p"; a contracted "she's" said by the patient is "I'm" ("Iam" before); a
disclosure note set between dashes is the writer's, never said; clinician-register lines (insight, a risk
grading, ward observations, a diagnosis's episode specifiers) are not told. Records written here for the test
(no bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import (
    clinician_only,
    compile_facts,
    date_order,
    disclosure_gates,
    expand_abbreviations,
    first_person,
)
from mentalhospital_env.cases.model import EHR


def _said(text: str, sex: str = "female") -> str:
    facts = compile_facts(EHR(chief_complaint="Ms Dana Reyes: low mood.", history_of_present_illness=text), sex)
    return " ".join(f.patient_says or "" for f in facts if f.told)


def test_the_record_settles_its_own_date_order() -> None:
    assert date_order("Admitted 4/22/26 after a fall on 4/19/26.") == "month"
    assert date_order("Admitted 22/04/26 after a fall on 19/04/26.") == "day"
    assert date_order("Glucose 140 mg/dL on 4/02/26.") == "month"  # a US cue, no date settles it
    assert date_order("Seen 04/02/26.") == "day"  # nothing says month first: as before


def test_a_month_first_date_is_written_out_month_first() -> None:
    out = expand_abbreviations("Admitted 4/22/26. Took the pills on 4/9/26.")
    assert "22 April 2026" in out and "9 April 2026" in out
    assert " or " not in out and "September" not in out


def test_a_day_and_month_after_a_date_word_is_a_date_not_or() -> None:
    out = expand_abbreviations("Admitted 4/22/26. Last drink on 4/20, seen again by 4/23.")
    assert "20 April" in out and "23 April" in out
    assert expand_abbreviations("Mood 6/10 on a good day.") == "Mood 6/10 on a good day."  # a score stays


def test_a_day_first_record_is_read_as_before() -> None:
    out = expand_abbreviations("Seen 25/09/26, again on 03/10/26.")
    assert "25 September 2026" in out and "3 October 2026" in out


def test_a_lab_unit_and_status_post_are_no_or() -> None:
    out = expand_abbreviations("Lithium 2.4 mEq/L and glucose 140 mg/dL, s/p overdose.")
    assert " or " not in out and "mEq per L" in out and "mg per dL" in out and "after overdose" in out
    assert clinician_only("history_of_present_illness", "Glucose 140 mg per dL at the ER.")


def test_a_contracted_she_is_said_as_i_am() -> None:
    assert "Iam" not in first_person("She's always tired, she's been crying.", "history_of_present_illness", "female")
    said = first_person("She's always tired, she's been crying.", "history_of_present_illness", "female")
    assert "I'm always tired" in said and "I've been crying" in said


def test_a_disclosure_note_between_dashes_is_never_said() -> None:
    text, gated = disclosure_gates("Keeps a knife in the car - told only when asked directly - needs removing.")
    assert "told only" not in text and "knife" in text and gated
    text, gated = disclosure_gates("Mood low - worse at night - and sleep poor.")
    assert text == "Mood low - worse at night - and sleep poor." and not gated


def test_clinician_register_lines_are_not_told() -> None:
    for line in ("Insight limited; judgment fair.", "Moderate chronic risk, low acute risk.",
                 "Supervised meals; meal observation.", "Major depressive disorder, recurrent, current episode severe.",
                 "Noncompliant with clozapine."):
        assert clinician_only("history_of_present_illness", line), line
    assert not clinician_only("history_of_present_illness", "I have bipolar disorder.")


def test_a_us_chart_says_no_slash_as_or() -> None:
    said = _said("Admitted 4/22/26 after an overdose on 4/19/26. Level 2.4 mEq/L on arrival. "
                 "Insight partial. She's scared she will lose her job.")
    assert " or " not in said and "insight" not in said.lower()
    assert "Iam" not in said


def test_a_day_and_month_before_a_clock_time_or_part_of_day_is_a_date() -> None:
    out = expand_abbreviations("Admitted 4/22/26. Level rechecked (4/23 0600); calmer by 4/24 AM; last drink 4/20 evening.")
    assert "23 April 0600" in out and "24 April AM" in out and "20 April evening" in out and " or " not in out
