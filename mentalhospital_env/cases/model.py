"""Immutable case objects: one psychiatric EHR, as docs/cases.md (format version 1) defines it.

Every object here is a frozen dataclass whose sequences are tuples and whose free-form mappings
(``source``, ``extra``) are read-only views, so a loaded case can be shared between environments,
processes and threads without anyone changing it under another's feet. ``Case.to_dict()`` gives the
JSON form back; ``load_case(case.to_dict()) == case`` holds for every valid case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from mentalhospital_env.knowledge.vocabulary import EXAM_KINDS, INSIGHTS, MSE_KEYS, SETTINGS, SEXES, VERBOSITIES

NARRATIVE_SECTIONS: tuple[str, ...] = (
    "chief_complaint",
    "history_of_present_illness",
    "past_psychiatric_history",
    "medical_history",
    "medications",
    "allergies",
    "substance_use",
    "family_history",
    "personal_history",
)
REQUIRED_NARRATIVE: tuple[str, ...] = ("chief_complaint", "history_of_present_illness")
RISK_KEYS: tuple[str, ...] = ("suicide", "violence", "self_neglect")
LANGUAGES: tuple[str, ...] = ("en", "zh")
CHECKPOINT_GROUPS: tuple[str, ...] = ("chief_complaint", "mental_status", "history", "risk", "other")


_SCALARS = (str, int, float, bool, type(None))


def freeze(value: Any) -> Any:
    """A deep read-only copy of JSON-like data: dicts become mapping proxies, lists tuples."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The inverse of :func:`freeze`: plain dicts and lists, ready for ``json.dumps``."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def _drop_none(mapping: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if v is not None}


@dataclass(frozen=True)
class Demographics:
    age: int
    sex: str
    occupation: str | None = None
    marital_status: str | None = None
    education: str | None = None
    living_situation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _drop_none(
            {
                "age": self.age,
                "sex": self.sex,
                "occupation": self.occupation,
                "marital_status": self.marital_status,
                "education": self.education,
                "living_situation": self.living_situation,
            }
        )


@dataclass(frozen=True)
class MentalStatusExam:
    """The mental status examination; every domain is optional, at least one is present."""

    appearance: str | None = None
    behavior: str | None = None
    speech: str | None = None
    mood: str | None = None
    affect: str | None = None
    thought_process: str | None = None
    thought_content: str | None = None
    perception: str | None = None
    cognition: str | None = None
    insight: str | None = None
    judgment: str | None = None

    def items(self) -> tuple[tuple[str, str], ...]:
        """The domains present, in the canonical order of ``MSE_KEYS``."""
        return tuple((k, getattr(self, k)) for k in MSE_KEYS if getattr(self, k) is not None)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.items())


@dataclass(frozen=True)
class RiskAssessment:
    suicide: str | None = None
    violence: str | None = None
    self_neglect: str | None = None

    def items(self) -> tuple[tuple[str, str], ...]:
        return tuple((k, getattr(self, k)) for k in RISK_KEYS if getattr(self, k) is not None)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.items())


@dataclass(frozen=True)
class EHR:
    """The record's narrative, its mental status examination and its risk assessment."""

    chief_complaint: str
    history_of_present_illness: str
    past_psychiatric_history: str | None = None
    medical_history: str | None = None
    medications: str | None = None
    allergies: str | None = None
    substance_use: str | None = None
    family_history: str | None = None
    personal_history: str | None = None
    mental_status_exam: MentalStatusExam | None = None
    risk_assessment: RiskAssessment | None = None

    def sections(self) -> tuple[tuple[str, str], ...]:
        """Every text of the record with its section path, e.g. ``("mental_status_exam.mood", "...")``.

        The order is the record's reading order: narrative sections, then the mental status
        examination, then the risk assessment.
        """
        out: list[tuple[str, str]] = [
            (name, getattr(self, name)) for name in NARRATIVE_SECTIONS if getattr(self, name) is not None
        ]
        if self.mental_status_exam is not None:
            out.extend((f"mental_status_exam.{k}", v) for k, v in self.mental_status_exam.items())
        if self.risk_assessment is not None:
            out.extend((f"risk_assessment.{k}", v) for k, v in self.risk_assessment.items())
        return tuple(out)

    def section(self, path: str) -> str | None:
        """The text at a section path such as ``"substance_use"`` or ``"mental_status_exam.mood"``."""
        head, _, key = path.partition(".")
        if head in NARRATIVE_SECTIONS and not key:
            return getattr(self, head)
        if head == "mental_status_exam" and key in MSE_KEYS and self.mental_status_exam is not None:
            return getattr(self.mental_status_exam, key)
        if head == "risk_assessment" and key in RISK_KEYS and self.risk_assessment is not None:
            return getattr(self.risk_assessment, key)
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            name: getattr(self, name) for name in NARRATIVE_SECTIONS if getattr(self, name) is not None
        }
        if self.mental_status_exam is not None:
            out["mental_status_exam"] = self.mental_status_exam.to_dict()
        if self.risk_assessment is not None:
            out["risk_assessment"] = self.risk_assessment.to_dict()
        return out


