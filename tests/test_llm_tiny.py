"""The tiny random Llama that tests of model-running code build offline."""

from __future__ import annotations

import hashlib

from mentalhospital_env.llm.tiny import build_tiny_llama


def _digest(folder) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_tiny_llama_reloads_through_auto_classes_and_chats(tiny_llama_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(tiny_llama_path)
    tokenizer = AutoTokenizer.from_pretrained(tiny_llama_path)
    assert model.config.num_hidden_layers == 2 and model.config.hidden_size == 64
    assert 260 <= len(tokenizer) <= 400
    assert sum(p.numel() for p in model.parameters()) < 200_000
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": "How do you sleep? 睡得好吗"}],
        tokenize=False,
        add_generation_prompt=True,
    )
    assert prompt.endswith("<|im_start|>assistant\n")
    ids = tokenizer(prompt, add_special_tokens=False).input_ids
    assert tokenizer.decode(ids) == prompt  # byte-level BPE: lossless, any script
    assert tokenizer.pad_token == "<|pad|>" and tokenizer.eos_token == "<|im_end|>"


def test_tiny_llama_is_deterministic_in_its_seed(tmp_path, tiny_llama_path):
    again = build_tiny_llama(tmp_path / "again")
    other = build_tiny_llama(tmp_path / "other", seed=1)
    assert _digest(again) == _digest(tiny_llama_path)
    assert _digest(other)["model.safetensors"] != _digest(again)["model.safetensors"]
    assert _digest(other)["tokenizer.json"] == _digest(again)["tokenizer.json"]
