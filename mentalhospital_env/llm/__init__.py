"""One batch-first interface for every language model of the library, and its backends.

Patient, doctor and judge all call `LLMClient.generate(conversations, settings) -> list[str]`: one
reply per conversation, in order, or an `LLMError`. Backends: `TransformersClient` (any local causal
LM, GGUF included), `OpenAICompatibleClient` (vLLM, SGLang, hosted APIs), `ScriptedClient` (tests).
`make_client(spec)` builds one from a string. Importing this package is cheap: torch and
transformers load only when a local model first generates.
"""

from .base import (
    ConversationError,
    GenerationSettings,
    LLMClient,
    LLMError,
    Message,
    check_reply_count,
    last_user_message,
    truncate_at_stop,
    validate_conversations,
)
from .factory import ClientSpec, ClientSpecError, make_client, parse_client_spec
from .openai_compatible import OpenAICompatibleClient, parse_chat_completion, parse_retry_after
from .scripted import ScriptedCall, ScriptedClient
from .tiny import build_tiny_llama
from .transformers_backend import TransformersClient, installed_smollm2_gguf

__all__ = [
    "ClientSpec",
    "ClientSpecError",
    "ConversationError",
    "GenerationSettings",
    "LLMClient",
    "LLMError",
    "Message",
    "OpenAICompatibleClient",
    "ScriptedCall",
    "ScriptedClient",
    "TransformersClient",
    "build_tiny_llama",
    "check_reply_count",
    "installed_smollm2_gguf",
    "last_user_message",
    "make_client",
    "parse_chat_completion",
    "parse_client_spec",
    "parse_retry_after",
    "truncate_at_stop",
    "validate_conversations",
]
