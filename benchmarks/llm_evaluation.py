"""Concurrent evaluation of a served doctor: 40 episodes at concurrency 1 and at concurrency 16.

A loopback OpenAI-compatible server stands in for vLLM: every request is answered after 200 ms, all
requests concurrently (one thread each), by a fixed clinician script read off the conversation (twenty
questions, the llm doctor's default interview length, then exams, a note, a diagnosis and a plan: 24
turns an episode). The ``llm`` doctor is
evaluated through the ``openai`` SDK client on the first 40 cases of the ``dev`` suite, once one
episode at a time and once 16 at a time, into two folders; the two ``episodes.jsonl`` must hold the
same episodes (apart from ``timing``). Printed: wall time of both, their ratio (target >= 10), the
CPU seconds the process spent (the part concurrency cannot hide: on one process, the ratio cannot
exceed (network + CPU) / max(network / 16 per wave, CPU)), and requests served.

    python benchmarks/llm_evaluation.py [--episodes 40] [--concurrency 16] [--delay 0.2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

QUESTIONS = [
    "What brings you in today?",
    "How has your mood been lately?",
    "How are you sleeping?",
    "How is your appetite?",
    "Have you had any thoughts of harming yourself?",
    "Do you ever hear voices others cannot hear?",
    "How much alcohol do you drink?",
    "Does anyone in your family have a mental illness?",
    "How is your concentration?",
    "Have you felt anxious or on edge?",
    "How long have you felt this way?",
    "Did something happen before it started?",
    "How is your energy during the day?",
    "Do you still enjoy the things you used to?",
    "Have you used any drugs?",
    "Are you taking any medication?",
    "Have you had treatment for your mental health before?",
    "How are things at work or at home?",
    "Who supports you?",
    "Is there anything else you want me to know?",
]
LATER = [
    "<order_exams>PHQ-9; GAD-7; TSH</order_exams>",
    "<write_note>Low mood and poor sleep for several weeks; no suicidal ideation; no psychotic features.</write_note>",
    "<diagnose>categories: depressive, anxiety | disorders: 1. F32.1; 2. F41.1</diagnose>",
    "<treat>Sertraline 50 mg daily, CBT, safety plan, review in two weeks.</treat>",
]


def clinician_reply(messages: list[dict]) -> str:
    """The scripted clinician: the n-th reply of a conversation is the n-th step of the script."""
    n = sum(1 for m in messages if m.get("role") == "assistant")
    if n < len(QUESTIONS):
        return f"<ask>{QUESTIONS[n]}</ask>"
    return LATER[min(n - len(QUESTIONS), len(LATER) - 1)]


class _Backlogged(ThreadingHTTPServer):
    request_queue_size = 128  # socketserver's default of 5 drops connections that 16 clients open at once


class SlowServer:
    """POST /v1/chat/completions on 127.0.0.1, each answer after ``delay`` seconds, all concurrently.

    ``in_process=False`` runs it in its own process, as a real server runs (its threads then take no
    time from the evaluation's interpreter); the counters are shared."""

    def __init__(self, delay: float, in_process: bool = True) -> None:
        if not in_process:
            import multiprocessing

            context = multiprocessing.get_context("fork")
            self._served, self._in_flight, self._max = (context.Value("i", 0) for _ in range(3))
            ready = context.Queue()
            self.process = context.Process(target=_serve_elsewhere, args=(delay, ready, self._served, self._in_flight, self._max), daemon=True)
            self.process.start()
            self.url = ready.get(timeout=60)
            return
        self.process = None
        owner = self
        self.served = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # as real servers do: no 40 ms wait between headers and body

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with owner.lock:
                    owner.in_flight += 1
                    owner.max_in_flight = max(owner.max_in_flight, owner.in_flight)
                time.sleep(delay)
                with owner.lock:
                    owner.in_flight -= 1
                    owner.served += 1
                reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": clinician_reply(request["messages"])}}]}
                body = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = _Backlogged(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.join(10)
            return
        self.httpd.shutdown()
        self.httpd.server_close()

    def counts(self) -> tuple[int, int]:
        """Requests served so far, and the most ever in flight at once."""
        if self.process is not None:
            return self._served.value, self._max.value
        return self.served, self.max_in_flight


def _serve_elsewhere(delay: float, ready: object, served: object, in_flight: object, most: object) -> None:
    server = SlowServer(delay)

    def mirror() -> None:
        while True:
            with server.lock:
                served.value, in_flight.value, most.value = server.served, server.in_flight, server.max_in_flight  # type: ignore[attr-defined]
            time.sleep(0.01)

    threading.Thread(target=mirror, daemon=True).start()
    ready.put(server.url)  # type: ignore[attr-defined]
    threading.Event().wait()


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _without_timing(path: Path) -> list[dict]:
    """The episodes without ``timing`` and without the HTTP attempts of each reply (transport facts,
    like timing: a retried request gives the same reply), which are counted apart."""
    rows = []
    for line in path.read_text("utf-8").splitlines():
        row = json.loads(line)
        row.pop("timing", None)
        row.pop("checksum", None)  # covers the timing too
        for entry in row.get("doctor_log", []):
            entry.pop("attempts", None)
        rows.append(row)
    return rows


def _retried(path: Path) -> int:
    """Replies that took more than one HTTP attempt."""
    return sum(
        1
        for line in path.read_text("utf-8").splitlines()
        for entry in json.loads(line).get("doctor_log", [])
        for attempts in entry.get("attempts", [])
        if len(attempts) > 1
    )


def _differences(a: object, b: object, path: str = "") -> list[str]:
    """Where two episode lists differ (paths), for the report when they should not."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in _differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {str(a)[:120]!r} != {str(b)[:120]!r}"]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--delay", type=float, default=0.2, help="seconds the server takes per request")
    parser.add_argument("--suite", default="dev")
    parser.add_argument("--in-process", action="store_true", help="serve from this process (default: its own process, as vLLM)")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from mentalhospital_env.evaluation import EvaluationSpec, run_evaluation

    server = SlowServer(args.delay, in_process=args.in_process)
    spec = EvaluationSpec(suite=args.suite, limit=args.episodes)
    doctor = f"llm:openai:{server.url}?model=scripted-clinician&api_key_env=MH_NO_KEY"
    work = Path(tempfile.mkdtemp(prefix="mh-llm-bench-"))
    out: dict = {"episodes": args.episodes, "delay_s": args.delay}
    try:
        # build the suite and the client once, outside both timings
        spec.episodes()
        for concurrency in (1, args.concurrency):
            served, cpu0, t0 = server.counts()[0], _cpu(), time.perf_counter()
            run_evaluation(doctor, spec, work / f"c{concurrency}", concurrency=concurrency, progress=False)
            out[f"wall_s_c{concurrency}"] = round(time.perf_counter() - t0, 2)
            out[f"cpu_s_c{concurrency}"] = round(_cpu() - cpu0, 2)
            time.sleep(0.05)
            out[f"requests_c{concurrency}"] = server.counts()[0] - served
        out["max_requests_in_flight"] = server.counts()[1]
        out["ratio"] = round(out["wall_s_c1"] / out[f"wall_s_c{args.concurrency}"], 2)
        serial = _without_timing(work / "c1" / "episodes.jsonl")
        concurrent = _without_timing(work / f"c{args.concurrency}" / "episodes.jsonl")
        out["same_episodes"] = serial == concurrent
        out["retried_replies"] = {c: _retried(work / f"c{c}" / "episodes.jsonl") for c in (1, args.concurrency)}
        if serial != concurrent:
            out["differences"] = _differences(serial, concurrent)[:10]
        network = out["requests_c1"] * args.delay
        out["bound_on_one_process"] = round(
            (network + out["cpu_s_c1"]) / max(network / args.concurrency, out["cpu_s_c1"]), 2
        )
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(out, indent=2))
    print(f"ratio {out['ratio']} (target >= 10); episodes identical apart from timing: {out['same_episodes']}")
    return out


if __name__ == "__main__":
    main()
