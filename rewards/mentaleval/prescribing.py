"""Prescribing faults in a doctor's plan (``data/prescribing.json``), read beside the critical actions.

A supervisor fails a plan that gives a day's dose above the adult maximum, hands a month or more of tablets to a
patient at risk of suicide, starts an antidepressant at twice its usual starting dose, or first sees the patient
six weeks or three months after starting an antidepressant. The facts (maximum and starting doses, the review
interval, the words of a large supply) are data: the drugs' own ``usual_range`` and ``starting_dose`` in the
knowledge base's ``drugs.json``, and ``prescribing.json`` for what it does not hold.

:func:`prescribing_faults` returns ``(harms, gaps)``: a harm caps App. at 1 (a dangerous dose, the means of an
overdose), a gap holds a safe plan to ``cues.json`` ``limits.plan_incoherent_cap`` like the other gaps of
:attr:`.features.PlanReading.gaps`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.knowledge.language import memo_size

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "twelve": 12,
}
#: a sentence break that is not a decimal point ("haloperidol 0.5 mg")
_SENTENCE = re.compile(r"(?<!\d)\.(?!\d)|[;\n]|(?<=[!?])\s")


@dataclass(frozen=True)
class DrugDoses:
    name: str
    pattern: re.Pattern[str]
    max_mg: float | None
    older_max_mg: float | None
    older_from_age: int | None
    start_mg: float | None
    drug_class: str


@dataclass(frozen=True)
class Prescribing:
    drugs: tuple[DrugDoses, ...]
    any_drug: re.Pattern[str]
    frequency: tuple[tuple[re.Pattern[str], int], ...]
    not_by_mouth: re.Pattern[str]
    start_classes: frozenset[str]
    start_words: re.Pattern[str]
    titration: re.Pattern[str]
    supply: tuple[re.Pattern[str], ...]
    supply_unless: re.Pattern[str]
    review_max_days: int
    review_words: str
    unit_days: dict[str, int]
    adverbs: dict[str, int]


def _words(phrases: Any) -> re.Pattern[str]:
    alts = sorted((re.escape(str(p)) for p in phrases), key=len, reverse=True)
    return re.compile(r"(?<![\w.])(?:" + "|".join(alts) + r")(?![\w])", re.IGNORECASE)


def _mg(text: str | None, pattern: str) -> float | None:
    m = re.match(pattern, (text or "").strip(), re.IGNORECASE)
    return float(m.group(1)) if m else None


@lru_cache(maxsize=1)
def load_prescribing() -> Prescribing:
    """``data/prescribing.json`` with the knowledge base's drugs (cached)."""
    from mentalhospital_env.knowledge import load_knowledge

    raw = json.loads(resources.files(__package__).joinpath("data/prescribing.json").read_text("utf-8"))
    synonyms = {d.name: tuple(d.synonyms) for d in load_knowledge().drugs}
    maxima = {k: v for k, v in raw["adult_max_mg"].items() if not k.startswith("_")}
    drugs: list[DrugDoses] = []
    for d in load_knowledge().drugs:
        e = maxima.get(d.name, {})
        start = _mg(d.starting_dose, r"(\d+(?:\.\d+)?)\s*mg\b(?!\s*-)")
        drugs.append(DrugDoses(d.name, _words([d.name, *d.synonyms]), e.get("max_mg"), e.get("older_max_mg"),
                               e.get("older_from_age"), start, d.drug_class or ""))
    for name, e in maxima.items():
        if name not in synonyms:
            drugs.append(DrugDoses(name, _words([name]), float(e["max_mg"]), e.get("older_max_mg"),
                                   e.get("older_from_age"), None, ""))
    all_names = [p for d in load_knowledge().drugs for p in (d.name, *d.synonyms)] + [n for n in maxima if n not in synonyms]
    freq = tuple((_words([k]), int(v)) for k, v in raw["frequency_multipliers"].items() if not k.startswith("_"))
    supply = raw["large_supply"]
    late = raw["late_review"]
    return Prescribing(
        drugs=tuple(drugs),
        any_drug=_words(all_names),
        frequency=freq,
        not_by_mouth=_words(raw["not_by_mouth"]),
        start_classes=frozenset(raw["start_dose_classes"]),
        start_words=_words(raw["start_words"]),
        titration=_words(raw["titration_words"]),
        supply=tuple(re.compile(p, re.IGNORECASE) for p in supply["patterns"]),
        supply_unless=_words(supply["unless"]),
        review_max_days=int(late["max_days"]),
        review_words="|".join(sorted((re.escape(w) for w in late["review_words"]), key=len, reverse=True)),
        unit_days={k: int(v) for k, v in late["unit_days"].items()},
        adverbs={k: int(v) for k, v in late["adverbs"].items()},
    )


def _sentences(plan: str) -> list[str]:
    return [s for s in _SENTENCE.split(plan or "") if s.strip()]


def _day_doses(rest: str, P: Prescribing) -> list[float]:
    """The day's doses said in ``rest`` (a figure in mg, times its frequency when one follows it)."""
    out = []
    for m in re.finditer(r"(\d+(?:\.\d+)?)\s*mg\b", rest, re.IGNORECASE):
        after = rest[m.end() : m.end() + 24]
        times = next((n for pat, n in P.frequency if pat.match(after.lstrip())), 1)
        out.append(float(m.group(1)) * times)
    return out


