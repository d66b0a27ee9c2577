"""How long a disorder must (or may) have lasted before it can be diagnosed, and how long an illness has lasted by
what was said or written: one table and one parser for the whole project.

``data/durations.json`` holds each disorder's duration limits (days, by ICD-10-CM code prefix, the longest prefix
winning; ``min``, ``max``, ``min_child`` under 18, ``min_adult``; ICD-10 where it states one, else DSM-5, as its
``_about`` explains), the words with which a note keeps a diagnosis provisional, and the vocabulary of durations
("for four days now", "over the last two weeks", "three months ago", "two and a half years"). The record audit and
the case generator read a record's history against it (:meth:`Durations.rule`, :meth:`Durations.said_days` with
``gated=False``: a record's "three months" is a duration wherever it stands); the note judge and the scripted
clinician read what a patient said (``gated=True``: a number with a unit counts only after a marker word or before
"ago", so that "44 kg" or "28-day cycles" say nothing).
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import KnowledgeError

FILE = "durations.json"
_HYPHENED = re.compile(r"[a-z0-9.]+(?:-[a-z0-9.]+)+|[a-z]+|\d+(?:\.\d+)?")
_LIMITS = ("min", "max", "min_child", "min_adult")


@dataclass(frozen=True)
class DurationRule:
    """One disorder's limits in days (``None`` where it has none) and what they say."""

    prefix: str
    min: float | None
    max: float | None
    min_child: float | None
    min_adult: float | None
    what: str
    source: str

    def minimum(self, age: int | None = None) -> float | None:
        """The minimum at ``age`` (``min_child`` under 18, ``min_adult`` from 18, else ``min``)."""
        if age is not None and age < 18 and self.min_child is not None:
            return self.min_child
        if age is not None and age >= 18 and self.min_adult is not None:
            return self.min_adult
        return self.min


@dataclass(frozen=True)
class Durations:
    """The bundled duration facts (see the module docstring)."""

    rules: Mapping[str, DurationRule]
    hedges: tuple[str, ...]
    units: Mapping[str, float]
    markers: frozenset[str]
    numbers: Mapping[str, int]
    long_phrases: tuple[str, ...] = ()
    long_days: int = 3650

    def rule(self, code: str | None) -> DurationRule | None:
        """The limits of the disorder ``code`` (the longest listed prefix it starts with), or ``None``."""
        if not code:
            return None
        upper = code.upper()
        hits = [p for p in self.rules if upper.startswith(p)]
        return self.rules[max(hits, key=len)] if hits else None

    def minimum_days(self, code: str | None, age: int | None = None) -> float | None:
        """The minimum duration of the disorder ``code`` in days at ``age`` (``None`` when it has none)."""
        rule = self.rule(code)
        return rule.minimum(age) if rule else None

    def maximum_days(self, code: str | None) -> float | None:
        """The longest the disorder ``code`` may last in days (``None`` when it has no limit)."""
        rule = self.rule(code)
        return rule.max if rule else None

    def fits(self, code: str | None, days: float, age: int | None = None) -> bool:
        """Whether an illness of ``days`` days meets the disorder's minimum and stays within its maximum."""
        low, high = self.minimum_days(code, age), self.maximum_days(code)
        return (low is None or days >= low) and (high is None or days <= high)

    def hedged(self, text: str) -> bool:
        """Whether ``text`` keeps its diagnosis provisional ("working diagnosis", "if symptoms persist")."""
        low = text.lower()
        return any(re.search(rf"\b{re.escape(h)}\b", low) for h in self.hedges)

    def said_days(self, text: str, gated: bool = True, bare_plurals: bool = False) -> tuple[float, ...]:
        """Each duration ``text`` says, in days, in reading order: "for four days now" (4), "over the last two
        weeks" (14), "three months ago" (91.2), "two and a half years" (912.5); "since the summer" is not read.
        ``gated``: a number with a unit counts only after a marker word (within three words; right before "a" or
        "an": "about four units a week" is a rate) or before "ago", so that "44 kg" or "28-day cycles" say nothing, and a phrase of years without a number ("all my life") is read
        as ``long_days``. ``bare_plurals``: a plural unit without a number after a marker ("for weeks", "over the
        following months") is two of them."""
        low = text.lower()
        # read aloud, "four-day" is four days; in a record "28-day cycles" names a cycle, not a duration
        tokens = re.findall(r"[a-z]+|\d+(?:\.\d+)?", low.replace("-", " ")) if gated else _HYPHENED.findall(low)
        out: list[float] = []
        if gated:
            joined = " ".join(tokens)
            out += [float(self.long_days) for p in self.long_phrases if re.search(rf"\b{re.escape(p)}\b", joined)][:1]
        for i, token in enumerate(tokens):
            if token not in self.units:
                continue
            count, start = self._count_before(tokens, i)
            opened = any(t in self.markers for t in tokens[max(0, start - 3) : start])
            if count is None:
                if bare_plurals and token.endswith("s") and opened:
                    out.append(round(2 * self.units[token], 3))
                continue
            after_ago = i + 1 < len(tokens) and tokens[i + 1] == "ago"
            if gated and tokens[start] in ("a", "an") and not (start > 0 and tokens[start - 1] in self.markers):
                opened = False  # "about four units a week", "twice a day": a rate, not how long
            if not gated or after_ago or opened:
                out.append(round(count * self.units[token], 3))
        return tuple(out)

    def _count_before(self, tokens: list[str], at: int) -> tuple[float | None, int]:
        """The number before the unit at ``at`` (skipping "more" or "long": "two more weeks") and where it starts."""
        if at >= 1 and tokens[at - 1] in ("more", "long"):
            count, start = self._count_before(tokens, at - 1)
            if count is not None:
                return count, start
        if at >= 3 and tokens[at - 3 : at] == ["and", "a", "half"]:  # "two and a half years"
            count, start = self._count_before(tokens, at - 3)
            return (count + 0.5, start) if count is not None else (None, at)
        for width in (3, 2, 1):
            start = at - width
            if start < 0:
                continue
            phrase = " ".join(tokens[start:at])
            if phrase in self.numbers:
                return float(self.numbers[phrase]), start
        if at > 0 and re.fullmatch(r"\d+(?:\.\d+)?", tokens[at - 1]):
            return float(tokens[at - 1]), at - 1
        return None, at

    def longest_said(self, texts: Iterable[str], bare_plurals: bool = False) -> float | None:
        """The longest duration any of ``texts`` says (gated), in days (``None`` when none says one)."""
        said = [d for t in texts for d in self.said_days(t, bare_plurals=bare_plurals)]
        return max(said) if said else None


