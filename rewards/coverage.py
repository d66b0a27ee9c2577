"""Stage coverage, the study's Eq. 13, per stage: interview, exams, note.

``Coverage = (1/|K|) * sum over checkpoints k of 1[k is entailed by the output]``, with the
chief-complaint / mental-status breakdown of the study's Table 3 (and a share for every checkpoint
group the case has: ``chief_complaint``, ``mental_status``, ``history``, ``risk``, ``other``).

* Interview: the output is the patient's replies. :class:`InterviewCoverage` updates incrementally:
  each reply is checked against the checkpoints still uncovered only, so a step's cost does not grow
  with the transcript; the result equals batch coverage of all replies at once. An episode's replies
  scored together (rewards paid at its end, a recorded chart) go to the matcher in one call, grouped by
  reply, with the same result as one by one.
* Note: the note's sentences against the note checkpoints (:func:`note_coverage`).
* Exams: the indicated exams against the names the doctor ordered, aliases resolved through the
  knowledge base (:func:`exam_coverage`).

The ``chart_*`` helpers take ``(case, chart)`` as every scorer does.

Every ``Matcher.match`` call made here goes through :class:`MatchMemory`: a bounded memory of the
matcher's answers keyed on the call's whole input (the matcher, the checkpoint texts and ids, the
units), so a reply or a note met again with the same open checkpoints (the same case visited again,
an episode replayed, a chart scored twice) costs a dictionary look-up. The key holds every input the
answer depends on and nothing is assumed about the matching rules, so the answers are the matcher's
own, bit for bit (the memory is used only for matchers whose answers are a pure function of their
input: the clinical adjudicator or none).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mentalhospital_env.knowledge.language import memo_size
from mentalhospital_env.knowledge.persons import Persons, case_persons
from mentalhospital_env.cases.model import CHECKPOINT_GROUPS, Case, Checkpoint

from .adjudication import ClinicalAdjudicator
from .matching import CheckpointMatch, CoverageResult, Matcher, output_units

if TYPE_CHECKING:
    from .chart import Chart

STAGES: tuple[str, ...] = ("interview", "exam", "note")


@dataclass(frozen=True)
class StageCoverage:
    """Coverage of one stage: the score, what was covered by what, and the share per checkpoint group."""

    stage: str
    score: float
    checkpoints: tuple[Checkpoint, ...]
    matched: Mapping[str, CheckpointMatch] = field(default_factory=dict)

    @property
    def covered_ids(self) -> frozenset[str]:
        return frozenset(self.matched)

    def breakdown(self) -> dict[str, float]:
        """Share covered per checkpoint group present in the case (``chief_complaint``, ``mental_status`` ...)."""
        return group_shares(self.checkpoints, self.covered_ids)


def group_shares(checkpoints: Sequence[Checkpoint], covered: Iterable[str]) -> dict[str, float]:
    """Covered share of each group that has checkpoints, in the order of ``CHECKPOINT_GROUPS``."""
    covered = set(covered)
    out: dict[str, float] = {}
    for group in CHECKPOINT_GROUPS:
        members = [c for c in checkpoints if c.group == group]
        if members:
            out[group] = sum(c.id in covered for c in members) / len(members)
    return out


# --- remembered matcher answers ----------------------------------------------------------------------

MatchKey = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[int, ...] | None]

MATCH_MEMORY_SIZE = memo_size(1024)
"""Matcher answers a :class:`MatchMemory` keeps per matcher (scaled by ``MENTALHOSPITAL_MEMO_SCALE``). An
answer is a whole call (every open checkpoint against every unit of a reply, or of an episode's replies
when rewards are paid at the end), 2.4 kB of its own (measured with tracemalloc on the dev suite, rewards
at the end) besides the reply units it keeps alive, and a training run seldom makes the same call twice:
1.5% of the calls of 300 episodes with dense rewards on the dev suite whether 20,000 or 4,096 were kept,
1.3% with 256, none with rewards at the end (every episode's replies are new). 1,024 keep what an episode
and its replays ask again; the former 20,000 filled over 200,000 steps, adding some 2.4 MB per 10,000
steps of a long run all the while."""


class MatchMemory:
    """A bounded least-recently-used memory of ``Matcher.match`` answers, one per matcher.

    The key is the call's whole input: the checkpoint texts, their ids, the units and their groups
    (``unit_offset`` is applied to the remembered answer, as ``match`` documents: it is only added to
    unit indices).
    Matchers whose answers may change between two identical calls (an LLM adjudicator) are never
    remembered: their calls go to the matcher every time. ``max_entries`` bounds each matcher's memory
    (default :data:`MATCH_MEMORY_SIZE`).
    """

    def __init__(self, max_entries: int | None = None):
        max_entries = MATCH_MEMORY_SIZE if max_entries is None else max_entries
        if max_entries < 1:
            raise ValueError(f"MatchMemory max_entries must be at least 1, got {max_entries}")
        self.max_entries = max_entries
        self._answers: weakref.WeakKeyDictionary[Any, OrderedDict[MatchKey, tuple]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def remembers(matcher: Any) -> bool:
        """Whether ``matcher``'s answers are a pure function of its input (so they may be remembered)."""
        adjudicator = getattr(matcher, "adjudicator", None)
        return type(matcher) is Matcher and (adjudicator is None or type(adjudicator) is ClinicalAdjudicator)

    def __len__(self) -> int:
        return sum(len(m) for m in list(self._answers.values()))

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()
            self.hits = self.misses = 0

    def match(
        self,
        matcher: Matcher,
        checkpoints: Sequence[str],
        units: Sequence[str],
        ids: Sequence[str] | None = None,
        unit_offset: int = 0,
        groups: Sequence[int] | None = None,
    ) -> list[CheckpointMatch | None]:
        """``matcher.match(checkpoints, units, ids, unit_offset, groups)``, remembered."""
        if not self.remembers(matcher):
            return matcher.match(checkpoints, units, ids, unit_offset=unit_offset, groups=groups)
        texts, unit_texts = tuple(checkpoints), tuple(units)
        id_texts = tuple(ids) if ids is not None else tuple(str(i) for i in range(len(texts)))
        unit_groups = tuple(groups) if groups is not None else None
        key = (texts, id_texts, unit_texts, unit_groups)
        with self._lock:
            answers = self._answers.get(matcher)
            if answers is None:
                answers = self._answers[matcher] = OrderedDict()
            found = answers.get(key)
            if found is not None:
                answers.move_to_end(key)
                self.hits += 1
        if found is None:
            found = tuple(matcher.match(list(texts), list(unit_texts), list(id_texts), groups=unit_groups))
            with self._lock:
                self.misses += 1
                answers[key] = found
                while len(answers) > self.max_entries:
                    answers.popitem(last=False)
        if unit_offset:
            return [None if m is None else _shifted(m, unit_offset) for m in found]
        return list(found)

    def coverage(self, matcher: Matcher, checkpoints: Sequence[Any], output: str | Sequence[str]) -> CoverageResult:
        """``matcher.coverage(checkpoints, output)`` with its ``match`` call remembered."""
        if not self.remembers(matcher):
            return matcher.coverage(checkpoints, output)
        return Matcher.coverage(_Remembering(matcher, self), checkpoints, output)  # type: ignore[arg-type]


def _shifted(m: CheckpointMatch, offset: int) -> CheckpointMatch:
    """``replace(m, unit_index=m.unit_index + offset)``, built directly (``replace`` reads the fields each call)."""
    return CheckpointMatch(
        m.checkpoint_id, m.checkpoint, m.unit_index + offset, m.unit, m.similarity, m.decided_by
    )


class _Remembering:
    """A matcher seen through a :class:`MatchMemory`: ``match`` is remembered, everything else is the matcher's."""

    def __init__(self, matcher: Matcher, memory: MatchMemory):
        self._matcher = matcher
        self._memory = memory

    def match(
        self,
        checkpoints: Sequence[str],
        units: Sequence[str],
        ids: Sequence[str] | None = None,
        unit_offset: int = 0,
        groups: Sequence[int] | None = None,
    ) -> list[CheckpointMatch | None]:
        return self._memory.match(self._matcher, checkpoints, units, ids, unit_offset, groups)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._matcher, name)


