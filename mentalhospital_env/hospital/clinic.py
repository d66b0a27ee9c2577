"""The clinic: a suite of cases, the patients and reward shapers for them, and encounters on demand.

The Gymnasium environments and the PettingZoo environment share this: which cases episodes are drawn
from, how the patient and the shaper of a case are built, and the settings each episode records.
Encounters are built once per case and reset for each episode (patients and shapers are reset, not
rebuilt), so a long training run pays the construction cost of a case only once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, is_dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from mentalhospital_env.cases import Case, Suite, load_case, load_suite

from .actions import default_vocabulary
from .encounter import Encounter, EncounterSettings, StepOutcome
from .roles import PatientLike, ShaperLike

PatientFactory = Callable[[Case, "int | None"], PatientLike]
ShaperFactory = Callable[[Case], ShaperLike]


@lru_cache(maxsize=8)
def _suite_from(spec: str) -> Suite:
    return load_suite(spec)


def resolve_suite(suite: Any) -> Suite:
    """A :class:`Suite` from a bundled name, a path, a Suite, a Case, a case mapping or a list of them.

    Suites named by a string are loaded once per process.
    """
    if isinstance(suite, Suite):
        return suite
    if isinstance(suite, (str, os.PathLike)):
        return _suite_from(os.fspath(suite))
    if isinstance(suite, (Case, Mapping)):
        suite = [suite]
    if isinstance(suite, Sequence) and suite:
        cases = tuple(c if isinstance(c, Case) else load_case(c) for c in suite)
        return Suite("custom", cases)
    raise ValueError(f"suite must be a bundled suite name, a path, a Suite or a list of cases, got {suite!r}")


def library_patient_factory(variant: str = "full", backend: Any = "offline", topic_reader: str = "fast") -> PatientFactory:
    """Cases to the library's skill-augmented patients (``patient.make_patient``); ``topic_reader`` is checked now
    (an unknown name, or ``"embedding"`` without the ``embed`` extra, fails here, not on the first episode)."""
    from mentalhospital_env.patient.embedding_reader import check_topic_reader

    check_topic_reader(topic_reader)

    def build(case: Case, seed: int | None) -> PatientLike:
        from mentalhospital_env.patient import make_patient

        return make_patient(case, variant=variant, backend=backend, seed=seed, topic_reader=topic_reader)

    return build


def reward_config_from(reward_config: Any = None) -> Any:
    """A ``rewards.shaping.RewardConfig`` from itself, a mapping of its fields or ``None`` (the defaults)."""
    from mentalhospital_env.rewards.shaping import RewardConfig

    if reward_config is None:
        return RewardConfig()
    if isinstance(reward_config, RewardConfig):
        return reward_config
    if isinstance(reward_config, Mapping):
        return RewardConfig.from_dict(reward_config)
    raise ValueError(
        f"reward_config must be a RewardConfig, a mapping of its fields or None, got {reward_config!r}"
    )


def library_shaper_factory(config: Any) -> ShaperFactory:
    """Cases to the library's reward shapers (``rewards.shaping.RewardShaper``) under one ``RewardConfig``."""
    from mentalhospital_env.rewards.shaping import RewardShaper

    return lambda case: RewardShaper(case, config)


def settings_value(value: Any) -> Any:
    """A JSON-ready description of a setting, for the episode record."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {k: settings_value(v) for k, v in asdict(value).items()}
    if isinstance(value, Mapping):
        return {str(k): settings_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [settings_value(v) for v in value]
    return getattr(value, "name", None) or type(value).__name__


class Clinic:
    """Cases, patients and shapers: starts an encounter on a chosen or drawn case.

    * ``suite``: a bundled suite name (``dev``, ``test``, ``handwritten``), a path, a Suite or cases;
    * ``case_ids``: the cases episodes are drawn from (all of the suite by default);
    * ``patient_variant`` (``full``, ``memory``, ``representation``, ``naive``) and ``patient_backend``
      (``offline`` or an LLM client), or ``patient_factory(case, seed) -> patient`` for another simulator;
    * ``topic_reader``: how the library's patient reads the doctor's questions, ``fast`` (default) or
      ``embedding`` (sentence embeddings, about 20 ms per new utterance, the ``embed`` extra; see ``make_patient``);
    * ``reward_config``: a ``rewards.shaping.RewardConfig`` or a mapping of its fields, or
      ``shaper_factory(case) -> shaper`` for other rewards;
    * ``turn_budget`` and ``rewards_at_end``: see :class:`EncounterSettings` (the invalid-action
      penalty is a reward setting).
    """

    def __init__(
        self,
        suite: Any = "dev",
        case_ids: Sequence[str] | None = None,
        patient_variant: str = "full",
        patient_backend: Any = "offline",
        reward_config: Any = None,
        turn_budget: int = 40,
        rewards_at_end: bool = False,
        patient_factory: PatientFactory | None = None,
        shaper_factory: ShaperFactory | None = None,
        topic_reader: str = "fast",
    ):
        self.suite = resolve_suite(suite)
        if case_ids is not None:
            case_ids = list(case_ids)
            unknown = [c for c in case_ids if c not in self.suite]
            if unknown or not case_ids:
                raise ValueError(
                    f"case_ids must name cases of suite {self.suite.name!r}; unknown: {unknown or 'empty list'}"
                )
            self.case_ids: tuple[str, ...] = tuple(case_ids)
        else:
            self.case_ids = self.suite.case_ids
        self.settings = EncounterSettings(turn_budget, rewards_at_end)
        self._patient_factory = patient_factory or library_patient_factory(patient_variant, patient_backend, topic_reader)
        custom_shaper = shaper_factory is not None
        if shaper_factory is None:
            reward_config = reward_config_from(reward_config)  # checked now: a bad setting fails at make time
            shaper_factory = library_shaper_factory(reward_config)
        self._shaper_factory = shaper_factory
        self.record_settings = {
            "suite": self.suite.name,
            "patient_variant": patient_variant if patient_factory is None else "custom",
            "patient_backend": settings_value(patient_backend) if patient_factory is None else "custom",
            "topic_reader": topic_reader if patient_factory is None else "custom",
            "reward_config": "custom" if custom_shaper else settings_value(reward_config),
        }
        self._encounters: dict[str, Encounter] = {}
        default_vocabulary()  # load the knowledge base now, not on the first step

    def start(self, rng: np.random.Generator, case_id: str | None = None) -> tuple[Encounter, StepOutcome]:
        """Reset the encounter of ``case_id`` (drawn from ``rng`` when ``None``), seeding its patient from ``rng``."""
        if case_id is None:
            case_id = self.case_ids[int(rng.integers(len(self.case_ids)))]
        elif case_id not in self.suite:
            raise ValueError(f"case_id {case_id!r} is not a case of suite {self.suite.name!r}")
        seed = int(rng.integers(2**31 - 1))
        encounter = self.encounter(self.suite[case_id], seed)
        return encounter, encounter.reset(seed)

    def encounter(self, case: Case, seed: int | None = None) -> Encounter:
        """The encounter of a case, built on first use."""
        enc = self._encounters.get(case.case_id)
        if enc is None:
            enc = Encounter(
                case,
                self._patient_factory(case, seed),
                self._shaper_factory(case),
                self.settings,
                record_settings=self.record_settings,
            )
            self._encounters[case.case_id] = enc
        return enc

    def build_all(self) -> None:
        """Build the encounter (patient and shaper) of every selectable case now, so no episode pays for it."""
        for case_id in self.case_ids:
            self.encounter(self.suite[case_id])
