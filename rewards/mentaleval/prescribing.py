"""Prescribing faults in a doctor's plan (``data/prescribing.json``), read beside the critical actions.

A supervisor fails a plan that gives a day's dose above the adult maximum, hands a month or more of tablets to a
patient at risk of suicide, starts an antidepressant at twice its usual starting dose, or first sees the patient
six weeks or three months after starting an antidepressant. The facts (maximum and starting doses, the review
interval, the words of a large supply) are data: the knowledge base's ``drugs.json`` is the one drug table (each drug's
usual ``starting_dose``, the adult and older-adult maxima ``max_mg_day`` and ``older_max_mg_day``, the top of the initial
range ``starting_max_mg``; stop 40 moved the maxima there from ``prescribing.json``), and ``prescribing.json`` holds
the words read around a dose, the review interval and the words of a large supply.

:func:`prescribing_faults` returns ``(harms, gaps)``: a harm caps App. at 1 (a dangerous dose, the means of an
overdose), a gap holds a safe plan to ``cues.json`` ``limits.plan_incoherent_cap`` like the other gaps of
:attr:`.features.PlanReading.gaps`.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.knowledge.language import is_negated, memo_size

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
    start_max_mg: float | None = None


@dataclass(frozen=True)
class Prescribing:
    drugs: tuple[DrugDoses, ...]
    any_drug: re.Pattern[str]
    frequency: tuple[tuple[re.Pattern[str], int], ...]
    not_by_mouth: re.Pattern[str]
    long_interval: re.Pattern[str]
    not_given: re.Pattern[str]
    target: re.Pattern[str]
    as_needed: re.Pattern[str]
    start_classes: frozenset[str]
    slow_start: frozenset[str]
    start_words: re.Pattern[str]
    titration: re.Pattern[str]
    supply: tuple[re.Pattern[str], ...]
    supply_unless: re.Pattern[str]
    review_max_days: int
    review_words: str
    review_openers: re.Pattern[str]
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
    drugs: list[DrugDoses] = []
    for d in load_knowledge().drugs:  # the one drug table: names, synonyms, class, starting dose and maxima
        start = _mg(d.starting_dose, r"(\d+(?:\.\d+)?)\s*mg\b(?!\s*-)")
        drugs.append(DrugDoses(d.name, _words([d.name, *d.synonyms]), d.max_mg_day, d.older_max_mg_day,
                               d.older_from_age, start, d.drug_class or "", d.starting_max_mg))
    all_names = [p for d in load_knowledge().drugs for p in (d.name, *d.synonyms)]
    freq = tuple((_words([k]), int(v)) for k, v in raw["frequency_multipliers"].items() if not k.startswith("_"))
    supply = raw["large_supply"]
    late = raw["late_review"]
    return Prescribing(
        drugs=tuple(drugs),
        any_drug=_words(all_names),
        frequency=freq,
        not_by_mouth=_words(raw["not_by_mouth"]),
        # read only right after the dose figure ("100 mg every 4 weeks"): "review monthly" says nothing of the dose
        long_interval=re.compile(r"(?:[a-z]+\s+)??" + _words(raw["long_interval_after_dose"]).pattern, re.IGNORECASE),
        not_given=_words(raw["not_given_words"]),
        target=_words(raw["target_words"]),
        as_needed=re.compile(r"(?:[a-z]+\s+)??" + _words(raw["as_needed_after_dose"]).pattern, re.IGNORECASE),
        start_classes=frozenset(raw["start_dose_classes"]),
        slow_start=frozenset(raw["slow_start"]["drugs"]),
        start_words=_words(raw["start_words"]),
        titration=_words(raw["titration_words"]),
        supply=tuple(re.compile(p, re.IGNORECASE) for p in supply["patterns"]),
        supply_unless=_words(supply["unless"]),
        review_max_days=int(late["max_days"]),
        review_words="|".join(sorted((re.escape(w) for w in late["review_words"]), key=len, reverse=True)),
        review_openers=_words(late["review_openers"]),
        adverbs={k: int(v) for k, v in late["adverbs"].items()},
    )


def _sentences(plan: str) -> list[str]:
    return [s for s in _SENTENCE.split(plan or "") if s.strip()]


_FIGURE = re.compile(r"(\d+(?:\.\d+)?)\s*mg\b", re.IGNORECASE)
#: what one drug's reading stops at: a comma, a colon, a bracket, a joining word ("and" only when no figure follows
#: it: "100 mg mane and 150 mg nocte" is one drug's divided dose)
_PART = re.compile(r"[,:()]|\band\b(?!\s*\d)|\b(?:plus|with|as well as|alongside|together with)\b|\+", re.IGNORECASE)
#: the words between two figures of a divided dose ("mane and", "in the morning and")
_DIVIDED = re.compile(r"^\s*(?:[a-z.]+\s+){0,3}?(?:and|\+)\s*$", re.IGNORECASE)


def _last(pattern: re.Pattern[str], text: str) -> int:
    """Where the last match of ``pattern`` in ``text`` ends (-1 when none)."""
    return max((m.end() for m in pattern.finditer(text)), default=-1)


def _part_doses(part: str, given: bool, P: Prescribing, first_only: bool = False) -> list[float]:
    """The day's doses one part of a drug's reading gives: its first figure (times its frequency, summed with the
    figures of a divided dose), and a titration target after it; a figure after a word that does not give it
    ("stop", "reduce from", "previously") is skipped unless a target word follows that word ("from 60 mg to 40 mg"),
    a figure given weekly or monthly (a depot) too. Reading stops at a figure after any other word (another drug's)."""
    out: list[float] = []
    pos = 0
    current: float | None = None
    for f in _FIGURE.finditer(part):
        between = part[pos : f.start()]
        pos = f.end()
        # a target word counts right before the figure ("increasing to 100 mg"), not a "to" further back
        tail_at = len(between) - len(" ".join(between.split()[-3:])) - (len(between) - len(between.rstrip()))
        stopped = _last(P.not_given, between)
        target = max(_last(P.titration, between[tail_at:]), _last(P.target, between[tail_at:]))
        target = target + tail_at if target >= 0 else -1
        if stopped >= 0 or target >= 0:
            given = target > stopped
        after = part[f.end() : f.end() + 30].lstrip()
        if not given or P.long_interval.match(after):  # "100 mg monthly": a depot's dose is no day's dose
            continue
        if current is not None and P.as_needed.match(after):  # "10 mg bd and 10 mg prn": the regular dose is read
            continue
        times = next((n for pat, n in P.frequency if pat.match(after)), 1)
        dose = float(f.group(1)) * times
        if current is None:  # the first figure given
            current = dose
            if first_only:
                break
        elif _DIVIDED.match(between):
            current += dose
        elif target >= 0:
            out.append(current)
            current = dose
        else:
            break  # another word before this figure: not this drug's
    if current is not None:
        out.append(current)
    return out


def _doses_said(sentence: str, m: re.Match[str], P: Prescribing, first_only: bool = False) -> list[float]:
    """The day's doses ``sentence`` gives of the drug named at ``m``: up to the next drug named, its first part, and
    the parts after it that open with a titration word ("increasing to 100 mg"); none when it is not by mouth."""
    clause = sentence[: m.start()]
    clause = clause[max(clause.rfind(","), clause.rfind(";"), clause.rfind(":")) + 1 :]
    rest = sentence[m.end() :]
    following = P.any_drug.search(rest)
    rest = rest[: following.start()] if following else rest
    if P.not_by_mouth.search(rest) or P.not_by_mouth.search(clause):  # a depot's dose is no day's dose
        return []
    parts = _PART.split(rest)
    given = not P.not_given.search(clause)
    out = _part_doses(parts[0], given, P, first_only)
    if first_only:
        return out
    for part in parts[1:]:
        opener = P.titration.match(part.lstrip()) or P.target.match(part.lstrip())
        if opener and _FIGURE.search(part):
            out += _part_doses(part, True, P)
    return out


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
                doses = _doses_said(sentence, m, P)
                if doses and max(doses) > limit:
                    out.append(f"{d.name} {max(doses):g} mg a day, above the maximum of {limit:g} mg")
                    break
    return tuple(out)


def doubled_start(plan: str, medications: str, history: str, slow: bool = False) -> tuple[str, ...]:
    """Antidepressants ``plan`` starts (a start word in the sentence, the drug not in the record's medications or past
    history) at twice the usual starting dose or more: the first figure said of the drug, before any titration. With
    ``slow``, the drugs that must be started slowly whatever the illness (``prescribing.json`` ``slow_start``:
    lamotrigine, clozapine) instead, not in the record's current medications (one stopped for a while is titrated
    again), and only a figure said before any titration or target word ('lamotrigine titrated to 200 mg' names the
    target, not the start)."""
    P = load_prescribing()
    known = f"{medications or ''} {'' if slow else history or ''}"
    out: list[str] = []
    for sentence in _sentences(plan):
        if not P.start_words.search(sentence):
            continue
        for d in P.drugs:
            kind = d.name in P.slow_start if slow else d.drug_class in P.start_classes
            if d.start_mg is None or not kind or d.pattern.search(known):
                continue
            m = d.pattern.search(sentence)
            if not m:
                continue
            figure = _FIGURE.search(sentence, m.end())
            if slow and figure and (P.titration.search(sentence, m.end(), figure.start())
                                    or P.target.search(sentence, m.end(), figure.start())):
                continue
            first = _doses_said(sentence, m, P, first_only=True)
            top = d.start_max_mg if d.start_max_mg is not None else d.start_mg
            if first and first[0] >= 2 * d.start_mg and first[0] > top and d.name not in " ".join(out):
                out.append(f"{d.name} started at {first[0]:g} mg, twice the usual starting dose "
                           f"({d.start_mg:g} mg) or more" + (": it must be started slowly" if slow else ""))
    return tuple(out)


def large_supply(plan: str) -> str | None:
    """The words of a large supply of tablets that ``plan`` gives (four weeks or more), not limited in its clause."""
    P = load_prescribing()
    for clause in re.split(r"(?<!\d)[.;,:\n]|\band\b|\bbut\b", plan or ""):
        for pat in P.supply:
            m = pat.search(clause)
            # "Do not give a month's supply", "no bulk supply": the plan forbids it (the shared reader's negation)
            if m and not P.supply_unless.search(clause) and not is_negated(clause[: m.end()]):
                return m.group(0)
    return None


def first_review_days(plan: str) -> int | None:
    """The earliest review interval ``plan`` states, in days ("review in 6 weeks", "monthly follow-up", "a
    three-month review"), read by the knowledge base's one duration reader (``durations.json``) right after a review
    word's opener ("in", "after", "within": not "continue for 6 months") or right before a review word; None when
    it states none."""
    from mentalhospital_env.knowledge.durations import load_durations

    P = load_prescribing()
    D = load_durations()
    text = plan or ""
    found: list[int] = []

    def said(words: str) -> list[int]:
        # "2-3 weeks", "4 to 6 weeks": the earliest; "three-month": three months
        plain = re.sub(r"(\d+)\s*(?:-|to|or)\s*\d+", r"\1", words.lower()).replace("-", " ")
        return [int(round(d)) for d in D.said_days(plain, gated=False)]

    def starts_with_number(words: str) -> bool:
        low = words.lower().lstrip()
        return bool(re.match(r"\d", low)) or any(re.match(rf"{re.escape(n)}\b", low) for n in D.numbers)

    for m in re.finditer(rf"\b(?:{P.review_words})\w*\b", text, re.IGNORECASE):
        window = re.split(r"[.;\n]", text[m.end() : m.end() + 40])[0]
        # right after the review word ("review 1 week") or after an opener ("in", "every"), the duration's number
        # first: "see in clinic, started 2 weeks ago" and "continue for 6 months" say no review interval
        for at in [0] + [o.end() for o in P.review_openers.finditer(window)]:
            chunk = " ".join(window[at:].split()[:4])
            days = said(chunk) if starts_with_number(chunk) else []
            if days:
                found.append(days[0])
                break
        before = re.split(r"[.;,\n]", text[max(0, m.start() - 30) : m.start()])[-1]
        if re.search(r"(?:day|week|fortnight|month)s?'?s?'?[- ]$", before, re.IGNORECASE):
            days = said(before)
            if days:
                found.append(days[-1])
    adverbs = "|".join(P.adverbs)
    for m in re.finditer(rf"\b(?:(?:{P.review_words})\w*\s+(?:\w+\s+)?({adverbs})|({adverbs})\s+(?:\w+\s+)?(?:{P.review_words}))\b", text, re.IGNORECASE):
        found.append(P.adverbs[(m.group(1) or m.group(2)).lower()])
    return min(found) if found else None


@lru_cache(maxsize=memo_size(2048))
def prescribing_faults(plan: str, age: int | None, suicide_risk: bool, medications: str, history: str,
                       antidepressant_started: bool, prompt_contact: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(harms, gaps)`` of ``plan`` (module docstring)."""
    harms = list(over_maximum(plan, age))
    harms += doubled_start(plan, medications, history, slow=True)
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
