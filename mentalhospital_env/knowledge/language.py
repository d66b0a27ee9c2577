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
    function_words: frozenset[str] = frozenset()
    reporting_verbs: tuple[tuple[str, ...], ...] = ()
    clause_boundaries: tuple[tuple[str, ...], ...] = ()
    subordinate_markers: tuple[tuple[str, ...], ...] = ()
    patient_subject: tuple[tuple[str, ...], ...] = ()
    # (axis, stemmed "up" phrases, stemmed "down" phrases), e.g. ("amount", (("increas",), ...), ...)
    polarity_axes: tuple[tuple[str, tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]], ...] = ()
    # phrases holding a negation word that do not negate ("can't stop crying", "not only")
    pseudo_negation: tuple[tuple[str, ...], ...] = ()
    # words that open a new clause after a comma, ending a negation's scope ("no plan, hears voices")
    negation_clause_openers: frozenset[str] = frozenset()
    # first-person words (a patient speaking) and third-person pronouns (a note, or someone else)
    first_person: frozenset[str] = frozenset()
    third_person: frozenset[str] = frozenset()
    # number words and their values ("two" -> 2, "a couple of" -> 2)
    number_words: tuple[tuple[tuple[str, ...], float], ...] = ()


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens (apostrophe contractions kept: ``doesn't``)."""
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


@lru_cache(maxsize=1)
def _irregular_forms() -> dict[str, str]:
    raw = json.loads(resources.files(__package__).joinpath("data/language.json").read_text("utf-8"))
    return dict(raw.get("irregular_forms", {}))


@lru_cache(maxsize=65536)
def stem(token: str) -> str:
    """A light suffix-stripping stem: ``hearing``/``hears`` and ``voices``/``voice`` are unified; irregular
    forms (``heard``, ``felt``, ``slept``) map to their base through ``irregular_forms`` of the cue data;
    a possessive ``'s`` is dropped (``mood's`` -> ``mood``)."""
    if token.endswith("'s") and len(token) > 2:
        token = token[:-2]
    irregular = _irregular_forms().get(token)
    if irregular is not None:
        return irregular
    if len(token) <= 3 or "'" in token:
        return token
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            base = token[: -len(suffix)]
            if suffix == "ies":
                return base + "y"
            if suffix in ("ing", "ings", "ed") and len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                return base[:-1]  # "stopped" -> "stop", "sitting" -> "sit"; "killing" -> "kill"
            if suffix == "es" and not base.endswith(("s", "x", "z", "ch", "sh")):
                return token[:-1]  # "voices" -> "voice" (as "voice"); "boxes" -> "box"
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
        function_words=frozenset(raw.get("function_words", ())),
        reporting_verbs=phrases("reporting_verbs") if "reporting_verbs" in raw else (),
        clause_boundaries=phrases("clause_boundaries") if "clause_boundaries" in raw else (),
        subordinate_markers=phrases("subordinate_markers") if "subordinate_markers" in raw else (),
        patient_subject=phrases("patient_subject_cues") if "patient_subject_cues" in raw else (),
        polarity_axes=tuple(
            (
                axis["axis"],
                tuple(sorted({tuple(stems(p)) for p in axis["up"]}, key=len, reverse=True)),
                tuple(sorted({tuple(stems(p)) for p in axis["down"]}, key=len, reverse=True)),
            )
            for axis in raw.get("polarity_axes", ())
        ),
        pseudo_negation=phrases("pseudo_negation_cues") if "pseudo_negation_cues" in raw else (),
        negation_clause_openers=frozenset(raw.get("negation_clause_openers", ())),
        first_person=frozenset(raw.get("first_person_cues", ())),
        third_person=frozenset(raw.get("third_person_cues", ())),
        number_words=tuple(
            sorted(((tuple(tokenize(k)), float(v)) for k, v in raw.get("number_words", {}).items()), key=lambda kv: -len(kv[0]))
        ),
    )


