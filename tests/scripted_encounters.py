"""Encounters with the scripted clinician driven reply by reply (shared by test_scripted_follow_up.py,
test_scripted_s40.py and test_review_s40.py): :func:`start` resets a clinician on a walk-in text and takes
its opening question; :func:`ask` hands it the patient's reply and returns its next question, tags removed.
"""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import ScriptedClinician


def start(text: str, budget: int = 40) -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": text}, {"turn_budget": budget})
    doctor.act({"text": ""}, {"allowed_actions": ["ask"]})  # the opening question
    return doctor


def ask(doctor: ScriptedClinician, reply: str) -> str:
    return re.sub(r"^<ask>|</ask>$", "", doctor.act({"text": reply}, {"allowed_actions": ["ask"]}))
