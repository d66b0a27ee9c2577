"""The Gymnasium environments: ``MentalHospital-v0`` (text, for language-model doctors) and
``MentalHospitalDiscrete-v0`` (a fixed menu of actions, for classic reinforcement learning).

Both run one :class:`~mentalhospital_env.hospital.encounter.Encounter` per episode over a case of a
suite, with the skill-augmented patient and the reward shaper, and take their settings as
``gymnasium.make`` keyword arguments::

    env = gymnasium.make("MentalHospital-v0", suite="dev", case_ids=None, patient_variant="full",
                         patient_backend="offline", reward_config=None, turn_budget=40, topic_reader="fast")
    obs, info = env.reset(seed=0, options={"case_id": "dev-0001"})
    obs, reward, terminated, truncated, info = env.step("<ask>What brings you in today?</ask>")

``terminated`` is the clinical end (the treatment was given), ``truncated`` the turn budget; an
invalid action's problem is in ``info["error"]`` and in the observation text. ``render_mode="ansi"``
returns the transcript.

``info`` has the same keys with the same types on every step (after ``reset``, after a valid or an
invalid action, on the last step), so vector environments can merge it:

* ``stage`` (str) and ``turn`` (int, turns used), ``turn_budget`` (int), ``allowed_actions`` (list of str);
* ``action`` (dict): the parsed action, ``{"action": NAME, ...its fields}``, with every field of every
  action present (``utterance``, ``exams``, ``note``, ``categories``, ``disorders``, ``plan``; empty
  when not this action's) and ``action == ""`` after ``reset`` or an invalid action;
* ``valid`` (bool): the step's action was accepted (``False`` after ``reset`` and for invalid actions);
* ``error`` and ``problem`` (str): why the action was refused, ``""`` when it was not;
* ``reward_components`` (dict of float): every component of the reward by name, raw and unweighted
  (0.0 where nothing was earned; NaN where a judge could not score, which counts as 0).

How the step reward is formed: ``reward = sum(weight[name] * reward_components[name])`` over the
components, with the weights of the environment's ``RewardConfig`` (``rewards.shaping``): interview
coverage gained by the step (weight 1.0), exam-recommendation F1 (0.5), note coverage (1.0), category
F1 (0.5), disorder nDCG (1.0), each paid as the change of its score so nothing is paid twice; the five
MentalEval dimensions mapped from 1..5 to 0..1 and paid when the episode ends (0.2 each);
``invalid_action`` (-1 per refused action, weight ``invalid_action_penalty`` 0.05) and ``turn`` (-1 per
accepted action, weight ``turn_cost`` 0.005). With ``reward_config={"sparse": True}`` every step
pays 0 and the last step pays each component's episode total: the return is the same.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
import unicodedata
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from mentalhospital_env.hospital.actions import ActionError
from mentalhospital_env.hospital.clinic import Clinic, PatientFactory, ShaperFactory
from mentalhospital_env.hospital.encounter import Encounter, StepOutcome, who_is_present
from mentalhospital_env.hospital.record import EpisodeRecord
from mentalhospital_env.hospital.stages import ALL_STAGES, allowed_actions, describe_allowed

#: Characters of every Text space: printable ASCII and the new line, as an ordered string.
CHARSET: str = "".join(chr(c) for c in range(32, 127)) + "\n"
MAX_OBSERVATION_CHARS = 8192
MAX_ACTION_CHARS = 8192

_OUTSIDE = re.compile(r"[^\x20-\x7e\n]")
_ASCII_LOOKALIKES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u2010": "-",
        "\u2011": "-",
        "\u2026": "...",
        "\u2022": "*",
        "\u00b7": "*",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\t": " ",
        "\r": "",
        "\u00b0": " deg",
        "\u00b5": "u",
        "\u03bc": "u",
        "\u2265": ">=",
        "\u2264": "<=",
        "\u00d7": "x",
    }
)


def to_charset(text: str, max_length: int) -> str:
    """The text in the Text spaces' charset (ASCII look-alikes for quotes, dashes, accents; ``?`` else), clipped.

    Text longer than ``max_length`` is cut and ends with ``...`` so the doctor can tell.
    """
    if _OUTSIDE.search(text):
        text = text.translate(_ASCII_LOOKALIKES)
        if _OUTSIDE.search(text):
            text = unicodedata.normalize("NFKD", text)
            text = "".join(ch for ch in text if not unicodedata.combining(ch))
            text = _OUTSIDE.sub("?", text)
    if len(text) > max_length:
        text = text[: max(0, max_length - 3)] + "..."[:max_length]
    return text


# ------------------------------------------------------------------------------------- text in shared memory


class ClinicText(spaces.Text):
    """A ``Text`` space that also works in an ``AsyncVectorEnv`` with shared memory (Gymnasium's default).

    Gymnasium writes text into shared memory as character indices but reads it back once, when the
    vector env is built, as a tuple of ``str`` (immutable, so it never changes: every step would
    return the blank text of the empty buffer). For this space the read returns a live view that
    decodes the buffer when it is copied (the vector env copies observations by default) or indexed.
    """


class SharedTextBatch(Sequence):
    """The texts of a batch, decoded from an ``AsyncVectorEnv``'s shared buffer when read."""

    def __init__(self, space: spaces.Text, buffer: Any, n: int):
        self._space, self._buffer, self._n = space, buffer, n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:
        texts = self._decode()
        return texts[index]

    def _decode(self) -> tuple[str, ...]:
        data = np.frombuffer(self._buffer.get_obj(), dtype=np.int32).reshape((self._n, self._space.max_length))
        chars, size = self._space.character_list, len(self._space.character_set)
        return tuple("".join(chars[v] for v in row if v < size) for row in data)

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return self._decode()

    def __eq__(self, other: object) -> bool:
        return self._decode() == (tuple(other) if isinstance(other, Sequence) else other)

    def __repr__(self) -> str:
        return repr(self._decode())


def _register_shared_text() -> None:
    from gymnasium.vector.utils import shared_memory as shm

    @shm.read_from_shared_memory.register(ClinicText)
    def _read(space: ClinicText, shared_memory: Any, n: int = 1) -> SharedTextBatch:
        return SharedTextBatch(space, shared_memory, n)


_register_shared_text()


# ------------------------------------------------------------------------------------- the clinic


#: every field of every action, so that ``info["action"]`` has the same keys on every step
_ACTION_FIELDS: dict[str, Any] = {
    "action": "",
    "utterance": "",
    "exams": (),
    "note": "",
    "categories": (),
    "disorders": (),
    "plan": "",
}


def _action_info(action: Any) -> dict[str, Any]:
    out = {k: (list(v) if isinstance(v, tuple) else v) for k, v in _ACTION_FIELDS.items()}
    if action is not None:
        out.update(action.to_dict())
    return out


def _components_info(components: Mapping[str, float | None], names: list[str]) -> dict[str, float]:
    """Every known component name with a float (0.0 when absent, NaN for "could not be scored")."""
    for name in components:
        if name not in names:
            names.append(name)  # a custom shaper's own component: kept from now on
    return {n: (float("nan") if components.get(n, 0.0) is None else float(components.get(n, 0.0))) for n in names}


class ClinicEnv(EzPickle, gym.Env):
    """What both environments share: a :class:`~mentalhospital_env.hospital.clinic.Clinic` (suite, case
    selection, patients, shapers; its keyword arguments are this class's) and the current encounter.

    ``reset(seed=..., options={"case_id": ...})`` is deterministic: the case (when not named) and the
    patient's seed are drawn from the environment's seeded generator.

    Environments pickle (for spawned processes, ``AsyncVectorEnv`` with ``spawn``, Ray workers) by
    their constructor arguments, which must then be picklable themselves (the defaults are): the
    copy is built afresh and, when an episode is under way, replays it (the same reset and the same
    actions), so it continues where the original stands. Built patients and caches are not copied.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

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
        patient_factory: PatientFactory | None = None,
        shaper_factory: ShaperFactory | None = None,
        topic_reader: str = "fast",
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        EzPickle.__init__(
            self,
            suite=suite,
            case_ids=case_ids,
            patient_variant=patient_variant,
            patient_backend=patient_backend,
            reward_config=reward_config,
            turn_budget=turn_budget,
            rewards_at_end=rewards_at_end,
            render_mode=render_mode,
            patient_factory=patient_factory,
            shaper_factory=shaper_factory,
            topic_reader=topic_reader,
        )
        self.render_mode = render_mode
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
        self.encounter: Encounter | None = None
        from mentalhospital_env.rewards.shaping import COMPONENTS

        self._component_names: list[str] = list(COMPONENTS)
        # what a copy needs to replay the episode under way: the generator before reset, the case, the actions
        self._episode: tuple[dict[str, Any], str | None, list[Any]] | None = None

    # -------------------------------------------------------------------------- pickling

    def __getstate__(self) -> dict[str, Any]:
        state = EzPickle.__getstate__(self)
        state["np_random_state"] = self.np_random.bit_generator.state if self._np_random is not None else None
        state["np_random_seed"] = self._np_random_seed
        state["episode"] = self._episode
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        EzPickle.__setstate__(self, state)
        episode = state.get("episode")
        if episode is not None:
            rng_before, case_id, actions = episode
            self.np_random = np.random.Generator(np.random.PCG64())
            self.np_random.bit_generator.state = rng_before
            self._start(case_id)
            for action in actions:
                self.step(action)
        if state.get("np_random_state") is not None:
            if self._np_random is None:
                self.np_random = np.random.Generator(np.random.PCG64())
            self.np_random.bit_generator.state = state["np_random_state"]
            self._np_random_seed = state.get("np_random_seed")

    # -------------------------------------------------------------------------- Gymnasium API

    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None):
        case_id = _case_option(options)
        super().reset(seed=seed)
        outcome = self._start(case_id)
        return self._observe(outcome), self._info(outcome)

    def _start(self, case_id: str | None) -> StepOutcome:
        rng_before = self.np_random.bit_generator.state
        self.encounter, outcome = self.clinic.start(self.np_random, case_id)
        self._episode = (rng_before, case_id, [])
        self._begin(self.encounter)
        return outcome

    def step(self, action: Any):
        if self.encounter is None:
            raise RuntimeError("call reset() before step()")
        ended = self.encounter.ended
        outcome = self._take(self.encounter, action)
        if self._episode is not None and not ended:
            self._episode[2].append(action)
        return (
            self._observe(outcome),
            outcome.reward,
            outcome.terminated,
            outcome.truncated,
            self._info(outcome),
        )

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            gym.logger.warn("render() needs render_mode='ansi'; nothing rendered")
            return None
        return self.transcript()

    def build_all_cases(self) -> None:
        """Build every case's patient and shaper now (once per process) instead of on its first episode.

        Worth calling before timing or before a long run; on a vector env: ``venv.call("build_all_cases")``.
        """
        self.clinic.build_all()

    # -------------------------------------------------------------------------- the episode

    def transcript(self) -> str:
        """The episode so far as text: the walk-in, then each doctor action and what came back."""
        if self.encounter is None:
            return ""
        record = self.encounter.record()
        lines = [record.walk_in]
        for s in record.steps:
            lines.append(f"\n[turn {s.turn}] Doctor: {s.action_text}")
            lines.append(s.observation)
        if record.done:
            lines.append(
                f"\n[{'terminated' if record.terminated else 'truncated'}; return {record.total_reward:.3f}]"
            )
        return "\n".join(lines) + "\n"

    def episode_record(self) -> EpisodeRecord:
        """The current episode as an :class:`EpisodeRecord` (serialisable; the scorers add ``scores`` with ``with_scores``)."""
        if self.encounter is None:
            raise RuntimeError("no episode yet: call reset()")
        return self.encounter.record()

    def _info(self, outcome: StepOutcome) -> dict[str, Any]:
        """The step's info; the same keys with the same types on every step (see the module's doc)."""
        return {
            "stage": outcome.stage,
            "turn": int(outcome.turn),
            "reward_components": _components_info(outcome.components, self._component_names),
            "action": _action_info(outcome.action),
            "valid": outcome.action is not None,
            "error": outcome.error.message if outcome.error is not None else "",
            "problem": outcome.error.problem if outcome.error is not None else "",
            "allowed_actions": list(allowed_actions(outcome.stage)),
            "turn_budget": int(self.clinic.settings.turn_budget),
        }

    # subclasses say how actions come in and observations go out
    def _begin(self, encounter: Encounter) -> None:
        """A new episode has started on ``encounter``."""

    def _take(self, encounter: Encounter, action: Any) -> StepOutcome:
        """Step the encounter with the agent's action."""
        raise NotImplementedError

    def _observe(self, outcome: StepOutcome) -> Any:
        raise NotImplementedError


