"""Shaped rewards: named components per doctor action, weighted into one number.

The environment calls one hook per action (``on_ask``, ``on_exams``, ``on_note``, ``on_diagnosis``,
``on_treatment``, ``on_invalid``) and :meth:`RewardShaper.finish` once when the episode ends
(terminated or truncated). Each returns a :class:`StepReward`: ``reward`` (the weighted sum) and
``components`` (every component by name, raw and unweighted, for ``info["reward_components"]``).

Components (raw values; weights in :class:`RewardConfig`):

* ``interview``: interview coverage gained by this reply, a potential difference
  ``Φ(s') - Φ(s)`` with ``Φ`` = interview coverage (Eq. 13) so far, so the episode's interview total
  is the final coverage, and asking again what was already answered earns nothing;
* ``exam``: exam-recommendation F1 against the indicated exams;
* ``note``: note coverage;
* ``category``: category F1; ``ndcg``: disorder nDCG;
* ``empathy``, ``professionalism``, ``note_quality``, ``diagnostic_rigor``,
  ``treatment_appropriateness``: MentalEval scores mapped from 1..5 to 0..1 (``(s - 1) / 4``), paid
  by :meth:`~RewardShaper.finish`; ``None`` when the judge failed (counted as 0 in the reward);
* ``invalid_action``: -1 per malformed or out-of-stage action (weight ``invalid_action_penalty``);
* ``turn``: -1 per valid action (weight ``turn_cost``).

Stage components are paid as differences too (a stage scored twice pays only the change), so no
component can be collected twice. With ``sparse=True`` every hook returns a zero reward with zero
components and :meth:`~RewardShaper.finish` pays the episode's total of each component at once: the
episode return is the same in both modes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .chart import Chart, Turn
from .mentaleval.rubrics import DIMENSIONS
from .ranking import category_scores, exam_scores, rank_disorders

STAGE_COMPONENTS: tuple[str, ...] = ("interview", "exam", "note", "category", "ndcg")
RUBRIC_COMPONENTS: tuple[str, ...] = DIMENSIONS
PENALTY_COMPONENTS: tuple[str, ...] = ("invalid_action", "turn")
COMPONENTS: tuple[str, ...] = STAGE_COMPONENTS + RUBRIC_COMPONENTS + PENALTY_COMPONENTS
"""Every reward component, in the order they are reported."""

DEFAULT_WEIGHTS: Mapping[str, float] = {
    "interview": 1.0,
    "exam": 0.5,
    "note": 1.0,
    "category": 0.5,
    "ndcg": 1.0,
    "empathy": 0.2,
    "professionalism": 0.2,
    "note_quality": 0.2,
    "diagnostic_rigor": 0.2,
    "treatment_appropriateness": 0.2,
}


@dataclass(frozen=True)
class RewardConfig:
    """Weights of the named components, the per-action costs, and dense or sparse payment.

    ``weights`` may name any of the stage and rubric components (missing names keep their default
    of :data:`DEFAULT_WEIGHTS`); ``turn_cost`` and ``invalid_action_penalty`` are the weights of the
    ``turn`` and ``invalid_action`` components; ``sparse`` pays everything at the end; ``judge`` is
    the MentalEval judge spec (``"offline"``, ``"none"``, ``"llm:<client spec>"``; see
    ``mentaleval.make_judge``).
    """

    weights: dict[str, float] = field(default_factory=dict)
    turn_cost: float = 0.005
    invalid_action_penalty: float = 0.05
    sparse: bool = False
    judge: str = "offline"

    def __post_init__(self) -> None:
        given = dict(self.weights or {})
        unknown = sorted(set(given) - set(DEFAULT_WEIGHTS))
        if unknown:
            raise ValueError(
                f"RewardConfig.weights names unknown components {unknown}; known: {sorted(DEFAULT_WEIGHTS)}"
            )
        merged = dict(DEFAULT_WEIGHTS)
        for name, value in given.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"RewardConfig.weights[{name!r}] must be a number, got {value!r}")
            merged[name] = float(value)
        object.__setattr__(self, "weights", merged)
        for name in ("turn_cost", "invalid_action_penalty"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"RewardConfig.{name} must be a number >= 0, got {value!r}")

    def weight(self, component: str) -> float:
        """The weight of a component (``turn`` and ``invalid_action`` included)."""
        if component == "turn":
            return float(self.turn_cost)
        if component == "invalid_action":
            return float(self.invalid_action_penalty)
        try:
            return self.weights[component]
        except KeyError:
            raise KeyError(f"no reward component {component!r}; known: {COMPONENTS}") from None

    @classmethod
    def dense(cls, **overrides: Any) -> RewardConfig:
        """Every component paid when it is earned (the default)."""
        return cls(**{**overrides, "sparse": False})

    @classmethod
    def sparse_terminal(cls, **overrides: Any) -> RewardConfig:
        """Everything paid at the end of the episode, nothing before."""
        return cls(**{**overrides, "sparse": True})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RewardConfig:
        allowed = {"weights", "turn_cost", "invalid_action_penalty", "sparse", "judge"}
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise ValueError(f"RewardConfig.from_dict: unknown keys {unknown}; known: {sorted(allowed)}")
        return cls(**dict(raw))


def _zeros() -> dict[str, float | None]:
    return {name: 0.0 for name in COMPONENTS}


@dataclass(frozen=True)
class StepReward:
    """One step's reward and its components (raw values, every component named)."""

    reward: float
    components: dict[str, float | None]

    def plus(self, other: StepReward) -> StepReward:
        """Two payments for the same step (e.g. the last action and :meth:`RewardShaper.finish`)."""
        merged: dict[str, float | None] = {}
        for name in COMPONENTS:
            a, b = self.components.get(name), other.components.get(name)
            merged[name] = None if a is None and b is None else (a or 0.0) + (b or 0.0)
        return StepReward(self.reward + other.reward, merged)


