"""MentalEval's five rubrics, read from ``data/rubrics.json``.

A :class:`Rubric` names a dimension, the study's column for it, what a 1, 3 and 5 look like, and
which parts of the chart a judge reads. Judges (offline, LLM, jury) all score the same
:data:`DIMENSIONS` on the same 1..5 scale.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

DIMENSIONS: tuple[str, ...] = (
    "empathy",
    "professionalism",
    "note_quality",
    "diagnostic_rigor",
    "treatment_appropriateness",
)
"""The five MentalEval dimensions, in the study's column order (Emp., Prof., Qual., Rigor, App.)."""

COLUMNS: Mapping[str, str] = {
    "empathy": "emp",
    "professionalism": "prof",
    "note_quality": "qual",
    "diagnostic_rigor": "rigor",
    "treatment_appropriateness": "app",
}
"""The study's short column name of each dimension."""

MIN_SCORE, MAX_SCORE = 1.0, 5.0


@dataclass(frozen=True)
class Rubric:
    """One dimension's rubric: ``anchors`` maps ``1``, ``3`` and ``5`` to what such a score looks like."""

    dimension: str
    column: str
    name: str
    stage: str
    reads: tuple[str, ...]
    question: str
    anchors: Mapping[int, str]
    observes: tuple[str, ...]

    def text(self) -> str:
        """The rubric as a judge reads it in a prompt."""
        lines = [
            f"{self.name} ({self.dimension}): {self.question}",
            "Scale 1 to 5; 2 and 4 lie between their neighbours.",
        ]
        lines += [f"{score}: {self.anchors[score]}" for score in sorted(self.anchors)]
        return "\n".join(lines)


def read_rubric_file(raw: Mapping[str, Any], where: str = "rubrics.json") -> dict[str, Rubric]:
    """Rubrics by dimension; ``ValueError`` naming the entry and field when the file is malformed."""
    entries = raw.get("rubrics")
    if not isinstance(entries, list):
        raise ValueError(f"{where}: 'rubrics' must be a list")  # noqa: TRY004 - a malformed data file
    out: dict[str, Rubric] = {}
    for i, entry in enumerate(entries):
        at = f"{where}: rubrics[{i}]"
        for key in ("dimension", "column", "name", "stage", "question"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise ValueError(f"{at}.{key} must be a non-empty string")
        anchors = entry.get("anchors")
        if not isinstance(anchors, Mapping) or {str(k) for k in anchors} != {"1", "3", "5"}:
            raise ValueError(f"{at}.anchors must give exactly the anchors '1', '3' and '5'")
        if entry["dimension"] not in DIMENSIONS:
            raise ValueError(f"{at}.dimension {entry['dimension']!r} is not one of {DIMENSIONS}")
        out[entry["dimension"]] = Rubric(
            dimension=entry["dimension"],
            column=entry["column"],
            name=entry["name"],
            stage=entry["stage"],
            reads=tuple(entry.get("reads", ())),
            question=entry["question"],
            anchors={int(k): str(v) for k, v in anchors.items()},
            observes=tuple(entry.get("observes", ())),
        )
    missing = [d for d in DIMENSIONS if d not in out]
    if missing:
        raise ValueError(f"{where}: no rubric for {missing}")
    return out


@lru_cache(maxsize=1)
def load_rubrics() -> dict[str, Rubric]:
    """The five bundled rubrics by dimension (cached)."""
    raw = json.loads(resources.files(__package__).joinpath("data/rubrics.json").read_text("utf-8"))
    return read_rubric_file(raw)


def clamp_score(value: float) -> float:
    """A score kept inside the 1..5 scale."""
    return max(MIN_SCORE, min(MAX_SCORE, float(value)))
