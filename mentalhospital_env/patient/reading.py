"""What the rooms of the patient share: the cue phrases, the reading of concepts in a text.

Not a room of its own: the vocabulary of the others (as spaCy's ``Vocab`` is to its pipeline
components). The memory cue phrases (``data/taxonomy.json``, ``data/guard.json``), the reading of a
text into lexicon concepts with polarity and subject (:func:`read_statements`), the topics of a
lexicon concept (:func:`concept_topics`), bag-of-stems cosines and a process-stable seed.
"""

from __future__ import annotations

import hashlib
import json
import math
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from mentalhospital_env.knowledge.language import clauses, find_phrases, load_cues, memo_size, stem, stems, tokenize
from mentalhospital_env.knowledge.lexicon import Lexicon, load_lexicon

from .understanding import CueSet, record_topics

CLOSED_WORLD_KINDS = frozenset({"symptom", "sign"})
FAMILY_SECTION = "family_history"

# Reply text is read one sentence at a time, so that a "No." never negates the next sentence.
_SENTENCE = re.compile(r"[.;!?\n]+")
_QUOTED = re.compile(r"['\"\u2018\u201c][^'\"\u2019\u201d]+['\"\u2019\u201d]")



# --------------------------------------------------------------------------------------------------
# Cue data
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Topic:
    """Something a doctor asks about that is not one lexicon concept: a record section or theme.

    ``cues`` are stemmed phrases that ask about it; ``sections`` the record sections it draws facts
    from; ``fact_cues`` (optional) narrow those to facts holding one of them; ``open`` topics
    ("what brings you in", "anything else?") let the patient volunteer undisclosed facts in the
    record's order; facts of the ``ungated`` sections are told in answer to this topic whatever the
    rapport (the chief complaint is why the patient came: even a guarded patient says it).
    """

    id: str
    cues: CueSet
    sections: tuple[str, ...]
    fact_cues: CueSet
    open: bool
    ungated: tuple[str, ...] = ()


@dataclass(frozen=True)
class InjectionCue:
    """A kind of request the patient must refuse (``diagnosis``, ``code``, ``record``, ``authority``, ``score``)."""

    kind: str
    cues: CueSet


@dataclass(frozen=True)
class MemoryCues:
    topics: tuple[Topic, ...]
    greeting: CueSet
    closing: CueSet
    observed_sections: frozenset[str]
    stopwords: frozenset[str]
    injections: tuple[InjectionCue, ...]
    code_pattern: re.Pattern[str]
    score_pattern: re.Pattern[str]
    concept_sections: Mapping[str, tuple[str, ...]]
    leak_replacement: str
    yes_no_openers: frozenset[str]


def _phrase_stems(phrases: Iterable[str]) -> CueSet:
    return CueSet(tuple(stems(p)) for p in phrases)


def _read_data(name: str) -> dict:
    return json.loads(resources.files(__package__).joinpath(f"data/{name}").read_text("utf-8"))


@lru_cache(maxsize=1)
def load_memory_cues() -> MemoryCues:
    """The memory skill's cue phrases (``data/taxonomy.json``, ``data/guard.json``), stemmed and cached."""
    topics_raw = _read_data("taxonomy.json")
    guard_raw = _read_data("guard.json")
    topics = tuple(
        Topic(
            id=t["id"],
            cues=_phrase_stems(t["cues"]),
            sections=tuple(t["sections"]),
            fact_cues=_phrase_stems(t.get("fact_cues", ())),
            open=bool(t.get("open", False)),
            ungated=tuple(t.get("ungated_sections", ())),
        )
        for t in topics_raw["topics"]
    )
    return MemoryCues(
        topics=topics,
        greeting=_phrase_stems(topics_raw["greeting_cues"]),
        closing=_phrase_stems(topics_raw["closing_cues"]),
        observed_sections=frozenset(topics_raw["observed_sections"]),
        stopwords=frozenset(stem(w) for w in topics_raw["stopwords"]),
        injections=tuple(InjectionCue(k, _phrase_stems(v)) for k, v in guard_raw["injection_cues"].items()),
        code_pattern=re.compile(guard_raw["code_pattern"]),
        score_pattern=re.compile(guard_raw["score_pattern"]),
        concept_sections={k: tuple(v) for k, v in guard_raw.get("concept_sections", {}).items()},
        leak_replacement=guard_raw["leak_replacement"],
        yes_no_openers=frozenset(topics_raw["yes_no_openers"]),
    )


