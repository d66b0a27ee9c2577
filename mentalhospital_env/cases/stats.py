"""Case mix of a suite: counts by category, principal disorder, setting, sex and age band.

``suite_stats(suite)`` returns JSON-ready numbers; ``format_stats(stats, fmt)`` prints them as plain
text, Markdown tables or JSON. ``mentalhospital cases stats SUITE`` calls both.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Iterable

from mentalhospital_env.knowledge.codes import category_ids, category_of_code

from .model import SETTINGS, SEXES, Case

# (label, lowest age, highest age), inclusive; together they cover the contract's ages 3..110.
AGE_BANDS: tuple[tuple[str, int, int], ...] = (
    ("3-12", 3, 12),
    ("13-17", 13, 17),
    ("18-25", 18, 25),
    ("26-44", 26, 44),
    ("45-64", 45, 64),
    ("65+", 65, 110),
)
FORMATS = ("text", "markdown", "json")


def age_band(age: int) -> str:
    """The label of the age band an age falls in (``"26-44"``)."""
    for label, low, high in AGE_BANDS:
        if low <= age <= high:
            return label
    raise ValueError(f"age {age} is outside 3..110")


def _ordered(counter: Counter[str], order: Iterable[str] | None = None) -> dict[str, int]:
    """Counts in a fixed order when one is given (zeros kept), else most common first, then by name."""
    if order is not None:
        return {k: counter.get(k, 0) for k in order}
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def suite_stats(suite: Iterable[Case]) -> dict[str, Any]:
    """The case mix of a suite (or any iterable of cases).

    Keys: ``name``, ``cases``; ``principal_category`` (category of the principal disorder) and
    ``category`` (every category a case lists, so a case with comorbidity counts in several);
    ``principal_disorder`` (``"F32.1 Major depressive ..."``) and ``disorder`` (any position);
    ``setting``, ``sex``, ``age_band``; ``comorbidity_rate`` (share of cases with more than one
    disorder), ``disorders_per_case``, ``age`` (min, median, max), ``categories_covered``,
    ``disorders_covered``, ``facts_per_case`` and ``exams_per_case``.
    """
    cases = list(suite)
    name = getattr(suite, "name", None)
    principal_category: Counter[str] = Counter()
    category: Counter[str] = Counter()
    principal: Counter[str] = Counter()
    disorder: Counter[str] = Counter()
    setting: Counter[str] = Counter()
    sex: Counter[str] = Counter()
    band: Counter[str] = Counter()
    names: dict[str, str] = {}
    ages: list[int] = []
    comorbid = n_disorders = n_facts = n_exams = 0

    for case in cases:
        first = case.diagnosis.principal
        names.setdefault(first.code, first.name)
        principal[first.code] += 1
        principal_category[category_of_code(first.code) or case.diagnosis.categories[0]] += 1
        category.update(case.diagnosis.categories)
        for d in case.diagnosis.disorders:
            names.setdefault(d.code, d.name)
            disorder[d.code] += 1
        setting[case.setting] += 1
        sex[case.demographics.sex] += 1
        band[age_band(case.demographics.age)] += 1
        ages.append(case.demographics.age)
        n_disorders += len(case.diagnosis.disorders)
        comorbid += len(case.diagnosis.disorders) > 1
        n_facts += len(case.facts)
        n_exams += len(case.exams)
    n = len(cases)
    ages.sort()

    def labelled(counter: Counter[str]) -> dict[str, int]:
        return {f"{code} {names[code]}": count for code, count in _ordered(counter).items()}

    return {
        "name": name,
        "cases": n,
        "principal_category": _ordered(principal_category, category_ids()),
        "category": _ordered(category, category_ids()),
        "principal_disorder": labelled(principal),
        "disorder": labelled(disorder),
        "setting": _ordered(setting, SETTINGS),
        "sex": _ordered(sex, SEXES),
        "age_band": _ordered(band, [b[0] for b in AGE_BANDS]),
        "age": {"min": ages[0], "median": ages[n // 2], "max": ages[-1]} if ages else {},
        "comorbidity_rate": round(comorbid / n, 4) if n else 0.0,
        "disorders_per_case": round(n_disorders / n, 3) if n else 0.0,
        "facts_per_case": round(n_facts / n, 2) if n else 0.0,
        "exams_per_case": round(n_exams / n, 2) if n else 0.0,
        "categories_covered": sum(1 for v in principal_category.values() if v),
        "disorders_covered": len(disorder),
    }


_TABLES = (
    ("principal_category", "Principal category"),
    ("category", "Any category"),
    ("setting", "Setting"),
    ("sex", "Sex"),
    ("age_band", "Age band"),
    ("principal_disorder", "Principal disorder"),
)
_SUMMARY = (
    ("cases", "cases"),
    ("comorbidity_rate", "comorbidity rate"),
    ("disorders_per_case", "disorders per case"),
    ("categories_covered", "categories covered (principal)"),
    ("disorders_covered", "disorders covered (any position)"),
    ("facts_per_case", "facts per case"),
    ("exams_per_case", "exams per case"),
)


def _share(count: int, total: int) -> str:
    return f"{100.0 * count / total:.1f}%" if total else "-"


def format_stats(stats: dict[str, Any], fmt: str = "text") -> str:
    """``stats`` of :func:`suite_stats` as ``"text"`` (aligned columns), ``"markdown"`` or ``"json"``."""
    if fmt == "json":
        return json.dumps(stats, indent=2, ensure_ascii=False)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    total = stats["cases"]
    title = f"Suite {stats['name']}" if stats.get("name") else "Suite"
    age = stats.get("age") or {}
    lines: list[str] = []
    if fmt == "markdown":
        lines += [f"## {title}", "", "| measure | value |", "| --- | --- |"]
        lines += [f"| {label} | {stats[key]} |" for key, label in _SUMMARY]
        if age:
            lines.append(f"| age (min / median / max) | {age['min']} / {age['median']} / {age['max']} |")
        for key, heading in _TABLES:
            lines += ["", f"### {heading}", "", f"| {heading.lower()} | cases | share |", "| --- | ---: | ---: |"]
            lines += [f"| {k} | {v} | {_share(v, total)} |" for k, v in stats[key].items()]
        return "\n".join(lines)
    lines.append(title)
    width = max(len(label) for _, label in _SUMMARY)
    lines += [f"  {label:<{width}}  {stats[key]}" for key, label in _SUMMARY]
    if age:
        lines.append(f"  {'age (min/median/max)':<{width}}  {age['min']}/{age['median']}/{age['max']}")
    for key, heading in _TABLES:
        rows = stats[key]
        lines += ["", f"{heading}:"]
        w = max((len(k) for k in rows), default=0)
        lines += [f"  {k:<{w}}  {v:>5}  {_share(v, total):>6}" for k, v in rows.items()]
    return "\n".join(lines)
