"""The case loader against the contract of CASES.md.

Property tests draw valid cases, mutate each into an invalid one by exactly one broken rule, and
check that the loader raises a ``CaseError`` whose ``field`` is the path of the broken rule. Suites
with bad cases must fail as a whole and name every bad case.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import (
    BUNDLED_SUITES,
    Case,
    CaseError,
    SuiteError,
    bundled_suite_path,
    load_case,
    load_suite,
)
from mentalhospital_env.cases.model import (
    CHECKPOINT_GROUPS,
    EXAM_KINDS,
    INSIGHTS,
    MSE_KEYS,
    NARRATIVE_SECTIONS,
    RISK_KEYS,
    SETTINGS,
    SEXES,
    VERBOSITIES,
)
from mentalhospital_env.knowledge.codes import category_ids, category_of_code, is_icd10cm_code

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------------------------ valid cases

SENTENCES = (
    "Low mood and poor sleep for three months.",
    "She has felt low most days since a promotion with longer hours.",
    "He hears voices commenting on his actions when alone.",
    "Denies hearing voices.",
    "Drinks about four beers most evenings.",
    "Mother had depression; an uncle died by suicide.",
    "No known drug allergies.",
    "Hypertension, well controlled on amlodipine.",
    "Works as a bus driver; lives with his partner and two children.",
    "Passive death wishes without plan or intent.",
    "Two previous admissions for mania, the last in 2019.",
    "Alert and oriented; poor concentration on serial sevens.",
)
CODES = {  # a small table of real codes, one or two per category
    "F32.1": "Major depressive disorder, single episode, moderate",
    "F41.1": "Generalized anxiety disorder",
    "F20.0": "Paranoid schizophrenia",
    "F10.20": "Alcohol dependence, uncomplicated",
    "F31.2": "Bipolar disorder, current episode manic severe with psychotic features",
    "F43.10": "Post-traumatic stress disorder, unspecified",
    "F50.2": "Bulimia nervosa",
    "F60.3": "Borderline personality disorder",
    "F90.2": "Attention-deficit hyperactivity disorder, combined type",
    "F45.22": "Body dysmorphic disorder",
    "G47.33": "Obstructive sleep apnea (adult) (pediatric)",
    "F03.90": "Unspecified dementia without behavioral disturbance",
}

clinical_text = st.one_of(
    st.sampled_from(SENTENCES),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(lambda s: s.strip()),
)


@st.composite
def valid_cases(draw: st.DrawFn) -> dict[str, Any]:
    """A case that follows every rule of CASES.md, with optional parts drawn in or out."""
    ehr: dict[str, Any] = {"chief_complaint": draw(clinical_text), "history_of_present_illness": draw(clinical_text)}
    for section in NARRATIVE_SECTIONS[2:]:
        if draw(st.booleans()):
            ehr[section] = draw(clinical_text)
    mse_keys = draw(st.lists(st.sampled_from(MSE_KEYS), unique=True, max_size=len(MSE_KEYS)))
    if mse_keys:
        ehr["mental_status_exam"] = {k: draw(clinical_text) for k in mse_keys}
    risk_keys = draw(st.lists(st.sampled_from(RISK_KEYS), unique=True))
    if risk_keys or draw(st.booleans()):
        ehr["risk_assessment"] = {k: draw(clinical_text) for k in risk_keys}
    codes = draw(st.lists(st.sampled_from(sorted(CODES)), min_size=1, max_size=3, unique=True))
    categories = list(dict.fromkeys(category_of_code(c) for c in codes))
    extra_cats = draw(st.lists(st.sampled_from(category_ids()), max_size=2, unique=True))
    categories += [c for c in extra_cats if c not in categories]
    exam_names = draw(st.lists(st.sampled_from(["PHQ-9", "GAD-7", "TSH", "CBC", "ECG", "MRI brain", "MoCA"]), unique=True, max_size=5))
    case: dict[str, Any] = {
        "case_id": draw(st.from_regex(r"[A-Za-z0-9._-]{1,64}", fullmatch=True)),
        "language": "en",
        "demographics": {"age": draw(st.integers(3, 110)), "sex": draw(st.sampled_from(SEXES))},
        "setting": draw(st.sampled_from(SETTINGS)),
        "ehr": ehr,
        "exams": [
            {"name": n, "kind": draw(st.sampled_from(EXAM_KINDS)), "result": draw(clinical_text)}
            | ({"indicated": draw(st.booleans())} if draw(st.booleans()) else {})
            for n in exam_names
        ],
        "diagnosis": {"categories": categories, "disorders": [{"name": CODES[c], "code": c} for c in codes]},
        "treatment": {"plan": draw(clinical_text)},
    }
    for key in ("occupation", "marital_status", "education", "living_situation"):
        if draw(st.booleans()):
            case["demographics"][key] = draw(clinical_text)
    if draw(st.booleans()):
        case["treatment"] |= {
            "medications": [{"name": "sertraline", "dose": "50 mg daily"}, {"name": "lorazepam"}][: draw(st.integers(0, 2))],
            "psychotherapy": draw(st.lists(clinical_text, max_size=2)),
            "safety": draw(st.lists(clinical_text, max_size=2)),
            "follow_up": draw(clinical_text),
        }
    if draw(st.booleans()):
        persona: dict[str, Any] = {}
        if draw(st.booleans()):
            persona["verbosity"] = draw(st.sampled_from(VERBOSITIES))
        if draw(st.booleans()):
            persona["guardedness"] = draw(st.floats(0, 1))
        if draw(st.booleans()):
            persona["insight"] = draw(st.sampled_from(INSIGHTS))
        if draw(st.booleans()):
            persona["speech_style"] = draw(clinical_text)
        if draw(st.booleans()):
            persona["informant"] = draw(clinical_text)
        case["persona"] = persona
    if draw(st.booleans()):
        sections = [s for s in NARRATIVE_SECTIONS if s in ehr]
        sections += [f"mental_status_exam.{k}" for k in mse_keys] + [f"risk_assessment.{k}" for k in risk_keys]
        facts = []
        for n, section in enumerate(draw(st.lists(st.sampled_from(sections), min_size=1, max_size=8)), 1):
            fact: dict[str, Any] = {"id": f"f{n}", "section": section, "text": draw(clinical_text)}
            if draw(st.booleans()):
                fact["patient_says"] = draw(clinical_text)
            if draw(st.booleans()):
                fact["sensitive"] = draw(st.booleans())
            facts.append(fact)
        case["facts"] = facts
    if draw(st.booleans()):
        case["checkpoints"] = {
            stage: [
                {"id": f"{stage[0]}{n}", "text": draw(clinical_text), "group": draw(st.sampled_from(CHECKPOINT_GROUPS))}
                for n in range(draw(st.integers(0, 4)))
            ]
            for stage in ("interview", "note")
            if draw(st.booleans())
        }
        if draw(st.booleans()):
            case["checkpoints"]["exam"] = [e["name"] for e in case["exams"]]
    if draw(st.booleans()):
        case["source"] = {"generator": "test", "seed": draw(st.integers(0, 10**6))}
    if draw(st.booleans()):
        case["extra"] = {"anything": [1, {"nested": None}], "unknown_key": True}
    return case


EXAMPLE = {  # the example of CASES.md
    "case_id": "example-001",
    "language": "en",
    "demographics": {"age": 34, "sex": "female", "occupation": "accountant"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Low mood and poor sleep for three months.",
        "history_of_present_illness": "Three months ago, after a promotion with longer hours, she began to feel low most days.",
        "mental_status_exam": {"mood": "'Empty'", "affect": "Constricted, tearful at times", "thought_content": "Passive death wishes, no plan or intent"},
        "risk_assessment": {"suicide": "Passive ideation, no plan, no prior attempts; protective factors: daughter"},
    },
    "exams": [
        {"name": "PHQ-9", "kind": "scale", "result": "19/27, moderately severe; item 9 scored 1"},
        {"name": "TSH", "kind": "lab", "result": "2.1 mIU/L (normal)"},
    ],
    "diagnosis": {
        "categories": ["depressive"],
        "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}],
    },
    "treatment": {
        "plan": "Start sertraline 50 mg daily; refer for CBT; safety plan; review in two weeks.",
        "medications": [{"name": "sertraline", "dose": "50 mg daily"}],
    },
}

# -------------------------------------------------------------------------------------- mutations
#
# Each mutation takes a valid case (mutable copy) and hypothesis' data, breaks exactly one rule, and
# returns the field path the error must name; ``None`` means the mutation does not apply to this case.

Mutation = Callable[[dict[str, Any], st.DataObject], "str | None"]

NON_STRINGS = st.one_of(st.none(), st.integers(), st.booleans(), st.lists(st.integers(), max_size=2), st.just({}))
NON_LISTS = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.just({}))
NON_OBJECTS = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2))
BLANKS = st.sampled_from(["", " ", "\n\t "])


def _string_slots(case: dict[str, Any]) -> list[tuple[list[Any], Any, str]]:
    """Every required-or-present string field: (container path, key, field path)."""
    slots: list[tuple[Any, Any, str]] = []
    ehr = case["ehr"]
    for k in NARRATIVE_SECTIONS:
        if k in ehr:
            slots.append((ehr, k, f"ehr.{k}"))
    for k, v in ehr.get("mental_status_exam", {}).items():
        slots.append((ehr["mental_status_exam"], k, f"ehr.mental_status_exam.{k}"))
    for k in ehr.get("risk_assessment", {}):
        slots.append((ehr["risk_assessment"], k, f"ehr.risk_assessment.{k}"))
    for k in ("occupation", "marital_status", "education", "living_situation"):
        if k in case["demographics"]:
            slots.append((case["demographics"], k, f"demographics.{k}"))
    for i, e in enumerate(case["exams"]):
        slots += [(e, "name", f"exams[{i}].name"), (e, "result", f"exams[{i}].result")]
    for i, d in enumerate(case["diagnosis"]["disorders"]):
        slots.append((d, "name", f"diagnosis.disorders[{i}].name"))
    t = case["treatment"]
    slots.append((t, "plan", "treatment.plan"))
    for i, m in enumerate(t.get("medications", [])):
        slots.append((m, "name", f"treatment.medications[{i}].name"))
        if "dose" in m:
            slots.append((m, "dose", f"treatment.medications[{i}].dose"))
    for key in ("psychotherapy", "safety"):
        for i, _ in enumerate(t.get(key, [])):
            slots.append((t[key], i, f"treatment.{key}[{i}]"))
    if "follow_up" in t:
        slots.append((t, "follow_up", "treatment.follow_up"))
    for k in ("speech_style", "informant"):
        if k in case.get("persona", {}):
            slots.append((case["persona"], k, f"persona.{k}"))
    for i, f in enumerate(case.get("facts", [])):
        slots += [(f, "id", f"facts[{i}].id"), (f, "text", f"facts[{i}].text")]
        if "patient_says" in f:
            slots.append((f, "patient_says", f"facts[{i}].patient_says"))
    for stage in ("interview", "note"):
        for i, cp in enumerate(case.get("checkpoints", {}).get(stage, [])):
            slots += [(cp, "id", f"checkpoints.{stage}[{i}].id"), (cp, "text", f"checkpoints.{stage}[{i}].text")]
    for i, _ in enumerate(case.get("checkpoints", {}).get("exam", [])):
        slots.append((case["checkpoints"]["exam"], i, f"checkpoints.exam[{i}]"))
    return slots


def _required_slots(case: dict[str, Any]) -> list[tuple[dict[str, Any], str, str]]:
    """Every required key present in the case: (container, key, field path)."""
    slots = [(case, k, k) for k in ("case_id", "language", "demographics", "setting", "ehr", "exams", "diagnosis", "treatment")]
    slots += [(case["demographics"], "age", "demographics.age"), (case["demographics"], "sex", "demographics.sex")]
    slots += [(case["ehr"], "chief_complaint", "ehr.chief_complaint"), (case["ehr"], "history_of_present_illness", "ehr.history_of_present_illness")]
    for i, e in enumerate(case["exams"]):
        slots += [(e, k, f"exams[{i}].{k}") for k in ("name", "kind", "result")]
    slots += [(case["diagnosis"], "categories", "diagnosis.categories"), (case["diagnosis"], "disorders", "diagnosis.disorders")]
    for i, d in enumerate(case["diagnosis"]["disorders"]):
        slots += [(d, k, f"diagnosis.disorders[{i}].{k}") for k in ("name", "code")]
    slots.append((case["treatment"], "plan", "treatment.plan"))
    for i, m in enumerate(case["treatment"].get("medications", [])):
        slots.append((m, "name", f"treatment.medications[{i}].name"))
    for i, f in enumerate(case.get("facts", [])):
        slots += [(f, k, f"facts[{i}].{k}") for k in ("id", "section", "text")]
    for stage in ("interview", "note"):
        for i, cp in enumerate(case.get("checkpoints", {}).get(stage, [])):
            slots += [(cp, k, f"checkpoints.{stage}[{i}].{k}") for k in ("id", "text", "group")]
    return slots


def drop_required_key(case: dict[str, Any], data: st.DataObject) -> str | None:
    container, key, path = data.draw(st.sampled_from(_required_slots(case)), label="required key")
    del container[key]
    if path == "ehr" and "facts" in case:
        return "ehr"  # facts cannot be checked against a missing record; the first problem is still ehr
    return path


def wrong_type_string(case: dict[str, Any], data: st.DataObject) -> str | None:
    container, key, path = data.draw(st.sampled_from(_string_slots(case)), label="string field")
    container[key] = data.draw(NON_STRINGS, label="non-string")
    return path


def blank_string(case: dict[str, Any], data: st.DataObject) -> str | None:
    container, key, path = data.draw(st.sampled_from(_string_slots(case)), label="string field")
    container[key] = data.draw(BLANKS, label="blank")
    return path


def wrong_type_container(case: dict[str, Any], data: st.DataObject) -> str | None:
    choices: list[tuple[dict[str, Any], str, str, st.SearchStrategy[Any]]] = [
        (case, "demographics", "demographics", NON_OBJECTS),
        (case, "ehr", "ehr", NON_OBJECTS),
        (case, "diagnosis", "diagnosis", NON_OBJECTS),
        (case, "treatment", "treatment", NON_OBJECTS),
        (case, "exams", "exams", NON_LISTS),
        (case["diagnosis"], "categories", "diagnosis.categories", NON_LISTS),
        (case["diagnosis"], "disorders", "diagnosis.disorders", NON_LISTS),
    ]
    for key in ("persona", "source", "extra", "checkpoints"):
        if key in case:
            choices.append((case, key, key, NON_OBJECTS))
    if "facts" in case:
        choices.append((case, "facts", "facts", NON_LISTS))
    for key in ("mental_status_exam", "risk_assessment"):
        if key in case["ehr"]:
            choices.append((case["ehr"], key, f"ehr.{key}", NON_OBJECTS))
    for key in ("medications", "psychotherapy", "safety"):
        if key in case["treatment"]:
            choices.append((case["treatment"], key, f"treatment.{key}", NON_LISTS))
    for stage in ("interview", "note", "exam"):
        if stage in case.get("checkpoints", {}):
            choices.append((case["checkpoints"], stage, f"checkpoints.{stage}", NON_LISTS))
    container, key, path, bad = data.draw(st.sampled_from(choices), label="container")
    container[key] = data.draw(bad, label="wrong type")
    if path in ("ehr",) and "facts" in case:
        return "ehr"
    return path


def wrong_item_type(case: dict[str, Any], data: st.DataObject) -> str | None:
    """An item of a list of objects replaced by a non-object."""
    lists = [("exams", case["exams"]), ("diagnosis.disorders", case["diagnosis"]["disorders"])]
    lists += [("facts", case["facts"])] if case.get("facts") else []
    lists += [("treatment.medications", case["treatment"]["medications"])] if case["treatment"].get("medications") else []
    for stage in ("interview", "note"):
        if case.get("checkpoints", {}).get(stage):
            lists.append((f"checkpoints.{stage}", case["checkpoints"][stage]))
    lists = [(p, items) for p, items in lists if items]
    path, items = data.draw(st.sampled_from(lists), label="list")
    i = data.draw(st.integers(0, len(items) - 1), label="index")
    items[i] = data.draw(NON_OBJECTS, label="non-object")
    return f"{path}[{i}]"


def bad_age(case: dict[str, Any], data: st.DataObject) -> str | None:
    case["demographics"]["age"] = data.draw(
        st.one_of(
            st.integers(max_value=2),
            st.integers(min_value=111),
            st.booleans(),
            st.floats(allow_nan=True),
            st.text(max_size=3),
            st.none(),
        ),
        label="age",
    )
    return "demographics.age"


def bad_choice(case: dict[str, Any], data: st.DataObject) -> str | None:
    """A field with a fixed set of values given something outside it."""
    slots: list[tuple[Any, Any, str, tuple[str, ...]]] = [
        (case, "language", "language", ("en",)),
        (case, "setting", "setting", SETTINGS),
        (case["demographics"], "sex", "demographics.sex", SEXES),
    ]
    slots += [(e, "kind", f"exams[{i}].kind", EXAM_KINDS) for i, e in enumerate(case["exams"])]
    persona = case.get("persona")
    if persona is not None:
        slots += [(persona, "verbosity", "persona.verbosity", VERBOSITIES), (persona, "insight", "persona.insight", INSIGHTS)]
    for stage in ("interview", "note"):
        for i, cp in enumerate(case.get("checkpoints", {}).get(stage, [])):
            slots.append((cp, "group", f"checkpoints.{stage}[{i}].group", CHECKPOINT_GROUPS))
    container, key, path, allowed = data.draw(st.sampled_from(slots), label="choice field")
    container[key] = data.draw(
        st.one_of(st.text(max_size=12), st.integers(), st.none(), st.sampled_from([a.upper() for a in allowed] + [" " + allowed[0]]))
        .filter(lambda v: v not in allowed and v != "zh"),
        label="bad value",
    )
    return path


def reserved_language(case: dict[str, Any], data: st.DataObject) -> str | None:
    case["language"] = "zh"
    return "language"


def bad_case_id(case: dict[str, Any], data: st.DataObject) -> str | None:
    case["case_id"] = data.draw(
        st.one_of(
            st.just(""),
            st.text(min_size=65, max_size=80, alphabet="abc"),
            st.text(min_size=1, max_size=10).filter(lambda s: any(not (ch.isascii() and (ch.isalnum() or ch in "._-")) for ch in s)),
            st.integers(),
            st.none(),
        ),
        label="case_id",
    )
    return "case_id"


def unknown_category(case: dict[str, Any], data: st.DataObject) -> str | None:
    cats = case["diagnosis"]["categories"]
    bad = data.draw(st.one_of(st.text(max_size=20), st.integers(), st.none()).filter(lambda v: v not in category_ids()), label="category")
    if data.draw(st.booleans(), label="replace"):
        i = data.draw(st.integers(0, len(cats) - 1), label="index")
        cats[i] = bad
    else:
        cats.append(bad)
        i = len(cats) - 1
    return f"diagnosis.categories[{i}]"


def duplicate_category(case: dict[str, Any], data: st.DataObject) -> str | None:
    cats = case["diagnosis"]["categories"]
    cats.append(data.draw(st.sampled_from(cats), label="category"))
    return f"diagnosis.categories[{len(cats) - 1}]"


def empty_diagnosis_list(case: dict[str, Any], data: st.DataObject) -> str | None:
    key = data.draw(st.sampled_from(["categories", "disorders"]), label="list")
    case["diagnosis"][key] = []
    if key == "categories":
        return "diagnosis.categories"
    return "diagnosis.disorders"


def bad_code(case: dict[str, Any], data: st.DataObject) -> str | None:
    disorders = case["diagnosis"]["disorders"]
    i = data.draw(st.integers(0, len(disorders) - 1), label="index")
    disorders[i]["code"] = data.draw(
        st.one_of(
            st.sampled_from(["F32.", "f32.1", "F3", "U07.1", "32.1", "F32.12345", "F32 1", "", "depression"]),
            st.text(max_size=8),
            st.integers(),
            st.none(),
        ).filter(lambda v: not (isinstance(v, str) and is_icd10cm_code(v))),
        label="code",
    )
    return f"diagnosis.disorders[{i}].code"


def code_outside_categories(case: dict[str, Any], data: st.DataObject) -> str | None:
    """A disorder whose code belongs to a category the diagnosis does not list."""
    listed = set(case["diagnosis"]["categories"])
    free = [c for c in CODES if category_of_code(c) not in listed]
    if not free:
        return None
    code = data.draw(st.sampled_from(free), label="code")
    case["diagnosis"]["disorders"].append({"name": CODES[code], "code": code})
    return f"diagnosis.disorders[{len(case['diagnosis']['disorders']) - 1}].code"


def duplicate_code(case: dict[str, Any], data: st.DataObject) -> str | None:
    disorders = case["diagnosis"]["disorders"]
    disorders.append(dict(data.draw(st.sampled_from(disorders), label="disorder")))
    return f"diagnosis.disorders[{len(disorders) - 1}].code"


def duplicate_exam(case: dict[str, Any], data: st.DataObject) -> str | None:
    exams = case["exams"]
    if not exams:
        return None
    twin = dict(data.draw(st.sampled_from(exams), label="exam"))
    twin["name"] = data.draw(st.sampled_from([twin["name"], twin["name"].upper(), twin["name"].lower()]), label="spelling")
    exams.append(twin)
    return f"exams[{len(exams) - 1}].name"


def duplicate_fact_id(case: dict[str, Any], data: st.DataObject) -> str | None:
    facts = case.get("facts")
    if not facts:
        return None
    twin = dict(data.draw(st.sampled_from(facts), label="fact"))
    facts.append(twin)
    return f"facts[{len(facts) - 1}].id"


def duplicate_checkpoint_id(case: dict[str, Any], data: st.DataObject) -> str | None:
    stages = [s for s in ("interview", "note") if case.get("checkpoints", {}).get(s)]
    if not stages:
        return None
    stage = data.draw(st.sampled_from(stages), label="stage")
    items = case["checkpoints"][stage]
    items.append(dict(data.draw(st.sampled_from(items), label="checkpoint")))
    return f"checkpoints.{stage}[{len(items) - 1}].id"


def bad_fact_section(case: dict[str, Any], data: st.DataObject) -> str | None:
    facts = case.get("facts")
    if not facts:
        return None
    i = data.draw(st.integers(0, len(facts) - 1), label="index")
    facts[i]["section"] = data.draw(
        st.one_of(
            st.sampled_from(["mental_status_exam.mod", "hpi", "risk_assessment.homicide", "exams", "ehr.chief_complaint", "diagnosis"]),
            st.text(max_size=12).filter(lambda s: s not in NARRATIVE_SECTIONS and s not in ("mental_status_exam", "risk_assessment")),
            st.integers(),
            st.none(),
        ),
        label="section",
    )
    return f"facts[{i}].section"


def fact_section_not_in_record(case: dict[str, Any], data: st.DataObject) -> str | None:
    """A fact points at a valid section name that this case's record does not have."""
    facts = case.get("facts")
    if not facts:
        return None
    ehr = case["ehr"]
    absent = [s for s in NARRATIVE_SECTIONS if s not in ehr]
    absent += [f"mental_status_exam.{k}" for k in MSE_KEYS if k not in ehr.get("mental_status_exam", {})]
    absent += [f"risk_assessment.{k}" for k in RISK_KEYS if k not in ehr.get("risk_assessment", {})]
    if not absent:
        return None
    i = data.draw(st.integers(0, len(facts) - 1), label="index")
    facts[i]["section"] = data.draw(st.sampled_from(absent), label="section")
    return f"facts[{i}].section"


