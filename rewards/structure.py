"""Structural readings of a pair the coverage matcher has accepted (issue 18).

The rules and the reader accept a pair when the output shares enough of the checkpoint's meaning; these checks read
the *shape* of what each statement says and refuse an accept whose shape differs, each a small named function with
its knowledge in ``knowledge/data/structure.json``:

- :func:`rate_clash`: how often, and how much of a substance, compared per week on one scale (events, UK units of
  alcohol, cigarettes) after converting the units;
- :func:`feared_clash`: a fear, worry or wish about what may happen never entails a fact;
- :func:`noncommittal_clash`: an answer that commits to nothing entails no finding;
- :func:`onset_clash`: when something began (a duration, a point, a lay anchor), compared when both say one.

:func:`structural_clash` applies the checks kept (:data:`CHECKS`) and names the first that refuses. Every reading is
cached: an output's readings are taken once per text.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from mentalhospital_env.knowledge.language import memo_size

_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?|'[a-z]+")


@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/structure.json").read_text("utf-8")
    )


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(text.lower().replace("\u2019", "'")))


def _phrases(words) -> tuple[tuple[str, ...], ...]:
    return tuple(sorted({tuple(_tokens(w)) for w in words if _tokens(w)}, key=len, reverse=True))


@lru_cache(maxsize=64)
def _index(phrases: tuple[tuple[str, ...], ...]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Phrases by their first word, longest first."""
    out: dict[str, list] = {}
    for p in sorted(phrases, key=len, reverse=True):
        out.setdefault(p[0], []).append(p)
    return {k: tuple(v) for k, v in out.items()}


