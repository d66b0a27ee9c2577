"""Any OpenAI-compatible chat completions server (vLLM, SGLang, llama.cpp server, TGI, ``transformers
serve``, hosted APIs), through the official ``openai`` SDK's async client.

Each conversation of a batch is one ``POST {base_url}/chat/completions``; at most `max_concurrency`
run at once and the replies come back in the caller's order. The SDK's ``AsyncOpenAI`` sends the
requests and retries them; this module adds what the SDK leaves to its caller, so that no server
can hold a call or the memory of the process for long:

- **A total deadline per attempt**: `timeout_s` bounds one attempt from sending to the last byte of
  the body, whatever the server does (the SDK's own timeouts are per read, so a server trickling one
  byte a second would otherwise hold a call for ever). `connect_timeout_s` bounds opening the
  connection.
- **A total budget per call**: `max_total_s` bounds a call with all its retries and waits.
- **A maximum body size**: a response body over `max_body_bytes` is refused while it is read (never
  held whole), and is not retried.
- **A cap on ``max_tokens``**: a request never asks for more than `max_tokens_limit` new tokens.
- **Retries**: HTTP 408, 429 and 5xx, timeouts and connection errors are retried by the SDK, up to
  `max_retries` retries after the first attempt, waiting ``backoff_s * 2**retry`` with jitter (at
  most `max_backoff_s`), or the server's ``Retry-After`` when that is longer (capped at
  `max_retry_after_s`). A 2xx whose body is not a chat completion (malformed JSON, no choices, no
  message content) is retried too, within the same count. Any other 4xx is not retried.
- The API key is read from the environment variable `api_key_env` when the client is built; it never
  appears in an error message, a log line or `repr` (any echo of it in a server's error body is
  redacted).

After the last attempt, at a non-retryable answer, or when the budget is spent, the call raises
`LLMError` naming the backend, the conversation, the endpoint and the cause. When any conversation
of a batch fails, the whole call raises (no reply is ever dropped or invented).

The client runs its own event loop in a background thread, so the synchronous `generate` works
anywhere (a notebook included) and `agenerate` can be awaited from any other loop.
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import itertools
import json
import math
import os
import random
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

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
_CALL_HEADER = "x-mentalhospital-call"
_NO_KEY = "mentalhospital-no-key"  # the SDK insists on a key; the transport drops this one's header


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
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
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
    text = body[:4096].decode("utf-8", "replace") if isinstance(body, bytes) else body[:4096]
    text = " ".join(text.split())
    return text if len(text) <= _BODY_SNIPPET else text[:_BODY_SNIPPET] + "..."


# ------------------------------------------------------------------------------------ the transport


def _httpx_errors() -> Any:
    import httpx

    return httpx


class ResponseTooLarge(Exception):
    """A response body was longer than the client's `max_body_bytes` (raised while reading, not retried)."""


@dataclass
class _Attempts:
    """What each attempt of one call met: an HTTP status, or a transport failure."""

    outcomes: list[str] = field(default_factory=list)


@functools.lru_cache(maxsize=1)
def _too_large() -> type[Exception]:
    """The error a too-long body raises inside the SDK: an ``OpenAIError``, so that the SDK raises it at
    once instead of retrying it (one class for every client and loop)."""
    from openai import OpenAIError

    return type("ResponseTooLarge", (OpenAIError, ResponseTooLarge), {"__module__": __name__})


