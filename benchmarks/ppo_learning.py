"""Does PPO learn on ``MentalHospitalDiscrete-v0``? Trained policy against the random doctor, held-out cases.

Trains sb3-contrib's ``MaskablePPO`` (``agents/ppo.py``) on the training cases of the ``dev`` suite
with a budget that runs in a few minutes on 2 cores, then plays every held-out case (cases never seen
in training) with the greedy trained policy and with the random doctor of the discrete environment
(a uniform draw among the actions the mask allows), and prints both mean returns with 95% intervals
(Student t over episodes), the margin, the training time and the reward components of each; and the
trained policy's return as a text doctor (``PPODoctor`` on ``MentalHospital-v0``, what
``mentalhospital evaluate --doctor ppo:PATH`` plays) on the same held-out episodes. The
learning curve (return of training episodes, held-out evaluations during training, the random
baseline's interval) is saved as a PNG.

    python benchmarks/ppo_learning.py                      # default budget, runs/ppo_learning.png
    python benchmarks/ppo_learning.py --timesteps 4000     # quicker look
    python benchmarks/ppo_learning.py --png /tmp/curve.png --out runs/ppo_learning

"Learns" means: the lower end of PPO's interval lies above the upper end of random's. The script
exits with status 1 when it does not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from mentalhospital_env.agents.ppo import (
    HeldOutReturns,
    MaskedUniformPolicy,
    PPORecipe,
    evaluate_doctor_on_cases,
    evaluate_policy_on_cases,
    load_run,
    split_cases,
    train_ppo,
)


def benchmark_recipe(timesteps: int, out: str, seed: int, num_envs: int, vec_env: str) -> PPORecipe:
    """The budgeted recipe: ``dev`` suite, 20% of cases held out, small network, frequent updates."""
    return PPORecipe(
        suite="dev",
        held_out_fraction=0.2,
        split_seed=0,
        num_envs=num_envs,
        vec_env=vec_env,
        total_timesteps=timesteps,
        n_steps=128,
        batch_size=64,
        n_epochs=10,
        learning_rate=3e-4,
        ent_coef=0.01,
        net_arch=(128, 128),
        seed=seed,
        output_dir=out,
        tensorboard_log=f"{out}/tensorboard",
        eval_episodes_per_case=2,
        curve_evaluations=4,
        curve_eval_cases=16,
    )


def plot_curve(run: dict, random: HeldOutReturns, trained: HeldOutReturns, path: Path) -> None:
    """Training-episode returns (running mean), held-out evaluations, final held-out result and the random band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    episodes = np.array(run["curve"]["episodes"], dtype=float).reshape(-1, 2)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if len(episodes):
        window = max(1, min(100, len(episodes) // 10))
        smooth = np.convolve(episodes[:, 1], np.ones(window) / window, mode="valid")
        ax.plot(episodes[:, 0], episodes[:, 1], ".", alpha=0.12, color="tab:blue", markersize=3)
        ax.plot(episodes[window - 1 :, 0], smooth, color="tab:blue", label=f"training episodes (mean of {window})")
    evals = run["curve"]["evaluations"]
    if evals:
        xs = [t for t, _ in evals]
        ys = [e["mean"] for _, e in evals]
        lo = [e["mean"] - e["ci95"][0] if e["ci95"][0] is not None else 0 for _, e in evals]
        hi = [e["ci95"][1] - e["mean"] if e["ci95"][1] is not None else 0 for _, e in evals]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", color="tab:green", capsize=3,
                    label=f"held-out during training ({len(run['curve']['curve_cases'])} cases)")
    end = run["timesteps"]
    ax.errorbar([end], [trained.mean], yerr=[[trained.mean - trained.ci_low], [trained.ci_high - trained.mean]],
                fmt="s", color="tab:red", capsize=4, label=f"PPO, held-out (n={trained.n})")
    ax.axhspan(random.ci_low, random.ci_high, color="gray", alpha=0.25)
    ax.axhline(random.mean, color="gray", linestyle="--", label=f"random (masked uniform), held-out (n={random.n})")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("episode return")
    ax.set_title("MaskablePPO on MentalHospitalDiscrete-v0 (dev suite, 95% intervals)")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timesteps", type=int, default=20_000, help="PPO training budget in environment steps")
    parser.add_argument("--out", default="runs/ppo_learning", help="run folder (policy.zip, ppo_run.json, tensorboard/)")
    parser.add_argument("--png", default="runs/ppo_learning.png", help="where to save the learning curve")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--num-envs", type=int, default=2)
    parser.add_argument("--vec-env", choices=("dummy", "subproc"), default="dummy")
    args = parser.parse_args(argv)

    recipe = benchmark_recipe(args.timesteps, args.out, args.seed, args.num_envs, args.vec_env)
    split = split_cases(recipe)
    print(f"suite {recipe.suite}: {len(split.train)} training cases, {len(split.held_out)} held-out cases; "
          f"{recipe.total_timesteps} steps, {recipe.num_envs} envs ({recipe.vec_env})", flush=True)
    t0 = time.perf_counter()
    policy = train_ppo(recipe)
    wall = time.perf_counter() - t0
    run = load_run(policy)
    trained = HeldOutReturns.from_dict(run["held_out"])
    seeds = tuple(range(recipe.eval_episodes_per_case))
    t1 = time.perf_counter()
    random = evaluate_policy_on_cases(MaskedUniformPolicy(args.seed), split.held_out, suite=recipe.suite, seeds=seeds,
                                      turn_budget=recipe.turn_budget)
    random_seconds = time.perf_counter() - t1
    plot_curve(run, random, trained, Path(args.png))
    t2 = time.perf_counter()
    as_doctor = evaluate_doctor_on_cases(f"ppo:{policy}", split.held_out, suite=recipe.suite, seeds=seeds,
                                         turn_budget=recipe.turn_budget)
    doctor_seconds = time.perf_counter() - t2

    margin = trained.mean - random.mean
    learned = trained.ci_low is not None and random.ci_high is not None and trained.ci_low > random.ci_high
    print(f"training: {run['timesteps']} steps in {run['training_seconds']:.1f} s "
          f"({run['timesteps'] / run['training_seconds']:.0f} steps/s); train + held-out evaluation {wall:.1f} s")
    print(f"held-out mean return, PPO (greedy):       {trained}  mean length {trained.mean_length:.1f} turns")
    print(f"held-out mean return, random (masked):    {random}  mean length {random.mean_length:.1f} turns ({random_seconds:.1f} s)")
    print(f"held-out mean return, PPO as text doctor: {as_doctor}  mean length {as_doctor.mean_length:.1f} turns "
          f"({doctor_seconds:.1f} s; PPODoctor on MentalHospital-v0, replies read by the lexicon)")
    print(f"margin PPO - random: {margin:+.3f}; intervals {'do not overlap: PPO learned' if learned else 'overlap: NOT learned'}")
    print("reward components per episode (PPO | random):")
    for name in sorted(set(trained.components) | set(random.components)):
        print(f"  {name:28s} {trained.components.get(name, 0.0):+.3f} | {random.components.get(name, 0.0):+.3f}")
    print(f"learning curve: {args.png}; policy: {policy}")
    summary = {"ppo": trained.to_dict(), "random": random.to_dict(), "ppo_text_doctor": as_doctor.to_dict(), "margin": margin, "learned": learned,
               "training_seconds": run["training_seconds"], "timesteps": run["timesteps"], "png": args.png}
    (Path(args.out) / "benchmark.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0 if learned else 1


if __name__ == "__main__":
    sys.exit(main())
