"""A tiny random Llama, built offline in a fraction of a second, for tests of anything that runs a model.

`build_tiny_llama(folder)` writes a complete model folder that the `Auto*` classes of transformers
reload (`AutoModelForCausalLM.from_pretrained(folder)`, `AutoTokenizer.from_pretrained(folder)`),
that `TransformersClient(folder)` serves and that TRL trainers accept as `model=str(folder)`:

- tokenizer: byte-level BPE trained by `tokenizers` on a few clinic sentences (vocabulary 320:
  the 256 bytes, special tokens and merges), so any text, in any script, tokenizes; wrapped in
  `PreTrainedTokenizerFast` with a ChatML chat template
  (``<|im_start|>role\\ncontent<|im_end|>\\n``), ``<|im_end|>`` as end of sequence, ``<|pad|>`` as
  padding;
- model: `LlamaForCausalLM` with 2 layers, hidden size 64, 4 heads, random weights from `seed`
  (initializer range 0.2, so that different prompts get different greedy replies)
  (about 123k parameters), float32, saved as safetensors.

The same `seed` gives byte-identical weights and the same tokenizer. The model writes gibberish:
tests check plumbing (shapes, batching, order, determinism, stop strings, training steps), never
the meaning of replies.

In tests, use the session fixture `tiny_llama_path` from tests/conftest.py (built once per test
session)::

    def test_my_judge(tiny_llama_path):
        client = TransformersClient(tiny_llama_path)
"""

from __future__ import annotations

from pathlib import Path

TINY_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)

TINY_SPECIAL_TOKENS = ("<|pad|>", "<|bos|>", "<|im_start|>", "<|im_end|>")

#: Sentences the tokenizer is trained on: clinic talk, so merges cover common words.
TINY_CORPUS = (
    "The doctor asks how the patient has been sleeping and eating lately.",
    "I have felt low and tired for weeks, and I don't enjoy things any more.",
    "Do you ever hear voices when nobody is around? No, never.",
    "My mood has been up and down; some nights I don't sleep at all.",
    "The patient denies thoughts of self-harm and reports good support from family.",
    "Please describe what worries you most, and when it started.",
    "Diagnosis: major depressive disorder, single episode, moderate. Plan: sertraline 50 mg daily.",
    "Score each dimension from 1 to 5: empathy, professionalism, note quality, rigor, treatment.",
    "system user assistant: thank you for telling me; that sounds hard.",
    "我最近睡不好，心情很低落。",
)


def build_tiny_llama(folder: str | Path, *, seed: int = 0, vocab_size: int = 320) -> Path:
    """Build the tiny random Llama and its tokenizer into `folder` (created if needed); return it.

    Deterministic in `seed`; takes well under a second once torch and transformers are imported
    (importing them takes a few seconds).
    `vocab_size` must leave room for the 256 bytes and the special tokens (at least 260).
    """
    if vocab_size < 256 + len(TINY_SPECIAL_TOKENS):
        raise ValueError(f"vocab_size must be at least {256 + len(TINY_SPECIAL_TOKENS)}, got {vocab_size}")
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)

    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=1,
        special_tokens=list(TINY_SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(list(TINY_CORPUS), trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token="<|bos|>",
        eos_token="<|im_end|>",
        pad_token="<|pad|>",
        additional_special_tokens=["<|im_start|>"],
        chat_template=TINY_CHAT_TEMPLATE,
        model_max_length=2048,
    )
    tokenizer.save_pretrained(folder)

    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=4,
        max_position_embeddings=2048,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
        # Wider than the default 0.02 so that greedy replies differ from prompt to prompt
        # (with 0.02 every prompt decodes to the same few tokens, which hides batching bugs).
        initializer_range=0.2,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.bos_token_id = tokenizer.bos_token_id
    model.save_pretrained(folder)
    return folder
