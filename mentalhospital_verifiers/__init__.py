"""MentalHospital as a ``verifiers`` environment (verifiers 0.4, ``verifiers.v1``), for ``vf-eval`` and
prime-rl style trainers.

A **taskset** of one task per case of a suite (the task's prompt is the walk-in, its system prompt the
text protocol of the ``llm`` doctor) and an **environment** whose ``run`` plays the encounter host-side:
each reply of the model is one action of ``MentalHospital-v0``, the patient's answer or the clinic's
acknowledgement comes back as the next user turn, and the episode ends when the doctor gives the
treatment plan or the turn budget is spent. The **rubric** is the library's named reward components:
each is recorded on the trace as its own reward (the episode's raw total) with its ``RewardConfig``
weight, so the trace's reward is the environment's return; the study's ten scores are recorded as
metrics.

    vf-eval mentalhospital-verifiers -m MODEL --client.base-url http://127.0.0.1:8000/v1 -n 40 --no-push \\
        --env.taskset.suite test

or from Python: ``load_environment(suite="dev", limit=5)``. The id ``mentalhospital-verifiers`` imports
this package. Needs ``pip install 'mentalhospital-env[verifiers]'`` (verifiers pins ``openai<3``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf

from mentalhospital_env.agents.llm_doctor import SYSTEM_PROMPT

__all__ = ["ClinicConfig", "ClinicData", "ClinicEnv", "ClinicEnvConfig", "ClinicTask", "ClinicTaskset", "load_environment"]


class ClinicConfig(vf.TasksetConfig):
    suite: str = "dev"
    """A bundled suite (dev, test, handwritten) or a case file or folder."""
    seed: int = 0
    """The patient's seed (with the case, it fixes the episode)."""
    turn_budget: int = 40
    limit: int | None = None
    """Only the first N cases of the suite."""


class ClinicData(vf.TaskData):
    info: dict
    """The suite, case id, seed and turn budget the environment replays the encounter from."""


class ClinicTask(vf.Task[ClinicData, vf.State, vf.TaskConfig]):
    pass


class ClinicEnvConfig(vf.EnvConfig):
    doctor: vf.AgentConfig = vf.AgentConfig(harness={"id": "null"}, runtime=vf.SubprocessConfig())
    """The model under evaluation: a plain chat loop (no tools, no program to run, so no sandbox)."""


def _env_for(info: dict) -> Any:
    import gymnasium

    import mentalhospital_env  # noqa: F401  (registers the ids)

    return gymnasium.make("MentalHospital-v0", suite=info["suite"], turn_budget=info["turn_budget"])


class ClinicTaskset(vf.Taskset[ClinicTask, ClinicConfig]):
    def load(self) -> Iterator[ClinicTask]:
        from mentalhospital_env.cases import load_suite

        suite = load_suite(self.config.suite)
        ids = list(suite.case_ids)[: self.config.limit] if self.config.limit else list(suite.case_ids)
        env = None
        for idx, case_id in enumerate(ids):
            info = {"suite": self.config.suite, "case_id": case_id, "seed": self.config.seed, "turn_budget": self.config.turn_budget}
            env = env or _env_for(info)
            observation, _ = env.reset(seed=self.config.seed, options={"case_id": case_id})
            yield ClinicTask(
                ClinicData(idx=idx, name=case_id, prompt=observation["text"], system_prompt=SYSTEM_PROMPT, info=info),
                self.config.task,
            )


class ClinicEnv(vf.Env[ClinicEnvConfig]):
    async def run(self, task: ClinicTask, agents: Any) -> None:
        from mentalhospital_env.rewards.scoring import score_chart
        from mentalhospital_env.rewards.shaping import COMPONENTS

        info = task.data.info
        env = _env_for(info)
        env.reset(seed=info["seed"], options={"case_id": info["case_id"]})
        totals = dict.fromkeys(COMPONENTS, 0.0)
        async with agents.doctor.interaction(task) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                observation, _reward, terminated, truncated, step_info = env.step(segment.last_reply or "")
                for name, value in step_info["reward_components"].items():
                    if value == value:  # NaN: a judge could not score; counted as 0
                        totals[name] = totals.get(name, 0.0) + value
                if terminated or truncated:
                    break
                segment = await interaction.turn(observation["text"])
        trace = interaction.trace
        weights = _weights()
        for name, total in totals.items():
            trace.record_reward(name, total, weights.get(name, 1.0))
        record = env.unwrapped.episode_record()
        case = env.unwrapped.clinic.suite[info["case_id"]]
        scores = score_chart(case, record.chart).to_dict()
        for key in ("inter", "exam", "note", "cate", "diso", "emp", "prof", "qual", "rigor", "app"):
            if isinstance(scores.get(key), (int, float)):
                trace.record_metric(key, scores[key])
        trace.record_metric("turns", float(len(record.steps)))
        trace.info["case_id"] = info["case_id"]
        env.close()


def _weights() -> dict[str, float]:
    """The weight of each component under the environment's reward configuration (the library defaults)."""
    from mentalhospital_env.rewards.shaping import COMPONENTS, RewardConfig

    config = RewardConfig()
    return {name: config.weight(name) for name in COMPONENTS}


def load_environment(suite: str = "dev", limit: int | None = None, seed: int = 0, turn_budget: int = 40, **env: Any) -> ClinicEnv:
    """The environment over ``suite`` (``limit`` cases), ready for verifiers' runners."""
    config = ClinicEnvConfig(
        taskset={"id": "mentalhospital-verifiers", "suite": suite, "limit": limit, "seed": seed, "turn_budget": turn_budget},
        **env,
    )
    return ClinicEnv(config)
