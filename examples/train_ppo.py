"""Train a PPO doctor on ``MentalHospitalDiscrete-v0`` and use it in ``mentalhospital evaluate``.

sb3-contrib's ``MaskablePPO`` learns to pick, turn by turn, one entry of the discrete environment's
fixed menu (a question, an exam order, a note template, a diagnosis, a treatment plan) under the
environment's action mask. Cases of the suite are split once into training and held-out cases; the
held-out mean return (95% interval) is printed at the end and saved in ``ppo_run.json``.

CPU smoke run (a few hundred steps, well under a minute)::

    python examples/train_ppo.py --smoke

The full recipe (``FULL`` below: 200k steps, 8 environment copies in their own processes). The
environment, not the network, is the bottleneck: about 200 steps per second per free core were
measured here (CPU time of ``benchmarks/ppo_learning.py``), so expect roughly 200k / (200 x free
cores) seconds, a few minutes on 8 free cores, plus the held-out evaluations::

    python examples/train_ppo.py --out runs/ppo

Then play the trained policy on the text environment, as any other doctor::

    mentalhospital evaluate --doctor ppo:runs/ppo/policy.zip --suite test-v2 --limit 40 --out results/ppo
    tensorboard --logdir runs/ppo/tensorboard      # rollout/ep_rew_mean, reward_components/<name>, eval/...

More cores: raise ``--num-envs`` to the number of free cores and keep ``--vec-env subproc`` (each
copy steps in its own process; with ``dummy`` all copies share one core). Keep
``n_steps * num_envs`` (the rollout) around 1-4k steps: lower ``--n-steps`` as you add copies. A GPU
does not help: the policy is a small MLP and the time goes into the simulated patient and the
scorers, so train with ``device="cpu"``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from mentalhospital_env.agents.ppo import PPORecipe, load_run, train_ppo

#: the full recipe: a long run over the dev suite's training cases
FULL = PPORecipe(
    suite="dev",
    held_out_fraction=0.2,
    num_envs=8,
    vec_env="subproc",
    total_timesteps=200_000,
    n_steps=256,
    batch_size=256,
    n_epochs=10,
    learning_rate=3e-4,
    ent_coef=0.01,
    net_arch=(256, 256),
    eval_episodes_per_case=3,
    curve_evaluations=10,
    curve_eval_cases=48,
    output_dir="runs/ppo",
    tensorboard_log="runs/ppo/tensorboard",
    verbose=1,
)

#: the CPU smoke run: a few hundred steps on a short turn budget, a handful of held-out cases
SMOKE = dataclasses.replace(
    FULL,
    held_out_fraction=0.05,
    turn_budget=12,
    num_envs=2,
    vec_env="dummy",
    total_timesteps=512,
    n_steps=128,
    batch_size=64,
    n_epochs=2,
    net_arch=(64, 64),
    eval_episodes_per_case=1,
    curve_evaluations=0,
    output_dir="runs/ppo_smoke",
    tensorboard_log="runs/ppo_smoke/tensorboard",
    verbose=0,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train MaskablePPO on MentalHospitalDiscrete-v0 (see the module docstring).")
    parser.add_argument("--smoke", action="store_true", help="the CPU smoke run instead of the full recipe")
    parser.add_argument("--out", help="run folder (default: runs/ppo, or runs/ppo_smoke with --smoke)")
    parser.add_argument("--suite", help="bundled suite name or case folder")
    parser.add_argument("--timesteps", type=int, help="total environment steps")
    parser.add_argument("--num-envs", type=int, help="environment copies")
    parser.add_argument("--vec-env", choices=("dummy", "subproc"), help="copies in one process or one process each")
    parser.add_argument("--n-steps", type=int, help="rollout length per copy")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)

    recipe = SMOKE if args.smoke else FULL
    changes = {
        "suite": args.suite,
        "total_timesteps": args.timesteps,
        "num_envs": args.num_envs,
        "vec_env": args.vec_env,
        "n_steps": args.n_steps,
        "seed": args.seed,
    }
    if args.out:
        changes |= {"output_dir": args.out, "tensorboard_log": f"{args.out}/tensorboard"}
    recipe = dataclasses.replace(recipe, **{k: v for k, v in changes.items() if v is not None})

    policy = train_ppo(recipe)
    run = load_run(policy)
    held = run["held_out"]
    low, high = held["ci95"]
    interval = f"[95% CI {low:.3f}, {high:.3f}]" if low is not None else "(one episode: no interval)"
    print(f"trained {run['timesteps']} steps in {run['training_seconds']:.1f} s")
    print(f"held-out mean return {held['mean']:.3f} {interval} over {held['n']} episodes")
    print(json.dumps({"policy": str(policy), "doctor": f"ppo:{policy}"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
