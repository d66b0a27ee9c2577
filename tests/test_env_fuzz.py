"""Thousands of random strings, mappings, numbers and out-of-stage actions into both environments.

No exception may escape, every invalid action's observation (text id) or info (both ids) names the
problem, and an invalid action leaves the clinical state unchanged (the last turn of the budget ends
the encounter, and nothing else changes).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mentalhospital_env  # noqa: F401
from mentalhospital_env.cases.generator import generate_cases
from mentalhospital_env.env import to_charset
from mentalhospital_env.hospital.stages import END

pytestmark = pytest.mark.slow

PROBLEMS = {
    "no_action",
    "empty",
    "ambiguous",
    "out_of_stage",
    "unknown_exam",
    "unknown_disorder",
    "unknown_category",
    "bad_field",
    "bad_type",
    "ended",
    "bad_index",
}
MIN_INPUTS = 5000
CASES = generate_cases(5, 41, "fuzz")

_valid = st.sampled_from(
    [
        "<ask>How have you been sleeping?</ask>",
        "<ask>Have you had any thoughts of ending your life?</ask>",
        "<order_exams>PHQ-9; TSH</order_exams>",
        '{"action": "order_exams", "exams": ["GAD-7"]}',
        "<write_note>Low mood, poor sleep.</write_note>",
        "<diagnose>categories: depressive | disorders: 1. F32.1</diagnose>",
        {"action": "diagnose", "categories": ["anxiety"], "disorders": ["F41.1"]},
    ]
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
    max_leaves=8,
)
_dicts = st.dictionaries(
    st.sampled_from(
        [
            "action",
            "type",
            "name",
            "ask",
            "utterance",
            "exams",
            "note",
            "categories",
            "disorders",
            "plan",
            "arguments",
        ]
    ),
    _json | st.sampled_from(["ask", "order_exams", "write_note", "diagnose", "treat", "fly"]),
    max_size=4,
)
_noise = st.lists(
    st.one_of(
        st.text(max_size=15),
        st.sampled_from(
            [
                "<ask>",
                "</ask>",
                "<treat",
                "<diagnose>",
                "categories:",
                "disorders:",
                "|",
                "```",
                "{",
                "<order exams>",
                "F32.1",
                "<think>",
                "</write_note>",
            ]
        ),
    ),
    max_size=8,
).map("".join)
_garbage = st.one_of(st.text(max_size=200), _noise, _dicts, _json, st.binary(max_size=20), st.just(object()))
_text_inputs = st.one_of(_garbage, _garbage, _garbage, _valid)
_discrete_inputs = st.one_of(
    st.integers(-(2**40), 2**40),
    st.integers(-5, 600),
    st.integers(0, 542).map(np.int64),
    st.floats(allow_nan=True),
    _garbage,
    st.sampled_from([np.array([3]), np.array([1.5]), np.array([[1, 2]]), True]),
)


def _problem_named(info, obs_text=None):
    assert info["problem"] in PROBLEMS and info["error"] and info["error"].strip()
    if obs_text is not None:  # the observation says it, in the text space's characters
        assert obs_text.startswith(to_charset("Invalid action: " + info["error"], 8192)[:120])
    if info["stage"] != END:
        assert f"Allowed now (stage {info['stage']})" in info["error"]


def _feed(env, inputs, advance, seed, text_obs):
    u = env.unwrapped
    env.reset(seed=seed)
    if advance:
        env.step("<write_note>Brief note.</write_note>")  # asks and exams are now out of stage
    fed = 0
    for source in inputs:
        if u.encounter.ended:
            env.reset(seed=seed)
        before = u.encounter.clinical_state()
        obs, _reward, _terminated, truncated, info = env.step(source)
        fed += 1
        assert env.observation_space.contains(obs)
        if info["error"]:
            _problem_named(info, obs["text"] if text_obs else None)
            after = u.encounter.clinical_state()
            assert after == before or (truncated and after.chart == before.chart and after.stage == END)
        else:
            assert info["valid"] and info["action"]["action"]
    return fed


@pytest.mark.parametrize(
    ("env_id", "action_inputs", "text_obs"),
    [("MentalHospital-v0", _text_inputs, True), ("MentalHospitalDiscrete-v0", _discrete_inputs, False)],
    ids=["text", "discrete"],
)
def test_env_survives_random_input(env_id, action_inputs, text_obs):
    env = gym.make(env_id, suite=CASES, turn_budget=30, rewards_at_end=True)
    fed: list[int] = []

    @settings(max_examples=420, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        inputs=st.lists(action_inputs, min_size=12, max_size=16),
        advance=st.booleans(),
        seed=st.integers(0, 50),
    )
    def run(inputs, advance, seed):
        fed.append(_feed(env, inputs, advance, seed, text_obs=text_obs))

    run()
    assert sum(fed) >= MIN_INPUTS
