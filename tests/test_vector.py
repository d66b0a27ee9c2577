"""Vector environments: copies that finish, err and reset at different times, in every order.

Gymnasium merges the copies' ``info`` dicts key by key into arrays; a key whose type changes
between copies (``None`` in one, a dict in another) breaks the merge, and an async vector env whose
step failed half-way then hangs in ``close``. These tests drive both ids, sync and async, built by
``make_vector_env`` and by ``gymnasium.make_vec``, through every order of a finishing, an erring and
a valid copy, and check the merged info, the observations, and that ``close`` returns.
"""

from __future__ import annotations

import itertools
import pickle
import threading

import gymnasium as gym
import numpy as np
import pytest

import mentalhospital_env  # noqa: F401  (registers the ids)
from mentalhospital_env.cases.generator import generate_cases
from mentalhospital_env.env import make_vector_env

TEXT, DISCRETE = "MentalHospital-v0", "MentalHospitalDiscrete-v0"
INFO_KEYS = {
    "stage",
    "turn",
    "turn_budget",
    "allowed_actions",
    "action",
    "valid",
    "error",
    "problem",
    "reward_components",
}


@pytest.fixture(scope="module")
def cases():
    return generate_cases(4, 5, "vect")


def _actions(env_id: str, venv: gym.vector.VectorEnv) -> dict[str, object]:
    """A finishing, an erring and a valid action for this id."""
    if env_id == TEXT:
        return {"finish": "<treat>sertraline 50 mg daily; review in two weeks</treat>", "err": "bad", "valid": "<ask>How is your sleep?</ask>"}
    menu = gym.make(DISCRETE).unwrapped.menu
    return {"finish": menu.kind_ranges["treat"][0], "err": len(menu), "valid": menu.kind_ranges["ask"][0]}


def _batch(env_id: str, chosen: list[object]) -> object:
    return list(chosen) if env_id == TEXT else np.array(chosen, dtype=np.int64)


def _check_info(env_id: str, info: dict, n: int) -> None:
    keys = INFO_KEYS | ({"action_mask"} if env_id == DISCRETE else set())
    assert keys <= set(info), keys - set(info)
    for key in keys:
        assert info[f"_{key}"].all(), f"{key} missing in some copy"
    assert info["valid"].dtype == np.bool_ and info["turn"].dtype.kind == "i"
    for name, values in info["reward_components"].items():
        if not name.startswith("_"):
            assert values.dtype == np.float64 and values.shape == (n,), name
    assert set(info["action"]) >= {"action", "utterance", "exams", "note", "categories", "disorders", "plan"}
    if env_id == DISCRETE:
        mask = info["action_mask"]
        assert mask.shape[0] == n and mask.any(axis=1).all(), "a copy has an empty action mask"


def _close_in_time(venv: gym.vector.VectorEnv, seconds: float = 60) -> None:
    closer = threading.Thread(target=venv.close, daemon=True)
    closer.start()
    closer.join(seconds)
    assert not closer.is_alive(), "close() did not return"


def _builders():
    for env_id in (TEXT, DISCRETE):
        for asynchronous in (False, True):
            yield pytest.param(env_id, asynchronous, "make_vector_env", id=f"{env_id}-{'async' if asynchronous else 'sync'}-make_vector_env")
            yield pytest.param(env_id, asynchronous, "make_vec", id=f"{env_id}-{'async' if asynchronous else 'sync'}-make_vec")


def _build(env_id: str, asynchronous: bool, how: str, cases, n: int) -> gym.vector.VectorEnv:
    kwargs = {"suite": cases, "turn_budget": 6}
    if how == "make_vector_env":
        return make_vector_env(env_id, n, asynchronous=asynchronous, context="fork" if asynchronous else None, **kwargs)
    # gymnasium's own path, with its defaults: shared memory for async
    return gym.make_vec(env_id, num_envs=n, vectorization_mode="async" if asynchronous else "sync", **kwargs)


