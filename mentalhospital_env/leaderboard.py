"""The study's tables from result files: the leaderboard, the breakdown and a comparison of two runs.

* :func:`leaderboard_table`: rows are doctors, columns the study's ten (Inter., Exam., Note, Cate.,
  Diso. in percent; Emp., Prof., Qual., Rigor, App. on 1-5), as in table 3.2 of the study, then two beyond
  it: note errors (claims per note the encounter contradicts or never raised) and note precision (%).
* :func:`breakdown_table`: interview and note coverage with their chief-complaint (CC) and
  mental-status (MS) parts, as in the study's table 3.
* :func:`compare_results`: per metric, the difference between two runs with its 95% interval, paired
  per episode when both ran the same spec, and whether it is larger than its interval.

Each table renders as aligned text (terminal), Markdown or CSV.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from mentalhospital_env.evaluation import (
    BEYOND_METRICS,
    BREAKDOWN_METRICS,
    EPISODES_FILE,
    MAIN_METRICS,
    OBJECTIVE_METRICS,
    load_results,
    read_episodes,
)
from mentalhospital_env.statistics import summarize

COLUMN_TITLES: dict[str, str] = {
    "inter": "Inter.",
    "exam": "Exam.",
    "note": "Note",
    "cate": "Cate.",
    "diso": "Diso.",
    "emp": "Emp.",
    "prof": "Prof.",
    "qual": "Qual.",
    "rigor": "Rigor",
    "app": "App.",
    "inter_cc": "Inter. CC",
    "inter_ms": "Inter. MS",
    "note_cc": "Note CC",
    "note_ms": "Note MS",
    "note_errors": "Note err.",
    "note_precision": "Note prec.",
}
BREAKDOWN_COLUMNS: tuple[str, ...] = ("inter", "inter_cc", "inter_ms", "note", "note_cc", "note_ms")
FORMATS: tuple[str, ...] = ("text", "markdown", "csv")


@dataclass(frozen=True)
class Table:
    """A titled table of strings, rendered on demand."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def render(self, fmt: str = "text") -> str:
        if fmt == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(self.header)
            writer.writerows(self.rows)
            return buffer.getvalue()
        if fmt == "markdown":
            lines = [f"**{self.title}**", "", "| " + " | ".join(self.header) + " |"]
            lines.append("|" + "|".join(["---"] + ["---:"] * (len(self.header) - 1)) + "|")
            lines.extend("| " + " | ".join(r) + " |" for r in self.rows)
            return "\n".join(lines) + "\n"
        if fmt != "text":
            raise ValueError(f"unknown table format {fmt!r}; choose one of {', '.join(FORMATS)}")
        widths = [max(len(h), *(len(r[i]) for r in self.rows)) if self.rows else len(h) for i, h in enumerate(self.header)]
        def line(cells: Sequence[str]) -> str:
            return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
        rule = "-" * (sum(widths) + 2 * (len(widths) - 1))
        return "\n".join([self.title, rule, line(self.header), rule, *(line(r) for r in self.rows), rule]) + "\n"


def _label(results: dict[str, Any], label: str | None) -> str:
    return label or str(results.get("doctor", "?"))


def _suite_label(results: dict[str, Any]) -> str:
    info = results.get("suite_info")
    if info:
        return str(info.get("label"))
    return str(results.get("spec", {}).get("suite", "?"))


def _titled(title: str, results: Sequence[tuple[dict[str, Any], str | None]]) -> str:
    """The title with the suite named: once when every result shares it, per row otherwise (rows gain it)."""
    suites = {_suite_label(r) for r, _ in results}
    return f"{title} · suite {suites.pop()}" if len(suites) == 1 else f"{title} · several suites"


def _row_label(results: dict[str, Any], label: str | None, many: bool) -> str:
    base = _label(results, label)
    return f"{base} @ {_suite_label(results)}" if many and not label else base


def display_scale(metric: str) -> float:
    """100 for the metrics shown in percent (objective and coverage breakdown), 1 for the 1-5 rubrics."""
    return 100.0 if metric in OBJECTIVE_METRICS or metric in BREAKDOWN_METRICS or metric == "note_precision" else 1.0


def _cell(metric: str, summary: dict[str, Any] | None, with_ci: bool) -> str:
    if not summary or summary.get("mean") is None:
        return "n/a"
    scale = display_scale(metric)
    mean = summary["mean"] * scale
    text = f"{mean:.2f}"
    low, high = (summary.get("ci95") or [None, None])[:2]
    if with_ci and low is not None and high is not None:
        text += f" ±{(high - low) / 2 * scale:.2f}"
    return text


def leaderboard_table(results: Sequence[tuple[dict[str, Any], str | None]], *, with_ci: bool = False) -> Table:
    """The study's main table: one row per result (with an optional label), then the columns beyond the study
    (note precision: errors per note, and the share of a note's claims without error, in percent)."""
    columns = MAIN_METRICS + BEYOND_METRICS
    header = ("Doctor", *(COLUMN_TITLES[m] for m in columns))
    many = len({_suite_label(r) for r, _ in results}) > 1
    rows = tuple(
        (_row_label(r, label, many), *(_cell(m, r["metrics"].get(m), with_ci) for m in columns)) for r, label in results
    )
    return Table(_titled("Objective (%) | MentalEval (1-5) | beyond the study: note precision", results), header, rows)


