"""PPO (agents/ppo.py): a short MaskablePPO run on the discrete env, the saved policy as a text doctor.

The training run is shared by the module (one run of a few thousand steps); the other tests are fast.
"""

from __future__ import annotations

import glob
import json
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mentalhospital_env.agents.ppo import (
    POLICY_FILE,
    RUN_FILE,
    MaskedUniformPolicy,
    PPODoctor,
    PPORecipe,
    TextFindingsReader,
    evaluate_doctor_on_cases,
    evaluate_policy_on_cases,
    load_run,
    make,
    read_walk_in,
    split_cases,
    train_ppo,
)

import mentalhospital_env  # noqa: F401  (registers the ids)
from mentalhospital_env.cases import load_suite
from mentalhospital_env.hospital.encounter import walk_in_text, who_is_present

TURN_BUDGET = 12
RECIPE = PPORecipe(
    suite="dev",
    held_out_fraction=0.05,
    split_seed=3,
    turn_budget=TURN_BUDGET,
    num_envs=2,
    total_timesteps=2048,
    n_steps=128,
    batch_size=64,
    n_epochs=2,
    seed=1,
    eval_episodes_per_case=1,
    curve_evaluations=1,
    curve_eval_cases=2,
)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ppo")
    recipe = PPORecipe.from_dict({**RECIPE.to_dict(), "output_dir": str(out / "run"), "tensorboard_log": str(out / "tb")})
    return train_ppo(recipe)


# ------------------------------------------------------------------------------- training run


@pytest.mark.slow
def test_training_run_saves_policy_split_curve_and_component_scalars(trained: Path) -> None:
    assert trained.name == POLICY_FILE and trained.is_file()
    run = load_run(trained)
    split = run["split"]
    assert split["held_out"] and split["train"]
    assert not set(split["train"]) & set(split["held_out"])
    assert run["timesteps"] >= RECIPE.total_timesteps
    assert run["masked_choices"] == 0, "MaskablePPO sampled an action the mask forbids"
    held = run["held_out"]
    assert held["n"] == len(split["held_out"]) and len(held["returns"]) == held["n"]
    assert held["components"]["invalid_action"] == 0.0
    assert run["curve"]["episodes"], "no training episode finished"
    assert len(run["curve"]["evaluations"]) == 1
    # every reward component is its own TensorBoard scalar
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = glob.glob(str(Path(run["recipe"]["tensorboard_log"]) / "*" / "events.out.tfevents.*"))
    assert events
    accumulator = EventAccumulator(events[0])
    accumulator.Reload()
    tags = set(accumulator.Tags()["scalars"])
    from mentalhospital_env.rewards.shaping import COMPONENTS

    assert {f"reward_components/{c}" for c in COMPONENTS} <= tags
    assert "eval/held_out_return" in tags


@pytest.mark.slow
def test_saved_policy_reloads_and_respects_masks_on_held_out_cases(trained: Path) -> None:
    from sb3_contrib import MaskablePPO

    run = load_run(trained)
    model = MaskablePPO.load(trained, device="cpu")
    # evaluate_policy_on_cases raises if the policy ever picks a masked action
    result = evaluate_policy_on_cases(model, run["split"]["held_out"], suite="dev", turn_budget=TURN_BUDGET)
    assert result.n == len(run["split"]["held_out"])
    assert result.components["invalid_action"] == 0.0
    assert result.ci_low is None or result.ci_low <= result.mean <= result.ci_high
    # the greedy policy is deterministic: the same returns as the evaluation saved at training time
    assert list(result.returns) == pytest.approx(run["held_out"]["returns"])


@pytest.mark.slow
def test_policy_plays_the_text_env_as_a_doctor(trained: Path) -> None:
    from mentalhospital_env.roster import make_doctor

    held_out = load_run(trained)["split"]["held_out"][0]
    doctor = make_doctor(f"ppo:{trained.parent}")
    assert isinstance(doctor, PPODoctor)
    env = gymnasium.make("MentalHospital-v0", suite="dev", turn_budget=TURN_BUDGET)
    observation, info = env.reset(seed=0, options={"case_id": held_out})
    doctor.reset(observation, info)
    done, turns = False, 0
    while not done:
        action = doctor.act(observation, info)
        assert isinstance(action, str) and action.startswith("<")
        observation, _, terminated, truncated, info = env.step(action)
        assert info["error"] == "", f"the PPO doctor sent an invalid action {action!r}: {info['error']}"
        done, turns = terminated or truncated, turns + 1
    assert 1 <= turns <= TURN_BUDGET
    assert env.unwrapped.episode_record().chart.invalid_actions == 0


