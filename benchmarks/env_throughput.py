"""Steps per second of MentalHospital-v0 and MentalHospitalDiscrete-v0, and the speed-up of 4 async copies.

Both environments run with the offline patient (``full`` variant) and the library's reward shaper.
The headline figures compute rewards at the end of each episode (``rewards_at_end=True``: every
reward component computed once, when the episode ends, and included in the timing: the episode's
replies are matched against the interview checkpoints in one call, ``RewardShaper.on_asks``); the figures with
rewards paid as earned (dense, the scorers called after every action) are printed beside them, so the
cost of each part is visible.

Every configuration runs in a fresh process, so nothing one measurement leaves in memory speeds up
another. In it, every case's patient and shaper is built first (not timed; the cost per case is
printed), then three passes are timed:

* ``first``: ``--steps`` steps of a seeded doctor, every text met for the first time;
* ``again``: the same episodes once more, every text already met (a bound no training run reaches: it
  would need the same questions in the same order on the same case with the same patient draws);
* ``steady``: the training figure. A doctor with its own seed first plays ``--warmup-steps`` steps
  (default 10,000: some 500 episodes, each of the dev suite's 240 cases visited twice), untimed, then
  ``--steady-steps`` more steps of the same doctor are timed (default 20,000: once the caches hold half
  a million objects, a full pass of the cyclic garbage collector takes about half a second and comes
  every 10,000 steps or so, so a shorter window reads 15% high or low as it holds one or not). Every episode draws fresh questions and the
  patient fresh wordings, as in training, so this pass pays for what a long run keeps meeting for the
  first time (new replies, new notes, new pairs of a reply and a checkpoint) while everything it has
  met is kept. A training run of a policy spends nearly all its steps in this state, which is why it
  is the figure to set beside the targets; ``first`` is a process's first minute, ``again`` a replay.

What is kept across episodes (and so what ``again`` profits from), all bounded:

* per case, built once with the case's patient and shaper: the fact index (and the concepts its
  facts affirm), the checkpoints' embeddings and readings (interview and note, and the matcher's
  prefilter reading of each of the two lists), the judge's view of the case (guideline, record
  concepts);
* per text, in the process: the matcher's answers keyed on the whole call (checkpoint texts and ids,
  units: ``rewards.coverage.MATCH_MEMORY``; an episode's replies are answered from it only when the
  same replies come again in the same order), a reply's units, the matcher's own embeddings, statement readings and verdicts, the
  lexicon's mentions; for the judge, a doctor utterance's own reading (whether it reflects the last
  reply is read each time), a note's, a plan's and a diagnosis's own readings (held each time against
  the chart's support and the case's guideline), whether a reply voices distress; for the patient,
  its reading of a question and of a statement;
* per patient: whether a wording leaks or is supported by the record, a fact's self-contained wording.

Nothing is sampled or skipped: every reward component is computed for every episode, and the scores
are the same bit for bit with or without what is kept.

The doctor is a fixed clinical script, the same for both ids: ``--questions`` lexicon questions, one
exam order, a note, a diagnosis and a treatment (about 20 steps an episode), plus one malformed action
per episode; questions and cases are drawn from a seeded generator.

Memory (``--only ID``): the resident memory of the measuring process every ``--memory-slice`` steps of the
warm-up (default 10,000), with the memos still filling then (grown since the last reading and under 90%
of their cap) and the entries they gained, and Python's allocated blocks (``sys.getallocatedblocks``:
objects alive, whatever the allocator keeps); at the warm-up's end and at the end of the steady window,
the growth per 10,000 steps over that window as a share of the memory at its start, the memos that grew
during it, and a PASS/FAIL line against :data:`STEADY_GROWTH_BOUND` (under 1% per 10,000 steps). Every
memo is capped (``MENTALHOSPITAL_MEMO_SCALE`` scales every cap, see
``mentalhospital_env/knowledge/language.py``); the verdict measures a steady state only when no memo is
still filling in the steady window (the line says so when one is). ``--malloc-trim`` (a diagnostic) hands
the C allocator's free pages back before each reading, to tell memory in use from pages kept.

    python benchmarks/env_throughput.py                 # dev suite: 4,000 steps a pass; steady: 10,000 + 20,000
    python benchmarks/env_throughput.py --only MentalHospitalDiscrete-v0 --steps 200 --warmup-steps 60000 --steady-steps 20000
    python benchmarks/env_throughput.py --only MentalHospitalDiscrete-v0 --steps 100 --warmup-steps 8000 --steady-steps 8000 --memory-slice 2000 --memo-scale 0.02
    python benchmarks/env_throughput.py --steps 1000 --warmup-steps 2000 --steady-steps 2000 --suite handwritten
"""

