"""The random doctor: a floor for every metric.

At each turn it picks uniformly among the actions allowed now (those of the current stage, when it
repeats, and of every later stage, since stages may be skipped but never revisited) and fills the action with random content from
the knowledge base: a random clinician question, random exams, a note of random clinical terms,
random categories and disorders, a random drug. It is seeded from the walk-in observation, so the
same episode always gets the same random doctor.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from mentalhospital_env.agents.base import Action, Doctor, Info, Observation, allowed_now
from mentalhospital_env.knowledge import load_knowledge


class RandomDoctor(Doctor):
    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)
        kb = load_knowledge()
        self._questions = [q for c in kb.lexicon.concepts for q in c.questions]
        self._terms = [t for c in kb.lexicon.concepts for t in c.clinical_terms]
        self._exams = [e.name for e in kb.exams]
        self._categories = [c.id for c in kb.categories]
        self._disorders = [d.code for d in kb.disorders]
        self._drugs = [d.name for d in kb.drugs]

    def reset(self, observation: Observation, info: Info) -> None:
        digest = hashlib.sha256(f"{self.seed}|{observation.get('text', '')}".encode()).digest()
        self.rng = random.Random(int.from_bytes(digest[:8], "big"))

    def act(self, observation: Observation, info: Info) -> Action:
        kind = self.rng.choice(allowed_now(observation, info))
        r = self.rng
        if kind == "ask":
            return f"<ask>{r.choice(self._questions)}</ask>"
        if kind == "order_exams":
            return f"<order_exams>{'; '.join(r.sample(self._exams, r.randint(1, 4)))}</order_exams>"
        if kind == "write_note":
            return f"<write_note>{'. '.join(r.sample(self._terms, r.randint(3, 8)))}.</write_note>"
        if kind == "diagnose":
            cats = ", ".join(r.sample(self._categories, r.randint(1, 2)))
            ranked = "; ".join(f"{i}. {code}" for i, code in enumerate(r.sample(self._disorders, r.randint(1, 3)), 1))
            return f"<diagnose>categories: {cats} | disorders: {ranked}</diagnose>"
        return f"<treat>Start {r.choice(self._drugs)}. Review in four weeks.</treat>"


def make(argument: str | None = None) -> RandomDoctor:
    """Roster factory: ``random`` or ``random:SEED``."""
    try:
        return RandomDoctor(int(argument) if argument else 0)
    except ValueError:
        raise ValueError(f"random doctor: the argument must be an integer seed, got {argument!r}") from None
