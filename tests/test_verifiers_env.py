"""The verifiers environment (``mentalhospital_verifiers``): ``vf-eval`` plays 5 cases against a scripted
model served on loopback (OpenAI-compatible, streaming as verifiers asks), and the rubric is the
library's named reward components with their weights."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("verifiers.v1")

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
SCRIPT = [
    "<ask>What brings you in today?</ask>",
    "<ask>How are you sleeping?</ask>",
    "<order_exams>PHQ-9; TSH</order_exams>",
    "<write_note>Low mood and poor sleep; no suicidal ideation.</write_note>",
    "<diagnose>categories: depressive | disorders: 1. F32.1</diagnose>",
    "<treat>Sertraline 50 mg daily, CBT, review in two weeks.</treat>",
]


class StreamingClinician:
    """Chat completions on 127.0.0.1 that reply with the script's n-th action, streamed (SSE) or not."""

    def __init__(self) -> None:
        self.requests = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.requests += 1
                n = sum(1 for m in body["messages"] if m["role"] == "assistant")
                reply = SCRIPT[min(n, len(SCRIPT) - 1)]
                if not body.get("stream"):
                    data = json.dumps({"id": "c", "object": "chat.completion", "model": body["model"], "created": 0,
                                       "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
                                       "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                base = {"id": "c", "object": "chat.completion.chunk", "model": body["model"], "created": 0}
                chunks = [
                    {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": reply}, "finish_reason": None}]},
                    {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                    {**base, "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}},
                ]
                for chunk in chunks:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _return_of_script(case_id: str) -> float:
    import gymnasium

    import mentalhospital_env  # noqa: F401

    env = gymnasium.make("MentalHospital-v0", suite="dev", turn_budget=40)
    env.reset(seed=0, options={"case_id": case_id})
    total = 0.0
    for action in SCRIPT:
        _obs, reward, terminated, truncated, _info = env.step(action)
        total += reward
        if terminated or truncated:
            break
    return total


def test_load_environment_builds_a_taskset_of_cases():
    from mentalhospital_verifiers import ClinicEnv, load_environment

    env = load_environment(suite="dev", limit=5)
    assert isinstance(env, ClinicEnv)
    tasks = list(env.taskset.load())
    assert [t.data.name for t in tasks] == ["dev-0001", "dev-0002", "dev-0003", "dev-0004", "dev-0005"]
    assert tasks[0].data.prompt.startswith(("Outpatient", "Inpatient", "Emergency")) and "<ask>" in tasks[0].data.system_prompt


def test_vf_eval_plays_five_cases_with_the_component_rubric(tmp_path):
    vf_eval = shutil.which("vf-eval", path=str(Path(sys.executable).parent))
    if vf_eval is None:
        pytest.skip("vf-eval is not installed beside this Python")
    server = StreamingClinician()
    try:
        env = dict(os.environ, MH_TEST_KEY="local", PYTHONPATH=str(ROOT))
        done = subprocess.run(
            [vf_eval, "mentalhospital-verifiers", "-m", "clinician", "--client.base-url", server.url,
             "--client.api-key-var", "MH_TEST_KEY", "-n", "5", "--no-push", "-o", str(tmp_path)],
            capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path, check=False,
        )  # fmt: skip
    finally:
        server.close()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (traces,) = tmp_path.glob("*/traces.jsonl")
    episodes = [json.loads(line) for line in traces.read_text().splitlines()]
    assert len(episodes) == 5
    from mentalhospital_env.rewards.shaping import COMPONENTS, RewardConfig

    # two questions credit some interview checkpoints over the five cases (not necessarily in each: a lay
    # chief complaint the matcher misses, as in dev-0002, earns nothing, exactly as in the Gymnasium env)
    interview_credit = 0.0
    for episode in episodes:
        assert not episode["errors"], episode["errors"]
        (trace,) = episode["traces"]
        rewards = trace["rewards"]
        assert set(rewards) == set(COMPONENTS)
        assert {name: r["weight"] for name, r in rewards.items()} == {c: RewardConfig().weight(c) for c in COMPONENTS}
        assert rewards["turn"]["score"] == -len(SCRIPT) and rewards["invalid_action"]["score"] == 0
        assert rewards["interview"]["score"] >= 0 and 0 <= trace["metrics"]["cate"] <= 1
        interview_credit += rewards["interview"]["score"]
        assert trace["metrics"]["turns"] == len(SCRIPT)
        # the rubric's weighted sum is the environment's return for the same actions
        case_id = trace["info"]["case_id"]
        weighted = sum(r["score"] * r["weight"] for r in rewards.values())
        assert weighted == pytest.approx(_return_of_script(case_id), abs=1e-9), case_id
    assert interview_credit > 0
    assert server.requests >= 5 * len(SCRIPT)
