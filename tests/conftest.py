"""Shared pytest fixtures.

`tiny_llama_path`: a tiny random Llama with a chat template, built offline once per test session
(see mentalhospital_env/llm/tiny.py). Use it wherever a test needs a real transformers model:
`TransformersClient(tiny_llama_path)`, `AutoModelForCausalLM.from_pretrained(tiny_llama_path)`, or
TRL's `model=str(tiny_llama_path)`. Treat the folder as read-only (it is shared by the session);
copy it, or call `build_tiny_llama(tmp_path)` yourself, to train or change it.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_llama_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Folder of the tiny random Llama (seed 0), built once per session."""
    from mentalhospital_env.llm.tiny import build_tiny_llama

    return build_tiny_llama(tmp_path_factory.mktemp("tiny_llama"))


@pytest.fixture(scope="session")
def matcher():
    """The offline matcher (hashing embedder) the matcher tests read pairs with, built once per session (a test
    file that needs another configuration defines its own ``matcher``, which takes precedence)."""
    from mentalhospital_env.rewards.matching import Matcher, MatcherConfig

    return Matcher(MatcherConfig(embedder="hashing"))


def entailed(matcher, checkpoint: str, output: str) -> bool:
    """Whether ``matcher`` credits ``checkpoint`` from ``output`` (``from conftest import entailed``)."""
    return matcher.match([checkpoint], [output])[0] is not None
