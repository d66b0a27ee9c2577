"""Concurrent evaluation of a served doctor, against a real OpenAI-compatible server on loopback.

The server plays a fixed clinician script read off the conversation, so the episodes are the same
however many run at once; it can fail the first request of each conversation to show the retries
kept in the episode record.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mentalhospital_env.cli import main as cli_main
from mentalhospital_env.evaluation import EvaluationError, EvaluationSpec, read_episodes, run_evaluation

SCRIPT = [
    "<ask>What brings you in today?</ask>",
    "I am not sure what to ask.",  # refused by the doctor's parser: re-asked
    "<ask>How are you sleeping?</ask>",
    "<order_exams>PHQ-9; TSH</order_exams>",
    "<write_note>Low mood and poor sleep; no suicidal ideation.</write_note>",
    "<diagnose>categories: depressive | disorders: 1. F32.1</diagnose>",
    "<treat>Sertraline 50 mg daily, review in two weeks.</treat>",
]


class ClinicianServer:
    def __init__(self, delay: float = 0.05, fail_first: bool = False) -> None:
        owner = self
        self.bodies: list[dict] = []
        self.in_flight = self.max_in_flight = 0
        self.lock = threading.Lock()
        self.seen: set[str] = set()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                key = json.dumps(body["messages"])
                with owner.lock:
                    owner.bodies.append(body)
                    first = key not in owner.seen
                    owner.seen.add(key)
                    owner.in_flight += 1
                    owner.max_in_flight = max(owner.max_in_flight, owner.in_flight)
                time.sleep(delay)
                with owner.lock:
                    owner.in_flight -= 1
                if fail_first and first:
                    return self._send(503, {"error": {"message": "busy"}})
                n = sum(1 for m in body["messages"] if m["role"] == "assistant")
                self._send(200, {"choices": [{"message": {"role": "assistant", "content": SCRIPT[min(n, len(SCRIPT) - 1)]}}]})

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def server():
    s = ClinicianServer()
    yield s
    s.close()


SPEC = EvaluationSpec(suite="dev", limit=6, turn_budget=12)


def _doctor(url: str, extra: str = "") -> str:
    return f"llm:openai:{url}?model=clinician&api_key_env=MH_NO_KEY&backoff_s=0.01{extra}"


def _without_timing(path) -> list[dict]:
    rows = read_episodes(path)
    for row in rows:
        row.pop("timing")
    return rows


def test_concurrent_episodes_equal_serial_ones_and_keep_requests_in_flight(server, tmp_path):
    serial = run_evaluation(_doctor(server.url), SPEC, tmp_path / "c1", progress=False)
    assert server.max_in_flight == 1
    concurrent = run_evaluation(_doctor(server.url), SPEC, tmp_path / "c3", concurrency=3, progress=False)
    assert server.max_in_flight == 3
    assert _without_timing(tmp_path / "c1" / "episodes.jsonl") == _without_timing(tmp_path / "c3" / "episodes.jsonl")
    assert serial["metrics"] == concurrent["metrics"] and serial["complete"] and concurrent["complete"]
    row = read_episodes(tmp_path / "c3" / "episodes.jsonl")[0]
    log = row["doctor_log"]
    assert log[1]["replies"] == [SCRIPT[1], SCRIPT[2]] and log[1]["problems"][0] and log[1]["problems"][1] is None
    assert all(entry["attempts"] == [["HTTP 200"]] * len(entry["replies"]) for entry in log)
    assert len(log) == len(row["record"]["steps"])


def test_retries_are_kept_in_the_episode_record(tmp_path):
    flaky = ClinicianServer(delay=0.0, fail_first=True)
    try:
        run_evaluation(_doctor(flaky.url), EvaluationSpec(suite="dev", limit=2, turn_budget=12), tmp_path, concurrency=2, progress=False)
    finally:
        flaky.close()
    for row in read_episodes(tmp_path / "episodes.jsonl"):
        assert {tuple(a) for entry in row["doctor_log"] for a in entry["attempts"]} == {("HTTP 503", "HTTP 200")}


def test_identity_is_model_and_settings_never_the_url(server, tmp_path):
    spec = EvaluationSpec(suite="dev", limit=2, turn_budget=12)
    first = run_evaluation(_doctor(server.url, "&temperature=0.5&max_new_tokens=64"), spec, tmp_path, progress=False)
    assert first["doctor"] == (
        "llm:openai:clinician?max_interview_turns=20&max_new_tokens=64&reply_retries=2&seed=0&temperature=0.5&top_p=1.0"
    )
    assert server.url not in json.dumps(first) and server.url not in (tmp_path / "episodes.jsonl").read_text()
    assert server.bodies[-1]["temperature"] == 0.5 and server.bodies[-1]["max_tokens"] == 64
    # the same model on another port, transport options changed: the same doctor, the run is complete
    other = ClinicianServer()
    try:
        again = run_evaluation(_doctor(other.url, "&max_new_tokens=64&temperature=0.5&timeout_s=30"), spec, tmp_path, progress=False)
        assert again["n_episodes"] == 2 and other.bodies == []
        # other settings are another doctor: refused, not mixed
        with pytest.raises(EvaluationError, match="temperature=0.7"):
            run_evaluation(_doctor(other.url, "&max_new_tokens=64&temperature=0.7"), spec, tmp_path, progress=False)
    finally:
        other.close()


def test_command_line_settings_and_concurrency(server, tmp_path, capsys):
    out = tmp_path / "cli"
    status = cli_main(
        [
            "evaluate", "--doctor", _doctor(server.url), "--suite", "dev", "--limit", "3", "--turn-budget", "12",
            "--out", str(out), "--concurrency", "3", "--temperature", "0.25", "--max-new-tokens", "99",
            "--max-interview-turns", "1", "--reply-retries", "0", "--generation-seed", "7", "--quiet",
        ]
    )
    assert status == 0
    results = json.loads((out / "results.json").read_text())
    assert results["doctor"] == "llm:openai:clinician?max_interview_turns=1&max_new_tokens=99&reply_retries=0&seed=7&temperature=0.25&top_p=1.0"
    body = server.bodies[-1]
    assert (body["temperature"], body["max_tokens"], body["seed"]) == (0.25, 99, 7)
    assert cli_main(["evaluate", "--doctor", "scripted", "--out", str(tmp_path / "x"), "--temperature", "1"]) == 1
    assert "apply to the llm doctor only" in capsys.readouterr().err


def test_the_example_server_batches_concurrent_requests_and_counts_callers_that_hung_up(capfd):
    import sys
    from pathlib import Path

    from mentalhospital_env.llm import LLMClient, LLMError
    from mentalhospital_env.llm.openai_compatible import OpenAICompatibleClient

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
    from serve_openai_compatible import serve

    class BatchedModel(LLMClient):
        """Like a local model: one call per batch takes 0.3 s whatever the batch size."""

        name = "batched"

        def generate(self, conversations, settings=None):
            time.sleep(0.3)
            return ["reply to " + c[-1]["content"] for c in conversations]

    url, server = serve(BatchedModel(), batch_window_s=0.05)
    try:
        client = OpenAICompatibleClient(url, "local", api_key_env=None, max_concurrency=8)
        questions = [[{"role": "user", "content": f"q{i}"}] for i in range(8)]
        assert client.generate(questions) == [f"reply to q{i}" for i in range(8)]
        # served together, not one at a time behind a lock: the 8 requests arrive within the first 0.3 s
        # batch, so at most two more batches
        assert server.served == 8 and server.batcher.batches <= 3, server.batcher.batches
        impatient = OpenAICompatibleClient(url, "local", api_key_env=None, timeout_s=0.1, max_retries=0)
        with pytest.raises(LLMError, match="timed out"):
            impatient.generate([[{"role": "user", "content": "late"}]])
        deadline = time.monotonic() + 5
        while server.dropped == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.dropped == 1
    finally:
        server.shutdown()
        server.server_close()
    assert "BrokenPipeError" not in capfd.readouterr().err
