"""A doctor driven by any language model behind the library's client interface.

The model gets a system prompt describing the encounter and the text protocol of DESIGN.md, then
each observation as a user message; its reply must hold exactly one action. A reply that does not
parse as an action allowed now is answered with the parser's message and retried (at most
``max_retries`` times); if it still fails, the raw reply goes to the environment, which charges the
invalid-action penalty and leaves the state unchanged. The interview is bounded: after
``max_interview_turns`` questions the model is told to move on, and further questions are refused
before they reach the patient.

``LLMDoctor.act_batch`` answers many episodes' doctors with one batched call per retry round, and
``await doctor.aact(...)`` answers one episode from an event loop, so that the evaluation harness can
keep many episodes' requests in flight at once (``mentalhospital evaluate --concurrency N``) and a
served model (vLLM, SGLang, any OpenAI-compatible endpoint) sees a full queue.

Every turn is logged (:meth:`LLMDoctor.turn_log`, kept in ``episodes.jsonl`` under ``doctor_log``):
each raw reply, why it was refused if it was, and the HTTP attempts behind it.

The roster spec carries the generation settings after the client spec's own options::

    llm:openai:http://127.0.0.1:8000/v1?model=NAME&temperature=0.7&max_new_tokens=256&seed=1
    llm:transformers:/path/to/model?max_interview_turns=12

Settings (defaults in :data:`DEFAULT_SETTINGS`): ``max_new_tokens``, ``temperature``, ``top_p``,
``seed``, ``max_interview_turns``, ``reply_retries`` (re-asks after an unparseable reply). The
doctor's identity (:func:`identity`, in ``results.json`` and on every episode line, compared when
a run resumes) is the model's name and these settings, never the server's URL or transport options.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence
from urllib.parse import parse_qsl, urlencode

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


#: the generation settings a spec may set, with their defaults and types
DEFAULT_SETTINGS: dict[str, Any] = {
    "max_new_tokens": 384,
    "temperature": 0.0,
    "top_p": 1.0,
    "seed": 0,
    "max_interview_turns": 20,
    "reply_retries": 2,
}
_TYPES: dict[str, Callable[[str], Any]] = {
    "max_new_tokens": int,
    "temperature": float,
    "top_p": float,
    "seed": int,
    "max_interview_turns": int,
    "reply_retries": int,
}


@dataclass
class _Episode:
    messages: list[Message] = field(default_factory=list)
    asks: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)


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

    def turn_log(self) -> list[dict[str, Any]]:
        """This episode's turns: ``{"replies": [raw reply...], "problems": [why refused, or None...],
        "attempts": [HTTP attempts of each reply...]}``, one per action taken."""
        return [dict(entry) for entry in self.episode.log]

    async def aact(self, observation: Observation, info: Info) -> Action:
        """The next action, awaiting the client's ``agenerate`` (many episodes can wait at once)."""
        self._observe(observation, info)
        entry: dict[str, Any] = {"replies": [], "problems": [], "attempts": []}
        reply = ""
        for attempt in range(self.max_retries + 1):
            trace: list[dict[str, Any]] = []
            reply = (await self.client.agenerate([self.episode.messages], self.settings, trace))[0]
            if not self._receive(reply, observation, info, attempt, entry, trace[0] if trace else {}):
                break
        return self._decided(reply, observation, info, entry)

    def _receive(self, reply: str, observation: Observation, info: Info, attempt: int, entry: dict[str, Any], trace: dict[str, Any]) -> bool:
        """Take one reply into the conversation and the log; True when it must be asked again."""
        self.episode.messages.append({"role": "assistant", "content": reply})
        problem = self._check(reply, observation, info)
        entry["replies"].append(reply)
        entry["problems"].append(problem)
        entry["attempts"].append(list(trace.get("attempts", [])))
        if problem is not None and attempt < self.max_retries:
            self.episode.messages.append(
                {"role": "user", "content": f"That reply was not a valid action: {problem}\nReply with exactly one action."}
            )
            return True
        return False

    def _decided(self, reply: str, observation: Observation, info: Info, entry: dict[str, Any]) -> str:
        if self._check(reply, observation, info) is None and _action_name(reply, observation, info) == "ask":
            self.episode.asks += 1
        self.episode.log.append(entry)
        return reply

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
        entries: list[dict[str, Any]] = [{"replies": [], "problems": [], "attempts": []} for _ in llm_doctors]
        replies: list[str] = [""] * len(llm_doctors)
        todo = list(range(len(llm_doctors)))
        for attempt in range(max(d.max_retries for d in llm_doctors) + 1):
            if not todo:
                break
            batch, traces = client.generate_traced([llm_doctors[k].episode.messages for k in todo], llm_doctors[0].settings)
            still = []
            for k, reply, trace in zip(todo, batch, traces):
                replies[k] = reply
                if llm_doctors[k]._receive(reply, observations[k], infos[k], attempt, entries[k], trace):
                    still.append(k)
            todo = still
        return [d._decided(r, o, i, e) for d, r, o, i, e in zip(llm_doctors, replies, observations, infos, entries)]