def _make_transport(inner: Any, timeout_s: float, max_body_bytes: int, log: dict[str, _Attempts]) -> Any:
    """An httpx transport around ``inner`` that bounds each attempt's wall time and body size and
    notes each attempt's outcome under the call id the request carries."""
    httpx = _httpx_errors()
    TooLarge = _too_large()  # noqa: N806

    class CappedStream(httpx.AsyncByteStream):
        def __init__(self, stream: Any, deadline: float, request: Any, attempts: _Attempts | None):
            self.stream, self.deadline, self.request, self.attempts = stream, deadline, request, attempts
            self.read = 0

        async def __aiter__(self):  # type: ignore[override]
            iterator = self.stream.__aiter__()
            while True:
                left = self.deadline - time.monotonic()
                if left <= 0:
                    raise self._timeout()
                try:
                    chunk = await asyncio.wait_for(iterator.__anext__(), left)
                except StopAsyncIteration:
                    return
                except asyncio.TimeoutError:
                    raise self._timeout() from None
                self.read += len(chunk)
                if self.read > max_body_bytes:
                    if self.attempts is not None:
                        self.attempts.outcomes.append("body too large")
                    raise TooLarge(f"the response body is larger than {max_body_bytes} bytes (max_body_bytes)")
                yield chunk

        def _timeout(self) -> Exception:
            if self.attempts is not None:
                self.attempts.outcomes.append("timeout")
            return httpx.ReadTimeout(f"timed out after {timeout_s:g} s", request=self.request)

        async def aclose(self) -> None:
            await self.stream.aclose()

    class BoundedTransport(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: Any) -> Any:
            attempts = log.get(request.headers.get(_CALL_HEADER, ""))
            if _CALL_HEADER in request.headers:
                del request.headers[_CALL_HEADER]  # ours, not the server's
            if request.headers.get("authorization") == f"Bearer {_NO_KEY}":
                del request.headers["authorization"]
            deadline = time.monotonic() + timeout_s
            try:
                response = await asyncio.wait_for(inner.handle_async_request(request), timeout_s)
            except asyncio.TimeoutError:
                if attempts is not None:
                    attempts.outcomes.append("timeout")
                raise httpx.ReadTimeout(f"timed out after {timeout_s:g} s", request=request) from None
            except Exception as error:
                if attempts is not None:
                    attempts.outcomes.append(f"{type(error).__name__}")
                raise
            length = response.headers.get("content-length")
            if length is not None and length.strip().isdigit() and int(length) > max_body_bytes:
                await response.aclose()
                if attempts is not None:
                    attempts.outcomes.append("body too large")
                raise TooLarge(
                    f"the response body is {int(length)} bytes, more than {max_body_bytes} (max_body_bytes)"
                )
            if attempts is not None:
                attempts.outcomes.append(f"HTTP {response.status_code}")
            return httpx.Response(
                status_code=response.status_code,
                headers=response.headers,
                stream=CappedStream(response.stream, deadline, request, attempts),
                extensions=response.extensions,
                request=request,
            )

        async def aclose(self) -> None:
            await inner.aclose()

    return BoundedTransport()