@pytest.mark.slow
def test_mentalhospital_evaluate_runs_the_ppo_doctor(trained: Path, tmp_path: Path) -> None:
    from mentalhospital_env.evaluation import EvaluationSpec, read_episodes, run_evaluation

    held_out = tuple(load_run(trained)["split"]["held_out"][:2])
    spec = EvaluationSpec(suite="dev", case_ids=held_out, turn_budget=TURN_BUDGET)
    results = run_evaluation(f"ppo:{trained}", spec, tmp_path, workers=1, progress=False)
    assert results["complete"] and results["n_episodes"] == len(held_out)
    for row in read_episodes(tmp_path / "episodes.jsonl"):
        assert row["record"]["chart"]["invalid_actions"] == 0
    as_doctor = evaluate_doctor_on_cases(f"ppo:{trained}", held_out, suite="dev", turn_budget=TURN_BUDGET)
    assert as_doctor.n == len(held_out) and as_doctor.components["invalid_action"] == 0.0


# ------------------------------------------------------------ the text doctor's view of the findings


def _play_both(case_id: str, choose) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[np.ndarray], object]:
    """The same menu entries on the discrete env and, as text through a reader, on the text env."""
    discrete = gymnasium.make("MentalHospitalDiscrete-v0", suite="dev", turn_budget=TURN_BUDGET)
    text = gymnasium.make("MentalHospital-v0", suite="dev", turn_budget=TURN_BUDGET)
    d_obs, d_info = discrete.reset(seed=5, options={"case_id": case_id})
    t_obs, t_info = text.reset(seed=5, options={"case_id": case_id})
    reader = TextFindingsReader()
    reader.start(t_obs["text"])
    reader.saw(t_obs, t_info)
    d_vecs, t_vecs, d_masks, t_masks = [d_obs], [reader.vector.copy()], [d_info["action_mask"]], [reader.mask()]
    done = False
    while not done:
        index = choose(d_info["action_mask"], discrete.unwrapped.menu)
        d_obs, _, term, trunc, d_info = discrete.step(index)
        t_obs, _, _, _, t_info = text.step(reader.action_text(index))
        assert t_info["error"] == "", t_info["error"]
        reader.saw(t_obs, t_info)
        d_vecs.append(d_obs)
        t_vecs.append(reader.vector.copy())
        d_masks.append(d_info["action_mask"])
        t_masks.append(reader.mask())
        done = term or trunc
    return d_vecs, t_vecs, d_masks, t_masks, discrete.unwrapped


def test_text_reader_rebuilds_the_discrete_observation_and_mask() -> None:
    """Stage, turn, walk-in, questions asked and exam results agree exactly; the mask too."""
    rng = np.random.default_rng(0)

    def choose(mask: np.ndarray, menu) -> int:
        allowed = np.flatnonzero(mask)
        by_kind = {k: [i for i in allowed if menu.items[i].kind == k] for k in ("ask", "order_exams", "write_note", "diagnose", "treat")}
        for kind, share in (("ask", 0.6), ("order_exams", 0.7), ("write_note", 1.0), ("diagnose", 1.0), ("treat", 1.0)):
            if by_kind[kind] and rng.random() < share:
                return int(rng.choice(by_kind[kind]))
        return int(rng.choice(allowed))

    compared = 0
    for case_id in ("dev-0001", "dev-0002", "dev-0007"):
        d_vecs, t_vecs, d_masks, t_masks, env = _play_both(case_id, choose)
        names = env.feature_names
        exact = np.array([not n.startswith(("affirmed:", "denied:")) for n in names])
        for d, t in zip(d_vecs, t_vecs):
            np.testing.assert_array_equal(d[exact], t[exact])
            compared += 1
        for d, t in zip(d_masks, t_masks):
            np.testing.assert_array_equal(d, t)
        # exams ordered were read back from the text: at least one result slot was filled when exams were ordered
        ordered = [n for n, v in zip(names, d_vecs[-1]) if n.startswith("ordered:") and v]
        assert all(t_vecs[-1][names.index(n)] == 1.0 for n in ordered)
    assert compared > 6