class MentalHospitalEnv(ClinicEnv):
    """``MentalHospital-v0``: text actions in the protocol of DESIGN.md, text observations.

    Action space: ``Text`` over :data:`CHARSET` (any ``str`` or mapping is accepted and parsed; what
    does not parse costs the invalid-action penalty and says why). Observation space: ``Dict`` with
    ``text`` (``Text``, clipped to ``max_text_length``), ``stage`` (index into ``ALL_STAGES``) and
    ``turn`` (turns used).
    """

    def __init__(self, *args: Any, max_text_length: int = MAX_OBSERVATION_CHARS, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._ezpickle_kwargs["max_text_length"] = max_text_length
        self.max_text_length = max_text_length
        self.action_space = spaces.Text(MAX_ACTION_CHARS, min_length=0, charset=CHARSET)
        self.observation_space = spaces.Dict(
            {
                "text": ClinicText(max_text_length, min_length=0, charset=CHARSET),
                "stage": spaces.Discrete(len(ALL_STAGES)),
                "turn": spaces.Discrete(self.clinic.settings.turn_budget + 1),
            }
        )

    def _take(self, encounter: Encounter, action: Any) -> StepOutcome:
        return encounter.step(action)

    def _observe(self, outcome: StepOutcome) -> dict[str, Any]:
        return {
            "text": to_charset(outcome.text, self.max_text_length),
            "stage": np.int64(ALL_STAGES.index(outcome.stage)),
            "turn": np.int64(outcome.turn),
        }


class MentalHospitalDiscreteEnv(ClinicEnv):
    """``MentalHospitalDiscrete-v0``: a ``Discrete`` action over a fixed menu, a numeric observation.

    The menu (``env.unwrapped.menu``, labels in ``menu.labels``) is the same for every case: interview
    openers and every lexicon question, one order per catalog exam, note templates filled from what was
    disclosed, one diagnosis and one treatment plan per disorder of the knowledge base (see
    :mod:`mentalhospital_env.hospital.menu`). The observation is a float32 vector in [0, 1] of what
    has been learned so far (names in ``env.unwrapped.feature_names``). ``info["action_mask"]``
    (int8, one per menu entry) marks the actions allowed at this stage and not yet taken, for masked
    policies such as sb3-contrib's ``MaskablePPO`` (``action_masks()`` returns the same).

    An index out of range, or anything that is not an integer, is an invalid action (penalty, state
    unchanged, the problem in ``info["error"]``); protocol text and mappings are accepted as in
    ``MentalHospital-v0``.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        from mentalhospital_env.hospital.menu import Findings, default_menu
        from mentalhospital_env.knowledge import load_knowledge

        kb = load_knowledge()
        self.lexicon = kb.lexicon
        self.menu = default_menu()
        self.findings = Findings(
            [c.id for c in kb.lexicon.concepts], [e.name for e in kb.exams], self.clinic.settings.turn_budget
        )
        self.feature_names = self.findings.feature_names()
        self.action_space = spaces.Discrete(len(self.menu))
        self.observation_space = spaces.Box(0.0, 1.0, (self.findings.size,), dtype=np.float32)
        self._taken: set[int] = set()
        self._mask = self.menu.mask(ALL_STAGES[0], self._taken)
        self._accompanied: dict[str, bool] = {}

    def action_masks(self) -> np.ndarray:
        """The current action mask (as ``info["action_mask"]``), for sb3-contrib's masked policies."""
        return self._mask.copy()

    def _begin(self, encounter: Encounter) -> None:
        self._taken = set()
        case = encounter.case
        if case.case_id not in self._accompanied:
            self._accompanied[case.case_id] = who_is_present(case) is not None
        self.findings.reset(case, accompanied=self._accompanied[case.case_id])

    def _take(self, encounter: Encounter, action: Any) -> StepOutcome:
        index = _menu_index(action)
        concept = None
        if index is None and isinstance(action, (str, Mapping)):
            outcome = encounter.step(action)
        elif index is None or not 0 <= index < len(self.menu):
            what = f"got {_describe(action)}" if index is None else f"got {index}, which is out of range"
            refusal = ActionError(
                "bad_index",
                f"The action must be a menu index, an integer from 0 to {len(self.menu) - 1}; {what}. "
                + describe_allowed(encounter.stage),
                encounter.stage,
                allowed_actions(encounter.stage),
            )
            outcome = encounter.step(action, refusal)
        else:
            item = self.menu.items[index]
            concept = item.concept
            outcome = encounter.step(self.menu.action(index, self.findings, self.lexicon))
            if outcome.action is not None and item.kind in ("ask", "order_exams"):
                self._taken.add(index)
        self.findings.update(outcome, encounter.chart, concept, self.lexicon)
        return outcome

    def _observe(self, outcome: StepOutcome) -> np.ndarray:
        if outcome.terminated or outcome.truncated or self.encounter is None or self.encounter.ended:
            # Nothing is allowed in an ended encounter, but a masked policy must never see an empty
            # mask: the next action a vector env takes goes to a fresh episode (same-step autoreset) or
            # is ignored (next-step autoreset), so the mask is that of a new episode's first stage.
            self._mask = self.menu.mask(ALL_STAGES[0], set())
        else:
            self._mask = self.menu.mask(outcome.stage, self._taken)
        return self.findings.vector.copy()

    def _info(self, outcome: StepOutcome) -> dict[str, Any]:
        info = super()._info(outcome)
        info["action_mask"] = self._mask.copy()
        return info


def _case_option(options: Any) -> str | None:
    """The ``case_id`` of ``reset``'s options (``None``: drawn); checked before anything is reset."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"reset(options=...) must be a mapping such as {{'case_id': 'dev-0001'}} or None, got {type(options).__name__}")
    case_id = options.get("case_id")
    if case_id is not None and not isinstance(case_id, str):
        raise TypeError(f"reset(options={{'case_id': ...}}) must be a case id (text), got {type(case_id).__name__}")
    return case_id


def _menu_index(action: Any) -> int | None:
    """The integer an action stands for (Python or NumPy integer, or a one-element integer array), else ``None``."""
    if isinstance(action, (bool, np.bool_)):
        return None
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    return None


def _describe(action: Any) -> str:
    try:
        text = repr(action)
    except Exception:  # noqa: BLE001  (a hostile __repr__ must not crash an episode)
        text = f"a {type(action).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


# ------------------------------------------------------------------------------------- vector envs


def make_vector_env(
    env_id: str = "MentalHospital-v0",
    num_envs: int = 4,
    asynchronous: bool = False,
    context: str | None = None,
    **kwargs: Any,
) -> gym.vector.VectorEnv:
    """``num_envs`` copies of ``env_id`` (``gymnasium.make`` kwargs in ``kwargs``) as one vector env.

    ``asynchronous=True`` builds an ``AsyncVectorEnv`` (one process per copy; ``context`` is the
    multiprocessing start method) and ``False`` a ``SyncVectorEnv``. The async env keeps Gymnasium's
    shared memory, which :class:`ClinicText` makes work for text observations. (Not ``shared_memory=False``:
    in Gymnasium 1.4 an async worker without shared memory forgets to clear its pending autoreset when
    ``reset`` is called, so the first step after a ``reset`` that follows an episode's end resets that
    copy again and ignores the action.) Batched text observations come back as a tuple of ``str``; text
    actions go in as a sequence of ``str``, one per copy. With ``spawn`` or ``forkserver`` contexts
    every kwarg must be picklable (the environments themselves are).

    ``gymnasium.make_vec(env_id, num_envs=N)`` without a ``vectorization_mode`` comes here (the ids
    register this as their ``vector_entry_point``; pass ``asynchronous=True`` there for processes), and
    ``gymnasium.make_vec(env_id, num_envs=N, vectorization_mode="async")`` builds the same async env.
    """
    if num_envs < 1:
        raise ValueError(f"num_envs must be at least 1, got {num_envs}")
    fns = [partial(_make_copy, env_id, **kwargs) for _ in range(num_envs)]
    if asynchronous:
        return gym.vector.AsyncVectorEnv(fns, context=context)
    return gym.vector.SyncVectorEnv(fns)


def _make_copy(env_id: str, **kwargs: Any) -> gym.Env:
    """One copy of a vector env; a module-level function, so a spawned process that unpickles it
    imports this package (and so registers the ids) first."""
    return gym.make(env_id, **kwargs)


def make_text_vector_env(num_envs: int = 4, asynchronous: bool = False, context: str | None = None, **kwargs: Any) -> gym.vector.VectorEnv:
    """``MentalHospital-v0``'s ``vector_entry_point``: :func:`make_vector_env` of that id."""
    return make_vector_env("MentalHospital-v0", num_envs, asynchronous, context, **kwargs)


def make_discrete_vector_env(num_envs: int = 4, asynchronous: bool = False, context: str | None = None, **kwargs: Any) -> gym.vector.VectorEnv:
    """``MentalHospitalDiscrete-v0``'s ``vector_entry_point``: :func:`make_vector_env` of that id."""
    return make_vector_env("MentalHospitalDiscrete-v0", num_envs, asynchronous, context, **kwargs)