def bad_flag(case: dict[str, Any], data: st.DataObject) -> str | None:
    """A boolean field (exam ``indicated``, fact ``sensitive``) given a non-boolean."""
    slots = [(e, "indicated", f"exams[{i}].indicated") for i, e in enumerate(case["exams"])]
    slots += [(f, "sensitive", f"facts[{i}].sensitive") for i, f in enumerate(case.get("facts", []))]
    if not slots:
        return None
    container, key, path = data.draw(st.sampled_from(slots), label="flag")
    container[key] = data.draw(st.one_of(st.integers(), st.text(max_size=4), st.none()), label="non-boolean")
    return path


def bad_guardedness(case: dict[str, Any], data: st.DataObject) -> str | None:
    case.setdefault("persona", {})["guardedness"] = data.draw(
        st.one_of(
            st.floats(min_value=1, exclude_min=True),
            st.floats(max_value=0, exclude_max=True),
            st.just(math.nan),
            st.just(math.inf),
            st.booleans(),
            st.text(max_size=4),
            st.none(),
        ),
        label="guardedness",
    )
    return "persona.guardedness"


def empty_mental_status(case: dict[str, Any], data: st.DataObject) -> str | None:
    if any(f["section"].startswith("mental_status_exam") for f in case.get("facts", [])):
        return None
    case["ehr"]["mental_status_exam"] = {}
    return "ehr.mental_status_exam"


