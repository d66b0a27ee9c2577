"""Semantic matching of reference checkpoints against what a doctor elicited or wrote (the study's ``k ⪯ y``).

A :class:`Matcher` decides whether an output entails a checkpoint in three steps:

1. :func:`~mentalhospital_env.rewards.adjudication.statement_conflict` vetoes the pair when negation,
   subject, time frame or direction disagree. This runs on every pair, above the threshold too, so
   "denies hearing voices" never covers "hears voices".
2. The embedder's cosine similarity accepts the pair when it reaches the embedder's threshold,
   calibrated for precision of at least 0.95 on the project's labelled pairs (``data/thresholds.json``).
3. Pairs below the threshold go to the adjudicator (rule-based clinical offline; an LLM judge or a jury
   when configured). Without an adjudicator they are not entailed.

Outputs are split into units (sentences); a checkpoint is covered when some unit entails it.
``coverage`` encodes every checkpoint and every unit once, whatever the number of pairs.
"""

from __future__ import annotations

import itertools
import json
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

import numpy as np

from mentalhospital_env.cases.derive import split_sentences
from mentalhospital_env.knowledge.language import echoed_topic, leading_openers, memo_size

from .adjudication import (
    SHARED_NEGATION,
    Adjudicator,
    ClinicalAdjudicator,
    StatementReading,
    direction_clash,
    make_adjudicator,
    read_statement,
    same_clause_polarity,
    statement_conflict,
)
from .embedders import Embedder, make_embedder
from .reader import EntailmentReader, default_reader
from .structure import compound_clash, structural_clash

# Used only when thresholds.json has no entry for an embedder (a model the user named): conservative.
UNCALIBRATED_THRESHOLD = 0.9


@lru_cache(maxsize=1)
def load_thresholds() -> Mapping[str, Mapping[str, Any]]:
    """Calibrated thresholds per embedder name, from ``data/thresholds.json`` (see docs/calibration.md)."""
    path = resources.files(__package__).joinpath("data/thresholds.json")
    if not path.is_file():
        return MappingProxyType({})
    raw = json.loads(path.read_text("utf-8"))
    return MappingProxyType({k: MappingProxyType(v) for k, v in raw.get("embedders", {}).items()})


def calibrated_threshold(embedder_name: str) -> float:
    """The calibrated threshold of an embedder, or :data:`UNCALIBRATED_THRESHOLD` when it has none."""
    entry = load_thresholds().get(embedder_name)
    return float(entry["threshold"]) if entry else UNCALIBRATED_THRESHOLD


def calibrated_phrase_threshold(embedder_name: str) -> float | None:
    """The calibrated lexicon-phrasing threshold of an embedder (see :class:`ClinicalAdjudicator`), or ``None``."""
    entry = load_thresholds().get(embedder_name)
    value = entry.get("phrase_threshold") if entry else None
    return float(value) if value is not None else None


def calibrated_min_share(embedder_name: str) -> float | None:
    """The calibrated share of checkpoint content the clinical adjudicator needs (see :class:`ClinicalAdjudicator`), or ``None``."""
    entry = load_thresholds().get(embedder_name)
    value = entry.get("min_share") if entry else None
    return float(value) if value is not None else None


def calibrated_min_share_without_concept(embedder_name: str) -> float | None:
    """The calibrated share the clinical adjudicator needs when the output carries none of the checkpoint's
    concepts (see :class:`ClinicalAdjudicator`), or ``None``."""
    entry = load_thresholds().get(embedder_name)
    value = entry.get("min_share_without_concept") if entry else None
    return float(value) if value is not None else None


