"""OpenAICompatibleClient against a real HTTP server on loopback that misbehaves on purpose."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mentalhospital_env.llm import GenerationSettings, LLMError
from mentalhospital_env.llm.openai_compatible import (
    OpenAICompatibleClient,
    parse_chat_completion,
    parse_retry_after,
)

SECRET = "sk-test-7f3a9c-do-not-leak"


class ChatServer:
    """A chat completions endpoint on 127.0.0.1 scripted per conversation.

    `plan[content]` is a list of actions for requests whose last message has that content, used in
    order; when it runs out the server answers normally ("reply to <content>"). Actions:
    ("ok",), ("delay", seconds), ("status", code, retry_after or None), ("body", bytes),
    ("echo_auth", code): an error body that echoes the Authorization header (a careless server).
    """

    def __init__(self) -> None:
        self.plan: dict[str, list[tuple]] = {}
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.active = 0
        self.max_active = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                content = body["messages"][-1]["content"]
                with owner.lock:
                    owner.requests.append(
                        {
                            "path": self.path,
                            "content": content,
                            "headers": {k.title(): v for k, v in self.headers.items()},  # HTTP names are case-blind
                            "body": body,
                            "time": time.monotonic(),
                        }
                    )
                    steps = owner.plan.get(content, [])
                    action = steps.pop(0) if steps else ("ok",)
                try:
                    self._act(action, content)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting: that is the point of a delay

            def _act(self, action: tuple, content: str) -> None:
                kind = action[0]
                if self.path != "/v1/chat/completions":
                    return self._send(404, b'{"error": "no such path"}')
                if kind == "delay":
                    # Counted only while the reply is held back: the client cannot have this request's
                    # answer yet, so `active` never overcounts (counting up to the final write would
                    # race the client's next request against this thread's decrement).
                    with owner.lock:
                        owner.active += 1
                        owner.max_active = max(owner.max_active, owner.active)
                    try:
                        time.sleep(action[1])
                    finally:
                        with owner.lock:
                            owner.active -= 1
                    kind = "ok"
                if kind == "ok":
                    reply = {
                        "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": f"reply to {content}"}}
                        ]
                    }
                    return self._send(200, json.dumps(reply).encode())
                if kind == "status":
                    extra = {"Retry-After": str(action[2])} if action[2] is not None else {}
                    return self._send(
                        action[1], json.dumps({"error": {"message": f"status {action[1]}"}}).encode(), extra
                    )
                if kind == "body":
                    return self._send(200, action[1])
                if kind == "echo_auth":
                    return self._send(action[1], f"bad key {self.headers.get('Authorization')}".encode())
                raise AssertionError(f"unknown action {action}")

            def _send(self, status: int, payload: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def count(self, content: str) -> int:
        return sum(1 for r in self.requests if r["content"] == content)

    def times(self, content: str) -> list[float]:
        return [r["time"] for r in self.requests if r["content"] == content]


@pytest.fixture()
def server():
    chat = ChatServer()
    chat.thread.start()
    yield chat
    chat.httpd.shutdown()
    chat.httpd.server_close()


@pytest.fixture()
def client_for(server, monkeypatch):
    monkeypatch.setenv("MH_TEST_KEY", SECRET)

    def build(**overrides) -> OpenAICompatibleClient:
        options = {
            "api_key_env": "MH_TEST_KEY",
            "timeout_s": 2.0,
            "max_retries": 3,
            "backoff_s": 0.01,
            "max_concurrency": 4,
        }
        options.update(overrides)
        return OpenAICompatibleClient(server.url, "tiny-chat", **options)

    return build


def convo(text: str) -> list[dict]:
    return [{"role": "system", "content": "You are a patient."}, {"role": "user", "content": text}]


def test_batch_keeps_order_sends_settings_and_bearer_key(server, client_for):
    client = client_for()
    questions = [f"question {i}" for i in range(7)]
    for i, question in enumerate(questions):  # later conversations answer first
        server.plan[question] = [("delay", 0.05 * (len(questions) - i))]
    settings = GenerationSettings(max_new_tokens=17, temperature=0.3, top_p=0.9, seed=5, stop=("END",))
    assert client.generate([convo(q) for q in questions], settings) == [f"reply to {q}" for q in questions]
    assert len(server.requests) == 7
    first = server.requests[0]
    assert first["path"] == "/v1/chat/completions"
    assert first["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert first["body"]["model"] == "tiny-chat"
    assert first["body"]["messages"][0] == {"role": "system", "content": "You are a patient."}
    assert (first["body"]["max_tokens"], first["body"]["temperature"], first["body"]["top_p"]) == (
        17,
        0.3,
        0.9,
    )
    assert first["body"]["seed"] == 5 and first["body"]["stop"] == ["END"]
    assert 2 <= server.max_active <= 4  # concurrent, within max_concurrency


def test_500s_are_retried_then_succeed(server, client_for):
    server.plan["q"] = [("status", 500, None), ("status", 503, None)]
    assert client_for().generate([convo("q")]) == ["reply to q"]
    assert server.count("q") == 3


def test_429_honours_retry_after(server, client_for):
    server.plan["q"] = [("status", 429, 0.4)]
    assert client_for(backoff_s=0.001).generate([convo("q")]) == ["reply to q"]
    first, second = server.times("q")
    assert second - first >= 0.38


def test_a_delay_past_the_timeout_is_retried(server, client_for):
    server.plan["slow"] = [("delay", 1.5)]
    started = time.monotonic()
    assert client_for(timeout_s=0.3).generate([convo("slow")]) == ["reply to slow"]
    assert time.monotonic() - started < 1.3  # did not wait for the slow answer
    assert server.count("slow") == 2


def test_settings_timeout_overrides_the_client_default(server, client_for):
    server.plan["slow"] = [("delay", 1.0), ("delay", 1.0)]
    with pytest.raises(LLMError, match="timed out after 0.2 s"):
        client_for(timeout_s=30, max_retries=1).generate([convo("slow")], GenerationSettings(timeout_s=0.2))


def test_malformed_bodies_are_retried(server, client_for):
    server.plan["q"] = [
        ("body", b"<html>gateway</html>"),
        ("body", b'{"choices": []}'),
        ("body", b'{"choices": [{"message": {"role": "assistant"}}]}'),
    ]
    assert client_for().generate([convo("q")]) == ["reply to q"]
    assert server.count("q") == 4


def test_error_after_the_last_retry_is_clear(server, client_for):
    server.plan["doomed"] = [("status", 500, None)] * 10
    client = client_for(max_retries=2)
    with pytest.raises(LLMError) as caught:
        client.generate([convo("fine"), convo("doomed")])
    message = str(caught.value)
    assert server.count("doomed") == 3
    assert client.name in message and "tiny-chat" in message
    assert "conversation 1 of 2" in message and server.url + "/chat/completions" in message
    assert "HTTP 500" in message and "gave up after 3 attempts" in message
    assert caught.value.backend == client.name


def test_malformed_until_the_end_names_the_body(server, client_for):
    server.plan["q"] = [("body", b"not json at all")] * 3
    with pytest.raises(LLMError, match="malformed response: the response body is not JSON.*not json at all"):
        client_for(max_retries=2).generate([convo("q")])


def test_400_is_not_retried(server, client_for):
    server.plan["bad"] = [("status", 400, None)]
    with pytest.raises(LLMError, match="HTTP 400.*not retried"):
        client_for().generate([convo("bad")])
    assert server.count("bad") == 1


def test_api_key_never_appears_in_errors_or_repr(server, client_for):
    server.plan["q"] = [("echo_auth", 401)]
    client = client_for()
    with pytest.raises(LLMError) as caught:
        client.generate([convo("q")])
    assert server.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert "HTTP 401" in str(caught.value) and "[redacted]" in str(caught.value)
    assert SECRET not in str(caught.value) and SECRET not in repr(caught.value)
    assert SECRET not in repr(client) and SECRET not in client.name
    server.plan["r"] = [("echo_auth", 503)] * 4
    with pytest.raises(LLMError) as again:
        client.generate([convo("r")])
    assert SECRET not in str(again.value)


def test_no_key_no_authorization_header(server, monkeypatch):
    monkeypatch.delenv("MH_ABSENT_KEY", raising=False)
    client = OpenAICompatibleClient(server.url, "m", api_key_env="MH_ABSENT_KEY")
    assert client.generate([convo("q")]) == ["reply to q"]
    assert "Authorization" not in server.requests[0]["headers"]


def test_connection_refused_is_retried_then_clear(client_for):
    import socket

    with socket.socket() as probe:  # a port with nobody listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = OpenAICompatibleClient(f"http://127.0.0.1:{port}/v1", "m", max_retries=2, backoff_s=0.01)
    with pytest.raises(LLMError, match="connection failed.*gave up after 3 attempts"):
        client.generate([convo("q")])


def test_one_failure_fails_the_batch_and_mixed_retries_keep_order(server, client_for):
    server.plan["a"] = [("status", 502, None)]
    server.plan["b"] = [("body", b"{}")]
    server.plan["c"] = [("status", 429, 0)]
    assert client_for().generate([convo(x) for x in "abcd"]) == [f"reply to {x}" for x in "abcd"]
    server.plan["c"] = [("status", 404, None)]
    with pytest.raises(LLMError, match="conversation 2 of 4.*HTTP 404"):
        client_for().generate([convo(x) for x in "abcd"])


def test_stop_strings_are_applied_client_side_too(server, client_for):
    replies = client_for().generate([convo("a"), convo("b")], GenerationSettings(stop=("to b",)))
    assert replies == ["reply to a", "reply "]


def test_empty_batch_sends_nothing(server, client_for):
    assert client_for().generate([]) == []
    assert server.requests == []


@pytest.mark.parametrize("url", ["ftp://host/v1", "127.0.0.1:8000/v1", "http:///v1", "http://h/v1?model=x"])
def test_bad_base_urls_are_refused(url):
    with pytest.raises(ValueError, match="base_url"):
        OpenAICompatibleClient(url, "m")


def test_parse_retry_after_forms():
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after(" 0.5 ") == 0.5
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10.0)


def test_parse_chat_completion_validates_shape():
    assert parse_chat_completion(b'{"choices": [{"message": {"content": "hi"}}]}') == "hi"
    for body, cause in [
        (b"[1]", "not an object"),
        (b'{"error": {"message": "overloaded"}}', "no choices; error"),
        (b'{"choices": [{"message": {"content": null}}]}', "no message content"),
        (b"\xff\xfe", "not JSON"),
    ]:
        with pytest.raises(ValueError, match=cause):
            parse_chat_completion(body)


# ------------------------------------------------------------------ bounded time and memory (issue 17, item 6)


class RawServer:
    """A TCP server on loopback that reads one request and then runs ``behaviour(connection)``."""

    def __init__(self, behaviour) -> None:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.behaviour = behaviour
        self.connections = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._one, args=(connection,), daemon=True).start()

    def _one(self, connection) -> None:
        try:
            connection.settimeout(30)
            data = b""
            while b"\r\n\r\n" not in data:
                data += connection.recv(65536)
            head, _, rest = data.partition(b"\r\n\r\n")
            length = int(next((l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")), b"0"))
            while len(rest) < length:
                rest += connection.recv(65536)
            self.behaviour(connection)
        except OSError:
            pass
        finally:
            connection.close()

    def close(self) -> None:
        self.sock.close()


def _trickle(connection) -> None:
    for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" * 100:
        connection.sendall(bytes([byte]))
        time.sleep(1.5)


def test_a_trickling_server_cannot_hold_a_call_past_its_timeout():
    server = RawServer(_trickle)
    try:
        client = OpenAICompatibleClient(server.url, "m", api_key_env=None, timeout_s=3, max_retries=0)
        started = time.monotonic()
        with pytest.raises(LLMError, match="timed out after 3 s"):
            client.generate([convo("q")])
        assert time.monotonic() - started < 4.0
    finally:
        server.close()


def test_the_total_budget_bounds_a_call_with_its_retries():
    server = RawServer(_trickle)
    try:
        client = OpenAICompatibleClient(server.url, "m", api_key_env=None, timeout_s=1, max_retries=10, backoff_s=0.01, max_total_s=2.5)
        started = time.monotonic()
        with pytest.raises(LLMError, match="total budget of 2.5 s"):
            client.generate([convo("q")])
        assert time.monotonic() - started < 3.5 and server.connections >= 2
    finally:
        server.close()


_BIG_BODY = """
import json, os, resource, sys, threading, time
sys.path.insert(0, sys.argv[1])
from test_llm_openai import RawServer, convo
from mentalhospital_env.llm import LLMError
from mentalhospital_env.llm.openai_compatible import OpenAICompatibleClient

