"""GRPO through TRL: the encounter tool environment, the datasets, the single-stage reward functions,
and GRPO steps on the tiny random Llama (single stage, and multi-turn with the environment adapter)."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from mentalhospital_env.agents import grpo
from mentalhospital_env.rewards.shaping import COMPONENTS, RewardConfig, episode_return

from mentalhospital_env.cases import load_case


def _cases(n: int = 2):
    raw = json.loads(
        resources.files("mentalhospital_env.rewards.mentaleval")
        .joinpath("data/calibration_case.json")
        .read_text("utf-8")
    )
    return [load_case({**raw, "case_id": f"grpo-case-{i}"}) for i in range(n)]


@pytest.fixture(scope="module")
def cases():
    return _cases(2)


# ------------------------------------------------------------------------------------------ datasets


def test_encounter_dataset_has_one_row_per_case_with_a_fixed_patient_seed(cases):
    ds = grpo.encounter_dataset(cases, repeats=2, seed=7)
    assert ds.column_names == ["prompt", "case_id", "seed"]
    assert ds["case_id"] == [c.case_id for c in cases] * 2
    assert len(set(ds["seed"])) == 4
    assert ds[0]["prompt"][0] == {"role": "system", "content": grpo.DOCTOR_TOOL_PROMPT}
    assert ds[0]["prompt"][-1]["role"] == "user"
    only = grpo.encounter_dataset(cases, case_ids=[cases[1].case_id])
    assert only["case_id"] == [cases[1].case_id]
    with pytest.raises(ValueError, match="not cases of suite"):
        grpo.encounter_dataset(cases, case_ids=["nope"])


@pytest.mark.parametrize("task", ["diagnosis", "note", "treatment"])
def test_stage_datasets_show_no_answer(cases, task):
    ds = grpo.stage_dataset(task, cases)
    assert len(ds) == len(cases) and ds.column_names == ["prompt", "case_id"]
    user = ds[0]["prompt"][1]["content"]
    case = cases[0]
    if task in ("diagnosis", "note"):
        assert user.startswith("Interview:")
        for code in case.diagnosis.codes:
            assert code not in user
    else:
        assert user.startswith("Clinical note:")
        assert case.treatment.plan.strip()[:40] not in user  # the reference plan is cut out


# ------------------------------------------------------------------------------------------ stage rewards


def test_diagnosis_rewards_are_the_library_components(cases):
    case = cases[0]
    category, ndcg = grpo.stage_reward_functions("diagnosis", cases)
    assert (category.__name__, ndcg.__name__) == ("category", "ndcg")
    right = (
        "<diagnose>categories: "
        + ", ".join(case.diagnosis.categories)
        + " | disorders: "
        + "; ".join(f"{i}. {c}" for i, c in enumerate(case.diagnosis.codes, 1))
        + "</diagnose>"
    )
    wrong = "<diagnose>categories: anxiety | disorders: 1. F41.1</diagnose>"
    completions = [
        [{"role": "assistant", "content": right}],
        [{"role": "assistant", "content": wrong}],
        "no action here",
    ]
    ids = [case.case_id] * 3
    assert category(completions=completions, case_id=ids) == [pytest.approx(1.0), 0.0, 0.0]
    assert ndcg(completions=completions, case_id=ids) == [pytest.approx(1.0), 0.0, 0.0]
    assert grpo.stage_reward_weights("diagnosis", RewardConfig(weights={"ndcg": 2.0})) == [0.5, 2.0]


def test_note_and_treatment_rewards_rank_a_good_answer_above_a_poor_one(cases):
    case, chart = grpo.stage_source_charts(cases[:1])[0]
    (note,) = grpo.stage_reward_functions("note", cases)
    good, poor, empty = note(
        completions=[f"<write_note>{chart.note}</write_note>", "<write_note>Seen today.</write_note>", ""],
        case_id=[case.case_id] * 3,
    )
    assert good > poor >= 0.0 and empty == 0.0
    (treatment,) = grpo.stage_reward_functions("treatment", cases)
    assert treatment.__name__ == "treatment_appropriateness"
    good, poor, none = treatment(
        completions=[f"<treat>{chart.treatment}</treat>", "<treat>Rest.</treat>", "<treat></treat>"],
        case_id=[case.case_id] * 3,
    )
    assert 0.0 <= poor < good <= 1.0 and none == 0.0


def test_reward_functions_refuse_unknown_cases(cases):
    (note,) = grpo.stage_reward_functions("note", cases)
    with pytest.raises(KeyError, match="not in the suite"):
        note(completions=["x"], case_id=["other-case"])
    with pytest.raises(ValueError, match="unknown single-stage task"):
        grpo.stage_reward_functions("surgery", cases)


# ------------------------------------------------------------------------------------------ the adapter


def _play(env: grpo.ClinicToolEnv, case) -> None:
    env.ask("What brings you here today? That sounds hard.")
    env.ask("How have you been sleeping?")
    env.order_exams(["TSH", "urine drug screen"])
    env.write_note("Chief complaint: little sleep and high energy. Assessment: manic episode.")
    env.diagnose(list(case.diagnosis.categories), list(case.diagnosis.codes))
    env.treat("Lithium 300 mg twice daily; safety plan; follow up in one week.")


def test_adapter_steps_the_encounter_and_its_reward_is_the_library_return(cases):
    case = cases[0]
    row = grpo.encounter_dataset(cases)[0]
    env = grpo.ClinicToolEnv.factory(suite=cases, turn_budget=10)()
    walk_in = env.reset(**row)
    assert "year-old" in walk_in and case.diagnosis.codes[0] not in walk_in
    reply = env.ask("What brings you here today?")
    assert reply.startswith("Patient:")
    _play(env, case)
    assert env.encounter.ended and env.steps_taken == 7
    totals = env.component_totals
    assert set(totals) <= set(COMPONENTS)
    assert totals["turn"] == -7.0 and totals["category"] == pytest.approx(1.0)
    # The reward is the library shaper's: replaying the chart through RewardShaper gives the same return.
    expected, _ = episode_return(case, env.encounter.chart, RewardConfig())
    assert env.get_reward() == pytest.approx(expected, abs=1e-6)
    assert "encounter is over" in env.ask("Anything else?")


def test_adapter_never_raises_on_bad_tool_arguments(cases):
    env = grpo.ClinicToolEnv.factory(suite=cases)()
    env.reset(**grpo.encounter_dataset(cases)[0])
    for text in (env.treat(""), env.order_exams([]), env.diagnose([], ["not a disorder"]), env.ask("")):
        assert text.startswith("Invalid action")
    assert env.component_totals["invalid_action"] == -4.0
    assert env.get_reward() < 0


def test_a_group_starts_from_the_same_case_and_patient(cases):
    row = grpo.encounter_dataset(cases)[1]
    a, b = (grpo.ClinicToolEnv.factory(suite=cases)() for _ in range(2))
    assert a.reset(**row) == b.reset(**row)
    assert a.encounter.case.case_id == b.encounter.case.case_id == cases[1].case_id
    assert a.ask("How is your mood?") == b.ask("How is your mood?")


def test_unfinished_rollout_is_scored_as_truncated(cases):
    env = grpo.ClinicToolEnv.factory(suite=cases)()
    env.reset(**grpo.encounter_dataset(cases)[0])
    env.ask("I'm sorry you've been going through this. What has been hardest?")
    before = env.get_reward()
    totals = env.component_totals
    assert totals["empathy"] > 0.0  # the end-of-episode MentalEval payment was made
    assert env.get_reward() == before  # and only once


def test_component_functions_are_named_after_the_components(cases):
    fns = grpo.component_reward_functions()
    assert [f.__name__ for f in fns] == list(COMPONENTS)
    env = grpo.ClinicToolEnv.factory(suite=cases)()
    env.reset(**grpo.encounter_dataset(cases)[0])
    env.ask("How have you been sleeping?")
    turn = dict(zip(COMPONENTS, (f(environments=[env], completions=["x"]) for f in fns)))["turn"]
    assert turn == [-1.0]
    recipe = grpo.GRPORecipe(model="unused", suite=cases, report_to=())
    assert recipe.reward_weights() == [0.0] * len(COMPONENTS)


def test_recipe_checks_and_gpu_preset():
    with pytest.raises(ValueError, match="task"):
        grpo.GRPORecipe(task="surgery")
    with pytest.raises(ValueError, match="multiple of num_generations"):
        grpo.GRPORecipe(num_generations=3, per_device_train_batch_size=4)
    gpu = grpo.GRPORecipe.for_gpu(max_steps=100)
    assert gpu.use_vllm and not gpu.use_cpu and gpu.bf16 and gpu.max_steps == 100
    assert grpo.GRPORecipe(reward_config={"sparse": True}).reward_config.sparse


# ------------------------------------------------------------------------------------------ GRPO steps


def _teach_tool_call(trainer, cases, max_steps: int = 80, target_loss: float = 0.02) -> None:
    """Fit the trainer's tiny random policy, in place, to answer the encounter prompt (rendered exactly
    as TRL renders it: its chat template and the adapter's tool schema) with one ``ask`` tool call, so
    that the GRPO steps go through TRL's tool loop (a random model never emits a tool call)."""
    import torch

    tokenizer = trainer.processing_class
    env = grpo.ClinicToolEnv.factory(suite=cases)()
    row = trainer.train_dataset[0]
    walk_in = env.reset(**row)
    messages = row["prompt"][:-1] + [{"role": "user", "content": row["prompt"][-1]["content"] + walk_in}]
    rendered = tokenizer.apply_chat_template(
        conversation=[messages],
        tools=trainer._env_tools[None],
        chat_template=trainer.chat_template,
        add_generation_prompt=True,
        tokenize=True,
        return_dict=True,
    )
    p_ids = list(rendered["input_ids"][0])
    target = '<tool_call>\n{"name": "ask", "arguments": {"question": "How are you?"}}\n</tool_call><|im_end|>'
    t_ids = tokenizer(target, add_special_tokens=False)["input_ids"]
    model = trainer.model
    ids = torch.tensor([p_ids + t_ids])
    labels = torch.tensor([[-100] * len(p_ids) + t_ids])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    torch.manual_seed(0)
    model.train()
    for _ in range(max_steps):
        loss = model(input_ids=ids, labels=labels).loss
        if loss.item() < target_loss:  # the call is near-certain, also when sampled at temperature 0.7
            break
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    assert loss.item() < target_loss, f"the tiny model did not learn the tool call (loss {loss.item():.3f})"


