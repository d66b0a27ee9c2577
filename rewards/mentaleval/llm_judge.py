"""A MentalEval judge backed by a language model, through the library's one client interface.

For each chart and dimension the judge writes one conversation: the rubric (``data/rubrics.json``)
as the system message, the part of the chart the rubric reads as the user message, and an
instruction to end with ``Score: N``. All conversations of a call go to ``client.generate`` in one
batch. :func:`parse_score` reads the reply robustly (``Score: 4``, ``**4/5**``, ``{"score": 4}``,
"I would give it a four"); a reply it cannot read, a score off the scale, or a client error masks
that score as ``None``; it never becomes a 0 or a 1.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Mapping, Sequence
from typing import Any

from ..chart import Chart
from .judges import Judge, JudgeScores, stage_missing
from .rubrics import DIMENSIONS, MAX_SCORE, MIN_SCORE, Rubric, load_rubrics

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_NUMBER = r"([1-5](?:\.\d+)?|one|two|three|four|five)"
_LABELLED = re.compile(
    rf"\b(?:final\s+)?(?:score|rating|grade|verdict)\b\s*(?:is|of|=|:|-)?\s*\**\s*{_NUMBER}\b(?!\s*\.\d)",
    re.IGNORECASE,
)
_OUT_OF = re.compile(rf"\b{_NUMBER}\s*(?:/|out of)\s*5\b", re.IGNORECASE)
_LABELLED_ANY = re.compile(
    r"\b(?:score|rating|grade)\b\s*(?:is|of|=|:|-)?\s*\**\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE
)
_BARE = re.compile(r"^\W*([1-5])\W*$")


def _number(token: str) -> float:
    low = token.lower()
    return float(_WORDS[low]) if low in _WORDS else float(low)


def parse_score(reply: str) -> float | None:
    """The 1..5 score a judge's reply gives, or ``None`` when it gives none or an off-scale one.

    Read in this order, the last match of the first kind found winning (judges reason first and
    conclude last): a JSON object with a ``score`` key; a labelled score ("Score: 4", "final
    rating is **3**", "Score - four"); "N/5" or "N out of 5"; a reply that is a bare digit. A
    labelled number off the 1..5 scale ("Score: 7", "Score: 0") gives ``None``.
    """
    if not isinstance(reply, str) or not reply.strip():
        return None
    text = reply.strip()
    for blob in re.findall(r"\{[^{}]*\}", text):
        try:
            value = json.loads(blob)
        except ValueError:
            continue
        if isinstance(value, dict):
            for key in ("score", "Score", "rating"):
                if isinstance(value.get(key), (int, float)) and not isinstance(value.get(key), bool):
                    v = float(value[key])
                    return v if MIN_SCORE <= v <= MAX_SCORE else None
    labelled = _LABELLED_ANY.findall(text)
    matches = _LABELLED.findall(text)
    if labelled and not matches:
        return None  # a labelled number off the scale, e.g. "Score: 7"
    if matches:
        v = _number(matches[-1])
        return v if MIN_SCORE <= v <= MAX_SCORE else None
    matches = _OUT_OF.findall(text)
    if matches:
        return _number(matches[-1])
    bare = _BARE.match(text)
    if bare:
        return float(bare.group(1))
    return None


def _transcript(chart: Chart, limit: int) -> str:
    lines = []
    for i, turn in enumerate(chart.turns, 1):
        lines.append(f"[{i}] Doctor: {turn.doctor}")
        lines.append(f"[{i}] Patient: {turn.patient}")
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 20] + "\n[... transcript cut ...]"


def chart_excerpt(case: Any, chart: Chart, dimension: str, limit: int = 12000) -> str:
    """The part of the chart a dimension's rubric reads, as the judge's user message."""
    who = f"Patient: {case.demographics.age}-year-old {case.demographics.sex}, {case.setting} setting."
    if dimension in ("empathy", "professionalism"):
        return f"{who}\n\nInterview transcript:\n{_transcript(chart, limit)}"
    if dimension == "note_quality":
        return f"{who}\n\nInterview transcript:\n{_transcript(chart, limit // 2)}\n\nThe doctor's note:\n{chart.note}"
    if dimension == "diagnostic_rigor":
        exams = "; ".join(f"{name}: {result}" for name, result in chart.exam_results) or "none"
        categories = ", ".join(chart.categories or ()) or "none"
        ranked = "\n".join(f"{i}. {d}" for i, d in enumerate(chart.disorders or (), 1))
        return (
            f"{who}\n\nExams ordered and results: {exams}\n\nThe doctor's note:\n{chart.note or '(none)'}\n\n"
            f"Diagnostic categories named: {categories}\nRanked disorders:\n{ranked}"
        )
    if dimension == "treatment_appropriateness":
        reference = "; ".join(f"{d.name} ({d.code})" for d in case.diagnosis.disorders)
        risk = case.ehr.risk_assessment.to_dict() if case.ehr.risk_assessment is not None else {}
        risk_text = "; ".join(f"{k}: {v}" for k, v in risk.items()) or "not recorded"
        return (
            f"{who}\nReference diagnosis: {reference}\nRecorded risk: {risk_text}\n\n"
            f"The doctor's treatment plan:\n{chart.treatment}"
        )
    raise ValueError(f"unknown MentalEval dimension {dimension!r}")


SYSTEM_PROMPT = (
    "You are an experienced psychiatrist rating a doctor's performance in a simulated psychiatric "
    "encounter on one rubric dimension. Read the rubric and the material, reason briefly, then end "
    "your reply with a line of the form 'Score: N' where N is a whole number from 1 to 5.\n\nRubric:\n{rubric}"
)


class LLMJudge(Judge):
    """Rubric scores from a language model (``mentalhospital_env.llm.LLMClient``).

    ``client.generate(conversations, settings) -> list[str]`` receives every (chart, dimension)
    conversation of a ``score_many`` call in one batch. Greedy decoding by default, so a
    deterministic client gives deterministic scores.
    """

    name = "llm"

    def __init__(
        self,
        client: Any,
        settings: Any = None,
        rubrics: Mapping[str, Rubric] | None = None,
        dimensions: Sequence[str] = DIMENSIONS,
        excerpt_limit: int = 12000,
    ):
        super().__init__(dimensions)
        if not hasattr(client, "generate"):
            raise TypeError(
                f"LLMJudge needs an LLMClient with generate(conversations, settings), got {type(client).__name__}"
            )
        if settings is None:
            from mentalhospital_env.llm import GenerationSettings

            settings = GenerationSettings(max_new_tokens=256, temperature=0.0)
        self.client = client
        self.settings = settings
        self.rubrics = dict(rubrics) if rubrics is not None else load_rubrics()
        self.excerpt_limit = excerpt_limit
        self.last_replies: list[str | None] = []
        self.last_error: str | None = None

    def conversation(self, case: Any, chart: Chart, dimension: str) -> list[dict[str, str]]:
        """The chat the judge sends for one dimension of one chart."""
        return [
            {"role": "system", "content": SYSTEM_PROMPT.format(rubric=self.rubrics[dimension].text())},
            {"role": "user", "content": chart_excerpt(case, chart, dimension, self.excerpt_limit)},
        ]

    def score_many(self, encounters: Sequence[tuple[Any, Chart]]) -> list[JudgeScores]:
        out: list[JudgeScores] = [{} for _ in encounters]
        requests: list[tuple[int, str]] = []
        conversations: list[list[dict[str, str]]] = []
        for i, (case, chart) in enumerate(encounters):
            for d in self.dimensions:
                if stage_missing(d, chart):
                    out[i][d] = MIN_SCORE
                else:
                    requests.append((i, d))
                    conversations.append(self.conversation(case, chart, d))
        replies: list[str | None] = [None] * len(requests)
        self.last_error = None
        if conversations:
            try:
                got = list(self.client.generate(conversations, self.settings))
                if len(got) != len(conversations):
                    raise ValueError(
                        f"client returned {len(got)} replies for {len(conversations)} conversations"
                    )
                replies = got
            except Exception as error:  # noqa: BLE001 - any client failure masks, never crashes an episode
                self.last_error = f"{type(error).__name__}: {error}"
        self.last_replies = replies
        for (i, d), reply in zip(requests, replies):
            out[i][d] = parse_score(reply) if reply is not None else None
        return [{d: scores.get(d) for d in self.dimensions} for scores in out]

    def _score_dimensions(
        self, case: Any, chart: Chart, dimensions: Sequence[str]
    ) -> Mapping[str, float | None]:
        scores = self.score_many([(case, chart)])[0]
        return {d: scores[d] for d in dimensions}
