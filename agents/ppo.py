"""PPO on ``MentalHospitalDiscrete-v0`` with action masks, and the trained policy as a doctor.

Three parts, each usable alone:

* :class:`PPORecipe` and :func:`train_ppo`: sb3-contrib's ``MaskablePPO`` trained on the discrete
  environment (the fixed menu of :mod:`mentalhospital_env.hospital.menu`, the findings vector as
  observation) through Stable-Baselines3 vector environments (``DummyVecEnv`` or ``SubprocVecEnv``:
  SB3 consumes its own ``VecEnv`` type, not Gymnasium's vector envs that
  ``mentalhospital_env.env.make_vector_env`` builds). The masks come from the environment's
  ``action_masks()`` (sb3-contrib finds it through ``get_wrapper_attr``/``env_method``), so the
  policy never samples an action that is out of stage or already taken. The suite's cases are split
  once, by a seeded shuffle, into training cases and held-out cases; training episodes draw only
  from the training cases and the final evaluation runs only on the held-out ones. Every reward
  component of ``info["reward_components"]`` is logged as its own TensorBoard scalar
  (``reward_components/<name>``, the per-episode total averaged over the episodes of a rollout) by
  :class:`RewardComponentsCallback`, beside SB3's own ``rollout/ep_rew_mean``.
* :func:`evaluate_policy_on_cases`: the mean return (with a 95% Student-t interval) of a trained
  model or of any masked policy (e.g. :class:`MaskedUniformPolicy`, the random baseline) over named
  cases, one deterministic episode per case and seed; :func:`evaluate_doctor_on_cases` the same for a
  roster doctor (``ppo:PATH``) on the text environment.
* :class:`PPODoctor`: the trained policy as a :class:`~mentalhospital_env.agents.base.Doctor` on the
  *text* environment ``MentalHospital-v0`` (what ``mentalhospital evaluate --doctor ppo:PATH``
  runs). It keeps its own :class:`~mentalhospital_env.hospital.menu.Findings`, read from the text it
  is shown (:class:`TextFindingsReader`), picks a menu entry with the policy under the same mask the
  discrete environment would give, and sends that entry as protocol text (notes filled from its
  findings by the menu itself).

A trained run is a folder: ``policy.zip`` (``MaskablePPO.save``), ``ppo_run.json`` (the recipe, the
case split, the menu and feature fingerprints, the held-out evaluation, the learning curve, the
training time) and ``tensorboard/`` when logging is on.

Known gap: the discrete environment marks a concept affirmed or denied from the built-in patient's
own account of its reply, while :class:`PPODoctor` (which sees only text) reads the reply with the
lexicon, as ``Findings`` does for any patient that gives no such account. The two readings agree
on most but not all concepts, so a policy that leans on those features sees slightly different
vectors in ``mentalhospital evaluate`` than in training.

torch, stable-baselines3 and sb3-contrib are imported inside the functions that need them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from mentalhospital_env.agents.base import Action, Doctor, Info, Observation

ENV_ID = "MentalHospitalDiscrete-v0"
POLICY_FILE = "policy.zip"
RUN_FILE = "ppo_run.json"


# ------------------------------------------------------------------------------------------ recipe


@dataclass(frozen=True)
class PPORecipe:
    """Everything a PPO run depends on; ``train_ppo(recipe)`` is reproducible from it.

    Cases: ``suite`` is split by a shuffle seeded with ``split_seed`` into held-out cases (a share
    ``held_out_fraction``, or the named ``held_out_case_ids``) and training cases (the rest, or the
    named ``train_case_ids``); the two never overlap. Environments: ``num_envs`` copies, in one
    process (``vec_env="dummy"``) or one process each (``"subproc"``, worth it with a free core per
    copy). ``reward_config`` is a mapping of ``rewards.shaping.RewardConfig`` fields (``None``: the
    library defaults). The PPO hyperparameters are sb3-contrib ``MaskablePPO``'s own names;
    ``n_steps`` is per environment copy. ``eval_episodes_per_case`` episodes (seeds ``0..k-1``) run
    on each held-out case after training; ``curve_evaluations`` evenly spaced held-out evaluations
    on ``curve_eval_cases`` cases are also taken during training for the learning curve (0 for none).
    ``tensorboard_log`` (``None`` to turn off) is a folder for SB3's TensorBoard writer.
    """

    suite: str = "dev"
    held_out_fraction: float = 0.2
    split_seed: int = 0
    train_case_ids: tuple[str, ...] | None = None
    held_out_case_ids: tuple[str, ...] | None = None
    turn_budget: int = 40
    reward_config: Mapping[str, Any] | None = None
    patient_variant: str = "full"
    num_envs: int = 2
    vec_env: str = "dummy"
    total_timesteps: int = 20_000
    learning_rate: float = 3e-4
    n_steps: int = 128
    batch_size: int = 64
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    net_arch: tuple[int, ...] = (128, 128)
    seed: int = 0
    device: str = "cpu"
    torch_threads: int = 1
    output_dir: str = "runs/ppo"
    tensorboard_log: str | None = "runs/ppo/tensorboard"
    eval_episodes_per_case: int = 1
    curve_evaluations: int = 0
    curve_eval_cases: int = 16
    verbose: int = 0

    def __post_init__(self) -> None:
        if not 0.0 < self.held_out_fraction < 1.0:
            raise ValueError(f"PPORecipe.held_out_fraction must be between 0 and 1, got {self.held_out_fraction}")
        if self.vec_env not in ("dummy", "subproc"):
            raise ValueError(f"PPORecipe.vec_env must be 'dummy' or 'subproc', got {self.vec_env!r}")
        for name in ("num_envs", "total_timesteps", "n_steps", "batch_size", "n_epochs", "turn_budget", "torch_threads", "eval_episodes_per_case"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"PPORecipe.{name} must be a positive integer, got {value!r}")
        if self.curve_evaluations < 0 or self.curve_eval_cases < 1:
            raise ValueError("PPORecipe.curve_evaluations must be >= 0 and curve_eval_cases >= 1")
        for name in ("train_case_ids", "held_out_case_ids", "net_arch"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        for name in ("train_case_ids", "held_out_case_ids", "net_arch"):
            if out[name] is not None:
                out[name] = list(out[name])
        if out["reward_config"] is not None:
            out["reward_config"] = dict(out["reward_config"])
        return out

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> PPORecipe:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise ValueError(f"PPORecipe.from_dict: unknown fields {unknown}; known: {sorted(known)}")
        return cls(**dict(raw))

    def env_kwargs(self, case_ids: Sequence[str]) -> dict[str, Any]:
        """``gymnasium.make`` keyword arguments of the discrete environment over ``case_ids``."""
        return {
            "suite": self.suite,
            "case_ids": list(case_ids),
            "patient_variant": self.patient_variant,
            "turn_budget": self.turn_budget,
            "reward_config": dict(self.reward_config) if self.reward_config is not None else None,
        }


@dataclass(frozen=True)
class CaseSplit:
    """Training cases and held-out cases of one suite (disjoint, each in suite order)."""

    train: tuple[str, ...]
    held_out: tuple[str, ...]


def split_cases(recipe: PPORecipe) -> CaseSplit:
    """The recipe's case split: named ids where given, else a seeded shuffle of the suite."""
    from mentalhospital_env.hospital.clinic import resolve_suite

    suite = resolve_suite(recipe.suite)
    ids = list(suite.case_ids)
    for name in ("train_case_ids", "held_out_case_ids"):
        unknown = [c for c in getattr(recipe, name) or () if c not in suite]
        if unknown:
            raise ValueError(f"PPORecipe.{name} names cases not in suite {suite.name!r}: {unknown}")
    if recipe.held_out_case_ids is not None:
        held = set(recipe.held_out_case_ids)
    else:
        order = np.random.default_rng(recipe.split_seed).permutation(len(ids))
        n_held = max(1, round(recipe.held_out_fraction * len(ids)))
        if n_held >= len(ids):
            raise ValueError(f"suite {suite.name!r} has {len(ids)} case(s): too few to hold any out and train on the rest")
        held = {ids[i] for i in order[:n_held]}
    if recipe.train_case_ids is not None:
        train = set(recipe.train_case_ids)
    else:
        train = set(ids) - held
    overlap = sorted(train & held)
    if overlap:
        raise ValueError(f"training and held-out cases overlap: {overlap}")
    if not train or not held:
        raise ValueError("the case split left no training or no held-out case")
    return CaseSplit(tuple(c for c in ids if c in train), tuple(c for c in ids if c in held))