@pytest.mark.slow  # importing trl and torch, then two steps: ~20-40 s on a shared CPU
def test_two_grpo_steps_single_stage(tmp_path, tiny_llama_path, cases):
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(tiny_llama_path, folder)
    recipe = grpo.GRPORecipe(
        model=str(folder),
        task="diagnosis",
        suite=cases,
        output_dir=str(tmp_path / "out"),
        max_steps=2,
        num_generations=2,
        per_device_train_batch_size=2,
        max_completion_length=16,
        report_to=(),
    )
    trainer = grpo.build_grpo_trainer(recipe)
    trainer.train()
    logs = [h for h in trainer.state.log_history if "reward" in h]
    assert len(logs) == 2
    assert {"rewards/category/mean", "rewards/ndcg/mean"} <= set(logs[0])


@pytest.mark.slow  # fitting the tool call, then two multi-turn steps: ~30-60 s on a shared CPU
def test_two_grpo_steps_with_the_environment_adapter(tmp_path, tiny_llama_path, cases):
    import shutil

    import torch

    folder = tmp_path / "model"
    shutil.copytree(tiny_llama_path, folder)
    # The prompt (instructions, tool schema, walk-in) is ~2,000 byte-level tokens: give the tiny model room,
    # or TRL drops every tool result as longer than the model's context.
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "max_position_embeddings": 8192}))
    recipe = grpo.GRPORecipe(
        model=str(folder),
        task="encounter",
        suite=cases,
        case_ids=(cases[0].case_id,),
        output_dir=str(tmp_path / "out"),
        max_steps=2,
        num_generations=2,
        per_device_train_batch_size=2,
        max_completion_length=320,
        max_tool_calling_iterations=1,
        temperature=0.7,
        report_to=(),
        system_prompt="You are the psychiatrist.",
    )
    trainer = grpo.build_grpo_trainer(recipe)
    _teach_tool_call(trainer, cases)
    batches = []
    original = trainer._generate_and_score_completions

    def keep(inputs):
        out = original(inputs)
        batches.append((out, [env.encounter.record() for env in trainer.environments]))
        return out

    trainer._generate_and_score_completions = keep
    trainer.train()

    logs = [h for h in trainer.state.log_history if "reward" in h]
    assert len(logs) == 2
    names = {f"rewards/{n}/mean" for n in COMPONENTS} | {"rewards/ClinicToolEnv/mean"}
    assert names <= set(logs[0])
    assert logs[0]["tools/call_frequency"] > 0
    assert logs[0]["rewards/turn/mean"] < 0  # each ask cost a turn: the tool stepped the encounter

    # Every rollout of the group met the row's case; the patient's reply tokens are masked out of the loss.
    tokenizer = trainer.processing_class
    checked = 0
    for out, records in batches:
        assert {r.case_id for r in records} == {cases[0].case_id}
        for i, record in enumerate(records):
            if not record.steps:
                continue
            ids, mask = out["completion_ids"][i], out["tool_mask"][i]
            masked = tokenizer.decode(ids[(mask == 0) & (out["completion_mask"][i] == 1)])
            kept = tokenizer.decode(ids[(mask == 1) & (out["completion_mask"][i] == 1)])
            reply = record.steps[0].observation
            assert reply[:30] in masked and reply[:30] not in kept
            assert "<tool_call>" in kept
            checked += 1
            assert torch.all(mask[: len(ids)] >= 0)
    assert checked > 0


def test_step_log_curves_and_plot(tmp_path):
    from types import SimpleNamespace

    from mentalhospital_env.agents.training_logging import (
        curve,
        plot_curves,
        read_step_log,
        step_log_callback,
    )

    log = step_log_callback(tmp_path / "steps.jsonl")
    for step, reward in ((1, 0.5), (2, float("nan")), (3, 1.5)):
        log.on_log(
            None,
            SimpleNamespace(global_step=step),
            None,
            logs={"reward": reward, "rewards/ndcg/mean": step / 10},
        )
    rows = read_step_log(tmp_path / "steps.jsonl")
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert curve(rows, "reward") == [(1, 0.5), (3, 1.5)]  # non-finite values are left out
    png = plot_curves(rows, ["reward", "rewards/ndcg/mean"], tmp_path / "curve.png")
    assert png is not None and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plot_curves(rows, ["never/logged"], tmp_path / "none.png") is None
