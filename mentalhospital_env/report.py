"""A self-contained HTML report of an evaluation, for error analysis.

``write_report(results_dir, out_html)`` writes one HTML file with the study's tables, a PNG chart
per metric family (embedded as data URIs, so the file stands alone), and every episode: the
transcript, the facts the patient disclosed, the checkpoints the doctor missed, the exams, note,
diagnosis and plan, and the episode's scores. Charts need matplotlib (``pip install -e '.[report]'``).
"""

from __future__ import annotations

import base64
import html
import io
import os
from pathlib import Path
from typing import Any

from mentalhospital_env.evaluation import (
    BREAKDOWN_METRICS,
    EPISODES_FILE,
    OBJECTIVE_METRICS,
    SUBJECTIVE_METRICS,
    EvaluationError,
    EvaluationSpec,
    load_results,
    read_episodes,
)
from mentalhospital_env.leaderboard import COLUMN_TITLES, breakdown_table, leaderboard_table

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}details{border:1px solid #ddd;margin:.5em 0;padding:.5em}
summary{cursor:pointer;font-weight:600}.doc{color:#124}.pat{color:#461}.miss{color:#a00}.ok{color:#070}
.grid{display:grid;grid-template-columns:2fr 1fr;gap:1em}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em}
.small{font-size:.9em;color:#555}
"""


def _chart_png(title: str, labels: list[str], values: list[float | None], errors: list[float | None], ylim: tuple[float, float]) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.2), dpi=100)
    xs = list(range(len(labels)))
    ax.bar(xs, [v or 0.0 for v in values], yerr=[e or 0.0 for e in errors], capsize=4, color="#4c72b0")
    ax.set_xticks(xs, labels)
    ax.set_ylim(*ylim)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def _family_chart(results: dict[str, Any], metrics: tuple[str, ...], title: str, scale: float, ylim: tuple[float, float]) -> str:
    values, errors = [], []
    for m in metrics:
        s = results["metrics"].get(m) or {}
        mean = _number(s.get("mean"))
        ci = s.get("ci95") if isinstance(s.get("ci95"), list) else [None, None]
        low, high = (_number(x) for x in (ci + [None, None])[:2])
        values.append(mean * scale if mean is not None else None)
        errors.append((high - low) / 2 * scale if low is not None and high is not None else None)
    png = _chart_png(title, [COLUMN_TITLES[m] for m in metrics], values, errors, ylim)
    return f'<img alt="{html.escape(title)}" src="data:image/png;base64,{png}">'


def _table_html(table: Any) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table.rows)
    return f"<p><b>{html.escape(table.title)}</b></p><table><tr>{head}</tr>{body}</table>"


def _text(value: Any) -> str:
    """Anything read from a results folder, as escaped HTML text (a number from a file may be a string)."""
    return html.escape(str(value))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _episode_html(row: dict[str, Any], case: Any) -> str:
    e = _text
    record = row.get("record") if isinstance(row.get("record"), dict) else {}
    chart = record.get("chart") if isinstance(record.get("chart"), dict) else {}
    scores = row.get("scores") if isinstance(row.get("scores"), dict) else {}
    details = scores.get("details") if isinstance(scores.get("details"), dict) else {}
    turns = [t for t in chart.get("turns") or [] if isinstance(t, dict)]
    lines = []
    for turn in turns:
        lines.append(f'<div class="doc"><b>Doctor:</b> {e(turn.get("doctor", ""))}</div>')
        facts = ", ".join(map(str, turn.get("fact_ids") or []))
        lines.append(f'<div class="pat"><b>Patient:</b> {e(turn.get("patient", ""))} <span class="small">{e(facts)}</span></div>')
    disclosed = {str(f) for t in turns for f in t.get("fact_ids") or []}

    def listed(key: str, sep: str) -> str:
        value = chart.get(key)
        return sep.join(map(str, value)) if isinstance(value, list) else ""

    if case is not None:
        fact_items = "".join(
            f'<li class="{"ok" if f.id in disclosed else "miss"}">{e(f.id)}: {e(f.text)}</li>' for f in case.facts
        )
        covered = {str(c) for c in (details.get("interview_covered") or []) + (details.get("note_covered") or [])}
        missed = [c for c in (*case.checkpoints.interview, *case.checkpoints.note) if c.id not in covered]
        missed_items = "".join(f'<li class="miss">[{e(c.group)}] {e(c.text)}</li>' for c in missed[:60])
        reference_categories = ", ".join(case.diagnosis.categories)
        reference_disorders = "; ".join(f"{d.code} {d.name}" for d in case.diagnosis.disorders)
    else:
        fact_items = missed_items = "<li>(the case is not at hand: see the note at the top)</li>"
        reference_categories = reference_disorders = "not at hand"
    score_items = "".join(
        f"<li>{e(COLUMN_TITLES.get(k, k))}: {e('n/a' if _number(v) is None else round(_number(v), 3))}</li>"
        for k, v in scores.items()
        if k in COLUMN_TITLES
    )
    outputs = (
        f"<p><b>Exams:</b> {e(listed('exams', '; ') or '(none)')}</p>"
        f"<p><b>Note:</b></p><pre>{e(chart.get('note') or '(none)')}</pre>"
        f"<p><b>Categories:</b> {e(listed('categories', ', ') or '(none)')} "
        f"(reference: {e(reference_categories)})</p>"
        f"<p><b>Disorders:</b> {e(listed('disorders', '; ') or '(none)')} "
        f"(reference: {e(reference_disorders)})</p>"
        f"<p><b>Plan:</b></p><pre>{e(chart.get('treatment') or '(none)')}</pre>"
    )
    summary = (
        f"{e(row.get('case_id'))} / seed {e(row.get('seed'))} · {e(row.get('principal_category', ''))} · "
        + " ".join(f"{COLUMN_TITLES[m]} {_number(scores.get(m)) * 100:.0f}" for m in OBJECTIVE_METRICS if _number(scores.get(m)) is not None)
    )
    return (
        f"<details><summary>{summary}</summary><div class=grid><div>{''.join(lines)}{outputs}</div>"
        f"<div><p><b>Scores</b></p><ul>{score_items}</ul><p><b>Facts (green: disclosed)</b></p><ul class=small>{fact_items}</ul>"
        f"<p><b>Missed checkpoints</b></p><ul class=small>{missed_items}</ul></div></div></details>"
    )


def _verified_suite(results: dict[str, Any], folder: Path) -> tuple[Any, str | None]:
    """The evaluated suite, found where the results say (as named, at its recorded absolute path, or
    beside the results) and used only when its content hashes to the results' spec hash; else ``None``
    with a note saying why (the report then shows transcripts and scores without the references)."""
    from mentalhospital_env.cases import CaseError, load_suite

    spec_raw = dict(results["spec"])
    named = str(spec_raw.get("suite"))
    tried: list[str] = []
    for candidate in dict.fromkeys(c for c in (named, results.get("suite_path"), str(folder / named)) if isinstance(c, str) and c):
        try:
            suite = load_suite(candidate)
            spec = EvaluationSpec.from_dict({**spec_raw, "suite": named})
            from mentalhospital_env.evaluation import _spec_hash_with

            if _spec_hash_with(spec, suite) == results["spec_hash"]:
                return suite, None
            tried.append(f"{candidate} (changed since the evaluation: its content does not match spec {results['spec_hash']})")
        except (CaseError, EvaluationError, TypeError, ValueError) as err:
            tried.append(f"{candidate} ({str(err).splitlines()[0]})")
    return None, "The evaluated cases are not at hand, so references are not shown: " + "; ".join(tried)


def write_report(results_path: str | os.PathLike[str], out_html: str | os.PathLike[str] | None = None) -> Path:
    """Write the HTML report for a results folder (or its ``results.json``); returns the HTML path."""
    folder = Path(results_path)
    if not folder.is_dir():
        folder = folder.parent
    results = load_results(folder)
    episodes_path = folder / EPISODES_FILE
    if not episodes_path.exists():
        raise EvaluationError(f"no {EPISODES_FILE} beside {folder / 'results.json'}: the report needs the episodes")
    rows = read_episodes(episodes_path)
    suite, suite_note = _verified_suite(results, folder)
    labelled = [(results, None)]
    charts = "".join(
        [
            _family_chart(results, OBJECTIVE_METRICS, "Objective metrics (%)", 100.0, (0, 100)),
            _family_chart(results, SUBJECTIVE_METRICS, "MentalEval (1-5)", 1.0, (1, 5)),
            _family_chart(results, BREAKDOWN_METRICS, "Coverage by component (%)", 100.0, (0, 100)),
        ]
    )
    episodes = "".join(_episode_html(r, suite[r["case_id"]] if suite is not None and r.get("case_id") in suite else None) for r in rows)
    e = _text
    warnings = [w for w in (results.get("_incomplete"), suite_note) if w]
    failed = results.get("failed") or []
    if failed:
        warnings.append(f"{len(failed)} failed episode(s): " + "; ".join(f"{f.get('case_id')}/seed {f.get('seed')}: {f.get('error')}" for f in failed[:20]))
    banner = "".join(f'<p class="miss"><b>{e(w)}</b></p>' for w in warnings)
    page = (
        f"<!doctype html><html><head><meta charset=utf-8><title>MentalHospital report: {e(results['doctor'])}</title>"
        f"<style>{_STYLE}</style></head><body><h1>MentalHospital report: {e(results['doctor'])}</h1>{banner}"
        f"<p class=small>spec {e(results['spec_hash'])} · suite {e(results['spec'].get('suite'))} · "
        f"{e(results['n_episodes'])} episodes · seeds {e(', '.join(map(str, results['spec'].get('seeds') or [])))} · "
        f"commit {e(results.get('git_commit'))} · "
        f"synthetic cases only</p>{_table_html(leaderboard_table(labelled, with_ci=True))}"
        f"{_table_html(breakdown_table(labelled, with_ci=True))}<div>{charts}</div><h2>Episodes</h2>{episodes}</body></html>"
    )
    out = Path(out_html) if out_html else folder / "report.html"
    out.write_text(page, encoding="utf-8")
    return out
