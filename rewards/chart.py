"""The chart: everything a doctor produced in one encounter, as the scorers read it.

Scorers take ``(case, chart)`` and nothing else, so the same scoring runs on a live encounter, on an
``EpisodeRecord`` read back from ``episodes.jsonl`` and on a transcript written by a person.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, TypeVar


@dataclass(frozen=True)
class Turn:
    """One interview exchange: the doctor's utterance, the patient's reply and the facts it disclosed."""

    doctor: str
    patient: str
    fact_ids: tuple[str, ...] = ()
    # who answered: "patient", or "informant" when the relative or carer present did (the reply is then read
    # in the patient's frame by coverage: the informant's "I" is the informant, the patient's "he" the patient)
    speaker: str = "patient"
    # what the person present said after the patient's reply (a correction of theirs: "It was a box of wine a week,
    # not a small glass."), never the patient's words
    added: str = ""
    # whether the patient was seen without the person who came with them (sent out before the start, or asked to
    # step out by the doctor and not yet back); a turn with nobody who came, or with them in the room, is False
    alone: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"doctor": self.doctor, "patient": self.patient, "fact_ids": list(self.fact_ids)}
        if self.speaker != "patient":  # a patient's turn is written as before
            out["speaker"] = self.speaker
        if self.added:
            out["added"] = self.added
        if self.alone:
            out["alone"] = True
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "Turn":
        return cls(raw["doctor"], raw["patient"], tuple(raw.get("fact_ids", ())), raw.get("speaker", "patient"),
                   raw.get("added", ""), bool(raw.get("alone", False)))


@dataclass(frozen=True)
class Chart:
    """What the doctor did and wrote. ``None`` means the stage was skipped.

    ``disorders`` is the doctor's ranked differential as given (ICD-10-CM codes or names, best first);
    ``exam_results`` pairs each ordered exam with the result shown to the doctor.
    """

    turns: tuple[Turn, ...] = ()
    exams: tuple[str, ...] | None = None
    exam_results: tuple[tuple[str, str], ...] = ()
    note: str | None = None
    categories: tuple[str, ...] | None = None
    disorders: tuple[str, ...] | None = None
    treatment: str | None = None
    invalid_actions: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def doctor_utterances(self) -> tuple[str, ...]:
        return tuple(t.doctor for t in self.turns)

    @property
    def patient_replies(self) -> tuple[str, ...]:
        return tuple(t.patient for t in self.turns)

    @property
    def speakers(self) -> tuple[str, ...]:
        """Who answered each turn ("patient" or "informant"), in the order of :attr:`patient_replies`."""
        return tuple(t.speaker for t in self.turns)

    @property
    def disclosed_fact_ids(self) -> frozenset[str]:
        return frozenset(f for t in self.turns for f in t.fact_ids)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turns": [t.to_dict() for t in self.turns],
            "exams": list(self.exams) if self.exams is not None else None,
            "exam_results": [list(p) for p in self.exam_results],
            "note": self.note,
            "categories": list(self.categories) if self.categories is not None else None,
            "disorders": list(self.disorders) if self.disorders is not None else None,
            "treatment": self.treatment,
            "invalid_actions": self.invalid_actions,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "Chart":
        def opt(key: str) -> tuple[str, ...] | None:
            v = raw.get(key)
            return tuple(v) if v is not None else None

        return cls(
            turns=tuple(Turn.from_dict(t) for t in raw.get("turns", ())),
            exams=opt("exams"),
            exam_results=tuple((a, b) for a, b in raw.get("exam_results", ())),
            note=raw.get("note"),
            categories=opt("categories"),
            disorders=opt("disorders"),
            treatment=raw.get("treatment"),
            invalid_actions=int(raw.get("invalid_actions", 0)),
        )


ENCOUNTERS_KEPT = 8
"""How many encounters a :func:`per_encounter` reading remembers (the scorer reads one chart at a time)."""

_Reading = TypeVar("_Reading")


def per_encounter(read: Callable[[Any, Chart], _Reading]) -> Callable[[Any, Chart], _Reading]:
    """A memo of ``read(case, chart)`` by the two objects themselves (identity, the last :data:`ENCOUNTERS_KEPT`).

    One score reads a chart's note several times over: the offline judge's note reading and the scorer's details
    both check the note's claims and find its faults, and three readers gather the encounter's evidence. A chart
    is frozen, so the same object gives the same reading; the memo holds the objects, so their ids are not reused
    while remembered. ``read`` must return an immutable value.
    """
    kept: OrderedDict[tuple[int, int], tuple[Any, Chart, _Reading]] = OrderedDict()

    @wraps(read)
    def remembered(case: Any, chart: Chart) -> _Reading:
        key = (id(case), id(chart))
        hit = kept.get(key)
        if hit is not None and hit[0] is case and hit[1] is chart:
            return hit[2]
        value = read(case, chart)
        kept[key] = (case, chart, value)
        if len(kept) > ENCOUNTERS_KEPT:
            kept.popitem(last=False)
        return value

    remembered.cache_clear = kept.clear  # type: ignore[attr-defined]
    return remembered