KEY_SLOTS = {  # object path -> how to reach it
    "": lambda c: c,
    "demographics": lambda c: c["demographics"],
    "ehr": lambda c: c["ehr"],
    "ehr.mental_status_exam": lambda c: c["ehr"].get("mental_status_exam"),
    "ehr.risk_assessment": lambda c: c["ehr"].get("risk_assessment"),
    "exams[0]": lambda c: c["exams"][0] if c["exams"] else None,
    "diagnosis": lambda c: c["diagnosis"],
    "diagnosis.disorders[0]": lambda c: c["diagnosis"]["disorders"][0],
    "treatment": lambda c: c["treatment"],
    "persona": lambda c: c.get("persona"),
    "facts[0]": lambda c: c["facts"][0] if c.get("facts") else None,
    "checkpoints": lambda c: c.get("checkpoints"),
}


def unknown_key(case: dict[str, Any], data: st.DataObject) -> str | None:
    """A key the format does not know, anywhere outside ``extra`` and ``source``."""
    place = data.draw(st.sampled_from(sorted(KEY_SLOTS)), label="object")
    target = KEY_SLOTS[place](case)
    if target is None:
        return None
    key = data.draw(
        st.one_of(st.sampled_from(["notes", "diagnoses", "Age", "ehr ", "meds", "hpi", "score"]), st.text(min_size=1, max_size=10)),
        label="key",
    )
    assume(key not in target and key not in ("facts", "checkpoints", "persona", "source", "extra", "indicated", "dose", "patient_says", "sensitive"))
    assume(key not in MSE_KEYS + RISK_KEYS + NARRATIVE_SECTIONS + ("mental_status_exam", "risk_assessment", "occupation", "marital_status", "education", "living_situation", "medications", "psychotherapy", "safety", "follow_up", "verbosity", "guardedness", "insight", "speech_style", "informant", "interview", "note", "exam"))
    target[key] = "x"
    return f"{place}.{key}" if place else key


