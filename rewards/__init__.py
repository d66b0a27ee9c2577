"""Scoring: semantic coverage of reference checkpoints, diagnosis ranking, MentalEval judges,
patient fidelity and shaped rewards.

Every scorer reads ``(case, chart)``: the case and the :class:`~.chart.Chart` of what the doctor did.

* :mod:`.matching` / :mod:`.embedders` / :mod:`.adjudication`: does an output entail a checkpoint?
  (``Matcher(MatcherConfig(...)).entails(checkpoint, output)``, ``.coverage(checkpoints, output)``)
* :mod:`.coverage`: Eq. 13 per stage, incremental for the interview, with the CC/MS breakdown.
* :mod:`.ranking`: category P/R/F1, nDCG of the ranked disorders, exam recommendation P/R/F1.
* :mod:`.mentaleval`: the five rubric dimensions and their judges; :mod:`.agreement`: QWK, accuracy, MAE.
* :mod:`.scoring`: ``score_chart(case, chart)``, the study's ten columns.
* :mod:`.shaping`: ``RewardConfig`` and ``RewardShaper``, the per-step reward components.
* :mod:`.fidelity`: how faithful a simulated patient is to its record.

Names are imported lazily, so ``import mentalhospital_env.rewards`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "Chart": ".chart",
    "Turn": ".chart",
    "Matcher": ".matching",
    "MatcherConfig": ".matching",
    "CoverageResult": ".matching",
    "CheckpointMatch": ".matching",
    "make_embedder": ".embedders",
    "make_adjudicator": ".adjudication",
    "InterviewCoverage": ".coverage",
    "StageCoverage": ".coverage",
    "ExamCoverage": ".coverage",
    "interview_coverage": ".coverage",
    "note_coverage": ".coverage",
    "exam_coverage": ".coverage",
    "category_scores": ".ranking",
    "rank_disorders": ".ranking",
    "disorder_ndcg": ".ranking",
    "exam_scores": ".ranking",
    "ndcg": ".ranking",
    "quadratic_weighted_kappa": ".agreement",
    "exact_accuracy": ".agreement",
    "mean_absolute_error": ".agreement",
    "agreement": ".agreement",
    "ScoringConfig": ".scoring",
    "Scores": ".scoring",
    "score_chart": ".scoring",
    "RewardConfig": ".shaping",
    "RewardShaper": ".shaping",
    "OfflineJudge": ".mentaleval",
    "LLMJudge": ".mentaleval",
    "Jury": ".mentaleval",
    "make_judge": ".mentaleval",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