def _said_of(sentence: str, m: re.Match[str], P: Prescribing) -> str:
    """What ``sentence`` says of the drug named at ``m``: up to the next drug named."""
    rest = sentence[m.end() :]
    following = P.any_drug.search(rest)
    rest = rest[: following.start()] if following else rest
    # "haloperidol 5 mg three times daily, plus promethazine 25 mg": what follows a joining word is another drug's
    return re.split(r"\b(?:plus|with|and|as well as|alongside|together with)\b|\+", rest, maxsplit=1)[0]


def over_maximum(plan: str, age: int | None) -> tuple[str, ...]:
    """The drugs ``plan`` gives at a day's dose above the adult maximum (above the older adult's where one is set)."""
    P = load_prescribing()
    out: list[str] = []
    for sentence in _sentences(plan):
        for d in P.drugs:
            limit = d.max_mg
            if d.older_max_mg is not None and age is not None and d.older_from_age and age >= d.older_from_age:
                limit = float(d.older_max_mg)
            if limit is None or d.name in {o.split(" ")[0] for o in out}:
                continue
            for m in d.pattern.finditer(sentence):
                said = _said_of(sentence, m, P)
                if P.not_by_mouth.search(said):  # a depot's dose is no day's dose
                    continue
                doses = _day_doses(said, P)
                if doses and max(doses) > limit:
                    out.append(f"{d.name} {max(doses):g} mg a day, above the maximum of {limit:g} mg")
                    break
    return tuple(out)


def doubled_start(plan: str, medications: str, history: str) -> tuple[str, ...]:
    """Antidepressants ``plan`` starts (a start word in the sentence, the drug not in the record's medications or past
    history) at twice the usual starting dose or more: the first figure said of the drug, before any titration."""
    P = load_prescribing()
    known = f"{medications or ''} {history or ''}"
    out: list[str] = []
    for sentence in _sentences(plan):
        if not P.start_words.search(sentence):
            continue
        for d in P.drugs:
            if d.start_mg is None or d.drug_class not in P.start_classes or d.pattern.search(known):
                continue
            m = d.pattern.search(sentence)
            if not m:
                continue
            said = _said_of(sentence, m, P)
            cut = P.titration.search(said)
            first = re.search(r"(\d+(?:\.\d+)?)\s*mg\b", said[: cut.start()] if cut else said, re.IGNORECASE)
            if first and float(first.group(1)) >= 2 * d.start_mg and d.name not in " ".join(out):
                out.append(f"{d.name} started at {float(first.group(1)):g} mg, twice the usual starting dose "
                           f"({d.start_mg:g} mg) or more")
    return tuple(out)


def large_supply(plan: str) -> str | None:
    """The words of a large supply of tablets that ``plan`` gives (four weeks or more), not limited in its clause."""
    P = load_prescribing()
    for clause in re.split(r"(?<!\d)[.;,:\n]|\band\b|\bbut\b", plan or ""):
        for pat in P.supply:
            m = pat.search(clause)
            if m and not P.supply_unless.search(clause):
                return m.group(0)
    return None


def first_review_days(plan: str) -> int | None:
    """The earliest review interval ``plan`` states, in days ("review in 6 weeks", "monthly follow-up", "a
    three-month review"); None when it states none."""
    P = load_prescribing()
    num = r"(\d+|" + "|".join(_NUMBERS) + r")"
    units = "|".join(P.unit_days)
    found: list[int] = []

    def days(n: str, unit: str) -> int:
        value = int(n) if n.isdigit() else _NUMBERS[n.lower()]
        return value * P.unit_days[unit.lower().rstrip("s")]

    text = plan or ""
    for m in re.finditer(rf"\b(?:{P.review_words})\w*\b[^.;]{{0,40}}?\b(?:in|at|after|within|every|for)\s+{num}(?:\s*(?:-|to|or)\s*\d+)?\s*({units})s?\b", text, re.IGNORECASE):
        found.append(days(m.group(1), m.group(2)))
    for m in re.finditer(rf"\b{num}[- ]({units})s?(?:'s?)?[- ](?:{P.review_words})\b", text, re.IGNORECASE):
        found.append(days(m.group(1), m.group(2)))
    adverbs = "|".join(P.adverbs)
    for m in re.finditer(rf"\b(?:(?:{P.review_words})\w*\s+(?:\w+\s+)?({adverbs})|({adverbs})\s+(?:\w+\s+)?(?:{P.review_words}))\b", text, re.IGNORECASE):
        found.append(P.adverbs[(m.group(1) or m.group(2)).lower()])
    return min(found) if found else None


@lru_cache(maxsize=memo_size(2048))
def prescribing_faults(plan: str, age: int | None, suicide_risk: bool, medications: str, history: str,
                       antidepressant_started: bool, prompt_contact: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(harms, gaps)`` of ``plan`` (module docstring)."""
    harms = list(over_maximum(plan, age))
    if suicide_risk:
        supply = large_supply(plan)
        if supply:
            harms.append(f"{supply!r} for a patient at risk of suicide: the means of an overdose")
    gaps = list(doubled_start(plan, medications, history))
    if antidepressant_started and not prompt_contact:
        first = first_review_days(plan)
        if first is not None and first > load_prescribing().review_max_days:
            gaps.append(f"first review {first} days after starting an antidepressant (within 2 weeks, NICE)")
    return tuple(harms), tuple(gaps)
