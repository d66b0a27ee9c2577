"""MentalEval: the five rubric dimensions of the study, scored 1..5 by interchangeable judges.

* Rubrics as data (``data/rubrics.json``): :func:`load_rubrics`, :data:`DIMENSIONS`, :data:`COLUMNS`.
* Judges, all ``judge.score(case, chart) -> {dimension: float | None}``: :class:`OfflineJudge`
  (observable features, no model), :class:`LLMJudge` (rubric prompt through an ``LLMClient``),
  :class:`Jury` (median or mean of several, masked scores ignored). :func:`make_judge` builds one
  from a short spec.
* Calibration ladders (:mod:`.ladders`): charts degraded step by step in one dimension, on which
  every judge must score monotonically.
"""

from __future__ import annotations

from .judges import Judge, JudgeScores, Jury, stage_missing
from .llm_judge import LLMJudge, parse_score
from .offline import OfflineJudge
from .rubrics import COLUMNS, DIMENSIONS, Rubric, load_rubrics

JUDGE_SPECS = ("offline", "none", "llm:<client spec>", "jury:<spec>,<spec>,...")


def make_judge(spec: str | Judge | None) -> Judge | None:
    """A judge from a spec: ``"offline"`` (the default), ``"none"`` (no rubric scores),
    ``"llm:<client spec>"`` (an :class:`LLMJudge` over ``mentalhospital_env.llm.make_client(spec)``,
    e.g. ``llm:openai:http://localhost:8000/v1?model=M``), or ``"jury:<spec>+<spec>+..."`` (a median
    :class:`Jury`). A :class:`Judge` instance is returned as it is."""
    if spec is None or isinstance(spec, Judge):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"judge spec must be a string or a Judge, got {type(spec).__name__}")
    text = spec.strip()
    if text in ("", "none"):
        return None
    if text == "offline":
        return OfflineJudge()
    if text.startswith("llm:"):
        from mentalhospital_env.llm import make_client

        return LLMJudge(make_client(text[len("llm:") :]))
    if text.startswith("jury:"):
        members = [make_judge(part) for part in text[len("jury:") :].split("+") if part.strip()]
        judges = [m for m in members if m is not None]
        if not judges:
            raise ValueError(f"judge spec {spec!r}: a jury needs at least one judge")
        return Jury(judges)
    raise ValueError(f"unknown judge spec {spec!r}; expected one of {JUDGE_SPECS}")


__all__ = [
    "COLUMNS",
    "DIMENSIONS",
    "Judge",
    "JudgeScores",
    "Jury",
    "LLMJudge",
    "OfflineJudge",
    "Rubric",
    "load_rubrics",
    "make_judge",
    "parse_score",
    "stage_missing",
]