# -------------------------------------------------------------------------------- environments


class DiscreteClinicFactory:
    """A picklable factory of one ``MentalHospitalDiscrete-v0`` copy wrapped in SB3's ``Monitor``.

    Picklable so that ``SubprocVecEnv`` can build copies in fresh processes (any start method); the
    import of ``mentalhospital_env`` registers the id there.
    """

    def __init__(self, env_kwargs: Mapping[str, Any], monitor: bool = True):
        self.env_kwargs = dict(env_kwargs)
        self.monitor = monitor

    def __call__(self) -> Any:
        import gymnasium

        import mentalhospital_env  # noqa: F401  (registers the ids in a fresh process)

        env = gymnasium.make(ENV_ID, **self.env_kwargs)
        if self.monitor:
            from stable_baselines3.common.monitor import Monitor

            env = Monitor(env)
        return env


def build_vec_env(recipe: PPORecipe, case_ids: Sequence[str]) -> Any:
    """``recipe.num_envs`` copies of the discrete environment over ``case_ids`` as an SB3 ``VecEnv``."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    factories = [DiscreteClinicFactory(recipe.env_kwargs(case_ids)) for _ in range(recipe.num_envs)]
    if recipe.vec_env == "subproc" and recipe.num_envs > 1:
        venv = SubprocVecEnv(factories)
    else:
        venv = DummyVecEnv(factories)
    venv.seed(recipe.seed)
    return venv


def menu_fingerprint() -> dict[str, Any]:
    """Sizes and hashes of the menu and the feature vector a policy was trained against."""
    from mentalhospital_env.hospital.menu import default_menu

    menu = default_menu()
    names = feature_names()
    return {
        "menu_size": len(menu),
        "menu_sha256": hashlib.sha256("\n".join(menu.labels).encode()).hexdigest()[:16],
        "feature_size": len(names),
        "features_sha256": hashlib.sha256("\n".join(names).encode()).hexdigest()[:16],
    }


def feature_names() -> list[str]:
    """The discrete environment's feature names for the bundled knowledge base (turn budget aside)."""
    return _findings_for(1).feature_names()


