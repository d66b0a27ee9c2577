"""Understand: a doctor's utterance becomes the interview topics it asks about.

The first room of the patient. ``understand(utterance, context=None)`` returns an
:class:`Understanding`: the topics asked (multi-label, ids of the interview taxonomy in
``data/taxonomy.json``), the relative asked about when the question is about a relative's history,
and how many separate questions the utterance holds. A follow-up without a topic of its own ("And
how long has that been going on?") takes the topics of ``context`` (the doctor's previous turn).

The same taxonomy tags a record sentence with its topics (:func:`record_topics`), so that what is
asked and what is remembered meet on the same ids. Cue phrases are matched on word stems
(:func:`mentalhospital_env.knowledge.language.stems`); nothing here needs a model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from mentalhospital_env.knowledge.language import memo_size, stems_of

__all__ = [
    "Taxonomy",
    "TopicDef",
    "Understanding",
    "load_taxonomy",
    "record_topics",
    "understand",
]


class Cues:
    """Stemmed cue phrases indexed by first stem, so a text is scanned once."""

    __slots__ = ("_by_first",)

    def __init__(self, phrases: Iterable[str]):
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for p in sorted({tuple(stems_of(p)) for p in phrases if p.strip()}, key=len, reverse=True):
            if p:
                by_first.setdefault(p[0], []).append(p)
        self._by_first = by_first

    def spans(self, stemmed: Sequence[str]) -> list[tuple[int, int]]:
        out = []
        n = len(stemmed)
        for i in range(n):
            for p in self._by_first.get(stemmed[i], ()):
                k = len(p)
                if i + k <= n and (k == 1 or tuple(stemmed[i : i + k]) == p):
                    out.append((i, i + k))
                    break
        return out

    def found(self, stemmed: Sequence[str]) -> bool:
        return bool(self.spans(stemmed))


@dataclass(frozen=True)
class TopicDef:
    """One topic of the taxonomy (see ``data/taxonomy.json``)."""

    id: str
    kind: str  # presentation, symptom, substance, history, meta
    sections: tuple[str, ...]
    related: tuple[str, ...]
    sensitive: bool
    closed_if_section: str | None = None


@dataclass(frozen=True)
class Taxonomy:
    topics: tuple[TopicDef, ...]
    by_id: dict[str, TopicDef]
    relatives: tuple[tuple[str, Cues], ...]
    history_cues: Cues
    follow_up: Cues
    open_cues: Cues
    home_sections: dict[str, tuple[str, ...]]
    question_index: dict[str, tuple[tuple[tuple[str, ...], str], ...]]
    record_index: dict[str, tuple[tuple[tuple[str, ...], str], ...]]
    voiced_sections: frozenset[str]
    follow_up_adds: tuple[tuple[Cues, tuple[str, ...]], ...]

    def kind(self, topic_id: str) -> str:
        return self.by_id[topic_id].kind


def _index(pairs) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """Cue phrases of every topic, stemmed, indexed by first stem (longest first): one scan finds all."""
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, topic in {(tuple(stems_of(p)), t) for p, t in pairs if p.strip()}:
        if phrase:
            by_first.setdefault(phrase[0], []).append((phrase, topic))
    return {k: tuple(sorted(v, key=lambda pt: (-len(pt[0]), pt[1]))) for k, v in by_first.items()}


def _scan(stemmed: Sequence[str], index) -> list[str]:
    """Topics whose cue phrases occur in ``stemmed``, in order of first occurrence."""
    first: dict[str, int] = {}
    n = len(stemmed)
    for i in range(n):
        for phrase, topic in index.get(stemmed[i], ()):
            k = len(phrase)
            if topic not in first and i + k <= n and (k == 1 or tuple(stemmed[i : i + k]) == phrase):
                first[topic] = i
    return sorted(first, key=lambda t: (first[t], t))


@lru_cache(maxsize=1)
def load_taxonomy() -> Taxonomy:
    """The interview topic taxonomy and its cue phrases (``data/taxonomy.json``), stemmed once."""
    raw = json.loads(resources.files(__package__).joinpath("data/taxonomy.json").read_text("utf-8"))
    topics = [
        TopicDef(
            id=t["id"],
            kind=t["kind"],
            sections=tuple(t.get("sections", ())),
            related=tuple(t.get("related", ())),
            sensitive=bool(t.get("sensitive", False)),
            closed_if_section=t.get("closed_if_section"),
        )
        for t in raw["topics"]
    ]
    follow = raw["follow_up"]
    question_index = _index((p, t["id"]) for t in raw["topics"] for p in t["cues"])
    record_index = _index(
        (p, t["id"])
        for t in raw["topics"]
        for p in (t.get("record_cues") or ([] if t.get("record_only") else t["cues"]))
    )
    return Taxonomy(
        question_index=question_index,
        record_index=record_index,
        topics=tuple(topics),
        by_id={t.id: t for t in topics},
        relatives=tuple((name, Cues(words)) for name, words in raw["relatives"].items()),
        history_cues=Cues(raw["history_cues"]),
        follow_up=Cues(follow["cues"]),
        open_cues=Cues(raw.get("open_cues", ())),
        home_sections={k: tuple(v) for k, v in raw.get("home_sections", {}).items()},
        voiced_sections=frozenset(raw.get("voiced_sections", ())),
        follow_up_adds=tuple((Cues([k]), tuple(v)) for k, v in follow["adds"].items()),
    )


@dataclass(frozen=True)
class Understanding:
    """What a doctor's utterance asks.

    ``topics``: taxonomy ids, in the order they occur in the utterance; ``relative``: the relative
    whose history is asked about (``mother``, ``father``, ``sibling``, ``child``, ``partner``,
    ``grandparent``, ``other``) or ``None``; ``questions``: how many separate questions the
    utterance holds (question marks, or "and"-joined asks); ``follow_up``: the topics came from the
    context.
    """

    text: str
    topics: tuple[str, ...]
    relative: str | None = None
    questions: int = 1
    follow_up: bool = False
    open: bool = False

    @property
    def small_talk(self) -> str | None:
        if self.topics and all(t in ("greeting", "closing", "rapport") for t in self.topics):
            return next(t for t in self.topics if t in ("greeting", "closing")) if set(self.topics) & {
                "greeting",
                "closing",
            } else "rapport"
        return None


_QUESTION_SPLIT = re.compile(
    r"\?|(?:,|\band\b|\bor\b|\balso\b)\s+(?:and\s+)?(?=(?:do|does|did|are|is|have|has|any|what|how|when|where|who)\b)",
    re.I,
)


def understand(utterance: str, context: str | None = None) -> Understanding:
    """The topics ``utterance`` asks about; ``context`` is the doctor's previous turn, if any."""
    if not isinstance(utterance, str):
        raise TypeError(f"utterance must be a str, got {type(utterance).__name__}")
    if context and not load_taxonomy().follow_up.found(stems_of(asked_part(utterance[:2000]))):
        context = None  # not a follow-up: the context cannot change the reading (and the cache is shared)
    return _understand(utterance[:2000], context[:2000] if context else None)