MUTATIONS: dict[str, Mutation] = {
    f.__name__: f
    for f in (
        drop_required_key,
        wrong_type_string,
        blank_string,
        wrong_type_container,
        wrong_item_type,
        bad_age,
        bad_choice,
        reserved_language,
        bad_case_id,
        unknown_category,
        duplicate_category,
        empty_diagnosis_list,
        bad_code,
        code_outside_categories,
        duplicate_code,
        duplicate_exam,
        duplicate_fact_id,
        duplicate_checkpoint_id,
        bad_fact_section,
        fact_section_not_in_record,
        bad_flag,
        bad_guardedness,
        empty_mental_status,
        unknown_key,
    )
}


# ------------------------------------------------------------------------------------------ tests


@PROPERTY
@given(valid_cases())
def test_valid_cases_load_and_round_trip(raw: dict[str, Any]) -> None:
    case = load_case(raw)
    assert isinstance(case, Case)
    assert case.case_id == raw["case_id"]
    assert load_case(case.to_dict()) == case
    assert load_case(json.dumps(case.to_dict())) == case
    assert pickle.loads(pickle.dumps(case)) == case
    assert case.facts, "facts are always filled, derived when the file has none"
    assert case.facts_derived == ("facts" not in raw)
    if "facts" in raw:
        assert [f.to_dict() for f in case.facts] == [{k: v for k, v in f.items() if not (k == "sensitive" and v is False)} for f in raw["facts"]]
    assert case.checkpoints.exam == tuple(raw.get("checkpoints", {}).get("exam", [e["name"] for e in raw["exams"] if e.get("indicated", True)])) or "checkpoints" in raw


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
# a mutation that needs a part the drawn case may lack (checkpoints for duplicate_checkpoint_id) filters that case out on
# purpose; the filter health check failed the whole suite once by chance at stop 27 (8 kept, 50 filtered)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(valid_cases(), st.data())
def test_every_mutation_names_the_broken_field(mutation: str, raw: dict[str, Any], data: st.DataObject) -> None:
    broken = copy.deepcopy(raw)
    expected = MUTATIONS[mutation](broken, data)
    assume(expected is not None)
    with pytest.raises(CaseError) as caught:
        load_case(broken)
    err = caught.value
    fields = [p.field for p in err.problems]
    assert err.field == expected, f"{mutation}: expected {expected!r} first, got {fields}"
    assert expected in str(err)
    if isinstance(broken.get("case_id"), str) and broken["case_id"]:
        assert err.case_id == broken["case_id"]


