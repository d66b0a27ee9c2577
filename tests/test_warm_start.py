"""The supervised warm start: scripted encounters rendered as GRPO rollouts, parsed back by TRL into the
clinician's own actions, and an SFT step on them (tiny random Llama, offline)."""

from __future__ import annotations

import json
import shutil
from importlib import resources

import pytest
from mentalhospital_env.agents import grpo, warm_start

from mentalhospital_env.cases import load_case

SHORT_PROMPT = "You are the psychiatrist. Call one tool per turn."


@pytest.fixture(scope="module")
def cases():
    raw = json.loads(
        resources.files("mentalhospital_env.rewards.mentaleval")
        .joinpath("data/calibration_case.json")
        .read_text("utf-8")
    )
    return [load_case({**raw, "case_id": f"warm-case-{i}"}) for i in range(2)]


@pytest.fixture(scope="module")
def tokenizer(tiny_llama_path):
    from transformers import AutoTokenizer

    return grpo.tool_calling_tokenizer(AutoTokenizer.from_pretrained(tiny_llama_path))


def test_the_adapter_exposes_exactly_the_five_doctor_actions_as_tools(cases):
    env = grpo.ClinicToolEnv(suite=cases)
    assert sorted(t.__name__ for t in grpo.tool_methods(env)) == sorted(warm_start.TOOL_ARGUMENTS)


def test_scripted_encounter_goes_through_every_stage_with_valid_tool_calls(cases):
    env = grpo.ClinicToolEnv(suite=cases, turn_budget=8)
    row = grpo.encounter_dataset(cases, system_prompt=SHORT_PROMPT)[0]
    played = warm_start.scripted_encounter(env, row)
    names = [call["tool_calls"][0]["function"]["name"] for call, _ in played.turns]
    assert names[0] == "ask" and names[-3:] == ["write_note", "diagnose", "treat"]
    assert env.encounter.ended and env.encounter.chart.invalid_actions == 0
    assert played.reward == pytest.approx(env.get_reward()) and played.reward > 0
    assert (
        played.prompt[-1]["content"].startswith("A new patient.\n")
        and "year-old" in played.prompt[-1]["content"]
    )
    first_reply = played.turns[0][1]
    assert first_reply["role"] == "tool" and first_reply["content"].startswith("Patient:")


def test_rendered_tool_calls_parse_back_into_the_clinicians_actions(cases, tokenizer):
    """The labelled tokens of each turn, parsed by TRL as GRPOTrainer parses a generation, give the tool call
    the scripted clinician made; replayed through the adapter they rebuild the same chart."""
    from trl.chat_template_utils import add_response_schema, parse_response

    parser = add_response_schema(tokenizer)
    env = grpo.ClinicToolEnv(suite=cases, turn_budget=8)
    tools = grpo.tool_methods(env)
    renderer = warm_start.RolloutRenderer(parser, tools)
    row = grpo.encounter_dataset(cases, system_prompt=SHORT_PROMPT)[0]
    played = warm_start.scripted_encounter(env, row)
    chart = env.encounter.chart
    ids, labels = renderer.rollout(played)
    assert len(ids) == len(labels)

    # Split the labelled tokens into the doctor's turns (each ends with the end-of-turn token).
    turns, current, start = [], [], None
    for i, (token, label) in enumerate(zip(ids, labels)):
        if label == -100:
            continue
        if not current:
            start = i
        current.append(token)
        if token == tokenizer.eos_token_id:
            turns.append((start, current))
            current = []
    assert len(turns) == len(played.turns) + 1  # every tool call, then the closing message
    replay = grpo.ClinicToolEnv(suite=cases, turn_budget=8)
    replay.reset(**row)
    for (start, turn_ids), (call, _) in zip(turns, played.turns):
        message = parse_response(parser, turn_ids, prefix=ids[:start], tools=tools)
        (parsed,) = message["tool_calls"]
        assert parsed["function"] == call["tool_calls"][0]["function"]
        getattr(replay, parsed["function"]["name"])(**parsed["function"]["arguments"])
    closing = parse_response(parser, turns[-1][1], prefix=ids[: turns[-1][0]], tools=tools)
    assert not closing.get("tool_calls") and closing["content"].strip() == warm_start.CLOSING_MESSAGE
    assert replay.encounter.chart.turns == chart.turns and replay.encounter.chart.note == chart.note
    assert replay.get_reward() == pytest.approx(played.reward)

    # The patient's words never carry a label.
    reply = played.turns[0][1]["content"]
    unlabelled = tokenizer.decode([t for t, label in zip(ids, labels) if label == -100])
    labelled = tokenizer.decode([t for t, label in zip(ids, labels) if label != -100])
    assert reply in unlabelled and reply not in labelled