MATCH_MEMORY = MatchMemory()
"""The process's memory of matcher answers, shared by every coverage computed here."""


_UNREAD = object()


def _check_reply(reply: Any) -> None:
    if not isinstance(reply, str):
        raise TypeError(f"patient reply must be str, got {type(reply).__name__}")


@lru_cache(maxsize=memo_size(8192))
def _reply_units(reply: str) -> tuple[str, ...]:
    """``output_units(reply)``, remembered by text (a reply is split once however often it is scored)."""
    return output_units(reply)


def _persons_of(case: Any) -> Persons:
    """The persons ``case``'s record names (parsed once per case; none for an object without a record)."""
    if getattr(case, "ehr", None) is None or getattr(case, "demographics", None) is None:
        return Persons()
    return case_persons(case)


def informant_relation_of(case: Any) -> str | None:
    """The relation to the patient of the informant the environment gives ``case`` ("mother", "wife"; see
    :func:`~mentalhospital_env.patient.informant.informant_for`), as the voice table names it; ``None`` when nobody
    comes or the relation is not one it knows (the informant is then read as "my relative")."""
    if getattr(case, "demographics", None) is None or getattr(case, "effective_persona", None) is None:
        return None
    from mentalhospital_env.knowledge.voice import informant_relation
    from mentalhospital_env.patient.informant import informant_for

    informant = informant_for(case)
    return informant_relation(informant.relation) if informant is not None else None


