"""The Gymnasium environments with the real patient and reward shaper: API contract, settings, both ids."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mentalhospital_env
from mentalhospital_env.cases.generator import generate_cases
from mentalhospital_env.env import (
    CHARSET,
    MentalHospitalDiscreteEnv,
    make_vector_env,
    to_charset,
)
from mentalhospital_env.hospital.record import EpisodeRecord
from mentalhospital_env.hospital.stages import ALL_STAGES
from mentalhospital_env.registration import ENV_IDS

ROOT = Path(__file__).resolve().parents[1]
IDS = ("MentalHospital-v0", "MentalHospitalDiscrete-v0")
SCRIPT = [
    "<ask>Hello, what brings you in today?</ask>",
    "<ask>How has your sleep been?</ask>",
    "not an action",
    "<order_exams>PHQ-9; TSH; a made-up test</order_exams>",
    "<write_note>Presenting complaint as described; sleep and mood reviewed.</write_note>",
    "<diagnose>categories: depressive | disorders: 1. F32.1; 2. F41.1</diagnose>",
    "<treat>Sertraline 50 mg daily, CBT, safety plan, review in two weeks.</treat>",
]


@pytest.fixture(scope="module")
def cases():
    return generate_cases(6, 21, "envt")


def make(env_id, cases, **kwargs):
    kwargs.setdefault("turn_budget", 20)
    return gym.make(env_id, suite=cases, **kwargs)


def test_both_ids_are_registered_on_import():
    assert ENV_IDS == IDS
    for env_id in IDS:
        assert env_id in gym.registry
    assert mentalhospital_env.__version__


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_without_warnings(env_id, cases):
    env = make(env_id, cases, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_text_spaces_follow_the_conventions(cases):
    env = make("MentalHospital-v0", cases)
    space = env.observation_space
    assert isinstance(space, gym.spaces.Dict) and set(space.spaces) == {"text", "stage", "turn"}
    assert "observation" not in space.spaces
    assert isinstance(space["text"], gym.spaces.Text) and space["text"].character_set == frozenset(CHARSET)
    assert space["stage"].n == len(ALL_STAGES) and space["turn"].n == 21
    assert CHARSET == "".join(chr(c) for c in range(32, 127)) + "\n"
    assert isinstance(env.action_space, gym.spaces.Text)


def test_to_charset_keeps_ascii_and_clips():
    assert to_charset("plain text\nline two", 100) == "plain text\nline two"
    assert (
        to_charset("\u201cI\u2019m tired\u201d \u2014 caf\u00e9\tnow \u2603", 100)
        == '"I\'m tired" - cafe now ?'
    )
    clipped = to_charset("x" * 50, 20)
    assert clipped == "x" * 17 + "..." and len(clipped) == 20


def test_a_scripted_episode_terminates_with_every_component_in_info(cases):
    env = make("MentalHospital-v0", cases, render_mode="ansi")
    obs, info = env.reset(seed=4)
    assert obs["turn"] == 0 and ALL_STAGES[obs["stage"]] == "interview" and info["stage"] == "interview"
    assert obs["text"].splitlines()[0].endswith((", alone.",)) or "accompanied by" in obs["text"]
    total, returns = 0.0, []
    for action in SCRIPT:
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
        assert set(info) >= {
            "stage",
            "turn",
            "reward_components",
            "action",
            "error",
            "problem",
            "allowed_actions",
            "turn_budget",
        }
        assert info["turn_budget"] == 20
        total += reward
        returns.append(reward)
        if action == "not an action":
            assert (
                info["error"] and info["problem"] == "no_action" and obs["text"].startswith("Invalid action:")
            )
            assert info["reward_components"]["invalid_action"] == -1.0 and reward < 0
    assert terminated and not truncated and info["stage"] == "end"
    assert "Exam results:" in env.unwrapped.episode_record().steps[3].observation
    assert "a made-up test: unremarkable (not on file)" in env.unwrapped.episode_record().steps[3].observation
    assert {"interview", "exam", "note", "category", "ndcg", "empathy", "turn"} <= set(
        info["reward_components"]
    )
    record = env.unwrapped.episode_record()
    assert record.terminated and record.total_reward == pytest.approx(total)
    assert [s.reward for s in record.steps] == returns
    assert EpisodeRecord.from_json(record.to_json()) == record
    transcript = env.render()
    assert (
        transcript.startswith(record.walk_in)
        and "[turn 7] Doctor: <treat>" in transcript
        and "terminated" in transcript
    )


def test_turn_budget_truncates(cases):
    env = make("MentalHospital-v0", cases, turn_budget=3)
    env.reset(seed=0)
    results = [env.step("<ask>How are you?</ask>") for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True] and not any(r[2] for r in results)
    assert results[-1][4]["stage"] == "end"


def test_reset_is_deterministic_and_takes_a_case_id(cases):
    env = make("MentalHospital-v0", cases)
    first = [env.reset(seed=s)[0]["text"] for s in (1, 1, 2)]
    assert first[0] == first[1]
    drawn = {env.unwrapped.encounter.case.case_id for s in range(12) if env.reset(seed=s)}
    assert len(drawn) > 1
    _obs, _info = env.reset(seed=5, options={"case_id": cases[3]["case_id"]})
    assert env.unwrapped.encounter.case.case_id == cases[3]["case_id"]
    with pytest.raises(ValueError, match="not a case of suite"):
        env.reset(options={"case_id": "nope"})


def test_make_kwargs_select_cases_variant_rewards_and_budget(cases):
    ids = [cases[0]["case_id"], cases[1]["case_id"]]
    env = gym.make(
        "MentalHospital-v0",
        suite=cases,
        case_ids=ids,
        patient_variant="memory",
        patient_backend="offline",
        reward_config={"sparse": True, "judge": "none"},
        turn_budget=5,
        rewards_at_end=False,
    )
    drawn = set()
    for seed in range(8):
        env.reset(seed=seed)
        drawn.add(env.unwrapped.encounter.case.case_id)
    assert drawn <= set(ids)
    _obs, reward, *_ = env.step("<ask>How is your mood?</ask>")
    assert reward == 0.0  # sparse: everything at the end
    settings = env.unwrapped.episode_record().settings
    assert settings["patient_variant"] == "memory" and settings["reward_config"]["sparse"] is True
    assert settings["turn_budget"] == 5
    with pytest.raises(ValueError, match="case_ids"):
        gym.make("MentalHospital-v0", suite=cases, case_ids=["missing"])
    with pytest.raises(ValueError, match="unknown keys"):
        gym.make("MentalHospital-v0", suite=cases, reward_config={"bogus": 1})
    with pytest.raises(ValueError, match="render_mode"), pytest.warns(UserWarning, match="render_mode"):
        gym.make("MentalHospital-v0", suite=cases, render_mode="human")


def test_rewards_at_end_give_the_same_return_as_dense(cases):
    returns = []
    for at_end in (False, True):
        env = make("MentalHospital-v0", cases, rewards_at_end=at_end)
        env.reset(seed=9)
        rewards = [env.step(a)[1] for a in SCRIPT]
        if at_end:
            assert rewards[:-1] == [0.0] * (len(SCRIPT) - 1)
        returns.append(sum(rewards))
    assert returns[0] == pytest.approx(returns[1])


def test_bad_inputs_never_raise_in_the_text_env(cases):
    env = make("MentalHospital-v0", cases)
    env.reset(seed=0)
    for bad in (None, 3, 2.5, b"\xff", {"action": 1}, ["<ask>x</ask>"], object(), "", "<ask>", {"ask": None}):
        obs, _reward, _terminated, _truncated, info = env.step(bad)
        assert (
            info["error"]
            and obs["text"].startswith("Invalid action:")
            and env.observation_space.contains(obs)
        )


# ------------------------------------------------------------------------------ discrete


def test_discrete_notes_write_one_finding_a_sentence():
    from mentalhospital_env.rewards.matching import output_units

    from mentalhospital_env.hospital.menu import Findings, default_menu
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    lexicon = load_lexicon()
    menu = default_menu()
    findings = Findings((), (), 40)
    concepts = [c.id for c in lexicon.concepts if c.clinical_terms and c.kind != "history"][:6]
    findings.affirmed, findings.denied = concepts[:2], concepts[2:6]
    findings.replies = ["I can't sleep."]
    structured, brief = (menu.action(i, findings, lexicon).note for i in menu.kind_ranges["write_note"][:2])
    term = {c: lexicon.get(c).clinical_terms[0].lower() for c in concepts}
    for note in (structured, brief):
        units = [u.lower().rstrip(".") for u in output_units(note)]

        def said(verb: str, c: str, units: list[str] = units) -> bool:
            return any(u == f"{verb} {term[c]}" or u.endswith(f": {verb} {term[c]}") for u in units)

        # each finding a sentence of its own (so a denial is read as denied), the same in every note
        assert all(said("denies", c) for c in concepts[2:6]), units
        assert all(said("reports", c) for c in concepts[:2]), units
    findings.affirmed, findings.denied = [], []
    empty = menu.action(menu.kind_ranges["write_note"][0], findings, lexicon).note
    assert "History: reports none elicited." in empty
    assert "Pertinent negatives: denies none elicited." in empty


def test_discrete_menu_mask_and_observation(cases):
    env = make("MentalHospitalDiscrete-v0", cases)
    u = env.unwrapped
    assert isinstance(u, MentalHospitalDiscreteEnv) and env.action_space.n == len(u.menu) == len(
        u.menu.labels
    )
    kinds = [item.kind for item in u.menu.items]
    assert kinds == sorted(kinds, key=["ask", "order_exams", "write_note", "diagnose", "treat"].index)
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape == (len(u.feature_names),) and obs.dtype == np.float32
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.all() and np.array_equal(u.action_masks(), mask)
    ask = u.menu.kind_ranges["ask"][0]
    obs, reward, terminated, _truncated, info = env.step(ask)
    assert info["error"] == "" and info["action_mask"][ask] == 0  # asked once: masked
    note = u.menu.kind_ranges["write_note"][0]
    obs, reward, terminated, _truncated, info = env.step(note)
    assert info["stage"] == "note" and info["action"]["note"].startswith("Presenting complaint:")
    mask = info["action_mask"]
    assert not mask[u.menu.kind_ranges["ask"]].any() and not mask[u.menu.kind_ranges["write_note"]].any()
    assert mask[u.menu.kind_ranges["diagnose"]].all() and mask[u.menu.kind_ranges["treat"]].all()
    assert obs[u.feature_names.index("stage=note")] == 1.0
    # an out-of-stage index, an index out of range and a non-integer are refused, state unchanged
    before = u.encounter.clinical_state()
    for bad in (ask, len(u.menu), -1, 2.0, None, np.array([1.5])):
        _obs2, reward, _terminated, _truncated, info = env.step(bad)
        assert info["error"] and reward < 0 and u.encounter.clinical_state() == before
        assert "Allowed now (stage note): diagnose, treat" in info["error"]
    obs, reward, terminated, _truncated, info = env.step(u.menu.kind_ranges["treat"][0])
    # the last step's mask is a fresh episode's (never empty: a masked policy samples the next action,
    # which a vector env applies after its autoreset or ignores)
    first_mask = env.reset(seed=3)[1]["action_mask"]
    env.reset(seed=3)
    _obs, _reward, terminated, _truncated, info = env.step(u.menu.kind_ranges["treat"][0])
    assert terminated and info["stage"] == "end" and np.array_equal(info["action_mask"], first_mask)
    assert np.array_equal(u.action_masks(), first_mask)


def test_discrete_observation_records_what_was_learned(cases):
    env = make("MentalHospitalDiscrete-v0", cases)
    u = env.unwrapped
    env.reset(seed=1, options={"case_id": cases[0]["case_id"]})
    exam_names = [e["name"] for e in cases[0]["exams"]]
    for i in u.menu.kind_ranges["order_exams"]:
        if u.menu.items[i].action.exams[0] in exam_names:
            obs, *_ = env.step(i)
            name = u.menu.items[i].action.exams[0]
            assert obs[u.feature_names.index(f"ordered:{name}")] == 1.0
            assert obs[u.feature_names.index(f"on_file:{name}")] == 1.0
            break
    else:
        pytest.fail("no exam of the case is in the catalog")
    learned = 0
    env.reset(seed=1, options={"case_id": cases[0]["case_id"]})
    for i in u.menu.kind_ranges["ask"][:40]:
        obs, *_ = env.step(i)
        names = [u.feature_names[j] for j in np.flatnonzero(obs)]
        learned = max(learned, sum(n.startswith(("affirmed:", "denied:")) for n in names))
    assert learned > 0


# ------------------------------------------------------------------------------ vector envs


@pytest.mark.parametrize("asynchronous", [False, True])
def test_vector_envs_of_four_copies_step_and_reset(cases, asynchronous):
    venv = make_vector_env(
        "MentalHospital-v0",
        4,
        asynchronous=asynchronous,
        suite=cases,
        turn_budget=6,
        context="fork" if asynchronous else None,
    )
    try:
        obs, infos = venv.reset(seed=[10, 11, 12, 13])
        assert isinstance(obs["text"], tuple) and len(obs["text"]) == 4
        assert all(t.startswith(("Outpatient", "Inpatient", "Emergency")) for t in obs["text"])
        obs, rewards, terminated, _truncated, infos = venv.step(
            ["<ask>How are you?</ask>"] * 3 + ["<treat>rest</treat>"]
        )
        assert all(t.startswith("Patient:") for t in obs["text"][:3]) and obs["text"][3].startswith(
            "Treatment plan"
        )
        assert list(terminated) == [False, False, False, True] and rewards.shape == (4,)
        obs, rewards, terminated, _truncated, infos = venv.step(["<ask>Any voices?</ask>"] * 4)
        assert obs["text"][3].startswith(("Outpatient", "Inpatient", "Emergency"))  # copy 3 was reset
        assert list(obs["turn"]) == [2, 2, 2, 0]
    finally:
        venv.close()
    dvenv = make_vector_env(
        "MentalHospitalDiscrete-v0", 4, asynchronous=asynchronous, suite=cases, turn_budget=6
    )
    try:
        obs, infos = dvenv.reset(seed=0)
        assert (
            obs.shape == (4, dvenv.single_observation_space.shape[0]) and infos["action_mask"].shape[0] == 4
        )
        obs, rewards, terminated, _truncated, infos = dvenv.step(np.array([0, 1, 2, 3]))
        assert obs.shape[0] == 4 and rewards.shape == (4,)
    finally:
        dvenv.close()


# ------------------------------------------------------------------------------ determinism across processes

_TRAJECTORY = """
import json, sys
import gymnasium as gym
import mentalhospital_env
from mentalhospital_env.cases.generator import generate_cases
cases = generate_cases(6, 21, "envt")
out = []
for env_id, actions in (("MentalHospital-v0", json.loads(sys.argv[1])), ("MentalHospitalDiscrete-v0", [0, 7, 3, 400, 9999])):
    env = gym.make(env_id, suite=cases, turn_budget=20)
    obs, info = env.reset(seed=77)
    out.append([obs["text"] if isinstance(obs, dict) else obs.tolist(), info["reward_components"]])
    for a in actions:
        obs, r, te, tr, info = env.step(a)
        out.append([obs["text"] if isinstance(obs, dict) else obs.tolist(), r, te, tr, info["reward_components"], info["error"]])
print(json.dumps(out))
"""


def test_same_seed_gives_the_same_trajectory_and_rewards_in_two_processes():
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", _TRAJECTORY, json.dumps(SCRIPT)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        runs.append(done.stdout)
    assert runs[0] == runs[1]
    trajectory = json.loads(runs[0])
    assert len(trajectory) == 2 + len(SCRIPT) + 5 and trajectory[1][0].startswith("Patient:")