@lru_cache(maxsize=256)
def _phrase_index(phrases: tuple[tuple[str, ...], ...]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The phrases by their first word, each list in the order given (longest first)."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for p in phrases:
        if p:
            index.setdefault(p[0], []).append(p)
    return {k: tuple(v) for k, v in index.items()}


def _find(tokens: list[str], phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, int]]:
    """Spans (start, end) of any phrase in the token list (at each position, the first phrase that fits)."""
    spans = []
    index = _phrase_index(phrases)
    for i, token in enumerate(tokens):
        for p in index.get(token, ()):
            if tuple(tokens[i : i + len(p)]) == p:
                spans.append((i, i + len(p)))
                break
    return spans


_SENTENCE_PUNCT = re.compile(r"[.;:!?()\u2014]|\s-\s")
_COMMA = re.compile(r",")


def negation_breaks(text: str, tokens: list[str] | None = None) -> frozenset[int]:
    """Token indices where a negation's scope must stop: the first token of a new sentence or clause.

    A sentence break (``. ; : ! ?``, a dash, a bracket) always ends the scope; a comma ends it only
    when a clause opener follows (``"no plan, hears voices"``), so that a list stays negated
    (``"denies suicidal ideation, plan or intent"``).
    """
    low = text.lower().replace("\u2019", "'")
    spans = [m.span() for m in _TOKEN.finditer(low)]
    tokens = tokens if tokens is not None else [low[a:b] for a, b in spans]
    openers = load_cues().negation_clause_openers
    out = set()
    for i in range(1, min(len(spans), len(tokens))):
        gap = low[spans[i - 1][1] : spans[i][0]]
        if _SENTENCE_PUNCT.search(gap) or (_COMMA.search(gap) and tokens[i] in openers):
            out.add(i)
    return frozenset(out)


def negated_spans(
    tokens: list[str], window: int = 6, breaks: frozenset[int] | set[int] | None = None
) -> list[tuple[int, int]]:
    """Token spans under a negation cue: from the cue to the next terminator, at most ``window`` tokens.

    A span starts at the cue itself; what the cue negates are the tokens after it. Cues inside a
    pseudo-negation (``"can't stop crying"``, ``"not only"``) are skipped. ``breaks`` (see
    :func:`negation_breaks`) are token indices where a new clause starts and the scope stops.
    """
    cues = load_cues()
    terms = {s for s, _ in _find(tokens, cues.negation_terminators)}
    if breaks:
        terms |= set(breaks)
    pseudo = {j for s, e in _find(tokens, cues.pseudo_negation) for j in range(s, e)}
    spans = []
    covered_until = -1
    for start, end in _find(tokens, cues.negation):
        if start in pseudo or start < covered_until:
            continue  # a pseudo-negation, or the tail of a longer cue ("did not" then "not")
        covered_until = end
        stop = min(len(tokens), end + window)
        for j in range(end, stop):
            if j in terms:
                stop = j
                break
        spans.append((start, stop))
    return spans


def negated_spans_in(text: str, tokens: list[str] | None = None, window: int = 6) -> list[tuple[int, int]]:
    """:func:`negated_spans` of a text, with its sentence and clause breaks applied."""
    tokens = tokens if tokens is not None else tokenize(text)
    return negated_spans(tokens, window, negation_breaks(text, tokens))


def is_negated(text: str, start: int | None = None, end: int | None = None) -> bool:
    """Whether the text (or its token span ``start:end``) falls under a negation cue.

    ``is_negated("denies hearing voices")`` is true; ``is_negated("hears voices, no plan")`` is true
    only for the span of ``plan``; ``is_negated("no plan, hears voices", 3, 5)`` is false. The cue
    word itself is not negated: the lay phrase ``"can't sleep"`` is not a negated ``can't``.
    """
    spans = negated_spans_in(text)
    if start is None:
        return bool(spans)
    stop = end if end is not None else start + 1
    return any(max(start, s + 1) < min(stop, e) for s, e in spans)


