"""The PettingZoo environment: doctor and patient as two agents taking turns (AEC).

The doctor acts in the text protocol of DESIGN.md. When it asks something valid, the patient agent
takes the next turn: it observes the doctor's utterance and its action is the reply, which the doctor
observes on its next turn. By default the patient agent is the library's skill-augmented patient
(the action passed for it is ignored: pass ``None``); with ``external_patient=True`` the patient
agent's action *is* the reply (a string), so another patient simulator, a language model or a person
can play the patient on the same cases and be compared with the built-in one. The patient agent then
finds its case in ``infos["patient"]["case_id"]`` and ``env.unwrapped.case``. A simulator that is an
object with ``respond(utterance)`` and ``reset(seed)`` (see ``hospital.roles.PatientLike``) plugs in
as ``patient_factory(case, seed)`` instead, and then answers on the patient agent's turn like the
built-in one.

Every other doctor action (exams, note, diagnosis, treatment, and invalid actions) is answered by the
clinic at once and the doctor acts again. Rewards go to the doctor; the episode ends for both agents
at the treatment (termination) or when the turn budget is spent (truncation)::

    from mentalhospital_env.multiagent import env
    aec = env(suite="dev")
    aec.reset(seed=0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        action = None if terminated or truncated else policy[agent](obs)
        aec.step(action)

``env()`` wraps ``raw_env`` in PettingZoo's order-enforcing wrapper, as PettingZoo's own
environments do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mentalhospital_env.cases import Case
from mentalhospital_env.env import CHARSET, MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, _case_option, to_charset
from mentalhospital_env.hospital.actions import Ask
from mentalhospital_env.hospital.clinic import Clinic, PatientFactory, ShaperFactory
from mentalhospital_env.hospital.encounter import Encounter, StepOutcome
from mentalhospital_env.hospital.record import EpisodeRecord
from mentalhospital_env.hospital.stages import ALL_STAGES, allowed_actions

DOCTOR = "doctor"
PATIENT = "patient"
WAITING = "Waiting for the doctor."
SILENCE = "(the patient says nothing)"


@dataclass(frozen=True)
class _SpokenReply:
    """A reply given by an external patient agent: its words, with no fact ids (it has no index)."""

    text: str
    fact_ids: tuple[str, ...] = ()


class _ExternalVoice:
    """The patient inside the encounter when an external agent plays it: says what it was given."""

    def __init__(self) -> None:
        self.next_reply = SILENCE

    def reset(self, seed: int | None = None) -> None:
        self.next_reply = SILENCE

    def respond(self, utterance: str) -> _SpokenReply:
        return _SpokenReply(self.next_reply)


class raw_env(AECEnv):
    """The doctor-patient encounter as a turn-based PettingZoo environment (see the module docstring).

    Keyword arguments are those of :class:`~mentalhospital_env.hospital.clinic.Clinic` plus
    ``external_patient`` and ``render_mode`` (``"ansi"``: ``render()`` returns the transcript).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mentalhospital_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        suite: Any = "dev",
        case_ids: Sequence[str] | None = None,
        patient_variant: str = "full",
        patient_backend: Any = "offline",
        reward_config: Any = None,
        turn_budget: int = 40,
        rewards_at_end: bool = False,
        render_mode: str | None = None,
        external_patient: bool = False,
        patient_factory: PatientFactory | None = None,
        shaper_factory: ShaperFactory | None = None,
        topic_reader: str = "fast",
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.external_patient = external_patient
        if external_patient:
            patient_factory = lambda case, seed: _ExternalVoice()
        self.clinic = Clinic(
            suite,
            case_ids,
            patient_variant,
            patient_backend,
            reward_config,
            turn_budget,
            rewards_at_end,
            patient_factory,
            shaper_factory,
            topic_reader,
        )
        if external_patient:
            self.clinic.record_settings["patient_variant"] = "external"
        self.possible_agents = [DOCTOR, PATIENT]
        self.agents: list[str] = []
        observation = spaces.Dict(
            {
                "text": spaces.Text(MAX_OBSERVATION_CHARS, min_length=0, charset=CHARSET),
                "stage": spaces.Discrete(len(ALL_STAGES)),
                "turn": spaces.Discrete(turn_budget + 1),
            }
        )
        self._observation_spaces = {a: observation for a in self.possible_agents}
        self._action_spaces = {
            a: spaces.Text(MAX_ACTION_CHARS, min_length=0, charset=CHARSET) for a in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        self.encounter: Encounter | None = None
        self._texts: dict[str, str] = {}
        self._pending: Any = None  # the doctor's question, as sent, until the patient answers it
        self._last: StepOutcome | None = None

    # ------------------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    @property
    def case(self) -> Case | None:
        """The case of the current episode (what an external patient plays from)."""
        return self.encounter.case if self.encounter is not None else None

    # ------------------------------------------------------------------------------ AEC API

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        case_id = _case_option(options)
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.encounter, outcome = self.clinic.start(self._np_random, case_id)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._pending = None
        self._last = outcome
        self._texts = {DOCTOR: outcome.text, PATIENT: WAITING}
        self.infos = {DOCTOR: self._doctor_info(outcome), PATIENT: self._patient_info()}
        self.agent_selection = DOCTOR

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.encounter is not None
        return {
            "text": to_charset(self._texts.get(agent, ""), MAX_OBSERVATION_CHARS),
            "stage": np.int64(ALL_STAGES.index(self.encounter.stage)),
            "turn": np.int64(self.encounter.turn),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        assert self.encounter is not None, "call reset() before step()"
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if agent == DOCTOR:
            self._doctor_acts(action)
        else:
            self._patient_acts(action)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.encounter is None:
            return None
        record = self.encounter.record()
        lines = [record.walk_in]
        for s in record.steps:
            lines += [f"\n[turn {s.turn}] Doctor: {s.action_text}", s.observation]
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        self.encounter = None

    def episode_record(self) -> EpisodeRecord:
        """The current episode as an :class:`EpisodeRecord`."""
        if self.encounter is None:
            raise RuntimeError("no episode yet: call reset()")
        return self.encounter.record()

    # ------------------------------------------------------------------------------ turns

    def _doctor_acts(self, action: Any) -> None:
        assert self.encounter is not None
        parsed = self.encounter.parse(action)
        if isinstance(parsed, Ask):
            # the encounter takes the question when the patient answers it, on the patient's turn
            self._pending = action
            self._texts[PATIENT] = parsed.utterance
            self.infos[PATIENT] = self._patient_info()
            self.agent_selection = PATIENT
            return
        self._finish(self.encounter.step(action))

    def _patient_acts(self, action: Any) -> None:
        assert self.encounter is not None and self._pending is not None
        if self.external_patient:
            voice = self.encounter.patient
            assert isinstance(voice, _ExternalVoice)
            voice.next_reply = action.strip() if isinstance(action, str) and action.strip() else SILENCE
        self._pending, pending = None, self._pending
        self._texts[PATIENT] = WAITING
        self._finish(self.encounter.step(pending))

    def _finish(self, outcome: StepOutcome) -> None:
        """Hand the outcome of a doctor action to the doctor: reward, next observation, end of episode."""
        self._last = outcome
        self.rewards[DOCTOR] = float(outcome.reward)
        self._texts[DOCTOR] = outcome.text
        self.infos[DOCTOR] = self._doctor_info(outcome)
        self.infos[PATIENT] = self._patient_info()
        if outcome.done:
            for a in self.agents:
                self.terminations[a] = outcome.terminated
                self.truncations[a] = outcome.truncated
        self.agent_selection = DOCTOR

    def _doctor_info(self, outcome: StepOutcome) -> dict[str, Any]:
        return {
            "stage": outcome.stage,
            "turn": outcome.turn,
            "reward_components": dict(outcome.components),
            "action": outcome.action.to_dict() if outcome.action is not None else None,
            "error": outcome.error.message if outcome.error is not None else None,
            "problem": outcome.error.problem if outcome.error is not None else None,
            "allowed_actions": list(allowed_actions(outcome.stage)),
            "turn_budget": self.clinic.settings.turn_budget,
        }

    def _patient_info(self) -> dict[str, Any]:
        assert self.encounter is not None
        return {"case_id": self.encounter.case.case_id, "awaiting_reply": self._pending is not None}


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment wrapped as PettingZoo recommends (order enforcing)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