def _findings_for(turn_budget: int) -> Any:
    from mentalhospital_env.hospital.menu import Findings
    from mentalhospital_env.knowledge import load_knowledge

    kb = load_knowledge()
    return Findings([c.id for c in kb.lexicon.concepts], [e.name for e in kb.exams], turn_budget)


# --------------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class HeldOutReturns:
    """Returns of a policy over named cases: mean with a 95% interval, and per-component means."""

    mean: float
    ci_low: float | None
    ci_high: float | None
    n: int
    returns: tuple[float, ...]
    components: dict[str, float]
    mean_length: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "ci95": [self.ci_low, self.ci_high],
            "n": self.n,
            "mean_length": self.mean_length,
            "components": dict(self.components),
            "returns": list(self.returns),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> HeldOutReturns:
        """The inverse of :meth:`to_dict` (as stored in ``ppo_run.json``)."""
        low, high = raw["ci95"]
        return cls(float(raw["mean"]), low, high, int(raw["n"]), tuple(raw["returns"]), dict(raw["components"]), float(raw["mean_length"]))

    def __str__(self) -> str:
        if self.ci_low is None:
            return f"{self.mean:.3f} (n={self.n})"
        return f"{self.mean:.3f} [95% CI {self.ci_low:.3f}, {self.ci_high:.3f}] (n={self.n})"


MaskedPolicy = Callable[[np.ndarray, np.ndarray], int]
"""A policy as a function of (observation vector, action mask) to a menu index."""


