"""Understand, the lexicon half: which lexicon concepts a doctor's utterance asks about.

:func:`read_question` turns an utterance into a :class:`Question`: the concepts of the lexicon it
asks (its questions repeated, its terms named), the interview topics of
:func:`~mentalhospital_env.patient.understanding.understand`, the relative asked about, injection
attempts and small talk. It is the typed value that enters recall.
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from mentalhospital_env.knowledge.language import clauses, memo_size, stem, stems, stems_of, tokenize
from mentalhospital_env.knowledge.lexicon import Lexicon, load_lexicon

from .reading import _holds, _read_data, _unit, concept_topics, load_memory_cues
from .understanding import asked_part, load_taxonomy, understand

# --------------------------------------------------------------------------------------------------
# Reading the doctor's utterance
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """What a doctor's utterance asks, as the memory skill reads it.

    ``concepts``: lexicon concepts asked about, in order of mention; ``topics``: topic ids asked
    about; ``about_other``: the question is about a relative ("does anyone in your family ...");
    ``injection``: the kind of forbidden request (``diagnosis``, ``code``, ``record``, ``authority``,
    ``score``) or ``None``; ``greeting`` / ``closing``: small talk; ``key``: the normalised question
    used for "same question, same answer"; ``items_asked``: how many things it asks at once (the
    concepts, plus topics whose cue words are not a concept's words); ``yes_no``: a closed question
    ("Do you ...?", "Have you ...?").
    """

    text: str
    concepts: tuple[str, ...]
    topics: tuple[str, ...]
    about_other: bool
    injection: str | None
    greeting: bool
    closing: bool
    key: str

    items_asked: int = 0
    yes_no: bool = False
    relative: str | None = None
    open: bool = False
    #: what a question about the present illness's time asks (``onset``, ``duration``, ``last_well``)
    when: str | None = None
    #: the words recall reads when they differ from ``text`` (a parent's "Mum, has anyone ever hurt him?" read as
    #: "Has anyone ever hurt you?", :meth:`Informant.as_asked`); ``None`` when recall reads ``text``
    asked: str | None = None


class QuestionBank:
    """The lexicon's own clinician questions, indexed so that an utterance close to one asks its concept.

    Lexicon questions are open and non-leading ("How has your mood been over the past few weeks?")
    and often do not name the concept; an utterance whose idf-weighted stems have a cosine of at
    least ``threshold`` with a concept's question asks that concept (several concepts when their
    questions tie within ``margin``).
    """

    def __init__(self, lexicon: Lexicon, threshold: float = 0.72, margin: float = 0.02):
        cues = load_memory_cues()
        self.lexicon = lexicon
        self.threshold = threshold
        self.margin = margin
        qualifiers = load_taxonomy().bank_qualifiers
        bags: list[tuple[str, Counter]] = []
        said_all: list[frozenset[str]] = []
        doc_freq: Counter[str] = Counter()
        for concept in lexicon.concepts:
            for q in concept.questions:
                said = stems(q)
                bag = Counter(s for s in said if s not in cues.stopwords)
                if bag:
                    bags.append((concept.id, bag))
                    said_all.append(frozenset(set(bag) | {s for s in said if s in qualifiers}))
                    doc_freq.update(set(bag))
        n = max(1, len(bags))
        self.idf = {s: math.log((n + 1) / (df + 0.5)) for s, df in doc_freq.items()}
        self.concepts = tuple(cid for cid, _ in bags)
        self._bags = tuple(frozenset(bag) for _, bag in bags)
        #: the words each question says, its qualifiers counted ("after", "a lot")
        self._said = tuple(said_all)
        self._qualifiers = qualifiers
        #: the words that name each concept: those in every one of its clinical terms ("pain" of chronic pain)
        self._names: dict[str, frozenset[str]] = {}
        for concept in lexicon.concepts:
            terms = [set(stems(t)) for t in concept.clinical_terms]
            self._names[concept.id] = frozenset(set.intersection(*terms) - cues.stopwords) if terms else frozenset()
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, (_, bag) in enumerate(bags):
            for s, w in _unit({s: c * self.idf[s] for s, c in bag.items()}).items():
                self.postings.setdefault(s, []).append((i, w))

    def asked(self, utterance: str, topics: frozenset[str] | None = None) -> tuple[str, ...]:
        """Concepts whose lexicon question the utterance (nearly) repeats, best first.

        With ``topics`` (the interview topics the utterance was read as asking), a question that shares
        a single word with the utterance counts only for a concept of one of those topics: "Tell me
        about the first time it happened" (onset) does not repeat "When in the day do you have your first
        drink?", nor "How long does the relief last?" (course) "When was the last time?" (self-harm);
        "How is your sleep?" still repeats "How have you been sleeping?", and an utterance read as no topic is
        left to the bank ("Do you do much exercise?")."""
        cues = load_memory_cues()
        bag = Counter(s for s in stems(utterance) if s not in cues.stopwords and s in self.idf)
        if not bag:
            return ()
        query = _unit({s: c * self.idf[s] for s, c in bag.items()})
        scores: dict[int, float] = {}
        for s, w in query.items():
            for i, v in self.postings.get(s, ()):
                scores[i] = scores.get(i, 0.0) + w * v
        if not scores:
            return ()
        best = max(scores.values())
        if best < self.threshold:
            return ()
        # a question that shares a single word with the utterance is repeated only when that word is all it
        # says ("How have you been sleeping?") or it is a short question on the word that names its concept
        # ("Where is the pain and how does it affect you?"), and, when the utterance was read as asking a
        # topic, only for a concept of that topic: "What did you take?" does not repeat "What happened when
        # you took it?" (allergies), nor "Are you eating?" "How do you feel after you have eaten a lot?"
        said = set(bag) | {s for s in stems(utterance) if s in self._qualifiers}

        def one_word(i: int) -> bool:
            shared = self._said[i] & said
            if len(shared) != 1:
                return len(shared) > 1
            (word,) = shared
            size = len(self._said[i])
            if not (size == 1 or (size <= 3 and word in self._names.get(self.concepts[i], ()))):
                return False
            return not topics or bool(set(concept_topics(self.lexicon, self.concepts[i])) & topics)

        scores = {i: score for i, score in scores.items() if len(self._bags[i] & bag.keys()) > 1 or one_word(i)}
        if not scores:
            return ()
        best = max(scores.values())
        if best < self.threshold:
            return ()
        out: dict[str, None] = {}
        for i, score in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
            if score >= best - self.margin:
                out.setdefault(self.concepts[i], None)
        return tuple(out)


_BANKS: dict[int, tuple[Lexicon, QuestionBank]] = {}


def question_bank(lexicon: Lexicon) -> QuestionBank:
    """The question bank of a lexicon (built once per lexicon object)."""
    hit = _BANKS.get(id(lexicon))
    if hit is None or hit[0] is not lexicon:
        hit = (lexicon, QuestionBank(lexicon))
        _BANKS[id(lexicon)] = hit
    return hit[1]


_QUESTIONS: OrderedDict[tuple[int, str] | tuple[int, str, str], tuple[Lexicon, Question]] = OrderedDict()
_QUESTIONS_MAX = memo_size(8192)


def read_question(utterance: str, lexicon: Lexicon | None = None, topic_reader: str = "fast") -> Question:
    """Read a doctor utterance: concepts, topics, subject, injection attempts and small talk.

    Concepts are those whose lexicon question the utterance (nearly) repeats (:class:`QuestionBank`),
    then those it names. The reading is a function of the utterance, the lexicon and the topic reader
    (``topic_reader``, see :func:`~.understanding.understand`) alone, so it is remembered (the last 8,192
    utterances per process): doctors ask the same questions of many patients.
    """
    lex = lexicon or load_lexicon()
    key = (id(lex), utterance) if topic_reader == "fast" else (id(lex), utterance, topic_reader)
    hit = _QUESTIONS.get(key)
    if hit is not None and hit[0] is lex:
        _QUESTIONS.move_to_end(key)
        return hit[1]
    question = _read_question(utterance, lex, topic_reader)
    _QUESTIONS[key] = (lex, question)
    while len(_QUESTIONS) > _QUESTIONS_MAX:
        _QUESTIONS.popitem(last=False)
    return question


@lru_cache(maxsize=1)
def _named_only() -> tuple[frozenset[str], frozenset[str]]:
    """The concepts a person's name can stand for, and the stems of the words that only name a person of
    the household (``data/taxonomy.json`` ``named_only``, with every word of ``relatives``)."""
    raw = _read_data("taxonomy.json")
    spec = raw.get("named_only", {})
    words = set(spec.get("words", ()))
    for names in raw.get("relatives", {}).values():
        words.update(w for name in names for w in name.split())
    return frozenset(spec.get("concepts", ())), frozenset(s for w in words for s in stems_of(w))


_INTERVIEW_BUSINESS = frozenset({"greeting", "closing", "other"})


def _read_question(utterance: str, lex: Lexicon, topic_reader: str = "fast") -> Question:
    cues = load_memory_cues()
    tokens = tokenize(utterance)
    stemmed = [stem(t) for t in tokens]
    asking = asked_part(utterance)
    mentions = lex.find(asking)
    understood = understand(utterance, reader=topic_reader)
    if not mentions and asking != utterance and not understood.topics:
        mentions = lex.find(utterance)
        asking = utterance
    # an utterance that only greets, closes or sees to the interview's arrangements ("Okay, let's stop there
    # for today", "We'll do some blood tests today") repeats no lexicon question, however near its words are
    # to one ("What day is it today?")
    business = bool(understood.topics) and all(t in _INTERVIEW_BUSINESS for t in understood.topics)
    concepts: list[str] = [] if business else list(question_bank(lex).asked(utterance, frozenset(understood.topics)))
    named, person_words = _named_only()
    said = stems_of(asking) if any(m.concept_id in named for m in mentions) else ()
    for m in mentions:
        if m.concept_id in named and said and set(said[m.start:m.end]) <= person_words and any(
            o.concept_id not in named for o in mentions
        ):
            # "Does the missus moan about your snoring?": the wife is who moans, not a question about the
            # household (taxonomy.json named_only)
            continue
        if m.concept_id not in concepts:
            concepts.append(m.concept_id)
    topics = [t for t in understood.topics if t not in ("greeting", "closing")]
    about_other = understood.relative is not None or "family_history" in topics
    if not about_other and mentions:
        parts = clauses(asking)
        about_other = any(
            p.subject == "other" and any(p.start <= m.start < p.end for m in mentions) for p in parts
        )
    injection = None
    for cue in cues.injections:
        if _holds(stemmed, cue.cues):
            injection = cue.kind
            break
    if injection is None and cues.code_pattern.search(utterance):
        injection = "code"
    return Question(
        text=utterance,
        concepts=tuple(concepts),
        topics=tuple(topics),
        about_other=about_other,
        injection=injection,
        greeting="greeting" in understood.topics or _holds(stemmed, cues.greeting),
        closing="closing" in understood.topics or _holds(stemmed, cues.closing),
        key=" ".join(stemmed),
        items_asked=understood.questions,
        relative=understood.relative,
        open=understood.open or "chief_complaint" in understood.topics,
        yes_no=bool(tokens) and tokens[0] in cues.yes_no_openers,
        when=understood.when,
    )