def test_the_prompt_is_rendered_as_grpo_renders_it(cases, tokenizer):
    """Same tokens as TRL's prompt (its chat template, the adapter's tools, the walk-in on the user message)."""
    env = grpo.ClinicToolEnv(suite=cases)
    renderer = warm_start.RolloutRenderer(tokenizer, grpo.tool_methods(env))
    row = grpo.encounter_dataset(cases)[1]
    played = warm_start.scripted_encounter(env, row)
    expected = tokenizer.apply_chat_template(
        [
            row["prompt"][:-1]
            + [{**row["prompt"][-1], "content": row["prompt"][-1]["content"] + env.reset(**row)}]
        ],
        tools=grpo.tool_methods(env),
        add_generation_prompt=True,
        tokenize=True,
        return_dict=True,
    )["input_ids"][0]
    assert renderer.prompt_ids(played.prompt) == list(expected)


def test_split_cases_holds_out_the_last_cases(cases):
    train, held = warm_start.split_cases(cases, held_out=1)
    assert train == [cases[0].case_id] and held == [cases[1].case_id]
    with pytest.raises(ValueError, match="held_out"):
        warm_start.split_cases(cases, held_out=2)


@pytest.mark.slow  # importing trl, then one SFT step on the tiny model: ~10-20 s on a shared CPU
def test_one_sft_step_on_the_warm_start_dataset_then_the_tool_call_check(tmp_path, tiny_llama_path, cases):
    folder = tmp_path / "base"
    shutil.copytree(tiny_llama_path, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "max_position_embeddings": 16384}))
    result = warm_start.warm_start(
        str(folder),
        tmp_path / "warm",
        steps=1,
        suite=cases,
        case_ids=[cases[0].case_id],
        system_prompt=SHORT_PROMPT,
        turn_budget=8,
        max_length=16384,
    )
    assert result.steps == 1 and result.examples == 1 and len(result.losses) == 1
    assert result.losses[0] > 0
    saved = tmp_path / "warm" / "model"
    assert (saved / "config.json").is_file() and json.loads(
        (tmp_path / "warm" / "warm_start.json").read_text()
    )["steps"] == 1
    from transformers import AutoTokenizer
    from trl.chat_template_utils import supports_tool_calling

    assert supports_tool_calling(AutoTokenizer.from_pretrained(saved))  # a drop-in GRPORecipe(model=...)
    rate = warm_start.tool_call_rate(
        saved,
        cases,
        [cases[1].case_id],
        samples_per_case=2,
        max_new_tokens=8,
        system_prompt=SHORT_PROMPT,
        turn_budget=8,
    )
    assert rate.samples == 2 and 0 <= rate.valid <= rate.parsed <= rate.samples  # a random model: any rate


@pytest.mark.slow  # builds a GRPOTrainer on the tiny model: ~5-10 s on a shared CPU
def test_tool_results_and_prompts_are_the_tokens_the_grpo_trainer_builds(tmp_path, tiny_llama_path, cases):
    """The renderer's pieces equal the GRPOTrainer's own: its prompt tokens (its chat template, its tools)
    and its tool-result suffix (``GRPOTrainer._get_tool_suffix_ids``)."""
    folder = tmp_path / "model"
    shutil.copytree(tiny_llama_path, folder)
    recipe = grpo.GRPORecipe(
        model=str(folder),
        suite=cases,
        output_dir=str(tmp_path / "out"),
        max_steps=1,
        num_generations=2,
        per_device_train_batch_size=2,
        max_completion_length=16,
        report_to=(),
        system_prompt=SHORT_PROMPT,
        turn_budget=8,
    )
    trainer = grpo.build_grpo_trainer(recipe)
    tools = trainer._env_tools[None]
    env = grpo.ClinicToolEnv(suite=cases, turn_budget=8)
    assert [t.__name__ for t in tools] == [t.__name__ for t in grpo.tool_methods(env)]
    renderer = warm_start.RolloutRenderer(trainer.processing_class, tools)
    played = warm_start.scripted_encounter(env, trainer.train_dataset[0])
    for _, result in played.turns[:3]:
        assert renderer.tool_ids([result]) == list(trainer._get_tool_suffix_ids([result]))
    rendered = trainer.processing_class.apply_chat_template(
        conversation=[played.prompt],
        tools=tools,
        chat_template=trainer.chat_template,
        add_generation_prompt=True,
        tokenize=True,
        return_dict=True,
    )["input_ids"][0]
    assert renderer.prompt_ids(played.prompt) == list(rendered)
