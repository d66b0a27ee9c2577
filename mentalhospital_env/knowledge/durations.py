"""How long a disorder must have lasted before it can be diagnosed, and how long an illness has lasted by what was said.

``data/durations.json`` holds the minimum duration of each disorder that has one (days, by ICD-10-CM code prefix,
the longest prefix winning), the words with which a note keeps a diagnosis provisional, and the small vocabulary
of spoken durations ("for four days now", "over the last two weeks", "three months ago"). The note judge reads a
principal diagnosis against it; the scripted clinician reads it to hedge a diagnosis made too early.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import KnowledgeError

FILE = "durations.json"


@dataclass(frozen=True)
class Durations:
    """The bundled duration facts (see the module docstring)."""

    minimum: Mapping[str, tuple[int, str]]  # code prefix -> (days, source)
    hedges: tuple[str, ...]
    units: Mapping[str, int]
    markers: frozenset[str]
    numbers: Mapping[str, int]
    long_phrases: tuple[str, ...] = ()
    long_days: int = 3650

    def minimum_days(self, code: str | None) -> int | None:
        """The minimum duration of the disorder ``code`` in days (``None`` when it has none)."""
        if not code:
            return None
        hits = [p for p in self.minimum if code.upper().startswith(p)]
        return self.minimum[max(hits, key=len)][0] if hits else None

    def hedged(self, text: str) -> bool:
        """Whether ``text`` keeps its diagnosis provisional ("working diagnosis", "if symptoms persist")."""
        low = text.lower()
        return any(re.search(rf"\b{re.escape(h)}\b", low) for h in self.hedges)

    def said_days(self, text: str) -> tuple[float, ...]:
        """Each duration ``text`` says, in days: "for four days now" (4), "over the last two weeks" (14), "three
        months ago" (90), "since the summer" is not read. A number with a unit counts only after a marker word
        or before "ago", so that "44 kg" or "28-day cycles" say nothing."""
        tokens = re.findall(r"[a-z]+|\d+(?:\.\d+)?", text.lower().replace("-", " "))
        out: list[float] = []
        joined = " ".join(tokens)
        out += [float(self.long_days) for p in self.long_phrases if re.search(rf"\b{re.escape(p)}\b", joined)][:1]
        for i, token in enumerate(tokens):
            if token not in self.units:
                continue
            count, start = self._count_before(tokens, i)
            if count is None:
                continue
            after_ago = i + 1 < len(tokens) and tokens[i + 1] == "ago"
            opened = any(t in self.markers for t in tokens[max(0, start - 3) : start])
            if after_ago or opened:
                out.append(count * self.units[token])
        return tuple(out)

    def _count_before(self, tokens: list[str], at: int) -> tuple[float | None, int]:
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

    def longest_said(self, texts: Iterable[str]) -> float | None:
        """The longest duration any of ``texts`` says, in days (``None`` when none says one)."""
        said = [d for t in texts for d in self.said_days(t)]
        return max(said) if said else None


def read_durations(raw: Mapping[str, Any], codes: Iterable[str] = ()) -> Durations:
    """Durations from the file's mapping; :class:`KnowledgeError` naming entry and field when malformed."""
    minimum: dict[str, tuple[int, str]] = {}
    entries = raw.get("minimum_days")
    if not isinstance(entries, Mapping):
        raise KnowledgeError(FILE, None, "minimum_days", "must map code prefixes to {days, source}")
    known = list(codes)
    for prefix, entry in entries.items():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("days"), int) or entry["days"] <= 0:
            raise KnowledgeError(FILE, prefix, "days", "must be a positive whole number of days")
        if not isinstance(entry.get("source"), str) or not entry["source"].strip():
            raise KnowledgeError(FILE, prefix, "source", "must say where the figure is stated")
        if known and not any(c.upper().startswith(prefix) for c in known):
            raise KnowledgeError(FILE, prefix, None, "matches no disorder of the knowledge base")
        minimum[prefix] = (entry["days"], entry["source"])
    for key in ("hedges", "markers"):
        if not isinstance(raw.get(key), list) or not all(isinstance(x, str) and x for x in raw[key]):
            raise KnowledgeError(FILE, None, key, "must be a list of non-empty strings")
    for key in ("units", "numbers"):
        value = raw.get(key)
        if not isinstance(value, Mapping) or not all(isinstance(v, int) and v > 0 for v in value.values()):
            raise KnowledgeError(FILE, None, key, "must map words to positive whole numbers")
    return Durations(
        minimum=minimum,
        hedges=tuple(raw["hedges"]),
        units=dict(raw["units"]),
        markers=frozenset(raw["markers"]),
        numbers=dict(raw["numbers"]),
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


__all__ = ["Durations", "load_durations", "read_durations"]
