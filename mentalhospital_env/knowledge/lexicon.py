"""The symptom and history lexicon: concepts with clinical terms, lay phrasings and clinician questions.

Data lives in ``data/lexicon/*.json``: every file there is read (``history.json`` holds the history
concepts, ``symptoms.json`` the symptoms and signs). A :class:`Concept` is one thing a clinician asks
about (low mood, hearing voices, alcohol use, family history of mental illness). :meth:`Lexicon.find`
spots concepts in any text, clinical or lay, by stemmed phrase matching, and marks each mention
negated or not, so "denies hearing voices" finds ``auditory_hallucinations`` negated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from .errors import KnowledgeError
from .language import (
    TEXT_MEMO_SIZE,
    _negated_spans_in,
    _phrase_limits,
    comma_breaks,
    load_cues,
    memos_enabled,
    memos_off,
    pronoun_neutral,
    register_memo,
    sentence_breaks,
    stems,
    stems_of,
    tokens_of,
)

CONCEPT_KINDS = ("symptom", "sign", "history")
_NOT = "!"  # marks a concept's not-phrase in the phrase index (never a concept id)


@dataclass(frozen=True)
class Concept:
    """One concept of the lexicon.

    ``kind`` is ``symptom`` or ``sign`` (a closed world: the patient denies what the record does not
    mention) or ``history`` (an open world: the patient does not know what the record does not say);
    ``domain`` groups concepts for an interview (``mood``, ``psychosis``, ``substance`` ...);
    ``categories`` are the diagnostic categories the concept points to; ``source`` is the lexicon file
    the concept comes from. ``absent_phrases`` are lay phrases that say, un-negated, that the concept is
    absent ("still enjoy things" for anhedonia, "plenty of energy" for fatigue): they are not terms of the
    concept (:meth:`Lexicon.find` never reports them) but :attr:`Lexicon.absence` finds them, so a reader
    can take "I still enjoy my hobbies" as anhedonia denied. ``not_phrases`` are longer phrasings that hold one
    of the concept's terms and are not the concept ("no periods of low mood" holds amenorrhoea's "no periods"):
    a term lying wholly inside one is not reported.
    """

    id: str
    kind: str
    domain: str
    clinical_terms: tuple[str, ...]
    lay_phrases: tuple[str, ...]
    questions: tuple[str, ...]
    sensitive: bool
    categories: tuple[str, ...]
    source: str = ""
    absent_phrases: tuple[str, ...] = ()
    not_phrases: tuple[str, ...] = ()

    @property
    def terms(self) -> tuple[str, ...]:
        return self.clinical_terms + self.lay_phrases


@dataclass(frozen=True, slots=True)  # slots: no per-mention dict, fewer objects for the collector in the memo
class Mention:
    """A concept found in a text: token span ``start:end`` and whether a negation cue covers it."""

    concept_id: str
    start: int
    end: int
    negated: bool


class Lexicon:
    """All concepts, with a phrase index for fast lookup in any text.

    :meth:`find` remembers its answers for the last :data:`~.language.TEXT_MEMO_SIZE` texts (oldest
    forgotten first); the answers are tuples of frozen :class:`Mention` values, so no caller can change
    what the next one reads.
    """

    def __init__(self, concepts: Iterable[Concept]):
        self.concepts: tuple[Concept, ...] = tuple(concepts)
        self._by_id: dict[str, Concept] = {}
        for c in self.concepts:
            if c.id in self._by_id:
                first = self._by_id[c.id].source or "the lexicon"
                raise KnowledgeError(
                    c.source or "lexicon", c.id, "id", f"concept id {c.id!r} is already defined in {first}"
                )
            self._by_id[c.id] = c
        index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        commas: dict[tuple[tuple[str, ...], str], frozenset[int]] = {}
        with memos_off():  # the terms are read once: they need not take room in the text memos
            for c in self.concepts:
                keys = [(term, pronoun_neutral(tuple(stems(term)))) for term in c.terms]
                keys += [(term, key) for term in c.clinical_terms if (key := _note_order(term))]
                # a not-phrase is read as a phrase of its own (under _NOT + the id) so that, being longer, it
                # holds the term inside it (settle_overlaps), and is then dropped from what find reports
                blocks = [(term, pronoun_neutral(tuple(stems(term))), _NOT + c.id) for term in c.not_phrases]
                for term, key, cid in [(t, k, c.id) for t, k in keys] + blocks:
                    if key and (key, cid) not in commas:
                        index.setdefault(key[0], []).append((key, cid))
                        commas[(key, cid)] = frozenset(comma_breaks(term))  # "heavy, like lead" holds one
        for entries in index.values():
            entries.sort(key=lambda e: -len(e[0]))
        # Single-word phrases by their stem; longer ones by their first two stems (exact matches) and by
        # their first stem (matches with function words in between), each list longest phrase first.
        # An entry is (stemmed phrase, its length, concept id, token offsets after the phrase's own commas).
        Entry = tuple[tuple[str, ...], int, str, frozenset[int]]
        single: dict[str, list[str]] = {}
        pairs: dict[tuple[str, str], list[Entry]] = {}
        longer: dict[str, list[Entry]] = {}
        for first, entries in index.items():
            for key, cid in entries:
                if len(key) == 1:
                    single.setdefault(first, []).append(cid)
                else:
                    entry = (key, len(key), cid, commas[(key, cid)])
                    pairs.setdefault((first, key[1]), []).append(entry)
                    longer.setdefault(first, []).append(entry)
        self._single = {k: tuple(v) for k, v in single.items()}
        self._pairs = {k: tuple(v) for k, v in pairs.items()}
        self._longer = {k: tuple(v) for k, v in longer.items()}
        self._found: dict[tuple[str, int], tuple[Mention, ...]] = {}
        register_memo(self)

    def clear_cache(self) -> None:
        """Forget the remembered mentions of every text."""
        self._found.clear()

    @cached_property
    def absence(self) -> Lexicon:
        """The concepts' ``absent_phrases`` as a lexicon of their own: its :meth:`find` reports a phrase
        saying a concept is absent as a mention of that concept (``negated`` when a cue denies the phrase
        itself: "I don't enjoy anything any more" is anhedonia present). Empty when no concept has one."""
        return Lexicon(
            replace(c, clinical_terms=(), lay_phrases=c.absent_phrases, absent_phrases=(), not_phrases=())
            for c in self.concepts
            if c.absent_phrases
        )

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_found"] = {}  # a copy or a pickle starts with an empty memo
        state.pop("absence", None)  # rebuilt on first use
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        register_memo(self)

    def __len__(self) -> int:
        return len(self.concepts)

    def __contains__(self, concept_id: object) -> bool:
        return concept_id in self._by_id

    def get(self, concept_id: str) -> Concept:
        try:
            return self._by_id[concept_id]
        except KeyError:
            raise KeyError(f"no lexicon concept {concept_id!r}") from None

    def find(self, text: str, max_gap: int = 0) -> tuple[Mention, ...]:
        """Every concept mentioned in ``text``, in text order, with negation (a tuple: remembered per text).

        ``max_gap`` lets up to that many function words (``language.json``'s ``function_words``:
        ``really``, ``just``, ``all`` ...) sit between a phrase's words, so "feel really down" is
        ``low_mood`` with ``max_gap=1``; the default 0 matches phrases exactly.

        Overlapping phrases of one concept give one mention (the earliest, longest one): "hearing
        voices talking" is one ``auditory_hallucinations``. A phrase lying wholly inside a longer
        phrase of another concept is not reported ("fear of weight gain" is not ``weight_gain``).
        A phrase never spans a sentence break or a heading (``. : ; ! ?`` or a line break, see
        :func:`~.language.sentence_breaks`): "concentration poor. Insight: partial" is not poor insight;
        nor a comma, unless the phrase holds that comma itself ("heavy, like lead").
        A mention is negated when its first token lies under a negation cue, after the cue word: the
        lay phrase "can't sleep" is insomnia, not negated sleep.
        """
        if not memos_enabled():
            return self._read_mentions(text, max_gap)
        key = (text, max_gap)
        found = self._found.get(key)
        if found is None:
            found = self._read_mentions(text, max_gap)
            if len(self._found) >= TEXT_MEMO_SIZE:
                self._found.pop(next(iter(self._found), None), None)  # forget the oldest text
            self._found[key] = found
        return found

    def _read_mentions(self, text: str, max_gap: int) -> tuple[Mention, ...]:
        stemmed = pronoun_neutral(stems_of(text))
        n = len(stemmed)
        if not n:
            return ()
        tokens = tokens_of(text)
        # a phrase starting at i must end by limits[i] (a sentence break); read at the first phrase of two
        # words or more that may start here (most texts have few, many none)
        limits: tuple[int, ...] | None = None
        commas: tuple[int, ...] = ()
        candidates: list[tuple[int, int, str]] = []
        cues = load_cues()
        # a gapped phrase may also skip a negation word standing inside it, which denies it ("hears no voices")
        inner = cues.inner_negation if max_gap > 0 else frozenset()
        gap_words = cues.function_words | inner if max_gap > 0 else frozenset()
        denied_inside: set[tuple[int, int, str]] = set()
        single, pairs, longer = self._single, self._pairs, self._longer
        for i in range(n):
            first = stemmed[i]
            if i + 1 < n and first in longer:  # every phrase of two words or more is under its first word in longer
                entries = pairs.get((first, stemmed[i + 1]), ())
                if limits is None and (entries or max_gap > 0):
                    limits, commas = _phrase_limits(text), comma_breaks(text)
                limit = limits[i] if limits is not None else n
                for key, k, cid, own_commas in entries:
                    end = i + k
                    if (
                        end <= limit
                        and stemmed[i:end] == key
                        and (not commas or _commas_fit(commas, i, end, own_commas))
                    ):
                        candidates.append((i, end, cid))
                if max_gap > 0:
                    second, skippable = stemmed[i + 1], tokens[i + 1] in gap_words
                    # a gapped phrase's second word lies within the next 1 + max_gap words
                    reach = stemmed[i + 1 : i + 2 + max_gap]
                    for key, k, cid, _ in longer[first]:
                        if not skippable and (k == 2 or key[1] != second):
                            continue  # the next word can neither match nor be skipped (or it matched exactly)
                        if key[1] not in reach:
                            continue
                        if stemmed[i : i + k] == key:
                            continue  # read exactly above
                        end = _gapped_end(tokens, stemmed, i, key, max_gap, gap_words)
                        if (
                            end is not None
                            and end <= limit
                            and (not commas or _commas_fit(commas, i, end, frozenset()))
                        ):
                            candidates.append((i, end, cid))
                            if inner and any(tokens[j] in inner for j in range(i + 1, end)):
                                denied_inside.add((i, end, cid))
            for cid in single.get(first, ()):
                candidates.append((i, i + 1, cid))
        if not candidates:
            return ()
        candidates.sort(key=lambda c: (-(c[1] - c[0]), c[0]))
        kept = settle_overlaps(candidates)
        neg = _negated_spans_in(text, 6)
        return tuple(
            Mention(cid, s, e, (s, e, cid) in denied_inside or any(a < s < b for a, b in neg))
            for s, e, cid in kept
            if not cid.startswith(_NOT)
        )

    def concepts_in(self, text: str) -> frozenset[str]:
        """Ids of the concepts mentioned in ``text``, negated or not."""
        return frozenset(m.concept_id for m in self.find(text))


@lru_cache(maxsize=1)
def _directional_words() -> frozenset[str]:
    """The stems of the one-word directional words of the cue data ("increased", "poor", "blunted")."""
    return frozenset(p[0] for _, up, down in load_cues().polarity_axes for p in (*up, *down) if len(p) == 1)


def _note_order(term: str) -> tuple[str, ...] | None:
    """A clinical term that opens with a directional word, in the order a note puts it: "increased appetite"
    as "appetite increased", "poor eye contact" as "eye contact poor" (stems); ``None`` for any other term,
    and for one whose rest holds a function word ("loss of interest" stays as it is)."""
    tokens = tokens_of(term)
    if not 2 <= len(tokens) <= 3:
        return None
    key = pronoun_neutral(tuple(stems(term)))
    words = load_cues().function_words
    if key[0] not in _directional_words() or any(t in words or not t[0].isalpha() for t in tokens[1:]):
        return None
    return (*key[1:], key[0])


def settle_overlaps(candidates: list[tuple]) -> list[tuple]:
    """Phrase spans ``(start, end, concept_id, ...)`` given longest first, then earliest: a span is kept unless
    a kept span contains it (another concept's longer phrase) or overlaps it (the same concept); the kept
    ones in text order. How :meth:`Lexicon.find` settles overlapping phrases, for any reader that adds its own."""
    kept: list[tuple] = []
    for candidate in candidates:
        start, end, cid = candidate[0], candidate[1], candidate[2]
        clash = False
        for k in kept:
            s, e = k[0], k[1]
            if k[2] == cid and start < e and s < end:
                clash = True
                break
            if k[2] != cid and s <= start and end <= e and (e - s) > (end - start):
                clash = True
                break
        if not clash:
            kept.append(candidate)
    kept.sort(key=lambda c: (c[0], c[1]))
    return kept


def _commas_fit(commas: tuple[int, ...], start: int, end: int, own: frozenset[int]) -> bool:
    """Whether every comma inside ``start:end`` of the text is one the phrase holds at that place."""
    return all(c - start in own for c in commas if start < c < end)


def _gapped_end(
    tokens: tuple[str, ...],
    stemmed: tuple[str, ...],
    start: int,
    key: tuple[str, ...],
    max_gap: int,
    gap_words: frozenset[str],
) -> int | None:
    """End of ``key`` matched from ``start`` with at most ``max_gap`` function words skipped in between."""
    j = start + 1
    skipped = 0
    for part in key[1:]:
        while j < len(stemmed) and stemmed[j] != part and tokens[j] in gap_words and skipped < max_gap:
            j += 1
            skipped += 1
        if j >= len(stemmed) or stemmed[j] != part:
            return None
        j += 1
    return j


_LIST_LINKS = frozenset({"or", "and", "nor", "also"})
# words that may stand between two findings of one list besides the links: articles, "any", possessives
_LIST_FILLERS = frozenset({"a", "an", "the", "any", "of", "my", "his", "her", "their", "other", "or", "and", "nor"})


@lru_cache(maxsize=1)
def _single_word_negations() -> frozenset[str]:
    """The one-word negation cues of ``language.json`` ("no", "not", "never", "nothing", "can't" ...)."""
    return frozenset(p[0] for p in load_cues().negation if len(p) == 1)


def listed_denials(
    text: str, mentions: Sequence[Mention], negated: Callable[[Mention], bool], skip: Collection[Mention] = ()
) -> frozenset[int]:
    """Starts of the mentions a denial reaches through a list beyond its cue's window: in "denies suicidal
    ideation, homicidal ideation, hearing voices, seeing things or low mood" every finding is denied. A finding
    joins the list when it follows a denied one after a comma or "or" / "and" / "nor" (with at most an article,
    "any" or a possessive besides: "but reports" ends the list) and itself ends the list or is followed by a
    comma or a link ("my faith means ..." is a clause, no item). ``negated`` says how the reader reads a mention
    on its own; a phrase that starts with its own negation ("not think he has any illness") starts no list;
    mentions in ``skip`` (phrases that read their own way, such as absent phrases) break it."""
    if len(mentions) < 2:
        return frozenset()
    tokens = tokens_of(text)
    commas = set(comma_breaks(text))
    breaks = sentence_breaks(text)
    out: set[int] = set()
    previous = None  # the last mention read as denied (by its cue or through the list)
    for m in mentions:
        if skip and m in skip:
            previous = None
            continue
        if previous is not None and m.start >= previous.end:
            gap = tokens[previous.end : m.start]
            joined = any(previous.end <= c <= m.start for c in commas) or any(t in _LIST_LINKS for t in gap)
            item = m.end >= len(tokens) or m.end in commas or m.end in breaks or tokens[m.end] in _LIST_LINKS
            if joined and item and len(gap) <= 3 and all(t in _LIST_FILLERS for t in gap):
                out.add(m.start)
                previous = m
                continue
        own = tokens[m.start] in _single_word_negations()
        previous = m if negated(m) and not own else None
    return frozenset(out)


def concept_from_entry(raw: dict, source: str = "") -> Concept:
    """A :class:`Concept` from one lexicon entry (fields as in the knowledge schema)."""
    return Concept(
        id=raw["id"],
        kind=raw["kind"],
        domain=raw["domain"],
        clinical_terms=tuple(raw.get("clinical_terms", ())),
        lay_phrases=tuple(raw.get("lay_phrases", ())),
        questions=tuple(raw.get("questions", ())),
        sensitive=bool(raw.get("sensitive", False)),
        categories=tuple(raw.get("categories", ())),
        source=source,
        absent_phrases=tuple(raw.get("absent_phrases", ())),
        not_phrases=tuple(raw.get("not_phrases", ())),
    )


def lexicon_files(folder: Path | Traversable | None = None) -> list[Path | Traversable]:
    """The lexicon files, sorted by name: ``data/lexicon/*.json`` of the package, or of ``folder``."""
    base = folder if folder is not None else resources.files(__package__).joinpath("data")
    lex = base.joinpath("lexicon")
    if not lex.is_dir():
        return []
    return sorted(
        (f for f in lex.iterdir() if f.name.endswith(".json") and f.is_file()), key=lambda f: f.name
    )


def read_lexicon(folder: Path | Traversable | None = None) -> Lexicon:
    """Read every lexicon file (of the package, or of a data ``folder``) into one :class:`Lexicon`.

    A concept id defined in two files raises :class:`KnowledgeError` naming both files.
    """
    concepts: list[Concept] = []
    for f in lexicon_files(folder):
        source = f"lexicon/{f.name}"
        raw = json.loads(f.read_text("utf-8"))
        concepts.extend(concept_from_entry(c, source) for c in raw["concepts"])
    return Lexicon(concepts)


@lru_cache(maxsize=32)
def lexicon_relations(key: str) -> tuple:
    """A top-level list of the bundled lexicon files (``implies``, ``opposite_findings``, ``said_of_a_relative``,
    ``about_relatives``, ``done_to_patient`` ...), the files' lists one after another in file order; read once
    per key. Entries are as in the files (ids, or pairs of ids as tuples)."""
    out: list = []
    for f in lexicon_files():
        for entry in json.loads(f.read_text("utf-8")).get(key, ()):
            out.append(tuple(entry) if isinstance(entry, list) else entry)
    return tuple(out)


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The bundled lexicon (cached; validated by :func:`mentalhospital_env.knowledge.load_knowledge`)."""
    return read_lexicon()


def has_sensitive_concept(text: str) -> bool:
    """Whether ``text`` mentions a sensitive concept (suicidal thoughts, self-harm, substance use, trauma ...)."""
    lex = load_lexicon()
    return any(lex.get(m.concept_id).sensitive for m in lex.find(text))