def test_read_walk_in_recovers_every_dev_case() -> None:
    suite = load_suite("dev")
    for case_id in suite.case_ids:
        case = suite[case_id]
        walk_in = read_walk_in(walk_in_text(case) + "\nYou have 17 turns.")
        assert walk_in.age == case.demographics.age
        assert walk_in.sex == (case.demographics.sex if case.demographics.sex in ("female", "male") else "other")
        assert walk_in.setting == case.setting
        assert walk_in.accompanied == (who_is_present(case) is not None)
        assert walk_in.turn_budget == 17


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_read_walk_in_refuses_other_text_with_a_clear_error(text: str) -> None:
    try:
        walk_in = read_walk_in(text)
    except ValueError as e:
        assert "not a walk-in observation" in str(e)
    else:
        assert walk_in.age >= 0


# ---------------------------------------------------------------------------- recipe and errors


def test_case_split_is_disjoint_deterministic_and_checks_names() -> None:
    a, b = split_cases(RECIPE), split_cases(RECIPE)
    assert a == b
    assert not set(a.train) & set(a.held_out)
    assert len(a.train) + len(a.held_out) == len(load_suite("dev").case_ids)
    other = split_cases(PPORecipe(split_seed=4, held_out_fraction=0.05))
    assert other.held_out != a.held_out
    named = split_cases(PPORecipe(train_case_ids=("dev-0001", "dev-0002"), held_out_case_ids=("dev-0003",)))
    assert named.train == ("dev-0001", "dev-0002") and named.held_out == ("dev-0003",)
    with pytest.raises(ValueError, match="overlap"):
        split_cases(PPORecipe(train_case_ids=("dev-0001",), held_out_case_ids=("dev-0001",)))
    with pytest.raises(ValueError, match="not in suite"):
        split_cases(PPORecipe(held_out_case_ids=("nope-1",)))
    with pytest.raises(ValueError, match="held_out_fraction"):
        PPORecipe(held_out_fraction=1.5)
    with pytest.raises(ValueError, match="vec_env"):
        PPORecipe(vec_env="threads")
    with pytest.raises(ValueError, match="unknown fields"):
        PPORecipe.from_dict({"learning_rat": 0.1})
    assert PPORecipe.from_dict(json.loads(json.dumps(RECIPE.to_dict()))) == RECIPE


def test_random_baseline_keeps_to_the_mask() -> None:
    result = evaluate_policy_on_cases(MaskedUniformPolicy(0), ["dev-0001", "dev-0002"], suite="dev", turn_budget=TURN_BUDGET)
    assert result.n == 2 and result.components["invalid_action"] == 0.0
    with pytest.raises(RuntimeError, match="masked action"):
        # menu entry 0 is a question: allowed once, then masked as taken
        evaluate_policy_on_cases(lambda obs, mask: 0, ["dev-0001"], suite="dev", turn_budget=TURN_BUDGET)


def test_ppo_factory_names_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="ppo:PATH"):
        make(None)
    with pytest.raises(FileNotFoundError, match="no PPO policy"):
        make(str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match=RUN_FILE):
        load_run(tmp_path)


def test_an_informant_field_saying_nobody_came_is_a_patient_seen_alone():
    """Stop 39: uw-012's informant field opens "None in the room; she came alone. Her partner ... gave collateral by
    telephone the day before", and the walk-in said she was "accompanied by another person"."""
    import dataclasses
    from pathlib import Path

    from mentalhospital_env.cases import load_case

    case = load_case(Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen/uw-012.json")
    assert who_is_present(case) is None
    assert walk_in_text(case).endswith(", alone.")
    for text, seen in (("None present; her sister phoned the day before", None), ("No one came with her", None),
                       ("her mother Jean, who joins for the second half", "her mother"),
                       ("Nonetheless her partner sat in", "her partner")):
        told = dataclasses.replace(case, persona=dataclasses.replace(case.persona, informant=text))
        assert who_is_present(told) == seen, text
