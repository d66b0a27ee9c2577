"""Which mood-episode codes carry which specifier (psychotic features, severity), and whether what is known of the
patient contradicts a code's specifier: one table (``data/specifiers.json``) for the note judge and the scripted
clinician.

:func:`psychotic_conflict` says whether a code's psychotic-features specifier clashes with the psychotic findings
stated present ("without psychotic features" beside a delusion; "with psychotic features" beside none);
:func:`severity_conflict` whether a code's severity clashes with the grades of the rating scales on file (a severe
episode coded beside a PHQ-9 and a HAM-D that both read "moderate").
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import KnowledgeError

FILE = "specifiers.json"
_GRADE = re.compile(r"\(([a-z ]+)\)")


@dataclass(frozen=True)
class Specifiers:
    psychotic_findings: frozenset[str]
    with_psychotic: tuple[str, ...]
    without_psychotic: tuple[str, ...]
    severity: dict[str, tuple[str, str]]  # code prefix -> (pole, grade)
    scales: dict[str, tuple[str, ...]]  # pole -> scale names
    grades: dict[str, str | None]
    psychotic_words: tuple[tuple[str, bool], ...] = ()  # (phrase, with), the "without" phrases first
    grade_words: tuple[tuple[str, str], ...] = ()  # (word, grade)

    def stated(self, code: str | None, text: str = "") -> tuple[bool | None, tuple[str, str] | None]:
        """(with psychotic features, (pole, grade)) as a diagnosis of a mood episode states them: its grade by its
        words when ``text`` (the diagnosis as written) is given, else by its code; psychotic features by its words,
        else its code; ``None`` where they do not say, and for a code that is no mood episode."""
        if self.psychotic(code) is None and self.grade(code) is None:
            return None, None  # no mood episode: "Brief psychotic disorder" carries no specifier
        low = " " + re.sub(r"\s+", " ", text.lower()) + " "
        psychotic = next((w for p, w in self.psychotic_words if re.search(rf"(?<![a-z-]){re.escape(p)}(?![a-z])", low)), None)
        graded = self.grade(code)
        words = [(m.start(), g) for p, g in self.grade_words for m in re.finditer(rf"(?<![a-z-]){re.escape(p)}(?![a-z-])", low)]
        if not text.strip():  # the code alone
            return self.psychotic(code), graded
        # a grade is read from the words alone ("recurrent depressive disorder, in partial remission" names none,
        # whatever code its name resolves to); psychotic features from the code when the words say nothing (a
        # moderate episode's code is "without" them, and so is a severe one named without its specifier)
        if psychotic is None:
            psychotic = self.psychotic(code)
        return psychotic, ((graded[0], min(words)[1]) if graded is not None and words else None)

    def psychotic(self, code: str | None) -> bool | None:
        """``True`` for a code "with" psychotic features, ``False`` for one "without", ``None`` for one that says
        neither (the longest listed prefix wins)."""
        if not code:
            return None
        hits = [(len(p), True) for p in self.with_psychotic if code.upper().startswith(p)]
        hits += [(len(p), False) for p in self.without_psychotic if code.upper().startswith(p)]
        return max(hits)[1] if hits else None

    def grade(self, code: str | None) -> tuple[str, str] | None:
        """(pole, grade) the code states, or ``None``."""
        if not code:
            return None
        hits = [p for p in self.severity if code.upper().startswith(p)]
        return self.severity[max(hits, key=len)] if hits else None

    def scale_grades(self, pole: str, results: Iterable[tuple[str, str]]) -> frozenset[str]:
        """The grades (mild, moderate, severe) the pole's rating scales among ``results`` ((name, result) pairs)
        print, mapped by ``grades``; a grade mapped to null or unknown says nothing."""
        names = [n.lower() for n in self.scales.get(pole, ())]
        out: set[str] = set()
        for name, result in results:
            if not any(name.lower().startswith(n) for n in names):
                continue
            for raw in _GRADE.findall(result.lower()):
                mapped = self.grades.get(raw.strip())
                if mapped:
                    out.add(mapped)
        return frozenset(out)


@lru_cache(maxsize=1)
def load_specifiers() -> Specifiers:
    raw: dict[str, Any] = json.loads(resources.files(__package__).joinpath(f"data/{FILE}").read_text("utf-8"))
    try:
        pf, sev = raw["psychotic_features"], raw["severity"]
        table = {k: (v[0], v[1]) for k, v in sev["codes"].items()}
        spec = Specifiers(
            psychotic_findings=frozenset(pf["findings"]),
            with_psychotic=tuple(pf["with"]),
            without_psychotic=tuple(pf["without"]),
            severity=table,
            scales={k: tuple(v) for k, v in sev["scales"].items()},
            grades=dict(sev["grades"]),
            psychotic_words=tuple((p, False) for p in pf["words"]["without"]) + tuple((p, True) for p in pf["words"]["with"]),
            grade_words=tuple((w, g) for g, ws in sev["words"].items() for w in ws),
        )
    except (KeyError, TypeError, IndexError) as error:
        raise KnowledgeError(f"{FILE}: malformed ({error!r})") from None
    overlap = set(spec.with_psychotic) & set(spec.without_psychotic)
    if overlap:
        raise KnowledgeError(f"{FILE}: codes both with and without psychotic features: {sorted(overlap)}")
    bad = {g for _, g in table.values()} - {g for g in spec.grades.values() if g}
    if bad or {p for p, _ in table.values()} - set(spec.scales):
        raise KnowledgeError(f"{FILE}: severity codes name grades or poles the file does not define")
    return spec


def psychotic_conflict(code: str | None, present: Iterable[str], text: str = "") -> str | None:
    """Why the psychotic-features specifier of ``code`` (as ``text``, the diagnosis as written, states it) clashes
    with the findings ``present`` (concept ids stated present), or ``None``."""
    spec = load_specifiers()
    says, _ = spec.stated(code, text)
    if says is None:
        return None
    found = sorted(spec.psychotic_findings & set(present))
    if says is False and found:
        return f"the diagnosis ({code}) says without psychotic features, but {', '.join(found)} stated present"
    if says is True and not found:
        return f"the diagnosis ({code}) says with psychotic features, but no psychotic feature stated present"
    return None


def severity_conflict(code: str | None, results: Iterable[tuple[str, str]], text: str = "") -> str | None:
    """Why the severity of ``code`` (as ``text`` states it) clashes with the grades of its pole's rating scales among
    ``results``, or ``None`` (none when no graded scale of the pole is on file, or one of them gives the grade)."""
    spec = load_specifiers()
    _, graded = spec.stated(code, text)
    if graded is None:
        return None
    pole, grade = graded
    grades = spec.scale_grades(pole, results)
    if not grades or grade in grades:
        return None
    return f"the diagnosis ({code}) says {grade}, but the {pole} rating scales on file read {', '.join(sorted(grades))}"


__all__ = ["FILE", "Specifiers", "load_specifiers", "psychotic_conflict", "severity_conflict"]