def has_cue(text: str, kind: str) -> bool:
    """Whether ``text`` holds a cue of ``kind``: ``uncertainty``, ``other_subject``, ``past_time`` or ``current_time``."""
    cues = load_cues()
    return bool(_find(tokenize(text), getattr(cues, kind)))


def is_about_other_person(text: str) -> bool:
    """Whether the statement is about someone other than the patient (``"mother had depression"``)."""
    return has_cue(text, "other_subject")


# --- Clauses, subject, time frame and polarity: reading a statement for semantic matching ---------------

_CLAUSE_PUNCT = re.compile(r"[,;:.!?()\u2014]|\s-\s")


def content_stems(text: str) -> list[str]:
    """Stems of the content words of ``text`` (function words, pronouns and reporting verbs left out)."""
    words = load_cues().function_words
    return [stem(t) for t in tokenize(text) if t not in words]


@dataclass(frozen=True)
class Clause:
    """A clause of a statement as a token span ``start:end`` of ``tokenize(text)``.

    ``subject`` is ``"other"`` when the clause is about someone else (a relative's illness), else
    ``"patient"``; ``time`` is ``"past"``, ``"current"`` or ``None`` (no cue); ``subordinate`` marks
    background clauses (``since my husband left``) whose subject does not carry to the next clause.
    """

    start: int
    end: int
    subject: str
    time: str | None
    subordinate: bool


def _clause_starts(text: str, tokens: list[str]) -> list[int]:
    low = text.lower().replace("\u2019", "'")
    spans = [m.span() for m in _TOKEN.finditer(low)]
    cues = load_cues()
    starts = {0}
    for i in range(1, len(spans)):
        if _CLAUSE_PUNCT.search(low[spans[i - 1][1] : spans[i][0]]):
            starts.add(i)
    starts.update(s for s, _ in _find(tokens, cues.clause_boundaries))
    starts.update(e for _, e in _find(tokens, cues.reporting_verbs) if e < len(tokens))
    return sorted(s for s in starts if s < len(tokens)) or [0]


def clauses(text: str) -> list[Clause]:
    """Split a statement into clauses and read each one's subject and time frame.

    A clause is about another person when it holds an other-subject cue (``mother``, ``family
    history``) that no patient-subject cue (``I``, ``patient``) precedes; a clause with neither cue
    inherits the subject of the previous main clause. Who ``he`` and ``she`` are depends on the
    speaker: in a note (no first-person word) they are the patient; when the patient speaks (``I``,
    ``my``) they are someone else. A clause that ends with a reporting verb (``her husband says``)
    passes "patient" on: what an informant reports is about the patient.
    ``clauses("I have felt low since my mother died")`` gives a patient main clause and an "other"
    subordinate clause.
    """
    tokens = tokenize(text)
    if not tokens:
        return []
    cues = load_cues()
    first_person = any(t in cues.first_person for t in tokens)
    starts = _clause_starts(text, tokens)
    bounds = list(zip(starts, starts[1:] + [len(tokens)]))
    out: list[Clause] = []
    inherited = "patient"
    for start, end in bounds:
        part = tokens[start:end]
        subordinate = any(s == 0 for s, _ in _find(part, cues.subordinate_markers))
        others = [s for s, _ in _find(part, cues.other_subject)]
        selves = [s for s, _ in _find(part, cues.patient_subject)]
        if first_person:
            others += [i for i, t in enumerate(part) if t in cues.third_person]
            selves = [i for i in selves if part[i] not in cues.third_person]
        if others and not (selves and min(selves) < min(others)):
            subject = "other"
        elif selves:
            subject = "patient"
        else:
            subject = inherited
        past = bool(_find(part, cues.past_time))
        current = bool(_find(part, cues.current_time))
        time = "past" if past and not current else "current" if current and not past else None
        out.append(Clause(start, end, subject, time, subordinate))
        if not subordinate:
            reported = any(e == len(part) for _, e in _find(part, cues.reporting_verbs))
            inherited = "patient" if reported else subject
    return out