class MaskedUniformPolicy:
    """The random baseline: a uniform draw among the actions the mask allows (seeded)."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


class ModelPolicy:
    """A trained ``MaskablePPO`` model as a masked policy (greedy unless ``deterministic=False``)."""

    def __init__(self, model: Any, deterministic: bool = True):
        self.model = model
        self.deterministic = deterministic

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = self.model.predict(observation, action_masks=mask.astype(bool), deterministic=self.deterministic)
        return int(np.asarray(action).reshape(()))


def evaluate_policy_on_cases(
    policy: Any,
    case_ids: Sequence[str],
    *,
    suite: str = "dev",
    seeds: Sequence[int] = (0,),
    turn_budget: int = 40,
    reward_config: Mapping[str, Any] | None = None,
    patient_variant: str = "full",
    deterministic: bool = True,
    env: Any = None,
) -> HeldOutReturns:
    """Mean return of ``policy`` over one episode per (case, seed) on the discrete environment.

    ``policy`` is a trained ``MaskablePPO`` model (anything with ``predict``) or a
    :data:`MaskedPolicy` such as :class:`MaskedUniformPolicy`. The mask of each step is the
    environment's ``info["action_mask"]``; a policy that picks a masked action is an error here (it
    would be a bug in the policy), not an invalid action of the episode. ``env`` may be a discrete
    environment built already (over a suite that holds ``case_ids``).
    """
    import gymnasium

    import mentalhospital_env  # noqa: F401

    if not case_ids:
        raise ValueError("evaluate_policy_on_cases needs at least one case id")
    act: MaskedPolicy = ModelPolicy(policy, deterministic) if hasattr(policy, "predict") else policy
    built_here = env is None
    if env is None:
        env = gymnasium.make(
            ENV_ID,
            suite=suite,
            case_ids=list(case_ids),
            patient_variant=patient_variant,
            turn_budget=turn_budget,
            reward_config=dict(reward_config) if reward_config is not None else None,
        )
    tally = _EpisodeTally()
    for seed in seeds:
        for case_id in case_ids:
            observation, info = env.reset(seed=int(seed), options={"case_id": case_id})
            tally.begin()
            done = False
            while not done:
                mask = np.asarray(info["action_mask"])
                index = act(observation, mask)
                if not mask[index]:
                    raise RuntimeError(f"policy chose masked action {index} on case {case_id} at turn {info['turn']}")
                observation, reward, terminated, truncated, info = env.step(index)
                tally.step(reward, info)
                done = terminated or truncated
            tally.end()
    if built_here:
        env.close()
    return tally.summary()


def evaluate_doctor_on_cases(
    doctor: str,
    case_ids: Sequence[str],
    *,
    suite: str = "dev",
    seeds: Sequence[int] = (0,),
    turn_budget: int = 40,
    reward_config: Mapping[str, Any] | None = None,
    patient_variant: str = "full",
) -> HeldOutReturns:
    """Mean return of a roster doctor (``ppo:PATH``, ``random``, ...) on the text environment ``MentalHospital-v0``.

    The same cases, seeds and rewards as :func:`evaluate_policy_on_cases`, so a trained policy's
    return here, through :class:`PPODoctor`, against its return on the discrete environment shows
    what is lost in reading the text (invalid actions, if any, appear in the components).
    """
    import gymnasium

    import mentalhospital_env  # noqa: F401
    from mentalhospital_env.roster import make_doctor

    if not case_ids:
        raise ValueError("evaluate_doctor_on_cases needs at least one case id")
    env = gymnasium.make(
        "MentalHospital-v0",
        suite=suite,
        case_ids=list(case_ids),
        patient_variant=patient_variant,
        turn_budget=turn_budget,
        reward_config=dict(reward_config) if reward_config is not None else None,
    )
    tally = _EpisodeTally()
    for seed in seeds:
        for case_id in case_ids:
            policy = make_doctor(doctor)
            observation, info = env.reset(seed=int(seed), options={"case_id": case_id})
            policy.reset(observation, info)
            tally.begin()
            done = False
            while not done:
                observation, reward, terminated, truncated, info = env.step(policy.act(observation, info))
                tally.step(reward, info)
                done = terminated or truncated
            tally.end()
    env.close()
    return tally.summary()


class _EpisodeTally:
    """Returns, lengths and reward-component totals of a series of episodes."""

    def __init__(self) -> None:
        self.returns: list[float] = []
        self.lengths: list[int] = []
        self.totals: dict[str, float] = {}
        self._return, self._length = 0.0, 0

    def begin(self) -> None:
        self._return, self._length = 0.0, 0

    def step(self, reward: float, info: Mapping[str, Any]) -> None:
        self._return += float(reward)
        self._length += 1
        for name, value in (info.get("reward_components") or {}).items():
            if value is not None:
                self.totals[name] = self.totals.get(name, 0.0) + float(value)

    def end(self) -> None:
        self.returns.append(self._return)
        self.lengths.append(self._length)

    def summary(self) -> HeldOutReturns:
        from mentalhospital_env.statistics import summarize

        n = len(self.returns)
        stats = summarize(self.returns)
        return HeldOutReturns(
            mean=float(stats.mean),
            ci_low=stats.ci_low,
            ci_high=stats.ci_high,
            n=n,
            returns=tuple(self.returns),
            components={k: v / n for k, v in sorted(self.totals.items())},
            mean_length=sum(self.lengths) / n,
        )


# ------------------------------------------------------------------------------------- training


def _callback_base() -> type:
    from stable_baselines3.common.callbacks import BaseCallback

    return BaseCallback


def make_reward_components_callback(
    curve_points: Sequence[int] = (),
    evaluate: Callable[[Any], HeldOutReturns] | None = None,
) -> Any:
    """A :class:`RewardComponentsCallback` (built lazily so SB3 is imported only when training)."""
    return RewardComponentsCallback.build(curve_points, evaluate)


class RewardComponentsCallback:
    """SB3 callback: each reward component as its own scalar, and the learning curve.

    For every finished episode of every environment copy it sums ``info["reward_components"]`` over
    the episode and records the totals with ``logger.record_mean("reward_components/<name>", ...)``
    (so TensorBoard shows one curve per component, averaged over the episodes of each rollout), and
    keeps ``(timesteps, return)`` of each training episode in ``episodes``, and counts in
    ``masked_choices`` the actions sampled against the mask (0 unless masking is broken). At the timesteps in
    ``curve_points`` it runs ``evaluate(model)`` (a held-out evaluation) and keeps
    ``(timesteps, HeldOutReturns)`` in ``evaluations``, also logged as ``eval/held_out_return``.
    """

    @staticmethod
    def build(curve_points: Sequence[int] = (), evaluate: Callable[[Any], HeldOutReturns] | None = None) -> Any:
        base = _callback_base()

        class _RewardComponentsCallback(base):  # type: ignore[misc, valid-type]
            __doc__ = RewardComponentsCallback.__doc__

            def __init__(self) -> None:
                super().__init__()
                self.episodes: list[tuple[int, float]] = []
                self.evaluations: list[tuple[int, HeldOutReturns]] = []
                self._points = sorted(int(p) for p in curve_points)
                self._sums: list[dict[str, float]] = []
                self._returns: list[float] = []
                self.masked_choices = 0

            def _on_training_start(self) -> None:
                n = self.training_env.num_envs
                self._sums = [{} for _ in range(n)]
                self._returns = [0.0] * n

            def _on_step(self) -> bool:
                infos = self.locals["infos"]
                dones = self.locals["dones"]
                rewards = self.locals["rewards"]
                masks, actions = self.locals.get("action_masks"), self.locals.get("actions")
                if masks is not None and actions is not None:
                    chosen = np.asarray(masks)[np.arange(len(infos)), np.asarray(actions).reshape(-1)]
                    self.masked_choices += int((~chosen.astype(bool)).sum())
                for i, info in enumerate(infos):
                    sums = self._sums[i]
                    for name, value in (info.get("reward_components") or {}).items():
                        if value is not None:
                            sums[name] = sums.get(name, 0.0) + float(value)
                    self._returns[i] += float(rewards[i])
                    if dones[i]:
                        for name, value in sums.items():
                            self.logger.record_mean(f"reward_components/{name}", value)
                        self.episodes.append((self.num_timesteps, self._returns[i]))
                        self._sums[i] = {}
                        self._returns[i] = 0.0
                while self._points and self.num_timesteps >= self._points[0] and evaluate is not None:
                    self._points.pop(0)
                    result = evaluate(self.model)
                    self.evaluations.append((self.num_timesteps, result))
                    self.logger.record("eval/held_out_return", result.mean)
                return True

        return _RewardComponentsCallback()


def train_ppo(recipe: PPORecipe) -> Path:
    """Train ``MaskablePPO`` as the recipe says, evaluate on held-out cases, save; returns ``policy.zip``'s path.

    The run folder (``recipe.output_dir``) also gets ``ppo_run.json`` (see the module docstring).
    """
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import is_masking_supported

    torch.set_num_threads(recipe.torch_threads)
    out = Path(recipe.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    split = split_cases(recipe)
    venv = build_vec_env(recipe, split.train)
    if not is_masking_supported(venv):
        raise RuntimeError(f"{ENV_ID} exposes no action_masks(): MaskablePPO cannot mask")
    curve_cases = split.held_out[: recipe.curve_eval_cases]
    curve_points = [
        round(recipe.total_timesteps * k / (recipe.curve_evaluations + 1)) for k in range(1, recipe.curve_evaluations + 1)
    ]
    eval_env = DiscreteClinicFactory(recipe.env_kwargs(split.held_out), monitor=False)()

    def evaluate_curve(model: Any) -> HeldOutReturns:
        return evaluate_policy_on_cases(model, curve_cases, env=eval_env)

    callback = make_reward_components_callback(curve_points, evaluate_curve)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=recipe.learning_rate,
        n_steps=recipe.n_steps,
        batch_size=recipe.batch_size,
        n_epochs=recipe.n_epochs,
        gamma=recipe.gamma,
        gae_lambda=recipe.gae_lambda,
        clip_range=recipe.clip_range,
        ent_coef=recipe.ent_coef,
        vf_coef=recipe.vf_coef,
        max_grad_norm=recipe.max_grad_norm,
        policy_kwargs={"net_arch": list(recipe.net_arch)},
        tensorboard_log=recipe.tensorboard_log,
        seed=recipe.seed,
        device=recipe.device,
        verbose=recipe.verbose,
    )
    started = time.perf_counter()
    try:
        model.learn(total_timesteps=recipe.total_timesteps, callback=callback, tb_log_name="MaskablePPO")
    finally:
        venv.close()
    training_seconds = time.perf_counter() - started
    policy_path = out / POLICY_FILE
    model.save(policy_path)
    seeds = tuple(range(recipe.eval_episodes_per_case))
    held_out = evaluate_policy_on_cases(model, split.held_out, seeds=seeds, env=eval_env)
    eval_env.close()
    run = {
        "recipe": recipe.to_dict(),
        "split": {"train": list(split.train), "held_out": list(split.held_out)},
        "fingerprint": menu_fingerprint(),
        "training_seconds": training_seconds,
        "timesteps": int(model.num_timesteps),
        "masked_choices": callback.masked_choices,
        "held_out": held_out.to_dict(),
        "curve": {
            "episodes": [[t, r] for t, r in callback.episodes],
            "evaluations": [[t, e.to_dict()] for t, e in callback.evaluations],
            "curve_cases": list(curve_cases),
        },
    }
    (out / RUN_FILE).write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
    return policy_path


def load_run(path: str | Path) -> dict[str, Any]:
    """``ppo_run.json`` of a run folder (or of the folder holding ``policy.zip``)."""
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    try:
        return json.loads((folder / RUN_FILE).read_text("utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"no {RUN_FILE} in {folder}: is it a train_ppo output folder?") from None


# ------------------------------------------------------------------------ the policy as a doctor


@dataclass
class WalkIn:
    """What the walk-in text says: age, sex, setting, whether someone came along, the turn budget.

    Shaped as ``Findings.reset`` reads a case (``.demographics.age``, ``.demographics.sex``,
    ``.setting``), so the same code fills the walk-in features for the text doctor.
    """

    age: int
    sex: str
    setting: str
    accompanied: bool
    turn_budget: int | None = None

    @property
    def demographics(self) -> WalkIn:
        return self


_WALK_IN = re.compile(
    r"^(?P<place>[^\n.]+)\.\s+An?\s+(?P<age>\d+)-year-old\s+(?P<person>\w+)\s+is here to see you"
    r"(?:,\s*(?P<company>accompanied by [^\n.]+|alone))?"
)
_TURNS = re.compile(r"You have (\d+) turns")
_PERSON_SEX = {"woman": "female", "girl": "female", "man": "male", "boy": "male", "person": "other"}


def read_walk_in(text: str) -> WalkIn:
    """The walk-in observation of ``MentalHospital-v0`` as a :class:`WalkIn`.

    Raises ``ValueError`` naming the text when it is not a walk-in (the text environment's reset
    observation is expected).
    """
    from mentalhospital_env.hospital.encounter import SETTING_PLACES

    match = _WALK_IN.search(text)
    if match is None:
        raise ValueError(f"not a walk-in observation (expected 'PLACE. A N-year-old PERSON is here to see you...'): {text[:120]!r}")
    place = match.group("place").strip()
    settings = {v.lower(): k for k, v in SETTING_PLACES.items()}
    setting = settings.get(place.lower(), place.lower())
    company = match.group("company") or "alone"
    turns = _TURNS.search(text)
    return WalkIn(
        age=int(match.group("age")),
        sex=_PERSON_SEX.get(match.group("person").lower(), "other"),
        setting=setting,
        accompanied=company != "alone",
        turn_budget=int(turns.group(1)) if turns else None,
    )


@dataclass
class _SeenReply:
    """A patient reply as text only: ``Findings`` then reads concepts with the lexicon."""

    text: str
    affirmed: None = None
    denied: None = None


@dataclass
class _SeenOutcome:
    """The parts of a step outcome that ``Findings.update`` reads, rebuilt from the text env's output."""

    stage: str
    turn: int
    action: Any
    reply: _SeenReply | None


