"""The one interface every language model of the library sits behind.

A client is batch first: `generate` takes many chat conversations and returns one reply per
conversation, in order, so that many environments (patients, doctors, judges) can share one batched
call and a served model drops in for a local one. A client never blocks forever (every backend
bounds its time) and never drops a request silently: the reply list has exactly one entry per
conversation, or the call raises `LLMError`.

This module imports nothing of the project and nothing heavy.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

ROLES = ("system", "user", "assistant")


class Message(TypedDict):
    """One chat turn: `role` is "system", "user" or "assistant"; `content` is its text."""

    role: str
    content: str


class LLMError(RuntimeError):
    """A language-model call failed.

    The message names the backend, the request (which conversation of the batch, which endpoint or
    model) and the cause, e.g. ``openai(gpt-x @ http://h/v1) failed on conversation 3 of 8: HTTP 500
    after 5 attempts: ...``. The parts are kept as attributes for code that handles the error.
    """

    def __init__(self, backend: str, request: str, cause: str) -> None:
        self.backend = backend
        self.request = request
        self.cause = cause
        super().__init__(f"{backend} failed on {request}: {cause}")

    def __reduce__(self):  # type: ignore[override]  # rebuilt whole in the parent of a worker process
        return (type(self), (self.backend, self.request, self.cause))


class ConversationError(LLMError, ValueError):
    """A conversation handed to `generate` is malformed (says which one and what is wrong)."""


@dataclass(frozen=True)
class GenerationSettings:
    """How to generate a reply; shared by every backend.

    - `max_new_tokens`: upper bound on the reply's length in tokens.
    - `temperature`: 0 means greedy decoding; above 0, sampling.
    - `top_p`: nucleus sampling mass (1.0 turns it off); ignored when greedy.
    - `seed`: makes sampling reproducible (local backends are deterministic under a seed; served
      models pass it on, and honour it as far as the server does).
    - `stop`: strings that end a reply; the reply is cut before the first one (never contains it).
    - `timeout_s`: time bound per request; `None` keeps the backend's own default.
    """

    max_new_tokens: int = 256
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = None
    stop: tuple[str, ...] = field(default=())
    timeout_s: float | None = None

    def __post_init__(self) -> None:
        stop = self.stop
        if isinstance(stop, str):
            stop = (stop,)
        stop = tuple(stop)
        if not all(isinstance(s, str) and s for s in stop):
            raise ValueError(f"GenerationSettings.stop must hold non-empty strings, got {self.stop!r}")
        object.__setattr__(self, "stop", stop)
        if not isinstance(self.max_new_tokens, int) or self.max_new_tokens < 1:
            raise ValueError(
                f"GenerationSettings.max_new_tokens must be an int >= 1, got {self.max_new_tokens!r}"
            )
        if not _finite(self.temperature) or self.temperature < 0:
            raise ValueError(f"GenerationSettings.temperature must be >= 0, got {self.temperature!r}")
        if not _finite(self.top_p) or not 0 < self.top_p <= 1:
            raise ValueError(f"GenerationSettings.top_p must be in (0, 1], got {self.top_p!r}")
        if self.seed is not None and (not isinstance(self.seed, int) or isinstance(self.seed, bool)):
            raise ValueError(f"GenerationSettings.seed must be an int or None, got {self.seed!r}")
        if self.timeout_s is not None and (not _finite(self.timeout_s) or self.timeout_s <= 0):
            raise ValueError(f"GenerationSettings.timeout_s must be > 0 or None, got {self.timeout_s!r}")

    @property
    def greedy(self) -> bool:
        """True when decoding is greedy (temperature 0)."""
        return self.temperature == 0


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


class LLMClient(abc.ABC):
    """A language model behind a batch-first chat interface.

    Subclasses set `name` (a short label used in errors and results, e.g. ``transformers(/m)``) and
    implement `generate`. Use `validate_conversations` on the way in and `check_reply_count` on
    the way out so that every backend keeps the same contract.
    """

    name: str = "llm"

    @abc.abstractmethod
    def generate(
        self,
        conversations: Sequence[Sequence[Message]],
        settings: GenerationSettings | None = None,
    ) -> list[str]:
        """Return one reply per conversation, in the order given, or raise `LLMError`."""

    def generate_traced(
        self, conversations: Sequence[Sequence[Message]], settings: GenerationSettings | None = None
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """`generate`, with one dict per conversation of what the backend knows of how the reply was
        obtained (see `agenerate`)."""
        replies = self.generate(conversations, settings)
        return replies, [{} for _ in replies]

    async def agenerate(
        self,
        conversations: Sequence[Sequence[Message]],
        settings: GenerationSettings | None = None,
        trace: list[dict[str, Any]] | None = None,
    ) -> list[str]:
        """`generate` for callers running an event loop (the concurrent evaluation harness).

        The default runs `generate` in a thread, one call at a time per client; backends that can
        serve many calls at once (the OpenAI-compatible client) override it. With ``trace``, one dict
        per conversation is appended with what the backend knows of how the reply was obtained
        (``{"attempts": [...]}`` for HTTP backends; empty here).
        """
        import asyncio
        import threading

        lock = self.__dict__.setdefault("_generate_lock", threading.Lock())

        def call() -> list[str]:
            with lock:
                return self.generate(conversations, settings)

        replies = await asyncio.to_thread(call)
        if trace is not None:
            trace.extend({} for _ in replies)
        return replies

    def generate_one(
        self, conversation: Sequence[Message], settings: GenerationSettings | None = None
    ) -> str:
        """Convenience for a single conversation: ``generate([conversation], settings)[0]``."""
        return self.generate([conversation], settings)[0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def validate_conversations(backend: str, conversations: Sequence[Sequence[Message]]) -> list[list[Message]]:
    """Check a batch of conversations and return it as plain lists of `Message` dicts.

    Every conversation must be a non-empty sequence of mappings with a `role` in ROLES and a string
    `content`. A bad one raises `ConversationError` naming its position and what was wrong.
    """
    if isinstance(conversations, (str, bytes)) or not isinstance(conversations, Sequence):
        raise ConversationError(
            backend,
            "the batch",
            f"conversations must be a list of conversations, got {type(conversations).__name__}",
        )
    checked: list[list[Message]] = []
    total = len(conversations)
    for index, conversation in enumerate(conversations):
        where = f"conversation {index} of {total}"
        if isinstance(conversation, (str, bytes)) or not isinstance(conversation, Sequence):
            raise ConversationError(
                backend,
                where,
                f"a conversation must be a list of messages, got {type(conversation).__name__}",
            )
        if not conversation:
            raise ConversationError(backend, where, "the conversation has no messages")
        messages: list[Message] = []
        for position, message in enumerate(conversation):
            if not hasattr(message, "get"):
                raise ConversationError(
                    backend,
                    where,
                    f"message {position} must be a mapping with role and content, got {message!r}",
                )
            role, content = message.get("role"), message.get("content")
            if role not in ROLES:
                raise ConversationError(
                    backend, where, f"message {position} has role {role!r}; expected one of {ROLES}"
                )
            if not isinstance(content, str):
                raise ConversationError(
                    backend,
                    where,
                    f"message {position} has content of type {type(content).__name__}; expected str",
                )
            messages.append(Message(role=role, content=content))
        checked.append(messages)
    return checked


def check_reply_count(backend: str, replies: Sequence[str], expected: int) -> list[str]:
    """Enforce the contract: exactly `expected` string replies, else `LLMError`."""
    replies = list(replies)
    if len(replies) != expected:
        raise LLMError(backend, f"a batch of {expected}", f"the backend returned {len(replies)} replies")
    for index, reply in enumerate(replies):
        if not isinstance(reply, str):
            raise LLMError(
                backend, f"conversation {index} of {expected}", f"reply is {type(reply).__name__}, not str"
            )
    return replies


def truncate_at_stop(text: str, stop: Sequence[str]) -> str:
    """Cut `text` before the earliest occurrence of any stop string (unchanged when none occurs)."""
    cut = len(text)
    for marker in stop:
        position = text.find(marker)
        if position != -1 and position < cut:
            cut = position
    return text[:cut]


def last_user_message(conversation: Sequence[Message]) -> str:
    """The content of the last user turn of a conversation ("" when it has none)."""
    for message in reversed(conversation):
        if message.get("role") == "user":
            return message.get("content", "")
    return ""