class RewardShaper:
    """Per-action reward components for one episode of one case.

    ``matcher`` is the coverage matcher (the shared offline default when ``None``); ``judge`` a
    MentalEval judge overriding ``config.judge``. The shaper keeps its own :attr:`chart` of what the
    doctor did, which :meth:`finish` hands to the judge.
    """

    def __init__(self, case: Any, config: RewardConfig | None = None, matcher: Any = None, judge: Any = None):
        from .coverage import InterviewCoverage, default_matcher
        from .mentaleval import make_judge

        self.case = case
        self.config = config or RewardConfig()
        self._weights = {name: self.config.weight(name) for name in COMPONENTS}
        self.matcher = matcher or default_matcher()
        self.judge = judge if judge is not None else make_judge(self.config.judge)
        # What does not depend on the doctor is read once per case, here, not once per episode: the
        # checkpoints' embeddings and readings (interview and note in one call, so the matcher stacks
        # their concepts' phrasings once) and the judge's view of the case.
        both = [c.text for c in (*case.checkpoints.interview, *case.checkpoints.note)]
        self.matcher.prepare(both, as_list=False)
        self._interview = InterviewCoverage(self.case, self.matcher)  # prepares the interview list
        # and the note list, as note coverage meets it
        self.matcher.prepare([c.text for c in case.checkpoints.note])
        prepare_judge = getattr(self.judge, "prepare", None)
        if callable(prepare_judge):
            prepare_judge(case)
        self.reset()

    def reset(self) -> None:
        """Start a new episode of the same case."""
        self._interview.reset()
        self._paid: dict[str, float] = {name: 0.0 for name in STAGE_COMPONENTS}
        self._owed: dict[str, float | None] = _zeros()
        self._turns: list[Turn] = []
        self._chart_fields: dict[str, Any] = {}
        self._invalid = 0
        self._finished = False
        self.total = 0.0

    # --- what the doctor did ------------------------------------------------------------------

    @property
    def chart(self) -> Chart:
        """The chart so far."""
        return Chart(turns=tuple(self._turns), invalid_actions=self._invalid, **self._chart_fields)

    def _pay(self, earned: dict[str, float | None]) -> StepReward:
        components = _zeros()
        components.update(earned)
        if self.config.sparse and not self._finished:
            for name, value in components.items():
                if value is not None:
                    self._owed[name] = (self._owed[name] or 0.0) + value
                elif self._owed[name] == 0.0:
                    self._owed[name] = None
            return StepReward(0.0, _zeros())
        weights = self._weights
        reward = sum(weights[n] * v for n, v in components.items() if v is not None)
        self.total += reward
        return StepReward(reward, components)

    def _stage(self, name: str, value: float) -> float:
        gained = value - self._paid[name]
        self._paid[name] = value
        return gained

    def on_ask(
        self, utterance: str, reply: str, fact_ids: Sequence[str] = (), speaker: str = "patient"
    ) -> StepReward:
        """The doctor asked ``utterance`` and the patient replied ``reply`` (disclosing ``fact_ids``);
        ``speaker`` is ``"informant"`` when the relative or carer present answered instead."""
        self._turns.append(Turn(utterance, reply, tuple(fact_ids), speaker))
        self._interview.update(reply, speaker)
        return self._pay({"interview": self._stage("interview", self._interview.score), "turn": -1.0})

    def on_asks(self, asks: Sequence[tuple]) -> list[StepReward]:
        """Several asks in a row, each ``(utterance, reply, fact_ids)`` or ``(utterance, reply, fact_ids,
        speaker)``: the payments :meth:`on_ask` would make one by one, with the replies matched in one call
        (``InterviewCoverage.update_many``). The encounter settles an episode's asks this way when rewards are
        paid at the end, and :meth:`replay` a recorded chart's."""
        asks = [(a[0], a[1], tuple(a[2]), a[3] if len(a) > 3 else "patient") for a in asks]
        covered = len(self._interview.covered_ids)
        newly = self._interview.update_many([r for _u, r, _f, _s in asks], [s for _u, _r, _f, s in asks])
        payments = []
        for (utterance, reply, fact_ids, speaker), new in zip(asks, newly):
            self._turns.append(Turn(utterance, reply, fact_ids, speaker))
            covered += len(new)
            interview = self._stage("interview", self._interview.share(covered))
            payments.append(self._pay({"interview": interview, "turn": -1.0}))
        return payments

    def on_exams(self, names: Sequence[str], results: Sequence[tuple[str, str]] = ()) -> StepReward:
        """The doctor ordered ``names``; ``results`` are the (name, result) pairs shown back."""
        self._chart_fields["exams"] = tuple(names)
        self._chart_fields["exam_results"] = tuple((a, b) for a, b in results)
        f1 = exam_scores(names, self.case.checkpoints.exam).f1
        return self._pay({"exam": self._stage("exam", f1), "turn": -1.0})

    def on_note(self, note: str) -> StepReward:
        """The doctor wrote ``note``."""
        from .coverage import note_coverage

        self._chart_fields["note"] = note
        value = note_coverage(self.case, note, self.matcher).score
        return self._pay({"note": self._stage("note", value), "turn": -1.0})

    def on_diagnosis(self, categories: Sequence[str], disorders: Sequence[str]) -> StepReward:
        """The doctor named ``categories`` and ranked ``disorders`` (codes or names, best first)."""
        self._chart_fields["categories"] = tuple(categories)
        self._chart_fields["disorders"] = tuple(disorders)
        f1 = category_scores(categories, self.case.diagnosis.categories).f1
        ndcg = rank_disorders(disorders, self.case.diagnosis.codes).ndcg
        return self._pay(
            {"category": self._stage("category", f1), "ndcg": self._stage("ndcg", ndcg), "turn": -1.0}
        )

    def on_treatment(self, plan: str) -> StepReward:
        """The doctor proposed ``plan`` (its score, App., is paid by :meth:`finish`)."""
        self._chart_fields["treatment"] = plan
        return self._pay({"turn": -1.0})

    def on_invalid(self, reason: str = "") -> StepReward:
        """A malformed or out-of-stage action: the penalty only; nothing else changes."""
        self._invalid += 1
        return self._pay({"invalid_action": -1.0})

    def finish(self, chart: Chart | None = None) -> StepReward:
        """End of episode: MentalEval scores of the chart (this shaper's own, or ``chart``), plus, in
        sparse mode, everything owed. A second call pays nothing."""
        if self._finished:
            return StepReward(0.0, _zeros())
        earned: dict[str, float | None] = {}
        if self.judge is not None:
            verdict = self._judge(chart if chart is not None else self.chart)
            for d in RUBRIC_COMPONENTS:
                v = verdict.get(d)
                earned[d] = None if v is None else (float(v) - 1.0) / 4.0
        if self.config.sparse:
            total = dict(self._owed)
            for name, value in earned.items():
                total[name] = value if total[name] in (None, 0.0) else (total[name] or 0.0) + (value or 0.0)
            self._finished = True
            return self._pay(total)
        self._finished = True
        return self._pay(earned)

    def _judge(self, chart: Chart) -> Mapping[str, float | None]:
        try:
            return self.judge.score(self.case, chart)
        except Exception:  # noqa: BLE001 - a failing judge masks its scores, never ends the episode
            return {d: None for d in RUBRIC_COMPONENTS}

    # --- recorded episodes ---------------------------------------------------------------------

    def replay(self, chart: Chart) -> list[StepReward]:
        """Feed a recorded chart through the hooks in stage order (after a :meth:`reset`), ending with
        :meth:`finish`; one :class:`StepReward` per action plus the final one."""
        self.reset()
        steps = self.on_asks([(t.doctor, t.patient, t.fact_ids, t.speaker) for t in chart.turns])
        if chart.exams is not None:
            steps.append(self.on_exams(chart.exams, chart.exam_results))
        if chart.note is not None:
            steps.append(self.on_note(chart.note))
        if chart.categories is not None or chart.disorders is not None:
            steps.append(self.on_diagnosis(chart.categories or (), chart.disorders or ()))
        if chart.treatment is not None:
            steps.append(self.on_treatment(chart.treatment))
        for _ in range(chart.invalid_actions):
            steps.append(self.on_invalid())
        steps.append(self.finish())
        return steps


def episode_return(
    case: Any, chart: Chart, config: RewardConfig | None = None, matcher: Any = None, judge: Any = None
) -> tuple[float, dict[str, float | None]]:
    """The return of a recorded chart and the episode total of every component."""
    shaper = RewardShaper(case, config, matcher, judge)
    steps = shaper.replay(chart)
    totals: dict[str, float | None] = {name: None for name in COMPONENTS}
    for step in steps:
        for name, value in step.components.items():
            if value is not None:
                totals[name] = (totals[name] or 0.0) + value
    return sum(s.reward for s in steps), totals