@dataclass(frozen=True)
class ExamRecord:
    """An exam the hospital has on file for the patient, returned when the doctor orders it."""

    name: str
    kind: str
    result: str
    indicated: bool = True

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "result": self.result}
        if not self.indicated:
            out["indicated"] = False
        return out


@dataclass(frozen=True)
class ReferenceDisorder:
    """One disorder of the reference diagnosis: its name and ICD-10-CM code."""

    name: str
    code: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "code": self.code}


@dataclass(frozen=True)
class Diagnosis:
    """The reference diagnosis: categories (multi-label) and disorders in order of priority."""

    categories: tuple[str, ...]
    disorders: tuple[ReferenceDisorder, ...]

    @property
    def principal(self) -> ReferenceDisorder:
        return self.disorders[0]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(d.code for d in self.disorders)

    def to_dict(self) -> dict[str, Any]:
        return {"categories": list(self.categories), "disorders": [d.to_dict() for d in self.disorders]}


@dataclass(frozen=True)
class Medication:
    name: str
    dose: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _drop_none({"name": self.name, "dose": self.dose})


@dataclass(frozen=True)
class Treatment:
    """The reference treatment plan."""

    plan: str
    medications: tuple[Medication, ...] | None = None
    psychotherapy: tuple[str, ...] | None = None
    safety: tuple[str, ...] | None = None
    follow_up: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"plan": self.plan}
        if self.medications is not None:
            out["medications"] = [m.to_dict() for m in self.medications]
        if self.psychotherapy is not None:
            out["psychotherapy"] = list(self.psychotherapy)
        if self.safety is not None:
            out["safety"] = list(self.safety)
        if self.follow_up is not None:
            out["follow_up"] = self.follow_up
        return out


@dataclass(frozen=True)
class Persona:
    """How the patient speaks and behaves. Defaults apply when a case gives no persona."""

    verbosity: str = "average"
    guardedness: float = 0.3
    insight: str = "partial"
    speech_style: str | None = None
    informant: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _drop_none(
            {
                "verbosity": self.verbosity,
                "guardedness": self.guardedness,
                "insight": self.insight,
                "speech_style": self.speech_style,
                "informant": self.informant,
            }
        )


@dataclass(frozen=True)
class Fact:
    """An atomic statement of the record.

    ``section`` is an ``ehr`` section path (``"substance_use"``, ``"mental_status_exam.mood"``,
    ``"risk_assessment.suicide"``); ``patient_says`` is how the patient would put it in lay words,
    when the case gives it; ``sensitive`` facts (suicidal thoughts, substance use, trauma, self-harm)
    need rapport before the patient discloses them.

    Added by compiling a narrative record (``mentalhospital cases compile``, docs/compiling-records.md),
    all optional: ``topics`` (interview topic ids the fact answers), ``polarity`` (``"present"`` or
    ``"absent"``: the fact states the thing, or rules it out), ``time`` (``"current"`` or ``"past"``),
    ``relative`` (whose history a family-history fact tells) and ``told`` (``False`` for what only a
    clinician knows: an observed mental state, a risk formulation, a score; the patient never says it) and
    ``gate`` (the kind of disclosure note on a ``sensitive`` fact: ``"alone"``, told only when the patient is seen
    alone, without the person who came with them; ``None`` for an ordinary "told only when asked").
    """

    id: str
    section: str
    text: str
    patient_says: str | None = None
    sensitive: bool = False
    topics: tuple[str, ...] = ()
    polarity: str | None = None
    time: str | None = None
    relative: str | None = None
    told: bool = True
    gate: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "section": self.section, "text": self.text}
        if self.patient_says is not None:
            out["patient_says"] = self.patient_says
        if self.sensitive:
            out["sensitive"] = True
        if self.topics:
            out["topics"] = list(self.topics)
        for key in ("polarity", "time", "relative"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if not self.told:
            out["told"] = False
        if self.gate is not None:
            out["gate"] = self.gate
        return out


_new_object = object.__new__
_set_attribute = object.__setattr__


def new_fact(id: str, section: str, text: str, patient_says: str | None, sensitive: bool) -> "Fact":
    """A :class:`Fact` built without the dataclass ``__init__`` (a third faster), for the loader's hot
    path; the caller has already checked every field."""
    fact = _new_object(Fact)
    _set_attribute(fact, "__dict__", {"id": id, "section": section, "text": text, "patient_says": patient_says, "sensitive": sensitive})
    return fact


def new_checkpoint(id: str, text: str, group: str) -> "Checkpoint":
    """A :class:`Checkpoint` built without the dataclass ``__init__``; fields already checked."""
    checkpoint = _new_object(Checkpoint)
    _set_attribute(checkpoint, "__dict__", {"id": id, "text": text, "group": group})
    return checkpoint


@dataclass(frozen=True)
class Checkpoint:
    """A reference checkpoint: a statement a good interview or note should entail."""

    id: str
    text: str
    group: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "group": self.group}