from __future__ import annotations

import os

# single-threaded BLAS, as the CLI sets it: an episode's matrix products are tiny
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import gc
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np

import mentalhospital_env  # noqa: F401  (registers the ids)
from mentalhospital_env.env import make_vector_env
from mentalhospital_env.hospital.menu import default_menu


class TextScript:
    """The clinical script as protocol text."""

    def __init__(self, questions: int, seed: int):
        menu = default_menu()
        self.asks = [menu.items[i].action.to_text() for i in menu.kind_ranges["ask"]]
        self.exams = "<order_exams>PHQ-9; GAD-7; TSH; CBC</order_exams>"
        self.questions = questions
        self.rng = np.random.default_rng(seed)
        self.plan: list[str] = []

    def reset(self) -> None:
        picks = self.rng.choice(len(self.asks), size=self.questions, replace=False)
        self.plan = [self.asks[i] for i in picks] + [
            "I think the answer is obvious",  # one malformed action an episode
            self.exams,
            "<write_note>History and examination as discussed; see transcript.</write_note>",
            "<diagnose>categories: depressive, anxiety | disorders: 1. F32.1; 2. F41.1</diagnose>",
            "<treat>Sertraline 50 mg daily, CBT, safety plan, review in two weeks.</treat>",
        ]

    def act(self, observation: Any, info: dict) -> str:
        return self.plan.pop(0) if self.plan else "<treat>review</treat>"


class MenuScript:
    """The same script as menu indices, respecting the action mask."""

    def __init__(self, questions: int, seed: int):
        self.menu = default_menu()
        self.questions = questions
        self.rng = np.random.default_rng(seed)
        self.plan: list[int] = []

    def reset(self) -> None:
        r = self.menu.kind_ranges
        asks = list(self.rng.choice(r["ask"], size=self.questions, replace=False))
        self.plan = asks + [
            len(self.menu) + 7,  # one index out of range an episode
            int(self.rng.choice(r["order_exams"])),
            r["write_note"][0],
            int(self.rng.choice(r["diagnose"])),
            int(self.rng.choice(r["treat"])),
        ]

    def act(self, observation: Any, info: dict) -> int:
        return int(self.plan.pop(0)) if self.plan else self.menu.kind_ranges["treat"][-1]


def script_for(env_id: str, questions: int, seed: int) -> TextScript | MenuScript:
    """The clinical script for an id: protocol text for the text id, menu indices for the discrete one."""
    return (TextScript if env_id == "MentalHospital-v0" else MenuScript)(questions, seed=seed)


class Timed:
    """Wraps a patient or a shaper and adds the seconds spent in its methods to ``clock[key]``."""

    def __init__(self, inner: Any, clock: dict[str, float], key: str):
        self._inner, self._clock, self._key = inner, clock, key

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return attr(*args, **kwargs)
            finally:
                self._clock[self._key] += time.perf_counter() - start

        return timed


