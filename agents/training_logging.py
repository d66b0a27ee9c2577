"""What the training examples keep of a run besides the trainers' own logging.

The trainers log through ``report_to`` (TensorBoard where installed: ``tensorboard --logdir
runs/``); TRL writes one curve per reward function, so each reward component is its own curve
(``rewards/<component>/mean``). :class:`StepLog` also keeps every logged row in a JSONL file beside
the run, and :func:`plot_curves` draws a small PNG of chosen curves (matplotlib, imported when used).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any


def step_log_callback(path: str | Path) -> Any:
    """A ``transformers.TrainerCallback`` that appends each logged row (with its ``step``) to ``path`` as JSON lines."""
    from transformers import TrainerCallback

    class StepLog(TrainerCallback):
        """Appends ``{"step": N, ...logs}`` to a JSONL file at every logging step."""

        def __init__(self, target: Path):
            self.path = target
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text("", encoding="utf-8")
            self.rows: list[dict[str, Any]] = []

        def on_log(
            self, args: Any, state: Any, control: Any, logs: Mapping[str, Any] | None = None, **kwargs: Any
        ) -> None:
            if not logs:
                return
            row = {"step": int(state.global_step)}
            row.update({k: v for k, v in logs.items() if isinstance(v, (int, float, str, bool)) or v is None})
            self.rows.append(row)
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row, default=str) + "\n")

    return StepLog(Path(path))


def read_step_log(path: str | Path) -> list[dict[str, Any]]:
    """The rows a :func:`step_log_callback` wrote."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def curve(rows: Iterable[Mapping[str, Any]], key: str) -> list[tuple[int, float]]:
    """``(step, value)`` of ``key`` over the rows that have it (finite values only)."""
    out = []
    for row in rows:
        value = row.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            out.append((int(row["step"]), float(value)))
    return out


def plot_curves(
    rows: Sequence[Mapping[str, Any]], keys: Sequence[str], path: str | Path, title: str = ""
) -> Path | None:
    """A PNG of ``keys`` against the step (one line each); ``None`` when none of them was logged."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = [(key, curve(rows, key)) for key in keys]
    lines = [(key, points) for key, points in lines if points]
    if not lines:
        return None
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    for key, points in lines:
        ax.plot([s for s, _ in points], [v for _, v in points], marker="o", label=key)
    ax.set_xlabel("step")
    ax.set_ylabel("value")
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target)
    plt.close(fig)
    return target