def _check_speaker(speaker: Any) -> None:
    if speaker not in ("patient", "informant"):
        raise ValueError(f"speaker must be 'patient' or 'informant', got {speaker!r}")


def _read_checkpoints(persons: Persons, checkpoints: Sequence[Checkpoint]) -> tuple[Checkpoint, ...]:
    """The checkpoints with each named person's role in the name's place (the same objects when none is named)."""
    if not persons:
        return tuple(checkpoints)
    return tuple(
        c if (read := persons.read(c.text)) == c.text else replace(c, text=read) for c in checkpoints
    )


def _restored(
    matched: Mapping[str, CheckpointMatch], checkpoints: Sequence[Checkpoint], units: Sequence[str], offset: int = 0
) -> dict[str, CheckpointMatch]:
    """Matches with the record's own checkpoint texts and the output's own units (read ones were matched)."""
    texts = {c.id: c.text for c in checkpoints}
    out = {}
    for cid, m in matched.items():
        i = m.unit_index - offset
        unit = units[i] if 0 <= i < len(units) else m.unit
        text = texts.get(cid, m.checkpoint)
        out[cid] = m if (unit, text) == (m.unit, m.checkpoint) else replace(m, checkpoint=text, unit=unit)
    return out


class InterviewCoverage:
    """Incremental interview coverage of one case: feed the patient's replies one by one.

    ``update(reply)`` returns the ids newly covered by that reply; ``score`` and ``breakdown()`` give
    the state so far. :meth:`update_many` takes several replies in one matcher call (an episode's replies
    scored at its end) with the same result as updating them one by one. Checkpoint embeddings are
    computed once, at construction; :meth:`reset` starts a new encounter of the same case without
    preparing them again.
    """

    stage = "interview"

    def __init__(
        self, case: Case, matcher: Matcher | None = None, checkpoints: Sequence[Checkpoint] | None = None
    ):
        self.case = case
        self.matcher = matcher or default_matcher()
        self.checkpoints: tuple[Checkpoint, ...] = tuple(
            checkpoints if checkpoints is not None else case.checkpoints.interview
        )
        # a person the record names is read as their role ("Rachel had panic attacks": her mother), once per case
        self._persons = _persons_of(case)
        read = _read_checkpoints(self._persons, self.checkpoints)
        self.matcher.prepare([c.text for c in read])  # checkpoint embeddings and readings, once
        self._texts = tuple(c.text for c in read)
        self._originals = {c.id: c.text for c in self.checkpoints}
        self._ids = tuple(c.id for c in self.checkpoints)
        self._relation: Any = _UNREAD  # the informant's relation, read at the first reply an informant gives
        self.reset()

    def reset(self) -> None:
        """Forget every reply (a new encounter of the same case); the prepared checkpoints stay."""
        self._matched: dict[str, CheckpointMatch] = {}
        self._units = 0
        self.replies = 0

    def update(self, patient_reply: str, speaker: str = "patient") -> tuple[str, ...]:
        """Check one reply against the still-uncovered checkpoints; the ids it newly covers, in checkpoint order.
        ``speaker``: ``"informant"`` when the relative or carer present answered (the reply is read in the
        patient's frame: :meth:`~mentalhospital_env.knowledge.persons.Persons.read`)."""
        _check_reply(patient_reply)
        _check_speaker(speaker)
        self.replies += 1
        said = _reply_units(patient_reply)
        if not said:
            return ()
        units = self._read_units(said, speaker)
        texts, ids = self._open_checkpoints()
        found = MATCH_MEMORY.match(self.matcher, texts, units, ids, unit_offset=self._units)
        start = self._units
        self._units += len(units)
        new = tuple(m.checkpoint_id for m in found if m is not None)
        for m in found:
            if m is not None:
                self._matched[m.checkpoint_id] = self._restore(m, said[m.unit_index - start])
        return new

    def _read_units(self, units: tuple[str, ...], speaker: str = "patient") -> tuple[str, ...]:
        persons = self._persons
        if speaker == "informant":
            if self._relation is _UNREAD:
                self._relation = informant_relation_of(self.case)
            return tuple(persons.read(u, "informant", self._relation) for u in units)
        return tuple(persons.read(u) for u in units) if persons else units

    def _restore(self, m: CheckpointMatch, unit: str) -> CheckpointMatch:
        text = self._originals.get(m.checkpoint_id, m.checkpoint)
        return m if (text, unit) == (m.checkpoint, m.unit) else replace(m, checkpoint=text, unit=unit)

    def update_many(
        self, patient_replies: Sequence[str], speakers: Sequence[str] | None = None
    ) -> list[tuple[str, ...]]:
        """Several replies in order, as :meth:`update` one by one would take them (the same matches, the
        ids each newly covers), in one matcher call when the matcher judges each pair alone
        (``Matcher.match(groups=...)``): a call's fixed cost is paid once, not once a reply. ``speakers``:
        who answered each (see :meth:`update`); all the patient when not given."""
        replies = list(patient_replies)
        who = list(speakers) if speakers is not None else ["patient"] * len(replies)
        if len(who) != len(replies):
            raise ValueError(f"{len(who)} speakers for {len(replies)} replies")
        for reply, speaker in zip(replies, who):
            _check_reply(reply)
            _check_speaker(speaker)
        judges_alone = getattr(self.matcher, "judges_pairs_alone", None)
        if len(replies) < 2 or not (callable(judges_alone) and judges_alone()):
            return [self.update(reply, speaker) for reply, speaker in zip(replies, who)]
        units: list[str] = []
        spoken: list[str] = []
        groups: list[int] = []
        for r, reply in enumerate(replies):
            said = _reply_units(reply)
            spoken.extend(said)
            units.extend(self._read_units(said, who[r]))
            groups.extend([r] * len(said))
        self.replies += len(replies)
        newly: list[list[CheckpointMatch]] = [[] for _ in replies]
        if units:
            texts, ids = self._open_checkpoints()
            start = self._units
            found = MATCH_MEMORY.match(self.matcher, texts, units, ids, start, groups)
            self._units += len(units)
            for m in found:  # in checkpoint order, so each reply's list is too
                if m is not None:
                    newly[groups[m.unit_index - start]].append(self._restore(m, spoken[m.unit_index - start]))
        out = []
        for matches in newly:
            for m in matches:
                self._matched[m.checkpoint_id] = m
            out.append(tuple(m.checkpoint_id for m in matches))
        return out

    def _open_checkpoints(self) -> tuple[list[str], list[str]]:
        """The texts and ids of the checkpoints no reply has covered yet, in checkpoint order."""
        matched = self._matched
        if not matched:
            return list(self._texts), list(self._ids)
        open_ = [i for i, cid in enumerate(self._ids) if cid not in matched]
        return [self._texts[i] for i in open_], [self._ids[i] for i in open_]

    def extend(self, replies: Iterable[str], speakers: Sequence[str] | None = None) -> tuple[str, ...]:
        """Feed several replies; every id newly covered, in order."""
        return tuple(cid for new in self.update_many(list(replies), speakers) for cid in new)

    def share(self, covered: int) -> float:
        """The score with ``covered`` checkpoints covered (:attr:`score` is ``share(len(covered_ids))``)."""
        return covered / len(self.checkpoints) if self.checkpoints else 0.0

    @property
    def score(self) -> float:
        return self.share(len(self._matched))

    @property
    def covered_ids(self) -> frozenset[str]:
        return frozenset(self._matched)

    def breakdown(self) -> dict[str, float]:
        return group_shares(self.checkpoints, self._matched)

    def result(self) -> StageCoverage:
        return StageCoverage(self.stage, self.score, self.checkpoints, MappingProxyType(dict(self._matched)))


