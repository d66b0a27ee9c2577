"""Derive facts and checkpoints from a narrative record, for cases that come without them.

A hand-written record rarely lists atomic facts; this module splits each section of the record into
sentences (one fact each, sensitive when it mentions a sensitive lexicon concept such as suicidal
thoughts, substance use, trauma or self-harm) and turns facts into reference checkpoints grouped as
CASES.md says:

* ``chief_complaint``: the chief complaint;
* ``mental_status``: the mental status examination;
* ``risk``: the risk assessment;
* ``history``: the history of present illness and the past psychiatric, medical, medication,
  substance, family and personal history;
* ``other``: allergies.

Interview checkpoints are what a patient can tell: every fact except the mental status domains a
clinician observes rather than asks about (appearance, behaviour, speech, affect, thought process).
Note checkpoints are every fact. Exam checkpoints are the names of the indicated exams.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)

from mentalhospital_env.knowledge.lexicon import has_sensitive_concept

from .model import EHR, Checkpoint, Checkpoints, ExamRecord, Fact, new_checkpoint

OBSERVED_MSE = frozenset(
    f"mental_status_exam.{k}" for k in ("appearance", "behavior", "speech", "affect", "thought_process")
)

# A sentence ends at . ! ? or ; followed by space and an upper-case letter, digit or quote.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9\"'(])")
_ABBREVIATIONS = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|vs|e\.g|i\.e|approx|etc|St)\.$", re.IGNORECASE)
# "No." abbreviates "number" only before one ("No. 5"); "No. I don't sleep." is two sentences
_NUMBER_ABBREVIATION = re.compile(r"\bno\.$", re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    """Split narrative text into sentences, keeping abbreviations such as ``Dr.`` and ``e.g.`` whole."""
    parts = _SENTENCE_END.split(text.strip())
    out: list[str] = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if out and (_ABBREVIATIONS.search(out[-1]) or (part[0].isdigit() and _NUMBER_ABBREVIATION.search(out[-1]))):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def section_group(section: str) -> str:
    """The checkpoint group of a fact's section."""
    if section == "chief_complaint":
        return "chief_complaint"
    if section.startswith("mental_status_exam"):
        return "mental_status"
    if section.startswith("risk_assessment"):
        return "risk"
    if section == "allergies":
        return "other"
    return "history"


_GROUP_CACHE: dict[str, str] = {}


def _group_of(section: str) -> str:
    group = _GROUP_CACHE.get(section)
    if group is None:
        group = _GROUP_CACHE[section] = section_group(section)
    return group


def derive_facts(ehr: EHR) -> tuple[Fact, ...]:
    """One fact per sentence of each section, ids ``<section>-<n>`` (e.g. ``mental_status_exam.mood-1``)."""
    facts: list[Fact] = []
    for section, text in ehr.sections():
        for n, sentence in enumerate(split_sentences(text), 1):
            sentence = sentence.rstrip(";")
            facts.append(Fact(f"{section}-{n}", section, sentence, None, has_sensitive_concept(sentence)))
    return tuple(facts)


class DerivedCheckpoints(Checkpoints):
    """Checkpoints derived from a case's facts and exams on first use.

    Loading a suite of thousands of cases derives nothing until a scorer asks; the result is then
    kept. It equals (``==``) the :class:`Checkpoints` that :func:`derive_checkpoints` returns.
    """

    def __init__(self, facts: tuple[Fact, ...], exams: tuple[ExamRecord, ...]):
        object.__setattr__(self, "_source", (facts, exams))

    def _derived(self) -> Checkpoints:
        state = self.__dict__
        derived = state.get("_value")
        if derived is None:
            derived = state["_value"] = derive_checkpoints(*state["_source"])
        return derived

    # the dataclass fields have class-level defaults, so they are overridden here as properties
    interview = property(lambda self: self._derived().interview)  # type: ignore[assignment]
    note = property(lambda self: self._derived().note)  # type: ignore[assignment]
    exam = property(lambda self: self._derived().exam)  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Checkpoints):
            return (self.interview, self.note, self.exam) == (other.interview, other.note, other.exam)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.interview, self.note, self.exam))

    def __repr__(self) -> str:
        return f"Checkpoints(interview={self.interview!r}, note={self.note!r}, exam={self.exam!r})"

    def __reduce__(self):
        return (Checkpoints, (self.interview, self.note, self.exam))


def derive_checkpoints(facts: tuple[Fact, ...], exams: tuple[ExamRecord, ...]) -> Checkpoints:
    """Interview and note checkpoints from facts (grouped by section) and exam checkpoints from indicated exams."""
    interview: list[Checkpoint] = []
    note: list[Checkpoint] = []
    observed = OBSERVED_MSE
    for f in facts:  # the hot path of loading a generated suite: checkpoints built directly
        section, text, fid = f.section, f.text, f.id
        group = _GROUP_CACHE.get(section) or _group_of(section)
        note.append(new_checkpoint("n-" + fid, text, group))
        if section not in observed:
            interview.append(new_checkpoint("i-" + fid, text, group))
    exam = tuple(e.name for e in exams if e.indicated)
    return Checkpoints(tuple(interview), tuple(note), exam)
