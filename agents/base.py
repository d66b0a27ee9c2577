"""The doctor interface every policy implements, and how doctors are found by name.

A doctor sees what the text environment ``MentalHospital-v0`` shows: the observation dict (``text``,
``stage``, ``turn``) and the ``info`` dict; it answers with one action in the text protocol of
DESIGN.md (``<ask>...</ask>``, ``<order_exams>...</order_exams>``, ``<write_note>...</write_note>``,
``<diagnose>...</diagnose>``, ``<treat>...</treat>``) or a JSON-style dict with the same fields.

Doctors are found by name through the ``mentalhospital.doctors`` entry-point group (this package
registers ``random``, ``scripted``, ``llm``, ``human`` and ``ppo``; other packages may add their own),
or by ``module:attribute``. A name may carry an argument after a colon: ``llm:openai:http://...``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

Observation = Mapping[str, Any]
Info = Mapping[str, Any]
Action = str | Mapping[str, Any]


def allowed_now(observation: Observation, info: Info) -> tuple[str, ...]:
    """The action names allowed at this point of the encounter (``ask``, ``order_exams`` ...).

    Taken from ``info["allowed_actions"]`` when the environment gives it, otherwise from the stage in
    the observation.
    """
    from mentalhospital_env.hospital.stages import ALL_STAGES, allowed_actions

    given = info.get("allowed_actions")
    if given:
        return tuple(given)
    stage = observation.get("stage", 0)
    name = ALL_STAGES[int(stage)] if not isinstance(stage, str) else stage
    return allowed_actions(name)


class Doctor(ABC):
    """A doctor policy: reset at the start of each episode, then one action per observation."""

    name: str = "doctor"

    def reset(self, observation: Observation, info: Info) -> None:
        """Called with the walk-in observation of a new episode. Default: nothing to forget."""

    @abstractmethod
    def act(self, observation: Observation, info: Info) -> Action:
        """The next action for this observation."""

    @classmethod
    def act_batch(
        cls, doctors: Sequence["Doctor"], observations: Sequence[Observation], infos: Sequence[Info]
    ) -> list[Action]:
        """One action for each (doctor, observation) pair of parallel episodes.

        Each episode has its own doctor instance (doctors keep per-episode state); doctors backed by
        a language model override this to answer all of them with one batched call.
        """
        return [d.act(o, i) for d, o, i in zip(doctors, observations, infos)]