def note_coverage(
    case: Case, note: str | Sequence[str] | None, matcher: Matcher | None = None
) -> StageCoverage:
    """Coverage of the note checkpoints by the note's sentences (0 when no note was written)."""
    checkpoints = case.checkpoints.note
    if not note:
        return StageCoverage("note", 0.0, checkpoints, MappingProxyType({}))
    return _case_coverage("note", case, checkpoints, output_units(note), matcher)


def _case_coverage(
    stage: str,
    case: Case,
    checkpoints: Sequence[Checkpoint],
    units: Sequence[str],
    matcher: Matcher | None,
    speakers: Sequence[str] | None = None,
) -> StageCoverage:
    """Coverage of ``checkpoints`` by ``units`` with the case's named persons read as their roles (and a unit an
    informant said, ``speakers``, in the patient's frame)."""
    persons = _persons_of(case)
    informant = speakers is not None and "informant" in speakers
    if not persons and not informant:
        result = MATCH_MEMORY.coverage(matcher or default_matcher(), checkpoints, list(units))
        return StageCoverage(stage, result.score, checkpoints, result.matched)
    read = _read_checkpoints(persons, checkpoints)
    relation = informant_relation_of(case) if informant else None
    read_units = [
        persons.read(u, "informant", relation) if informant and speakers[i] == "informant" else persons.read(u)
        for i, u in enumerate(units)
    ]
    result = MATCH_MEMORY.coverage(matcher or default_matcher(), read, read_units)
    matched = _restored(result.matched, checkpoints, units)
    return StageCoverage(stage, result.score, checkpoints, MappingProxyType(matched))


