"""Load and validate cases and suites against docs/cases.md (format version 1).

``load_case`` takes a mapping, a JSON string or a path to one ``.json`` file; ``load_suite`` takes a
JSON Lines file, a folder of ``*.json`` files, a single case file or the name of a bundled suite
(``dev``, ``test``, ``handwritten``). Every rule of the contract is checked; a case that breaks any
raises :class:`CaseError` naming the case, the field path and the problem, and a suite with one bad
case raises :class:`SuiteError` naming every bad case: nothing half-loaded is ever returned.
"""

from __future__ import annotations

import gc
import json
import math
import os
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from mentalhospital_env.knowledge.codes import ICD10CM_LIST, category_ids, category_of_code, is_icd10cm_code, is_listed_code

from .derive import DerivedCheckpoints, derive_facts
from .errors import CaseError, Problem, SuiteError
from .model import (
    CHECKPOINT_GROUPS,
    EHR,
    EXAM_KINDS,
    INSIGHTS,
    LANGUAGES,
    MSE_KEYS,
    NARRATIVE_SECTIONS,
    REQUIRED_NARRATIVE,
    RISK_KEYS,
    SETTINGS,
    SEXES,
    VERBOSITIES,
    Case,
    Checkpoint,
    Checkpoints,
    Demographics,
    Diagnosis,
    ExamRecord,
    Fact,
    Medication,
    MentalStatusExam,
    Persona,
    ReferenceDisorder,
    RiskAssessment,
    Suite,
    Treatment,
    freeze,
    new_checkpoint,
    new_fact,
)

CASE_ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")
#: The largest case accepted, in bytes: one ``.json`` file or one JSON Lines line. A bigger one is refused
#: unread (its bytes are skipped, never held), so a damaged or hostile file costs bounded time and memory.
MAX_CASE_BYTES = 2 * 1024 * 1024
#: The deepest nesting of lists and objects accepted under ``extra`` and ``source`` (the only free-form keys).
MAX_CASE_DEPTH = 64
BUNDLED_SUITES: tuple[str, ...] = ("dev", "test", "handwritten", "dev-v2", "test-v2")

TOP_REQUIRED = ("case_id", "language", "demographics", "setting", "ehr", "exams", "diagnosis", "treatment")
TOP_OPTIONAL = ("persona", "facts", "checkpoints", "source", "extra")
DEMOGRAPHIC_STRINGS = ("occupation", "marital_status", "education", "living_situation")
EHR_KEYS = frozenset(NARRATIVE_SECTIONS) | {"mental_status_exam", "risk_assessment"}
FACT_SECTIONS = (
    frozenset(NARRATIVE_SECTIONS)
    | {"mental_status_exam", "risk_assessment"}
    | {f"mental_status_exam.{k}" for k in MSE_KEYS}
    | {f"risk_assessment.{k}" for k in RISK_KEYS}
)


class _Checker:
    """Collects every broken rule of one case, each with its field path."""

    __slots__ = ("problems",)

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def obj(self, value: Any, path: str) -> Mapping[str, Any] | None:
        if type(value) is not dict and not isinstance(value, Mapping):
            self.bad(path, f"must be an object, got {_kind(value)}")
            return None
        return value

    def keys(self, value: Mapping[str, Any], path: str, required: Iterable[str], allowed: Iterable[str]) -> None:
        required_set, allowed_set = _key_sets(tuple(required), tuple(allowed))
        present = value.keys()
        if present >= required_set and present <= allowed_set:
            return  # the common case: nothing missing, nothing unknown
        for key in required:
            if key not in value:
                self.bad(_join(path, key), "is required but missing")
        for key in value:
            if key not in allowed_set:
                hint = "; put it under 'extra'" if not path else ""
                self.bad(_join(path, str(key)), f"is not a key of the case format{hint}")

    def string(self, value: Any, path: str, *, required: bool = True) -> str | None:
        if value is None and not required:
            return None
        if not isinstance(value, str):
            self.bad(path, f"must be a string, got {_kind(value)}")
            return None
        if not value.strip():
            self.bad(path, "must be a non-empty string")
            return None
        return value

    def choice(self, value: Any, path: str, options: tuple[str, ...]) -> str | None:
        if not isinstance(value, str) or value not in options:
            self.bad(path, f"must be one of {', '.join(map(repr, options))}, got {value!r}")
            return None
        return value

    def listing(self, value: Any, path: str, *, non_empty: bool = False) -> list[Any]:
        if not isinstance(value, list):
            self.bad(path, f"must be a list, got {_kind(value)}")
            return []
        if non_empty and not value:
            self.bad(path, "must be a non-empty list")
        return value


