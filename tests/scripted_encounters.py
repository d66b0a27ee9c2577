"""Encounters with the scripted clinician driven reply by reply (shared by test_scripted_follow_up.py,
test_scripted_s40.py and test_review_s40.py): :func:`start` resets a clinician on a walk-in text and takes
its opening question; :func:`ask` hands it the patient's reply and returns its next question, tags removed.
A clinician set down mid-encounter (shared by test_clinician_s36.py, s37 and s41): :func:`with_findings` resets
one on a walk-in text with findings as an interview would have left them, :func:`write` takes the stage it then
writes (note, diagnosis, treatment), :func:`codes` the codes of a written diagnosis in order.
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


def with_findings(walk_in: str, present: dict[str, str] | None = None, answers: dict[str, str] | None = None,
                  denied: set[str] | None = None, results: list[tuple[str, str]] | None = None) -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {})
    doctor.findings.present.update(present or {})
    doctor.findings.answers.update(answers or {})
    doctor.findings.denied.update(denied or set())
    doctor.findings.exam_results.extend(results or [])
    return doctor


def write(doctor: ScriptedClinician, action: str) -> str:
    out = doctor.act({"text": ""}, {"allowed_actions": [action]})
    m = re.fullmatch(rf"<{action}>(.*)</{action}>", out, re.DOTALL)
    assert m, out
    return m.group(1)


def codes(diagnosis: str) -> list[str]:
    return re.findall(r"\d\. ([A-Z]\d{2}(?:\.\d+)?)", diagnosis)
