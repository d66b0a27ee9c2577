"""The PettingZoo AEC environment: API and seed tests, turn order, built-in and external patients."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from mentalhospital_env.cases.generator import generate_cases
from mentalhospital_env.multiagent import DOCTOR, PATIENT, SILENCE, WAITING, env, raw_env


@pytest.fixture(scope="module")
def cases():
    return generate_cases(4, 33, "aec")


def test_api_test_passes(cases):
    with pytest.warns(UserWarning):  # PettingZoo's advice about non-array observations and agent names
        api_test(env(suite=cases, turn_budget=12, render_mode="ansi"), num_cycles=60)


def test_seed_test_passes(cases):
    seed_test(lambda: env(suite=cases, turn_budget=12), num_cycles=40)


def test_env_wraps_raw_env_and_spaces_are_stable(cases):
    wrapped = env(suite=cases)
    assert isinstance(wrapped, wrappers.OrderEnforcingWrapper) and isinstance(wrapped.unwrapped, raw_env)
    raw = raw_env(suite=cases)
    for agent in raw.possible_agents:
        assert raw.observation_space(agent) is raw.observation_space(agent)
        assert raw.action_space(agent) is raw.action_space(agent)
        assert "observation" not in raw.observation_space(agent).spaces


def test_turns_alternate_when_the_doctor_asks_and_the_built_in_patient_answers(cases):
    aec = env(suite=cases, turn_budget=10, render_mode="ansi")
    aec.reset(seed=3)
    assert aec.agent_selection == DOCTOR and aec.observe(PATIENT)["text"] == WAITING
    aec.step("<ask>What brings you in today?</ask>")
    assert aec.agent_selection == PATIENT
    assert aec.observe(PATIENT)["text"] == "What brings you in today?"
    assert aec.infos[PATIENT]["awaiting_reply"] is True
    aec.step(None)  # the built-in patient answers; the action is ignored
    obs, reward, _terminated, _truncated, info = aec.last()
    assert aec.agent_selection == DOCTOR and obs["text"].startswith("Patient:") and obs["turn"] == 1
    assert info["reward_components"]["interview"] >= 0.0 and info["turn_budget"] == 10
    aec.step("<order_exams>PHQ-9</order_exams>")  # answered by the clinic: the doctor acts again
    assert aec.agent_selection == DOCTOR and aec.observe(DOCTOR)["text"].startswith("Exam results:")
    aec.step("gibberish")
    obs, reward, _terminated, _truncated, info = aec.last()
    assert aec.agent_selection == DOCTOR and info["problem"] == "no_action" and reward < 0
    aec.step("<treat>CBT and review</treat>")
    assert all(aec.terminations.values()) and not any(aec.truncations.values())
    for agent in aec.agent_iter():
        obs, reward, terminated, _truncated, info = aec.last()
        assert terminated
        aec.step(None)
    assert aec.agents == []
    record = aec.unwrapped.episode_record()
    assert record.terminated and len(record.steps) == 4 and "Doctor: <treat>" in aec.render()


def test_an_external_patient_agent_gives_the_replies(cases):
    aec = env(suite=cases, turn_budget=6, external_patient=True)
    aec.reset(seed=0, options={"case_id": cases[1]["case_id"]})
    assert aec.unwrapped.case.case_id == cases[1]["case_id"]
    assert aec.infos[PATIENT]["case_id"] == cases[1]["case_id"]
    aec.step("<ask>How is your sleep?</ask>")
    assert aec.agent_selection == PATIENT
    aec.step("Terrible, I wake at four every morning.")
    assert aec.observe(DOCTOR)["text"] == "Patient: Terrible, I wake at four every morning."
    aec.step("<ask>Anything else?</ask>")
    aec.step(None)
    assert aec.observe(DOCTOR)["text"] == f"Patient: {SILENCE}"
    record = aec.unwrapped.episode_record()
    assert record.settings["patient_variant"] == "external"
    assert (
        record.chart.turns[0].patient == "Terrible, I wake at four every morning."
        and record.chart.turns[0].fact_ids == ()
    )


def test_the_budget_truncates_both_agents(cases):
    aec = env(suite=cases, turn_budget=2)
    aec.reset(seed=1)
    aec.step("nonsense")
    aec.step("<write_note>n</write_note>")
    assert all(aec.truncations.values()) and not any(aec.terminations.values())
    with pytest.raises(ValueError):
        aec.step("<treat>too late</treat>")  # a finished agent may only pass None