def interview_coverage(
    case: Case, replies: Sequence[str], matcher: Matcher | None = None, speakers: Sequence[str] | None = None
) -> StageCoverage:
    """Batch interview coverage of all replies at once (equal to feeding them to :class:`InterviewCoverage`);
    ``speakers``: who answered each reply ("patient" or "informant"), all the patient when not given."""
    checkpoints = case.checkpoints.interview
    if speakers is not None and len(speakers) != len(replies):
        raise ValueError(f"{len(speakers)} speakers for {len(replies)} replies")
    units: list[str] = []
    unit_speakers: list[str] = []
    for i, reply in enumerate(replies):
        said = output_units(reply)
        units.extend(said)
        unit_speakers.extend([speakers[i] if speakers is not None else "patient"] * len(said))
    return _case_coverage("interview", case, checkpoints, units, matcher, unit_speakers if speakers is not None else None)


@dataclass(frozen=True)
class ExamCoverage:
    """Exam coverage: the share of indicated exams that the doctor ordered, and which names matched."""

    score: float
    indicated: tuple[str, ...]
    ordered: tuple[str, ...]
    matched: Mapping[str, str]  # indicated exam -> the ordered name that matched it

    @property
    def missed(self) -> tuple[str, ...]:
        return tuple(e for e in self.indicated if e not in self.matched)