def timed_factories(
    clock: dict[str, float], variant: str = "full", reward_config: Any = None
) -> dict[str, Any]:
    """gymnasium.make kwargs that build the library's patient and shaper wrapped in :class:`Timed`."""
    from mentalhospital_env.hospital.clinic import (
        library_patient_factory,
        library_shaper_factory,
        reward_config_from,
    )

    patients = library_patient_factory(variant, "offline")
    shapers = library_shaper_factory(reward_config_from(reward_config))
    return {
        "patient_factory": lambda case, seed: Timed(patients(case, seed), clock, "patient"),
        "shaper_factory": lambda case: Timed(shapers(case), clock, "rewards"),
    }


@dataclass(frozen=True)
class _Silence:
    text: str = "I'm not sure."
    fact_ids: tuple[str, ...] = ()
    affirmed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()


class SilentPatient:
    """A stand-in patient that costs nothing, to measure the environment's own share of a step."""

    def reset(self, seed: int | None = None) -> None:
        return None

    def respond(self, utterance: str) -> _Silence:
        return _Silence()


def no_rewards(case: Any) -> Any:
    """A shaper factory that pays nothing (to measure the rest of a step)."""
    from mentalhospital_env.hospital.roles import NoRewards

    return NoRewards()


def env_alone() -> dict[str, Any]:
    """gymnasium.make kwargs for the environment alone: a patient that costs nothing and no rewards."""
    return {"patient_factory": lambda case, seed: SilentPatient(), "shaper_factory": no_rewards}


def warm(env: gym.Env) -> float:
    """Build the encounter (patient, shaper) of every case once, as a long run would; returns ms per case."""
    start = time.perf_counter()
    env.unwrapped.build_all_cases()
    return 1000 * (time.perf_counter() - start) / len(env.unwrapped.clinic.case_ids)


def run_single(
    env_id: str, steps: int, questions: int, clock: dict[str, float] | None = None, **kwargs: Any
) -> tuple[float, int]:
    """Steps per second of one environment in this process (cases built beforehand), and episodes finished.

    With ``clock``, the patient's and the shaper's time is added to ``clock["patient"]`` and
    ``clock["rewards"]`` and the total to ``clock["total"]``.
    """
    if clock is not None:
        kwargs.update(timed_factories(clock))
    env = gym.make(env_id, **kwargs)
    warm(env)
    if clock is not None:
        clock.update(patient=0.0, rewards=0.0)
    try:
        return run_env(env, env_id, steps, questions, clock if clock is not None else {})[:2]
    finally:
        env.close()