def _spans(stemmed: Sequence[str], phrases: CueSet) -> list[tuple[int, int]]:
    """Token spans of ``stemmed`` where any of the cue ``phrases`` occurs."""
    return phrases.spans(stemmed)


def _holds(stemmed: Sequence[str], phrases: CueSet) -> bool:
    return phrases.found(stemmed)


# --------------------------------------------------------------------------------------------------
# Reading statements: concepts with polarity and subject
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Statement:
    """A lexicon concept stated in a text: about the patient or someone else, present or absent."""

    concept_id: str
    negated: bool
    subject: str  # "patient" or "other"


def split_statements(text: str) -> list[str]:
    """The sentences of a text, split at full stops, semicolons, question and exclamation marks."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


_STATEMENTS: OrderedDict[tuple[int, str, str | None], tuple[Lexicon, tuple[Statement, ...]]] = OrderedDict()
_STATEMENTS_MAX = memo_size(16384)


def read_statements(text: str, lexicon: Lexicon | None = None, subject: str | None = None) -> list[Statement]:
    """Every concept stated in ``text`` with its polarity and subject, sentence by sentence.

    ``subject`` forces the subject (``"other"`` for a family-history fact); otherwise each mention
    takes the subject of its clause (:func:`mentalhospital_env.knowledge.language.clauses`). The
    reading is a function of the text, the lexicon and ``subject``, and is remembered (the last
    16,384 per process): a case's facts and the replies built from them are read again and again.
    """
    lex = lexicon or load_lexicon()
    key = (id(lex), text, subject)
    hit = _STATEMENTS.get(key)
    if hit is not None and hit[0] is lex:
        _STATEMENTS.move_to_end(key)
        return list(hit[1])
    found = _read_statements(text, lex, subject)
    _STATEMENTS[key] = (lex, tuple(found))
    while len(_STATEMENTS) > _STATEMENTS_MAX:
        _STATEMENTS.popitem(last=False)
    return found


def _in_risk_frame(tokens: list[str], start: int) -> bool:
    """Whether a concept mentioned at token ``start`` follows a risk frame within three words (``risk_frames`` of the
    language room's cues: 'risks', 'at risk of'): 'he risks a complicated withdrawal' names what could happen, not a
    withdrawal he had."""
    frames = load_cues().risk_frames
    if not frames:
        return False
    lo = max(0, start - 8)
    return any(start - (lo + end) <= 3 for _, end in find_phrases(tokens[lo:start], frames))


def _read_statements(text: str, lex: Lexicon, subject: str | None) -> list[Statement]:
    out: list[Statement] = []
    for sentence in split_statements(text):
        mentions = lex.find(sentence)
        if not mentions:
            continue
        tokens = tokenize(sentence)
        mentions = [m for m in mentions if not _in_risk_frame(tokens, m.start)]
        parts = clauses(sentence) if subject is None else []
        for m in mentions:
            who = subject
            if who is None:
                who = "patient"
                for part in parts:
                    if part.start <= m.start < part.end:
                        who = part.subject
                        break
            out.append(Statement(m.concept_id, m.negated, who))
    return out


def _unit(counts: Mapping[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(v * v for v in counts.values()))
    return {k: v / norm for k, v in counts.items()} if norm else {}



def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Cosine of two unit vectors given as sparse mappings."""
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0.0) for k, v in a.items())



_CONCEPT_TOPICS: dict[tuple[int, str], tuple[str, ...]] = {}


def concept_topics(lexicon: Lexicon, concept_id: str) -> tuple[str, ...]:
    """The interview topics a lexicon concept belongs to (read from its clinical terms and lay phrases)."""
    key = (id(lexicon), concept_id)
    hit = _CONCEPT_TOPICS.get(key)
    if hit is None:
        concept = lexicon.get(concept_id)
        words = " ; ".join((*concept.clinical_terms, *concept.lay_phrases, concept_id.replace("_", " ")))
        hit = _CONCEPT_TOPICS[key] = record_topics("", words)
    return hit


def stable_seed(*parts: object) -> int:
    """A seed that is the same in every process (``hash()`` of a string is not)."""
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