@lru_cache(maxsize=memo_size(4096))
def exam_key(name: str) -> str:
    """The canonical key of an exam name: the knowledge base's exam when it resolves, else the folded name."""
    folded = " ".join(name.casefold().split())
    resolve = _exam_resolver()
    if resolve is not None:
        try:
            exam = resolve(name)
        except Exception:  # noqa: BLE001 - unknown name, or a knowledge base that fails to load: fall back to the name
            exam = None
        if exam is not None:
            return "kb:" + str(getattr(exam, "id", None) or getattr(exam, "name", exam)).casefold()
    return "name:" + folded


def _exam_resolver():
    """``knowledge.resolve_exam`` (or ``load_knowledge().resolve_exam``) when the knowledge base offers it."""
    from mentalhospital_env import knowledge

    resolve = getattr(knowledge, "resolve_exam", None)
    if resolve is not None:
        return resolve
    load = getattr(knowledge, "load_knowledge", None)
    if load is None:
        return None
    try:
        return load().resolve_exam
    except Exception:  # noqa: BLE001 - a knowledge base that fails to load leaves exact-name matching
        return None


def exam_coverage(case: Case, ordered_exam_names: Sequence[str] | None) -> ExamCoverage:
    """Eq. 13 for exams: indicated exams (``case.checkpoints.exam``) found among the ordered names.

    Names match through ``knowledge.resolve_exam`` (so ``PHQ9`` and ``Patient Health Questionnaire-9``
    are one exam) and otherwise case-insensitively. No indicated exams gives 0.0.
    """
    indicated = tuple(case.checkpoints.exam)
    ordered = tuple(ordered_exam_names or ())
    keys: dict[str, str] = {}
    for name in ordered:
        if not isinstance(name, str):
            raise TypeError(f"ordered exam names must be str, got {type(name).__name__}")
        keys.setdefault(exam_key(name), name)
    matched = {e: keys[exam_key(e)] for e in indicated if exam_key(e) in keys}
    score = len(matched) / len(indicated) if indicated else 0.0
    return ExamCoverage(score, indicated, ordered, MappingProxyType(matched))


# --- (case, chart) helpers for the scorers ---------------------------------------------------------

_DEFAULT: list[Matcher] = []


def default_matcher() -> Matcher:
    """One shared offline matcher (hashing embedder, calibrated threshold, clinical adjudicator)."""
    if not _DEFAULT:
        _DEFAULT.append(Matcher())
    return _DEFAULT[0]


def chart_interview_coverage(case: Case, chart: Chart, matcher: Matcher | None = None) -> StageCoverage:
    """Interview coverage of a chart: the patient's replies against the interview checkpoints."""
    return interview_coverage(case, chart.patient_replies, matcher, chart.speakers)


def chart_note_coverage(case: Case, chart: Chart, matcher: Matcher | None = None) -> StageCoverage:
    """Note coverage of a chart (0 when the note stage was skipped)."""
    return note_coverage(case, chart.note, matcher)


def chart_exam_coverage(case: Case, chart: Chart) -> ExamCoverage:
    """Exam coverage of a chart (0 when no exams were ordered)."""
    return exam_coverage(case, chart.exams)