_SENTENCES = re.compile(r"(?<=[.?!])\s+")
_RISK = ("suicide", "self_harm", "violence")


#: words by which a question points back at the sentence before it ("What happens for you at those times?")
_POINTS_BACK = re.compile(r"\b(at those times|at such times|at times like that|those times|that time|like that|when that happens|when it happens)\b", re.I)


def asked_part(utterance: str) -> str:
    """The part of an utterance that asks: its questions, with the sentence just before the first one
    (a validation or reflection before the question, "That sounds hard. How is your sleep?", asks
    nothing itself); the whole utterance when it has no question mark."""
    sentences = [s for s in _SENTENCES.split(utterance.strip()) if s]
    asks = [i for i, s in enumerate(sentences) if s.rstrip().endswith("?")]
    if not asks:
        return utterance
    return " ".join(sentences[i] for i in asks)


def _lead_in(utterance: str) -> str:
    sentences = [s for s in _SENTENCES.split(utterance.strip()) if s]
    asks = [i for i, s in enumerate(sentences) if s.rstrip().endswith("?")]
    return sentences[asks[0] - 1] if asks and asks[0] > 0 else ""


@lru_cache(maxsize=memo_size(8192))
def _understand(utterance: str, context: str | None) -> Understanding:
    tax = load_taxonomy()
    whole = stems_of(utterance)
    stemmed = stems_of(asked_part(utterance))
    found = _topics_in(stemmed, tax)
    asked = [t for t in found if tax.kind(t) != "meta"]
    if not asked or asked == ["chief_complaint"]:
        # "... thoughts that life is not worth living. What thoughts like that have you had?"; and a question
        # that reads as the open one only because it points back ("Sometimes people hurt themselves. What
        # happens for you at those times?"): the sentence before it says what is asked
        lead = _lead_in(utterance)
        lead_topics = [t for t in _topics_in(stems_of(lead), tax) if t != "chief_complaint"] if lead else []
        if asked:  # only a question that points back takes the sentence before it instead of the open topic
            points_back = _POINTS_BACK.search(asked_part(utterance))
            lead_topics = [t for t in lead_topics if tax.kind(t) != "meta"] if points_back else []
            if lead_topics:
                found = [t for t in found if t != "chief_complaint"]
        found += [t for t in lead_topics if t not in found]
    if any(t in found for t in _RISK):
        found = [t for t in found if t not in ("mood", "hopelessness", "worry")]
    if "greeting" in _topics_in(whole, tax) and "?" not in utterance:
        found = ["greeting"]  # "Good morning, I'm Dr Patel, one of the doctors here."
    elif "greeting" in _topics_in(whole, tax) and "greeting" not in found:
        found = ["greeting"] + found
    if not found:
        found = [t for t in _topics_in(whole, tax) if tax.kind(t) == "meta"]
    relative = None
    rel_hits = [(s, name) for name, cues in tax.relatives for s in cues.spans(stemmed)]
    family_asked = "family_history" in found
    if rel_hits:
        symptomish = any(tax.kind(t) in ("symptom", "substance") or t in ("past_psychiatric", "admissions", "medical_history") for t in found)
        if symptomish or tax.history_cues.found(stemmed) or family_asked:
            rel_hits.sort()
            relative = rel_hits[0][1]
            if relative != "partner" or family_asked:
                family_asked = True
    if family_asked:
        # a question about a relative's illness is family history, not the patient's own symptom
        found = ["family_history"] + [t for t in found if t in ("greeting", "closing", "rapport")]
        found = list(dict.fromkeys(found))
    if "allergies" in found and "medication" in found:
        found.remove("medication")  # "allergic to any medicines?" asks about allergies
    follow_up = False
    content = [t for t in found if t not in ("rapport",)]
    if context and tax.follow_up.found(stemmed) and (not content or set(content) <= {"onset", "course", "trigger", "functioning"}):
        before = _understand(context, None)
        inherited = [t for t in before.topics if tax.kind(t) != "meta"]
        if inherited:
            follow_up = True
            adds = [t for cues, ts in tax.follow_up_adds if cues.found(stemmed) for t in ts]
            found = list(dict.fromkeys(inherited + content + adds))
            relative = relative or before.relative
    questions = max(1, sum(1 for part in _QUESTION_SPLIT.split(utterance) if stems_of(part)))
    return Understanding(utterance, tuple(found), relative, questions, follow_up, tax.open_cues.found(stemmed))


def _topics_in(stemmed: Sequence[str], tax: Taxonomy) -> list[str]:
    order = {t.id: i for i, t in enumerate(tax.topics)}
    found = _scan(stemmed, tax.question_index)
    return found if len(found) < 2 else sorted(found, key=lambda t: (found.index(t), order[t]))


@lru_cache(maxsize=memo_size(65536))
def record_topics(section: str, text: str) -> tuple[str, ...]:
    """The topics a record sentence belongs to: those of its section, and those its words name."""
    tax = load_taxonomy()
    stemmed = stems_of(text)
    out = [t.id for t in tax.topics if section in t.sections]
    if section in ("family_history", "allergies"):
        return tuple(out)  # "No known drug allergies" is about allergies, not drugs
    order = {t.id: i for i, t in enumerate(tax.topics)}
    out += sorted((t for t in _scan(stemmed, tax.record_index) if t not in out), key=order.__getitem__)
    return tuple(out)