@lru_cache(maxsize=None)
def _key_sets(required: tuple[str, ...], allowed: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(required), frozenset(required) | frozenset(allowed)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _optional_strings(c: _Checker, value: Mapping[str, Any], path: str, keys: Iterable[str]) -> dict[str, str | None]:
    """The optional string fields present in ``value``; a present one must be a non-empty string (null too is refused)."""
    return {k: c.string(value[k], _join(path, k)) for k in keys if k in value}


def _case_label(raw: Any, fallback: str) -> str:
    if isinstance(raw, Mapping):
        cid = raw.get("case_id")
        if isinstance(cid, str) and cid:
            return cid
    return fallback


def validate_case(raw: Any, *, where: str = "<mapping>") -> Case:
    """Check one case mapping against every rule of CASES.md and build the immutable ``Case``.

    ``where`` names the case in errors when it has no usable ``case_id`` (e.g. ``"cases.jsonl:12"``).
    """
    c = _Checker()
    label = _case_label(raw, where)
    top = c.obj(raw, "")
    if top is None:
        raise CaseError(label, c.problems)
    c.keys(top, "", TOP_REQUIRED, TOP_OPTIONAL)

    case_id = top.get("case_id")
    if not isinstance(case_id, str) or not CASE_ID_PATTERN.match(case_id):  # match + \Z: a full match
        if "case_id" in top:
            c.bad("case_id", f"must match [A-Za-z0-9._-]{{1,64}}, got {case_id!r}")
    language = c.choice(top.get("language"), "language", LANGUAGES) if "language" in top else None
    if language == "zh":
        c.bad("language", "'zh' is reserved for Chinese records and not yet supported by this version")
    setting = c.choice(top.get("setting"), "setting", SETTINGS) if "setting" in top else None

    demographics = _demographics(c, top.get("demographics")) if "demographics" in top else None
    ehr = _ehr(c, top.get("ehr")) if "ehr" in top else None
    exams = _exams(c, top.get("exams")) if "exams" in top else None
    diagnosis = _diagnosis(c, top.get("diagnosis")) if "diagnosis" in top else None
    treatment = _treatment(c, top.get("treatment")) if "treatment" in top else None
    persona = _persona(c, top["persona"]) if "persona" in top else None
    facts = _facts(c, top["facts"], ehr) if "facts" in top else None
    checkpoints = _checkpoints(c, top["checkpoints"]) if "checkpoints" in top else None
    source = c.obj(top["source"], "source") if "source" in top else None
    extra = top.get("extra")
    if "extra" in top and not isinstance(extra, Mapping):
        c.bad("extra", f"must be an object, got {_kind(extra)}")
    for key, free in (("source", source), ("extra", extra)):
        deep = _too_deep(free, key) if isinstance(free, Mapping) else None
        if deep is not None:
            c.bad(deep, f"is nested more than {MAX_CASE_DEPTH} levels deep")

    if c.problems:
        raise CaseError(label, c.problems)
    assert demographics and ehr and exams is not None and diagnosis and treatment and language and setting

    facts_derived = facts is None
    checkpoints_derived = checkpoints is None
    if facts is None:
        # a narrative record: compiled into patient memory (cached per record); the reference
        # checkpoints stay one per record sentence, as before compiling existed
        from .compile import compiled_facts

        if checkpoints is None:
            checkpoints = DerivedCheckpoints(derive_facts(ehr), exams)
        facts = compiled_facts(ehr, demographics.sex)
    if checkpoints is None:
        checkpoints = DerivedCheckpoints(facts, exams)
    return Case(
        case_id=case_id,  # type: ignore[arg-type]
        language=language,
        demographics=demographics,
        setting=setting,
        ehr=ehr,
        exams=exams,
        diagnosis=diagnosis,
        treatment=treatment,
        facts=facts,
        checkpoints=checkpoints,
        persona=persona,
        source=freeze(source) if source is not None else None,
        extra=freeze(extra) if extra is not None else None,
        facts_derived=facts_derived,
        checkpoints_derived=checkpoints_derived,
    )


# ------------------------------------------------------------------ fast paths for plainly valid parts
#
# Each returns the built part when every rule holds, else None; the detailed check then runs on that
# part and names every broken field. They hold no rule of their own: the detailed checks below are
# the contract, and the property tests check that both agree.

_DEMOGRAPHIC_KEYS = frozenset(("age", "sex") + DEMOGRAPHIC_STRINGS)
_SEX_SET = frozenset(SEXES)
_PERSONA_KEYS = frozenset(("verbosity", "guardedness", "insight", "speech_style", "informant"))
_TREATMENT_KEYS = frozenset(("plan", "medications", "psychotherapy", "safety", "follow_up"))
_CATEGORY_SET: frozenset[str] | None = None


def _text(value: Any) -> bool:
    return type(value) is str and bool(value.strip())


def _texts(value: Any) -> bool:
    return type(value) is list and all(type(v) is str and v.strip() for v in value)


def _demographics_fast(d: Any) -> Demographics | None:
    if type(d) is not dict or not d.keys() <= _DEMOGRAPHIC_KEYS:
        return None
    age, sex = d.get("age"), d.get("sex")
    if type(age) is not int or not 3 <= age <= 110 or sex not in _SEX_SET:
        return None
    for key in DEMOGRAPHIC_STRINGS:
        if key in d and not _text(d[key]):
            return None
    return _built(Demographics, _DEMOGRAPHIC_FIELDS, d)


def _persona_fast(p: Any) -> Persona | None:
    if type(p) is not dict or not p.keys() <= _PERSONA_KEYS:
        return None
    values = {"verbosity": "average", "guardedness": 0.3, "insight": "partial", "speech_style": None, "informant": None}
    if "verbosity" in p:
        if p["verbosity"] not in VERBOSITIES:
            return None
        values["verbosity"] = p["verbosity"]
    if "insight" in p:
        if p["insight"] not in INSIGHTS:
            return None
        values["insight"] = p["insight"]
    if "guardedness" in p:
        g = p["guardedness"]
        if type(g) not in (int, float) or not 0 <= g <= 1:  # NaN fails the comparison too
            return None
        values["guardedness"] = float(g)
    for key in ("speech_style", "informant"):
        if key in p:
            if not _text(p[key]):
                return None
            values[key] = p[key]
    persona = _new_fact_object(Persona)
    _set_fact_dict(persona, "__dict__", values)
    return persona


def _treatment_fast(t: Any) -> Treatment | None:
    if type(t) is not dict or not t.keys() <= _TREATMENT_KEYS or not _text(t.get("plan")):
        return None
    meds = None
    if "medications" in t:
        items = t["medications"]
        if type(items) is not list:
            return None
        built = []
        for m in items:
            if type(m) is not dict or not m.keys() <= {"name", "dose"} or not _text(m.get("name")):
                return None
            if "dose" in m and not _text(m["dose"]):
                return None
            built.append(Medication(m["name"], m.get("dose")))
        meds = tuple(built)
    lists = {}
    for key in ("psychotherapy", "safety"):
        if key in t:
            if not _texts(t[key]):
                return None
            lists[key] = tuple(t[key])
    if "follow_up" in t and not _text(t["follow_up"]):
        return None
    return Treatment(t["plan"], meds, lists.get("psychotherapy"), lists.get("safety"), t.get("follow_up"))


def _diagnosis_fast(d: Any) -> Diagnosis | None:
    global _CATEGORY_SET
    if _CATEGORY_SET is None:
        _CATEGORY_SET = frozenset(category_ids())
    if type(d) is not dict or d.keys() != {"categories", "disorders"}:
        return None
    categories, disorders = d["categories"], d["disorders"]
    if type(categories) is not list or not categories or type(disorders) is not list or not disorders:
        return None
    if len(set(categories)) != len(categories) or not all(type(c) is str and c in _CATEGORY_SET for c in categories):
        return None
    built = []
    codes = set()
    for x in disorders:
        if type(x) is not dict or x.keys() != {"name", "code"} or not _text(x["name"]):
            return None
        code = x["code"]
        if type(code) is not str or code in codes or not is_listed_code(code):
            return None
        category = category_of_code(code)
        if (category is None and not codes) or (category is not None and category not in categories):
            return None
        codes.add(code)
        built.append(ReferenceDisorder(x["name"], code))
    return Diagnosis(tuple(categories), tuple(built))


def _demographics(c: _Checker, value: Any) -> Demographics | None:
    fast = _demographics_fast(value)
    if fast is not None:
        return fast
    d = c.obj(value, "demographics")
    if d is None:
        return None
    c.keys(d, "demographics", ("age", "sex"), DEMOGRAPHIC_STRINGS)
    age = d.get("age")
    if "age" in d and (isinstance(age, bool) or not isinstance(age, int) or not 3 <= age <= 110):
        c.bad("demographics.age", f"must be an integer from 3 to 110, got {age!r}")
        age = None
    sex = c.choice(d.get("sex"), "demographics.sex", SEXES) if "sex" in d else None
    others = _optional_strings(c, d, "demographics", DEMOGRAPHIC_STRINGS)
    if age is None or sex is None:
        return None
    return Demographics(age=age, sex=sex, **others)  # type: ignore[arg-type]


_EHR_KEY_SET = frozenset(EHR_KEYS)
_MSE_KEY_SET = frozenset(MSE_KEYS)
_RISK_KEY_SET = frozenset(RISK_KEYS)


def _plain_texts(value: Any, allowed: frozenset[str]) -> bool:
    """Whether ``value`` is a dict of known keys whose values are all non-empty strings."""
    if type(value) is not dict or not value.keys() <= allowed:
        return False
    for text in value.values():
        if type(text) is not str or not text.strip():
            return False
    return True


def _built(cls: type, fields: tuple[str, ...], values: Mapping[str, Any]) -> Any:
    """A frozen dataclass instance filled from ``values`` (missing fields None), without ``__init__``."""
    obj = _new_fact_object(cls)
    _set_fact_dict(obj, "__dict__", {f: values.get(f) for f in fields})
    return obj


_NARRATIVE_FIELDS = tuple(NARRATIVE_SECTIONS)
_DEMOGRAPHIC_FIELDS = ("age", "sex") + DEMOGRAPHIC_STRINGS


def _ehr_fast(value: Any) -> EHR | None:
    """The record built directly when it is plainly valid; ``None`` sends it to the detailed check."""
    if type(value) is not dict or not value.keys() <= _EHR_KEY_SET:
        return None
    narrative = {k: v for k, v in value.items() if k != "mental_status_exam" and k != "risk_assessment"}
    if "chief_complaint" not in narrative or "history_of_present_illness" not in narrative:
        return None
    if not _plain_texts(narrative, _EHR_KEY_SET):
        return None
    mse = risk = None
    if "mental_status_exam" in value:
        m = value["mental_status_exam"]
        if not m or not _plain_texts(m, _MSE_KEY_SET):
            return None
        mse = _built(MentalStatusExam, MSE_KEYS, m)
    if "risk_assessment" in value:
        r = value["risk_assessment"]
        if type(r) is not dict or (r and not _plain_texts(r, _RISK_KEY_SET)):
            return None
        risk = _built(RiskAssessment, RISK_KEYS, r)
    record = _built(EHR, _NARRATIVE_FIELDS, narrative)
    record.__dict__["mental_status_exam"] = mse
    record.__dict__["risk_assessment"] = risk
    return record


def _ehr(c: _Checker, value: Any) -> EHR | None:
    fast = _ehr_fast(value)
    if fast is not None:
        return fast
    e = c.obj(value, "ehr")
    if e is None:
        return None
    c.keys(e, "ehr", REQUIRED_NARRATIVE, EHR_KEYS)
    texts = {k: c.string(e[k], f"ehr.{k}") for k in NARRATIVE_SECTIONS if k in e}
    mse = None
    if "mental_status_exam" in e:
        m = c.obj(e["mental_status_exam"], "ehr.mental_status_exam")
        if m is not None:
            c.keys(m, "ehr.mental_status_exam", (), MSE_KEYS)
            domains = _optional_strings(c, m, "ehr.mental_status_exam", MSE_KEYS)
            if not any(k in m for k in MSE_KEYS):
                c.bad("ehr.mental_status_exam", f"must have at least one of {', '.join(MSE_KEYS)}")
            mse = MentalStatusExam(**domains)  # type: ignore[arg-type]
    risk = None
    if "risk_assessment" in e:
        r = c.obj(e["risk_assessment"], "ehr.risk_assessment")
        if r is not None:
            c.keys(r, "ehr.risk_assessment", (), RISK_KEYS)
            risk = RiskAssessment(**_optional_strings(c, r, "ehr.risk_assessment", RISK_KEYS))  # type: ignore[arg-type]
    if texts.get("chief_complaint") is None or texts.get("history_of_present_illness") is None:
        return None
    return EHR(mental_status_exam=mse, risk_assessment=risk, **texts)  # type: ignore[arg-type]


_EXAM_KEYS = frozenset({"name", "kind", "result", "indicated"})
_EXAM_KIND_SET = frozenset(EXAM_KINDS)


def _exams_fast(value: Any) -> tuple[ExamRecord, ...] | None:
    """Exams built directly when every item is plainly valid; ``None`` sends them to the detailed check."""
    if type(value) is not list:
        return None
    out = []
    names: set[str] = set()
    for x in value:
        if type(x) is not dict or not x.keys() <= _EXAM_KEYS:
            return None
        name, kind, result, indicated = x.get("name"), x.get("kind"), x.get("result"), x.get("indicated", True)
        if type(name) is not str or type(result) is not str or kind not in _EXAM_KIND_SET or type(indicated) is not bool:
            return None
        low = name.strip().lower()
        if not low or low in names or not result.strip():
            return None
        names.add(low)
        exam = _new_fact_object(ExamRecord)
        _set_fact_dict(exam, "__dict__", {"name": name, "kind": kind, "result": result, "indicated": indicated})
        out.append(exam)
    return tuple(out)


def _exams(c: _Checker, value: Any) -> tuple[ExamRecord, ...]:
    fast = _exams_fast(value)
    if fast is not None:
        return fast
    out = []
    seen: dict[str, int] = {}
    for i, item in enumerate(c.listing(value, "exams")):
        path = f"exams[{i}]"
        x = c.obj(item, path)
        if x is None:
            continue
        c.keys(x, path, ("name", "kind", "result"), ("indicated",))
        name = c.string(x.get("name"), f"{path}.name") if "name" in x else None
        kind = c.choice(x.get("kind"), f"{path}.kind", EXAM_KINDS) if "kind" in x else None
        result = c.string(x.get("result"), f"{path}.result") if "result" in x else None
        indicated = x.get("indicated", True)
        if not isinstance(indicated, bool):
            c.bad(f"{path}.indicated", f"must be true or false, got {indicated!r}")
        if name is not None:
            low = name.strip().lower()
            if low in seen:
                c.bad(f"{path}.name", f"{name!r} is listed twice (also exams[{seen[low]}])")
            seen[low] = i
        if name and kind and result and isinstance(indicated, bool):
            out.append(ExamRecord(name, kind, result, indicated))
    return tuple(out)


def _diagnosis(c: _Checker, value: Any) -> Diagnosis | None:
    fast = _diagnosis_fast(value)
    if fast is not None:
        return fast
    d = c.obj(value, "diagnosis")
    if d is None:
        return None
    c.keys(d, "diagnosis", ("categories", "disorders"), ())
    valid = category_ids()
    categories: list[str] = []
    for i, cat in enumerate(c.listing(d.get("categories"), "diagnosis.categories", non_empty=True) if "categories" in d else []):
        if not isinstance(cat, str) or cat not in valid:
            c.bad(f"diagnosis.categories[{i}]", f"{cat!r} is not a category id (see CASES.md: {', '.join(valid)})")
        elif cat in categories:
            c.bad(f"diagnosis.categories[{i}]", f"{cat!r} is listed twice")
        else:
            categories.append(cat)
    disorders: list[ReferenceDisorder] = []
    codes: dict[str, int] = {}
    for i, item in enumerate(c.listing(d.get("disorders"), "diagnosis.disorders", non_empty=True) if "disorders" in d else []):
        path = f"diagnosis.disorders[{i}]"
        x = c.obj(item, path)
        if x is None:
            continue
        c.keys(x, path, ("name", "code"), ())
        name = c.string(x.get("name"), f"{path}.name") if "name" in x else None
        code = x.get("code")
        if "code" in x and (not isinstance(code, str) or not is_icd10cm_code(code)):
            c.bad(f"{path}.code", f"must be an ICD-10-CM code such as 'F32.1', got {code!r}")
            code = None
        elif isinstance(code, str) and not is_listed_code(code):
            c.bad(f"{path}.code", f"{code!r} is not a code of the ICD-10-CM list (knowledge/data/{ICD10CM_LIST.split('/')[-1]})")
            code = None
        if isinstance(code, str) and code:
            if code in codes:
                c.bad(f"{path}.code", f"{code!r} is listed twice (also diagnosis.disorders[{codes[code]}])")
            codes[code] = i
            cat = category_of_code(code)
            if cat is not None and categories and cat not in categories:
                c.bad(f"{path}.code", f"{code} belongs to category {cat!r}, which diagnosis.categories does not list")
            elif cat is None and i == 0:
                c.bad(
                    f"{path}.code",
                    f"{code} is the principal diagnosis but belongs to none of the diagnostic categories "
                    "(CASES.md's table): the first disorder must be a code of a listed category",
                )
        if name and isinstance(code, str) and code:
            disorders.append(ReferenceDisorder(name, code))
    if not categories or not disorders:
        return None
    return Diagnosis(tuple(categories), tuple(disorders))


def _string_list(c: _Checker, value: Any, path: str) -> tuple[str, ...]:
    out = []
    for i, s in enumerate(c.listing(value, path)):
        v = c.string(s, f"{path}[{i}]")
        if v is not None:
            out.append(v)
    return tuple(out)


def _treatment(c: _Checker, value: Any) -> Treatment | None:
    fast = _treatment_fast(value)
    if fast is not None:
        return fast
    t = c.obj(value, "treatment")
    if t is None:
        return None
    c.keys(t, "treatment", ("plan",), ("medications", "psychotherapy", "safety", "follow_up"))
    plan = c.string(t.get("plan"), "treatment.plan") if "plan" in t else None
    meds = None
    if "medications" in t:
        meds_list = []
        for i, item in enumerate(c.listing(t["medications"], "treatment.medications")):
            path = f"treatment.medications[{i}]"
            m = c.obj(item, path)
            if m is None:
                continue
            c.keys(m, path, ("name",), ("dose",))
            name = c.string(m.get("name"), f"{path}.name") if "name" in m else None
            dose = c.string(m["dose"], f"{path}.dose") if "dose" in m else None
            if name:
                meds_list.append(Medication(name, dose))
        meds = tuple(meds_list)
    psycho = _string_list(c, t["psychotherapy"], "treatment.psychotherapy") if "psychotherapy" in t else None
    safety = _string_list(c, t["safety"], "treatment.safety") if "safety" in t else None
    follow = c.string(t["follow_up"], "treatment.follow_up") if "follow_up" in t else None
    if plan is None:
        return None
    return Treatment(plan, meds, psycho, safety, follow)


def _persona(c: _Checker, value: Any) -> Persona | None:
    fast = _persona_fast(value)
    if fast is not None:
        return fast
    p = c.obj(value, "persona")
    if p is None:
        return None
    c.keys(p, "persona", (), ("verbosity", "guardedness", "insight", "speech_style", "informant"))
    kwargs: dict[str, Any] = {}
    if "verbosity" in p:
        kwargs["verbosity"] = c.choice(p["verbosity"], "persona.verbosity", VERBOSITIES)
    if "insight" in p:
        kwargs["insight"] = c.choice(p["insight"], "persona.insight", INSIGHTS)
    if "guardedness" in p:
        g = p["guardedness"]
        if isinstance(g, bool) or not isinstance(g, (int, float)) or not math.isfinite(g) or not 0 <= g <= 1:
            c.bad("persona.guardedness", f"must be a number from 0 to 1, got {g!r}")
            kwargs["guardedness"] = None
        else:
            kwargs["guardedness"] = float(g)
    for key in ("speech_style", "informant"):
        if key in p:
            kwargs[key] = c.string(p[key], f"persona.{key}")
    if any(v is None for v in kwargs.values()):
        return None
    return Persona(**kwargs)


_FACT_KEYS = frozenset({"id", "section", "text", "patient_says", "sensitive"})
_CHECKPOINT_KEYS = frozenset({"id", "text", "group"})
_GROUPS = frozenset(CHECKPOINT_GROUPS)


_MSE_PATHS = tuple((k, f"mental_status_exam.{k}") for k in MSE_KEYS)
_RISK_PATHS = tuple((k, f"risk_assessment.{k}") for k in RISK_KEYS)


def _present_sections(ehr: EHR) -> set[str]:
    """Every fact section this record has (``mental_status_exam`` and its keys, narrative sections ...)."""
    present = {name for name in NARRATIVE_SECTIONS if getattr(ehr, name) is not None}
    mse = ehr.mental_status_exam
    if mse is not None:
        present.add("mental_status_exam")
        present.update(path for key, path in _MSE_PATHS if getattr(mse, key) is not None)
    risk = ehr.risk_assessment
    if risk is not None:
        present.add("risk_assessment")
        present.update(path for key, path in _RISK_PATHS if getattr(risk, key) is not None)
    return present


def _facts_fast(value: Any, ehr: EHR | None) -> tuple[Fact, ...] | None:
    """Facts built without per-field bookkeeping when every item is plainly valid; ``None`` otherwise
    (the detailed check then runs and names each broken field). The hot path of loading a suite."""
    if type(value) is not list or ehr is None:
        return None
    present = _present_sections(ehr)
    keys, make, put, dict_type, str_type, bool_type = _FACT_KEYS, _new_fact_object, _set_fact_dict, dict, str, bool
    out = []
    for item in value:
        if type(item) is not dict_type or not item.keys() <= keys:
            return None
        fid = item.get("id")
        section = item.get("section")
        text = item.get("text")
        says = item.get("patient_says")
        sensitive = item.get("sensitive", False)
        if (
            type(fid) is not str_type or type(text) is not str_type or section not in present
            or type(sensitive) is not bool_type or not fid.strip() or not text.strip()
            or (says is not None and (type(says) is not str_type or not says.strip()))
            or (says is None and "patient_says" in item)
        ):
            return None
        fact = make(Fact)
        put(fact, "__dict__", {"id": fid, "section": section, "text": text, "patient_says": says, "sensitive": sensitive})
        out.append(fact)
    if len({f.id for f in out}) != len(out):
        return None  # a duplicate id: the detailed check names it
    return tuple(out)


_new_fact_object = object.__new__
_set_fact_dict = object.__setattr__


def _checkpoint_list_fast(value: Any) -> tuple[Checkpoint, ...] | None:
    if type(value) is not list:
        return None
    out = []
    ids: set[str] = set()
    for item in value:
        if type(item) is not dict or item.keys() != _CHECKPOINT_KEYS:
            return None
        cid, text, group = item["id"], item["text"], item["group"]
        if type(cid) is not str or type(text) is not str or group not in _GROUPS or cid in ids or not cid.strip() or not text.strip():
            return None
        ids.add(cid)
        out.append(new_checkpoint(cid, text, group))
    return tuple(out)


def _checkpoints_fast(value: Any) -> Checkpoints | None:
    if type(value) is not dict or not value.keys() <= {"interview", "note", "exam"}:
        return None
    interview = _checkpoint_list_fast(value.get("interview", []))
    note = _checkpoint_list_fast(value.get("note", []))
    exam = value.get("exam", [])
    if interview is None or note is None or type(exam) is not list:
        return None
    if not all(type(e) is str and e.strip() for e in exam):
        return None
    return Checkpoints(interview, note, tuple(exam))


def _facts(c: _Checker, value: Any, ehr: EHR | None) -> tuple[Fact, ...]:
    fast = _facts_fast(value, ehr)
    if fast is not None:
        return fast
    out = []
    ids: dict[str, int] = {}
    for i, item in enumerate(c.listing(value, "facts")):
        path = f"facts[{i}]"
        f = c.obj(item, path)
        if f is None:
            continue
        c.keys(f, path, ("id", "section", "text"), ("patient_says", "sensitive", *_COMPILED_FACT_KEYS))
        fid = c.string(f.get("id"), f"{path}.id") if "id" in f else None
        if fid is not None:
            if fid in ids:
                c.bad(f"{path}.id", f"{fid!r} is used twice (also facts[{ids[fid]}])")
            ids[fid] = i
        section = f.get("section")
        if "section" in f:
            if not isinstance(section, str) or section not in FACT_SECTIONS:
                c.bad(f"{path}.section", f"must be an ehr section name or 'mental_status_exam.<key>', got {section!r}")
                section = None
            elif ehr is not None and not _section_present(ehr, section):
                c.bad(f"{path}.section", f"{section!r} is not in this case's ehr")
        text = c.string(f.get("text"), f"{path}.text") if "text" in f else None
        says = c.string(f["patient_says"], f"{path}.patient_says") if "patient_says" in f else None
        sensitive = f.get("sensitive", False)
        if not isinstance(sensitive, bool):
            c.bad(f"{path}.sensitive", f"must be true or false, got {sensitive!r}")
        compiled = _compiled_fact_fields(c, f, path)
        if fid and isinstance(section, str) and text and isinstance(sensitive, bool) and compiled is not None:
            out.append(Fact(fid, section, text, says, sensitive, **compiled))
    return tuple(out)


_COMPILED_FACT_KEYS = ("topics", "polarity", "time", "relative", "told", "gate")
_FACT_CHOICES = {"polarity": ("present", "absent"), "time": ("current", "past"), "gate": ("alone",)}


def _compiled_fact_fields(c: _Checker, f: Mapping, path: str) -> dict[str, Any] | None:
    """The optional fields a compiled record adds to a fact, checked (``None`` when one is wrong)."""
    out: dict[str, Any] = {}
    ok = True
    if "topics" in f:
        topics = f["topics"]
        if not isinstance(topics, list) or not all(isinstance(t, str) and t.strip() for t in topics):
            c.bad(f"{path}.topics", f"must be a list of topic ids (strings), got {topics!r}")
            ok = False
        else:
            out["topics"] = tuple(topics)
    for key, allowed in _FACT_CHOICES.items():
        if key in f:
            if f[key] not in allowed:
                c.bad(f"{path}.{key}", f"must be one of {', '.join(allowed)}, got {f[key]!r}")
                ok = False
            else:
                out[key] = f[key]
    if "relative" in f:
        rel = f["relative"]
        if not isinstance(rel, str) or not rel.strip():
            c.bad(f"{path}.relative", f"must be a non-empty string, got {rel!r}")
            ok = False
        else:
            out["relative"] = rel
    if "told" in f:
        if not isinstance(f["told"], bool):
            c.bad(f"{path}.told", f"must be true or false, got {f['told']!r}")
            ok = False
        else:
            out["told"] = f["told"]
    return out if ok else None


def _section_present(ehr: EHR, section: str) -> bool:
    if section == "mental_status_exam":
        return ehr.mental_status_exam is not None
    if section == "risk_assessment":
        return ehr.risk_assessment is not None
    return ehr.section(section) is not None


def _checkpoints(c: _Checker, value: Any) -> Checkpoints | None:
    fast = _checkpoints_fast(value)
    if fast is not None:
        return fast
    cp = c.obj(value, "checkpoints")
    if cp is None:
        return None
    c.keys(cp, "checkpoints", (), ("interview", "note", "exam"))
    stages: dict[str, tuple[Checkpoint, ...]] = {}
    for stage in ("interview", "note"):
        items = []
        ids: dict[str, int] = {}
        for i, item in enumerate(c.listing(cp[stage], f"checkpoints.{stage}") if stage in cp else []):
            path = f"checkpoints.{stage}[{i}]"
            x = c.obj(item, path)
            if x is None:
                continue
            c.keys(x, path, ("id", "text", "group"), ())
            cid = c.string(x.get("id"), f"{path}.id") if "id" in x else None
            if cid is not None:
                if cid in ids:
                    c.bad(f"{path}.id", f"{cid!r} is used twice (also checkpoints.{stage}[{ids[cid]}])")
                ids[cid] = i
            text = c.string(x.get("text"), f"{path}.text") if "text" in x else None
            group = c.choice(x.get("group"), f"{path}.group", CHECKPOINT_GROUPS) if "group" in x else None
            if cid and text and group:
                items.append(Checkpoint(cid, text, group))
        stages[stage] = tuple(items)
    exam = _string_list(c, cp["exam"], "checkpoints.exam") if "exam" in cp else ()
    return Checkpoints(stages.get("interview", ()), stages.get("note", ()), exam)


# ---------------------------------------------------------------------------------------- entry points


def load_case(source: Mapping[str, Any] | str | os.PathLike[str]) -> Case:
    """Load one case from a mapping, a JSON text or a path to a ``.json`` file.

    Raises :class:`CaseError` (field path and problem) when the case breaks CASES.md, when its JSON is
    invalid (duplicate keys included), or when it is bigger than :data:`MAX_CASE_BYTES`.
    """
    if isinstance(source, Mapping):
        return validate_case(source)
    if isinstance(source, str) and source.lstrip()[:1] in ("{", "["):
        if len(source) > MAX_CASE_BYTES:
            raise CaseError("<string>", f"the case is longer than the limit of {MAX_CASE_BYTES} bytes", field="")
        return _validated(_parse_json(source, "<string>"), "<string>")
    if not isinstance(source, (str, os.PathLike)):
        return validate_case(source)  # not a mapping: raises CaseError naming the top level
    path = Path(source)
    if not path.exists():
        raise CaseError(str(path), "no such case file", field="")
    return _validated(_parse_json(_read(path), str(path)), path.name)


def _validated(raw: Any, where: str) -> Case:
    try:
        return validate_case(raw, where=where)
    except RecursionError:  # nesting within the reader's reach but beyond the builder's
        raise CaseError(_case_label(raw, where), f"is nested too deeply (limit {MAX_CASE_DEPTH} levels)", field="") from None


def _regular_file(path: Path) -> None:
    """Refuse, without opening it, anything but a regular file (a folder, a FIFO, a device, a socket)."""
    try:
        mode = path.stat().st_mode
    except OSError as e:
        raise CaseError(str(path), f"cannot be read ({e.strerror})", field="") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
        raise CaseError(path.name, f"is {kind}, not a case file; refused", field="")


def _read(path: Path) -> str:
    """A case file's text: a regular file of at most :data:`MAX_CASE_BYTES`, in UTF-8."""
    _regular_file(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_CASE_BYTES + 1)
    except OSError as e:
        raise CaseError(str(path), f"cannot be read ({e.strerror})", field="") from None
    if len(data) > MAX_CASE_BYTES:
        raise CaseError(path.name, f"the file is larger than the limit of {MAX_CASE_BYTES} bytes per case; refused", field="")
    return _decoded(data, str(path))


def _decoded(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CaseError(where, f"not UTF-8 text ({e.reason} at byte {e.start})") from None


class _BigNumber(str):
    """Marks, on a second reading, a number too long to convert: its path names the field."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _DuplicateKey(twice)
    return out


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _parse_json(text: str, where: str) -> Any:
    """Strict JSON: invalid JSON, a key given twice in one object, a number too long to convert, or
    nesting beyond the reader's reach is a :class:`CaseError` naming where (and the field when it can)."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as e:
        raise CaseError(where, f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except _DuplicateKey as e:
        field = _path_of_duplicate(text, e.key)
        raise CaseError(where, f"the key {e.key!r} is given twice in one object (JSON keys must be unique)", field=field) from None
    except RecursionError:
        raise CaseError(where, "is nested too deeply to read", field=_deep_path(text)) from None
    except ValueError as e:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        field = _path_of_big_number(text)
        raise CaseError(where, f"holds a number too long to read ({e})", field=field) from None


def _path_of_big_number(text: str) -> str:
    try:
        tree = json.loads(text, parse_int=lambda s: _BigNumber(s) if len(s) > 100 else 0, object_pairs_hook=dict)
    except (ValueError, RecursionError):
        return ""
    return _find_path(tree, lambda v: isinstance(v, _BigNumber)) or ""


def _path_of_duplicate(text: str, key: str) -> str:
    found: list[str] = []

    def mark(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs) and not found:
            out["\0duplicate"] = True
            found.append(key)
        return out

    try:
        tree = json.loads(text, object_pairs_hook=mark)
    except (ValueError, RecursionError):
        return key
    path = _find_path(tree, lambda v: isinstance(v, dict) and "\0duplicate" in v)
    return _join(path or "", key)


def _find_path(tree: Any, hit: Any) -> str | None:
    """The field path (``a.b[2].c``) of the first value for which ``hit`` is true (iterative walk)."""
    stack: list[tuple[str, Any]] = [("", tree)]
    while stack:
        path, value = stack.pop()
        if hit(value):
            return path
        if isinstance(value, dict):
            stack.extend((_join(path, str(k)), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return None


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')


def _deep_path(text: str, limit: int = MAX_CASE_DEPTH) -> str:
    """The path of the first container nested deeper than ``limit`` (one linear scan; shown on error only)."""
    stack: list[list[Any]] = []  # [kind, current key or index]
    pending_key: str | None = None
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok in "{[":
            if len(stack) >= limit:
                break
            stack.append(["{", None] if tok == "{" else ["[", 0])
        elif tok in "}]":
            if stack:
                stack.pop()
        elif tok == ",":
            if stack and stack[-1][0] == "[":
                stack[-1][1] += 1
        elif tok == ":":
            if stack and pending_key is not None:
                stack[-1][1] = pending_key
        else:
            pending_key = tok[1:-1]
    path = ""
    for kind, key in stack[:8]:  # the first levels name the field; the rest is the same story
        path = f"{path}[{key}]" if kind == "[" else _join(path, str(key))
    return path + ("..." if path else "")


def _too_deep(value: Any, path: str) -> str | None:
    """The path of a container deeper than :data:`MAX_CASE_DEPTH` under ``value``, else ``None``."""
    stack: list[tuple[str, Any, int]] = [(path, value, 1)]
    while stack:
        where, v, depth = stack.pop()
        if isinstance(v, (Mapping, list)):
            if depth > MAX_CASE_DEPTH:
                return where
            items = v.items() if isinstance(v, Mapping) else enumerate(v)
            for k, item in items:
                if isinstance(item, (Mapping, list)):
                    stack.append((f"{where}[{k}]" if isinstance(v, list) else _join(where, str(k)), item, depth + 1))
    return None


def load_suite(source: str | os.PathLike[str], *, name: str | None = None) -> Suite:
    """Load a suite: a bundled suite name, a ``.jsonl`` file, a folder of ``*.json`` files or one ``.json`` file.

    All cases are validated before anything is returned; if any is bad, :class:`SuiteError` lists
    every bad case (and duplicate ids), and no suite is returned. A folder entry that is not a regular
    file (a sub-folder named ``x.json``, a FIFO) is a bad case, refused without being opened; a case
    bigger than :data:`MAX_CASE_BYTES` is refused unread. JSON Lines are split on ``\\n`` only, so a
    string holding U+2028 or U+0085 reads as written.
    """
    path = Path(source)
    label = name
    if isinstance(source, str) and source in BUNDLED_SUITES and not path.exists():
        path = bundled_suite_path(source)
        label = label or source
    if not path.exists():
        raise SuiteError(
            str(source),
            [CaseError(str(source), f"no such file or folder, and not a bundled suite ({', '.join(BUNDLED_SUITES)})")],
        )
    label = label or path.stem
    errors: list[CaseError] = []
    cases: list[Case] = []
    seen: dict[str, str] = {}
    with _paused_gc():
        for where, raw in _suite_entries(path, errors):
            try:
                case = _validated(raw, where)
            except CaseError as e:
                errors.append(e)
                continue
            if case.case_id in seen:
                errors.append(CaseError(case.case_id, f"duplicate case_id (first at {seen[case.case_id]}, again at {where})", field="case_id"))
                continue
            seen[case.case_id] = where
            cases.append(case)
    if errors:
        raise SuiteError(str(path), errors)
    if not cases:
        raise SuiteError(str(path), [CaseError(str(path), "the suite holds no cases")])
    return Suite(label, tuple(cases))


def _suite_entries(path: Path, errors: list[CaseError]) -> Iterator[tuple[str, Any]]:
    """``(where, parsed case)`` for each case of a folder, a ``.json`` file or a JSON Lines file, in
    file order; a file or line that is not JSON goes to ``errors`` instead."""
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if not files:
            raise SuiteError(str(path), [CaseError(str(path), "the folder holds no *.json case files")])
        for f in files:
            try:
                yield f.name, _parse_json(_read(f), f.name)
            except CaseError as e:
                errors.append(e)
        return
    if path.suffix == ".json":
        try:
            yield path.name, _parse_json(_read(path), path.name)
        except CaseError as e:
            errors.append(e)
        return
    try:
        _regular_file(path)
        handle = open(path, "rb")
    except CaseError as e:
        raise SuiteError(str(path), [e]) from None
    except OSError as e:
        raise SuiteError(str(path), [CaseError(str(path), f"cannot be read ({e.strerror})")]) from None
    name = path.name
    loads = json.loads
    with handle:
        for lineno, data in enumerate(_lines(handle), 1):
            where = f"{name}:{lineno}"
            if data is None:
                errors.append(CaseError(where, f"the line is longer than the limit of {MAX_CASE_BYTES} bytes per case; refused unread"))
                continue
            if not data or data.isspace():
                continue
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError as e:
                errors.append(CaseError(where, f"not UTF-8 text ({e.reason} at byte {e.start} of the line)"))
                continue
            try:
                raw = loads(line, object_pairs_hook=_no_duplicate_keys)
            except (ValueError, RecursionError):
                try:
                    _parse_json(line, where)
                except CaseError as e:
                    errors.append(e)
                continue
            yield where, raw


def _lines(handle: Any) -> Iterator[bytes | None]:
    """The lines of a binary file split on ``\\n`` only (``None`` for a line over :data:`MAX_CASE_BYTES`,
    whose bytes are skipped in bounded chunks, never held)."""
    while True:
        data = handle.readline(MAX_CASE_BYTES + 1)
        if not data:
            return
        if len(data) > MAX_CASE_BYTES and not data.endswith(b"\n"):
            while data and not data.endswith(b"\n"):
                data = handle.readline(1 << 20)
            yield None
            continue
        yield data


@contextmanager
def _paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a suite loads: case data holds no cycles, and the
    collector's passes over millions of fresh objects would otherwise cost as much as the loading."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def bundled_suite_path(name: str) -> Path:
    """The path of a bundled suite's JSONL file."""
    if name not in BUNDLED_SUITES:
        raise ValueError(f"unknown bundled suite {name!r}; bundled suites are {', '.join(BUNDLED_SUITES)}")
    return Path(str(resources.files("mentalhospital_env.cases").joinpath(f"suites/{name}.jsonl")))
