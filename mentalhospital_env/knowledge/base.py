"""The clinical knowledge base: every data file, loaded, validated and indexed.

:func:`load_knowledge` reads ``data/`` (or another folder with the same layout), checks every entry
against the agreed schema and against the other files (a comorbidity names a known disorder, an exam
expectation names a known exam and one of its bands, a drug is in the drug table, a presentation's
symptom is a lexicon concept ...), and returns a :class:`KnowledgeBase` of frozen records. Anything
wrong raises :class:`KnowledgeError` naming the file, the entry and the field. Nothing half-loaded is
returned.

The resolution helpers (:meth:`KnowledgeBase.resolve_disorder`, ``resolve_exam``, ``resolve_drug``)
are how every other module turns what a doctor or a record writes into a knowledge-base entry.
"""

from __future__ import annotations

import json
import math
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .codes import Category, category_of_code, is_icd10cm_code, load_categories, normalize_code
from .errors import KnowledgeError
from .language import negated_spans_in, tokenize
from .lexicon import CONCEPT_KINDS, Lexicon, concept_from_entry, lexicon_files
from .vocabulary import EXAM_KINDS, INSIGHTS, MSE_KEYS, SETTINGS, SEXES, VERBOSITIES

READINGS = ("normal", "abnormal")
SCALE_TEMPLATE_FIELDS = frozenset({"score", "band"})
LAB_TEMPLATE_FIELDS = frozenset({"value", "unit", "low", "high", "flag"})


# ------------------------------------------------------------------------------------------ records


@dataclass(frozen=True)
class Band:
    """A labelled score band of a rating scale; ``normal`` marks an unremarkable reading."""

    label: str
    min: float
    max: float
    normal: bool

    def contains(self, score: float) -> bool:
        return self.min <= score <= self.max


@dataclass(frozen=True)
class ExamExpectation:
    """What the work-up of a disorder expects from one exam: a reading, and a band or finding."""

    exam: str
    reading: str
    band: str | None = None
    finding: str | None = None


@dataclass(frozen=True)
class Comorbidity:
    code: str
    p: float


@dataclass(frozen=True)
class Medication:
    drug: str
    starting_dose: str


@dataclass(frozen=True)
class Contraindication:
    drug: str
    reason: str


@dataclass(frozen=True)
class Treatment:
    medications: tuple[Medication, ...]
    psychotherapy: tuple[str, ...]
    other: tuple[str, ...]
    follow_up: str


@dataclass(frozen=True)
class Disorder:
    """One disorder of the fixed list, with its clinical picture, work-up and first-line care."""

    code: str
    name: str
    synonyms: tuple[str, ...]
    category: str
    core_features: tuple[str, ...]
    onset: str
    course: str
    age_range: tuple[int, int]
    typical_age: tuple[int, int]
    sex_weights: Mapping[str, float]
    service_weight: float
    settings: Mapping[str, float]
    comorbidities: tuple[Comorbidity, ...]
    differentials: tuple[str, ...]
    exams: tuple[ExamExpectation, ...]
    treatment: Treatment
    safety: tuple[str, ...]
    contraindicated_drugs: tuple[Contraindication, ...] = ()

    def __hash__(self) -> int:
        return hash(self.code)


@dataclass(frozen=True)
class Exam:
    """One exam of the catalog: a scale (bands), a lab (reference range) or a report (findings)."""

    name: str
    aliases: tuple[str, ...]
    kind: str
    description: str
    indicated_for: tuple[str, ...]
    normal_result: str
    abnormal_result: str
    item_count: int | None = None
    score_range: tuple[float, float] | None = None
    score_step: float = 1
    bands: tuple[Band, ...] = ()
    unit: str | None = None
    reference_range: tuple[float, float] | None = None
    abnormal_direction: str | None = None
    findings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    components: tuple[Mapping[str, Any], ...] = ()
    #: who the exam is for (``fits`` in exams.json): a sex, and the ages it is made for, inclusive; empty for anyone
    sexes: tuple[str, ...] = ()
    ages: tuple[int, int] | None = None

    def __hash__(self) -> int:
        return hash(self.name)

    def fits(self, age: int | None, sex: str | None) -> bool:
        """Whether the exam is one to order for a patient of this age and sex (a pregnancy test for a woman of 12-55,
        an adult self-report scale from 16, a parent-and-teacher screen for a child); an unknown age or sex fits."""
        if self.sexes and sex is not None and sex not in self.sexes:
            return False
        return self.ages is None or age is None or self.ages[0] <= age <= self.ages[1]

    def band(self, label: str) -> Band | None:
        """The band called ``label`` (case-insensitive), or ``None``."""
        folded = label.casefold()
        return next((b for b in self.bands if b.label.casefold() == folded), None)

    def band_of(self, score: float) -> Band | None:
        """The band a score falls in, or ``None`` outside the score range."""
        return next((b for b in self.bands if b.contains(score)), None)


@dataclass(frozen=True)
class Drug:
    name: str
    synonyms: tuple[str, ...]
    drug_class: str
    starting_dose: str
    usual_range: str
    monitoring: tuple[str, ...]
    cautions: tuple[str, ...]
    unsafe_with: tuple[str, ...]
    #: the prescribing judge's doses (stop 40: moved here from rewards/mentaleval/data/prescribing.json, one drug
    #: table): the most a day for an adult by mouth, a lower most from an age, the top of the licensed initial dose
    #: where it is above ``starting_dose``, and where each figure comes from
    max_mg_day: float | None = None
    older_max_mg_day: float | None = None
    older_from_age: int | None = None
    starting_max_mg: float | None = None
    dose_source: str = ""
    #: results on file that make the drug unsafe to start whatever the disorder (ids of critical_actions.json
    #: ``exam_findings.findings``: a potassium below 3.5 or a pulse below 50 for a QT-prolonging drug), and why
    unsafe_with_results: tuple[str, ...] = ()
    results_reason: str = ""


@dataclass(frozen=True)
class MSEDomain:
    """One domain of the mental status examination and its vocabulary."""

    key: str
    name: str
    about: str
    ask: tuple[str, ...]
    normal: tuple[str, ...]
    descriptors: tuple[str, ...]
    abnormal_examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class PresentationSymptom:
    concept: str
    p: float
    text: str
    patient_says: tuple[str, ...]
    sensitive: bool = False


