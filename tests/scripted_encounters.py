"""Encounters with the scripted clinician driven reply by reply (shared by test_scripted_follow_up.py,
test_scripted_s40.py and test_review_s40.py): :func:`start` resets a clinician on a walk-in text and takes
its opening question; :func:`ask` hands it the patient's reply and returns its next question, tags removed.
A clinician set down mid-encounter (shared by test_clinician_s36.py, s37 and s41): :func:`with_findings` resets
one on a walk-in text with findings as an interview would have left them, :func:`write` takes the stage it then
writes (note, diagnosis, treatment), :func:`codes` the codes of a written diagnosis in order.
A whole encounter on a bundled case (shared by the clinician and scripted tests of stops 55-57): :func:`played`
plays the scripted clinician through the environment (40 turns, seed 0) and returns the episode's chart, once per
case and suite in a test process. An encounter against canned replies (shared by test_clinician_s37.py,
test_scripted_s57_informant.py, test_informant_s58_corrects.py and the clinician tests of stop 60): :func:`interview`
drives the clinician from a walk-in, a companion's replies labelled as theirs, and returns the doctor and every turn;
:func:`questions` gives the questions alone, and :func:`opening_reply` is a patient who tells only his opening
complaint. Seven replies of a depression with a mood-congruent voice (:data:`PSYCHOTIC_DEPRESSION`, shared by
test_scripted_s40.py and test_clinician_s59_ward_follow_up.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from mentalhospital_env.agents.scripted import ScriptedClinician

PSYCHOTIC_DEPRESSION = (
    "Patient: I feel low and empty all day, every day.",
    "Patient: I can't enjoy anything any more.",
    "Patient: I wake at four every morning.",
    "Patient: I'm exhausted all the time, no energy.",
    "Patient: I've lost my appetite and two stone in weight.",
    "Patient: I feel worthless and guilty about everything.",
    "Patient: I hear a voice telling me I'm wicked and deserve to be punished.",
)


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


def interview(walk_in: str, reply: Callable[[str], str], companion: str | None = None,
              budget: int = 40) -> tuple[ScriptedClinician, list[tuple[str, str]]]:
    """An encounter opened by ``walk_in`` to its end: the doctor and every turn (the question asked, the text that
    answered it). Each question is answered by ``reply``, labelled ``companion`` (as the environment labels the
    relative present: "Mother (Rosa)") where it was put to them ('A question for his mother: ...'), else
    "Patient"."""
    doctor = ScriptedClinician()
    info = {"turn_budget": budget}
    doctor.reset({"text": walk_in}, info)
    turns: list[tuple[str, str]] = []
    text = walk_in
    for _ in range(budget):
        out = doctor.act({"text": text}, dict(info, allowed_actions=["ask", "order_exams"]))
        m = re.fullmatch(r"<ask>(.*)</ask>", out, re.DOTALL)
        if not m:
            break
        to_companion = companion is not None and re.search(r"question for (?:his|her|their) ", m.group(1)) is not None
        text = (f"{companion}: " if to_companion else "Patient: ") + reply(m.group(1))
        turns.append((m.group(1), text))
    return doctor, turns


def opening_reply(opening: str, otherwise: str = "No, not really.") -> Callable[[str], str]:
    """A patient who answers 'What has brought you here?' with ``opening`` and every other question ``otherwise``."""
    def reply(question: str) -> str:
        return opening if "brought you" in question.lower() else otherwise
    return reply


def questions(walk_in: str, reply: Callable[[str], str], companion: str | None = None, budget: int = 40) -> list[str]:
    """Every question asked in :func:`interview`'s encounter, in order."""
    return [question for question, _ in interview(walk_in, reply, companion, budget)[1]]


@functools.lru_cache(maxsize=None)
def played(case_id: str, suite: str = "test-v2"):
    """The chart of the scripted clinician's whole encounter on ``case_id`` of a bundled ``suite`` (40 turns, seed 0),
    played once per test process (the chart is shared: read it, never change it)."""
    import gymnasium

    import mentalhospital_env  # noqa: F401  (registers the environments)
    from tests.test_scripted_clinician import play

    env = gymnasium.make("MentalHospital-v0", suite=suite, turn_budget=40)
    try:
        return play(env, ScriptedClinician(), case_id)
    finally:
        env.close()