@dataclass
class _SeenChart:
    """The exam results seen so far (``Findings.update`` reads ``chart.exam_results``)."""

    exam_results: list[tuple[str, str]] = field(default_factory=list)


class TextFindingsReader:
    """Builds the discrete environment's findings vector and mask from what the text env shows.

    ``start(walk_in_text)`` at reset; ``chose(index)`` when a menu entry is sent; ``saw(observation,
    info)`` with what came back; ``vector`` and ``mask()`` are then what ``MentalHospitalDiscrete-v0``
    would observe (up to the lexicon reading of replies, see the module docstring); ``action_text(index)``
    is the menu entry as protocol text.
    """

    def __init__(self, default_turn_budget: int = 40):
        from mentalhospital_env.hospital.menu import default_menu
        from mentalhospital_env.knowledge import load_knowledge

        self.menu = default_menu()
        self.lexicon = load_knowledge().lexicon
        self.default_turn_budget = default_turn_budget
        self.findings = _findings_for(default_turn_budget)
        self.stage = "interview"
        self.taken: set[int] = set()
        self._chart = _SeenChart()
        self._pending: tuple[int, Any] | None = None
        self.ended = False

    @property
    def vector(self) -> np.ndarray:
        return self.findings.vector

    def start(self, walk_in_text: str) -> None:
        walk_in = read_walk_in(walk_in_text)
        self.findings.turn_budget = walk_in.turn_budget or self.default_turn_budget
        self.findings.reset(walk_in, accompanied=walk_in.accompanied)  # type: ignore[arg-type]
        self.stage = "interview"
        self.taken = set()
        self._chart = _SeenChart()
        self._pending = None
        self.ended = False

    def mask(self) -> np.ndarray:
        """The discrete environment's mask: the actions of this stage not yet taken, or, once the
        encounter has ended, a fresh episode's (the environment never hands out an empty mask)."""
        if self.ended:
            return self.menu.mask("interview", set())
        return self.menu.mask(self.stage, self.taken)

    def action_text(self, index: int) -> str:
        """Menu entry ``index`` as protocol text (a note template filled from the findings now)."""
        action = self.menu.action(index, self.findings, self.lexicon)
        self._pending = (index, action)
        return action.to_text()

    def saw(self, observation: Observation, info: Info) -> None:
        """Take in what came back after the last action sent by :meth:`action_text`."""
        from mentalhospital_env.hospital.stages import ALL_STAGES

        stage = observation.get("stage", 0)
        self.stage = stage if isinstance(stage, str) else ALL_STAGES[int(stage)]
        turn = int(observation.get("turn", info.get("turn", 0)))
        text = str(observation.get("text", ""))
        budget = info.get("turn_budget")
        self.ended = self.stage == ALL_STAGES[-1] or (budget is not None and turn >= int(budget))
        if self._pending is None:
            return
        index, action = self._pending
        self._pending = None
        valid = bool(info["valid"]) if "valid" in info else (not info.get("error") and info.get("action") is not None)
        item = self.menu.items[index]
        reply = None
        speaker = re.match(r"^(?:Patient|[A-Z][a-z]+(?: \([^)]*\))?): ", text) if item.kind == "ask" else None
        if valid and speaker:  # the patient, or the relative present ("Mother (Helen): ...")
            reply = _SeenReply(text[speaker.end() :].split("\nThe turn budget is spent")[0])
        if valid and item.kind == "order_exams":
            for name in getattr(action, "exams", ()):
                prefix = f"- {name}: "
                for line in text.splitlines():
                    if line.startswith(prefix) and not line.endswith("already reported above"):
                        self._chart.exam_results.append((name, line[len(prefix) :]))
        if valid and item.kind in ("ask", "order_exams"):
            self.taken.add(index)
        outcome = _SeenOutcome(self.stage, turn, action if valid else None, reply)
        self.findings.update(outcome, self._chart, item.concept if valid else None, self.lexicon)  # type: ignore[arg-type]


