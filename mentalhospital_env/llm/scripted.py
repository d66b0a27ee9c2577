"""A language model whose replies are written in advance: for tests and offline demonstrations.

Three ways to script it:

- a list of replies, handed out in order, one per conversation, across calls;
- a callable ``conversation -> reply``;
- a mapping from a substring of the last user message to a reply (the first key, in the mapping's
  order, that occurs in the last user message wins; matching ignores case).

With `default`, a conversation the script does not cover (list exhausted, no key matched) gets
that reply; without it, the call raises `LLMError` naming the conversation: a scripted client never
invents a reply silently. Every call is recorded in `calls` (conversations copied, settings kept).
Replies are cut at the settings' stop strings like those of every other backend.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .base import (
    GenerationSettings,
    LLMClient,
    LLMError,
    Message,
    check_reply_count,
    last_user_message,
    truncate_at_stop,
    validate_conversations,
)

Script = Sequence[str] | Callable[[Sequence[Message]], str] | Mapping[str, str]


@dataclass(frozen=True)
class ScriptedCall:
    """One `generate` call a `ScriptedClient` received."""

    conversations: list[list[Message]]
    settings: GenerationSettings


class ScriptedClient(LLMClient):
    """Replies from a script (list, callable or substring mapping); records every call.

    Example::

        client = ScriptedClient({"sleep": "I sleep badly.", "mood": "Low, mostly."}, default="Hm.")
        client.generate([[{"role": "user", "content": "How is your sleep?"}]])  # ["I sleep badly."]
        client.calls[-1].conversations
    """

    def __init__(
        self, script: Script | None = None, *, default: str | None = None, name: str = "scripted"
    ) -> None:
        if script is None and default is None:
            raise ValueError("ScriptedClient needs a script (list, callable or mapping) or a default reply")
        if isinstance(script, str):
            raise TypeError(
                "ScriptedClient script must be a list of replies, not a single string; use default="
            )
        self._replies: list[str] | None = None
        self._respond: Callable[[Sequence[Message]], str] | None = None
        self._keyed: list[tuple[str, str]] | None = None
        if script is None:
            pass
        elif isinstance(script, Mapping):
            self._keyed = [(str(key).lower(), _as_reply(value, key)) for key, value in script.items()]
        elif callable(script):
            self._respond = script
        elif isinstance(script, Sequence):
            self._replies = [_as_reply(reply, i) for i, reply in enumerate(script)]
        else:
            raise TypeError(
                f"ScriptedClient script of type {type(script).__name__} is not a list, callable or mapping"
            )
        self.default = default
        self.name = name
        self.calls: list[ScriptedCall] = []
        self._next = 0
        self._lock = threading.Lock()

    @property
    def conversations(self) -> list[list[Message]]:
        """Every conversation received so far, over all calls, in order."""
        return [conversation for call in self.calls for conversation in call.conversations]

    @property
    def remaining(self) -> int | None:
        """Replies left in a list script (None for callable or mapping scripts)."""
        return None if self._replies is None else len(self._replies) - self._next

    def generate(
        self,
        conversations: Sequence[Sequence[Message]],
        settings: GenerationSettings | None = None,
    ) -> list[str]:
        settings = settings or GenerationSettings()
        batch = validate_conversations(self.name, conversations)
        with self._lock:
            self.calls.append(ScriptedCall(copy.deepcopy(batch), settings))
            replies = [
                self._reply(conversation, index, len(batch)) for index, conversation in enumerate(batch)
            ]
        replies = [truncate_at_stop(reply, settings.stop) for reply in replies]
        return check_reply_count(self.name, replies, len(batch))

    def _reply(self, conversation: list[Message], index: int, total: int) -> str:
        where = f"conversation {index} of {total}"
        if self._respond is not None:
            try:
                reply = self._respond(conversation)
            except Exception as error:  # the script's own bug: name it
                raise LLMError(self.name, where, f"the scripted callable raised {error!r}") from error
            if not isinstance(reply, str):
                raise LLMError(
                    self.name, where, f"the scripted callable returned {type(reply).__name__}, not str"
                )
            return reply
        if self._replies is not None and self._next < len(self._replies):
            self._next += 1
            return self._replies[self._next - 1]
        if self._keyed is not None:
            asked = last_user_message(conversation).lower()
            for key, reply in self._keyed:
                if key in asked:
                    return reply
        if self.default is not None:
            return self.default
        if self._replies is not None:
            cause = f"the script's {len(self._replies)} replies are used up and no default is set"
        else:
            cause = f"no scripted key occurs in the last user message {last_user_message(conversation)!r} and no default is set"
        raise LLMError(self.name, where, cause)


def _as_reply(value: object, origin: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"scripted reply for {origin!r} must be a str, got {type(value).__name__}")
    return value
