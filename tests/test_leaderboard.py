"""Tables, comparisons and summary statistics from results files (no episodes are run here)."""

from __future__ import annotations

import json
import math
import statistics as pystats

from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.evaluation import MAIN_METRICS, write_json_atomic
from mentalhospital_env.leaderboard import breakdown_table, compare_results, comparison_table, leaderboard_table, read_labelled
from mentalhospital_env.statistics import summarize, t_quantile_975


@given(st.lists(st.floats(min_value=-100, max_value=100, allow_nan=False), min_size=2, max_size=80))
@settings(max_examples=100, deadline=None)
def test_summary_matches_the_textbook(values):
    s = summarize(values)
    assert s.n == len(values)
    assert math.isclose(s.mean, pystats.fmean(values), rel_tol=1e-9, abs_tol=1e-9)
    se = pystats.stdev(values) / math.sqrt(len(values))
    assert math.isclose(s.se, se, rel_tol=1e-9, abs_tol=1e-9)
    assert s.ci_low <= s.mean <= s.ci_high
    assert math.isclose(s.ci_high - s.mean, t_quantile_975(len(values) - 1) * se, rel_tol=1e-9, abs_tol=1e-9)


def test_masked_scores_are_left_out_not_counted_as_zero():
    s = summarize([4.0, None, 2.0, float("nan")])
    assert s.n == 2 and s.mean == 3.0


def test_t_quantiles_fall_towards_the_normal():
    qs = [t_quantile_975(df) for df in range(1, 200)]
    assert all(a >= b for a, b in zip(qs, qs[1:]))
    assert qs[-1] == 1.96


def _results(tmp_path, name, rows):
    folder = tmp_path / name
    folder.mkdir()
    metrics = {m: summarize(r[m] for r in rows).to_dict() for m in MAIN_METRICS + ("inter_cc", "inter_ms", "note_cc", "note_ms")}
    write_json_atomic(folder / "results.json", {"doctor": name, "spec_hash": "abc", "metrics": metrics})
    with open(folder / "episodes.jsonl", "w") as f:
        for i, r in enumerate(rows):
            f.write(json.dumps({"case_id": f"c{i}", "seed": 0, "scores": r}) + "\n")
    return folder


def _rows(offset, n=30):
    out = []
    for i in range(n):
        x = ((i * 37) % 11) / 20
        out.append({**{m: min(1.0, x + offset) for m in ("inter", "exam", "note", "cate", "diso", "inter_cc", "inter_ms", "note_cc", "note_ms")},
                    **{m: 1 + 4 * min(1.0, x + offset) for m in ("emp", "prof", "qual", "rigor", "app")}})
    return out


def test_tables_render_in_every_format(tmp_path):
    a = _results(tmp_path, "scripted", _rows(0.3))
    b = _results(tmp_path, "random", _rows(0.0))
    labelled = read_labelled([str(a), f"{b}=baseline"])
    text = leaderboard_table(labelled).render("text")
    assert "scripted" in text and "baseline" in text and "Inter." in text and "App." in text
    assert "Note err." in text and "Note prec." in text  # beyond the study; n/a where a run has none
    md = leaderboard_table(labelled).render("markdown")
    assert md.count("\n| ") == 3  # header and two rows
    csv_text = breakdown_table(labelled).render("csv")
    assert csv_text.splitlines()[0] == "Doctor,Inter.,Inter. CC,Inter. MS,Note,Note CC,Note MS"
    assert len(csv_text.splitlines()) == 3


def test_paired_comparison_flags_real_differences_only(tmp_path):
    a = _results(tmp_path, "a", _rows(0.0))
    b = _results(tmp_path, "b", _rows(0.2))
    c = _results(tmp_path, "c", _rows(0.0))
    diffs = {d.metric: d for d in compare_results(str(a), str(b))}
    assert all(d.paired for d in diffs.values())
    assert diffs["inter"].beyond_interval and diffs["inter"].diff > 0
    same = compare_results(str(a), str(c))
    assert not any(d.beyond_interval for d in same)
    assert "beyond CI" in comparison_table(str(a), str(b)).render("text")
