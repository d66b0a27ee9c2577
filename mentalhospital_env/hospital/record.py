"""The episode record: everything that happened in one encounter, serialisable to JSON and back exactly.

``EpisodeRecord.from_json(record.to_json()) == record`` holds for every record: the evaluation
harness writes records to ``episodes.jsonl`` and scorers read them back as if the episode were live.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from mentalhospital_env.rewards.chart import Chart


def _json_ready(value: Any) -> Any:
    """A plain JSON copy (lists, dicts with str keys) of settings or scores, so equality survives a round trip."""
    return json.loads(json.dumps(value))


@dataclass(frozen=True)
class StepRecord:
    """One doctor action and what came of it.

    ``action_text`` is the action as the doctor sent it (a mapping is kept as its JSON text);
    ``action`` the parsed action's canonical dict, or ``None`` when it was invalid, in which case
    ``problem`` and ``error`` say why. ``observation`` is the text the doctor was shown, ``stage`` the
    encounter's stage after the step, ``components`` the named reward components (raw values; ``None``
    where a score could not be computed) behind ``reward``.
    """

    turn: int
    action_text: str
    action: Mapping[str, Any] | None
    error: str | None
    problem: str | None
    observation: str
    stage: str
    reward: float
    components: Mapping[str, float | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "action_text": self.action_text,
            "action": dict(self.action) if self.action is not None else None,
            "error": self.error,
            "problem": self.problem,
            "observation": self.observation,
            "stage": self.stage,
            "reward": self.reward,
            "components": dict(self.components),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> StepRecord:
        return cls(
            turn=int(raw["turn"]),
            action_text=str(raw["action_text"]),
            action=_json_ready(raw["action"]) if raw.get("action") is not None else None,
            error=raw.get("error"),
            problem=raw.get("problem"),
            observation=str(raw["observation"]),
            stage=str(raw["stage"]),
            reward=float(raw["reward"]),
            components={
                str(k): None if v is None else float(v) for k, v in raw.get("components", {}).items()
            },
        )


@dataclass(frozen=True)
class EpisodeRecord:
    """One episode: the case, the seed, the settings, the walk-in text, every step, the chart and the end.

    ``settings`` is JSON-ready data (turn budget, penalties, patient variant and backend, reward
    settings); ``scores`` the scorers' figures when they were computed, else ``None``; ``terminated``
    means the clinical end (treatment given), ``truncated`` that the turn budget ran out.
    """

    case_id: str
    seed: int | None
    settings: Mapping[str, Any]
    walk_in: str
    steps: tuple[StepRecord, ...]
    chart: Chart
    scores: Mapping[str, Any] | None = None
    terminated: bool = False
    truncated: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "settings", _json_ready(dict(self.settings)))
        if self.scores is not None:
            object.__setattr__(self, "scores", _json_ready(dict(self.scores)))
        object.__setattr__(self, "steps", tuple(self.steps))

    @property
    def total_reward(self) -> float:
        return sum(s.reward for s in self.steps)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def with_scores(self, scores: Mapping[str, Any]) -> EpisodeRecord:
        """A copy holding the scorers' figures."""
        return replace(self, scores=scores)

    def to_dict(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "seed": self.seed,
            "settings": _json_ready(self.settings),
            "walk_in": self.walk_in,
            "steps": [s.to_dict() for s in self.steps],
            "chart": self.chart.to_dict(),
            "scores": _json_ready(self.scores) if self.scores is not None else None,
            "terminated": self.terminated,
            "truncated": self.truncated,
        }

    def to_json(self) -> str:
        """One line of JSON (no new lines inside), ready for ``episodes.jsonl``."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> EpisodeRecord:
        seed = raw.get("seed")
        return cls(
            case_id=str(raw["case_id"]),
            seed=int(seed) if seed is not None else None,
            settings=raw.get("settings", {}),
            walk_in=str(raw.get("walk_in", "")),
            steps=tuple(StepRecord.from_dict(s) for s in raw.get("steps", ())),
            chart=Chart.from_dict(raw.get("chart", {})),
            scores=raw.get("scores"),
            terminated=bool(raw.get("terminated", False)),
            truncated=bool(raw.get("truncated", False)),
        )

    @classmethod
    def from_json(cls, text: str) -> EpisodeRecord:
        return cls.from_dict(json.loads(text))