@dataclass(frozen=True)
class MatcherConfig:
    """How a :class:`Matcher` decides entailment.

    - ``embedder``: ``"hashing"`` (offline default), ``"minilm"``, ``"sentence-transformers:PATH_OR_ID"``, ``"use"``.
    - ``threshold``: a cosine similarity, or ``"calibrated"`` (the embedder's entry in thresholds.json).
    - ``adjudicator``: ``"clinical"`` (offline default), ``"llm"``, ``"jury"`` or ``"none"``.
    - ``llm``: a ``make_client`` spec (or a list of them for a jury) for the LLM adjudicators.
    - ``max_adjudicated_units``: per checkpoint, at most this many units (the most similar) go to the
      adjudicator; ``None`` sends all. Defaults to all for the clinical adjudicator, 3 for LLM ones.
    - ``phrase_threshold``: the clinical adjudicator also counts a checkpoint's lexicon concept as said
      when the output is this similar (with the same embedder) to one of the concept's phrasings;
      ``"calibrated"`` takes the embedder's entry in thresholds.json, ``None`` turns it off.
    - ``reader``: after the rules, the learned entailment reader (:mod:`.reader`) reads the pairs they refused and
      accepts those it scores at or above its fitted threshold that still pass every structural veto
      (:func:`~.adjudication.statement_conflict`) and the direction gate (:func:`~.adjudication.direction_clash`);
      ``False`` turns it off (the rules alone).
    - ``compound``: a checkpoint joining separate findings is refused from a one-clause unit that does not say
      every part (:func:`~.structure.compound_clash`, each part decided by this matcher alone). Off by default:
      it is right on single utterances (stop 47: heldout44..46 7 wrong / 1 right blocked) but judges each unit
      alone, so on a transcript it withdraws a checkpoint whose parts the patient said in separate replies
      (benchmarks/calibration_round.md, stop 47).
    """

    embedder: str = "hashing"
    threshold: float | str = "calibrated"
    adjudicator: str = "clinical"
    llm: str | tuple[str, ...] | None = None
    max_adjudicated_units: int | None = None
    phrase_threshold: float | str | None = "calibrated"
    reader: bool = True
    compound: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.threshold, str):
            if self.threshold != "calibrated":
                raise ValueError(
                    f"MatcherConfig.threshold must be a number or 'calibrated', got {self.threshold!r}"
                )
        elif not -1.0 <= float(self.threshold) <= 1.0 + 1e-5:
            # (a float32 cosine of two identical texts may round a hair above 1, and the calibration's answer
            # when no cosine reaches its precision lies just above the highest: a threshold that accepts nothing)
            raise ValueError(f"MatcherConfig.threshold must lie in [-1, 1], got {self.threshold!r}")
        if isinstance(self.phrase_threshold, str) and self.phrase_threshold != "calibrated":
            raise ValueError(
                f"MatcherConfig.phrase_threshold must be a number, 'calibrated' or None, got {self.phrase_threshold!r}"
            )
        if self.max_adjudicated_units is not None and self.max_adjudicated_units < 1:
            raise ValueError("MatcherConfig.max_adjudicated_units must be at least 1 or None")
        if isinstance(self.llm, list):
            object.__setattr__(self, "llm", tuple(self.llm))


def _says_nothing(reading: StatementReading) -> bool:
    return not reading.words and not reading.concepts


def _reader_reads(reading: StatementReading) -> bool:
    """Whether the learned reader may credit a unit: it names a lexicon concept or holds at least two content
    words. A unit of one content word and no concept ("I don't know.", "Don't know.") gives the reader too little
    to read meaning from: its vector is near the checkpoints that hold that word's sense (a disorientation's
    "doesn't know where she is"), which the rules' phrasing reading already refuses."""
    return bool(reading.concepts) or len(reading.words) >= 2


class _CheckpointSet:
    """What the candidate prefilter reads in one list of checkpoint texts, once per list (an interview asks
    with the same open checkpoints turn after turn): their readings, their shared-feature rows (stem heads
    and concepts, see :func:`_shared_features`), their concepts and which checkpoint holds each, and which
    checkpoints deny a concept.

    :meth:`subset` reads part of the list from the whole (an interview's open checkpoints shrink turn by
    turn): it keeps the whole list's vocabulary and concepts, whose extra columns and rows are zero for
    the part, so every product the prefilter takes is the same as with the part read on its own."""

    __slots__ = (
        "concepts",
        "denying",
        "features",
        "holders",
        "key",
        "phrasing",
        "readings",
        "row",
        "rows",
        "serial",
        "vocabulary",
        "whole",
    )

    def subset(self, rows: list[int], key: tuple[str, ...]) -> _CheckpointSet:
        """The set of the checkpoints at ``rows`` of this one (``key``: their texts)."""
        part = object.__new__(_CheckpointSet)
        part.key = key
        part.readings = tuple(self.readings[r] for r in rows)
        part.vocabulary = self.vocabulary
        part.features = self.features[rows]
        part.concepts = self.concepts
        part.holders = self.holders[:, rows]
        part.denying = self.denying[rows]
        part.row = None  # a part is never read from again: the whole is
        part.whole, part.rows = self, rows
        part.phrasing = None  # the whole's is used
        part.serial = self.serial
        return part

    def __init__(self, checkpoints: Sequence[str]):
        self.key = tuple(checkpoints)
        self.whole, self.rows = None, None
        self.serial = next(_CHECKPOINT_SET_SERIALS)  # names the whole list in a matcher's unit rows
        # the phrasing stack of the concepts and the concepts' columns in it, see _phrasing_possible
        self.phrasing: tuple[Any, np.ndarray | None] | None = None
        self.row = {t: i for i, t in enumerate(checkpoints)}  # a text's row (the last, for a repeated one)
        self.readings = tuple(read_statement(t) for t in checkpoints)
        vocabulary: dict[str, int] = {}
        rows = [
            [
                vocabulary.setdefault(f, len(vocabulary))
                for f in (*r.stem_heads, *("@" + k for k in r.concept_ids))
            ]
            for r in self.readings
        ]
        self.vocabulary = vocabulary
        self.features = np.zeros((len(rows), len(vocabulary) or 1), dtype=np.float32)
        for i, row in enumerate(rows):
            self.features[i, row] = 1.0
        self.concepts = tuple(sorted({cc.concept_id for r in self.readings for cc in r.concepts}))
        column = {k: n for n, k in enumerate(self.concepts)}
        # holders[n, i]: checkpoint i names concept n
        self.holders = np.zeros((len(self.concepts), len(rows)), dtype=np.float32)
        for i, r in enumerate(self.readings):
            for cc in r.concepts:
                self.holders[column[cc.concept_id], i] = 1.0
        self.denying = np.fromiter(
            (any(cc.negated for cc in r.concepts) for r in self.readings), bool, len(self.readings)
        )