@dataclass(frozen=True)
class Presentation:
    """How a disorder shows itself in a record and in the patient's words (presentations.json)."""

    code: str
    symptoms: tuple[PresentationSymptom, ...]
    pertinent_negatives: tuple[str, ...]
    onset_phrases: tuple[str, ...]
    durations: tuple[str, ...]
    precipitants: tuple[str, ...]
    impact: tuple[str, ...]
    mse: Mapping[str, tuple[str, ...]]
    persona: Mapping[str, Any]

    def __hash__(self) -> int:
        return hash(self.code)


# --------------------------------------------------------------------------------------- the base


def _name_keys(text: str) -> tuple[str, ...]:
    """Lookup keys of a name: case-folded, token-joined with spaces, and token-joined without."""
    folded = " ".join(text.casefold().split())
    tokens = tokenize(text)
    return tuple(dict.fromkeys(k for k in (folded, " ".join(tokens), "".join(tokens)) if k))


class KnowledgeBase:
    """The validated knowledge base: disorders, exams, drugs, lexicon, MSE vocabulary, presentations."""

    def __init__(
        self,
        categories: Sequence[Category],
        disorders: Sequence[Disorder],
        exams: Sequence[Exam],
        drugs: Sequence[Drug],
        lexicon: Lexicon,
        mse: Sequence[MSEDomain],
        presentations: Sequence[Presentation] = (),
    ):
        self.categories: tuple[Category, ...] = tuple(categories)
        self.disorders: tuple[Disorder, ...] = tuple(disorders)
        self.exams: tuple[Exam, ...] = tuple(exams)
        self.drugs: tuple[Drug, ...] = tuple(drugs)
        self.lexicon = lexicon
        self.mse: tuple[MSEDomain, ...] = tuple(mse)
        self.presentations: tuple[Presentation, ...] = tuple(presentations)
        self._disorder_by_code = {d.code: d for d in self.disorders}
        self._disorder_by_name = _index(self.disorders, lambda d: (d.name, *d.synonyms))
        self._exam_by_name = _index(self.exams, lambda e: (e.name, *e.aliases))
        self._drug_by_name = _index(self.drugs, lambda d: (d.name, *d.synonyms))
        self._presentation_by_code = {p.code: p for p in self.presentations}
        self._mse_by_key = {m.key: m for m in self.mse}

    def __repr__(self) -> str:
        return (
            f"KnowledgeBase({len(self.disorders)} disorders, {len(self.exams)} exams, {len(self.drugs)} drugs, "
            f"{len(self.lexicon)} concepts, {len(self.presentations)} presentations)"
        )

    # ------------------------------------------------------------------------------ resolution

    def resolve_disorder(self, name_or_code: str) -> Disorder | None:
        """A disorder from its code (``F32.1``, ``f321``), name or synonym, case-insensitive; ``None`` if unknown.

        A leading code followed by a name (``"F32.1 Major depressive disorder"``) resolves by the code.
        """
        if not isinstance(name_or_code, str) or not name_or_code.strip():
            return None
        text = name_or_code.strip()
        found = self._disorder_by_code.get(text)
        if found is not None:
            return found
        head = text.split()[0].rstrip(":,;-")
        for candidate in (text, head):
            try:
                code = normalize_code(candidate)
            except (AttributeError, ValueError):  # pragma: no cover - normalize_code takes any str
                continue
            if code in self._disorder_by_code:
                return self._disorder_by_code[code]
        return _lookup(self._disorder_by_name, text)

    def resolve_exam(self, name_or_alias: str) -> Exam | None:
        """An exam from its name or an alias, ignoring case, spacing and hyphens (``phq9``); ``None`` if unknown."""
        if not isinstance(name_or_alias, str):
            return None
        return _lookup(self._exam_by_name, name_or_alias)

    def resolve_drug(self, name_or_synonym: str) -> Drug | None:
        """A drug from its generic name or a synonym (brand names), case-insensitive; ``None`` if unknown."""
        if not isinstance(name_or_synonym, str):
            return None
        return _lookup(self._drug_by_name, name_or_synonym)

    # ---------------------------------------------------------------------------------- lookups

    def disorder(self, code: str) -> Disorder:
        """The disorder with exactly this code (``KeyError`` if none)."""
        try:
            return self._disorder_by_code[code]
        except KeyError:
            raise KeyError(f"no disorder with code {code!r} in the knowledge base") from None

    def disorders_in(self, category: str) -> tuple[Disorder, ...]:
        """The disorders of a category id, in file order (empty for an unknown id)."""
        return tuple(d for d in self.disorders if d.category == category)

    def presentation(self, code: str) -> Presentation | None:
        return self._presentation_by_code.get(code)

    def mse_domain(self, key: str) -> MSEDomain:
        return self._mse_by_key[key]

    def contraindications(self, code: str) -> tuple[Contraindication, ...]:
        """Drugs contraindicated in a disorder, each with its reason."""
        d = self._disorder_by_code.get(code)
        return d.contraindicated_drugs if d is not None else ()


