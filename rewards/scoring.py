"""Score a chart the way the study scores an encounter: ten columns, a breakdown and the details.

``score_chart(case, chart, config=None) -> Scores`` gives the study's Table 3.2 columns:

* ``inter``, ``exam``, ``note``: coverage (Eq. 13) of the interview (the patient's replies against
  the interview checkpoints), of the exams (indicated exams ordered) and of the note
  (:mod:`.coverage`), each in 0..1;
* ``cate``: category F1 and ``diso``: disorder nDCG (:mod:`.ranking`), in 0..1;
* ``emp``, ``prof``, ``qual``, ``rigor``, ``app``: MentalEval's five dimensions, 1..5, or ``None``
  when the judge failed or no judge is configured (:mod:`.mentaleval`);

plus ``breakdown`` (Table 3: the share of each checkpoint group covered, chief complaint and mental
status among them, for interview and note) and ``details`` (category precision, recall, F1 and exact
match; exam precision, recall and F1; what each ranked disorder earned). Multiply coverage columns by
100 for the study's percentages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .chart import Chart
from .ranking import FAMILY_CREDIT, category_scores, exam_scores, rank_disorders

OBJECTIVE_COLUMNS: tuple[str, ...] = ("inter", "exam", "note", "cate", "diso")
SUBJECTIVE_COLUMNS: tuple[str, ...] = ("emp", "prof", "qual", "rigor", "app")
STUDY_COLUMNS: tuple[str, ...] = OBJECTIVE_COLUMNS + SUBJECTIVE_COLUMNS
"""The study's ten columns, in Table 3.2's order."""

DIMENSION_OF_COLUMN: Mapping[str, str] = {
    "emp": "empathy",
    "prof": "professionalism",
    "qual": "note_quality",
    "rigor": "diagnostic_rigor",
    "app": "treatment_appropriateness",
}


@dataclass(frozen=True)
class ScoringConfig:
    """How charts are scored.

    - ``matcher``: a ``MatcherConfig`` (embedder, threshold, adjudicator), a ready ``Matcher``, or
      ``None`` for the shared offline default (hashing embedder, calibrated threshold, clinical
      adjudicator).
    - ``judge``: ``"offline"`` (default), ``"none"``, ``"llm:<client spec>"``, ``"jury:a+b"``, or a
      ``Judge`` instance (see ``mentaleval.make_judge``).
    - ``family_credit``: nDCG credit for a code of the right three-character family (default 0.5).
    """

    matcher: Any = None
    judge: Any = "offline"
    family_credit: float = FAMILY_CREDIT

    def __post_init__(self) -> None:
        if not 0.0 <= self.family_credit <= 1.0:
            raise ValueError(f"ScoringConfig.family_credit must lie in [0, 1], got {self.family_credit!r}")


@dataclass
class Scores:
    """One encounter's scores: the ten study columns, the coverage breakdown and the details."""

    inter: float
    exam: float
    note: float
    cate: float
    diso: float
    emp: float | None = None
    prof: float | None = None
    qual: float | None = None
    rigor: float | None = None
    app: float | None = None
    breakdown: dict[str, dict[str, float]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def columns(self) -> dict[str, float | None]:
        """The ten columns by name, in the study's order."""
        return {c: getattr(self, c) for c in STUDY_COLUMNS}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = self.columns()
        out["breakdown"] = {k: dict(v) for k, v in self.breakdown.items()}
        out["details"] = self.details
        return out

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Scores:
        """The inverse of :meth:`to_dict`; a missing or non-numeric column raises ``ValueError`` naming it."""
        values: dict[str, Any] = {}
        for c in STUDY_COLUMNS:
            v = raw.get(c)
            if v is None:
                if c in OBJECTIVE_COLUMNS:
                    raise ValueError(f"Scores.from_dict: column {c!r} is missing")
                values[c] = None
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(float(v)):
                raise ValueError(f"Scores.from_dict: column {c!r} must be a number, got {v!r}")
            values[c] = float(v)
        breakdown = {
            str(k): {str(g): float(s) for g, s in v.items()} for k, v in (raw.get("breakdown") or {}).items()
        }
        return cls(**values, breakdown=breakdown, details=dict(raw.get("details") or {}))


class Scorer:
    """A :class:`ScoringConfig` with its matcher and judge built once, for scoring many charts."""

    def __init__(self, config: ScoringConfig | None = None):
        from .mentaleval import make_judge

        self.config = config or ScoringConfig()
        self.matcher = _build_matcher(self.config.matcher)
        self.judge = make_judge(self.config.judge)

    def score(self, case: Any, chart: Chart) -> Scores:
        return self.score_many([(case, chart)])[0]

    def score_many(self, encounters: Sequence[tuple[Any, Chart]]) -> list[Scores]:
        """Score many charts; the judge sees them in one ``score_many`` call (one batch for an LLM)."""
        from .coverage import chart_interview_coverage, exam_coverage, note_coverage
        from .mentaleval.note_faults import note_faults
        from .mentaleval.precision import check_note

        verdicts: list[Mapping[str, float | None]] = [{} for _ in encounters]
        judge_error = None
        if self.judge is not None:
            try:
                verdicts = self.judge.score_many(encounters)
            except Exception as error:  # noqa: BLE001 - a failed judge masks its scores, never loses the episode
                judge_error = f"{type(error).__name__}: {error}"
        out = []
        for (case, chart), verdict in zip(encounters, verdicts):
            inter = chart_interview_coverage(case, chart, self.matcher)  # read informant replies as the shaper does
            note = note_coverage(case, chart.note, self.matcher)
            exams = exam_coverage(case, chart.exams)
            categories = category_scores(chart.categories, case.diagnosis.categories)
            ranking = rank_disorders(chart.disorders, case.diagnosis.codes, self.config.family_credit)
            exam_set = exam_scores(chart.exams, case.checkpoints.exam)
            out.append(
                Scores(
                    inter=inter.score,
                    exam=exams.score,
                    note=note.score,
                    cate=categories.f1,
                    diso=ranking.ndcg,
                    **{c: verdict.get(d) for c, d in DIMENSION_OF_COLUMN.items()},
                    breakdown={"interview": inter.breakdown(), "note": note.breakdown()},
                    details={
                        "category": categories.to_dict(),
                        "exam": exam_set.to_dict(),
                        "exam_missed": list(exams.missed),
                        "ranking": ranking.to_dict(),
                        "covered": {"interview": sorted(inter.covered_ids), "note": sorted(note.covered_ids)},
                        "invalid_actions": chart.invalid_actions,
                        "judge": getattr(self.judge, "name", None),
                        "judge_error": judge_error,
                        "note_precision": check_note(case, chart).to_dict() if (chart.note or "").strip() else None,
                        "note_faults": [f.to_dict() for f in note_faults(case, chart)] if (chart.note or "").strip() else None,
                        "critical_actions": _plan_safety(case, chart),
                    },
                )
            )
        return out


def _plan_safety(case: Any, chart: Chart) -> dict[str, Any] | None:
    """The plan held against the case's critical actions and contraindications (``None`` without a plan)."""
    if not (chart.treatment or "").strip():
        return None
    from mentalhospital_env.knowledge.critical import load_critical_actions

    return load_critical_actions().check_case(case, chart.treatment or "").to_dict()


def _build_matcher(spec: Any) -> Any:
    from .coverage import default_matcher
    from .matching import Matcher, MatcherConfig

    if spec is None:
        return default_matcher()
    if isinstance(spec, Matcher):
        return spec
    if isinstance(spec, MatcherConfig):
        return Matcher(spec)
    raise TypeError(
        f"ScoringConfig.matcher must be a MatcherConfig, a Matcher or None, got {type(spec).__name__}"
    )


_SCORERS: dict[int, tuple[ScoringConfig, Scorer]] = {}


def scorer_for(config: ScoringConfig | None = None) -> Scorer:
    """A :class:`Scorer` for ``config``, built once per config object and reused."""
    config = config or _DEFAULT_CONFIG
    hit = _SCORERS.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    if len(_SCORERS) > 32:
        _SCORERS.clear()
    scorer = Scorer(config)
    _SCORERS[id(config)] = (config, scorer)
    return scorer


_DEFAULT_CONFIG = ScoringConfig()


def score_chart(case: Any, chart: Chart, config: ScoringConfig | None = None) -> Scores:
    """The study's ten columns, the breakdown and the details for one chart (see the module docstring)."""
    return scorer_for(config).score(case, chart)