def breakdown_table(results: Sequence[tuple[dict[str, Any], str | None]], *, with_ci: bool = False) -> Table:
    """Coverage by clinical component: interview and note, each with its CC and MS parts (%)."""
    header = ("Doctor", *(COLUMN_TITLES[m] for m in BREAKDOWN_COLUMNS))
    many = len({_suite_label(r) for r, _ in results}) > 1
    rows = tuple(
        (_row_label(r, label, many), *(_cell(m, r["metrics"].get(m), with_ci) for m in BREAKDOWN_COLUMNS)) for r, label in results
    )
    return Table(_titled("Coverage by clinical component (%): chief complaint (CC) and mental status (MS)", results), header, rows)


def read_labelled(paths: Sequence[str]) -> list[tuple[dict[str, Any], str | None]]:
    """Results files given as ``PATH`` or ``PATH=LABEL``."""
    out = []
    for item in paths:
        path, _, label = item.partition("=")
        out.append((load_results(path), label or None))
    return out


# ---------------------------------------------------------------------------------------- comparison


@dataclass(frozen=True)
class Difference:
    metric: str
    a: float | None
    b: float | None
    diff: float | None
    ci_low: float | None
    ci_high: float | None
    paired: bool

    @property
    def beyond_interval(self) -> bool:
        """Whether the 95% interval of the difference excludes zero."""
        return self.ci_low is not None and self.ci_high is not None and (self.ci_low > 0 or self.ci_high < 0)


def _episodes_beside(results_path: str) -> list[dict[str, Any]] | None:
    p = Path(results_path)
    folder = p if p.is_dir() else p.parent
    episodes = folder / EPISODES_FILE
    return read_episodes(episodes) if episodes.exists() else None


def compare_results(path_a: str, path_b: str) -> list[Difference]:
    """Differences B - A per metric; paired per episode when both ran the same spec and the episodes are at hand."""
    return _differences(path_a, path_b, load_results(path_a), load_results(path_b))


def _differences(path_a: str, path_b: str, a: dict[str, Any], b: dict[str, Any]) -> list[Difference]:
    rows_a = _episodes_beside(path_a) if a.get("spec_hash") == b.get("spec_hash") else None
    rows_b = _episodes_beside(path_b) if rows_a is not None else None
    scores_a = {(r["case_id"], r["seed"]): r["scores"] for r in rows_a} if rows_a is not None else {}
    out = []
    for metric in MAIN_METRICS:
        ma, mb = a["metrics"].get(metric, {}), b["metrics"].get(metric, {})
        mean_a, mean_b = ma.get("mean"), mb.get("mean")
        if rows_a is not None and rows_b is not None:
            diffs = []
            for r in rows_b:
                other = scores_a.get((r["case_id"], r["seed"]), {}).get(metric)
                if r["scores"].get(metric) is not None and other is not None:
                    diffs.append(r["scores"][metric] - other)
            s = summarize(diffs)
            out.append(Difference(metric, mean_a, mean_b, s.mean, s.ci_low, s.ci_high, True))
            continue
        if mean_a is None or mean_b is None:
            out.append(Difference(metric, mean_a, mean_b, None, None, None, False))
            continue
        se = math.sqrt((ma.get("se") or 0.0) ** 2 + (mb.get("se") or 0.0) ** 2)
        diff = mean_b - mean_a
        half = 1.96 * se if se > 0 else None
        out.append(
            Difference(metric, mean_a, mean_b, diff, diff - half if half else None, diff + half if half else None, False)
        )
    return out


def comparison_table(path_a: str, path_b: str) -> Table:
    a, b = load_results(path_a), load_results(path_b)
    header = ("Metric", _label(a, None) + " (A)", _label(b, None) + " (B)", "B - A", "95% CI", "beyond CI")
    rows = []
    differences = _differences(path_a, path_b, a, b)
    for d in differences:
        scale = display_scale(d.metric)
        def f(x: float | None) -> str:
            return "n/a" if x is None else f"{x * scale:.2f}"
        ci = "n/a" if d.ci_low is None else f"[{d.ci_low * scale:.2f}, {d.ci_high * scale:.2f}]"  # type: ignore[operator]
        rows.append((COLUMN_TITLES[d.metric], f(d.a), f(d.b), f(d.diff), ci, "yes" if d.beyond_interval else "no"))
    paired = "paired per episode" if any(d.paired for d in differences) else "unpaired"
    return Table(f"Comparison ({paired})", header, tuple(rows))


def tables_as_json(results: Sequence[tuple[dict[str, Any], str | None]]) -> str:
    """Both tables' numbers as JSON (means and intervals), for scripts."""
    return json.dumps(
        [{"doctor": _label(r, label), "metrics": {m: r["metrics"].get(m) for m in MAIN_METRICS + BREAKDOWN_COLUMNS + BEYOND_METRICS}} for r, label in results],
        indent=2,
    )
