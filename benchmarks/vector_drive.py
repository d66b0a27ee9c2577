"""A random drive of every vector-environment configuration: zero exceptions and no hang, or say which.

Each configuration (both ids; sync and async; built by ``make_vector_env`` and by
``gymnasium.make_vec`` with Gymnasium's defaults) runs ``--steps`` steps of ``--envs`` copies with
random actions: for the text id a mix of valid questions, exams, notes, diagnoses, plans, junk and
samples of the action space; for the discrete id masked random indices, unmasked ones and indices out
of range. Copies finish, err and reset at different times in every order. Prints one line per
configuration (steps, episodes ended, invalid actions, exceptions, seconds, close seconds).

    python benchmarks/vector_drive.py --steps 300 --envs 4
"""

from __future__ import annotations

import argparse
import os
import threading
import time
import traceback

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import mentalhospital_env  # noqa: E402,F401
from mentalhospital_env.env import make_vector_env  # noqa: E402

TEXT_ACTIONS = [
    "<ask>What brings you in today?</ask>",
    "<ask>How has your sleep been?</ask>",
    "<ask>Do you ever hear voices when no one is there?</ask>",
    "<order_exams>PHQ-9; TSH</order_exams>",
    "<write_note>Low mood for two months, poor sleep, no suicidal ideation.</write_note>",
    "<diagnose>categories: depressive | disorders: 1. F32.1</diagnose>",
    "<treat>Sertraline 50 mg daily, CBT, review in two weeks.</treat>",
    "bad",
    "",
    '{"action": "ask", "utterance": "Any thoughts of harming yourself?"}',
    "<ask>unclosed",
]


def drive(env_id: str, asynchronous: bool, how: str, steps: int, n: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    kwargs = {"suite": "dev", "turn_budget": 12}
    t0 = time.perf_counter()
    if how == "make_vector_env":
        venv = make_vector_env(env_id, n, asynchronous=asynchronous, **kwargs)
    else:
        venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="async" if asynchronous else "sync", **kwargs)
    counts = {"steps": 0, "ended": 0, "invalid": 0, "exceptions": 0, "blank": 0}
    try:
        obs, info = venv.reset(seed=seed)
        for step in range(steps):
            if env_id == "MentalHospital-v0":
                actions = []
                for _ in range(n):
                    if rng.random() < 0.1:
                        actions.append(venv.single_action_space.sample()[:200])
                    else:
                        actions.append(TEXT_ACTIONS[int(rng.integers(len(TEXT_ACTIONS)))])
            else:
                size = venv.single_action_space.n
                actions = []
                for i in range(n):
                    r = rng.random()
                    if r < 0.7:
                        actions.append(int(rng.choice(np.flatnonzero(info["action_mask"][i]))))
                    elif r < 0.9:
                        actions.append(int(rng.integers(size)))
                    else:
                        actions.append(int(rng.integers(size, size + 50)) * (1 if rng.random() < 0.5 else -1))
                actions = np.array(actions)
            try:
                obs, reward, terminated, truncated, info = venv.step(actions)
            except Exception:  # noqa: BLE001  (counted and shown: the drive reports, it does not stop)
                counts["exceptions"] += 1
                traceback.print_exc()
                break
            counts["steps"] += 1
            counts["ended"] += int(np.sum(terminated | truncated))
            counts["invalid"] += int(np.sum(~info["valid"] & info["_valid"] & (info["turn"] > 0)))
            if env_id == "MentalHospital-v0":
                counts["blank"] += sum(1 for t in obs["text"] if not t.strip())
            if step % 97 == 96:
                obs, info = venv.reset(seed=seed + step)  # a reset in the middle of episodes
    finally:
        seconds = time.perf_counter() - t0
        c0 = time.perf_counter()
        closer = threading.Thread(target=venv.close, daemon=True)
        closer.start()
        closer.join(60)
        counts["close_s"] = round(time.perf_counter() - c0, 2) if not closer.is_alive() else "HANG"
    counts["seconds"] = round(seconds, 1)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    total_exceptions = 0
    for env_id in ("MentalHospital-v0", "MentalHospitalDiscrete-v0"):
        for asynchronous in (False, True):
            for how in ("make_vector_env", "make_vec"):
                counts = drive(env_id, asynchronous, how, args.steps, args.envs, args.seed)
                total_exceptions += counts["exceptions"]
                mode = "async" if asynchronous else "sync"
                print(f"{env_id:26s} {mode:5s} {how:15s} " + " ".join(f"{k}={v}" for k, v in counts.items()), flush=True)
    print(f"exceptions in all: {total_exceptions}")


if __name__ == "__main__":
    main()