def _read_rules(entries: Any, known: list[str]) -> dict[str, DurationRule]:
    if not isinstance(entries, Mapping):
        raise KnowledgeError(FILE, None, "disorders", "must map code prefixes to {min, max, what, source}")
    rules: dict[str, DurationRule] = {}
    for prefix, entry in entries.items():
        if not isinstance(entry, Mapping):
            raise KnowledgeError(FILE, prefix, None, "must be an object")
        limits = {k: entry.get(k) for k in _LIMITS}
        for key, value in limits.items():
            if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0):
                raise KnowledgeError(FILE, prefix, key, "must be a positive number of days")
        if limits["min"] is None and limits["max"] is None:
            raise KnowledgeError(FILE, prefix, None, "needs a 'min' or a 'max'")
        for key in ("what", "source"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise KnowledgeError(FILE, prefix, key, "must say what the figure is and where it is stated")
        if known and not any(c.upper().startswith(prefix) for c in known):
            raise KnowledgeError(FILE, prefix, None, "matches no disorder of the knowledge base")
        rules[prefix] = DurationRule(prefix, limits["min"], limits["max"], limits["min_child"], limits["min_adult"],
                                     entry["what"], entry["source"])
    return rules


def read_durations(raw: Mapping[str, Any], codes: Iterable[str] = ()) -> Durations:
    """Durations from the file's mapping; :class:`KnowledgeError` naming entry and field when malformed."""
    rules = _read_rules(raw.get("disorders"), list(codes))
    for key in ("hedges", "markers"):
        if not isinstance(raw.get(key), list) or not all(isinstance(x, str) and x for x in raw[key]):
            raise KnowledgeError(FILE, None, key, "must be a list of non-empty strings")
    units = raw.get("units")
    if not isinstance(units, Mapping) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in units.values()
    ):
        raise KnowledgeError(FILE, None, "units", "must map words to positive numbers of days")
    numbers = raw.get("numbers")
    if not isinstance(numbers, Mapping) or not all(isinstance(v, int) and v > 0 for v in numbers.values()):
        raise KnowledgeError(FILE, None, "numbers", "must map words to positive whole numbers")
    return Durations(
        rules=rules,
        hedges=tuple(raw["hedges"]),
        units=dict(units),
        markers=frozenset(raw["markers"]),
        numbers=dict(numbers),
        long_phrases=tuple(raw.get("long_phrases", ())),
        long_days=int(raw.get("long_days", 3650)),
    )


@lru_cache(maxsize=1)
def load_durations() -> Durations:
    """The bundled duration facts, checked against the knowledge base's disorders (cached)."""
    from .base import load_knowledge

    try:
        raw = json.loads(resources.files(__package__).joinpath("data", FILE).read_text("utf-8"))
    except json.JSONDecodeError as e:
        raise KnowledgeError(FILE, None, None, f"not valid JSON ({e.msg} at line {e.lineno})") from None
    return read_durations(raw, [d.code for d in load_knowledge().disorders])


__all__ = ["DurationRule", "Durations", "load_durations", "read_durations"]