@PROPERTY
@given(valid_cases(), st.sampled_from(sorted(MUTATIONS)), st.data())
def test_mutated_case_never_loads_through_json_either(raw: dict[str, Any], mutation: str, data: st.DataObject) -> None:
    broken = copy.deepcopy(raw)
    expected = MUTATIONS[mutation](broken, data)
    assume(expected is not None)
    try:
        text = json.dumps(broken, allow_nan=True)
    except (TypeError, ValueError):
        return
    with pytest.raises(CaseError) as caught:
        load_case(text)
    parsed = json.loads(text)
    if parsed == broken:  # JSON kept the mutation as it was
        assert caught.value.field == expected


def test_example_of_cases_md_loads() -> None:
    case = load_case(EXAMPLE)
    assert case.diagnosis.principal.code == "F32.1"
    assert case.indicated_exams == ("PHQ-9", "TSH")
    assert case.checkpoints.exam == ("PHQ-9", "TSH")
    assert case.facts_derived and case.checkpoints_derived
    groups = {c.group for c in case.checkpoints.note}
    assert {"chief_complaint", "history", "mental_status", "risk"} <= groups
    assert "facts" not in case.to_dict()


def test_every_problem_is_reported_not_only_the_first() -> None:
    broken = copy.deepcopy(EXAMPLE)
    broken["setting"] = "ward"
    broken["demographics"]["age"] = 200
    broken["exams"][1]["kind"] = "blood"
    broken["notes"] = "free text"
    with pytest.raises(CaseError) as caught:
        load_case(broken)
    fields = {p.field for p in caught.value.problems}
    assert fields == {"setting", "demographics.age", "exams[1].kind", "notes"}
    assert "put it under 'extra'" in str(caught.value)


