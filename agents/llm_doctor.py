"""A doctor driven by any language model behind the library's client interface.

The model gets a system prompt describing the encounter and the text protocol of DESIGN.md, then
each observation as a user message; its reply must hold exactly one action. A reply that does not
parse as an action allowed now is answered with the parser's message and retried (at most
``max_retries`` times); if it still fails, the raw reply goes to the environment, which charges the
invalid-action penalty and leaves the state unchanged. The interview is bounded: after
``max_interview_turns`` questions the model is told to move on, and further questions are refused
before they reach the patient.

``LLMDoctor.act_batch`` answers many episodes' doctors with one batched call per retry round, so a
served model (vLLM, SGLang, any OpenAI-compatible endpoint) is used efficiently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from mentalhospital_env.agents.base import Action, Doctor, Info, Observation, allowed_now
from mentalhospital_env.hospital.actions import ActionError, parse_action
from mentalhospital_env.hospital.stages import ACTION_FORMS, ALL_STAGES
from mentalhospital_env.llm import GenerationSettings, LLMClient, Message

SYSTEM_PROMPT = """You are a psychiatrist seeing a patient in a simulated clinic (all cases are synthetic).
The encounter has five stages in order; a stage may be skipped but never revisited:
1. interview: ask the patient one question or make one remark per turn: <ask>...</ask>
2. exams: order investigations by name: <order_exams>PHQ-9; TSH</order_exams>
3. note: write the clinical note (history, mental status examination, risk, assessment): <write_note>...</write_note>
4. diagnosis: diagnostic categories and a ranked list of disorders with ICD-10-CM codes:
   <diagnose>categories: depressive, anxiety | disorders: 1. F32.1 Major depressive disorder, single episode, moderate; 2. F41.1 Generalized anxiety disorder</diagnose>
5. treatment: the plan (medication with dose, psychotherapy, safety actions, follow-up); this ends the encounter: <treat>...</treat>
Category ids: neurocognitive, substance_related, schizophrenia_spectrum, bipolar, depressive, anxiety,
obsessive_compulsive, trauma_stressor, dissociative, somatic_symptom, feeding_eating, sleep_wake,
personality, disruptive_impulse_conduct, neurodevelopmental.
Be empathic and professional: open questions first, cover the history, mental state and risk.
Reply with exactly one action per turn, nothing else."""


@dataclass
class _Episode:
    messages: list[Message] = field(default_factory=list)
    asks: int = 0


class LLMDoctor(Doctor):
    name = "llm"

    def __init__(
        self,
        client: LLMClient,
        settings: GenerationSettings | None = None,
        *,
        max_interview_turns: int = 20,
        max_retries: int = 2,
        system_prompt: str = SYSTEM_PROMPT,
    ):
        self.client = client
        self.settings = settings or GenerationSettings(max_new_tokens=384, temperature=0.0, seed=0)
        self.max_interview_turns = max_interview_turns
        self.max_retries = max_retries
        self.system_prompt = system_prompt
        self.episode = _Episode()

    def reset(self, observation: Observation, info: Info) -> None:
        self.episode = _Episode([{"role": "system", "content": self.system_prompt}])

    def act(self, observation: Observation, info: Info) -> Action:
        return type(self).act_batch([self], [observation], [info])[0]

    # ----------------------------------------------------------------------------------- batching

    def _observe(self, observation: Observation, info: Info) -> None:
        text = str(observation.get("text", ""))
        allowed = allowed_now(observation, info)
        if self.episode.asks >= self.max_interview_turns and "ask" in allowed:
            text += "\n(The interview time is over: move on to the exams, the note, the diagnosis and the plan.)"
        self.episode.messages.append({"role": "user", "content": text})

    def _check(self, reply: str, observation: Observation, info: Info) -> str | None:
        """``None`` when ``reply`` holds an action allowed now, else what is wrong."""
        action = parse_action(reply, _stage_name(observation, info))
        if isinstance(action, ActionError):
            return action.message
        if action.name == "ask" and self.episode.asks >= self.max_interview_turns:
            allowed = [a for a in allowed_now(observation, info) if a != "ask"]
            return "The interview is over. Allowed now: " + "; ".join(ACTION_FORMS[a] for a in allowed)
        return None

    @classmethod
    def act_batch(cls, doctors: Sequence[Doctor], observations: Sequence[Observation], infos: Sequence[Info]) -> list[Action]:
        """One action per doctor, with one batched model call per retry round (doctors must share a client)."""
        llm_doctors = [d for d in doctors if isinstance(d, LLMDoctor)]
        if len(llm_doctors) != len(doctors):
            raise TypeError("LLMDoctor.act_batch takes only LLMDoctor instances")
        if not doctors:
            return []
        client = llm_doctors[0].client
        for d, o, i in zip(llm_doctors, observations, infos):
            d._observe(o, i)
        replies: list[str | None] = [None] * len(llm_doctors)
        todo = list(range(len(llm_doctors)))
        for attempt in range(max(d.max_retries for d in llm_doctors) + 1):
            if not todo:
                break
            batch = client.generate([llm_doctors[k].episode.messages for k in todo], llm_doctors[0].settings)
            still = []
            for k, reply in zip(todo, batch):
                doctor = llm_doctors[k]
                doctor.episode.messages.append({"role": "assistant", "content": reply})
                problem = doctor._check(reply, observations[k], infos[k])
                replies[k] = reply
                if problem is not None and attempt < doctor.max_retries:
                    doctor.episode.messages.append(
                        {"role": "user", "content": f"That reply was not a valid action: {problem}\nReply with exactly one action."}
                    )
                    still.append(k)
            todo = still
        out: list[Action] = []
        for doctor, reply, o, i in zip(llm_doctors, replies, observations, infos):
            assert reply is not None
            if doctor._check(reply, o, i) is None and _action_name(reply, o, i) == "ask":
                doctor.episode.asks += 1
            out.append(reply)
        return out


def _stage_name(observation: Observation, info: Info) -> str:
    stage = info.get("stage", observation.get("stage", 0))
    return stage if isinstance(stage, str) else ALL_STAGES[int(stage)]


def _action_name(reply: str, observation: Observation, info: Info) -> str | None:
    action = parse_action(reply, _stage_name(observation, info))
    return None if isinstance(action, ActionError) else action.name


def make(argument: str | None = None) -> LLMDoctor:
    """Roster factory: ``llm:CLIENT_SPEC``, e.g. ``llm:openai:http://127.0.0.1:8000/v1?model=NAME`` or
    ``llm:transformers:/path/to/model`` (see ``mentalhospital_env.llm.make_client``)."""
    from mentalhospital_env.llm import make_client

    if not argument:
        raise ValueError("the llm doctor needs a client spec: llm:openai:URL?model=NAME or llm:transformers:PATH")
    return LLMDoctor(make_client(argument))


__all__: Sequence[Any] = ("LLMDoctor", "SYSTEM_PROMPT", "make")
