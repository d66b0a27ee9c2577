"""Any OpenAI-compatible chat completions server (vLLM, SGLang, llama.cpp server, hosted APIs).

Standard library only: `http.client` for the requests, a thread pool for concurrency within a
batch. Each conversation of a batch is one ``POST {base_url}/chat/completions``; at most
`max_concurrency` run at once and the replies come back in the caller's order.

Reliability rules:

- The API key is read from the environment variable `api_key_env` when the client is built and sent
  as ``Authorization: Bearer ...``; it never appears in an error message, a log line or `repr`
  (any echo of it in a server's error body is redacted).
- Every attempt is bounded: `connect_timeout_s` for the connection and `timeout_s` (or the
  settings' `timeout_s`) for the whole attempt, sending, waiting and reading included.
- Retryable: HTTP 429, 408 and 5xx, timeouts, connection errors, and a 2xx whose body is not a valid
  chat completion (malformed JSON, no choices, no message content). Up to `max_retries` retries
  after the first attempt, waiting ``backoff_s * 2**attempt`` with jitter (x0.5 to x1.5, at most
  `max_backoff_s`), or the server's ``Retry-After`` when that is longer (capped at
  `max_retry_after_s`).
- Any other 4xx is not retried. After the last attempt, or at a non-retryable answer, the call
  raises `LLMError` naming the backend, the conversation, the endpoint and the cause.
- When any conversation of a batch fails, the whole call raises (no reply is ever dropped or
  invented); requests not yet started are cancelled.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import math
import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .base import (
    GenerationSettings,
    LLMClient,
    LLMError,
    Message,
    check_reply_count,
    truncate_at_stop,
    validate_conversations,
)

RETRYABLE_STATUSES = frozenset({408, 429}) | frozenset(range(500, 600))
_BODY_SNIPPET = 300


@dataclass(frozen=True)
class _Answer:
    """One HTTP exchange: status, Retry-After header (raw), body bytes."""

    status: int
    retry_after: str | None
    body: bytes


class _Retryable(Exception):
    """An attempt failed in a way worth another try; `wait_s` is the server's Retry-After if any."""

    def __init__(self, cause: str, wait_s: float | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.wait_s = wait_s


class _Final(Exception):
    """An attempt failed in a way another try would not fix (a 4xx other than 408/429)."""


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta seconds or an HTTP date); None if absent/bad."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            moment = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if moment is None:
            return None
        seconds = moment.timestamp() - (time.time() if now is None else now)
    if math.isnan(seconds):
        return None
    return max(0.0, seconds)


def parse_chat_completion(body: bytes) -> str:
    """The first choice's message content from a chat completions body; `ValueError` if malformed."""
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"the response body is not JSON ({error}): {_snippet(body)}") from None
    if not isinstance(payload, dict):
        raise ValueError(f"the response body is JSON but not an object: {_snippet(body)}")  # noqa: TRY004 (a bad body, not a bad argument)
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices:
        detail = f"; error: {payload['error']!r}" if "error" in payload else ""
        raise ValueError(f"the response has no choices{detail}: {_snippet(body)}")
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str):
        raise ValueError(f"the first choice has no message content: {_snippet(body)}")  # noqa: TRY004 (a bad body)
    return content


def _snippet(body: bytes | str) -> str:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    text = " ".join(text.split())
    return text if len(text) <= _BODY_SNIPPET else text[:_BODY_SNIPPET] + "..."