def huge(connection, declared):
    head = b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\n"
    head += (b"Content-Length: 1073741824\\r\\n" if declared else b"Connection: close\\r\\n") + b"\\r\\n"
    connection.sendall(head + b'{"choices": [{"message": {"content": "')
    chunk = b"x" * (1 << 20)
    for _ in range(1024):
        connection.sendall(chunk)

def ok(connection):
    body = json.dumps({"choices": [{"message": {"content": "fine"}}]}).encode()
    connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\n\\r\\n%s" % (len(body), body))

def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

warm = RawServer(ok)
client = OpenAICompatibleClient(warm.url, "m", api_key_env=None, timeout_s=60, max_retries=2)
assert client.generate([convo("q")]) == ["fine"]
baseline = rss_mb()
out = {}
for declared in (False, True):
    server = RawServer(lambda c, d=declared: huge(c, d))
    client = OpenAICompatibleClient(server.url, "m", api_key_env=None, timeout_s=60, max_retries=2)
    started = time.monotonic()
    try:
        client.generate([convo("q")])
        out[str(declared)] = "no error"
    except LLMError as error:
        out[str(declared)] = str(error)
    out[f"seconds_{declared}"] = time.monotonic() - started
    out[f"connections_{declared}"] = server.connections
out["growth_mb"] = rss_mb() - baseline
print(json.dumps(out))
"""


def test_a_huge_body_is_refused_within_bounded_memory():
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run(
        [sys.executable, "-c", _BIG_BODY, str(Path(__file__).parent)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    for declared in ("False", "True"):
        assert "larger than 8388608 bytes" in out[declared] or "more than 8388608" in out[declared], out[declared]
        assert "not retried" in out[declared] and out[f"connections_{declared}"] == 1
    assert out["growth_mb"] < 100, out


def test_retry_after_is_capped_by_the_setting(server, client_for):
    server.plan["q"] = [("status", 429, 100)]
    started = time.monotonic()
    assert client_for(max_retry_after_s=0.3).generate([convo("q")]) == ["reply to q"]
    first, second = server.times("q")
    assert 0.28 <= second - first < 2 and time.monotonic() - started < 3


def test_max_tokens_is_capped_on_the_client(server, client_for):
    client_for(max_tokens_limit=512).generate([convo("q")], GenerationSettings(max_new_tokens=100_000))
    assert server.requests[0]["body"]["max_tokens"] == 512


def test_agenerate_reports_each_attempt(server, client_for):
    import asyncio

    server.plan["q"] = [("status", 503, None), ("body", b"{}")]
    trace: list = []
    replies = asyncio.run(client_for().agenerate([convo("q"), convo("r")], trace=trace))
    assert replies == ["reply to q", "reply to r"]
    assert trace == [{"attempts": ["HTTP 503", "HTTP 200", "HTTP 200"]}, {"attempts": ["HTTP 200"]}]