@lru_cache(maxsize=4)
def _load_policy(policy_file: str, mtime: float) -> Any:
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    return MaskablePPO.load(policy_file, device="cpu")


def resolve_policy_file(path: str | Path) -> Path:
    """``policy.zip`` itself, or the one inside a run folder; ``FileNotFoundError`` naming the path."""
    p = Path(path).expanduser()
    if p.is_dir():
        p = p / POLICY_FILE
    if not p.is_file():
        raise FileNotFoundError(f"no PPO policy at {path} (give policy.zip or the train_ppo output folder)")
    return p


class PPODoctor(Doctor):
    """A trained ``MaskablePPO`` policy playing the text environment ``MentalHospital-v0``.

    Each turn it reads what came back into the discrete environment's findings vector
    (:class:`TextFindingsReader`), picks the greedy menu entry under the discrete environment's mask
    and answers with that entry as protocol text. The policy's menu and feature sizes are checked
    against this installation's at load time (``ppo_run.json`` fingerprints when present).
    """

    name = "ppo"

    def __init__(self, policy_path: str | Path, deterministic: bool = True):
        self.policy_file = resolve_policy_file(policy_path)
        self.model = _load_policy(str(self.policy_file.resolve()), self.policy_file.stat().st_mtime)
        self.deterministic = deterministic
        self.reader = TextFindingsReader()
        self._check_shapes()

    def _check_shapes(self) -> None:
        n_actions = int(self.model.action_space.n)
        n_features = int(self.model.observation_space.shape[0])
        if n_actions != len(self.reader.menu) or n_features != self.reader.findings.size:
            raise ValueError(
                f"PPO policy {self.policy_file} was trained on a menu of {n_actions} actions and {n_features} features; "
                f"this knowledge base gives {len(self.reader.menu)} and {self.reader.findings.size}: retrain it"
            )
        run_file = self.policy_file.parent / RUN_FILE
        if run_file.is_file():
            trained = json.loads(run_file.read_text("utf-8")).get("fingerprint", {})
            now = menu_fingerprint()
            changed = [k for k in ("menu_sha256", "features_sha256") if trained.get(k) not in (None, now[k])]
            if changed:
                raise ValueError(f"PPO policy {self.policy_file}: the menu or features changed since training ({', '.join(changed)}): retrain it")

    def reset(self, observation: Observation, info: Info) -> None:
        self.reader.start(str(observation.get("text", "")))

    def act(self, observation: Observation, info: Info) -> Action:
        self.reader.saw(observation, info)
        mask = self.reader.mask()
        if not mask.any():
            return "<treat>Supportive care and review.</treat>"
        action, _ = self.model.predict(self.reader.vector, action_masks=mask.astype(bool), deterministic=self.deterministic)
        return self.reader.action_text(int(np.asarray(action).reshape(())))


def make(argument: str | None = None) -> PPODoctor:
    """Roster factory: ``ppo:PATH`` with PATH a ``policy.zip`` or a ``train_ppo`` output folder."""
    if not argument:
        raise ValueError("the ppo doctor needs a policy: --doctor ppo:PATH (policy.zip or the train_ppo output folder)")
    return PPODoctor(argument)


__all__ = [
    "CaseSplit",
    "HeldOutReturns",
    "MaskedUniformPolicy",
    "ModelPolicy",
    "PPODoctor",
    "PPORecipe",
    "RewardComponentsCallback",
    "TextFindingsReader",
    "WalkIn",
    "evaluate_doctor_on_cases",
    "evaluate_policy_on_cases",
    "load_run",
    "make",
    "read_walk_in",
    "split_cases",
    "train_ppo",
]