class OpenAICompatibleClient(LLMClient):
    """Chat completions of an OpenAI-compatible server behind the batch-first interface.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8000/v1`` (``/chat/completions`` is added).
        model: the model name the server expects.
        api_key_env: environment variable holding the API key (none sent when unset or None).
        timeout_s: bound on one attempt, in seconds (settings' `timeout_s` overrides it per call).
        max_retries: retries after the first attempt (so at most max_retries + 1 attempts).
        backoff_s: first retry's base wait; doubles each retry, with jitter.
        max_concurrency: requests in flight at once within a batch.
        connect_timeout_s: bound on opening the connection (at most `timeout_s`).
        max_backoff_s: cap on one backoff wait.
        max_retry_after_s: cap on a server's Retry-After.
        extra_body: extra JSON fields sent with every request (server-specific options).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key_env: str | None = "OPENAI_API_KEY",
        timeout_s: float = 60,
        max_retries: int = 4,
        backoff_s: float = 0.5,
        max_concurrency: int = 8,
        *,
        connect_timeout_s: float = 10.0,
        max_backoff_s: float = 30.0,
        max_retry_after_s: float = 120.0,
        extra_body: Mapping[str, Any] | None = None,
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(
                f"OpenAICompatibleClient base_url must be http(s)://host[:port]/path, got {base_url!r}"
            )
        if parts.query or parts.fragment:
            raise ValueError(
                f"OpenAICompatibleClient base_url must not carry a query or fragment, got {base_url!r}"
            )
        if not isinstance(model, str) or not model:
            raise ValueError("OpenAICompatibleClient needs a model name")
        if not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be an int >= 0, got {max_retries!r}")
        if not isinstance(max_concurrency, int) or max_concurrency < 1:
            raise ValueError(f"max_concurrency must be an int >= 1, got {max_concurrency!r}")
        for label, value in (("timeout_s", timeout_s), ("connect_timeout_s", connect_timeout_s)):
            if not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"{label} must be > 0, got {value!r}")
        if backoff_s < 0 or max_backoff_s < 0 or max_retry_after_s < 0:
            raise ValueError("backoff_s, max_backoff_s and max_retry_after_s must be >= 0")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout_s = float(timeout_s)
        self.max_retries = max_retries
        self.backoff_s = float(backoff_s)
        self.max_concurrency = max_concurrency
        self.connect_timeout_s = float(connect_timeout_s)
        self.max_backoff_s = float(max_backoff_s)
        self.max_retry_after_s = float(max_retry_after_s)
        self.extra_body = dict(extra_body or {})
        self.name = f"openai({model} @ {self.base_url})"
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._path = (parts.path.rstrip("/") or "") + "/chat/completions"
        self._api_key = os.environ.get(api_key_env) if api_key_env else None
        self._jitter = random.Random()
        self._jitter_lock = threading.Lock()

    @property
    def endpoint(self) -> str:
        """The full chat completions URL."""
        return f"{self.base_url}/chat/completions"

    def __repr__(self) -> str:
        key = f", key from ${self.api_key_env}" if self._api_key else ""
        return f"<OpenAICompatibleClient {self.name}{key}>"

    # -- the batch ---------------------------------------------------------------------------

    def generate(
        self,
        conversations: Sequence[Sequence[Message]],
        settings: GenerationSettings | None = None,
    ) -> list[str]:
        settings = settings or GenerationSettings()
        batch = validate_conversations(self.name, conversations)
        total = len(batch)
        if total == 0:
            return []
        if total == 1 or self.max_concurrency == 1:
            replies = [
                self._complete(index, total, conversation, settings)
                for index, conversation in enumerate(batch)
            ]
            return check_reply_count(self.name, replies, total)
        executor = ThreadPoolExecutor(
            max_workers=min(self.max_concurrency, total), thread_name_prefix="mh-llm"
        )
        try:
            futures = [
                executor.submit(self._complete, index, total, conversation, settings)
                for index, conversation in enumerate(batch)
            ]
            done, _ = wait(futures, return_when=FIRST_EXCEPTION)
            failed = [future for future in futures if future in done and future.exception() is not None]
            if failed:
                raise failed[0].exception()  # type: ignore[misc]
            replies = [future.result() for future in futures]
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
        return check_reply_count(self.name, replies, total)

    # -- one conversation --------------------------------------------------------------------

    def _complete(
        self, index: int, total: int, conversation: list[Message], settings: GenerationSettings
    ) -> str:
        request = f"conversation {index} of {total} (POST {self.endpoint})"
        body = json.dumps(self._payload(conversation, settings)).encode("utf-8")
        timeout = settings.timeout_s if settings.timeout_s is not None else self.timeout_s
        attempts = self.max_retries + 1
        last_cause = "no attempt made"
        for attempt in range(attempts):
            try:
                answer = self._post(body, timeout)
                reply = self._read_answer(answer)
            except _Retryable as failure:
                last_cause = failure.cause
                if attempt + 1 < attempts:
                    time.sleep(self._delay(attempt, failure.wait_s))
                continue
            except _Final as failure:
                raise LLMError(self.name, request, self._redact(f"{failure} (not retried)")) from None
            return truncate_at_stop(reply, settings.stop)
        raise LLMError(self.name, request, self._redact(f"{last_cause} (gave up after {attempts} attempts)"))

    def _payload(self, conversation: list[Message], settings: GenerationSettings) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in conversation],
            "max_tokens": settings.max_new_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
        }
        if settings.seed is not None:
            payload["seed"] = settings.seed
        if settings.stop:
            payload["stop"] = list(settings.stop)
        payload.update(self.extra_body)
        return payload

    def _read_answer(self, answer: _Answer) -> str:
        if 200 <= answer.status < 300:
            try:
                return parse_chat_completion(answer.body)
            except ValueError as error:
                raise _Retryable(f"malformed response: {error}") from None
        cause = f"HTTP {answer.status}: {_snippet(answer.body) or '(empty body)'}"
        if answer.status in RETRYABLE_STATUSES:
            raise _Retryable(cause, parse_retry_after(answer.retry_after))
        raise _Final(cause)

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        with self._jitter_lock:
            factor = self._jitter.uniform(0.5, 1.5)
        delay = min(self.backoff_s * (2**attempt) * factor, self.max_backoff_s)
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.max_retry_after_s))
        return delay

    def _post(self, body: bytes, timeout: float) -> _Answer:
        """One HTTP attempt, bounded by `timeout` overall; transport failures raise `_Retryable`."""
        deadline = time.monotonic() + timeout
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Content-Length": str(len(body)),
        }
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        connect_timeout = min(self.connect_timeout_s, timeout)
        connection_class = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        connection = connection_class(self._host, self._port, timeout=connect_timeout)
        try:
            try:
                connection.connect()
            except TimeoutError:
                raise _Retryable(f"connection timed out after {connect_timeout:g} s") from None
            sock = connection.sock
            sock.settimeout(_remaining(deadline, timeout))
            connection.request("POST", self._path, body=body, headers=headers)
            sock.settimeout(_remaining(deadline, timeout))
            response = connection.getresponse()
            chunks = []
            while True:
                sock.settimeout(_remaining(deadline, timeout))
                chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            return _Answer(response.status, response.getheader("Retry-After"), b"".join(chunks))
        except _Retryable:
            raise
        except TimeoutError:
            raise _Retryable(f"timed out after {timeout:g} s") from None
        except (OSError, http.client.HTTPException) as error:
            raise _Retryable(f"connection failed: {type(error).__name__}: {error}") from None
        finally:
            connection.close()

    def _redact(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "[redacted]")
        return text


def _remaining(deadline: float, timeout: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Retryable(f"timed out after {timeout:g} s")
    return left