def test_case_error_without_usable_id_names_where_it_stands(tmp_path: Path) -> None:
    broken = copy.deepcopy(EXAMPLE)
    del broken["case_id"]
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(EXAMPLE) + "\n\n" + json.dumps(broken) + "\n")
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert caught.value.bad_case_ids == ("cases.jsonl:3",)
    assert caught.value.errors[0].field == "case_id"


def test_not_a_mapping_and_bad_json_are_case_errors(tmp_path: Path) -> None:
    for bad in ([], "not json", 3):
        with pytest.raises(CaseError):
            load_case(bad)  # type: ignore[arg-type]
    with pytest.raises(CaseError, match="invalid JSON"):
        load_case('{"case_id": ')
    p = tmp_path / "one.json"
    p.write_bytes(b"\xff\xfe{}")
    with pytest.raises(CaseError, match="not UTF-8"):
        load_case(p)
    with pytest.raises(CaseError, match="no such case file"):
        load_case(tmp_path / "missing.json")


def test_loaded_case_is_immutable() -> None:
    case = load_case(EXAMPLE | {"source": {"seed": 1, "tags": ["a"]}, "extra": {"k": {"v": 1}}})
    with pytest.raises(AttributeError):
        case.case_id = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        case.extra["k"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        case.source["tags"][0] = "b"  # type: ignore[index]
    assert case.to_dict()["extra"] == {"k": {"v": 1}}


# ------------------------------------------------------------------------------------------ suites


def _write_jsonl(path: Path, cases: list[Any]) -> Path:
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return path


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    st.lists(valid_cases(), min_size=1, max_size=6),
    st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3),
    st.data(),
)
def test_suite_with_bad_cases_names_every_one_and_returns_nothing(
    tmp_path_factory: pytest.TempPathFactory, good: list[dict[str, Any]], mutations: list[str], data: st.DataObject
) -> None:
    cases = []
    for i, raw in enumerate(good):
        cases.append(raw | {"case_id": f"good-{i}"})
    bad_ids = []
    for j, mutation in enumerate(mutations):
        broken = copy.deepcopy(data.draw(st.sampled_from(good), label="base")) | {"case_id": f"bad-{j}"}
        expected = MUTATIONS[mutation](broken, data)
        if expected is None or expected == "case_id" or broken.get("case_id") != f"bad-{j}":
            continue
        position = data.draw(st.integers(0, len(cases)), label="position")
        cases.insert(position, broken)
        bad_ids.append(f"bad-{j}")
    assume(bad_ids)
    folder = tmp_path_factory.mktemp("suite")
    path = _write_jsonl(folder / "mixed.jsonl", cases)
    result = None
    with pytest.raises(SuiteError) as caught:
        result = load_suite(path)
    assert result is None
    assert sorted(caught.value.bad_case_ids) == sorted(bad_ids)
    for bad in bad_ids:
        assert repr(bad) in str(caught.value)


