"""Reading clinical English: tokens, a light stemmer, and negation, subject and time-frame cues.

The cue lists are data (``data/language.json``); this module applies them. Every part of the library
that asks "is this statement negated?", "is it about a relative?" or "is it about the past?" calls
these functions, so the patient, the adjudicator and the scripted clinician read text the same way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SUFFIXES = ("ings", "ing", "edly", "ed", "ies", "es", "s", "ly")


@dataclass(frozen=True)
class LanguageCues:
    negation: tuple[tuple[str, ...], ...]
    negation_terminators: tuple[tuple[str, ...], ...]
    uncertainty: tuple[tuple[str, ...], ...]
    other_subject: tuple[tuple[str, ...], ...]
    past_time: tuple[tuple[str, ...], ...]
    current_time: tuple[tuple[str, ...], ...]


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens (apostrophe contractions kept: ``doesn't``)."""
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


@lru_cache(maxsize=65536)
def stem(token: str) -> str:
    """A light suffix-stripping stem: ``hearing``/``hears``/``heard`` are not unified, but ``voices``/``voice`` are."""
    if len(token) <= 3 or "'" in token:
        return token
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            base = token[: -len(suffix)]
            if suffix == "ies":
                return base + "y"
            if suffix in ("ing", "ings", "ed") and len(base) > 3 and base[-1] == base[-2]:
                return base[:-1]  # "stopped" -> "stop", "sitting" -> "sit"
            return base
    return token


def stems(text: str) -> list[str]:
    """Stemmed tokens of a text."""
    return [stem(t) for t in tokenize(text)]


@lru_cache(maxsize=1)
def load_cues() -> LanguageCues:
    raw = json.loads(resources.files(__package__).joinpath("data/language.json").read_text("utf-8"))

    def phrases(key: str) -> tuple[tuple[str, ...], ...]:
        return tuple(sorted({tuple(tokenize(p)) or (p,) for p in raw[key]}, key=len, reverse=True))

    return LanguageCues(
        negation=phrases("negation_cues"),
        negation_terminators=phrases("negation_terminators"),
        uncertainty=phrases("uncertainty_cues"),
        other_subject=phrases("other_subject_cues"),
        past_time=phrases("past_time_cues"),
        current_time=phrases("current_time_cues"),
    )


def _find(tokens: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, int]]:
    """Spans (start, end) of any phrase in the token list."""
    spans = []
    n = len(tokens)
    for i in range(n):
        for p in phrases:
            if tokens[i : i + len(p)] == list(p):
                spans.append((i, i + len(p)))
                break
    return spans


def negated_spans(tokens: list[str], window: int = 6) -> list[tuple[int, int]]:
    """Token spans under a negation cue: from the cue to the next terminator, at most ``window`` tokens."""
    cues = load_cues()
    terms = {s for s, _ in _find(tokens, cues.negation_terminators)}
    spans = []
    for start, end in _find(tokens, cues.negation):
        stop = min(len(tokens), end + window)
        for j in range(end, stop):
            if j in terms:
                stop = j
                break
        spans.append((start, stop))
    return spans


def is_negated(text: str, start: int | None = None, end: int | None = None) -> bool:
    """Whether the text (or its token span ``start:end``) falls under a negation cue.

    ``is_negated("denies hearing voices")`` is true; ``is_negated("hears voices, no plan")`` is true
    only for the span of ``plan``.
    """
    tokens = tokenize(text)
    spans = negated_spans(tokens)
    if start is None:
        return bool(spans)
    stop = end if end is not None else start + 1
    return any(s < stop and start < e for s, e in spans)


def has_cue(text: str, kind: str) -> bool:
    """Whether ``text`` holds a cue of ``kind``: ``uncertainty``, ``other_subject``, ``past_time`` or ``current_time``."""
    cues = load_cues()
    return bool(_find(tokenize(text), getattr(cues, kind)))


def is_about_other_person(text: str) -> bool:
    """Whether the statement is about someone other than the patient (``"mother had depression"``)."""
    return has_cue(text, "other_subject")