@pytest.mark.parametrize(("env_id", "asynchronous", "how"), list(_builders()))
def test_copies_finish_err_and_reset_in_every_order(cases, env_id, asynchronous, how):
    n = 3
    venv = _build(env_id, asynchronous, how, cases, n)
    try:
        actions = _actions(env_id, venv)
        for order in itertools.permutations(("finish", "err", "valid")):
            obs, info = venv.reset(seed=list(range(n)))
            _check_info(env_id, info, n)
            assert not info["valid"].any() and (info["error"] == "").all()
            obs, reward, terminated, truncated, info = venv.step(_batch(env_id, [actions[k] for k in order]))
            _check_info(env_id, info, n)
            for i, kind in enumerate(order):
                assert bool(terminated[i]) == (kind == "finish"), (order, i)
                assert bool(info["valid"][i]) == (kind != "err"), (order, i)
                assert (info["error"][i] != "") == (kind == "err")
                assert (info["action"]["action"][i] == "") == (kind == "err")
            if env_id == TEXT:
                texts = obs["text"]
                assert isinstance(texts, tuple) and all(t.strip() for t in texts), "blank text observations"
                assert texts[order.index("finish")].startswith("Treatment plan")
                assert texts[order.index("err")].startswith("Invalid action")
            # next step: the finished copy resets (its action ignored), the others go on
            obs, reward, terminated, truncated, info = venv.step(_batch(env_id, [actions["valid"]] * n))
            _check_info(env_id, info, n)
            done = order.index("finish")
            assert info["turn"][done] == 0 and not info["valid"][done]
            assert all(info["valid"][i] for i in range(n) if i != done)
            if env_id == TEXT:
                assert obs["text"][done].startswith(("Outpatient", "Inpatient", "Emergency"))
            # an erring step that also ends by the turn budget, mixed with valid copies
            for _ in range(6):
                obs, reward, terminated, truncated, info = venv.step(_batch(env_id, [actions["err"], actions["valid"], actions["err"]]))
                _check_info(env_id, info, n)
    finally:
        _close_in_time(venv)


def test_make_vec_defaults_to_the_registered_vector_entry_point(cases):
    venv = gym.make_vec(TEXT, num_envs=2, suite=cases, turn_budget=6)
    try:
        assert isinstance(venv, gym.vector.SyncVectorEnv)
        obs, _ = venv.reset(seed=0)
        assert all(t.startswith(("Outpatient", "Inpatient", "Emergency")) for t in obs["text"])
    finally:
        venv.close()
    venv = gym.make_vec(DISCRETE, num_envs=2, asynchronous=True, suite=cases, turn_budget=6)
    try:
        assert isinstance(venv, gym.vector.AsyncVectorEnv)
        obs, info = venv.reset(seed=0)
        assert obs.shape[0] == 2 and info["action_mask"].shape[0] == 2
    finally:
        _close_in_time(venv)


@pytest.mark.parametrize("env_id", [TEXT, DISCRETE])
def test_environments_pickle_fresh_and_mid_episode(cases, env_id):
    env = gym.make(env_id, suite=cases, turn_budget=8)
    assert pickle.loads(pickle.dumps(env.unwrapped)).spec is None or True  # a fresh env pickles
    obs, info = env.reset(seed=4)
    action = "<ask>Do you hear voices?</ask>" if env_id == TEXT else int(np.flatnonzero(info["action_mask"])[0])
    env.step(action)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.transcript() == env.unwrapped.transcript()
    # both continue identically, random draws included
    follow = "<ask>How is your mood?</ask>" if env_id == TEXT else int(np.flatnonzero(info["action_mask"])[1])
    a = env.step(follow)
    b = copy.step(follow)
    assert a[1] == b[1] and a[2:4] == b[2:4]
    assert (a[0]["text"] == b[0]["text"]) if env_id == TEXT else np.array_equal(a[0], b[0])
    assert env.reset()[0].__repr__() == copy.reset()[0].__repr__()


def test_spawned_async_vector_env_with_a_default_suite():
    venv = make_vector_env(DISCRETE, 2, asynchronous=True, context="spawn", suite="dev", turn_budget=5)
    try:
        obs, info = venv.reset(seed=1)
        venv.step(np.array([0, 10**6]))
    finally:
        _close_in_time(venv)


def test_stable_baselines3_subproc_vec_env_with_the_discrete_id(cases):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import SubprocVecEnv

    def factory():
        return gym.make(DISCRETE, suite=cases, turn_budget=4)

    venv = SubprocVecEnv([factory, factory], start_method="fork")
    try:
        venv.seed(3)
        obs = venv.reset()
        assert obs.shape[0] == 2
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(12):
            masks = np.stack(venv.env_method("action_masks"))
            assert masks.any(axis=1).all()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, dones, infos = venv.step(actions)
            ended += int(dones.sum())
            for done, info in zip(dones, infos):
                if done:
                    assert "terminal_observation" in info
        assert ended >= 2  # a turn budget of 4 over 12 steps: each copy ended and was reset
    finally:
        venv.close()