_CHECKPOINT_SET_SERIALS = itertools.count()

# Units whose prefilter row against a whole checkpoint list (see :meth:`Matcher._unit_rows`) a matcher keeps,
# all lists together (least recently stored forgotten first): a row of 40 checkpoints takes some 150 bytes.
UNIT_ROWS_KEPT = memo_size(65536)

# Checkpoint lists whose :class:`_CheckpointSet` a matcher keeps (least recently used forgotten first); an
# entry is a few kilobytes (its readings are shared with read_statement's cache).
CHECKPOINT_SETS_KEPT = memo_size(512)

# Whole checkpoint lists (a case's interview or note checkpoints, read by :meth:`Matcher.prepare` or met
# whole) a matcher keeps apart from the parts read from them, so that a suite's cases stay read however many
# parts an episode asks: 30 checkpoints take some 25 kB.
WHOLE_CHECKPOINT_SETS_KEPT = memo_size(1024)

# Checkpoint lists whose embedding matrix a matcher keeps: 30 checkpoints of the hashing embedder take 120 kB.
CHECKPOINT_VECTORS_KEPT = memo_size(64)


def _shared_features(checkpoints: _CheckpointSet, o_read: Sequence[StatementReading]) -> np.ndarray:
    """Pairs whose readings share a stem head or a concept, or where the unit implies a checkpoint's concept
    (:func:`~.adjudication._may_share` for every pair)."""
    vocabulary = checkpoints.vocabulary
    o_matrix = np.zeros((len(o_read), checkpoints.features.shape[1]), dtype=np.float32)
    get = vocabulary.get
    for j, r in enumerate(o_read):
        row = [k for k in map(get, (*r.stem_heads, *("@" + k for k in r.reach_ids))) if k is not None]
        o_matrix[j, row] = 1.0
    return (checkpoints.features @ o_matrix.T) > 0


# Slack on the vectorised phrasing similarity, so that rounding never drops a pair the adjudicator accepts.
_PHRASING_SLACK = 1e-4


def _phrasing_possible(
    adjudicator: ClinicalAdjudicator,
    checkpoints: _CheckpointSet,
    units: Sequence[str],
    o_read: Sequence[StatementReading],
    vectors: np.ndarray | None = None,
) -> np.ndarray:
    """Pairs where some concept of the checkpoint is close enough to the unit by its phrasings (a superset
    of :meth:`ClinicalAdjudicator.phrased_concepts`, which also asks negation and subject to agree, and
    reads no concept in a unit without a content word). ``o_read``: the units' readings; ``vectors``: the
    units already encoded by the adjudicator's phrase embedder, if they are."""
    concepts = checkpoints.concepts
    worded = [j for j, r in enumerate(o_read) if r.words]
    if not concepts or not worded:
        return np.zeros((len(checkpoints.readings), len(units)), dtype=bool)
    stack = adjudicator.phrasing_stack(concepts)
    if vectors is None:
        vectors = adjudicator.phrase_embedder.encode(list(units))
    # unit by unit: a sparse stack's products for several units at once run over every dimension any of
    # them uses, for each of them
    threshold = adjudicator.phrase_threshold - _PHRASING_SLACK
    close = np.zeros((len(units), len(stack.concepts)), dtype=bool)  # units x concepts of the stack
    for j in worded:
        close[j] = stack.best(vectors[j : j + 1])[0] >= threshold
    # this list's concepts among the stack's columns: found once per whole list and stack (a part shares
    # its whole's concepts)
    whole = checkpoints.whole or checkpoints
    known = whole.phrasing
    if known is not None and known[0]() is stack:
        columns = known[1]
    else:
        order = stack.concepts
        if len(order) != len(concepts):  # a stack built for more concepts: this list's columns
            column = {k: n for n, k in enumerate(order)}
            columns = np.array([column[k] for k in concepts], dtype=np.intp)
        else:
            columns = None
        whole.phrasing = (weakref.ref(stack), columns)
    if columns is not None:
        close = close[:, columns]
    # a checkpoint is close when one of its concepts is
    return (checkpoints.holders.T @ close.T.astype(np.float32)) > 0


@dataclass(frozen=True)
class CheckpointMatch:
    """A checkpoint covered by one unit of the output; ``decided_by`` is ``"embedder"`` or the adjudicator's name."""

    checkpoint_id: str
    checkpoint: str
    unit_index: int
    unit: str
    similarity: float
    decided_by: str


