"""Episodes over Ray (a local cluster): the same episodes.jsonl as the process pool, and a killed run
that resumes without losing or repeating an episode."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("ray")

from mentalhospital_env.evaluation import EvaluationSpec, run_evaluation  # noqa: E402

pytestmark = pytest.mark.slow
SPEC = EvaluationSpec(suite="dev", limit=16, turn_budget=20)  # 16 episodes: enough to kill a run mid-way (stop 59: 40 cost 2 minutes of the suite)
_TIMING = re.compile(r'"timing": \{[^{}]*\}')
_CHECKSUM = re.compile(r'"checksum": "[0-9a-f]+", ')


def _lines(path: Path) -> list[str]:
    """The file's lines with the timing object blanked: the only part allowed to differ (and the line's
    checksum, which covers the timing too)."""
    return [_CHECKSUM.sub("", _TIMING.sub('"timing": {}', line)) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture(scope="module")
def pool_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("pool")
    run_evaluation("scripted", SPEC, out, workers=2, progress=False)
    return out / "episodes.jsonl"


def test_ray_writes_the_same_episodes_as_the_process_pool(pool_run, tmp_path):
    results = run_evaluation("scripted", SPEC, tmp_path, workers=2, ray=True, progress=False)
    assert results["complete"] and results["n_episodes"] == 16
    ray_lines, pool_lines = _lines(tmp_path / "episodes.jsonl"), _lines(pool_run)
    assert len(ray_lines) == 16 and ray_lines == pool_lines


def test_a_killed_ray_run_resumes_losing_and_repeating_nothing(pool_run, tmp_path):
    out = tmp_path / "killed"
    command = [
        sys.executable, "-m", "mentalhospital_env.cli", "evaluate", "--doctor", "scripted", "--suite", "dev",
        "--limit", "16", "--turn-budget", "20", "--out", str(out), "--ray", "--workers", "2", "--quiet",
    ]  # fmt: skip
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    episodes = out / "episodes.jsonl"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and process.poll() is None:
            if episodes.exists() and len(episodes.read_bytes().splitlines()) >= 4:
                break
            time.sleep(0.2)
        assert process.poll() is None, process.stderr.read().decode()[-2000:]
        os.kill(process.pid, signal.SIGKILL)  # the driver dies at once, mid-run
        process.wait(30)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # the local Ray it started (same session)
        except ProcessLookupError:
            pass
    before = episodes.read_bytes()
    written = before.count(b"\n")
    assert 4 <= written < 16
    results = run_evaluation("scripted", SPEC, out, workers=2, ray=True, progress=False)
    assert results["complete"] and results["n_episodes"] == 16
    after = episodes.read_bytes()
    assert after.startswith(before[: before.rfind(b"\n") + 1])  # what was written stays as it was
    assert _lines(episodes) == _lines(pool_run)  # nothing lost, nothing twice, same order