def time_frame(text: str) -> str | None:
    """``"past"``, ``"current"`` or ``None`` (no cue, or both) for a whole statement."""
    past = has_cue(text, "past_time")
    current = has_cue(text, "current_time")
    if past == current:
        return None
    return "past" if past else "current"


def polarity_marks(text: str, window: int = 6) -> frozenset[tuple[str, str, int]]:
    """Directional words and what they qualify: ``(axis, attribute stem, +1 | -1)``.

    ``polarity_marks("poor sleep")`` is ``{("amount", "sleep", -1), ("integrity", "sleep", -1)}``;
    ``"sleeping too much"`` gives ``("amount", "sleep", +1)``, so the two conflict. The attribute is
    the nearest content word within ``window`` tokens on either side (both on a tie); ``""`` when
    there is none.
    """
    cues = load_cues()
    tokens = tokenize(text)
    stemmed = [stem(t) for t in tokens]
    directional: list[tuple[int, int, str, int]] = []
    for axis, up, down in cues.polarity_axes:
        for sign, phrases_ in ((1, up), (-1, down)):
            directional.extend((s, e, axis, sign) for s, e in _find(stemmed, phrases_))
    covered = {j for s, e, _, _ in directional for j in range(s, e)}

    def content(j: int) -> bool:
        return j not in covered and tokens[j] not in cues.function_words and tokens[j][0].isalpha()

    marks: set[tuple[str, str, int]] = set()
    for s, e, axis, sign in directional:
        after = next((j for j in range(e, min(len(tokens), e + window)) if content(j)), None)
        before = next((j for j in range(s - 1, max(-1, s - 1 - window), -1) if content(j)), None)
        d_after = after - e + 1 if after is not None else None
        d_before = s - before if before is not None else None
        if d_after is not None and (d_before is None or d_after <= d_before):
            marks.add((axis, stemmed[after], sign))
        if d_before is not None and (d_after is None or d_before <= d_after):
            marks.add((axis, stemmed[before], sign))  # both neighbours on a tie ("sleep has improved with ...")
        if d_after is None and d_before is None:
            marks.add((axis, "", sign))
    return frozenset(marks)


_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def quantities(text: str, window: int = 3) -> frozenset[tuple[float, str]]:
    """Numbers and the unit word after them: ``"four hours a night"`` gives ``{(4.0, "hour")}``.

    Digits (``8,000``) and number words (``eight``, ``a couple of``) count; compound words add up
    (``twenty five``), ``"eight thousand"`` multiplies. The unit is the first content word within
    ``window`` tokens that is not itself a number (``"ten or eleven hours"`` gives 10 and 11 hours).
    """
    cues = load_cues()
    low = text.lower().replace("\u2019", "'")
    low = _NUMBER.sub(lambda m: " " + m.group().replace(",", "") + " ", low)
    tokens = re.findall(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?", low)
    values: list[tuple[int, int, float]] = []  # (start, end, value)
    i = 0
    while i < len(tokens):
        if tokens[i][0].isdigit():
            values.append((i, i + 1, float(tokens[i])))
            i += 1
            continue
        for phrase, value in cues.number_words:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                if values and values[-1][1] == i:  # "twenty five", "eight thousand"
                    s0, _, v0 = values[-1]
                    values[-1] = (s0, i + len(phrase), v0 * value if value in (100.0, 1000.0) else v0 + value)
                else:
                    values.append((i, i + len(phrase), value))
                i += len(phrase)
                break
        else:
            i += 1
    starts = {j for s, e, _ in values for j in range(s, e)}
    out: set[tuple[float, str]] = set()
    for _, end, value in values:
        for j in range(end, min(len(tokens), end + window)):
            if j in starts or tokens[j] in cues.function_words or tokens[j] == "or":
                continue
            out.add((value, stem(tokens[j])))
            break
    return frozenset(out)