@dataclass(frozen=True)
class Checkpoints:
    """Reference checkpoints per stage: interview and note statements, and the indicated exam names."""

    interview: tuple[Checkpoint, ...] = ()
    note: tuple[Checkpoint, ...] = ()
    exam: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "interview": [c.to_dict() for c in self.interview],
            "note": [c.to_dict() for c in self.note],
            "exam": list(self.exam),
        }


@dataclass(frozen=True)
class Case:
    """One psychiatric EHR case: one episode of the clinic.

    ``facts`` and ``checkpoints`` are always filled: taken from the file when it has them, derived
    from the narrative otherwise (``facts_derived`` / ``checkpoints_derived`` say which, and
    ``to_dict`` leaves derived ones out so that the file round-trips as it was written).
    """

    case_id: str
    language: str
    demographics: Demographics
    setting: str
    ehr: EHR
    exams: tuple[ExamRecord, ...]
    diagnosis: Diagnosis
    treatment: Treatment
    facts: tuple[Fact, ...]
    checkpoints: Checkpoints
    persona: Persona | None = None
    source: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] | None = None
    facts_derived: bool = False
    checkpoints_derived: bool = False
    _fact_index: Mapping[str, Fact] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_fact_index", MappingProxyType({f.id: f for f in self.facts}))

    @property
    def effective_persona(self) -> Persona:
        """The case's persona, or the default one when the case gives none."""
        return self.persona if self.persona is not None else Persona()

    def fact(self, fact_id: str) -> Fact:
        """The fact with this id; ``KeyError`` naming the case when there is none."""
        try:
            return self._fact_index[fact_id]
        except KeyError:
            raise KeyError(f"case {self.case_id!r} has no fact {fact_id!r}") from None

    def exam(self, name: str) -> ExamRecord | None:
        """The exam on file with this exact name (case-insensitive), or ``None``."""
        low = name.strip().lower()
        for exam in self.exams:
            if exam.name.lower() == low:
                return exam
        return None

    @property
    def indicated_exams(self) -> tuple[str, ...]:
        """The reference exam recommendation: names of the exams marked indicated."""
        return tuple(e.name for e in self.exams if e.indicated)

    def __reduce__(self):  # picklable (vector envs in worker processes): rebuilt from its JSON form
        return (_rebuild_case, (self.to_dict(),))

    def to_dict(self) -> dict[str, Any]:
        """The case as JSON-ready data, in the key order of CASES.md."""
        out: dict[str, Any] = {
            "case_id": self.case_id,
            "language": self.language,
            "demographics": self.demographics.to_dict(),
            "setting": self.setting,
            "ehr": self.ehr.to_dict(),
            "exams": [e.to_dict() for e in self.exams],
            "diagnosis": self.diagnosis.to_dict(),
            "treatment": self.treatment.to_dict(),
        }
        if self.persona is not None:
            out["persona"] = self.persona.to_dict()
        if not self.facts_derived:
            out["facts"] = [f.to_dict() for f in self.facts]
        if not self.checkpoints_derived:
            out["checkpoints"] = self.checkpoints.to_dict()
        if self.source is not None:
            out["source"] = thaw(self.source)
        if self.extra is not None:
            out["extra"] = thaw(self.extra)
        return out


def _rebuild_case(data: dict[str, Any]) -> "Case":
    from .loader import validate_case  # the loader imports this module

    return validate_case(data)


@dataclass(frozen=True)
class Suite:
    """An ordered collection of cases with unique ids."""

    name: str
    cases: tuple[Case, ...]
    _index: Mapping[str, Case] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", MappingProxyType({c.case_id: c for c in self.cases}))

    def __reduce__(self):
        return (Suite, (self.name, self.cases))

    def __len__(self) -> int:
        return len(self.cases)

    def __iter__(self) -> Iterator[Case]:
        return iter(self.cases)

    def __contains__(self, case_id: object) -> bool:
        return case_id in self._index

    def __getitem__(self, key: int | str) -> Case:
        """A case by position or by ``case_id`` (``KeyError`` naming the suite when absent)."""
        if isinstance(key, int):
            return self.cases[key]
        try:
            return self._index[key]
        except KeyError:
            raise KeyError(f"suite {self.name!r} has no case {key!r}") from None

    @property
    def case_ids(self) -> tuple[str, ...]:
        return tuple(c.case_id for c in self.cases)