def _stage_name(observation: Observation, info: Info) -> str:
    stage = info.get("stage", observation.get("stage", 0))
    return stage if isinstance(stage, str) else ALL_STAGES[int(stage)]


def _action_name(reply: str, observation: Observation, info: Info) -> str | None:
    action = parse_action(reply, _stage_name(observation, info))
    return None if isinstance(action, ActionError) else action.name


def split_spec(argument: str) -> tuple[str, dict[str, Any]]:
    """``CLIENT_SPEC[?options]`` into the client's spec (its own options kept) and the doctor's settings
    (every one of :data:`DEFAULT_SETTINGS`, given or default). A bad setting raises ``ValueError``."""
    if not argument:
        raise ValueError("the llm doctor needs a client spec: llm:openai:URL?model=NAME or llm:transformers:PATH")
    head, _, query = argument.partition("?")
    tail = ""
    if "#" in query:  # "path?options#file.gguf"
        query, moved = query.split("#", 1)
        tail = "#" + moved
    settings = dict(DEFAULT_SETTINGS)
    kept: list[tuple[str, str]] = []
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key in _TYPES:
            try:
                settings[key] = _TYPES[key](value)
            except ValueError:
                raise ValueError(f"llm doctor setting {key}={value!r} is not a {_TYPES[key].__name__}") from None
        else:
            kept.append((key, value))
    GenerationSettings(settings["max_new_tokens"], settings["temperature"], settings["top_p"], settings["seed"])  # checks them
    for key in ("max_interview_turns", "reply_retries"):
        if settings[key] < 0:
            raise ValueError(f"llm doctor setting {key} must be >= 0, got {settings[key]}")
    client_spec = head + tail + (("?" + urlencode(kept)) if kept else "")
    return client_spec, settings


def identity(argument: str | None) -> str:
    """The doctor's identity: the model (its name on a server, its path for a local model) and every
    generation setting, never a URL or a transport option, e.g.
    ``llm:openai:NAME?max_interview_turns=20&max_new_tokens=384&reply_retries=2&seed=0&temperature=0.0&top_p=1.0``."""
    from mentalhospital_env.llm import parse_client_spec

    client_spec, settings = split_spec(argument or "")
    parsed = parse_client_spec(client_spec)
    if parsed.kind == "openai":
        model = f"openai:{parsed.options['model']}"
    elif parsed.kind == "transformers":
        model = f"transformers:{parsed.target}" + (f"#{parsed.gguf_file}" if parsed.gguf_file else "")
    else:
        model = client_spec
    return f"llm:{model}?" + "&".join(f"{k}={settings[k]}" for k in sorted(settings))


_CLIENTS: dict[str, Any] = {}


def shared_client(client_spec: str) -> Any:
    """One client per spec and process: every episode's doctor shares it (one model loaded, one
    connection pool, one bound on requests in flight)."""
    from mentalhospital_env.llm import make_client

    client = _CLIENTS.get(client_spec)
    if client is None:
        client = _CLIENTS[client_spec] = make_client(client_spec)
    return client


def make(argument: str | None = None) -> LLMDoctor:
    """Roster factory: ``llm:CLIENT_SPEC[&SETTINGS]``, e.g. ``llm:openai:http://127.0.0.1:8000/v1?model=NAME``
    or ``llm:transformers:/path/to/model`` (see ``mentalhospital_env.llm.make_client``), with the
    generation settings of the module doc."""
    client_spec, settings = split_spec(argument or "")
    generation = GenerationSettings(
        max_new_tokens=settings["max_new_tokens"],
        temperature=settings["temperature"],
        top_p=settings["top_p"],
        seed=settings["seed"],
    )
    return LLMDoctor(
        shared_client(client_spec),
        generation,
        max_interview_turns=settings["max_interview_turns"],
        max_retries=settings["reply_retries"],
    )


make.identity = identity  # type: ignore[attr-defined]  (read by mentalhospital_env.roster.doctor_identity)

__all__: Sequence[Any] = ("DEFAULT_SETTINGS", "LLMDoctor", "SYSTEM_PROMPT", "identity", "make", "split_spec")