def _sdk_client(owner: "OpenAICompatibleClient", timeout_s: float) -> Any:
    """The SDK's ``AsyncOpenAI`` with this client's backoff and Retry-After cap, over the bounded transport."""
    import httpx
    import openai

    class Client(openai.AsyncOpenAI):
        def _should_retry(self, response: Any) -> bool:
            if response.status_code in RETRYABLE_STATUSES:
                return True  # a Retry-After past the SDK's own limit is capped below, not a reason to stop
            return super()._should_retry(response)

        def _calculate_retry_timeout(self, remaining_retries: int, options: Any, response_headers: Any = None) -> float:
            retry = max(0, options.get_max_retries(self.max_retries) - remaining_retries)
            return owner._delay(retry, parse_retry_after(response_headers.get("retry-after")) if response_headers else None)

    import socket

    # TCP_NODELAY: a request's headers and body go out as two writes; without it the body waits for the
    # server's delayed ACK of the headers (40 ms a request on Linux, a fifth of a fast model's latency)
    inner = httpx.AsyncHTTPTransport(retries=0, socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    transport = _make_transport(inner, timeout_s, owner.max_body_bytes, owner._attempts)
    timeout = httpx.Timeout(timeout_s, connect=min(owner.connect_timeout_s, timeout_s))
    http_client = httpx.AsyncClient(
        transport=transport,
        timeout=timeout,
        limits=httpx.Limits(max_connections=owner.max_concurrency, max_keepalive_connections=owner.max_concurrency),
    )
    return Client(
        base_url=owner.base_url,
        api_key=owner._api_key or _NO_KEY,
        max_retries=owner.max_retries,
        timeout=timeout,
        http_client=http_client,
    )


class _LoopThread:
    """An event loop running in a daemon thread; coroutines are handed to it from any thread."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()

    def submit(self, coroutine: Any) -> Future:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)


# ------------------------------------------------------------------------------------- the client


class OpenAICompatibleClient(LLMClient):
    """Chat completions of an OpenAI-compatible server behind the batch-first interface.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8000/v1`` (``/chat/completions`` is added).
        model: the model name the server expects.
        api_key_env: environment variable holding the API key (none sent when unset or None).
        timeout_s: wall-clock bound on one attempt, sending to last byte (settings' `timeout_s`
            overrides it per call).
        max_retries: retries after the first attempt (so at most max_retries + 1 attempts).
        backoff_s: first retry's base wait; doubles each retry, with jitter.
        max_concurrency: requests in flight at once (over all the batches and callers of this client).
        connect_timeout_s: bound on opening the connection (at most `timeout_s`).
        max_backoff_s: cap on one backoff wait.
        max_retry_after_s: cap on a server's Retry-After (default 30 s).
        max_total_s: bound on one call with all its retries and waits (default 300 s).
        max_body_bytes: largest response body read (default 8 MiB).
        max_tokens_limit: largest ``max_tokens`` ever requested (default 8192; a larger
            ``max_new_tokens`` is lowered to it).
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
        max_concurrency: int = 64,
        *,
        connect_timeout_s: float = 10.0,
        max_backoff_s: float = 30.0,
        max_retry_after_s: float = 30.0,
        max_total_s: float = 300.0,
        max_body_bytes: int = 8 * 1024 * 1024,
        max_tokens_limit: int = 8192,
        extra_body: Mapping[str, Any] | None = None,
    ) -> None:
        from urllib.parse import urlsplit

        import httpx  # noqa: F401  (imported now, so that a call's time bound holds from its first call)
        import openai  # noqa: F401

        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"OpenAICompatibleClient base_url must be http(s)://host[:port]/path, got {base_url!r}")
        if parts.query or parts.fragment:
            raise ValueError(f"OpenAICompatibleClient base_url must not carry a query or fragment, got {base_url!r}")
        if not isinstance(model, str) or not model:
            raise ValueError("OpenAICompatibleClient needs a model name")
        for label, value in (("max_retries", max_retries),):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{label} must be an int >= 0, got {value!r}")
        for label, value in (("max_concurrency", max_concurrency), ("max_body_bytes", max_body_bytes), ("max_tokens_limit", max_tokens_limit)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{label} must be an int >= 1, got {value!r}")
        for label, value in (("timeout_s", timeout_s), ("connect_timeout_s", connect_timeout_s), ("max_total_s", max_total_s)):
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
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
        self.max_total_s = float(max_total_s)
        self.max_body_bytes = int(max_body_bytes)
        self.max_tokens_limit = int(max_tokens_limit)
        self.extra_body = dict(extra_body or {})
        self.name = f"openai({model} @ {self.base_url})"
        self._api_key = os.environ.get(api_key_env) if api_key_env else None
        self._jitter = random.Random()
        self._attempts: dict[str, _Attempts] = {}
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._runner: _LoopThread | None = None
        # per event loop (an asyncio connection pool belongs to one loop): SDK clients by timeout, and the
        # bound on requests in flight
        self._sdk: weakref.WeakKeyDictionary[Any, dict[float, Any]] = weakref.WeakKeyDictionary()
        self._semaphores: weakref.WeakKeyDictionary[Any, asyncio.Semaphore] = weakref.WeakKeyDictionary()

    @property
    def endpoint(self) -> str:
        """The full chat completions URL."""
        return f"{self.base_url}/chat/completions"

    def __repr__(self) -> str:
        key = f", key from ${self.api_key_env}" if self._api_key else ""
        return f"<OpenAICompatibleClient {self.name}{key}>"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(_runner=None, _sdk=None, _semaphores=None, _attempts={}, _lock=None, _ids=None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._sdk = weakref.WeakKeyDictionary()
        self._semaphores = weakref.WeakKeyDictionary()

    # -- the batch ---------------------------------------------------------------------------

    def generate(self, conversations: Sequence[Sequence[Message]], settings: GenerationSettings | None = None) -> list[str]:
        return self._run(self._batch(conversations, settings, None)).result()

    def generate_traced(
        self, conversations: Sequence[Sequence[Message]], settings: GenerationSettings | None = None
    ) -> tuple[list[str], list[dict[str, Any]]]:
        trace: list[dict[str, Any]] = []
        replies = self._run(self._batch(conversations, settings, trace)).result()
        return replies, trace

    async def agenerate(
        self,
        conversations: Sequence[Sequence[Message]],
        settings: GenerationSettings | None = None,
        trace: list[dict[str, Any]] | None = None,
    ) -> list[str]:
        """`generate` for callers with their own event loop; with ``trace``, one dict per conversation
        is appended to it: ``{"attempts": [outcome of each HTTP attempt, e.g. "HTTP 503", "timeout"]}``.

        The requests run on the caller's loop (connections are kept per loop), so many episodes
        awaiting replies cost no thread hops."""
        return await self._batch(conversations, settings, trace)

    def close(self) -> None:
        """Close the connections and stop the background loop (a later call starts them again)."""
        with self._lock:
            runner = self._runner
            sdks = list(self._sdk.get(runner.loop, {}).values()) if runner is not None else []
            self._runner = None
            self._sdk, self._semaphores = weakref.WeakKeyDictionary(), weakref.WeakKeyDictionary()
        if runner is not None:
            for sdk in sdks:
                try:
                    asyncio.run_coroutine_threadsafe(sdk.close(), runner.loop).result(5)
                except Exception:  # noqa: BLE001  (closing is best effort)
                    pass
            runner.loop.call_soon_threadsafe(runner.loop.stop)

    def _run(self, coroutine: Any) -> Future:
        with self._lock:
            if self._runner is None:
                self._runner = _LoopThread("mh-openai")
            runner = self._runner
        if threading.current_thread() is runner.thread:
            coroutine.close()
            raise RuntimeError("OpenAICompatibleClient.generate called from its own event loop; await agenerate instead")
        return runner.submit(coroutine)

    async def _batch(self, conversations: Any, settings: GenerationSettings | None, trace: list[dict[str, Any]] | None) -> list[str]:
        settings = settings or GenerationSettings()
        batch = validate_conversations(self.name, conversations)
        total = len(batch)
        if total == 0:
            return []
        loop = asyncio.get_running_loop()
        if loop not in self._semaphores:
            self._semaphores[loop] = asyncio.Semaphore(self.max_concurrency)
        tasks = [asyncio.ensure_future(self._complete(i, total, c, settings)) for i, c in enumerate(batch)]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in tasks:
                if task in done and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            results = [task.result() for task in tasks]
        finally:
            for task in tasks:
                task.cancel()
        if trace is not None:
            trace.extend({"attempts": attempts} for _, attempts in results)
        return check_reply_count(self.name, [reply for reply, _ in results], total)

    # -- one conversation --------------------------------------------------------------------

    def _client_for(self, timeout: float) -> Any:
        clients = self._sdk.setdefault(asyncio.get_running_loop(), {})
        sdk = clients.get(timeout)
        if sdk is None:
            sdk = clients[timeout] = _sdk_client(self, timeout)
        return sdk

    async def _complete(self, index: int, total: int, conversation: list[Message], settings: GenerationSettings) -> tuple[str, list[str]]:
        request = f"conversation {index} of {total} (POST {self.endpoint})"
        timeout = settings.timeout_s if settings.timeout_s is not None else self.timeout_s
        call_id = f"{id(self)}-{next(self._ids)}"
        attempts = self._attempts[call_id] = _Attempts()
        try:
            async with self._semaphores[asyncio.get_running_loop()]:
                try:
                    reply = await asyncio.wait_for(self._attempt_all(call_id, conversation, settings, timeout), self.max_total_s)
                except asyncio.TimeoutError:
                    raise LLMError(
                        self.name,
                        request,
                        f"gave up: the call's total budget of {self.max_total_s:g} s (max_total_s) was spent "
                        f"after {len(attempts.outcomes)} attempts",
                    ) from None
                except _Failure as failure:
                    raise LLMError(self.name, request, self._redact(failure.describe(len(attempts.outcomes)))) from None
            return truncate_at_stop(reply, settings.stop), list(attempts.outcomes)
        finally:
            self._attempts.pop(call_id, None)

    async def _attempt_all(self, call_id: str, conversation: list[Message], settings: GenerationSettings, timeout: float) -> str:
        """The SDK's call with its retries; a malformed 2xx body is retried here, within `max_retries`."""
        import openai

        sdk = self._client_for(timeout)
        attempts = self._attempts[call_id]
        while True:
            left = self.max_retries - len(attempts.outcomes)  # the retries not yet used
            try:
                raw = await sdk.with_options(max_retries=max(0, left)).chat.completions.with_raw_response.create(
                    **self._payload(conversation, settings),
                    extra_headers={_CALL_HEADER: call_id},
                )
            except _too_large() as error:
                raise _Failure(str(error), retried=False) from None
            except openai.APIStatusError as error:
                body = error.response.content if error.response is not None else b""
                cause = f"HTTP {error.status_code}: {_snippet(body) or '(empty body)'}"
                raise _Failure(cause, retried=error.status_code in RETRYABLE_STATUSES) from None
            except openai.APITimeoutError:
                raise _Failure(f"timed out after {timeout:g} s", retried=True) from None
            except openai.APIConnectionError as error:
                cause = error.__cause__
                detail = f"{type(cause).__name__}: {cause}" if cause is not None else str(error)
                raise _Failure(f"connection failed: {detail}", retried=True) from None
            try:
                return parse_chat_completion(raw.http_response.content)
            except ValueError as error:
                if len(attempts.outcomes) > self.max_retries:
                    raise _Failure(f"malformed response: {error}", retried=True) from None
                await asyncio.sleep(self._delay(len(attempts.outcomes) - 1, None))

    def _payload(self, conversation: list[Message], settings: GenerationSettings) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in conversation],
            "max_tokens": min(settings.max_new_tokens, self.max_tokens_limit),
            "temperature": settings.temperature,
            "top_p": settings.top_p,
        }
        if settings.seed is not None:
            payload["seed"] = settings.seed
        if settings.stop:
            payload["stop"] = list(settings.stop)
        if self.extra_body:
            payload["extra_body"] = dict(self.extra_body)
        return payload

    def _delay(self, retry: int, retry_after: float | None) -> float:
        with self._lock:
            factor = self._jitter.uniform(0.5, 1.5)
        delay = min(self.backoff_s * (2**retry) * factor, self.max_backoff_s)
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.max_retry_after_s))
        return delay

    def _redact(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "[redacted]")
        return text


class _Failure(Exception):
    def __init__(self, cause: str, retried: bool) -> None:
        super().__init__(cause)
        self.cause, self.retried = cause, retried

    def describe(self, attempts: int) -> str:
        return f"{self.cause} (gave up after {attempts} attempts)" if self.retried else f"{self.cause} (not retried)"