def _index(entries: Iterable[Any], names: Callable[[Any], Iterable[str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for entry in entries:
        for name in names(entry):
            for key in _name_keys(name):
                out.setdefault(key, entry)
    return out


def _lookup(index: Mapping[str, Any], text: str) -> Any:
    for key in _name_keys(text):
        found = index.get(key)
        if found is not None:
            return found
    return None


# ------------------------------------------------------------------------------------- validation


class _Entry:
    """Field access for one JSON entry that raises :class:`KnowledgeError` naming file, entry and field."""

    def __init__(
        self, file: str, entry: str, raw: Any, allowed: Iterable[str] | None = None, prefix: str = ""
    ):
        self.file = file
        self.entry = entry
        self.prefix = prefix
        if not isinstance(raw, dict):
            raise KnowledgeError(
                file, entry, prefix.rstrip(".") or None, f"must be an object, got {type(raw).__name__}"
            )
        self.raw = raw
        if allowed is not None:
            unknown = sorted(set(raw) - set(allowed))
            if unknown:
                raise KnowledgeError(
                    file, entry, prefix + unknown[0], "unknown field (not in the agreed schema)"
                )

    def fail(self, name: str | None, problem: str) -> KnowledgeError:
        if name is None:
            return KnowledgeError(self.file, self.entry, self.prefix.rstrip(".") or None, problem)
        return KnowledgeError(self.file, self.entry, self.prefix + name, problem)

    def get(self, name: str, required: bool = True) -> Any:
        if name not in self.raw:
            if required:
                raise self.fail(name, "missing")
            return None
        return self.raw[name]

    def text(self, name: str, required: bool = True) -> str | None:
        value = self.get(name, required)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(name, f"must be a non-empty string, got {value!r}")
        return value

    def texts(self, name: str, required: bool = True, min_items: int = 0) -> tuple[str, ...]:
        value = self.get(name, required)
        if value is None and not required:
            return ()
        if not isinstance(value, list):
            raise self.fail(name, f"must be a list of strings, got {type(value).__name__}")
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                raise self.fail(f"{name}[{i}]", f"must be a non-empty string, got {item!r}")
        if len(value) < min_items:
            raise self.fail(name, f"needs at least {min_items} item(s), has {len(value)}")
        return tuple(value)

    def number(
        self, name: str, required: bool = True, low: float | None = None, high: float | None = None
    ) -> Any:
        value = self.get(name, required)
        if value is None and not required:
            return None
        return _check_number(self, name, value, low, high)

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.get(name, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(name, f"must be true or false, got {value!r}")
        return value

    def pair(self, name: str, required: bool = True, integer: bool = False) -> tuple[Any, Any] | None:
        value = self.get(name, required)
        if value is None and not required:
            return None
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(name, f"must be a list of two numbers [low, high], got {value!r}")
        low = _check_number(self, f"{name}[0]", value[0], None, None, integer)
        high = _check_number(self, f"{name}[1]", value[1], None, None, integer)
        if low > high:
            raise self.fail(name, f"low {low} is above high {high}")
        return (low, high)

    def mapping(self, name: str, required: bool = True) -> dict:
        value = self.get(name, required)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.fail(name, f"must be an object, got {type(value).__name__}")
        return value

    def items(self, name: str, required: bool = True) -> list:
        value = self.get(name, required)
        if value is None and not required:
            return []
        if not isinstance(value, list):
            raise self.fail(name, f"must be a list, got {type(value).__name__}")
        return value


def _check_number(
    entry: _Entry, name: str, value: Any, low: float | None, high: float | None, integer: bool = False
):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise entry.fail(name, f"must be a number, got {value!r}")
    if integer and not isinstance(value, int):
        raise entry.fail(name, f"must be an integer, got {value!r}")
    if low is not None and value < low:
        raise entry.fail(name, f"must be at least {low}, got {value}")
    if high is not None and value > high:
        raise entry.fail(name, f"must be at most {high}, got {value}")
    return value


def _read_file(folder: Path | Traversable, name: str, key: str, required: bool = True) -> list | None:
    path = folder.joinpath(name)
    if not path.is_file():
        if required:
            raise KnowledgeError(name, None, None, "file is missing")
        return None
    try:
        raw = json.loads(path.read_text("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise KnowledgeError(name, None, None, f"not valid JSON: {e}") from None
    if not isinstance(raw, dict):
        raise KnowledgeError(name, None, None, "must hold a JSON object")
    if not isinstance(raw.get("_about"), str) or not raw["_about"].strip():
        raise KnowledgeError(name, None, "_about", "missing or empty description")
    entries = raw.get(key)
    if not isinstance(entries, list):
        raise KnowledgeError(name, None, key, "missing, or not a list")
    return entries


def _entry_id(raw: Any, key: str, i: int) -> str:
    if isinstance(raw, dict) and isinstance(raw.get(key), str):
        return raw[key]
    return f"#{i}"


def _template_fields(entry: _Entry, name: str, template: str, allowed: frozenset[str]) -> None:
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    except ValueError as e:
        raise entry.fail(name, f"not a valid template: {e}") from None
    unknown = sorted(f for f in fields if f not in allowed)
    if unknown:
        raise entry.fail(name, f"unknown placeholder {{{unknown[0]}}}; allowed: {sorted(allowed)}")


# ---- exams


_EXAM_FIELDS = (
    "name", "aliases", "kind", "description", "indicated_for", "normal_result", "abnormal_result",
    "item_count", "score_range", "score_step", "bands", "unit", "reference_range", "abnormal_direction",
    "findings", "components", "measures", "typical_max", "fits",
)  # fmt: skip


def _load_exams(entries: list, codes: set[str], category_ids: set[str]) -> list[Exam]:
    file = "exams.json"
    out: list[Exam] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(entries):
        e = _Entry(file, _entry_id(raw, "name", i), raw, _EXAM_FIELDS)
        name = e.text("name")
        kind = e.text("kind")
        if kind not in EXAM_KINDS:
            raise e.fail("kind", f"must be one of {EXAM_KINDS}, got {kind!r}")
        aliases = e.texts("aliases", required=False)
        for label, alias in [("name", name)] + [(f"aliases[{j}]", a) for j, a in enumerate(aliases)]:
            for key in _name_keys(alias):
                if key in seen and seen[key] != name:
                    raise e.fail(label, f"{alias!r} is already a name or alias of exam {seen[key]!r}")
                seen[key] = name
        indicated = e.texts("indicated_for", min_items=1)
        for j, target in enumerate(indicated):
            if target not in category_ids and target not in codes:
                raise e.fail(
                    f"indicated_for[{j}]", f"{target!r} is neither a category id nor a disorder code"
                )
        normal_result = e.text("normal_result")
        abnormal_result = e.text("abnormal_result")
        findings_raw = e.mapping("findings", required=False)
        for fid, text in findings_raw.items():
            if not isinstance(text, str) or not text.strip():
                raise e.fail(f"findings.{fid}", "must be a non-empty report text")
        bands: tuple[Band, ...] = ()
        score_range = None
        step: float = 1
        item_count = None
        reference_range = None
        unit = None
        direction = None
        if kind == "scale":
            item_count = e.get("item_count", required=True)
            if item_count is not None:
                item_count = _check_number(e, "item_count", item_count, 1, None, integer=True)
            score_range = e.pair("score_range")
            step = e.number("score_step", required=False, low=0) or 1
            if step <= 0:
                raise e.fail("score_step", "must be positive")
            bands = _load_bands(e, score_range, step)
            if "typical_max" in e.raw:
                _check_number(e, "typical_max", e.raw["typical_max"], score_range[0], score_range[1])
            for fname, template in (("normal_result", normal_result), ("abnormal_result", abnormal_result)):
                _template_fields(e, fname, template, SCALE_TEMPLATE_FIELDS)
        else:
            for scale_only in ("item_count", "score_range", "score_step", "bands"):
                if scale_only in e.raw:
                    raise e.fail(scale_only, f"only scales have {scale_only}; this exam is a {kind}")
        if kind == "lab" and "unit" in e.raw:
            unit = e.text("unit")
            reference_range = e.pair("reference_range")
            direction = e.text("abnormal_direction")
            if direction not in ("high", "low", "either"):
                raise e.fail("abnormal_direction", f"must be high, low or either, got {direction!r}")
            for fname, template in (("normal_result", normal_result), ("abnormal_result", abnormal_result)):
                _template_fields(e, fname, template, LAB_TEMPLATE_FIELDS)
        else:
            for lab_only in ("unit", "reference_range", "abnormal_direction"):
                if lab_only in e.raw:
                    raise e.fail(lab_only, f"{lab_only} needs kind 'lab' with a unit")
            if kind != "scale":
                measures = e.mapping("measures", required=False)
                for mid, spec in measures.items():
                    if mid.startswith("_") or not isinstance(spec, Mapping):
                        continue
                    if "choices" in spec:
                        if not spec["choices"] or not all(isinstance(c, str) and c.strip() for c in spec["choices"]):
                            raise e.fail(f"measures.{mid}.choices", "must be a list of non-empty texts")
                    elif not all(isinstance(spec.get(k), (int, float)) for k in ("mild", "severe", "step")):
                        raise e.fail(f"measures.{mid}", "needs numbers mild, severe and step (or a list of choices)")
                _template_fields(e, "normal_result", normal_result, frozenset())
                _template_fields(e, "abnormal_result", abnormal_result,
                                 frozenset(m for m, v in measures.items() if not m.startswith("_") and isinstance(v, Mapping)))
        fits = e.mapping("fits", required=False)
        unknown = sorted(set(fits) - {"sexes", "ages", "_about"})
        if unknown:
            raise e.fail(f"fits.{unknown[0]}", "unknown field; expected 'sexes' and/or 'ages'")
        sexes = tuple(fits.get("sexes", ()))
        if not all(x in ("female", "male") for x in sexes):
            raise e.fail("fits.sexes", f"must list 'female' and/or 'male', got {list(sexes)!r}")
        ages = fits.get("ages")
        if ages is not None and not (
            isinstance(ages, list) and len(ages) == 2 and all(isinstance(a, int) and not isinstance(a, bool) for a in ages)
            and 0 <= ages[0] <= ages[1]
        ):
            raise e.fail("fits.ages", f"must be [youngest, oldest] in whole years, got {ages!r}")
        components = []
        for j, comp in enumerate(e.items("components", required=False)):
            c = _Entry(file, name, comp, ("name", "unit", "reference_range"), prefix=f"components[{j}].")
            c.text("name")
            c.text("unit")
            c.pair("reference_range")
            components.append(MappingProxyType(dict(comp)))
        out.append(
            Exam(
                name=name,
                aliases=aliases,
                kind=kind,
                description=e.text("description"),
                indicated_for=indicated,
                normal_result=normal_result,
                abnormal_result=abnormal_result,
                item_count=item_count,
                score_range=score_range,
                score_step=step,
                bands=bands,
                unit=unit,
                reference_range=reference_range,
                abnormal_direction=direction,
                findings=MappingProxyType(dict(findings_raw)),
                components=tuple(components),
                sexes=sexes,
                ages=tuple(ages) if ages is not None else None,
            )
        )
    return out


def _load_bands(e: _Entry, score_range: tuple[float, float], step: float) -> tuple[Band, ...]:
    raw_bands = e.items("bands")
    if not raw_bands:
        raise e.fail("bands", "a scale needs at least one band")
    bands: list[Band] = []
    for j, raw in enumerate(raw_bands):
        _Entry(e.file, e.entry, raw, ("label", "min", "max", "normal"), prefix=f"bands[{j}].")
        label = raw.get("label") if isinstance(raw, dict) else None
        if not isinstance(label, str) or not label.strip():
            raise e.fail(f"bands[{j}].label", f"must be a non-empty string, got {label!r}")
        low = _check_number(e, f"bands[{j}].min", raw.get("min"), None, None)
        high = _check_number(e, f"bands[{j}].max", raw.get("max"), None, None)
        normal = raw.get("normal", False)
        if not isinstance(normal, bool):
            raise e.fail(f"bands[{j}].normal", f"must be true or false, got {normal!r}")
        if low > high:
            raise e.fail(f"bands[{j}]", f"min {low} is above max {high}")
        if any(x.label.casefold() == label.casefold() for x in bands):
            raise e.fail(f"bands[{j}].label", f"duplicate band label {label!r}")
        bands.append(Band(label, low, high, normal))
    tol = step / 1000
    if abs(bands[0].min - score_range[0]) > tol:
        raise e.fail(
            "bands[0].min",
            f"bands must start at the bottom of score_range {score_range[0]}, got {bands[0].min}",
        )
    if abs(bands[-1].max - score_range[1]) > tol:
        raise e.fail(
            f"bands[{len(bands) - 1}].max",
            f"bands must end at the top of score_range {score_range[1]}, got {bands[-1].max}",
        )
    for j in range(1, len(bands)):
        expected = bands[j - 1].max + step
        if abs(bands[j].min - expected) > tol:
            raise e.fail(
                f"bands[{j}].min",
                f"bands must tile the score range: expected {round(expected, 6)} after {bands[j - 1].label!r}, got {bands[j].min}",
            )
    if not any(b.normal for b in bands):
        raise e.fail("bands", "no band is marked normal")
    return tuple(bands)


# ---- drugs


_DRUG_FIELDS = (
    "name",
    "synonyms",
    "class",
    "starting_dose",
    "usual_range",
    "monitoring",
    "cautions",
    "unsafe_with",
    "max_mg_day",
    "older_max_mg_day",
    "older_from_age",
    "starting_max_mg",
    "dose_source",
    "unsafe_with_results",
    "results_reason",
)


def _load_drugs(entries: list, codes: set[str]) -> list[Drug]:
    file = "drugs.json"
    out: list[Drug] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(entries):
        e = _Entry(file, _entry_id(raw, "name", i), raw, _DRUG_FIELDS)
        name = e.text("name")
        synonyms = e.texts("synonyms", required=False)
        for label, alias in [("name", name)] + [(f"synonyms[{j}]", a) for j, a in enumerate(synonyms)]:
            for key in _name_keys(alias):
                if key in seen and seen[key] != name:
                    raise e.fail(label, f"{alias!r} is already a name or synonym of drug {seen[key]!r}")
                seen[key] = name
        unsafe = e.texts("unsafe_with", required=False)
        for j, code in enumerate(unsafe):
            if code not in codes:
                raise e.fail(f"unsafe_with[{j}]", f"unknown disorder code {code!r}")
        out.append(
            Drug(
                name=name,
                synonyms=synonyms,
                drug_class=e.text("class"),
                starting_dose=e.text("starting_dose"),
                usual_range=e.text("usual_range"),
                monitoring=e.texts("monitoring", min_items=1),
                cautions=e.texts("cautions", required=False),
                unsafe_with=unsafe,
                unsafe_with_results=e.texts("unsafe_with_results", required=False),
                results_reason=e.text("results_reason") if raw.get("unsafe_with_results") else "",
                **_drug_doses(e),
            )
        )
    return out


def _drug_doses(e: _Entry) -> dict[str, Any]:
    """A drug's optional dose figures (``max_mg_day``, ``older_max_mg_day`` with ``older_from_age``,
    ``starting_max_mg``), each positive and each with a ``dose_source``; an older adult's maximum is no higher than the
    adult one and the top initial dose no higher than the maximum."""
    most = e.number("max_mg_day", required=False, low=0)
    older = e.number("older_max_mg_day", required=False, low=0)
    age = e.number("older_from_age", required=False, low=18, high=110)
    start = e.number("starting_max_mg", required=False, low=0)
    source = e.text("dose_source", required=False) or ""
    if (older is None) != (age is None):
        raise e.fail("older_max_mg_day", "needs older_from_age, and older_from_age needs it")
    if older is not None and (most is None or older > most):
        raise e.fail("older_max_mg_day", "must not be above max_mg_day")
    if start is not None and most is not None and start > most:
        raise e.fail("starting_max_mg", "must not be above max_mg_day")
    if (most is not None or start is not None) and not source:
        raise e.fail("dose_source", "a dose figure needs its source")
    return {
        "max_mg_day": None if most is None else float(most),
        "older_max_mg_day": None if older is None else float(older),
        "older_from_age": None if age is None else int(age),
        "starting_max_mg": None if start is None else float(start),
        "dose_source": source,
    }


# ---- disorders


_DISORDER_FIELDS = (
    "code", "name", "synonyms", "category", "core_features", "onset", "course", "age_range", "typical_age",
    "sex_weights", "service_weight", "settings", "comorbidities", "differentials", "exams", "treatment",
    "safety", "contraindicated_drugs",
)  # fmt: skip


def _disorder_codes(entries: list) -> set[str]:
    """The codes of the disorder file, checked for shape and uniqueness first (others refer to them)."""
    codes: set[str] = set()
    for i, raw in enumerate(entries):
        e = _Entry("disorders.json", _entry_id(raw, "code", i), raw)
        code = e.text("code")
        if not is_icd10cm_code(code):
            raise e.fail("code", f"{code!r} is not an ICD-10-CM code")
        if code in codes:
            raise e.fail("code", f"duplicate code {code!r}")
        codes.add(code)
    return codes


def _load_disorders(
    entries: list,
    codes: set[str],
    category_ids: set[str],
    exams: Mapping[str, Exam],
    drugs: Mapping[str, Drug],
) -> list[Disorder]:
    file = "disorders.json"
    out: list[Disorder] = []
    names: dict[str, str] = {}
    for i, raw in enumerate(entries):
        e = _Entry(file, _entry_id(raw, "code", i), raw, _DISORDER_FIELDS)
        code = e.text("code")
        name = e.text("name")
        synonyms = e.texts("synonyms", required=False)
        for label, alias in [("name", name)] + [(f"synonyms[{j}]", s) for j, s in enumerate(synonyms)]:
            for key in _name_keys(alias):
                if key in names and names[key] != code:
                    raise e.fail(
                        label,
                        f"{alias!r} already names disorder {names[key]}; a name must resolve to one disorder",
                    )
                names[key] = code
        category = e.text("category")
        expected = category_of_code(code)
        if category not in category_ids:
            raise e.fail("category", f"unknown category id {category!r}")
        if category != expected:
            raise e.fail("category", f"{code} belongs to {expected!r} by category_of_code, not {category!r}")
        age_range = e.pair("age_range", integer=True)
        if age_range[0] < 3 or age_range[1] > 110:
            raise e.fail("age_range", f"must lie within 3..110 (CASES.md), got {list(age_range)}")
        typical = e.pair("typical_age", integer=True)
        if typical[0] < age_range[0] or typical[1] > age_range[1]:
            raise e.fail("typical_age", f"{list(typical)} must lie inside age_range {list(age_range)}")
        sex = e.mapping("sex_weights")
        if set(sex) != set(SEXES):
            raise e.fail("sex_weights", f"must have exactly the keys {SEXES}, got {sorted(sex)}")
        for k, v in sex.items():
            _check_number(e, f"sex_weights.{k}", v, 0, None)
        if sex["female"] + sex["male"] <= 0:
            raise e.fail("sex_weights", "female and male weights cannot both be zero")
        settings = e.mapping("settings")
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise e.fail(f"settings.{unknown[0]}", f"unknown setting; allowed: {SETTINGS}")
        for k, v in settings.items():
            _check_number(e, f"settings.{k}", v, 0, 1)
        if abs(sum(settings.values()) - 1) > 1e-6:
            raise e.fail("settings", f"shares must sum to 1, got {sum(settings.values())}")
        comorbidities = []
        for j, c in enumerate(e.items("comorbidities")):
            ce = _Entry(file, code, c, ("code", "p"), prefix=f"comorbidities[{j}].")
            other = ce.get("code")
            if other not in codes:
                raise e.fail(f"comorbidities[{j}].code", f"unknown disorder code {other!r}")
            if other == code:
                raise e.fail(f"comorbidities[{j}].code", "a disorder cannot be its own comorbidity")
            p = _check_number(e, f"comorbidities[{j}].p", ce.get("p"), 0, 1)
            if p <= 0:
                raise e.fail(f"comorbidities[{j}].p", "must be above 0")
            comorbidities.append(Comorbidity(other, p))
        differentials = e.texts("differentials", min_items=1)
        for j, other in enumerate(differentials):
            if other not in codes:
                raise e.fail(f"differentials[{j}]", f"unknown disorder code {other!r}")
            if other == code:
                raise e.fail(f"differentials[{j}]", "a disorder cannot be its own differential")
        expectations = []
        for j, x in enumerate(e.items("exams")):
            expectations.append(_exam_expectation(e, f"exams[{j}]", x, exams))
        treatment = _treatment(e, drugs)
        contra = []
        first_line = {m.drug for m in treatment.medications}
        for j, c in enumerate(e.items("contraindicated_drugs", required=False)):
            ce = _Entry(file, code, c, ("drug", "reason"), prefix=f"contraindicated_drugs[{j}].")
            drug = ce.get("drug")
            if drug not in drugs:
                raise e.fail(f"contraindicated_drugs[{j}].drug", f"unknown drug {drug!r} (not in drugs.json)")
            if drug in first_line:
                raise e.fail(
                    f"contraindicated_drugs[{j}].drug", f"{drug} is also a first-line medication here"
                )
            if code not in drugs[drug].unsafe_with:
                raise e.fail(
                    f"contraindicated_drugs[{j}].drug",
                    f"drugs.json does not list {code} in {drug}'s unsafe_with",
                )
            reason = ce.get("reason")
            if not isinstance(reason, str) or not reason.strip():
                raise e.fail(f"contraindicated_drugs[{j}].reason", "must be a non-empty string")
            contra.append(Contraindication(drug, reason))
        for j, m in enumerate(treatment.medications):
            if code in drugs[m.drug].unsafe_with:
                raise e.fail(
                    f"treatment.medications[{j}].drug",
                    f"{m.drug} is first-line here but drugs.json marks it unsafe with {code}",
                )
        out.append(
            Disorder(
                code=code,
                name=name,
                synonyms=synonyms,
                category=category,
                core_features=e.texts("core_features", min_items=2),
                onset=e.text("onset"),
                course=e.text("course"),
                age_range=age_range,
                typical_age=typical,
                sex_weights=MappingProxyType(dict(sex)),
                service_weight=e.number("service_weight", low=0),
                settings=MappingProxyType(dict(settings)),
                comorbidities=tuple(comorbidities),
                differentials=differentials,
                exams=tuple(expectations),
                treatment=treatment,
                safety=e.texts("safety", min_items=1),
                contraindicated_drugs=tuple(contra),
            )
        )
        if out[-1].service_weight <= 0:
            raise e.fail("service_weight", "must be above 0")
    return out


def _exam_expectation(e: _Entry, where: str, raw: Any, exams: Mapping[str, Exam]) -> ExamExpectation:
    if not isinstance(raw, dict):
        raise e.fail(where, "must be an object")
    unknown = sorted(set(raw) - {"exam", "reading", "band", "finding"})
    if unknown:
        raise e.fail(f"{where}.{unknown[0]}", "unknown field")
    name = raw.get("exam")
    exam = exams.get(name) if isinstance(name, str) else None
    if exam is None:
        raise e.fail(f"{where}.exam", f"unknown exam {name!r} (not a name in exams.json)")
    reading = raw.get("reading")
    if reading not in READINGS:
        raise e.fail(f"{where}.reading", f"must be one of {READINGS}, got {reading!r}")
    band = raw.get("band")
    if band is not None:
        if exam.kind != "scale":
            raise e.fail(f"{where}.band", f"{exam.name} is a {exam.kind}, not a scale: it has no bands")
        found = exam.band(band) if isinstance(band, str) else None
        if found is None:
            raise e.fail(
                f"{where}.band", f"{band!r} is not a band of {exam.name}: {[b.label for b in exam.bands]}"
            )
        if found.normal != (reading == "normal"):
            raise e.fail(
                f"{where}.band", f"band {band!r} of {exam.name} does not match the reading {reading!r}"
            )
    finding = raw.get("finding")
    if finding is not None:
        if finding not in exam.findings:
            raise e.fail(
                f"{where}.finding", f"{finding!r} is not a finding of {exam.name}: {sorted(exam.findings)}"
            )
        if reading != "abnormal":
            raise e.fail(f"{where}.finding", "a finding needs the reading 'abnormal'")
    return ExamExpectation(exam.name, reading, band, finding)


def _treatment(e: _Entry, drugs: Mapping[str, Drug]) -> Treatment:
    raw = e.mapping("treatment")
    unknown = sorted(set(raw) - {"medications", "psychotherapy", "other", "follow_up"})
    if unknown:
        raise e.fail(f"treatment.{unknown[0]}", "unknown field")
    meds_raw = raw.get("medications", [])
    if not isinstance(meds_raw, list):
        raise e.fail("treatment.medications", "must be a list")
    meds = []
    for j, m in enumerate(meds_raw):
        where = f"treatment.medications[{j}]"
        if not isinstance(m, dict):
            raise e.fail(where, "must be an object with drug and starting_dose")
        drug = m.get("drug")
        if drug not in drugs:
            raise e.fail(f"{where}.drug", f"unknown drug {drug!r} (not in drugs.json)")
        dose = m.get("starting_dose")
        if not isinstance(dose, str) or not dose.strip():
            raise e.fail(f"{where}.starting_dose", "must be a non-empty string")
        meds.append(Medication(drug, dose))
    lists = {}
    for key in ("psychotherapy", "other"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(x, str) and x.strip() for x in value):
            raise e.fail(f"treatment.{key}", "must be a list of non-empty strings")
        lists[key] = tuple(value)
    follow_up = raw.get("follow_up")
    if not isinstance(follow_up, str) or not follow_up.strip():
        raise e.fail("treatment.follow_up", "must be a non-empty string")
    if not meds and not lists["psychotherapy"] and not lists["other"]:
        raise e.fail("treatment", "names no medication, psychotherapy or other measure")
    return Treatment(tuple(meds), lists["psychotherapy"], lists["other"], follow_up)


# ---- MSE


def _load_mse(entries: list) -> list[MSEDomain]:
    file = "mse.json"
    out: list[MSEDomain] = []
    for i, raw in enumerate(entries):
        e = _Entry(
            file,
            _entry_id(raw, "key", i),
            raw,
            ("key", "name", "about", "ask", "normal", "descriptors", "abnormal_examples"),
        )
        key = e.text("key")
        if key not in MSE_KEYS:
            raise e.fail("key", f"not a mental status key of CASES.md: {key!r}")
        if any(d.key == key for d in out):
            raise e.fail("key", f"duplicate domain {key!r}")
        out.append(
            MSEDomain(
                key=key,
                name=e.text("name", required=False) or key.replace("_", " ").capitalize(),
                about=e.text("about"),
                ask=e.texts("ask", min_items=1),
                normal=e.texts("normal", min_items=1),
                descriptors=e.texts("descriptors", min_items=3),
                abnormal_examples=e.texts("abnormal_examples", required=False),
            )
        )
    missing = [k for k in MSE_KEYS if k not in {d.key for d in out}]
    if missing:
        raise KnowledgeError(file, missing[0], "key", "mental status domain missing")
    return out


# ---- lexicon


def _load_lexicon(folder: Path | Traversable, category_ids: set[str]) -> Lexicon:
    concepts = []
    owner: dict[str, str] = {}
    files = lexicon_files(folder)
    if not files:
        raise KnowledgeError("lexicon/", None, None, "no lexicon files (data/lexicon/*.json)")
    for f in files:
        file = f"lexicon/{f.name}"
        for i, raw in enumerate(_read_file(folder, file, "concepts")):
            e = _Entry(
                file,
                _entry_id(raw, "id", i),
                raw,
                (
                    "id",
                    "kind",
                    "domain",
                    "clinical_terms",
                    "lay_phrases",
                    "questions",
                    "sensitive",
                    "categories",
                    "absent_phrases",
                    "not_phrases",
                ),
            )
            cid = e.text("id")
            if cid in owner:
                raise e.fail("id", f"concept id {cid!r} is already defined in {owner[cid]}")
            owner[cid] = file
            kind = e.text("kind")
            if kind not in CONCEPT_KINDS:
                raise e.fail("kind", f"must be one of {CONCEPT_KINDS}, got {kind!r}")
            e.text("domain")
            terms = e.texts("clinical_terms", required=False) + e.texts("lay_phrases", required=False)
            if not terms:
                raise e.fail("clinical_terms", "a concept needs at least one clinical term or lay phrase")
            for j, t in enumerate(terms):
                if not tokenize(t):
                    raise e.fail(
                        "clinical_terms" if j < len(e.raw.get("clinical_terms", ())) else "lay_phrases",
                        f"{t!r} has no words",
                    )
            for j, t in enumerate(e.texts("absent_phrases", required=False)):
                words = tokenize(t)
                if not words:
                    raise e.fail(f"absent_phrases[{j}]", f"{t!r} has no words")
                spans = negated_spans_in(t)
                if spans:
                    raise e.fail(
                        f"absent_phrases[{j}]",
                        f"{t!r} holds the negation cue {words[spans[0][0]]!r}: an absent phrase says the "
                        "concept is absent without a negation (a negated one reads as the concept present)",
                    )
            e.texts("questions", min_items=1)
            e.flag("sensitive")
            for j, cat in enumerate(e.texts("categories", required=False)):
                if cat not in category_ids:
                    raise e.fail(f"categories[{j}]", f"unknown category id {cat!r}")
            concepts.append(concept_from_entry(raw, file))
    return Lexicon(concepts)


# ---- presentations


_PRESENTATION_FIELDS = (
    "code", "symptoms", "pertinent_negatives", "onset_phrases", "durations", "precipitants", "impact", "mse", "persona",
)  # fmt: skip


def _load_presentations(entries: list, codes: set[str], lexicon: Lexicon) -> list[Presentation]:
    file = "presentations.json"
    out: list[Presentation] = []
    seen: set[str] = set()
    for i, raw in enumerate(entries):
        e = _Entry(file, _entry_id(raw, "code", i), raw, _PRESENTATION_FIELDS)
        code = e.text("code")
        if code not in codes:
            raise e.fail("code", f"unknown disorder code {code!r} (not in disorders.json)")
        if code in seen:
            raise e.fail("code", f"duplicate presentation for {code}")
        seen.add(code)
        symptoms = []
        for j, s in enumerate(e.items("symptoms")):
            where = f"symptoms[{j}]"
            se = _Entry(
                file, code, s, ("concept", "p", "text", "patient_says", "sensitive"), prefix=f"{where}."
            )
            concept = se.get("concept")
            if concept not in lexicon:
                raise e.fail(f"{where}.concept", f"unknown lexicon concept {concept!r}")
            p = _check_number(e, f"{where}.p", se.get("p"), 0, 1)
            text = se.get("text")
            if not isinstance(text, str) or not text.strip():
                raise e.fail(f"{where}.text", "must be a non-empty string")
            says = se.get("patient_says")
            if (
                not isinstance(says, list)
                or not says
                or not all(isinstance(x, str) and x.strip() for x in says)
            ):
                raise e.fail(f"{where}.patient_says", "must be a non-empty list of non-empty strings")
            sensitive = se.raw.get("sensitive", False)
            if not isinstance(sensitive, bool):
                raise e.fail(f"{where}.sensitive", f"must be true or false, got {sensitive!r}")
            symptoms.append(PresentationSymptom(concept, p, text, tuple(says), sensitive))
        if not symptoms:
            raise e.fail("symptoms", "a presentation needs at least one symptom")
        negatives = e.texts("pertinent_negatives", required=False)
        present = {s.concept for s in symptoms}
        for j, concept in enumerate(negatives):
            if concept not in lexicon:
                raise e.fail(f"pertinent_negatives[{j}]", f"unknown lexicon concept {concept!r}")
            if concept in present:
                raise e.fail(
                    f"pertinent_negatives[{j}]", f"{concept!r} is also one of this disorder's symptoms"
                )
        mse_raw = e.mapping("mse", required=False)
        mse: dict[str, tuple[str, ...]] = {}
        for key, values in mse_raw.items():
            if key not in MSE_KEYS:
                raise e.fail(f"mse.{key}", "not a mental status key of CASES.md")
            if (
                not isinstance(values, list)
                or not values
                or not all(isinstance(v, str) and v.strip() for v in values)
            ):
                raise e.fail(f"mse.{key}", "must be a non-empty list of descriptor strings")
            mse[key] = tuple(values)
        persona = _persona(e)
        out.append(
            Presentation(
                code=code,
                symptoms=tuple(symptoms),
                pertinent_negatives=negatives,
                onset_phrases=e.texts("onset_phrases", required=False),
                durations=e.texts("durations", required=False),
                precipitants=e.texts("precipitants", required=False),
                impact=e.texts("impact", required=False),
                mse=MappingProxyType(mse),
                persona=MappingProxyType(persona),
            )
        )
    missing = sorted(codes - seen)
    if missing:
        raise KnowledgeError(
            file,
            missing[0],
            "code",
            f"no presentation for {len(missing)} disorder(s) of disorders.json: {', '.join(missing)}",
        )
    return out


def _persona(e: _Entry) -> dict:
    persona = e.mapping("persona", required=False)
    for key, allowed in (("verbosity", VERBOSITIES), ("insight", INSIGHTS)):
        if key in persona:
            values = persona[key]
            if not isinstance(values, list) or not values or any(v not in allowed for v in values):
                raise e.fail(
                    f"persona.{key}", f"must be a non-empty list drawn from {allowed}, got {values!r}"
                )
    if "guardedness" in persona:
        g = persona["guardedness"]
        if (
            not isinstance(g, list)
            or len(g) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1 for x in g)
            or g[0] > g[1]
        ):
            raise e.fail("persona.guardedness", f"must be [low, high] within 0..1, got {g!r}")
    if "speech_style" in persona:
        s = persona["speech_style"]
        if not isinstance(s, list) or not all(isinstance(x, str) and x.strip() for x in s):
            raise e.fail("persona.speech_style", "must be a list of non-empty strings")
    return dict(persona)


# ----------------------------------------------------------------------------------------- loading


def read_knowledge(folder: str | Path | Traversable | None = None) -> KnowledgeBase:
    """Load and validate the knowledge base from ``folder`` (the bundled ``data/`` when ``None``), uncached."""
    base: Path | Traversable
    if folder is None:
        base = resources.files(__package__).joinpath("data")
    else:
        base = Path(folder)
        if not base.is_dir():
            raise KnowledgeError(str(folder), None, None, "not a folder")
    categories = load_categories()
    category_ids = {c.id for c in categories}
    disorder_entries = _read_file(base, "disorders.json", "disorders")
    codes = _disorder_codes(disorder_entries)
    for code in sorted(codes):
        if category_of_code(code) is None:
            raise KnowledgeError("disorders.json", code, "code", "code maps to none of the 15 categories")
    exams = _load_exams(_read_file(base, "exams.json", "exams"), codes, category_ids)
    drugs = _load_drugs(_read_file(base, "drugs.json", "drugs"), codes)
    exam_by_name = {x.name: x for x in exams}
    drug_by_name = {d.name: d for d in drugs}
    disorders = _load_disorders(disorder_entries, codes, category_ids, exam_by_name, drug_by_name)
    for drug in drugs:
        for code in drug.unsafe_with:
            d = next(x for x in disorders if x.code == code)
            if not any(c.drug == drug.name for c in d.contraindicated_drugs):
                raise KnowledgeError(
                    "drugs.json",
                    drug.name,
                    "unsafe_with",
                    f"{code} does not give a reason for it under contraindicated_drugs",
                )
    mse = _load_mse(_read_file(base, "mse.json", "domains"))
    lexicon = _load_lexicon(base, category_ids)
    presentation_entries = _read_file(base, "presentations.json", "presentations", required=False)
    presentations = (
        _load_presentations(presentation_entries, codes, lexicon) if presentation_entries is not None else []
    )
    return KnowledgeBase(categories, disorders, exams, drugs, lexicon, mse, presentations)


@lru_cache(maxsize=8)
def _cached(folder: str | None) -> KnowledgeBase:
    return read_knowledge(folder)


def load_knowledge(folder: str | Path | None = None) -> KnowledgeBase:
    """The validated knowledge base (cached per folder); ``folder`` defaults to the bundled ``data/``.

    Raises :class:`KnowledgeError` naming the file, the entry and the field of the first problem.
    """
    return _cached(None if folder is None else str(Path(folder).resolve()))


def resolve_disorder(name_or_code: str) -> Disorder | None:
    """:meth:`KnowledgeBase.resolve_disorder` of the bundled knowledge base."""
    return load_knowledge().resolve_disorder(name_or_code)


def resolve_exam(name_or_alias: str) -> Exam | None:
    """:meth:`KnowledgeBase.resolve_exam` of the bundled knowledge base."""
    return load_knowledge().resolve_exam(name_or_alias)


def resolve_drug(name_or_synonym: str) -> Drug | None:
    """:meth:`KnowledgeBase.resolve_drug` of the bundled knowledge base."""
    return load_knowledge().resolve_drug(name_or_synonym)


def disorders_in(category: str) -> tuple[Disorder, ...]:
    """:meth:`KnowledgeBase.disorders_in` of the bundled knowledge base."""
    return load_knowledge().disorders_in(category)