def test_duplicate_case_ids_fail_the_suite(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "dup.jsonl", [EXAMPLE, EXAMPLE | {"case_id": "other"}, EXAMPLE])
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert caught.value.bad_case_ids == ("example-001",)
    assert caught.value.errors[0].field == "case_id"
    assert "dup.jsonl:1" in str(caught.value) and "dup.jsonl:3" in str(caught.value)


def test_jsonl_suite_with_bad_json_lines_names_each_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(EXAMPLE) + "\n{broken\n\n[1, 2]\n", encoding="utf-8")
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert set(caught.value.bad_case_ids) == {"s.jsonl:2", "s.jsonl:4"}


def test_folder_suite_and_single_file_suite(tmp_path: Path) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    for i in range(3):
        (folder / f"c{i}.json").write_text(json.dumps(EXAMPLE | {"case_id": f"c{i}"}, indent=2), encoding="utf-8")
    (folder / "README.txt").write_text("not a case")
    suite = load_suite(folder)
    assert suite.case_ids == ("c0", "c1", "c2") and suite.name == "cases"
    assert suite["c1"].case_id == "c1" and suite[0].case_id == "c0" and "c2" in suite and len(suite) == 3
    with pytest.raises(KeyError, match="c9"):
        suite["c9"]
    single = load_suite(folder / "c2.json")
    assert single.case_ids == ("c2",)
    (folder / "c3.json").write_text(json.dumps(EXAMPLE | {"case_id": "c3", "setting": "ward"}), encoding="utf-8")
    with pytest.raises(SuiteError) as caught:
        load_suite(folder)
    assert caught.value.bad_case_ids == ("c3",) and caught.value.errors[0].field == "setting"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SuiteError, match="no \\*.json"):
        load_suite(empty)


def test_empty_and_missing_suites(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n\n")
    with pytest.raises(SuiteError, match="no cases"):
        load_suite(tmp_path / "empty.jsonl")
    with pytest.raises(SuiteError, match="not a bundled suite"):
        load_suite(tmp_path / "nowhere.jsonl")
    with pytest.raises(SuiteError, match="not a bundled suite"):
        load_suite("devv")


def test_bundled_suite_names() -> None:
    assert BUNDLED_SUITES == ("dev", "test", "handwritten", "dev-v2", "test-v2")
    for name in BUNDLED_SUITES:
        path = bundled_suite_path(name)
        assert path.name == f"{name}.jsonl" and path.parent.name == "suites"
    with pytest.raises(ValueError, match="unknown bundled suite"):
        bundled_suite_path("train")


def test_suite_error_pickles_with_every_case_error() -> None:
    err = SuiteError("x.jsonl", [CaseError("a", "bad", field="setting"), CaseError("b", "worse", field="ehr")])
    back = pickle.loads(pickle.dumps(err))
    assert back.bad_case_ids == ("a", "b") and back.errors[1].field == "ehr" and str(back) == str(err)