def run_vector(
    env_id: str, steps: int, questions: int, copies: int, asynchronous: bool, **kwargs: Any
) -> float:
    """Environment steps per second (all copies together) of a vector environment."""
    venv = make_vector_env(env_id, copies, asynchronous=asynchronous, **kwargs)
    venv.call("build_all_cases")  # every case in every copy, as run_single does
    doctors = [script_for(env_id, questions, seed=1 + i) for i in range(copies)]
    for d in doctors:
        d.reset()
    venv.reset(seed=0)
    rounds = max(1, steps // copies)
    done_last = np.zeros(copies, dtype=bool)
    start = time.perf_counter()
    for _ in range(rounds):
        for i, d in enumerate(doctors):
            if done_last[i]:  # autoreset step (NEXT_STEP mode): the copy was reset, start the script again
                d.reset()
        actions = [d.act(None, {}) for d in doctors]
        _obs, _rewards, terminated, truncated, _infos = venv.step(
            actions if env_id == "MentalHospital-v0" else np.array(actions)
        )
        done_last = np.logical_or(terminated, truncated)
    elapsed = time.perf_counter() - start
    venv.close()
    return rounds * copies / elapsed


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One configuration in this process (``--one``): build the cases, run the episodes twice."""
    common = {"suite": args.suite, "turn_budget": 40}
    out: dict[str, Any] = {}
    if args.one == "build":
        out["build_ms"] = warm(gym.make("MentalHospital-v0", **common))
        return out
    env_id = args.env_id
    if args.one == "vector":
        # the copies first: they work in their own processes, so this one is still cold for its own run
        many = run_vector(env_id, args.steps, args.questions, args.copies, True, rewards_at_end=True, **common)
        one, _ = run_single(env_id, args.steps, args.questions, rewards_at_end=True, **common)
        return {"one": one, "many": many}
    clock: dict[str, float] = {"patient": 0.0, "rewards": 0.0, "matcher": 0.0, "total": 0.0}
    if args.one == "rewards":
        kwargs: dict[str, Any] = {"rewards_at_end": args.rewards == "at episode end", **timed_factories(clock)}
        time_the_matcher(clock)
    elif args.one == "patient":
        kwargs = {"shaper_factory": no_rewards}
    else:
        kwargs = env_alone()
    env = gym.make(env_id, **kwargs, **common)
    warm(env)
    for visit in ("first", "again"):
        clock.update(patient=0.0, rewards=0.0, matcher=0.0, total=0.0)
        rate, eps, _ = run_env(env, env_id, args.steps, args.questions, clock)
        out[visit] = {"rate": rate, "episodes": eps, **clock, "rss_mb": rss_mb()}
    # the steady state: fresh draws after a long warm-up, the doctor going on from where the warm-up left it
    doctor = script_for(env_id, args.questions, seed=2)
    state, done, warm_rss = None, 0, []  # the warm-up in slices of 10,000 steps, the memory after each
    sizes: dict[str, int] = {}  # each memo's entries at the last reading
    while done < args.warmup_steps:
        part = min(args.memory_slice, args.warmup_steps - done)
        state = run_env(env, env_id, part, args.questions, {}, doctor, seed=1, state=state)[2]
        done += part
        if args.malloc_trim:
            malloc_trim()
        # memos still filling: grown since the last reading and under 90% of their cap (a memo keyed on a
        # finite set, the lexicon's concepts say, stops below its cap and is not counted once it stops)
        memos = memo_fill()
        filling = [size - sizes.get(n, 0) for n, size, cap in memos if size > sizes.get(n, 0) and size < 0.9 * cap]
        sizes = {n: size for n, size, _ in memos}
        warm_rss.append((done, rss_mb(), len(filling), sum(filling), sys.getallocatedblocks()))
    after_warmup = rss_mb()
    clock.update(patient=0.0, rewards=0.0, matcher=0.0, total=0.0)
    rate, eps, _ = run_env(env, env_id, args.steady_steps, args.questions, clock, doctor, state=state)
    if args.malloc_trim:
        malloc_trim()
    out["steady"] = {
        "rate": rate, "episodes": eps, **clock, "rss_mb": rss_mb(), "rss_warm_mb": after_warmup,
        "rss_warmup": warm_rss, "memos": memo_fill(), "memos_warm": sizes, "blocks": sys.getallocatedblocks(),
    }  # fmt: skip
    env.close()
    return out


MEMORY_SLICE = 10_000
"""Steps between two readings of the resident memory during the warm-up."""

STEADY_GROWTH_BOUND = 1.0
"""The steady-state test: after the warm-up, resident memory grows by less than this percentage of itself
per 10,000 steps. Every memo of the library is capped (``MENTALHOSPITAL_MEMO_SCALE``), so once the memos
are full the memory stays level but for the allocator's noise; growth above the bound means a memo is
still filling (listed beside the verdict) or something is kept without a cap."""


def memo_fill() -> list[tuple[str, int, int]]:
    """Every capped memo of the library in this process (``functools.lru_cache``, embedding caches and the
    patients' shared memos): name, entries, cap."""
    import functools

    from mentalhospital_env.knowledge.language import shared_memos
    from mentalhospital_env.rewards.embedders import EmbeddingCache

    found: dict[str, list[int]] = {}
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper):
            module = getattr(obj, "__module__", "") or ""
            if not module.startswith(("mentalhospital_env", "rewards")):
                continue
            info = obj.cache_info()
            if not info.maxsize or info.maxsize < 64:
                continue  # the loaders' one-entry caches
            name, size, cap = f"{module}.{obj.__qualname__}", info.currsize, info.maxsize
        elif isinstance(obj, EmbeddingCache):
            name, size, cap = "EmbeddingCache", len(obj), obj.max_size
        else:
            continue
        entry = found.setdefault(name, [0, 0])
        entry[0] += size
        entry[1] += cap
    for memo in shared_memos():  # the patients' memos: one per kind for every patient of the process
        found[memo.name] = [len(memo), memo.max_size]
    return [(name, size, cap) for name, (size, cap) in sorted(found.items())]


def malloc_trim() -> None:
    """Hand the C allocator's free memory back to the system (glibc ``malloc_trim(0)``; a diagnostic, ``--malloc-trim``:
    what RSS then still holds is in use, not free pages the allocator keeps)."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux: /proc/self/statm; elsewhere the peak so far)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def time_the_matcher(clock: dict[str, float]) -> None:
    """Add the seconds spent in ``Matcher.match`` (checkpoint entailment, part of the rewards) to
    ``clock["matcher"]`` (this process only: the measuring child)."""
    from mentalhospital_env.rewards.matching import Matcher

    match = Matcher.match

    def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return match(self, *args, **kwargs)
        finally:
            clock["matcher"] += time.perf_counter() - start

    Matcher.match = timed  # type: ignore[method-assign]


def run_env(
    env: gym.Env,
    env_id: str,
    steps: int,
    questions: int,
    clock: dict[str, float],
    doctor: TextScript | MenuScript | None = None,
    seed: int = 0,
    state: tuple[Any, dict] | None = None,
) -> tuple[float, int, tuple[Any, dict]]:
    """Like :func:`run_single` on an environment already made and warmed (a second call meets warm caches).

    ``doctor``: the script to play (default: a new one, seed 1); ``seed``: the first reset's; ``state``: the
    observation and info of an episode under way (the last call's third value, with the same ``doctor``) to
    go on with it instead of resetting. Returns steps per second, episodes finished and that state."""
    if doctor is None:
        doctor = script_for(env_id, questions, seed=1)
    if state is None:
        obs, info = env.reset(seed=seed)
        doctor.reset()
    else:
        obs, info = state
    episodes = 0
    collecting: list[float] = []  # the start of the cyclic garbage collector's pass under way

    def collector(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            collecting.append(time.perf_counter())
        elif collecting:
            clock["gc"] = clock.get("gc", 0.0) + time.perf_counter() - collecting.pop()

    clock["gc"] = 0.0
    gc.callbacks.append(collector)
    try:
        start = time.perf_counter()
        for _ in range(steps):
            obs, _reward, terminated, truncated, info = env.step(doctor.act(obs, info))
            if terminated or truncated:
                episodes += 1
                obs, info = env.reset()
                doctor.reset()
        clock["total"] = time.perf_counter() - start
    finally:
        gc.callbacks.remove(collector)
    return steps / max(clock["total"], 1e-9), episodes, (obs, info)


def in_fresh_process(args: argparse.Namespace, one: str, env_id: str = "", rewards: str = "") -> dict[str, Any]:
    """Run one configuration in a new Python process and return what it measured."""
    command = [
        sys.executable, __file__, "--one", one, "--env-id", env_id, "--rewards", rewards,
        "--suite", args.suite, "--steps", str(args.steps), "--questions", str(args.questions),
        "--copies", str(args.copies), "--warmup-steps", str(args.warmup_steps),
        "--steady-steps", str(args.steady_steps), "--memory-slice", str(args.memory_slice),
    ] + (["--malloc-trim"] if args.malloc_trim else [])  # fmt: skip
    env = {**os.environ, "MENTALHOSPITAL_MEMO_SCALE": str(args.memo_scale)} if args.memo_scale else None
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"measurement {one} {env_id} {rewards} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--suite", default="dev", help="bundled suite name or path (default dev)")
    parser.add_argument("--steps", type=int, default=4000, help="steps per measurement (default 4000)")
    parser.add_argument(
        "--questions", type=int, default=15, help="interview questions per episode (default 15)"
    )
    parser.add_argument(
        "--warmup-steps",
        type=int,
        default=10_000,
        help="untimed steps of fresh draws before the steady pass (default 10000)",
    )
    parser.add_argument(
        "--steady-steps",
        type=int,
        default=20_000,
        help="timed steps of the steady pass (default 20000)",
    )
    parser.add_argument("--copies", type=int, default=4, help="copies for the async measurement (default 4)")
    parser.add_argument(
        "--memo-scale",
        type=float,
        default=None,
        help="run the children with MENTALHOSPITAL_MEMO_SCALE set to this (the memos' size as a factor of the default)",
    )
    parser.add_argument(
        "--memory-slice",
        type=int,
        default=MEMORY_SLICE,
        help=f"warm-up steps between two readings of the resident memory (default {MEMORY_SLICE})",
    )
    parser.add_argument(
        "--malloc-trim",
        action="store_true",
        help="diagnostic: call glibc malloc_trim(0) before each memory reading (free pages the allocator keeps are not counted)",
    )
    parser.add_argument(
        "--only",
        default=None,
        help="measure one environment id only, with rewards at episode end (e.g. MentalHospitalDiscrete-v0)",
    )
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)  # one configuration, in a child process
    parser.add_argument("--env-id", default="", help=argparse.SUPPRESS)
    parser.add_argument("--rewards", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args)))
        return

    ids = ("MentalHospital-v0", "MentalHospitalDiscrete-v0")
    scale = args.memo_scale if args.memo_scale else float(os.environ.get("MENTALHOSPITAL_MEMO_SCALE", "1"))
    print(f"suite {args.suite}; offline patient (full); {args.questions} questions + 5 actions an episode; memo scale {scale:g}")
    if args.only:
        memory_only(args, args.only)
        return
    built = in_fresh_process(args, "build")["build_ms"]
    print(
        f"building a case's patient and shaper: {built:.1f} ms per case, once per process (not in the rates)"
    )
    print(
        f"{'id':28} {'rewards':15} {'pass':6} {'steps/s':>8} {'episodes':>8} {'patient ms/step':>16} {'rewards ms/ep':>14} {'of it matcher':>14} {'env us/step':>12} {'gc ms/ep':>9} {'RSS MB':>7}"
    )
    for env_id in ids:
        for label in ("at episode end", "dense"):
            found = in_fresh_process(args, "rewards", env_id, label)
            for visit in ("first", "again", "steady"):
                r = found[visit]
                eps = r["episodes"]
                steps = args.steady_steps if visit == "steady" else args.steps
                core = (r["total"] - r["patient"] - r["rewards"]) / steps
                print(
                    f"{env_id:28} {label:15} {visit:6} {r['rate']:8.0f} {eps:8d} {1000 * r['patient'] / steps:16.2f} "
                    f"{1000 * r['rewards'] / max(eps, 1):14.1f} {1000 * r['matcher'] / max(eps, 1):14.1f} {1e6 * core:12.0f}"
                    f" {1000 * r.get('gc', 0.0) / max(eps, 1):9.1f} {r.get('rss_mb', 0.0):7.0f}"
                )
    for env_id in ids:
        for one, what in (("patient", "(patient only)"), ("env", "(env alone)")):
            found = in_fresh_process(args, one, env_id)
            for visit in ("first", "again", "steady"):
                r = found[visit]
                print(f"{env_id:28} {'none':15} {visit:6} {r['rate']:8.0f} {r['episodes']:8d} {what:>16}")
    print(
        "Each row triple runs in a fresh process: first meets every text for the first time; again runs the same"
    )
    print("episodes once more (what is kept across episodes: see the module docstring); steady: fresh")
    print(f"episodes after {args.warmup_steps} untimed steps of them ({args.steady_steps} timed), the")
    print("figure a training run sees. patient ms/step: the")
    print(
        "patient's time per step; rewards ms/ep: the shaper's time per episode, of it matcher: in Matcher.match"
    )
    print("(checkpoint entailment for interview and note coverage); env us/step: everything else")
    print(
        "(parsing, the encounter, observations, Gymnasium wrappers). Rows 'none': no rewards, with the real"
    )
    print("patient or a silent one. gc ms/ep: the cyclic garbage collector's passes (already counted in the")
    print("columns before it: a pass runs inside whatever step allocated when it began). RSS MB: the measuring")
    print("process's resident memory after the pass; after 'steady' it is the level a long run stays at (every")
    print("memo is capped; MENTALHOSPITAL_MEMO_SCALE or --memo-scale sets the caps, see knowledge/language.py).")
    print()
    print(f"{'id':28} {'vector env (first pass)':24} {'env steps/s':>11} {'speed-up':>9}")
    for env_id in ids:
        found = in_fresh_process(args, "vector", env_id)
        one, many = found["one"], found["many"]
        print(f"{env_id:28} {'1 env, this process':24} {one:11.0f} {1.0:9.2f}")
        print(f"{env_id:28} {f'{args.copies} async copies':24} {many:11.0f} {many / one:9.2f}")


def memory_only(args: argparse.Namespace, env_id: str) -> None:
    """The memory figures of one environment (rewards at episode end): resident MB after each pass."""
    found = in_fresh_process(args, "rewards", env_id, "at episode end")
    print(f"{'id':28} {'pass':6} {'steps/s':>8} {'episodes':>8} {'RSS MB':>8}")
    for visit in ("first", "again", "steady"):
        r = found[visit]
        print(f"{env_id:28} {visit:6} {r['rate']:8.0f} {r['episodes']:8d} {r['rss_mb']:8.0f}")
    steady = found["steady"]
    print(
        "resident memory during the warm-up (memos still filling: grown since the last reading and under 90% of"
        " their cap, and the entries they gained; Python's allocated blocks, sys.getallocatedblocks): "
        + ", ".join(f"{mb:.0f} MB at {n} ({k}: +{gained}; {blocks / 1e6:.3f}M)" for n, mb, k, gained, blocks in steady["rss_warmup"])
    )
    print(f"Python's allocated blocks at the end of the steady window: {steady['blocks'] / 1e6:.3f}M")
    warm_mb, end_mb = steady["rss_warm_mb"], steady["rss_mb"]
    per_10k = (end_mb - warm_mb) * 10_000 / max(args.steady_steps, 1)
    share = 100 * per_10k / warm_mb
    print(
        f"steady-state memory: {warm_mb:.0f} MB at the end of the warm-up ({args.warmup_steps} steps), "
        f"{end_mb:.0f} MB after {args.steady_steps} more: {per_10k:+.1f} MB per 10,000 steps ({share:+.2f}% of it)"
    )
    below = [(n, size, cap) for n, size, cap in steady["memos"] if size < 0.9 * cap]
    was = steady.get("memos_warm", {})
    filling = [(n, size, cap) for n, size, cap in below if size > was.get(n, 0)]
    print(
        f"memos: {len(steady['memos']) - len(below)} of {len(steady['memos'])} at 90% of their cap or more; "
        f"{len(filling)} grew during the steady window and are below it"
        + (": " + ", ".join(f"{n.rsplit('.', 1)[-1]} {was.get(n, 0)}->{size}/{cap}" for n, size, cap in filling) if filling else "")
    )
    verdict = "PASS" if share < STEADY_GROWTH_BOUND else "FAIL"
    why = "" if verdict == "PASS" else (
        " (memos still filling: a longer warm-up or a smaller --memo-scale measures the level)" if filling
        else " (no memo still filling: something grows without a cap, or the allocator keeps freed pages; try --malloc-trim)"
    )  # fmt: skip
    print(f"{verdict}: growth {share:+.2f}% per 10,000 steps after the warm-up (bound: under {STEADY_GROWTH_BOUND:g}%){why}")


if __name__ == "__main__":
    main()
