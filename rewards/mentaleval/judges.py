"""The judge interface shared by every MentalEval backend, and the jury that combines judges.

``judge.score(case, chart) -> {dimension: float | None}`` over :data:`DIMENSIONS`, each 1..5; ``None``
means the judge failed on that dimension (an unparseable reply, a client error), never that the
doctor did badly. A stage the doctor skipped (no interview, no note, no diagnosis, no plan) scores 1
on its dimensions for every judge, without asking anyone: the rubrics' 1 anchor is "missing".
"""

from __future__ import annotations

import abc
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from ..chart import Chart
from .rubrics import DIMENSIONS, MIN_SCORE

JudgeScores = dict[str, "float | None"]


def stage_missing(dimension: str, chart: Chart) -> bool:
    """Whether the stage a dimension judges was skipped or left empty in ``chart``."""
    if dimension in ("empathy", "professionalism"):
        return not chart.turns
    if dimension == "note_quality":
        return not (chart.note or "").strip()
    if dimension == "diagnostic_rigor":
        return not any(isinstance(d, str) and d.strip() for d in chart.disorders or ())
    if dimension == "treatment_appropriateness":
        return not (chart.treatment or "").strip()
    raise ValueError(f"unknown MentalEval dimension {dimension!r}; expected one of {DIMENSIONS}")


class Judge(abc.ABC):
    """A MentalEval judge: scores a chart on the five rubric dimensions."""

    name: str = "judge"

    def __init__(self, dimensions: Sequence[str] = DIMENSIONS):
        unknown = [d for d in dimensions if d not in DIMENSIONS]
        if unknown:
            raise ValueError(f"unknown MentalEval dimensions {unknown}; expected some of {DIMENSIONS}")
        self.dimensions = tuple(dimensions)

    def score(self, case: Any, chart: Chart) -> JudgeScores:
        """Scores 1..5 (or ``None`` when the judge failed) for each of ``self.dimensions``."""
        return self.score_many([(case, chart)])[0]

    def score_many(self, encounters: Sequence[tuple[Any, Chart]]) -> list[JudgeScores]:
        """Score many charts; judges backed by a language model batch them into one call."""
        out: list[JudgeScores] = []
        for case, chart in encounters:
            scores: JudgeScores = {}
            wanted = []
            for d in self.dimensions:
                if stage_missing(d, chart):
                    scores[d] = MIN_SCORE
                else:
                    wanted.append(d)
            if wanted:
                scores.update(self._score_dimensions(case, chart, wanted))
            out.append({d: scores.get(d) for d in self.dimensions})
        return out

    @abc.abstractmethod
    def _score_dimensions(
        self, case: Any, chart: Chart, dimensions: Sequence[str]
    ) -> Mapping[str, float | None]:
        """Scores for the dimensions whose stage is present."""


class Jury(Judge):
    """Several judges; each dimension's verdict is the median (or mean) of the judges that did not fail.

    A dimension every judge failed on stays ``None``. With ``aggregate="median"`` and an even number
    of answering judges, the verdict is the mean of the two middle scores.
    """

    name = "jury"

    def __init__(
        self, judges: Sequence[Judge], aggregate: str = "median", dimensions: Sequence[str] = DIMENSIONS
    ):
        if not judges:
            raise ValueError("a Jury needs at least one judge")
        if aggregate not in ("median", "mean"):
            raise ValueError(f"Jury aggregate must be 'median' or 'mean', got {aggregate!r}")
        super().__init__(dimensions)
        self.judges = tuple(judges)
        self.aggregate = aggregate

    def score_many(self, encounters: Sequence[tuple[Any, Chart]]) -> list[JudgeScores]:
        verdicts = [judge.score_many(encounters) for judge in self.judges]
        out: list[JudgeScores] = []
        for i in range(len(encounters)):
            scores: JudgeScores = {}
            for d in self.dimensions:
                votes = [float(v[i][d]) for v in verdicts if v[i].get(d) is not None]
                if not votes:
                    scores[d] = None
                elif self.aggregate == "median":
                    scores[d] = float(statistics.median(votes))
                else:
                    scores[d] = float(statistics.fmean(votes))
            out.append(scores)
        return out

    def _score_dimensions(
        self, case: Any, chart: Chart, dimensions: Sequence[str]
    ) -> Mapping[str, float | None]:
        scores = self.score_many([(case, chart)])[0]
        return {d: scores[d] for d in dimensions}