def _at(tokens: tuple[str, ...], i: int, phrases: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    """The longest of ``phrases`` starting at ``tokens[i]``, or None."""
    for p in _index(phrases).get(tokens[i], ()):
        if tokens[i : i + len(p)] == p:
            return p
    return None


def _has(tokens: tuple[str, ...], phrases: tuple[tuple[str, ...], ...]) -> bool:
    return any(_at(tokens, i, phrases) is not None for i in range(len(tokens)))


def _apart(a, b, ratio: float) -> bool:
    return bool(a and b) and all(x[1] * ratio < y[0] or y[1] * ratio < x[0] for x in a for y in b)


def _content(text: str) -> frozenset[str]:
    from .adjudication import _content_stems

    return _content_stems(text)


# --- (b) rates on one scale ----------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _rate_data():
    raw = _data()["rates"]
    numbers = {k: float(v) for k, v in raw["numbers"].items()}
    vague = {tuple(_tokens(k)): (float(v[0]), float(v[1])) for k, v in raw["vague_counts"].items()}
    periods = {k: float(v) for k, v in raw["periods_per_week"].items()}
    adverbs = {tuple(_tokens(k)): (float(v[0]), float(v[1])) for k, v in raw["adverbs"].items()}
    day_nouns = frozenset(raw["day_nouns"])
    scales = {
        tuple(_tokens(unit)): (scale, (float(v[0]), float(v[1])))
        for scale, table in raw["scales"].items()
        for unit, v in table.items()
    }
    return (
        numbers, vague, periods, adverbs, day_nouns, scales, frozenset(raw["rate_openers"]), float(raw["ratio"]),
        frozenset(raw["measures"]),
    )


_TENS = frozenset({"twenty", "thirty", "forty", "fifty", "sixty"})


def _count_at(tokens, i, numbers, vague):
    """A count starting at ``tokens[i]``: ((lo, hi), end) or None."""
    phrase = _at(tokens, i, tuple(vague))
    if phrase is not None:
        return vague[phrase], i + len(phrase)
    t = tokens[i]
    if t[0].isdigit():
        value = float(t)
    elif t in numbers and t not in ("a", "an", "half", "single"):
        value = numbers[t]
    else:
        return None
    j = i + 1
    if t in _TENS and j < len(tokens) and tokens[j] in numbers and numbers[tokens[j]] < 10 and tokens[j] not in ("a", "an"):
        value += numbers[tokens[j]]
        j += 1
    if t == "hundred" and tokens[j : j + 1] == ("and",) and j + 1 < len(tokens) and tokens[j + 1] in numbers:
        value += numbers[tokens[j + 1]]  # "a hundred and ten"
        j += 2
    lo = hi = value
    # "N or M", "N to M", "N-M" (the hyphen is dropped: two numbers in a row)
    if j + 1 < len(tokens) and tokens[j] in ("or", "to") and (tokens[j + 1][0].isdigit() or tokens[j + 1] in numbers):
        other = float(tokens[j + 1]) if tokens[j + 1][0].isdigit() else numbers[tokens[j + 1]]
        if other > value:
            hi = other
            j += 2
    elif j < len(tokens) and tokens[j][0].isdigit() and float(tokens[j]) > value:
        hi = float(tokens[j])
        j += 1
    return (lo, hi), j


def _period_at(tokens, k, periods, adverbs, openers, numbers):
    """A period starting at ``tokens[k]``: (multiplier per week (lo, hi), end) or None."""
    phrase = _at(tokens, k, tuple(adverbs))
    if phrase is not None:
        return adverbs[phrase], k + len(phrase)
    if k > 0 and tokens[k - 1] in ("for", "over"):
        return None
    j = k
    opened = False
    count = 1.0
    while j < len(tokens) and tokens[j] in openers:
        opened = True
        j += 1
    if j < len(tokens) and (tokens[j][0].isdigit() or (tokens[j] in numbers and tokens[j] not in ("a", "an"))) and opened:
        count = float(tokens[j]) if tokens[j][0].isdigit() else numbers[tokens[j]]
        j += 1
    if opened and j < len(tokens) and tokens[j] in periods and tokens[k] != "the":
        per = periods[tokens[j]] / max(count, 1e-9)
        return (per, per), j + 1
    return None


_CLAUSE_BREAK = re.compile(r"[.;:!?()\u2013\u2014]+|\s-\s|,")
_SENTENCE_BREAK = re.compile(r"[.;!?]+")


def _is_count(token: str, numbers) -> bool:
    return token[0].isdigit() or (token in numbers and token not in ("a", "an", "half", "single"))


def _clause_rates(tokens, numbers, vague, periods, adverbs, day_nouns, scales, openers, measures):
    """The rates of one clause: [(scale, (lo, hi) per week or None when no period is said, per item)], and the
    standalone adverbs of frequency it says."""
    found = []
    standalone = []
    used: set[int] = set()
    i = 0
    while i < len(tokens):
        counted = _count_at(tokens, i, numbers, vague)
        if counted is None and tokens[i] in ("a", "an", "half"):
            if i + 1 < len(tokens) and _at(tokens, i + 1, tuple(scales)) is not None:
                counted = ((0.5, 0.5) if tokens[i] == "half" else (1.0, 1.0)), i + 1
        if counted is None:
            i += 1
            continue
        (lo, hi), j = counted
        if (j < len(tokens) and tokens[j] in measures) or tokens[max(0, i - 2) : i] and (
            tokens[i - 1] == "at" or tokens[max(0, i - 2) : i] in (("at", "about"), ("at", "around"))
        ):  # a measure ("300 mg", "ten k"), a clock time ("wakes at about four")
            i = j + 1
            continue
        scale, per_item, unit_end, days = "events", (1.0, 1.0), j, False
        for k in range(j, min(len(tokens), j + 3)):
            if _is_count(tokens[k], numbers) or tokens[k] in periods and tokens[k] not in day_nouns:
                break
            hit = _at(tokens, k, tuple(scales))
            if hit is not None:
                scale, per_item = scales[hit]
                unit_end = k + len(hit)
                break
            if tokens[k] in day_nouns:
                unit_end, days = k + 1, True
                break
        if tokens[unit_end : unit_end + 3] == ("and", "a", "half"):
            lo, hi = lo * 1.5, hi * 1.5
            unit_end += 3
        if unit_end + 1 < len(tokens) and tokens[unit_end] == "or":  # "a pint or two"
            more = _count_at(tokens, unit_end + 1, numbers, vague)
            if more is not None and more[0][1] > hi:
                hi = more[0][1]
                unit_end = more[1]
        period = None
        end = unit_end
        for k in range(unit_end, min(len(tokens), unit_end + 4)):
            if tokens[k] in ("for", "ago") or (k > unit_end and _count_at(tokens, k, numbers, vague) is not None):
                break
            period = _period_at(tokens, k, periods, adverbs, openers, numbers)
            if period is not None:
                end = period[1]
                period = period[0]
                break
        if scale == "events" and period is None:
            i = max(i + 1, j)
            continue
        found.append((scale, period, (lo * per_item[0], hi * per_item[1])))
        if days and period is not None:  # "five or six nights a week": how often a sentence's amount is taken
            standalone.append((lo * period[0], hi * period[1]))
        used.update(range(i, end))
        i = max(end, i + 1)
    for k in range(len(tokens)):
        if k in used:
            continue
        phrase = _at(tokens, k, tuple(adverbs))
        if phrase is not None and not used.intersection(range(k, k + len(phrase))):
            standalone.append(adverbs[phrase])
            used.update(range(k, k + len(phrase)))
    return found, standalone


@lru_cache(maxsize=memo_size(65536))
def rates(text: str) -> dict[str, frozenset[tuple[float, float]]]:
    """The rates a statement says, per week, by scale ("events": how often; "alcohol" in UK units; "cigarettes"):
    a count, its unit, and a period after it in the same clause ("six pints a night", "twice daily", "two mornings a
    week"); an amount with no period of its own takes the sentence's adverb of frequency ("Every night I get through a
    bottle of wine"); a per-night amount in a sentence that also says the weekend is a weekend's ("12 units a night at
    weekends"). An adverb of frequency no amount took is how often ("most nights")."""
    numbers, vague, periods, adverbs, day_nouns, scales, openers, _, measures = _rate_data()
    out: dict[str, set] = {}
    for sentence in _SENTENCE_BREAK.split(text.lower().replace("\u2019", "'")):
        amounts, loose = [], []
        for clause in _CLAUSE_BREAK.split(sentence):
            found, standalone = _clause_rates(
                _tokens(clause), numbers, vague, periods, adverbs, day_nouns, scales, openers, measures
            )
            amounts.extend(found)
            loose.extend(standalone)
        weekly = [s for s in loose if s[1] < 7]
        took = False
        for scale, period, (lo, hi) in amounts:
            if period is None:
                if not loose:
                    continue
                period_spans = loose
                took = True
            elif period[0] >= 7 and weekly:
                period_spans = weekly
                took = True
            else:
                period_spans = [period]
            for plo, phi in period_spans:
                out.setdefault(scale, set()).add((lo * plo, hi * phi))
        if not took:
            for span in loose:
                out.setdefault("events", set()).add(span)
    return {k: frozenset(v) for k, v in out.items()}


def rate_clash(checkpoint: str, output: str) -> str | None:
    c = rates(checkpoint)
    if not c:
        return None
    o = rates(output)
    ratio = _rate_data()[7]
    for scale in ("alcohol", "cigarettes", "events"):
        if _apart(c.get(scale), o.get(scale), ratio):
            return f"rate: {scale} per week differ"
    return None


# --- (c) a fear, worry or wish is not a fact ------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _feared_data():
    raw = _data()["feared"]
    return (
        frozenset(raw["fear"]), _phrases(raw["future"]), _phrases(raw["wish"]),
        frozenset(raw["fear"]) | frozenset(raw["checkpoint_about"]),
    )


_SENTENCE = re.compile(r"[.!?;]+|,\s*(?:but|and)\b")


def _feared(sentence_tokens) -> bool:
    fear, future, wish, _ = _feared_data()
    if _has(sentence_tokens, wish):
        return True
    at = next((i for i, t in enumerate(sentence_tokens) if t in fear), None)
    if at is None:
        return False
    rest = sentence_tokens[at + 1 :]
    return any(t.endswith("'ll") for t in rest) or _has(rest, future)


def feared_clash(checkpoint: str, output: str) -> str | None:
    c_tokens = _tokens(checkpoint)
    fear, future, wish, about_fear = _feared_data()
    if about_fear.intersection(c_tokens) or _has(c_tokens, wish) or _has(c_tokens, (("if",),)):
        return None  # the checkpoint itself is about a fear, a wish or a condition
    plain: list[str] = []
    feared = False
    for sentence in (s for s in _SENTENCE.split(output) if s and s.strip()):
        tokens = _tokens(sentence)
        if not _feared(tokens):
            plain.append(sentence)
            continue
        feared = True
        at = next((i for i, t in enumerate(tokens) if t in fear), None)
        if at is not None:  # what the sentence says before its fear word is said as fact
            plain.append(" ".join(tokens[:at]))
    if not feared or _content(" ".join(plain)) & _content(checkpoint):
        return None
    return "feared or wished, not a fact"


# --- (d) an answer that commits to nothing ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _noncommittal_data():
    raw = _data()["noncommittal"]
    return (
        frozenset(_phrases(raw["hedges"])), frozenset(raw["affirm"]), frozenset(raw["fillers"]),
        frozenset(raw["governed"]),
    )


def noncommittal_clash(checkpoint: str, output: str) -> str | None:
    hedges, affirm, fillers, governed = _noncommittal_data()
    low = checkpoint.lower().replace("\u2019", "'")
    if _has(_tokens(re.sub(r"(?<![a-z])'|'(?![a-z])", " ", low)), tuple(hedges)):
        return None  # the checkpoint is itself a hedge (a mood in the patient's own words: 'don't know')
    # the patient's own words the checkpoint quotes ('okay' in his own word); said beside a hedge, they are an answer
    own = frozenset(t for q in re.findall(r"(?<![a-z])'(.+?)'(?![a-z])", low) for t in _tokens(q))
    tokens = _tokens(output)
    if affirm.intersection(tokens):
        return None
    hedged = False
    kept: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", output.strip()):
        if sentence.rstrip().endswith("?"):
            continue  # an echoed question ("Voices?")
        for clause in re.split(r"[.,;:!?\u2026]+|\s-\s", sentence):
            words = tuple(t for t in _tokens(clause) if t not in fillers)
            if not words:
                continue
            if words in hedges:  # a hedge standing as its own clause ("I don't know.", "Maybe, maybe not.")
                hedged = True
            elif words[0] in governed:  # "Whether it's anything more, I don't know": the doubt is what is said
                return None
            else:
                kept.append(" ".join(words))
    if not hedged or _content(" ".join(kept)) & _content(checkpoint) or own.intersection(_tokens(" ".join(kept))):
        return None
    return "noncommittal"


# --- (e) when it began ----------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _onset_data():
    raw = _data()["onset"]
    anchors = {tuple(_tokens(k)): (float(v[0]), float(v[1])) for k, v in raw["anchors"].items()}
    return anchors, float(raw["ratio"])


@lru_cache(maxsize=memo_size(65536))
def onset_spans(text: str) -> frozenset[tuple[float, float]]:
    from .adjudication import when_marks

    anchors, _ = _onset_data()
    tokens = _tokens(text)
    points, durations = when_marks(text)
    spans = set(points) | set(durations)
    phrases = tuple(anchors)
    for i in range(len(tokens)):
        phrase = _at(tokens, i, phrases)
        if phrase is not None:
            spans.add(anchors[phrase])
    return frozenset(spans)


def onset_clash(checkpoint: str, output: str) -> str | None:
    c = onset_spans(checkpoint)
    if not c:
        return None
    if _apart(c, onset_spans(output), _onset_data()[1]):
        return "onset: when it began differs"
    return None


# --- all together ---------------------------------------------------------------------------------------------------------

ALL_CHECKS = {
    "rate": rate_clash,
    "feared": feared_clash,
    "noncommittal": noncommittal_clash,
    "onset": onset_clash,
}

CHECKS: tuple[str, ...] = ("rate", "feared", "noncommittal", "onset")
"""The checks :func:`structural_clash` applies: those that, on the accepts of the matcher before them, blocked more
wrong accepts than right ones on heldout43..45 and the record pairs and cost recall no more than 0.01 there
(benchmarks/calibration_round.md, stop 46). A compound check (every part of a joined checkpoint said), read part by
part (shared words, a shared concept, or the learned reader's score of the part), refused more right accepts than
wrong ones on heldout28..42 at every part score tried and cost the record pairs 0.02 to 0.08 of recall; it was never
applied and was deleted (the measurement stays in docs/calibration.md)."""


@lru_cache(maxsize=memo_size(65536))
def structural_clash(checkpoint: str, output: str) -> str | None:
    """Why the shape of ``output`` cannot entail ``checkpoint`` (the first of :data:`CHECKS` that refuses), or None."""
    for name in CHECKS:
        why = ALL_CHECKS[name](checkpoint, output)
        if why is not None:
            return why
    return None
