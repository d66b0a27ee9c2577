"""The doctors: the roster, the random floor, the scripted clinician, the LLM doctor and the human at a terminal."""

from __future__ import annotations

import json

import gymnasium
import pytest

import mentalhospital_env  # noqa: F401  (registers the environments)
from mentalhospital_env.agents.human import HumanDoctor, to_protocol
from mentalhospital_env.agents.llm_doctor import LLMDoctor
from mentalhospital_env.llm import GenerationSettings, ScriptedClient
from mentalhospital_env.roster import DoctorNotFound, make_doctor, registered_doctors


def play(env, doctor, case_id, seed=0, max_steps=200):
    obs, info = env.reset(seed=seed, options={"case_id": case_id})
    doctor.reset(obs, info)
    for _ in range(max_steps):
        obs, _, terminated, truncated, info = env.step(doctor.act(obs, info))
        if terminated or truncated:
            return env.unwrapped.episode_record(), terminated
    raise AssertionError("episode did not end")


@pytest.fixture(scope="module")
def env():
    e = gymnasium.make("MentalHospital-v0", suite="dev", turn_budget=40)
    yield e
    e.close()


def test_roster_knows_the_bundled_doctors():
    assert {"random", "scripted", "llm", "human", "ppo"} <= set(registered_doctors())
    with pytest.raises(DoctorNotFound, match="registered doctors"):
        make_doctor("no-such-doctor")
    with pytest.raises(ValueError, match="integer seed"):
        make_doctor("random:abc")


def test_scripted_clinician_completes_every_stage_without_invalid_actions(env):
    record, terminated = play(env, make_doctor("scripted"), "dev-0001")
    chart = record.chart
    assert terminated
    assert chart.invalid_actions == 0
    assert len(chart.turns) >= 20 and chart.exams and chart.note and chart.categories and chart.disorders and chart.treatment
    for heading in ("Chief complaint", "History of present illness", "Mental status examination", "Risk assessment", "Assessment"):
        assert heading in chart.note
    questions = [t.doctor for t in chart.turns]
    assert len(set(questions)) == len(questions), "the clinician repeats itself"


def test_random_doctor_is_deterministic_per_episode(env):
    a, _ = play(env, make_doctor("random"), "dev-0002", seed=3)
    b, _ = play(env, make_doctor("random"), "dev-0002", seed=3)
    assert a.to_dict() == b.to_dict()


def test_llm_doctor_retries_an_unparseable_reply_and_then_acts():
    client = ScriptedClient(["I think we should talk.", "<ask>What brings you here today?</ask>"])
    doctor = LLMDoctor(client, GenerationSettings(max_new_tokens=32))
    obs = {"text": "A 30-year-old woman is here to see you.", "stage": 0, "turn": 0}
    info = {"allowed_actions": ["ask", "order_exams", "write_note", "diagnose", "treat"]}
    doctor.reset(obs, info)
    action = doctor.act(obs, info)
    assert action == "<ask>What brings you here today?</ask>"
    retry_prompt = client.calls[1].conversations[0][-1]["content"]
    assert "not a valid action" in retry_prompt


def test_llm_doctor_bounds_the_interview():
    client = ScriptedClient(lambda conversation: "<ask>And how is your sleep?</ask>" if "interview time is over" not in conversation[-1]["content"] and "interview is over" not in conversation[-1]["content"] else "<order_exams>PHQ-9</order_exams>")
    doctor = LLMDoctor(client, max_interview_turns=2, max_retries=1)
    obs = {"text": "walk-in", "stage": 0, "turn": 0}
    info = {"allowed_actions": ["ask", "order_exams", "write_note", "diagnose", "treat"]}
    doctor.reset(obs, info)
    actions = [doctor.act({**obs, "turn": t}, info) for t in range(4)]
    assert actions[:2] == ["<ask>And how is your sleep?</ask>"] * 2
    assert actions[2] == "<order_exams>PHQ-9</order_exams>"


def test_llm_doctors_share_one_batched_call_per_round():
    client = ScriptedClient(default="<ask>How have you been feeling?</ask>")
    doctors = [LLMDoctor(client) for _ in range(3)]
    obs = [{"text": f"patient {i}", "stage": 0, "turn": 0} for i in range(3)]
    infos = [{"allowed_actions": ["ask"]}] * 3
    for d, o, i in zip(doctors, obs, infos):
        d.reset(o, i)
    actions = LLMDoctor.act_batch(doctors, obs, infos)
    assert actions == ["<ask>How have you been feeling?</ask>"] * 3
    assert len(client.calls) == 1 and len(client.calls[0].conversations) == 3


@pytest.mark.slow
def test_llm_doctor_with_a_tiny_random_model_plays_to_the_end(env, tiny_llama_path):
    """Plumbing: a random model emits gibberish, the doctor retries, the env penalises, the budget ends it."""
    from mentalhospital_env.llm import make_client

    doctor = LLMDoctor(make_client(f"transformers:{tiny_llama_path}"), GenerationSettings(max_new_tokens=8), max_retries=1)
    small = gymnasium.make("MentalHospital-v0", suite="dev", turn_budget=4)
    record, _ = play(small, doctor, "dev-0003")
    assert record.done and len(record.steps) == 4
    small.close()


def test_human_doctor_plays_from_typed_lines(env):
    lines = iter(["What brings you in today?", "/exams PHQ-9; TSH", "/note Low mood for months.",
                  "/diagnose categories: depressive | disorders: 1. F32.1", "/treat Sertraline 50 mg daily; review in two weeks."])
    printed = []

    class Sink:
        def write(self, text):
            printed.append(text)

        def flush(self):
            pass

    doctor = HumanDoctor(read=lambda prompt: next(lines), out=Sink())
    record, terminated = play(env, doctor, "dev-0004")
    assert terminated and record.chart.invalid_actions == 0
    assert record.chart.exams and "PHQ-9" in record.chart.exams
    assert any("allowed" in p for p in printed)


def test_typed_lines_become_protocol_actions():
    assert to_protocol("How do you sleep?") == "<ask>How do you sleep?</ask>"
    assert to_protocol("/treat rest") == "<treat>rest</treat>"
    assert to_protocol("<order_exams>TSH</order_exams>") == "<order_exams>TSH</order_exams>"


@pytest.mark.slow
def test_llm_doctor_evaluated_through_a_served_model_on_loopback(tiny_llama_path, tmp_path):
    """The example: a model served over HTTP on 127.0.0.1, the OpenAI-compatible client, the harness."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
    import evaluate_served_model

    results = evaluate_served_model.main(
        ["--model", f"transformers:{tiny_llama_path}", "--cases", "1", "--turn-budget", "3", "--out", str(tmp_path)]
    )
    assert results["n_episodes"] == 1 and results["doctor"].startswith("llm:openai:doctor?")
    assert "127.0.0.1" not in json.dumps(results)  # the identity is the model and its settings, not the URL