@dataclass(frozen=True)
class CoverageResult:
    """Eq. 13 for one output: ``score`` = covered / total (0.0 when there are no checkpoints).

    ``matched`` maps each covered checkpoint's id to its :class:`CheckpointMatch`; ids are the
    checkpoints' own ids, or their positions (``"0"``, ``"1"`` ...) when plain strings were given.
    """

    score: float
    matched: Mapping[str, CheckpointMatch]
    checkpoint_ids: tuple[str, ...]
    units: tuple[str, ...] = field(default=(), repr=False)

    @property
    def covered(self) -> int:
        return len(self.matched)

    @property
    def total(self) -> int:
        return len(self.checkpoint_ids)

    @property
    def missed(self) -> tuple[str, ...]:
        return tuple(i for i in self.checkpoint_ids if i not in self.matched)


def checkpoint_texts(checkpoints: Sequence[Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(ids, texts) of checkpoints given as strings or objects with ``id`` and ``text`` (``Checkpoint``)."""
    if isinstance(checkpoints, str):
        raise TypeError("checkpoints must be a sequence of strings or Checkpoint objects, not one string")
    ids: list[str] = []
    texts: list[str] = []
    for i, cp in enumerate(checkpoints):
        if isinstance(cp, str):
            ids.append(str(i))
            texts.append(cp)
        elif isinstance(getattr(cp, "text", None), str):
            ids.append(str(getattr(cp, "id", i)))
            texts.append(cp.text)
        else:
            raise TypeError(
                f"checkpoint {i} is {type(cp).__name__}; expected str or an object with .id and .text"
            )
    return tuple(ids), tuple(texts)


def output_units(output: str | Sequence[str]) -> tuple[str, ...]:
    """The units of an output: a string split into sentences, or a sequence of units as given (blank ones dropped).

    A sentence's opening discourse phrases ("The thing is,", "Well, honestly,": ``discourse_openers`` of the
    language cues, see :func:`~mentalhospital_env.knowledge.language.leading_openers`) are left out: they
    say nothing (their words, "look" in "Okay, look," or "see" in "See, none.", must not be read as what
    the patient sees or how things look), and the sentence after them, its first letter capitalised again,
    is the one the speaker says without them ("The thing is, my skin is awful." gives "My skin is awful."),
    so it reads and matches as that sentence does.

    A finding the speaker echoes as a short question before answering it ("Alcohol? I don't drink at all.",
    "Do I hear voices? Every night.") stays one unit with its answer
    (:func:`~mentalhospital_env.knowledge.language.echoed_topic`): on its own, the bare question would read
    as the finding said."""
    if isinstance(output, str):
        units: list[str] = []
        for sentence in split_sentences(output):
            if not sentence.strip():
                continue
            cut = leading_openers(sentence)
            if cut:
                rest = sentence[cut:]
                sentence = rest[:1].upper() + rest[1:]
            if units and _echoes_a_finding(units[-1], sentence):
                units[-1] = f"{units[-1]} {sentence}"
            else:
                units.append(sentence)
        return tuple(units)
    units = []
    for i, unit in enumerate(output):
        if not isinstance(unit, str):
            raise TypeError(f"output unit {i} is {type(unit).__name__}, not str")
        if unit.strip():
            units.append(unit)
    return tuple(units)


def _echoes_a_finding(question: str, answer: str) -> bool:
    """Whether ``question`` is a short question echoing a topic that ``answer`` answers, so the two make one
    unit (see :func:`output_units`): a bare topic of at most three words ("Suicide?", "My sleep?") or a
    question of at most six that names a finding ("Do I hear voices?"), not a question of its own ("Can we
    talk about something else?")."""
    if not question.endswith("?"):
        return False
    words = echoed_topic(f"{question} {answer}")[0]
    return 0 < words <= 3 or (words > 0 and bool(read_statement(question).concepts))


class Matcher:
    """Checkpoint entailment and coverage with an embedder, a threshold and an adjudicator.

    ``Matcher()`` is the offline default: the hashing embedder at its calibrated threshold and the
    rule-based clinical adjudicator. ``embedder`` and ``adjudicator`` override the config's names with
    ready objects (a shared embedder keeps one cache for many matchers).
    """

    def __init__(
        self,
        config: MatcherConfig | None = None,
        *,
        embedder: Embedder | None = None,
        adjudicator: Adjudicator | None = None,
        reader: EntailmentReader | None = None,
    ):
        self.config = config or MatcherConfig()
        self.reader = (reader or default_reader()) if self.config.reader else None
        self.embedder = embedder or make_embedder(self.config.embedder)
        if adjudicator is None:
            phrase = self.config.phrase_threshold
            if phrase == "calibrated":
                phrase = calibrated_phrase_threshold(self.embedder.name)
            share = (
                calibrated_min_share(self.embedder.name)
                if self.config.phrase_threshold == "calibrated"
                else None
            )
            shares = {"min_share": share} if share is not None else {}
            without = (
                calibrated_min_share_without_concept(self.embedder.name)
                if self.config.phrase_threshold == "calibrated"
                else None
            )
            if without is not None:
                shares["min_share_without_concept"] = without
            clinical = (
                ClinicalAdjudicator(phrase_embedder=self.embedder, phrase_threshold=float(phrase), **shares)
                if phrase is not None
                else ClinicalAdjudicator(**shares)
            )
            adjudicator = make_adjudicator(self.config.adjudicator, self.config.llm, clinical)
        self.adjudicator = adjudicator
        self._checkpoint_sets: OrderedDict[tuple[str, ...], _CheckpointSet] = OrderedDict()  # parts
        self._whole_checkpoint_sets: OrderedDict[tuple[str, ...], _CheckpointSet] = OrderedDict()
        self._whole_checkpoint_set: _CheckpointSet | None = None
        self._vectors_kept: OrderedDict[tuple[str, ...], tuple[int, np.ndarray]] = OrderedDict()
        self._unit_rows: dict[tuple[int, str], np.ndarray] = {}
        self._parts_said: OrderedDict[tuple[str, str], bool] = OrderedDict()
        self._judging_part = False
        if self.config.threshold == "calibrated":
            self.threshold = calibrated_threshold(self.embedder.name)
        else:
            self.threshold = float(self.config.threshold)
        if self.config.max_adjudicated_units is not None:
            self.max_adjudicated_units: int | None = self.config.max_adjudicated_units
        elif self.adjudicator is None or self.adjudicator.name == "clinical":
            self.max_adjudicated_units = None
        else:
            self.max_adjudicated_units = 3

    def _shape_clash(self, checkpoint: str, unit: str) -> str | None:
        """Why the shape of ``unit`` cannot entail ``checkpoint``: :func:`~.structure.structural_clash`, then
        :func:`~.structure.compound_clash` with this matcher's own decision on each part alone (a part is not
        split again)."""
        why = structural_clash(checkpoint, unit)
        if why is not None or self._judging_part or not self.config.compound:
            return why
        return compound_clash(checkpoint, unit, self._part_said)

    def _part_said(self, part: str, unit: str) -> bool:
        key = (part, unit)
        said = self._parts_said.get(key)
        if said is None:
            self._judging_part = True
            try:
                said = self.match([part], [unit])[0] is not None
            finally:
                self._judging_part = False
            self._parts_said[key] = said
            if len(self._parts_said) > 4096:
                self._parts_said.popitem(last=False)
        return said

    def __repr__(self) -> str:
        return (
            f"Matcher(embedder={self.embedder.name!r}, threshold={self.threshold:.3f}, "
            f"adjudicator={self.adjudicator.name if self.adjudicator else None!r}, "
            f"reader={'on' if self.reader is not None else 'off'})"
        )

    def prepare(self, checkpoints: Sequence[str], as_list: bool = True) -> None:
        """Encode and read checkpoint texts ahead of time (both cached), so later steps pay only for outputs.

        ``as_list``: the texts are also a list that :meth:`match` will meet as it is (a case's interview or
        note checkpoints), so the prefilter's reading of the list is made now, once per case; ``False`` for
        texts prepared together that are never matched together."""
        texts = list(checkpoints)
        self.embedder.encode(texts)
        if self.reader is not None:
            self.reader.encode(texts)
        for text in texts:
            read_statement(text)
        if as_list and texts and self._prefilters():
            self._checkpoint_set(tuple(texts))
        members = getattr(self.adjudicator, "members", (self.adjudicator,))
        for member in members:
            if isinstance(member, ClinicalAdjudicator):
                member.prepare(texts)

    def _prefilters(self) -> bool:
        """Whether :meth:`_candidates` reads the checkpoint list (see :class:`_CheckpointSet`)."""
        return isinstance(self.adjudicator, ClinicalAdjudicator) and self.max_adjudicated_units is None

    def _checkpoint_vectors(
        self, key: tuple[str, ...], checkpoint_set: _CheckpointSet | None = None
    ) -> np.ndarray:
        """``embedder.encode(key)``, kept for the last :data:`CHECKPOINT_VECTORS_KEPT` lists while the
        embedder's cache forgets no text (so the matrix holds exactly the vectors encode would copy).

        A part of a whole list (``checkpoint_set.whole``, the open checkpoints of an interview) takes its rows
        from the whole's kept matrix: they are the same cached vectors that encode would copy."""
        kept = self._vectors_kept
        forgotten = self.embedder.cache.forgotten
        entry = kept.get(key)
        if entry is not None and entry[0] == forgotten:
            kept.move_to_end(key)
            return entry[1]
        whole = checkpoint_set.whole if checkpoint_set is not None else None
        whole_entry = kept.get(whole.key) if whole is not None else None
        if whole_entry is not None and whole_entry[0] == forgotten:
            kept.move_to_end(whole.key)
            vectors = whole_entry[1][checkpoint_set.rows]
        else:
            vectors = self.embedder.encode(list(key))
        vectors.setflags(write=False)
        kept[key] = (forgotten, vectors)
        kept.move_to_end(key)
        if len(kept) > CHECKPOINT_VECTORS_KEPT:
            kept.popitem(last=False)
        return vectors

    def _candidates(
        self,
        checkpoint_set: _CheckpointSet | None,
        units: Sequence[str],
        o_read: Sequence[StatementReading],
        sims: np.ndarray,
        unit_vectors: np.ndarray,
    ) -> np.ndarray | None:
        """Which (checkpoint, unit) pairs could be accepted at all, as a boolean matrix; ``None`` when every
        pair must be checked (an adjudicator without :meth:`ClinicalAdjudicator.could_entail`, or one that
        sees only the most similar units). ``checkpoint_set``: the checkpoints read (when
        :meth:`_prefilters`); ``o_read``: the units' readings.

        A pair can be accepted when its cosine reaches the threshold, or when the clinical adjudicator
        would look at it: the two texts share a stem head or a concept, a concept of the checkpoint is said
        in other words (its phrasings' similarity reaches the phrase threshold), or the unit says a
        function is normal and the checkpoint denies a concept. Every other pair is refused by the
        adjudicator at once, so skipping it changes nothing; the matrices make the test one product
        instead of a Python loop over every pair.
        """
        adjudicator = self.adjudicator
        if adjudicator is None:
            return sims >= self.threshold
        if checkpoint_set is None:
            return None
        mask = sims >= self.threshold
        rows = self._unit_rows_of(checkpoint_set, units, o_read, unit_vectors)
        if checkpoint_set.whole is not None:
            rows = rows[checkpoint_set.rows]
        mask |= rows
        return mask

    def _unit_rows_of(
        self,
        checkpoint_set: _CheckpointSet,
        units: Sequence[str],
        o_read: Sequence[StatementReading],
        unit_vectors: np.ndarray,
    ) -> np.ndarray:
        """``(whole list's checkpoints, units)``: the prefilter's test of each pair of a unit and a checkpoint
        of the whole list ``checkpoint_set`` belongs to, leaving out the similarity (shared stem head or
        concept, a concept said in other words, a normal function against a denying checkpoint; see
        :meth:`_candidates`). Each test is a function of the two texts alone, so a unit's column is found
        once per whole list and kept (:data:`UNIT_ROWS_KEPT`): a reply met again with other checkpoints
        still open, or a note line met in another note, costs a look-up. The columns of a part of the list
        are the part's rows of the whole's."""
        whole = checkpoint_set.whole or checkpoint_set
        serial = whole.serial
        kept = self._unit_rows
        columns = [kept.get((serial, u)) for u in units]
        missing = [j for j, column in enumerate(columns) if column is None]
        if missing:
            fresh_units = [units[j] for j in missing]
            fresh_read = [o_read[j] for j in missing]
            fresh = _shared_features(whole, fresh_read)
            adjudicator = self.adjudicator
            if adjudicator.phrase_embedder is not None:
                vectors = unit_vectors[missing] if adjudicator.phrase_embedder is self.embedder else None
                fresh |= _phrasing_possible(adjudicator, whole, fresh_units, fresh_read, vectors)
            normal_units = [n for n, o in enumerate(fresh_read) if o.normal]
            if normal_units:
                fresh[np.ix_(whole.denying, normal_units)] = True
            for n, j in enumerate(missing):
                column = fresh[:, n].copy()
                column.setflags(write=False)
                columns[j] = column
                if len(kept) >= UNIT_ROWS_KEPT:
                    kept.pop(next(iter(kept)))
                kept[(serial, units[j])] = column
        return np.stack(columns, axis=1)

    def _checkpoint_set(self, key: tuple[str, ...]) -> _CheckpointSet:
        """The prefilter's reading of this checkpoint list: a whole list is read once and kept (the last
        :data:`WHOLE_CHECKPOINT_SETS_KEPT`); a part of the last whole list met (the open checkpoints of the
        interview going on) is read from it (:meth:`_CheckpointSet.subset`), the last
        :data:`CHECKPOINT_SETS_KEPT` parts kept."""
        wholes = self._whole_checkpoint_sets
        found = wholes.get(key)
        if found is not None:
            wholes.move_to_end(key)
            self._whole_checkpoint_set = found  # a new interview of its case: its parts come from it
            return found
        kept = self._checkpoint_sets
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return found
        whole = self._whole_checkpoint_set
        rows = [whole.row.get(t, -1) for t in key] if whole is not None else [-1]
        if -1 in rows:
            found = self._whole_checkpoint_set = wholes[key] = _CheckpointSet(key)
            if len(wholes) > WHOLE_CHECKPOINT_SETS_KEPT:
                wholes.popitem(last=False)
        else:  # part of the last whole list read (the open checkpoints of the same interview)
            found = kept[key] = whole.subset(rows, key)
            if len(kept) > CHECKPOINT_SETS_KEPT:
                kept.popitem(last=False)
        return found

    def judges_pairs_alone(self) -> bool:
        """Whether every pair is accepted or refused on its two texts alone, whatever else is in the call
        (no adjudicator, or the clinical adjudicator asked about every pair left): what ``match(groups=...)``
        needs."""
        return self.adjudicator is None or self._prefilters()

    def entails(self, checkpoint: str, output: str | Sequence[str]) -> bool:
        """Whether some unit (sentence) of ``output`` entails ``checkpoint``."""
        if not isinstance(checkpoint, str):
            raise TypeError(f"checkpoint must be str, got {type(checkpoint).__name__}")
        return self.match([checkpoint], output_units(output))[0] is not None

    def entails_unit(self, checkpoint: str, unit: str) -> bool:
        """Whether ``unit`` as a whole (not split) entails ``checkpoint``: what calibration measures."""
        return self.match([checkpoint], [unit])[0] is not None

    def coverage(self, checkpoints: Sequence[Any], output: str | Sequence[str]) -> CoverageResult:
        """Eq. 13: the share of ``checkpoints`` that some unit of ``output`` entails, and which unit."""
        ids, texts = checkpoint_texts(checkpoints)
        units = output_units(output)
        found = self.match(texts, units, ids)
        matched = {m.checkpoint_id: m for m in found if m is not None}
        score = len(matched) / len(ids) if ids else 0.0
        return CoverageResult(score, MappingProxyType(matched), ids, units)

    def match(
        self,
        checkpoints: Sequence[str],
        units: Sequence[str],
        ids: Sequence[str] | None = None,
        unit_offset: int = 0,
        groups: Sequence[int] | None = None,
    ) -> list[CheckpointMatch | None]:
        """For each checkpoint text, the best entailing unit (highest similarity) or ``None``.

        Each text is encoded once (and cached). Every pair passes :func:`statement_conflict`; pairs at or
        above the threshold are accepted; for each checkpoint left, its most similar units go to the
        adjudicator in one batch. ``unit_offset`` is added to unit indices (incremental coverage).

        ``groups``: for each unit, the output it belongs to (a number that never decreases along
        ``units``: the replies of an interview, in order). A checkpoint's match is then the most similar
        entailing unit of the first group that has one: what matching the groups one after another finds,
        each against the checkpoints the groups before it left open, in one call. Every pair is judged on
        its own texts, so the answers are the same; only for the clinical adjudicator (or none) with no
        limit on the units adjudicated (:meth:`judges_pairs_alone`), else a ``ValueError``.
        """
        ids = list(ids) if ids is not None else [str(i) for i in range(len(checkpoints))]
        out: list[CheckpointMatch | None] = [None] * len(checkpoints)
        if groups is not None:
            if not self.judges_pairs_alone():
                raise ValueError(
                    "match(groups=...) needs a matcher that judges each pair alone (the clinical adjudicator "
                    "or none, max_adjudicated_units None); match the groups one by one instead"
                )
            if len(groups) != len(units):
                raise ValueError(f"groups has {len(groups)} entries for {len(units)} units")
        if not checkpoints or not units:
            return out
        key = tuple(checkpoints)
        checkpoint_set = self._checkpoint_set(key) if self._prefilters() else None
        unit_vectors = self.embedder.encode(list(units))
        sims = self._checkpoint_vectors(key, checkpoint_set) @ unit_vectors.T
        o_read = [read_statement(u) for u in units]
        candidates = self._candidates(checkpoint_set, units, o_read, sims, unit_vectors)
        # A unit without a content word or a concept ("No.", "Nothing like that.") says nothing of its own:
        # it entails no checkpoint (what it denies lies in the question, which the matcher does not see).
        silent = [j for j, r in enumerate(o_read) if _says_nothing(r)]
        if silent:
            if candidates is None:
                candidates = np.ones(sims.shape, dtype=bool)
            candidates[:, silent] = False
        pending: list[tuple[int, int]] = []
        # The clinical adjudicator is a cheap function of the two texts: ask it unit by unit, in order of
        # similarity, and stop at the first it accepts (the batch below is for judges that want one call).
        clinical = self.adjudicator if isinstance(self.adjudicator, ClinicalAdjudicator) else None
        if self.max_adjudicated_units is not None:
            clinical = None
        # Each row's units in order of similarity (a stable sort: ties by unit order; a float32 sorts as the
        # float it converts to); with candidates, only the pairs that could be accepted, and only the
        # checkpoints that have one. The threshold is compared in float32, as sims[i, j] < threshold is.
        # (flat lists: one object each for the collector, however many checkpoints)
        n = len(units)
        similarity = sims.ravel().tolist()
        under = (sims < self.threshold).ravel().tolist()
        if candidates is None:
            rows: Sequence[int] = range(len(checkpoints))
            worth = None
        else:
            rows = np.flatnonzero(candidates.any(axis=1)).tolist()
            worth = candidates.ravel().tolist()
        for i in rows:
            cp = checkpoints[i]
            first = i * n
            order = list(range(n)) if worth is None else [j for j in range(n) if worth[first + j]]
            sims_i = similarity[first : first + n]
            if len(order) > 1:
                if groups is None:
                    order.sort(key=lambda j: -sims_i[j])
                else:  # group by group, each in order of similarity
                    order.sort(key=lambda j: (groups[j], -sims_i[j]))
            under_i = under[first : first + n]
            below: list[int] = []
            for j in order:
                if clinical is not None and under_i[j]:
                    # below the threshold the adjudicator decides, the check included
                    if clinical.entailed(cp, units[j]) and self._shape_clash(cp, units[j]) is None:
                        out[i] = CheckpointMatch(
                            ids[i], cp, j + unit_offset, units[j], sims_i[j], clinical.name
                        )
                        break
                    continue
                if statement_conflict(cp, units[j]) is not None:
                    continue
                if not under_i[j]:
                    if self._shape_clash(cp, units[j]) is not None:
                        continue
                    out[i] = CheckpointMatch(ids[i], cp, j + unit_offset, units[j], sims_i[j], "embedder")
                    break
                below.append(j)
            if out[i] is None and self.adjudicator is not None:
                limit = self.max_adjudicated_units
                pending.extend((i, j) for j in (below if limit is None else below[:limit]))
        if pending:
            verdicts = self.adjudicator.judge_many([(checkpoints[i], units[j]) for i, j in pending])
            for (i, j), verdict in zip(pending, verdicts):
                if verdict and out[i] is None and self._shape_clash(checkpoints[i], units[j]) is None:
                    # pending is in order of similarity per checkpoint
                    out[i] = CheckpointMatch(
                        ids[i],
                        checkpoints[i],
                        j + unit_offset,
                        units[j],
                        float(sims[i, j]),
                        self.adjudicator.name,
                    )
        if self.reader is not None:
            self._read_meaning(checkpoints, units, ids, o_read, sims, out, unit_offset, groups)
        return out

    def _read_meaning(
        self,
        checkpoints: Sequence[str],
        units: Sequence[str],
        ids: Sequence[str],
        o_read: Sequence[StatementReading],
        sims: np.ndarray,
        out: list[CheckpointMatch | None],
        unit_offset: int,
        groups: Sequence[int] | None,
    ) -> None:
        """The learned reader's pass (see :mod:`.reader`): for each checkpoint, the units the rules did not
        credit that the reader scores at or above its threshold, in order of score, and the first of them that
        passes :func:`statement_conflict` (the vetoes stay hard gates; the word-level vote of shared words,
        :data:`~.adjudication.SHARED_NEGATION`, yields where the parse reads both statements denied or said alike,
        :func:`~.adjudication.same_clause_polarity`) and :func:`~.adjudication.direction_clash` (the reader reads
        what a pair is about, not which way it points) is its match, ``decided_by`` ``"reader"``.

        A checkpoint the rules matched is looked at only in the groups before its match's (``groups``: what
        matching the groups one by one finds, where a group's reader match comes before a later group's rule
        match, and a group's rule match before its reader match)."""
        reader = self.reader
        n = len(units)
        spoken = [j for j in range(n) if _reader_reads(o_read[j])]
        if not spoken:
            return
        if groups is None:
            rows = [i for i in range(len(checkpoints)) if out[i] is None]
        else:
            rows = [
                i
                for i in range(len(checkpoints))
                if out[i] is None or groups[out[i].unit_index - unit_offset] > groups[spoken[0]]
            ]
        if not rows:
            return
        scores = reader.scores(
            reader.encode([checkpoints[i] for i in rows]), reader.encode([units[j] for j in spoken])
        )
        threshold = reader.threshold
        for row, i in enumerate(rows):
            above = np.flatnonzero(scores[row] >= threshold)
            if not len(above):
                continue
            found = out[i]
            limit = None if found is None or groups is None else groups[found.unit_index - unit_offset]
            order = [spoken[k] for k in above.tolist()]
            by_unit = dict(zip(order, scores[row][above].tolist()))
            if limit is not None:
                order = [j for j in order if groups[j] < limit]
            if groups is None:
                order.sort(key=lambda j: -by_unit[j])
            else:
                order.sort(key=lambda j: (groups[j], -by_unit[j]))
            cp = checkpoints[i]
            for j in order:
                conflict = statement_conflict(cp, units[j])
                if conflict == SHARED_NEGATION and same_clause_polarity(cp, units[j]):
                    # the word-level vote of shared words yields to the parse's reading of what is denied
                    conflict = None
                if (
                    conflict is None
                    and direction_clash(cp, units[j]) is None
                    and self._shape_clash(cp, units[j]) is None
                ):
                    out[i] = CheckpointMatch(ids[i], cp, j + unit_offset, units[j], float(sims[i, j]), "reader")
                    break
