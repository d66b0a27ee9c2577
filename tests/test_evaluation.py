"""The evaluation harness: deterministic, resumable, parallel, and its result files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mentalhospital_env.evaluation import (
    LEADERBOARD_SPEC,
    MAIN_METRICS,
    EvaluationError,
    EvaluationSpec,
    library_fingerprint,
    read_episodes,
    run_evaluation,
)

SPEC = EvaluationSpec(suite="dev", limit=6, seeds=(0, 1), turn_budget=30)


def _without_timing(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        row.pop("timing")
        out.append(json.dumps(row, sort_keys=True))
    return out


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    results = run_evaluation("scripted", SPEC, out, workers=1, progress=False)
    return out, results


def test_results_file_has_what_a_paper_needs(reference_run):
    out, results = reference_run
    assert results["n_episodes"] == 12 and results["complete"]
    assert results["spec_hash"] == SPEC.spec_hash and len(results["spec_hash"]) == 16
    assert results["spec"]["suite"] == "dev" and results["doctor"] == "scripted"
    assert results["suite_info"] == {"name": "dev", "cases": 240, "version": "generator v1", "label": "dev (generator v1, 240 cases)"}
    assert results["versions"]["python"] and "gymnasium" in results["versions"]
    for metric in MAIN_METRICS:
        summary = results["metrics"][metric]
        assert summary["n"] == 12
        assert summary["mean"] is not None and summary["ci95"][0] <= summary["mean"] <= summary["ci95"][1]
    assert results["by_category"] and sum(v["n"] for v in results["by_category"].values()) == 12
    on_disk = json.loads((out / "results.json").read_text())
    assert on_disk["metrics"] == results["metrics"]
    # beyond the study: note precision, its own metric, from each episode's details
    assert results["metrics"]["note_errors"]["n"] == 12 and results["metrics"]["note_precision"]["n"] >= 1
    episode = json.loads((out / "episodes.jsonl").read_text().splitlines()[0])
    assert episode["scores"]["note_errors"] == episode["scores"]["details"]["note_precision"]["errors"]


def test_same_spec_gives_identical_episodes_apart_from_timing(reference_run, tmp_path):
    out, _ = reference_run
    run_evaluation("scripted", SPEC, tmp_path, workers=1, progress=False)
    assert _without_timing(tmp_path / "episodes.jsonl") == _without_timing(out / "episodes.jsonl")


@pytest.mark.slow
def test_two_workers_give_the_same_file_as_one(reference_run, tmp_path):
    out, _ = reference_run
    run_evaluation("scripted", SPEC, tmp_path, workers=2, progress=False)
    assert _without_timing(tmp_path / "episodes.jsonl") == _without_timing(out / "episodes.jsonl")


def test_a_torn_last_line_is_cut_and_replayed(reference_run, tmp_path):
    out, _ = reference_run
    lines = (out / "episodes.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "episodes.jsonl").write_text("".join(lines[:5]) + lines[5][: len(lines[5]) // 2])
    run_evaluation("scripted", SPEC, tmp_path, workers=1, progress=False)
    assert _without_timing(tmp_path / "episodes.jsonl") == _without_timing(out / "episodes.jsonl")


def test_a_folder_of_another_run_is_refused(reference_run, tmp_path):
    out, _ = reference_run
    (tmp_path / "episodes.jsonl").write_text((out / "episodes.jsonl").read_text())
    with pytest.raises(EvaluationError, match="use another --out folder"):
        run_evaluation("random", SPEC, tmp_path, workers=1, progress=False)


def test_a_folder_scored_by_another_version_of_the_library_is_refused_and_left_intact(reference_run, tmp_path):
    out, results = reference_run
    assert results["library"] == library_fingerprint()
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert {row["library"] for row in rows} == {library_fingerprint()}
    for row in rows[:5]:
        row["library"] = "0123456789abcdef"  # written by another lexicon / scorer version
    older = "".join(json.dumps(row) + "\n" for row in rows[:5])
    (tmp_path / "episodes.jsonl").write_text(older)
    with pytest.raises(EvaluationError, match="another version of the lexicon, the scorers or the doctors"):
        run_evaluation("scripted", SPEC, tmp_path, workers=1, progress=False)
    assert (tmp_path / "episodes.jsonl").read_text() == older


def test_library_fingerprint_follows_every_data_file_but_not_the_suites(tmp_path, monkeypatch):
    from mentalhospital_env import evaluation

    package = tmp_path / "fingerprinted_clinic"
    (package / "data").mkdir(parents=True)
    (package / "suites").mkdir()
    (package / "__init__.py").write_text("")
    (package / "data" / "lexicon.json").write_text('{"terms": ["low mood"]}')
    (package / "suites" / "dev.jsonl").write_text("{}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(evaluation, "_DATA_PACKAGES", ("fingerprinted_clinic",))

    def fingerprint() -> str:
        evaluation.library_fingerprint.cache_clear()
        return evaluation.library_fingerprint()

    try:
        first = fingerprint()
        assert fingerprint() == first
        (package / "suites" / "dev.jsonl").write_text('{"case_id": "x"}\n')
        assert fingerprint() == first  # cases are covered by the spec hash, not here
        (package / "data" / "lexicon.json").write_text('{"terms": ["low mood", "fed up"]}')
        changed = fingerprint()
        assert changed != first
        (package / "data" / "extra.jsonl").write_text("{}\n")
        assert fingerprint() not in (first, changed)
    finally:
        evaluation.library_fingerprint.cache_clear()  # the real packages' fingerprint is computed afresh


@pytest.mark.slow
def test_killed_mid_run_then_resumed_equals_an_uninterrupted_run(reference_run, tmp_path):
    """SIGKILL the command while it writes, resume it: no episode lost, none repeated."""
    out, _ = reference_run
    cmd = [sys.executable, "-m", "mentalhospital_env.cli", "evaluate", "--doctor", "scripted", "--suite", "dev",
           "--limit", "6", "--seeds", "0,1", "--turn-budget", "30", "--out", str(tmp_path), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    episodes = tmp_path / "episodes.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline:
        if episodes.exists() and 2 <= len(episodes.read_bytes().splitlines()) < 12:
            break
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    written = len(read_episodes(episodes)) if episodes.exists() else 0
    assert written < 12, "the run finished before it could be killed; make the spec larger"
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert _without_timing(episodes) == _without_timing(out / "episodes.jsonl")


def test_leaderboard_spec_is_fixed():
    # issue 14: the leaderboard moved from 'test' (generator v1) to 'test-v2' (v2, zero audit findings)
    assert LEADERBOARD_SPEC.suite == "test-v2" and LEADERBOARD_SPEC.seeds == (0,)
    assert EvaluationSpec(suite="test").spec_hash != LEADERBOARD_SPEC.spec_hash
    assert LEADERBOARD_SPEC.patient_backend == "offline" and LEADERBOARD_SPEC.judge == "offline"
    assert EvaluationSpec().spec_hash == LEADERBOARD_SPEC.spec_hash


def test_scripted_clinician_beats_random_on_every_column(reference_run, tmp_path):
    _, scripted = reference_run
    random_results = run_evaluation("random", SPEC, tmp_path, workers=1, progress=False)
    for metric in MAIN_METRICS:
        assert scripted["metrics"][metric]["mean"] > random_results["metrics"][metric]["mean"], metric


def test_report_is_self_contained_with_charts_and_every_episode(reference_run, tmp_path):
    from mentalhospital_env.report import write_report

    out, results = reference_run
    page = write_report(out, tmp_path / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 3
    assert "Inter." in page and "App." in page and "Missed checkpoints" in page
    for row in read_episodes(out / "episodes.jsonl"):
        assert f"{row['case_id']} / seed {row['seed']}" in page
    assert "<script" not in page and "http" not in page.split("<body>")[1].split("Episodes")[0]


def test_cli_table_compare_and_report(reference_run, tmp_path, capsys):
    from mentalhospital_env.cli import main

    out, _ = reference_run
    assert main(["table", str(out), f"{out}=again", "--format", "csv", "--out", str(tmp_path / "t.csv")]) == 0
    lines = (tmp_path / "t.csv").read_text().splitlines()
    assert lines[0].startswith("Doctor,Inter.,Exam.,Note,Cate.,Diso.,Emp.,Prof.,Qual.,Rigor,App.")
    assert lines[1].startswith("scripted,") and lines[2].startswith("again,")
    assert main(["compare", str(out), str(out)]) == 0
    assert "paired per episode" in capsys.readouterr().out
    assert main(["report", str(out), "--out", str(tmp_path / "r.html")]) == 0
    assert main(["table", str(tmp_path / "missing")]) == 1


def test_the_matcher_is_chosen_on_the_command_line_and_a_bad_one_is_refused_before_the_run(tmp_path, capsys):
    from mentalhospital_env.cli import main

    out = tmp_path / "bad"
    assert main(["evaluate", "--doctor", "random", "--suite", "handwritten", "--limit", "1",
                 "--out", str(out), "--matcher", "word2vec", "--quiet"]) == 1  # fmt: skip
    assert "EvaluationSpec.matcher" in capsys.readouterr().err and not out.exists()
    spec = EvaluationSpec(suite="handwritten", matcher="sentence-transformers:/models/mine")
    assert EvaluationSpec.from_dict(spec.to_dict()) == spec
    assert spec.spec_hash != EvaluationSpec(suite="handwritten").spec_hash
