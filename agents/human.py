"""A person playing the doctor at a terminal (``mentalhospital play``).

Clinicians are measured on the same cases, patient and scorers as models: the terminal shows each
observation and reads one action per line. A plain line is taken as a question to the patient
(``<ask>``); the other actions are typed in the text protocol, or with a slash shortcut:

    /exams PHQ-9; TSH
    /note <the whole note on one line>
    /diagnose categories: depressive | disorders: 1. F32.1; 2. F41.1
    /treat <the plan>
"""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from mentalhospital_env.agents.base import Action, Doctor, Info, Observation, allowed_now

SHORTCUTS = {"/exams": "order_exams", "/note": "write_note", "/diagnose": "diagnose", "/treat": "treat", "/ask": "ask"}

HELP = """You are the doctor. Type a question for the patient and press Enter.
Other actions: /exams NAMES; /note TEXT; /diagnose categories: ... | disorders: 1. CODE; 2. ...; /treat PLAN
(or the tags of the text protocol, e.g. <order_exams>PHQ-9; TSH</order_exams>). Ctrl-D or Ctrl-C stops."""


class HumanDoctor(Doctor):
    name = "human"

    def __init__(self, read: Callable[[str], str] = input, out: TextIO = sys.stdout):
        self.read = read
        self.out = out

    def reset(self, observation: Observation, info: Info) -> None:
        print(HELP, file=self.out)

    def act(self, observation: Observation, info: Info) -> Action:
        print(f"\n{observation.get('text', '')}", file=self.out)
        print(f"[allowed: {', '.join(allowed_now(observation, info))}]", file=self.out)
        while True:
            try:
                line = self.read("doctor> ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            if line:
                return to_protocol(line)


def to_protocol(line: str) -> str:
    """A typed line as a text-protocol action: tags pass through, shortcuts expand, plain text is asked."""
    if line.startswith("<") or line.startswith("{"):
        return line
    head, _, rest = line.partition(" ")
    action = SHORTCUTS.get(head.lower())
    if action is None:
        return f"<ask>{line}</ask>"
    return f"<{action}>{rest.strip()}</{action}>"


def make(argument: str | None = None) -> HumanDoctor:
    """Roster factory: ``human``."""
    return HumanDoctor()
