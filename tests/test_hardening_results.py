"""Results folders that cannot lie, failures that are reported (issue 17, items 1-4, 12-14)."""

from __future__ import annotations

import html
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mentalhospital_env.evaluation import (
    EpisodeError,
    EvaluationError,
    EvaluationSpec,
    load_results,
    read_episodes,
    run_evaluation,
    write_json_atomic,
)
from mentalhospital_env.results import episode_line, file_digest, folder_lock, read_log

SPEC = EvaluationSpec(suite="handwritten", limit=3, turn_budget=8)
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _plain(path: Path) -> list[dict]:
    out = []
    for line in path.read_text("utf-8").splitlines():
        row = json.loads(line)
        row.pop("timing"), row.pop("checksum")
        out.append(row)
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    results = run_evaluation("random", SPEC, out, progress=False)
    return out, results


def _copy(reference, tmp_path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(reference[0], out)
    return out


# ------------------------------------------------------------------- 1: one writer, complete results


def test_a_second_evaluation_into_a_locked_folder_is_refused(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    with folder_lock(tmp_path):
        with pytest.raises(EvaluationError, match="in use by another evaluation"):
            run_evaluation("random", SPEC, tmp_path, progress=False)
    assert not (tmp_path / "episodes.jsonl").exists()
    run_evaluation("random", SPEC, tmp_path, progress=False)  # the lock went with its holder


def test_two_concurrent_evaluations_into_one_folder_one_wins(tmp_path, reference):
    cmd = [sys.executable, "-m", "mentalhospital_env.cli", "evaluate", "--doctor", "random", "--suite", "handwritten",
           "--limit", "3", "--turn-budget", "8", "--out", str(tmp_path), "--quiet"]  # fmt: skip
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outcomes = [(p.wait(120), p.stderr.read()) for p in procs]
    codes = sorted(code for code, _ in outcomes)
    # either one is refused while the other runs, or (when the first is done before the second starts)
    # the second resumes a finished run; never a doubled file
    if codes == [0, 1]:
        assert any("in use by another evaluation" in err for code, err in outcomes if code == 1)
    else:
        assert codes == [0, 0]
    results = load_results(tmp_path, allow_incomplete=False)
    assert results["n_episodes"] == 3 and results["complete"]
    assert _plain(tmp_path / "episodes.jsonl") == _plain(reference[0] / "episodes.jsonl")


def test_a_doubled_episodes_file_is_refused_by_readers_and_repaired_by_resume(reference, tmp_path):
    out = _copy(reference, tmp_path)
    lines = (out / "episodes.jsonl").read_text().splitlines(keepends=True)
    (out / "episodes.jsonl").write_text("".join(lines + lines))  # two runs appended into one file
    with pytest.raises(EvaluationError, match=r"appears twice \(lines 1 and 4\)"):
        read_episodes(out / "episodes.jsonl")
    from mentalhospital_env.cli import main

    assert main(["table", str(out)]) == 1 and main(["compare", str(out), str(reference[0])]) == 1
    assert main(["report", str(out), "--out", str(tmp_path / "r.html")]) == 1
    results = run_evaluation("random", SPEC, out, progress=False)
    assert results["n_episodes"] == 3 and results["complete"]
    assert len((out / "episodes.rejected.jsonl").read_text().splitlines()) == 3
    assert _plain(out / "episodes.jsonl") == _plain(reference[0] / "episodes.jsonl")


def test_incomplete_results_are_flagged_or_refused(reference, tmp_path, capsys):
    out = _copy(reference, tmp_path)
    lines = (out / "episodes.jsonl").read_text().splitlines(keepends=True)
    (out / "episodes.jsonl").write_text("".join(lines[:2]))
    from mentalhospital_env.evaluation import summarize_episodes

    write_json_atomic(out / "results.json", summarize_episodes(out / "episodes.jsonl", SPEC, "random"))
    results = load_results(out)
    assert results["_incomplete"] == "incomplete: 2 of 3 episodes"
    with pytest.raises(EvaluationError, match="incomplete"):
        load_results(out, allow_incomplete=False)
    from mentalhospital_env.cli import main

    assert main(["table", str(out)]) == 0
    captured = capsys.readouterr()
    assert "random [incomplete: 2 of 3 episodes]" in captured.out and "incomplete" in captured.err
    assert main(["compare", str(out), str(reference[0])]) == 0
    assert "NOT COMPARABLE AS IS" in capsys.readouterr().out


def test_results_that_do_not_match_their_episodes_are_refused(reference, tmp_path):
    out = _copy(reference, tmp_path)
    results = json.loads((out / "results.json").read_text())
    results["metrics"]["inter"]["mean"] = 0.99  # a doctored summary: the episodes no longer add up to it...
    results["n_episodes"] = 6
    write_json_atomic(out / "results.json", results)
    with pytest.raises(EvaluationError, match="says 6 episodes"):
        load_results(out)
    rows = (out / "episodes.jsonl").read_text().splitlines(keepends=True)
    (out / "episodes.jsonl").write_text("".join(rows[:2]))  # ...and a dropped line changes the digest
    with pytest.raises(EvaluationError, match="not the file"):
        load_results(out)


# --------------------------------------------------------------- 2: the suite is read once, verified


def _suite_file(tmp_path: Path) -> Path:
    from mentalhospital_env.cases import bundled_suite_path

    lines = bundled_suite_path("handwritten").read_text("utf-8").splitlines()[:3]
    path = tmp_path / "cases" / "mine.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _edit_references(path: Path) -> None:
    rows = [json.loads(x) for x in path.read_text("utf-8").splitlines()]
    for row in rows:  # another principal diagnosis for every case
        row["diagnosis"] = {"categories": ["sleep_wake"], "disorders": [{"name": "Insomnia", "code": "F51.01"}]}
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


@pytest.mark.slow
def test_workers_score_against_the_suite_the_hash_was_taken_from(tmp_path):
    path = _suite_file(tmp_path)
    spec = EvaluationSpec(suite=str(path), turn_budget=8)
    before = spec.spec_hash  # the suite is loaded (and hashed) here
    original = {c.case_id: list(c.diagnosis.categories) for c in spec.load_suite()}
    _edit_references(path)  # edited after the hash was taken, before the workers start
    results = run_evaluation("random", spec, tmp_path / "out", workers=2, progress=False)
    assert results["spec_hash"] == before
    rows = read_episodes(tmp_path / "out" / "episodes.jsonl")
    assert {r["spec_hash"] for r in rows} == {before}
    assert {r["case_id"]: r["categories"] for r in rows} == original


def test_report_from_another_folder_finds_and_verifies_the_suite(tmp_path, monkeypatch):
    path = _suite_file(tmp_path)
    monkeypatch.chdir(path.parent.parent)
    spec = EvaluationSpec(suite="cases/mine.jsonl", turn_budget=8)
    run_evaluation("random", spec, tmp_path / "out", progress=False)
    from mentalhospital_env.evaluation import _SUITES
    from mentalhospital_env.report import write_report

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the relative suite path no longer resolves from here
    page = write_report(tmp_path / "out", elsewhere / "r.html").read_text()
    assert "not at hand" not in page and "Missed checkpoints" in page
    _edit_references(path)
    _SUITES.clear()
    page = write_report(tmp_path / "out", elsewhere / "r2.html").read_text()
    assert "changed since the evaluation" in page and "F51.01" not in page


# ------------------------------------------------------------------- 3: tamper-evident episode lines

DAMAGE = {
    "null": b"null",
    "list": b"[1, 2, 3]",
    "string": b'"an episode"',
    "bad utf-8": b'{"case_id": "\xff\xfe"}',
    "deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "garbage": b"}{ not json at all",
    "edited score": None,  # filled in from the real line
}


@PROPERTY
@given(st.sampled_from(sorted(DAMAGE)), st.integers(0, 2))
def test_a_damaged_line_is_named_and_every_good_line_kept(reference, tmp_path, kind, index):
    path = tmp_path / f"episodes-{kind}-{index}.jsonl"
    lines = (reference[0] / "episodes.jsonl").read_bytes().split(b"\n")[:-1]
    bad = DAMAGE[kind]
    if bad is None:
        bad = lines[index].replace(b'"inter": ', b'"inter": 0.9', 1)  # 0.9 glued before the digits
    damaged = lines[:index] + [bad] + lines[index + 1 :]
    path.write_bytes(b"\n".join(damaged) + b"\n")
    log = read_log(path)
    assert [b.lineno for b in log.bad] == [index + 1]
    assert [n for n, _ in log.rows] == [n + 1 for n in range(3) if n != index]
    with pytest.raises(EvaluationError, match=f"line {index + 1}: "):
        read_episodes(path)


def test_resume_sets_a_bad_line_aside_and_keeps_the_episodes_after_it(reference, tmp_path, capsys):
    out = _copy(reference, tmp_path)
    lines = (out / "episodes.jsonl").read_bytes().split(b"\n")[:-1]
    lines[1] = b"garbage in the middle"
    (out / "episodes.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    results = run_evaluation("random", SPEC, out, progress=False)
    err = capsys.readouterr().err
    assert "line 2: not valid JSON" in err and "kept 2" in err and "move the file away" not in err
    assert results["complete"] and (out / "episodes.rejected.jsonl").read_bytes() == b"garbage in the middle\n"
    assert sorted(map(json.dumps, _plain(out / "episodes.jsonl"))) == sorted(map(json.dumps, _plain(reference[0] / "episodes.jsonl")))


def test_48_edited_scores_are_caught(reference, tmp_path):
    out = _copy(reference, tmp_path)
    rows = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]
    for row in rows:
        for metric in ("inter", "exam", "note", "cate", "diso", "emp", "prof", "qual", "rigor", "app", "inter_cc", "note_cc", "inter_ms", "note_ms", "inter", "note"):
            row["scores"][metric] = 1.0  # 3 episodes x 16 edits
    (out / "episodes.jsonl").write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    with pytest.raises(EvaluationError, match="3 bad line.*checksum mismatch"):
        load_results(out)


# ------------------------------------------------------------------------- 4: escaped HTML report


@PROPERTY
@given(st.sampled_from(["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</title><script>x</script>"]))
def test_everything_from_a_results_folder_is_escaped_in_the_report(reference, tmp_path, payload):
    from mentalhospital_env.report import write_report

    out = tmp_path / f"r{abs(hash(payload))}"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(reference[0], out)
    rows = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]
    for row in rows:
        row.pop("checksum")
        row["seed"] = payload
        row["principal_category"] = payload
        row["scores"]["inter"] = payload
        row["record"]["chart"]["note"] = payload
        row["record"]["chart"]["exams"] = [payload]
    (out / "episodes.jsonl").write_text("".join(episode_line(r) + "\n" for r in rows))
    results = json.loads((out / "results.json").read_text())
    results["doctor"] = payload
    results["spec"]["seeds"] = [payload]
    results["spec_hash"] = payload
    results["git_commit"] = payload
    results["episodes_sha256"] = file_digest(out / "episodes.jsonl")
    write_json_atomic(out / "results.json", results)
    page = write_report(out, out / "report.html").read_text()
    assert "<script" not in page and page.count("<img") == 3 and "<img src=x" not in page  # the three charts only
    assert html.escape(payload) in page


def test_a_non_numeric_episode_count_is_refused_not_rendered(reference, tmp_path):
    out = _copy(reference, tmp_path)
    results = json.loads((out / "results.json").read_text())
    results["n_episodes"] = "<script>alert(1)</script>"
    write_json_atomic(out / "results.json", results)
    with pytest.raises(EvaluationError, match="'n_episodes' must be a count"):
        load_results(out)


# ---------------------------------------------------------------------- 12: failures reported


def _library_exceptions() -> list[type]:
    """Every public exception class the library defines (modules found by their source, so the heavy
    optional imports of modules without exceptions, such as the trainers, are not paid here)."""
    import importlib
    import re

    root = Path(__file__).resolve().parent.parent
    declares = re.compile(r"^class \w+\([^)]*(Error|Exception|Ambiguity|NotFound|Knowledge)\b", re.M)
    found: dict[str, type] = {}
    for package in ("mentalhospital_env", "rewards", "agents"):
        for path in sorted((root / package).rglob("*.py")):
            if not declares.search(path.read_text("utf-8")):
                continue
            parts = path.relative_to(root).with_suffix("").parts
            if parts[0] != "mentalhospital_env":  # agents/ and rewards/ install under mentalhospital_env
                parts = ("mentalhospital_env", *parts)
            name = ".".join(p for p in parts if p != "__init__")
            module = importlib.import_module(name)
            for attr, value in vars(module).items():
                if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == module.__name__ and not attr.startswith("_"):
                    found[f"{value.__module__}.{attr}"] = value
    return [found[k] for k in sorted(found)]


def _sample(cls: type) -> BaseException:
    """An instance of ``cls``: from a table for the few that take typed arguments, else text arguments."""
    import inspect

    from mentalhospital_env.cases import CaseError, SuiteError

    if issubclass(cls, SuiteError):
        return cls("suite.jsonl", [CaseError("c1", "bad", field="x")])
    if issubclass(cls, EpisodeError):
        return cls("c1", 3, "LLMError: down")
    params = [
        p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return cls(*[f"arg{i}" for i in range(len(params))]) if params else cls("a message")


def test_every_library_exception_survives_a_pickle_round_trip():
    classes = _library_exceptions()
    names = {c.__name__ for c in classes}
    assert {"LLMError", "ConversationError", "CaseError", "SuiteError", "KnowledgeError", "EvaluationError", "EpisodeError"} <= names
    for cls in classes:
        original = _sample(cls)
        copy = pickle.loads(pickle.dumps(original))
        assert type(copy) is cls and str(copy) == str(original), cls
        assert {k: repr(v) for k, v in vars(copy).items()} == {k: repr(v) for k, v in vars(original).items()}, cls


FLAKY = '''
import os
from mentalhospital_env.agents.random_doctor import RandomDoctor
from mentalhospital_env.llm.base import LLMError


class Flaky(RandomDoctor):
    """Fails (as a served model would) on every case whose walk-in text hashes even, while FLAG exists."""

    def reset(self, observation, info):
        text = observation.get("text", "") if isinstance(observation, dict) else str(observation)
        if os.path.exists(os.environ["FLAKY_FLAG"]) and sum(map(ord, text)) % 2 == 0:
            raise LLMError("openai(model @ http://127.0.0.1:9/v1)", "conversation 1 of 1", "HTTP 500 after 5 attempts")
        super().reset(observation, info)


def make(argument=None):
    return Flaky(seed=0)
'''


@pytest.fixture
def flaky(tmp_path, monkeypatch):
    package = tmp_path / "flakydocs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "doctors.py").write_text(FLAKY)
    flag = tmp_path / "flag"
    flag.write_text("on")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("FLAKY_FLAG", str(flag))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    return "flakydocs.doctors:make", flag


def _random_doctor_takes_a_seed() -> bool:
    import inspect

    from mentalhospital_env.agents.random_doctor import RandomDoctor

    return "seed" in inspect.signature(RandomDoctor).parameters


def test_on_error_stop_names_the_episode_and_the_cause(flaky, tmp_path):
    assert _random_doctor_takes_a_seed()
    doctor, _ = flaky
    with pytest.raises(EpisodeError, match=r"episode .+/seed 0 failed: LLMError: openai\(model .+HTTP 500 after 5 attempts"):
        run_evaluation(doctor, SPEC, tmp_path / "out", progress=False)


def test_on_error_record_counts_failures_and_a_rerun_retries_them(flaky, tmp_path):
    doctor, flag = flaky
    out = tmp_path / "out"
    results = run_evaluation(doctor, SPEC, out, progress=False, on_error="record")
    assert results["n_failed"] >= 1 and results["n_episodes"] + results["n_failed"] == 3 and not results["complete"]
    assert all("LLMError" in f["error"] for f in results["failed"])
    assert load_results(out)["_incomplete"].endswith(f"{results['n_failed']} failed")
    flag.unlink()  # the server is back
    again = run_evaluation(doctor, SPEC, out, progress=False, on_error="record")
    assert again["n_failed"] == 0 and again["complete"] and again["n_episodes"] == 3


@pytest.mark.slow
def test_with_two_workers_the_real_cause_is_shown(flaky, tmp_path):
    from mentalhospital_env.cli import main

    doctor, _ = flaky
    cmd = [sys.executable, "-m", "mentalhospital_env.cli", "evaluate", "--doctor", doctor, "--suite", "handwritten",
           "--limit", "3", "--turn-budget", "8", "--out", str(tmp_path / "out"), "--quiet", "--workers", "2"]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "LLMError: openai(model" in done.stderr and "BrokenProcessPool" not in done.stderr
    assert "Traceback" not in done.stderr
    done = subprocess.run(cmd + ["--on-error", "record"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "failed and are left out" in done.stderr
    assert main is not None


# ----------------------------------------------------------------- 13: workers end with their parent


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_and_the_resource_tracker_die_with_their_parent(tmp_path, sig):
    cmd = [sys.executable, "-m", "mentalhospital_env.cli", "evaluate", "--doctor", "random", "--suite", "dev",
           "--limit", "40", "--turn-budget", "30", "--out", str(tmp_path), "--quiet", "--workers", "2"]  # fmt: skip
    parent = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    children: set[int] = set()
    while time.time() < deadline and len(children) < 3:  # two workers and the resource tracker
        children = _children(parent.pid)
        time.sleep(0.2)
    assert len(children) >= 3, children
    time.sleep(1.0)  # let the workers finish starting
    os.kill(parent.pid, sig)
    parent.wait()
    deadline = time.time() + 15
    while time.time() < deadline and any(_alive(c) for c in children):
        time.sleep(0.2)
    left = [c for c in children if _alive(c)]
    for c in left:
        os.kill(c, signal.SIGKILL)
    assert not left, f"still alive {15} s after the parent: {left}"


# ----------------------------------------------------------------------- 14: one line, not a traceback


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mentalhospital_env.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def _one_clear_line(done: subprocess.CompletedProcess) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and done.stderr.strip(), done.stderr
    # argparse prints its usage first (wrapped over indented lines when long); the message itself is one line
    message = [line for line in done.stderr.strip().splitlines() if not line.startswith(("usage:", " "))]
    assert len(message) == 1, done.stderr


def test_cli_paths_that_used_to_end_in_a_traceback(tmp_path, reference):
    (tmp_path / "a-file").write_text("x")
    base = ["evaluate", "--doctor", "random", "--suite", "handwritten", "--limit", "1", "--turn-budget", "4", "--quiet"]
    _one_clear_line(_cli([*base, "--out", "a-file"], tmp_path))  # --out naming a file
    _one_clear_line(_cli([*base, "--out", "a-file/below"], tmp_path))
    out = tmp_path / "unwritable"
    out.mkdir()
    (out / "results.json").mkdir()  # results.json cannot be replaced
    _one_clear_line(_cli([*base, "--out", str(out)], tmp_path))
    (tmp_path / "malformed").mkdir()
    (tmp_path / "malformed" / "results.json").write_text('{"doctor": "x", "metrics": {}}')
    _one_clear_line(_cli(["table", "malformed"], tmp_path))
    (tmp_path / "malformed" / "results.json").write_text('[1, 2')
    _one_clear_line(_cli(["table", "malformed"], tmp_path))
    _one_clear_line(_cli(["cases", "generate", "--n", "-3"], tmp_path))
    _one_clear_line(_cli(["cases", "generate", "--n", "2", "--out", "a-file/x.jsonl"], tmp_path))
    _one_clear_line(_cli(["cases", "generate", "--n", "2", "--out", str(tmp_path)], tmp_path))
    _one_clear_line(_cli(["table", str(reference[0]), "--out", "a-file/t.txt"], tmp_path))
    _one_clear_line(_cli(["play", "--suite", "handwritten", "--case", "no-such-case"], tmp_path))


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_cli_read_only_out_is_one_line(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        done = _cli(["evaluate", "--doctor", "random", "--suite", "handwritten", "--limit", "1", "--out", "ro/x", "--quiet"], tmp_path)
        _one_clear_line(done)
    finally:
        ro.chmod(0o755)


def test_play_with_another_case_uses_its_own_default_folder(tmp_path):
    from mentalhospital_env.evaluation import EvaluationSpec

    a = EvaluationSpec(suite="handwritten", seeds=(0,), case_ids=None, limit=1)
    cases = EvaluationSpec(suite="handwritten").load_suite().case_ids
    b = EvaluationSpec(suite="handwritten", seeds=(0,), case_ids=(cases[1],), limit=None)
    assert a.spec_hash != b.spec_hash  # each game its own folder: play-results/<spec hash>
