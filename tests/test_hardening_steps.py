"""Steps applied whole, in bounded time (issue 17, items 5 and 11)."""

from __future__ import annotations

import time
from collections.abc import Mapping

import gymnasium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mentalhospital_env.registration  # noqa: F401
from mentalhospital_env.hospital.actions import MAX_ACTION_DEPTH, MAX_ACTION_TEXT, ActionError, parse_action


@pytest.fixture(scope="module")
def env():
    e = gymnasium.make("MentalHospital-v0", suite="dev").unwrapped
    yield e
    e.close()


def _consistent(env) -> None:
    """The chart and the record agree: one step recorded per turn, invalid ones counted in both."""
    record = env.episode_record()
    enc = env.encounter
    assert len(record.steps) == enc.turn
    assert sum(1 for s in record.steps if s.error is not None) == record.chart.invalid_actions
    assert len(record.chart.turns) == sum(1 for s in record.steps if s.action and s.action["action"] == "ask")


def test_a_megabyte_of_braces_is_refused_at_once(env):
    env.reset(seed=0)
    t0 = time.perf_counter()
    _obs, _r, _term, _trunc, info = env.step("{" * 1_000_000)
    elapsed = time.perf_counter() - t0
    assert info["error"].startswith(f"The action is longer than {MAX_ACTION_TEXT}")
    assert elapsed < 1.0  # measured well under 1 ms; a loose bound for a loaded CI machine
    _consistent(env)


@pytest.mark.parametrize("text", ["{" * 65_000, '{"a":' * 13_000, '{"a":1 ' * 9_000, "<ask>" * 13_000])
def test_adversarial_text_under_the_limit_is_parsed_in_linear_time(text):
    # the quadratic parser took ~15 s on 200 KB of braces; linear parsing takes milliseconds here
    t0 = time.perf_counter()
    out = parse_action(text, "interview")
    assert isinstance(out, ActionError)
    assert time.perf_counter() - t0 < 2.0


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet='{}[]"\\:,a 1<>/askt', max_size=3000))
def test_parse_action_never_raises_on_json_like_text(text):
    out = parse_action(text, "interview")
    assert out is not None


def test_a_deep_mapping_is_an_invalid_action_applied_nowhere(env):
    env.reset(seed=0)
    action: dict = {"action": "ask", "utterance": "How have you been sleeping?"}
    inner = action
    for _ in range(1200):
        inner["x"] = {}
        inner = inner["x"]
    before = env.encounter.disclosed
    _obs, _r, _term, _trunc, info = env.step(action)
    assert f"more than {MAX_ACTION_DEPTH} levels" in info["error"]
    assert env.encounter.disclosed == before and env.encounter.chart.turns == ()
    _consistent(env)


class _Hostile(Mapping):
    def __getitem__(self, key):
        raise RuntimeError("boom")

    def __iter__(self):
        return iter(["action"])

    def __len__(self):
        return 1

    def get(self, key, default=None):
        raise RuntimeError("boom")

    def items(self):
        raise RuntimeError("boom")


def test_a_mapping_whose_methods_raise_is_an_invalid_action(env):
    env.reset(seed=0)
    _obs, _r, _term, _trunc, info = env.step(_Hostile())
    assert "could not be read: RuntimeError: boom" in info["error"]
    _consistent(env)


def test_a_valid_mapping_still_works_and_is_recorded(env):
    env.reset(seed=0)
    _obs, _r, _term, _trunc, info = env.step({"action": "ask", "utterance": "How is your mood?"})
    assert info.get("error") in (None, "")
    assert len(env.encounter.chart.turns) == 1
    _consistent(env)


@pytest.mark.parametrize("options", [[1], "dev-0001", 3, {"case_id": 5}])
def test_reset_options_of_the_wrong_type_say_so(env, options):
    with pytest.raises(TypeError, match="reset"):
        env.reset(seed=0, options=options)


def test_multiagent_reset_options_checked():
    from mentalhospital_env.multiagent import env as make_aec

    aec = make_aec(suite="dev")
    with pytest.raises(TypeError, match="reset"):
        aec.reset(seed=0, options=[1])
