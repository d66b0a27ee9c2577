"""Adjudicators: does an output (a patient reply, a note sentence) entail a reference checkpoint?

The embedder proposes matches above its calibrated threshold; an adjudicator decides the pairs below
it. Three kinds:

* :class:`ClinicalAdjudicator` (``"clinical"``, offline): reads both statements with the project's
  one reader of clinical English (``knowledge.language`` and ``knowledge.lexicon``): the checkpoint's
  lexicon concepts must appear in the output with the same negation, the same subject (the patient,
  not a relative) and no conflicting time frame, and its remaining content words must be there too;
  for text outside the lexicon, content-word overlap decides.
* :class:`LLMJudge` (``"llm"``): asks a language model through :class:`mentalhospital_env.llm.LLMClient`,
  batch first; a reply that is neither yes nor no, or a failed call, abstains (``None``).
* :class:`Jury` (``"jury"``): the majority of several adjudicators' votes; abstentions do not vote;
  a tie is "not entailed" (the conservative side).

:func:`statement_conflict` is the check every pipeline applies to every pair, above the threshold too:
"denies hearing voices" never covers "hears voices", "mother has depression" never covers
"has depression", and "drank heavily years ago" never covers "currently drinks heavily".
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import numpy as np

from mentalhospital_env.knowledge.language import language_data, memo_size
from mentalhospital_env.knowledge.language import (
    _TOKEN,
    _read,
    _token_starts,
    clauses,
    cue_spans,
    echoed_topic,
    find_phrases,
    has_cue,
    load_cues,
    memos_off,
    negated_spans_in,
    non_directional_tokens,
    polarity_marks,
    quantities,
    relatives_agree,
    relatives_named,
    stem,
    stems_of,
    tokenize,
    word_key,
)
from mentalhospital_env.knowledge.lexicon import (
    Mention,
    lexicon_relations,
    listed_denials,
    load_lexicon,
    settle_overlaps,
)

if TYPE_CHECKING:  # the llm package is imported only where an LLM judge is built
    from mentalhospital_env.llm import GenerationSettings, LLMClient

    from .embedders import Embedder


# --- Reading a statement --------------------------------------------------------------------------


@dataclass(frozen=True)
class ConceptReading:
    """A lexicon concept as a statement puts it: negated or not, whose, and when."""

    concept_id: str
    negated: bool
    subject: str
    time: str | None
    # read from a word for a whole class of findings ("hallucinations": see umbrella_terms), not from the
    # concept's own phrasings
    broad: bool = False


# the one empty set every content word without other concepts shares (a reading holds many words)
_NO_CONCEPTS: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ContentWord:
    """A content word (stemmed): negated or not, whose, when, and the concept whose mention holds it (or ``None``)."""

    stem: str
    negated: bool
    subject: str
    time: str | None
    concept_id: str | None = None
    # the other concepts whose mentions hold the word too ("restless" in a phrase of two findings)
    also: frozenset[str] = _NO_CONCEPTS
    # a negation cue of its concept's own phrase comes before it ("eating" in "not eating", food restriction):
    # the word is said negated, though the finding is not denied
    said_negated: bool = False


@dataclass(frozen=True)
class StatementReading:
    """What the clinical adjudicator reads in a statement."""

    text: str
    concepts: tuple[ConceptReading, ...]
    words: tuple[ContentWord, ...]
    polarity: frozenset[tuple[str, str, int]]
    negated: bool = False  # a negation cue (outside a concept's own phrase) governs part of the statement
    subject: str = "patient"  # the subject of the first main clause
    # stems said to be normal or fine ("my concentration is fine", "I eat normally"): integrity-up marks
    normal: frozenset[str] = frozenset()
    # directional marks that a concept's own phrase carries ("lose my temper", "poor sleep"), with the concept
    phrase_marks: frozenset[tuple[str, str, int, str]] = frozenset()
    # stems naming a problem itself (a symptom term with no direction of its own: "anxiety", "irritability"):
    # less of a problem is a change for the better ("anxiety reduced" against "anxiety got worse")
    problems: frozenset[str] = frozenset()

    @cached_property
    def concept_ids(self) -> frozenset[str]:
        return frozenset(c.concept_id for c in self.concepts)

    @cached_property
    def cues(self) -> frozenset[str]:
        """The statement-wide cue kinds it holds (``ended``, ``onset``, ``habitual``, ``avoidance``,
        ``current_time_overrides``), read once."""
        return frozenset(k for k in _STATEMENT_CUES if has_cue(self.text, k))

    @cached_property
    def reach_ids(self) -> frozenset[str]:
        """The concepts mentioned, those they imply (:func:`implied_concepts`) and, for a denied one, those
        that imply it (a denial of suicidal ideation reaches a denial of a plan)."""
        out = set(self.concept_ids)
        for k in self.concept_ids:
            out |= implied_concepts(k)
        for m in self.concepts:
            if m.negated:
                out |= implying_concepts(m.concept_id)
        for m in self.concepts:
            if m.subject == "other":
                out |= relatives_concepts(m.concept_id)
        return frozenset(out)

    @cached_property
    def stems(self) -> frozenset[str]:
        return frozenset(w.stem for w in self.words)

    @cached_property
    def stem_heads(self) -> frozenset[str]:
        """First two letters of each stem: two stems :func:`same_stem` calls alike always share them."""
        return frozenset(s[:2] for s in self.stems)

    @cached_property
    def share_words(self) -> tuple[tuple[tuple[str, float, frozenset[str]], ...], float]:
        """The content words :func:`_carried_share` weighs, each stem once (the first of the alike ones):
        (stem, :func:`word_weight`, the concepts whose mentions hold it) in text order, and their total weight."""
        seen: list[str] = []
        words = []
        total = 0.0
        for w in self.words:
            if any(same_stem(w.stem, t) for t in seen):
                continue
            seen.append(w.stem)
            weight = word_weight(w.stem)
            total += weight
            words.append((w.stem, weight, w.also | {w.concept_id} if w.concept_id is not None else w.also))
        return tuple(words), total

    @cached_property
    def _stems_by_head(self) -> dict[str, tuple[str, ...]]:
        index: dict[str, list[str]] = {}
        for s in self.stems:
            index.setdefault(s[:2], []).append(s)
        return {k: tuple(v) for k, v in index.items()}

    def alike_stems(self, word_stem: str) -> tuple[str, ...]:
        """The statement's stems that :func:`same_stem` calls alike ``word_stem`` (each once): only the stems
        under the heads such a stem can have (:func:`_alike_heads`) are compared, not every stem."""
        index = self._stems_by_head
        return tuple(t for h in _alike_heads(word_stem) for t in index.get(h, ()) if same_stem(word_stem, t))


@lru_cache(maxsize=memo_size(65536))
def _alike_heads(word_stem: str) -> tuple[str, ...]:
    """The first two letters a stem alike ``word_stem`` (:func:`same_stem`) can begin with: its own, and for
    stems of one or two letters those one ``e`` more or less gives (``x``/``xe``)."""
    heads = [word_stem[:2]]
    if len(word_stem) <= 1:
        heads.append((word_stem + "e")[:2])
    if len(word_stem) == 2 and word_stem[1] == "e":
        heads.append(word_stem[:1])
    if word_stem == "e":
        heads.append("")
    return tuple(dict.fromkeys(heads))


_STATEMENT_CUES = ("ended", "onset", "habitual", "avoidance", "current_time_overrides")


@lru_cache(maxsize=1)
def _vague_stems() -> frozenset[str]:
    """language.json's ``vague_words``, stemmed as statements' words are: content words that name no finding
    ("bad", "time", "idea", "sure"), which a near-empty or generic reply is made of."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    ).get("vague_words", {}).get("words", ())
    return frozenset(word_key(stem(w)) for w in raw)


@lru_cache(maxsize=memo_size(4096))
def finding_stems(concept_id: str) -> frozenset[str]:
    """The words of a lexicon concept's terms and lay phrases (stemmed and keyed as statements' words are; function
    and vague words left out): the words in which a reply can name that finding."""
    function_words, vague = load_cues().function_words, _vague_stems() | _negation_cue_stems()
    out = set()
    for term in load_lexicon().get(concept_id).terms:
        for token in tokenize(term):
            if token in function_words or not token[:1].isalnum():
                continue
            key = word_key(stem(token))
            if key not in vague:
                out.add(key)
    return frozenset(out)


@lru_cache(maxsize=1)
def _heading_answer_stems() -> frozenset[str]:
    """language.json's ``heading_answers``, stemmed as statements' words are."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    ).get("heading_answers", {}).get("words", ())
    return frozenset(word_key(stem(w)) for w in raw)


def headless(c: StatementReading) -> bool:
    """Whether a checkpoint is an answer cut from its heading: no lexicon concept and nothing but one of the
    ``heading_answers`` words, or no content word at all ("Good.", "Intact.", "Partial.", "None.")."""
    return not c.concepts and len(c.words) <= 1 and all(w.stem in _heading_answer_stems() for w in c.words)


def names_the_finding(c: StatementReading, o: StatementReading) -> bool:
    """Whether the output carries a content word of the checkpoint's finding: one of the checkpoint's own content
    words (a synonym group of ``language.json`` compares as one word), or a word of a lexicon phrasing of one of
    the checkpoint's concepts, or a concept the checkpoint's concepts reach; a vague word (``vague_words``) is no
    such word. A near-empty, vague or generic reply ("It's bad this time.", "No idea, sorry.", "Nobody is out to
    get me." against auditory hallucinations) names none and entails nothing, however close its letters come to
    one of the lexicon's phrasings ("tired all the time", "nobody's there")."""
    if c.concept_ids & o.reach_ids:
        return True
    vague = _vague_stems() | _negation_cue_stems()  # "not", "never" name no finding either
    wanted = {s for s in c.stems if s not in vague}
    if headless(c):
        # A checkpoint that names no finding itself ("Good.", "Intact.": a mental state heading's answer cut from
        # its heading) cannot say what the output must be about: only an output as bare as it ("Good.") carries
        # it, never one naming a topic the checkpoint cannot confirm ("I feel good about it", "Insight: good",
        # "my memory is intact").
        return not o.concepts and all(w.stem in c.stems for w in o.words)
    if not wanted and not c.concept_ids:
        return True  # only vague words: left to the share

    # A word the output says inside another finding's mention is that finding's word, when the checkpoint names
    # findings of its own: "thoughts" in "thoughts I can't get rid of" (obsessions) names no suicidal thought.
    reach = c.reach_ids
    said = [
        w.stem
        for w in o.words
        if w.stem not in vague
        and not (c.concept_ids and w.concept_id is not None and w.concept_id not in reach and not (w.also & reach))
    ]
    if not said:
        return False
    # a finding the output names in the lexicon's words that the checkpoint says in its own ("I'm eating the same
    # as always", a phrasing of appetite, against "Denies change in appetite")
    if any(not wanted.isdisjoint(finding_stems(k)) for k in sorted(o.concept_ids)):
        return True
    for k in sorted({cc.concept_id for cc in c.concepts if not cc.broad}):
        wanted |= finding_stems(k)
    if not wanted.isdisjoint(said):
        return True
    heads: dict[str, list[str]] = {}
    for t in wanted:
        heads.setdefault(t[:2], []).append(t)
    return any(same_stem(s, t) for s in said for h in _alike_heads(s) for t in heads.get(h, ()))


def _may_share(c: StatementReading, o: StatementReading) -> bool:
    """Quick test: could the two statements share a word or a concept (or a concept the output's implies) at all?"""
    return bool(c.stem_heads & o.stem_heads) or bool(c.concept_ids & o.reach_ids)


@lru_cache(maxsize=memo_size(65536))
def read_statement(text: str) -> StatementReading:
    """Concepts, content words, negation, subject, time frame and directional words of a statement (cached)."""
    cues = load_cues()
    tokens = tokenize(text)
    mentions = load_lexicon().find(text, max_gap=2)
    umbrellas = _umbrella_mentions(tokens, mentions)
    if umbrellas:
        mentions = tuple(sorted(mentions + umbrellas, key=lambda m: (m.start, m.end)))
    absent = load_lexicon().absence.find(text, max_gap=2)
    if absent and _absence_doubted(text, tokens, absent):
        absent = ()
    if absent:
        mentions, absent = _with_absent_mentions(mentions, absent)
    inside = {j for m in mentions for j in range(m.start, m.end)}
    cue_words = _negation_cue_stems()
    # a negation cue is no attribute: in "denies poor sleep" the direction qualifies sleep, not "denies"
    polarity = frozenset(m for m in polarity_marks(text) if m[1] not in cue_words)
    spans = _direction_spans(tokens, non_directional_tokens(text)) if polarity else []
    marks = _phrase_marks(spans, mentions, polarity) if polarity and mentions else frozenset()
    if polarity and mentions:
        mentions = _drop_contrary_mentions(tokens, mentions, polarity, marks)
    # A cue inside a concept's own phrase ("no energy", "can't sleep"), or inside a phrase saying a function is
    # normal ("no problems with my sleep"), is part of the phrase, not a negation of what follows.
    all_negations = negated_spans_in(text, tokens)
    normal_phrases = {
        j for i, k, axis, sign in spans if axis == "integrity" and sign > 0 for j in range(i, k)
    }
    negations = [(s, e) for s, e in all_negations if s not in inside]
    # for words outside every concept mention: "sleep" in "no problems with my sleep" is not denied
    plain_negations = (
        [(s, e) for s, e in negations if s not in normal_phrases] if normal_phrases else negations
    )
    cue_tokens = {s for s, _ in all_negations}
    parts = clauses(text)
    # each token's clause, read once (a token outside every clause has none)
    clause_at: list = [None] * len(tokens)
    for part in reversed(parts):  # the first clause holding a token wins, as in a scan from the start
        for i in range(part.start, min(part.end, len(tokens))):
            clause_at[i] = part
    # A negation that follows what it denies ("alcohol isn't something I touch") negates its clause up to it.
    for s, e in cue_spans(text, "trailing_negation"):
        opening = clause_at[s].start if clause_at[s] is not None else 0
        negations.append((opening - 1, s))
        if plain_negations is not negations:
            plain_negations.append((opening - 1, s))
        cue_tokens.update(range(s, e))
    # A topic echoed as a question ("Alcohol? I don't drink at all.") is not said to be present: the answer
    # decides, denying it when it opens with a denial or denies the same finding.
    echo, answer_denies = echoed_topic(text)
    if echo and not answer_denies:
        echoed = {m.concept_id for m in mentions if m.end <= echo}
        answer_denies = any(
            m.start >= echo
            and m.concept_id in echoed
            and any(s < m.start < e for s, e in negations)
            for m in mentions
        )
    if answer_denies:
        negations.append((-1, echo))
        if plain_negations is not negations:
            plain_negations.append((-1, echo))
    # the earliest start of a mention holding each token
    first_start: dict[int, int] = {}
    for m in mentions:
        for j in range(m.start, m.end):
            if j not in first_start or m.start < first_start[j]:
                first_start[j] = m.start

    def clause_of(i: int):
        return clause_at[i] if 0 <= i < len(clause_at) else None

    def concept_start(i: int) -> int:
        return first_start[i]

    def negated_at(i: int) -> bool:
        # The cue itself must come before the word: the lay phrase "can't sleep" is not a negated "sleep".
        return any(s < i < e for s, e in negations)

    lexicon = load_lexicon()

    def mention_negated(m) -> bool:
        # A phrase saying the concept is absent ("I still enjoy things") denies it, unless it is denied itself.
        if absent and m in absent:
            return not negated_at(m.start)
        # A negation word standing inside the phrase denies it ("hears no voices"; the lexicon marks it)
        if m.negated and any(tokens[j] in cues.inner_negation for j in range(m.start + 1, m.end)):
            return True
        # A topic (a history concept: "my sleep", "my drinking") after "no problems with" is not denied;
        # a finding ("no trouble concentrating") is.
        if plain_negations is not negations and lexicon.get(m.concept_id).kind == "history":
            return any(s < m.start < e for s, e in plain_negations)
        return negated_at(m.start)

    statement_time = _statement_time(parts)
    concepts: list[ConceptReading] = []
    concept_at: dict[int, str] = {}
    concepts_at: dict[int, set[str]] = {}
    # A finding done to the patient said with the patient as its object ("my stepfather hit me") is the
    # patient's, whoever the clause's subject is.
    done_to = concepts_done_to_patient()
    to_patient: set[int] = set()
    for mention in mentions:
        if mention.concept_id in done_to and any(
            tokens[j] in cues.first_person for j in range(mention.start, mention.end)
        ):
            to_patient.update(range(mention.start, mention.end))
    # A verb with the patient as its object in another person's clause ("she referred me on", "my dad hit me")
    # is done to the patient: the verb is the patient's as "was referred" and "was hit" would be.
    objects = cues.first_person_objects
    for i in range(len(tokens) - 1):
        if tokens[i + 1] in objects and tokens[i] not in cues.function_words and (part := clause_of(i)) is not None:
            if part.subject == "other" and i not in inside:
                to_patient.add(i)
    negated_mention: dict[int, bool] = {}
    listed = listed_denials(text, mentions, mention_negated, skip=absent)
    for mention in mentions:
        part = clause_of(mention.start)
        negated = negated_mention.setdefault(mention.start, mention.start in listed or mention_negated(mention))
        if absent and mention in absent:  # its own reading, whatever another phrase from the same word says
            negated = mention_negated(mention)
        concepts.append(
            ConceptReading(
                mention.concept_id,
                negated,
                "patient" if mention.start in to_patient else part.subject if part else "patient",
                (part.time if part and part.time else statement_time),
                mention in umbrellas,
            )
        )
        for j in range(mention.start, mention.end):
            concept_at.setdefault(j, mention.concept_id)
            concepts_at.setdefault(j, set()).add(mention.concept_id)
    words: list[ContentWord] = []
    word_at: list[int] = []  # each word's token
    for i, token in enumerate(tokens):
        if i in cue_tokens or token in cues.function_words or not token[0].isalnum():
            continue
        word_at.append(i)
        part = clause_of(i)
        negated = (
            negated_mention[concept_start(i)]
            if i in concept_at
            else any(s < i < e for s, e in plain_negations)
        )
        words.append(
            ContentWord(
                word_key(stem(token)),
                negated,
                "patient" if i in to_patient else part.subject if part else "patient",
                (part.time if part and part.time else statement_time),
                concept_at.get(i),
                frozenset(concepts_at[i] - {concept_at[i]}) or _NO_CONCEPTS if i in concept_at else _NO_CONCEPTS,
                i in concept_at and any(s < i < e and s in inside for s, e in all_negations),
            )
        )
    # "My mum's anxious, and I am too": what the person just named was said to have is the patient's as well
    # (read twice: the relative's and the patient's), when the cue is a clause of its own ending its sentence
    segment = _self_included(text, tokens, clause_at, all_negations) if cue_spans(text, "self_inclusion") else None
    if segment:
        lo, hi = segment
        for cc, m in zip(tuple(concepts), mentions):
            if cc.subject != "other" or m.end <= lo or m.start >= hi:
                continue
            if lexicon.get(cc.concept_id).domain == "family":
                # a family history is no finding of the patient's: its words without the relative say what the
                # patient has ("my dad drinks" -> drinks)
                persons = {j for s, e in cue_spans(text, "other_subject") for j in range(s, e)}
                persons |= {j - 1 for j in persons if j and tokens[j - 1] in _self_inclusion_words()["possessives"]}
                rest = " ".join(tokens[j] for j in range(m.start, m.end) if j not in persons)
                concepts += [
                    replace(cc, concept_id=k, subject="patient")
                    for k in dict.fromkeys(n.concept_id for n in lexicon.find(rest, max_gap=2))
                    if lexicon.get(k).domain != "family"
                ]
            else:
                concepts.append(replace(cc, subject="patient"))
        words += [replace(w, subject="patient") for w, i in zip(tuple(words), word_at) if w.subject == "other" and lo <= i < hi]
    main = next((p for p in parts if not p.subordinate), None)
    return StatementReading(
        text,
        tuple(concepts),
        tuple(words),
        polarity,
        bool(negations),
        main.subject if main else "patient",
        # "I struggle to sleep well" says nothing is normal
        _normal_stems(spans, polarity, all_negations)
        if polarity and not cue_spans(text, "difficulty")
        else frozenset(),
        marks,
        _problem_stems(tokens, mentions, marks) if polarity and mentions else frozenset(),
    )


@lru_cache(maxsize=1)
def _self_inclusion_words() -> dict[str, frozenset[str] | tuple[tuple[str, ...], ...]]:
    """language.json's ``self_inclusion_reading``: openers, denials, comparison words and possessives as word sets,
    the trailing words as token tuples (longest first)."""
    raw = language_data()["self_inclusion_reading"]
    out: dict = {k: frozenset(raw[k]) for k in ("openers", "comparison", "denials", "possessives")}
    out["trailing"] = tuple(sorted((tuple(tokenize(w)) for w in raw["trailing"]), key=len, reverse=True))
    return out


def _self_included(text: str, tokens: list[str], clause_at: list, negations: list) -> tuple[int, int] | None:
    """The tokens [lo, hi) whose other person's findings a self-inclusion cue ("and I am too", "so do I") gives the
    patient as well, or None. The cue must stand as a clause of its own (only ``openers`` before it, after a clause
    break or a conjunction) and end its sentence (only ``trailing`` words after it, then "." or "!" or the end), with
    no sentence opening with a denial after it and no denial by the patient before it in its sentence. It takes the
    clause just before it, from the last person named there; "I'm the same as my mum" takes the findings said after
    the mother's name, up to the next person's."""
    words = _self_inclusion_words()
    low = _read(text).low
    ends = [m.end() for m in _TOKEN.finditer(low)]
    starts = _token_starts(text)
    n = len(tokens)
    if len(ends) != n:
        return None

    def gap(i: int) -> str:  # the text between token i and the next (or the end)
        return low[ends[i] : starts[i + 1] if i + 1 < n else len(low)]

    persons = cue_spans(text, "other_subject")

    def person_start(s: int) -> int:
        return s - 1 if s and tokens[s - 1] in words["possessives"] else s

    for start, end in cue_spans(text, "self_inclusion"):
        # a clause of its own: only openers before it, back to a clause break or the statement's start
        k = start - 1
        joined = False
        while k >= 0 and tokens[k] in words["openers"] and not re.search(r"[,;:.!?]", gap(k)):
            joined |= tokens[k] in ("and", "but")
            k -= 1
        if k >= 0 and not (joined or re.search(r"[,;:.!?\u2014]", gap(k))):
            continue
        if k < 0:
            continue  # nothing said before it
        # a comparison names the person: "I'm the same as my mum"
        named = None
        j = end
        if j < n and tokens[j] in words["comparison"] and not gap(end - 1).strip():
            after = [(s, e) for s, e in persons if s > j and not re.search(r"[,;:.!?]", low[ends[end - 1] : starts[s]])]
            if not after:
                continue
            named = [stem(t.removesuffix("'s")) for t in tokens[after[0][0] : after[0][1]]]
            j = after[0][1]
        # ending its sentence: only trailing words, then "." / "!" or the end
        while True:
            if re.search(r"[?]", gap(j - 1)):
                j = -1
                break
            if j >= n or re.search(r"[.!]", gap(j - 1)):
                break
            tail = next((t for t in words["trailing"] if tuple(tokens[j : j + len(t)]) == t), None)
            if tail is None or not re.search(r"^\s*[,]?\s*$", gap(j - 1)):
                j = -1
                break
            j += len(tail)
        if j < 0:
            continue
        if j < n and tokens[j] in words["denials"]:
            continue  # "Me too. No, not really."
        # no denial by the patient earlier in its sentence ("I don't, but ... me too")
        sentence = max((i + 1 for i in range(start) if re.search(r"[.!?]", gap(i))), default=0)
        if any(
            sentence <= s < start and clause_at[s] is not None and clause_at[s].subject == "patient"
            for s, _e in negations
        ):
            continue
        if named is not None:
            # the findings said after that person was named, up to the next person named
            # (the name as said there: "my mum's anxious" names the mother too)
            bare = [stem(t.removesuffix("'s")) for t in tokens]
            before = [s for s in range(sentence - len(named) + 1) if bare[s : s + len(named)] == named]
            if not before:
                continue
            lo = person_start(before[-1])
            nxt = [person_start(s) for s, _e in persons if s >= before[-1] + len(named) and person_start(s) < sentence]
            hi = min(nxt, default=sentence)
            return lo, hi
        # the clause just before it, from the last person named there
        part = clause_at[k]
        opening = part.start if part is not None else 0
        named_there = [person_start(s) for s, _e in persons if opening <= s <= k]
        return (max(named_there) if named_there else opening), k + 1
    return None


@lru_cache(maxsize=1)
def _umbrella_terms() -> tuple[tuple[tuple[str, ...], ...], dict[tuple[str, ...], tuple[str, ...]], frozenset[str]]:
    """language.json's ``umbrella_terms``: the phrases as stem tuples (longest first), each one's member concepts,
    and the words before which such a phrase is a diagnosis's specifier."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    ).get("umbrella_terms", {})
    members = raw.get("members", {})
    known = {c.id for c in load_lexicon().concepts}
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for phrase, group in raw.get("terms", {}).items():
        concepts = tuple(members[group])
        unknown = [k for k in concepts if k not in known]
        if unknown:
            raise ValueError(f"language.json umbrella_terms: {phrase!r} names unknown concepts {unknown}")
        out[tuple(stem(t) for t in tokenize(phrase))] = concepts
    return tuple(sorted(out, key=len, reverse=True)), out, frozenset(raw.get("specifier_words", ()))


def _umbrella_mentions(tokens: list[str], mentions: tuple) -> tuple:
    """A mention of every member concept for each umbrella phrase (``umbrella_terms``: "hallucinations",
    "perceptual disturbance", "psychotic features") outside every lexicon mention of the statement; a member the
    statement names itself is left to its own mention."""
    phrases, members, specifier = _umbrella_terms()
    stemmed = [stem(t) for t in tokens]
    spans = find_phrases(stemmed, phrases)
    if not spans:
        return ()
    inside = {j for m in mentions for j in range(m.start, m.end)}
    named = {m.concept_id for m in mentions}
    out = []
    for start, end in spans:
        if start and tokens[start - 1] in specifier:
            continue  # a diagnosis's specifier ("severe without psychotic features") is no finding of the statement
        if inside.isdisjoint(range(start, end)):
            key = tuple(stemmed[start:end])
            out.extend(Mention(k, start, end, False) for k in members[key] if k not in named)
    return tuple(out)


def _absence_doubted(text: str, tokens: list[str], absent: tuple) -> bool:
    """Whether a phrase saying a concept is absent may not mean it here: the statement holds a word of
    effort or rarity ("I struggle to sleep well", "I rarely see friends"), of avoidance, or a directional
    word pointing down outside the absent phrases themselves ("I sleep less well"; "poor adherence" may be
    one). Such phrases are then not read at all, which loses an absence now and then and never invents one."""
    if cue_spans(text, "difficulty") or has_cue(text, "avoidance"):
        return True
    if not any(sign < 0 for _axis, _attribute, sign in polarity_marks(text)):
        return False
    return any(
        sign < 0 and not any(m.start <= i and k <= m.end for m in absent)
        for i, k, _axis, sign in _direction_spans(tokens, non_directional_tokens(text))
    )


def _with_absent_mentions(mentions: tuple, absent: tuple) -> tuple[tuple, frozenset]:
    """The statement's mentions with the phrases saying a concept is absent (``Lexicon.absence``) among them,
    and those absent ones as a set. An absent phrase of a concept the statement also names is dropped (the
    named concept wins). Overlaps are settled as :meth:`Lexicon.find` settles them: the longer
    phrase first, so "still enjoy my hobbies" (anhedonia absent) hides "hobbies" of another concept, and
    one concept's overlapping phrases give one mention."""
    # a concept the statement also names ("I can't see a way out, things will get better") is not read absent
    named = {m.concept_id for m in mentions}
    absent = tuple(m for m in absent if m.concept_id not in named)
    if not absent:
        return mentions, frozenset()
    spans = [(m.start, m.end, m.concept_id, False, m) for m in mentions]
    spans += [(m.start, m.end, m.concept_id, True, m) for m in absent]
    spans.sort(key=lambda c: (-(c[1] - c[0]), c[0], c[3]))
    kept = settle_overlaps(spans)
    return tuple(k[4] for k in kept), frozenset(k[4] for k in kept if k[3])


def _drop_contrary_mentions(tokens, mentions, polarity, marks) -> tuple:
    """The mentions less those the statement turns the other way: a phrase of a finding with a direction of its
    own ("sex drive has gone", reduced libido) qualified by a directional word outside every concept phrase
    that points the other way on one of its words ("my sex drive has gone through the roof")."""
    outside = polarity - {m[:3] for m in marks}
    if not outside:
        return mentions
    kept = []
    for m in mentions:
        directions = implied_directions(m.concept_id)
        if directions:
            words = {word_key(stem(t)) for t in tokens[m.start : m.end]}
            # the directions the phrase itself is about ("sex" of "sex drive has gone"), not the concept's name
            axes = {(axis, sign) for axis, attribute, sign in directions if attribute in words}
            if axes and any(a in words and (axis, -sign) in axes for axis, a, sign in outside):
                continue
        kept.append(m)
    return tuple(kept) if len(kept) < len(mentions) else mentions


def _problem_stems(tokens, mentions, marks) -> frozenset[str]:
    lexicon = load_lexicon()
    directed = {m[3] for m in marks}
    out = set()
    words = load_cues().function_words
    for m in mentions:
        if m.concept_id not in directed and lexicon.get(m.concept_id).kind in ("symptom", "sign"):
            out.update(word_key(stem(t)) for t in tokens[m.start : m.end] if t not in words)
    return frozenset(out)


@lru_cache(maxsize=1)
def _negation_cue_stems() -> frozenset[str]:
    return frozenset(stem(p[0]) for p in load_cues().negation if len(p) == 1)


@lru_cache(maxsize=1)
def _direction_index() -> dict[str, tuple[tuple[tuple[str, ...], str, int], ...]]:
    """The directional phrases of the cue data by their first stem: (phrase, axis, sign), longest first."""
    index: dict[str, list[tuple[tuple[str, ...], str, int]]] = {}
    for axis, up, down in load_cues().polarity_axes:
        for sign, phrases in ((1, up), (-1, down)):
            for phrase in phrases:
                if phrase:
                    index.setdefault(phrase[0], []).append((phrase, axis, sign))
    return {k: tuple(sorted(v, key=lambda e: -len(e[0]))) for k, v in index.items()}


def _direction_spans(tokens, silent: frozenset[int] = frozenset()) -> list[tuple[int, int, str, int]]:
    """Every directional phrase in the text: (start, end, axis, sign); none holding a ``silent`` token
    (:func:`~mentalhospital_env.knowledge.language.non_directional_tokens`)."""
    index = _direction_index()
    stemmed = tuple(stem(t) for t in tokens)
    out = []
    for i, first in enumerate(stemmed):
        for phrase, axis, sign in index.get(first, ()):
            k = len(phrase)
            if silent and any(j in silent for j in range(i, i + k)):
                continue
            if k == 1 or stemmed[i : i + k] == phrase:
                out.append((i, i + k, axis, sign))
    return out


def _normal_stems(spans, polarity, negations) -> frozenset[str]:
    """Attributes of the integrity-up marks ("concentration is fine", "eat normally"), provided some
    integrity-up phrase stands outside every negation's scope ("my sleep isn't good" says nothing normal).
    A phrase that holds its own cue ("not a problem") is not negated by that cue, and one that a downward
    word right before it qualifies ("I sleep less well") says nothing normal either."""
    attributes = frozenset(a for axis, a, sign in polarity if axis == "integrity" and sign > 0 and a)
    if not attributes:
        return attributes
    lowered = {k for _, k, _axis, sign in spans if sign < 0}  # where a downward word ends
    for i, _, axis, sign in spans:
        if axis == "integrity" and sign > 0 and i not in lowered and not any(a < i < b for a, b in negations):
            return attributes
    return frozenset()


def _phrase_marks(spans, mentions, polarity) -> frozenset[tuple[str, str, int, str]]:
    """The polarity marks that come from a concept's own phrase, with the concept: every directional word of
    that axis and sign lies inside a concept mention ("lose my temper" is irritability, not less temper;
    "I keep losing my temper" too, whichever word the mark ends up qualifying)."""
    holders: dict[tuple[str, int], set[str]] = {}
    outside: set[tuple[str, int]] = set()
    for i, k, axis, sign in spans:
        inside = [m.concept_id for m in mentions if m.start <= i and k <= m.end]
        if inside:
            holders.setdefault((axis, sign), set()).update(inside)
        else:
            outside.add((axis, sign))
    return frozenset(
        (axis, attribute, sign, cid)
        for axis, attribute, sign in polarity
        if (axis, sign) in holders and (axis, sign) not in outside
        for cid in holders[(axis, sign)]
    )


@lru_cache(maxsize=memo_size(4096))
def concept_attribute_stems(concept_id: str) -> frozenset[str]:
    """Content stems of a concept's clinical terms that are not directional words: what the concept is
    about (``sleep`` for insomnia, ``concentration`` for poor concentration, ``eat`` for food restriction)."""
    cues = load_cues()
    directional = {w for _, up, down in cues.polarity_axes for p in (*up, *down) for w in p}
    out = set()
    for term in load_lexicon().get(concept_id).clinical_terms:
        for token in tokenize(term):
            if token not in cues.function_words and token[0].isalpha():
                s = word_key(stem(token))
                if s not in directional:
                    out.add(s)
    return frozenset(out)


def normal_concepts(c: StatementReading, o: StatementReading) -> frozenset[str]:
    """The checkpoint's denied concepts that the output denies by saying the function is normal.

    "Denies difficulty concentrating" is carried by "my concentration is fine" and "denies dietary
    restriction" by "I eat normally": the output says, un-negated and about the same person, that a word
    the concept is about (:func:`concept_attribute_stems`) is normal, fine or no problem.
    """
    if not o.normal:
        return frozenset()
    out = set()
    for cc in c.concepts:
        if not cc.negated or cc.concept_id in out:
            continue
        about = concept_attribute_stems(cc.concept_id)
        for w in o.words:
            if (
                w.stem in o.normal
                and not w.negated
                and w.subject == cc.subject
                and any(same_stem(w.stem, a) for a in about)
            ):
                out.add(cc.concept_id)
                break
    return frozenset(out)


@lru_cache(maxsize=memo_size(65536))
def _quantities(text: str) -> frozenset[tuple[float, str]]:
    """quantities() of the text with contrasts.json's ``spoken_amounts`` said as the amounts they are ("a month and
    a half" as "six weeks", "an hour or two" as "one or two hours"); a numeric date written out first, as the record
    compiler writes it ("3/10/2026" as "3 October 2026"), so that its numbers are a day of a month, never a score."""
    for pattern, repl in _written_dates():
        text = pattern.sub(repl, text)
    pattern, table = _spoken_amounts()
    if pattern is not None:
        text = pattern.sub(lambda m: table[m.group().lower()], text)
    pattern, table = _shorthand_rates()
    if pattern is not None:
        text = pattern.sub(lambda m: table[m.group().strip().lower()], text)
    skipped = _skipped_after_count()
    if skipped is not None:
        text = skipped.sub(r"\1", text)
    return quantities(text)


@lru_cache(maxsize=1)
def _skipped_after_count() -> re.Pattern | None:
    """contrasts.json's ``spoken_amounts.skipped_after_count``: a word between a count and what it counts ("three
    previous admissions"), as one pattern of the word (and the space before it) straight after a number in digits or
    in words, so that the count is read as one of the thing counted."""
    words = _contrasts_json().get("spoken_amounts", {}).get("skipped_after_count", {}).get("words", ())
    if not words:
        return None
    numbers = sorted({p[-1] for p, _ in load_cues().number_words if p and p[-1].isalpha()}, key=len, reverse=True)
    count = r"(\d|\b(?:" + "|".join(re.escape(n) for n in numbers) + r"))"
    return re.compile(count + r"\s+(?:" + "|".join(re.escape(w) for w in words) + r")\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _shorthand_rates() -> tuple[re.Pattern | None, dict[str, str]]:
    """contrasts.json's ``spoken_amounts.after_number``: a chart's shorthand for a rate written straight after a
    number ("3-4x/wk", "4-6 h/d") and the words it stands for, as one pattern (only after a digit, longest
    first)."""
    block = _contrasts_json().get("spoken_amounts", {}).get("after_number", {})
    table = {k.lower(): v for k, v in block.items() if not k.startswith("_")}
    if not table:
        return None, {}
    alternatives = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    # a pair followed by another "/number" is part of a date ("12/30/24", month first, which no day-first row of
    # _written_dates writes out), never a score out of 30
    return re.compile(r"(?<=\d) ?(?:" + alternatives + r")(?![\w'])(?!/\d)", re.IGNORECASE), table


@lru_cache(maxsize=1)
def _scale_score_pattern() -> tuple[re.Pattern | None, dict[str, str]]:
    """The rating scales' names (exams.json's exams of kind ``scale``, name and aliases, as written and in capitals)
    as one pattern: the name (a ``-number`` written onto it is the scale's form, 'AQ-50'), contrasts.json's
    ``scale_scores.joiners`` ('score', 'of', 'was'...), then the score, not followed by another '/number' (a date);
    and each name's scale."""
    import json
    from importlib import resources

    exams = json.loads(resources.files("mentalhospital_env.knowledge").joinpath("data/exams.json").read_text("utf-8"))
    names: dict[str, str] = {}
    written: list[tuple[str, str]] = [
        (name, exam["name"])
        for exam in exams["exams"]
        if exam.get("kind") == "scale"
        for name in (exam["name"], *exam.get("aliases", ()))
    ]
    # scored tests that are no rating scale of exams.json ('ACE-III', 'FSIQ'), by contrasts.json's names
    written += [
        (name, test)
        for test, said in _contrasts_json().get("scale_scores", {}).get("tests", {}).items()
        if not test.startswith("_")
        for name in said
    ]
    for name, scale in written:
        for form in (name, name.upper()):
            names.setdefault(form, scale)
        if " " in name:  # a name of words, read in any case ('Patient Health Questionnaire', 'Full scale IQ')
            names.setdefault(name.lower(), scale)
    joiners = _contrasts_json().get("scale_scores", {}).get("joiners", ())
    dated_by = _contrasts_json().get("scale_scores", {}).get("dated_by", ())
    if not names:
        return None, {}
    alternatives = _name_alternatives(names)
    joined = "|".join(re.escape(j) for j in sorted(joiners, key=len, reverse=True))
    # words that say when it was scored, each with a day/month after it or not ('on 24/11', 'on admission', 'in July')
    when = (
        r"(?:(?:(?i:" + "|".join(re.escape(w) for w in sorted(dated_by, key=len, reverse=True)) + r"))"
        r"(?:\s+\d{1,2}[/.]\d{1,2})?[\s,]+){0,3}"
        if dated_by
        else ""
    )
    pattern = re.compile(
        r"(?<![\w-])(" + alternatives + r")(?:-\d+)?(?![\w-])\s*(?:\d+-items?\s*)?" + when + r"(?:(?:" + joined + r")\s*)?"
        r"(\d+(?:\.\d+)?)(?![\d.]*/\d+/)(?![\w.]*\d)"
    )
    return pattern, names


def _name_alternatives(names: Mapping[str, str]) -> str:
    """The scales' names as a pattern's alternatives, longest first; a name of several words in any case."""
    return "|".join(
        (r"(?i:" + re.escape(n) + ")") if " " in n else re.escape(n) for n in sorted(names, key=len, reverse=True)
    )


def _scale_named(names: Mapping[str, str], written: str) -> str | None:
    """The scale a name as written names (a name of several words in any case)."""
    return names.get(written) or names.get(written.lower())


@lru_cache(maxsize=1)
def _scale_name_pattern() -> re.Pattern | None:
    """A rating scale's name alone (as in :func:`_scale_score_pattern`): where one scale's scores end."""
    _, names = _scale_score_pattern()
    if not names:
        return None
    alternatives = _name_alternatives(names)
    return re.compile(r"(?<![\w-])(?:" + alternatives + r")(?![\w])")


# a further score of the same scale after its first ('PHQ-9 of 14 at baseline, now 9'): a number not written onto a
# '/' (the scale's range, a date's parts), a clock time, a decimal's parts, a date or an 'N-item' form
_FURTHER_SCORE = re.compile(r"(?<![\w/.:])(\d+(?:\.\d+)?)(?![\w:]|-items?\b|[\d.]*/\d+/|\.\d)")
# the scale's range said after its score ('11 of 27', '26 out of 30'), never a further score
_SCORE_RANGE = re.compile(r"^\s*(?:out\s+)?of\s+\d+(?!\w|\.\d)")
# a written date, never a score: '2026-11-24', '07/07/2026', '06/2026' (contrasts.json ``scale_scores.dated_by``)
_WRITTEN_DATE = re.compile(r"(?<![\w/.-])(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}/\d{4})(?![\w/-])")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")


@lru_cache(maxsize=1)
def _score_first_pattern() -> re.Pattern | None:
    """A score said before its scale (contrasts.json ``scale_scores.score_first``): the score, the scale's range
    ('/100', 'of 40', 'out of 30'), one of the words before the name, then the name."""
    _, names = _scale_score_pattern()
    words = _contrasts_json().get("scale_scores", {}).get("score_first", {}).get("before_name", ())
    if not names or not words:
        return None
    alternatives = _name_alternatives(names)
    joined = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(
        r"(?<![\w/.])(\d+(?:\.\d+)?)\s*(?:/\s*\d+|(?:out\s+)?of\s+\d+)\s+(?:" + joined + r")\s+(" + alternatives
        + r")(?![\w])"
    )


def _scale_scores(text: str) -> dict[str, set[float]]:
    """Each rating scale the text scores, and its scores ('Y-BOCS 22/40' is Y-BOCS 22; '78 of 100 on Addenbrooke's'
    is ACE-III 78)."""
    pattern, names = _scale_score_pattern()
    out: dict[str, set[float]] = {}
    if pattern is None:
        return out
    names_only = _scale_name_pattern()
    text = _WRITTEN_DATE.sub(" ", text)
    spelled, value = _spelled_scores()
    text = spelled.sub(value, text)
    first = _score_first_pattern()
    if first is not None:
        for m in first.finditer(text):
            out.setdefault(_scale_named(names, m.group(2)), set()).add(float(m.group(1)))
    for m in pattern.finditer(text):
        scores = out.setdefault(_scale_named(names, m.group(1)), set())
        scores.add(float(m.group(2)))
        # every score of the scale up to the next scale's name or the sentence's end (reviewer, stop 54: 'PHQ-9 of 14
        # at baseline, now 9' was read 14 alone, and refused against 'PHQ-9 9')
        rest = _SCORE_RANGE.sub("", text[m.end():])
        stops = [x.start() for x in (names_only.search(rest), _SENTENCE_END.search(rest)) if x is not None]
        for n in _FURTHER_SCORE.finditer(rest[: min(stops, default=len(rest))]):
            scores.add(float(n.group(1)))
    return out


@lru_cache(maxsize=1)
def _spelled_scores():
    """A score said in words ('nineteen', 'thirty-one'; the cue data's number words, 'one' aside, which is as often
    a pronoun or 'one week'), as one pattern, and the digits each match stands for."""
    single = {p[0]: int(v) for p, v in load_cues().number_words if len(p) == 1 and 0 < v < 100 and p[0] != "one"}
    units = {w: v for w, v in single.items() if v < 10}
    tens = {w: v for w, v in single.items() if v >= 20 and v % 10 == 0}
    alternatives = "|".join(sorted(single, key=len, reverse=True))
    pattern = re.compile(
        r"\b(?:(" + "|".join(tens) + r")[- ](" + "|".join(units) + r"|one)|(" + alternatives + r"))\b", re.IGNORECASE
    )

    def value(m: re.Match) -> str:
        if m.group(1):
            return str(tens[m.group(1).lower()] + units.get(m.group(2).lower(), 1))
        return str(single[m.group(3).lower()])

    return pattern, value


def scale_score_clash(checkpoint: str, output: str) -> str | None:
    """Why two statements that score the same rating scale differ: no score in common ('CIWA-Ar 18' against 'CIWA
    8'), or the output naming the scale the checkpoint scores with no score of its own ('YMRS 34/60' against 'YMRS
    in the severe range': a band is not the score), or ``None`` (contrasts.json's ``scale_scores``)."""
    c_scores = _scale_scores(checkpoint)
    if not c_scores:
        return None
    o_scores = _scale_scores(output)
    for scale in c_scores.keys() & o_scores.keys():
        if not c_scores[scale] & o_scores[scale]:
            return f"score differs on {scale}"
    # a band said with no number at all (a number the reading does not place, 'PHQ-9 one week ago was 12', is no
    # evidence either way)
    spelled, value = _spelled_scores()
    if re.search(r"\d", spelled.sub(value, _WRITTEN_DATE.sub(" ", _scale_name_pattern().sub(" ", output)))):
        return None
    _, names = _scale_score_pattern()
    named = {_scale_named(names, m.group()) for m in _scale_name_pattern().finditer(output)} - {None}
    for scale in sorted(c_scores.keys() & named):
        return f"no score said on {scale}"
    return None


# what a statement of scales' scores says besides them: their ranges, numbers, and the words that date and join them
_SCORE_FILLER = re.compile(r"(?:out\s+of|/)\s*\d+|\d+(?:\.\d+)?|[^\w]+")


def scale_score_agrees(checkpoint: str, output: str) -> bool:
    """Whether ``checkpoint`` says nothing but rating scales' scores and ``output`` scores each of those scales with
    a score in common ('PCL-5 58/80' and 'PTSD checklist total 58'; contrasts.json ``scale_scores.score_first``).
    The scale's other names share no word with the checkpoint, so the share of its words carried never credits such
    a pair; whatever else the output says is still read by :func:`statement_conflict`."""
    c_scores = _scale_scores(checkpoint)
    if not c_scores:
        return False
    o_scores = _scale_scores(output)
    if not all(c_scores[scale] & o_scores.get(scale, set()) for scale in c_scores):
        return False
    rules = _contrasts_json().get("scale_scores", {})
    filler = {w.lower() for w in (*rules.get("joiners", ()), *rules.get("dated_by", ()))}
    rest = _scale_name_pattern().sub(" ", _WRITTEN_DATE.sub(" ", checkpoint))
    return all(w.lower() in filler for w in _SCORE_FILLER.sub(" ", rest).split())


@lru_cache(maxsize=1)
def _written_dates() -> tuple[tuple[re.Pattern, str], ...]:
    """The record compiler's rows (cases/abbreviations.json's ``expansions``) that write a day/month/year date out
    ("25/09/2026" and "25/09/26" as "25 September 2026"): those whose replacement is the day, a month's name and the
    year."""
    import json
    from importlib import resources

    rows = json.loads(resources.files("mentalhospital_env.cases").joinpath("abbreviations.json").read_text("utf-8"))
    return tuple(
        (re.compile(p), r) for p, r in rows["expansions"] if re.fullmatch(r"\\1 [A-Z][a-z]+ (?:20)?\\2", r)
    )


@lru_cache(maxsize=1)
def _spoken_amounts() -> tuple[re.Pattern | None, dict[str, str]]:
    """contrasts.json's ``spoken_amounts``: lay amounts (lower case) and the amount each is, as one pattern of whole
    words, longest first."""
    table = {k.lower(): v for k, v in _contrasts_json().get("spoken_amounts", {}).get("phrases", {}).items()}
    if not table:
        return None, {}
    alternatives = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    return re.compile(r"(?<![\w'])(?:" + alternatives + r")(?![\w'])", re.IGNORECASE), table


def _statement_time(parts) -> str | None:
    times = {p.time for p in parts if p.time is not None}
    return times.pop() if len(times) == 1 else None


@lru_cache(maxsize=1)
def _distinct_stems() -> frozenset[tuple[str, str]]:
    """language.json's ``distinct_words``: stem pairs that look alike and are two words ("start", "startle"),
    both ways round."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    ).get("distinct_words", {})
    pairs = {(stem(a), stem(b)) for a, b in raw.get("pairs", ())}
    return frozenset(pairs | {(b, a) for a, b in pairs})


@lru_cache(maxsize=memo_size(262144))
def same_stem(a: str, b: str) -> bool:
    """Whether two stems name the same word: equal, or differing only in a final ``e``
    (``tak``/``take``), or sharing a long prefix (``concentrat``/``concentration``, ``depress``/``depression``)."""
    if (a, b) in _distinct_stems():
        return False
    if a == b or a + "e" == b or b + "e" == a:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < 4 or not short[0].isalpha():
        return False
    if long_.startswith(short) and len(long_) - len(short) <= 2:
        return True
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return common >= 5 and common >= 0.8 * len(short)


_BARE_PERIODS = frozenset({"day", "week"})


def _daily_totals(amounts: frozenset, other: frozenset) -> frozenset:
    """A dose said with how many times a day it is taken ("5 mg twice daily": 5 milligram and 2 time/day) as the
    total a day ("10 milligram/day"), when the other statement says that unit a day ("10 mg a day, split into two
    doses") and no single dose: the same dosing written per dose and per day (heldout45, 52 and 53 each had such a
    pair refused as another amount). Only one dose and one count a day are multiplied; otherwise the amounts are as
    read."""
    doses = [(v, u) for v, u in amounts if "/" not in u and u not in _BARE_PERIODS]
    times = [v for v, u in amounts if u == "time/day"]
    if len(doses) != 1 or len(times) != 1:
        return amounts
    value, unit = doses[0]
    # (not when the other statement says a single dose too: "300 mg in the morning and 300 mg at night" is read as
    # 300 milligram and 300 milligram/day, a dose and not a total)
    if not any(u == f"{unit}/day" for _, u in other) or any(u == unit for _, u in other):
        return amounts
    return (amounts - {doses[0]}) | {(value * times[0], f"{unit}/day")}


# a range written between two numbers ("55-65 units", "4 to 6 pints"); not a date's or a score's parts
_WRITTEN_RANGE = re.compile(r"(?<![\d/.])(\d+(?:\.\d+)?)\s*(?:-|\u2013|to)\s*(\d+(?:\.\d+)?)(?![\d/])")


@lru_cache(maxsize=memo_size(65536))
def _written_ranges(text: str) -> frozenset[tuple[float, float]]:
    """The ranges a statement writes in digits, lowest first ("about 55-65 units a week" is (55, 65))."""
    out = set()
    for m in _WRITTEN_RANGE.finditer(text):
        lo, hi = float(m.group(1)), float(m.group(2))
        if lo < hi:
            out.add((lo, hi))
    return frozenset(out)


def _within_range(c_values: set, o_values: set, c_ranges: frozenset, o_ranges: frozenset) -> bool:
    """Whether a value one statement says lies inside a range the other writes, both ends of which are its values of
    the same unit ("about 60 units a week" inside "55-65 units a week")."""
    for values, ranges, others in ((c_values, c_ranges, o_values), (o_values, o_ranges, c_values)):
        for lo, hi in ranges:
            if lo in values and hi in values and any(lo <= v <= hi for v in others):
                return True
    return False


def _amounts_differ(
    c_amounts: frozenset, o_amounts: frozenset, c_text: str = "", o_text: str = ""
) -> str | None:
    """Why the amounts of one unit differ, or ``None``: none of the values agree ("20 cigarettes a day" against
    "ten cigarettes"), or the same value is over another period ("9 units a day" against "nine units a week")."""

    def base(unit: str) -> str:
        return unit.split("/", 1)[0]

    # "five a day" against "30 cigarettes a day": a statement whose amounts are all bare counts a day counts
    # them in the unit of the other statement's rate a day, when that statement has one such unit only
    def rate_units(amounts: frozenset) -> dict[str, str]:
        by_period: dict[str, set[str]] = {}
        for _, u in amounts:
            if "/" in u:
                by_period.setdefault(u.split("/", 1)[1], set()).add(u)
        # (a day only: a bare "two months" is a duration more often than a rate)
        return {period: next(iter(units)) for period, units in by_period.items() if len(units) == 1 and period == "day"}

    def bare(amounts: frozenset) -> bool:  # every amount a bare count over a day ("five a day")
        return all(u == "day" for _, u in amounts)

    # "10 a day" against "ten a week": bare counts alike, over another period
    if c_amounts and o_amounts and all(u in _BARE_PERIODS for _, u in c_amounts | o_amounts):
        if {v for v, _ in c_amounts} & {v for v, _ in o_amounts} and not {u for _, u in c_amounts} & {
            u for _, u in o_amounts
        }:
            return "quantity differs (a count over another period)"
    c_amounts, o_amounts = _daily_totals(c_amounts, o_amounts), _daily_totals(o_amounts, c_amounts)
    c_amounts, o_amounts = c_amounts | _dose_totals(c_text, c_amounts), o_amounts | _dose_totals(o_text, o_amounts)
    c_units, o_units = rate_units(c_amounts), rate_units(o_amounts)
    if bare(c_amounts):
        c_amounts = frozenset((v, o_units.get(u, u)) for v, u in c_amounts)
    if bare(o_amounts):
        o_amounts = frozenset((v, c_units.get(u, u)) for v, u in o_amounts)

    c_ranges, o_ranges = _written_ranges(c_text), _written_ranges(o_text)
    for unit in {base(u) for _, u in c_amounts} & {base(u) for _, u in o_amounts}:
        c_values = {v for v, u in c_amounts if base(u) == unit}
        o_values = {v for v, u in o_amounts if base(u) == unit}
        if not c_values & o_values and not _within_range(c_values, o_values, c_ranges, o_ranges):
            return f"quantity differs in {unit!r}"
        c_rates = {(v, u) for v, u in c_amounts if base(u) == unit and "/" in u}
        o_rates = {(v, u) for v, u in o_amounts if base(u) == unit and "/" in u}
        if c_rates and o_rates and not c_rates & o_rates:
            shared = {v for v, _ in c_rates} & {v for v, _ in o_rates}
            if shared:
                return f"quantity differs in {unit!r} (per {min(c_rates)[1].split('/')[1]} against per {min(o_rates)[1].split('/')[1]})"
    return (
        _mass_differs(c_amounts, o_amounts, c_text, o_text)
        or _duration_differs(c_amounts, o_amounts, c_text, o_text)
        or _alcohol_differs(c_amounts, o_amounts, c_text, o_text)
    )


@lru_cache(maxsize=1)
def _mass_units() -> tuple[dict[str, float], frozenset[str], float]:
    """contrasts.json's ``mass_units``: kilograms in one of each weight unit, keyed as quantities() reads the unit
    (the stem of the word and of its plural through word_key, as quantities() keys them),
    the fraction words, and the ratio."""
    raw = _contrasts_json()["mass_units"]
    kilograms = {
        word_key(stem(form)): float(v) for k, v in raw["kilograms"].items() for form in (k, k + "s")
    }
    fractions = frozenset(word_key(stem(w)) for w in raw["fraction_words"])
    return kilograms, fractions, float(raw["ratio"])


def _mass_differs(c_amounts: frozenset, o_amounts: frozenset, c_text: str = "", o_text: str = "") -> str | None:
    """Weights said in different units ("12 lb" against "twelve kilos", "4 kg" against "two stone"), compared in
    kilograms with contrasts.json's ``mass_units``: they differ when every two lie more than the ratio apart.
    Weights in one unit are compared as said (above); a statement with a fraction word is not compared ("five and
    a half kilos" is read as five, "half a stone" as a stone)."""
    kilograms, fractions, ratio = _mass_units()

    def weights(amounts: frozenset, text: str) -> dict[str, set[float]] | None:
        if any(word_key(stem(t)) in fractions for t in tokenize(text)):
            return None
        out: dict[str, set[float]] = {}
        for value, u in amounts:
            base = u.split("/", 1)[0]
            if base in kilograms:
                out.setdefault(base, set()).add(value * kilograms[base])
        return out

    c, o = weights(c_amounts, c_text), weights(o_amounts, o_text)
    if not c or not o or set(c) & set(o):
        return None  # no weight on one side, or a unit both say (compared as said)
    c_kg = {v for vs in c.values() for v in vs}
    o_kg = {v for vs in o.values() for v in vs}
    if all(x * ratio < y or y * ratio < x for x in c_kg for y in o_kg):
        return "quantity differs in weight (kilograms)"
    return None


@lru_cache(maxsize=1)
def _dose_patterns() -> tuple[re.Pattern, re.Pattern, dict[str, str]] | None:
    """contrasts.json's ``dose_units`` as two patterns, a count before the strength ('two 400 mg tablets', 'two of
    the 10-milligram tablets') and a count after it ('20 mg caps x3'), and each unit word's key in quantities()."""
    raw = _contrasts_json().get("dose_units")
    if not raw:
        return None
    forms = "|".join(re.escape(f) for f in sorted(raw["forms"], key=len, reverse=True))
    between = "|".join(re.escape(b) for b in sorted(raw["between"], key=len, reverse=True))
    units = "|".join(re.escape(u) for u in sorted(raw["units"], key=len, reverse=True))
    before = re.compile(
        r"(?<![\w.])(\d+)\s+(?:(?:" + between + r")\s+)?(\d+(?:\.\d+)?)\s*-?\s*(" + units + r")\b"
        r"(?=(?:\s+[a-z]+){0,2}?\s+(?:" + forms + r")\b)",
        re.IGNORECASE,
    )
    after = re.compile(
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(" + units + r")\s+(?:" + forms + r")\s*[x\u00d7]\s*(\d+)\b", re.IGNORECASE
    )
    return before, after, {k.lower(): v for k, v in raw["units"].items()}


def _dose_totals(text: str, amounts: frozenset) -> frozenset:
    """The totals a dose said as tablets of a strength makes ('two 400 mg tablets': 800 mg), each keyed as the
    text's amount of that strength is (its period kept: 'every night'), for :func:`_amounts_differ`."""
    patterns = _dose_patterns()
    if patterns is None or not text:
        return frozenset()
    before, after, units = patterns
    spelled, value = _spelled_scores()
    said = spelled.sub(value, text)
    out: set[tuple[float, str]] = set()
    found = [(float(m.group(1)), float(m.group(2)), m.group(3)) for m in before.finditer(said)]
    found += [(float(m.group(3)), float(m.group(1)), m.group(2)) for m in after.finditer(said)]
    for count, strength, unit in found:
        key = units.get(unit.lower())
        if count <= 1 or key is None:
            continue
        for v, u in amounts:
            if v == strength and u.split("/", 1)[0] == key:
                out.add((count * strength, u))
    return frozenset(out)


@lru_cache(maxsize=1)
def _duration_units() -> tuple[dict[str, float], frozenset[str], float]:
    """contrasts.json's ``duration_units``: minutes in one of each unit of time, keyed as quantities() reads the unit
    (as :func:`_mass_units` keys weights), the fraction words, and the ratio."""
    raw = _contrasts_json().get("duration_units")
    if not raw:
        return {}, frozenset(), 0.0
    minutes = {word_key(stem(form)): float(v) for k, v in raw["minutes"].items() for form in (k, k + "s")}
    fractions = frozenset(word_key(stem(w)) for w in raw["fraction_words"])
    return minutes, fractions, float(raw["ratio"])


def _duration_differs(c_amounts: frozenset, o_amounts: frozenset, c_text: str = "", o_text: str = "") -> str | None:
    """Lengths of time said in different units over the same period or none ("three hours a day" against "thirty
    minutes a day"), compared in minutes with contrasts.json's ``duration_units``: they differ when every two lie
    more than the ratio apart. A period both say in one unit is compared as said (above); a statement with a
    fraction word is not compared ("half an hour" is read as an hour), nor a single minute or hour ("one minute
    she's confused, the next she's with it": a fluctuation, not a length)."""
    minutes, fractions, ratio = _duration_units()
    if not minutes:
        return None

    def lengths(amounts: frozenset, text: str) -> dict[str, dict[str, set[float]]] | None:
        if any(word_key(stem(t)) in fractions for t in tokenize(text)):
            return None
        out: dict[str, dict[str, set[float]]] = {}  # period ("" for none) -> unit -> minutes
        for value, u in amounts:
            unit, _, period = u.partition("/")
            if unit in minutes and value != 1:  # 'one minute ... the next', 'muddled one hour': a turn of speech
                out.setdefault(period, {}).setdefault(unit, set()).add(value * minutes[unit])
        return out

    c, o = lengths(c_amounts, c_text), lengths(o_amounts, o_text)
    if not c or not o:
        return None
    for period in set(c) & set(o):
        if set(c[period]) & set(o[period]):
            continue  # a unit both say over this period (compared as said)
        c_min = {v for vs in c[period].values() for v in vs}
        o_min = {v for vs in o[period].values() for v in vs}
        if all(x * ratio < y or y * ratio < x for x in c_min for y in o_min):
            return "quantity differs in length of time (minutes)"
    return None


@lru_cache(maxsize=1)
def _contrasts_json() -> dict:
    """knowledge/data/contrasts.json as read from the package, once: every reading of opposites, amounts and counts
    below takes its block from here."""
    import json
    from importlib import resources

    return json.loads(resources.files("mentalhospital_env.knowledge").joinpath("data/contrasts.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _drink_units():
    raw = _contrasts_json()["drink_units"]
    # keyed by the stem of the word and of its plurals, as quantities() reads the unit ("glasses" stems to "glass",
    # "glass" to "glas")
    drinks = {
        word_key(stem(form)): (float(v[0]), float(v[1]))
        for k, v in raw["drinks"].items()
        for form in (k, k + ("es" if k.endswith(("s", "sh", "ch", "x")) else "s"))
    }
    return drinks, {k: float(v) for k, v in raw["per_week"].items()}, float(raw["ratio"])


@lru_cache(maxsize=1)
def _spirit_units():
    """contrasts.json's ``drink_units.spirits``: the stems that name a spirit, and the units in one bottle, litre or
    drink of spirit, keyed as quantities() reads the unit."""
    raw = _contrasts_json()["drink_units"]["spirits"]
    words = frozenset(stem(w) for w in raw["words"])
    drinks = {
        word_key(stem(form)): (float(v[0]), float(v[1]))
        for k, v in raw["drinks"].items()
        for form in (k, k + "s")
    }
    return words, drinks


def _drinks_of(text: str) -> dict:
    """The units in one drink of each kind for a statement: contrasts.json's ``drink_units``, a spirit's where the
    statement names a spirit ("a bottle of vodka" is about 28 units, not a bottle of wine's 9 to 10)."""
    drinks = _drink_units()[0]
    words, spirits = _spirit_units()
    if text and any(stem(t) in words for t in tokenize(text)):
        return {**drinks, **spirits}
    return drinks


def _alcohol_differs(c_amounts: frozenset, o_amounts: frozenset, c_text: str = "", o_text: str = "") -> str | None:
    """Units of alcohol a week against drinks a week ("six units a week" against "six pints most nights"): a
    rate of drinks is turned into units with contrasts.json's ``drink_units``; the two differ when every two
    of their weekly ranges lie more than the ratio apart. Only a rate of units against a rate of drinks is
    compared (units against units, and drinks of one kind, are compared as they are said)."""
    _, per_week, ratio = _drink_units()

    def weekly(amounts: frozenset, text: str) -> tuple[set, set]:
        drinks = _drinks_of(text)
        units, of_drinks = set(), set()
        for value, u in amounts:
            if "/" not in u:
                continue
            base, period = u.split("/", 1)
            if period not in per_week:
                continue
            if base == "unit":
                units.add((value * per_week[period], value * per_week[period]))
            elif base in drinks:
                lo, hi = drinks[base]
                of_drinks.add((value * lo * per_week[period], value * hi * per_week[period]))
        return units, of_drinks

    c_units, c_drinks = weekly(c_amounts, c_text)
    if not c_units and not c_drinks:
        return None
    if c_units and not any("/" in u for _, u in o_amounts):
        # a bare amount of drink against a weekly rate of units: more than the ratio times the week's units in one go
        o_drinks_of = _drinks_of(o_text)
        bare = [value * o_drinks_of[u][0] for value, u in o_amounts if u in o_drinks_of]
        if bare and all(low > hi * ratio for low in bare for _, hi in c_units):
            return "quantity differs in units of alcohol (one amount above the week's)"
    o_units, o_drinks = weekly(o_amounts, o_text)
    pairs = [(c_units, o_drinks), (c_drinks, o_units)]
    if not _drink_kinds(c_amounts) & _drink_kinds(o_amounts):
        # drinks of another kind are compared in units too ("two glasses of wine a week" against "two bottles a day")
        pairs.append((c_drinks, o_drinks))
    for a, b in pairs:
        if a and b and all(x[1] * ratio < y[0] or y[1] * ratio < x[0] for x in a for y in b):
            return "quantity differs in units of alcohol a week"
    return None


@lru_cache(maxsize=1)
def _count_words():
    """contrasts.json's ``counts``: the stems counted as drinks and as times, the count words without a number,
    the words after which such a word counts nothing, and the ratio."""
    raw = _contrasts_json()["counts"]
    return (
        frozenset(word_key(stem(w)) for w in raw["drink_words"]),
        frozenset(word_key(stem(w)) for w in raw["time_words"]),
        {w: float(v) for w, v in raw["once_words"].items()},
        frozenset(raw["not_count_after"]),
        float(raw["ratio"]),
    )


@lru_cache(maxsize=memo_size(65536))
def bare_counts(text: str) -> dict[str, tuple[float, float]]:
    """The lowest and highest bare count (no period) of drinks and of times a statement says, by ``"drinks"`` and
    ``"times"`` (contrasts.json's ``counts``): "two or three beers" is drinks (2, 3), "called them once" times (1, 1)."""
    drink_units, time_units, once, not_after, _ = _count_words()
    values: dict[str, list[float]] = {}
    for value, unit in _quantities(text):
        if "/" in unit:
            continue
        kind = "drinks" if unit in drink_units else "times" if unit in time_units else None
        if kind:
            values.setdefault(kind, []).append(value)
    tokens = tokenize(text)
    periods = _count_periods()
    for i, word in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        # "once a week" is a rate; "once, a few weeks after" a count ("a" before no period word)
        rate = after in ("a", "an") and (i + 2 >= len(tokens) or tokens[i + 2] in periods)
        if word in once and (after is None or after not in not_after or (after in ("a", "an") and not rate)) and (
            i == 0 or tokens[i - 1] != "at"
        ):
            values.setdefault("times", []).append(once[word])
    return {kind: (min(v), max(v)) for kind, v in values.items()}


@lru_cache(maxsize=1)
def _count_periods() -> frozenset[str]:
    """contrasts.json's ``counts.rate_periods``: after "once a" / "twice an", the words that make a rate."""
    raw = _contrasts_json()["counts"]
    return frozenset(raw["rate_periods"])


@lru_cache(maxsize=memo_size(65536))
def rate_counts(text: str) -> dict[str, tuple[float, float]]:
    """The lowest and highest number of times a period a statement says, by period: "wakes three to five times a
    night" is (3, 5) a day, "once a night" (1, 1) a day, "twice a week" (2, 2) a week."""
    _, time_units, once, _, _ = _count_words()
    values: dict[str, list[float]] = {}
    for value, unit in _quantities(text):
        base, _, period = unit.partition("/")
        if period and base in time_units:
            values.setdefault(period, []).append(value)
    tokens = tokenize(text)
    periods = load_cues().rate_periods
    for i, word in enumerate(tokens):
        if word not in once:
            continue
        j = i + 1
        if j + 1 < len(tokens) and tokens[j] == "or" and tokens[j + 1] in once:  # "once or twice a week"
            j += 2
        if j + 1 < len(tokens) and tokens[j] in _RATE_OPENERS and tokens[j + 1] in periods:
            values.setdefault(periods[tokens[j + 1]], []).append(once[word])
    return {period: (min(v), max(v)) for period, v in values.items()}


_RATE_OPENERS = frozenset(("a", "an", "per", "every", "each"))


@lru_cache(maxsize=1)
def _rate_ratio() -> float:
    """contrasts.json's ``counts.rate_ratio``: how far apart two numbers of times a period lie to differ."""
    return float(_contrasts_json()["counts"].get("rate_ratio", 0)) or float("inf")


@lru_cache(maxsize=memo_size(65536))
def _rates_said(text: str) -> dict[str, int]:
    """How many numbers of times a period a statement says, by period: each period word after a word of times
    ("three to five times a night", "once or twice a week", "twice nightly") is one, however many numbers lead to it."""
    _, time_units, once, _, _ = _count_words()
    periods = load_cues().rate_periods
    tokens = tokenize(text)

    def times_word(token: str) -> bool:
        return token in once or word_key(stem(token)) in time_units

    said: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token not in periods or i == 0:
            continue
        if times_word(tokens[i - 1]) or (i >= 2 and tokens[i - 1] in _RATE_OPENERS and times_word(tokens[i - 2])):
            said[periods[token]] = said.get(periods[token], 0) + 1
    return said


def _rates_differ(checkpoint: str, output: str) -> str | None:
    """Numbers of times over one period that lie more than contrasts.json's ``counts.rate_ratio`` apart ("wakes three
    to five times a night" against "once a night"); closer ones are left alone ("twice a night" against "a couple
    of times every night"). Only one rate against one: a statement that says two numbers of times ("I wake up once
    a night and check the locks, about ten times") may count two things, and is not set against either."""
    c_rates = rate_counts(checkpoint)
    if not c_rates:
        return None
    o_rates = rate_counts(output)
    if not o_rates or "times" in bare_counts(checkpoint) or "times" in bare_counts(output):
        return None
    c_said, o_said = _rates_said(checkpoint), _rates_said(output)
    ratio = _rate_ratio()
    for period in c_rates.keys() & o_rates.keys():
        if c_said.get(period, 1) != 1 or o_said.get(period, 1) != 1:
            continue
        (c_lo, c_hi), (o_lo, o_hi) = c_rates[period], o_rates[period]
        if c_hi * ratio < o_lo or o_hi * ratio < c_lo:
            return f"quantity differs (times a {period}: {c_lo:g}-{c_hi:g} against {o_lo:g}-{o_hi:g})"
    return None


def _counts_differ(checkpoint: str, output: str) -> str | None:
    """Bare counts of drinks or of times that lie more than contrasts.json's ``counts`` ratio apart ("two or three
    beers before family gatherings" against "ten or twelve pints before parties"; "called the police nine times"
    against "once"): another order of magnitude; and numbers of times a period (:func:`_rates_differ`)."""
    c_counts = bare_counts(checkpoint)
    if not c_counts:
        return _rates_differ(checkpoint, output)
    o_counts = bare_counts(output)
    ratio = _count_words()[4]
    for kind in c_counts.keys() & o_counts.keys():
        (c_lo, c_hi), (o_lo, o_hi) = c_counts[kind], o_counts[kind]
        if c_hi * ratio < o_lo or o_hi * ratio < c_lo:
            return f"quantity differs (a count of {kind}: {c_lo:g}-{c_hi:g} against {o_lo:g}-{o_hi:g})"
    return _rates_differ(checkpoint, output)


def _drink_kinds(amounts: frozenset) -> frozenset[str]:
    """The kinds of drink (contrasts.json's ``drink_units``) an amount is counted in."""
    drinks = _drink_units()[0]
    return frozenset(u.split("/", 1)[0] for _, u in amounts if u.split("/", 1)[0] in drinks)


@lru_cache(maxsize=1)
def _knowledge_names() -> tuple[tuple[tuple[str, ...], ...], dict[tuple[str, ...], str]]:
    """The knowledge base's disorder and drug names and synonyms, stemmed, longest first, each with what it
    names: ``disorder:<category>`` or ``drug:<name>`` (disorder abbreviations of three letters or fewer left out)."""
    from mentalhospital_env.knowledge import load_knowledge

    kb = load_knowledge()
    names: dict[tuple[str, ...], str] = {}
    for disorder in kb.disorders:
        for name in (disorder.name, *disorder.synonyms):
            key = tuple(stem(t) for t in tokenize(name))
            if key and len(name) > 3:  # "BED", "GAD": an abbreviation read in lower case is often a word
                names.setdefault(key, f"disorder:{disorder.category}")
    for drug in kb.drugs:
        for name in (drug.name, *drug.synonyms):
            key = tuple(stem(t) for t in tokenize(name))
            if key:
                names.setdefault(key, f"drug:{drug.name.lower()}")
    # short and lay names the knowledge base does not hold ("bipolar", "manic depression": contrasts.json)
    extra = _contrasts_json().get("disorder_names", {}).get("names", {})
    for name, category in extra.items():
        key = tuple(stem(t) for t in tokenize(name))
        if key:
            names[key] = f"disorder:{category}"
    return tuple(sorted(names, key=len, reverse=True)), names


@lru_cache(maxsize=memo_size(65536))
def knowledge_named(text: str) -> frozenset[str]:
    """The disorder categories and drugs ``text`` names by a knowledge-base name or synonym
    (``disorder:bipolar``, ``drug:sertraline``)."""
    phrases, names = _knowledge_names()
    stemmed = stems_of(text)
    return frozenset(names[stemmed[a:b]] for a, b in find_phrases(stemmed, phrases))


@lru_cache(maxsize=1)
def _drug_endings() -> tuple[str, ...]:
    raw = _contrasts_json()
    return tuple(raw.get("drug_stems", {}).get("endings", ()))


@lru_cache(maxsize=1)
def _drug_names() -> frozenset[str]:
    """contrasts.json's ``drug_stems.names``: whole names of drugs no ending marks."""
    raw = _contrasts_json()
    return frozenset(w.lower() for w in raw.get("drug_stems", {}).get("names", ()))


@lru_cache(maxsize=memo_size(65536))
def drugs_by_ending(text: str) -> frozenset[str]:
    """The drugs ``text`` names that the knowledge base does not list, by the ending of their international
    name (contrasts.json's ``drug_stems``: "sumatriptan", "omeprazole"), as ``drug:<word>``; a word the
    knowledge base names is left to :func:`knowledge_named`."""
    endings = _drug_endings()
    known = {n for n in knowledge_named(text) if n.startswith("drug:")}
    out = set()
    for token in tokenize(text):
        word = token.lower()
        named = word in _drug_names() or any(word.endswith(e) and len(word) > len(e) + 2 for e in endings)
        if named and f"drug:{word}" not in known:
            if not knowledge_named(word):
                out.add(f"drug:{word}")
    return frozenset(out)


def _named_differ(checkpoint: str, output: str) -> str | None:
    """When both statements name a disorder (or a drug) and none of the checkpoint's is among the output's
    ("schizophrenia" against "bipolar disorder", "sertraline" against "mirtazapine"), what differs; disorders
    are compared by diagnostic category, so "recurrent depression" and "depression" agree."""
    c_named = knowledge_named(checkpoint) | drugs_by_ending(checkpoint)
    if not c_named:
        return None
    o_named = knowledge_named(output) | drugs_by_ending(output)
    for kind in ("disorder", "drug"):
        c_kind = {n for n in c_named if n.startswith(kind)}
        o_kind = {n for n in o_named if n.startswith(kind)}
        if c_kind and o_kind and not c_kind & o_kind:
            if kind == "drug" and any(a.endswith(b[5:]) or b.endswith(a[5:]) for a in c_kind for b in o_kind):
                continue  # a name and its salt or longer form: "thyroxine" and "levothyroxine"
            return f"{kind} ({min(c_kind).split(':')[1]} against {min(o_kind).split(':')[1]})"
    return None


# "my wife's mother" is a mother-in-law, "my sister's son" a nephew: a relative of a relative (other than a
# parent's sibling or parent, which relatives_named reads) named by the pair of roles
_RELATIVE_OF_RELATIVE = {
    ("wife", "mother"): "mother_in_law", ("husband", "mother"): "mother_in_law", ("partner", "mother"): "mother_in_law",
    ("wife", "father"): "father_in_law", ("husband", "father"): "father_in_law", ("partner", "father"): "father_in_law",
    ("wife", "brother"): "brother_in_law", ("husband", "brother"): "brother_in_law",
    ("wife", "sister"): "sister_in_law", ("husband", "sister"): "sister_in_law",
    ("brother", "son"): "nephew", ("sister", "son"): "nephew", ("brother", "daughter"): "niece", ("sister", "daughter"): "niece",
    ("son", "son"): "grandson", ("daughter", "son"): "grandson", ("son", "daughter"): "granddaughter",
    ("daughter", "daughter"): "granddaughter",
}


@lru_cache(maxsize=1)
def _other_person_words() -> frozenset[str]:
    """The one-word other-subject cues that name no relative ("friend", "flatmate", "boss")."""
    cues = load_cues()
    return frozenset(p[0] for p in cues.other_subject if len(p) == 1 and p[0] not in cues.kinship.role_of)


# the words before "a child", "a baby" that make it a stage of the patient's life ("as a child", "when I was a baby")
_LIFE_STAGE_VERBS = frozenset({"as", "was", "were"})


@lru_cache(maxsize=memo_size(65536))
def relatives_bearing(text: str) -> frozenset:
    """The relatives a statement says a finding of: those :func:`relatives_named` reads, except that a relative
    of a relative is one person ("my wife's mother" a mother-in-law, "my brother's son" a nephew, not the wife
    or the brother) and a relative that a ``who`` clause follows is the one it is about ("my mum looks after
    my aunt, who has bipolar disorder" is about the aunt)."""
    named = relatives_named(text)
    if not named:
        return named
    role_of = load_cues().kinship.role_of
    tokens = tokenize(text)
    bare = [t.removesuffix("'s") for t in tokens]
    roles = [role_of.get(w) for w in bare]
    out = set(named)
    others = _other_person_words()
    make = type(next(iter(named)))
    # "as a child", "when I was a baby": a stage of life, not a relative, where the role is said only so
    groups = load_cues().kinship.groups
    kin = [role_of.get(w, w if w in groups else None) for w in bare]

    def staged(i: int) -> bool:
        return i >= 2 and bare[i - 1] in ("a", "an") and bare[i - 2] in _LIFE_STAGE_VERBS

    for role in {kin[i] for i in range(len(bare)) if kin[i] and staged(i)}:
        if all(staged(i) for i in range(len(bare)) if kin[i] == role):
            out = {r for r in out if r.role != role}
    if not out:
        return frozenset()
    for i in range(len(tokens) - 1):
        first, second = roles[i], roles[i + 1]
        if not first and second and tokens[i].endswith("'s") and bare[i] in others:
            # "my neighbour's son": a relative of someone who is no relative of the patient's
            out = {r for r in out if r.role != second}
            out.add(make(f"{second}_of_{bare[i]}", None, None))
            continue
        if first and tokens[i].endswith("'s") and not second and bare[i + 1] in others:
            # "my brother's friend": someone who is no relative, named through one
            out = {r for r in out if r.role != first}
            out.add(make(f"{bare[i + 1]}_of_{first}", None, None))
            continue
        if first and second and tokens[i].endswith("'s"):
            pair = _RELATIVE_OF_RELATIVE.get((first, second))
            if pair is None:
                continue
            out = {r for r in out if r.role not in (first, second)}
            out.add(make(pair, None, None))
    if "who" in bare:
        k = bare.index("who")
        before = next((roles[j] for j in (k - 1, k - 2) if j >= 0 and roles[j]), None)
        if before is not None:
            kept = {r for r in out if r.role == before or r.role.startswith(before)}
            if kept:
                out = kept
    return frozenset(out)


def _relatives_differ(checkpoint: str, output: str) -> str | None:
    """When both statements name relatives and none of the checkpoint's can be one of the output's ("father"
    against "my mum", "maternal aunt" against "my dad's sister", "younger sister" against "my older sister",
    "mother" against "my wife's mother"), which two differ; otherwise ``None``."""
    named = relatives_bearing(checkpoint)
    if not named:
        return None
    said = relatives_bearing(output)
    if not said or any(relatives_agree(a, b) for a in named for b in said):
        return None
    a, b = min(named), min(said)
    return f"relative: {' '.join(x for x in (a.side, a.age, a.role) if x)} against {' '.join(x for x in (b.side, b.age, b.role) if x)}"


# where a checkpoint's finding stops belonging to the relative its clause names: punctuation and contrast words
_BINDING_SPLIT = re.compile(r"[,;:.!?()\u2014]+|\bbut\b|\bthough\b|\balthough\b|\bwhereas\b|\bwhile\b")
# the words before a role word that belong with it ("my older brother", "her mum's sister")
_ROLE_LEAD = frozenset({"my", "his", "her", "their", "our", "your", "the", "a", "an", "older", "younger", "elder",
                        "big", "little", "maternal", "paternal", "late"})


@lru_cache(maxsize=1)
def _binding_skip_stems() -> frozenset[str]:
    """The stems that bind nothing to a person: function words, reporting verbs and the generic words of
    ``language.json``'s ``binding_generic_words``."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    )
    cues = load_cues()
    words = set(cues.function_words) | set(raw.get("binding_generic_words", ()))
    words |= {w for p in cues.reporting_verbs for w in p}
    return frozenset(stem(w) for w in words) | frozenset(words)


def _kin_word(word: str) -> bool:
    kinship = load_cues().kinship
    bare = word.removesuffix("'s")
    return bare in kinship.role_of or bare in kinship.groups


def _content_stems(text: str) -> frozenset[str]:
    skip = _binding_skip_stems()
    return frozenset(
        s for t in tokenize(text) if not _kin_word(t) and (s := stem(t)) not in skip and len(s) > 2 and not s.isdigit()
    )


@lru_cache(maxsize=memo_size(16384))
def _checkpoint_bindings(text: str) -> tuple[tuple[frozenset, frozenset[str]], ...]:
    """Each clause of a checkpoint as (the relatives it names, its content stems)."""
    return tuple(
        (relatives_bearing(part), _content_stems(part)) for part in _BINDING_SPLIT.split(text) if part.strip()
    )


@lru_cache(maxsize=memo_size(16384))
def _output_bindings(text: str) -> tuple[tuple[frozenset, frozenset[str]], ...]:
    """Each stretch of an output from one relative it names to the next, within a clause, as (that relative,
    its content stems); the words before a clause's first relative go with it ("lives with her father")."""
    out = []
    for part in _BINDING_SPLIT.split(text):
        words = part.split()
        cuts = []
        for i, w in enumerate(words):
            bare = re.sub(r"[^a-z']", "", w.lower())
            if not _kin_word(bare):
                continue
            prev = re.sub(r"[^a-z']", "", words[i - 1].lower()) if i else ""
            if prev.endswith("'s") and _kin_word(prev):
                continue  # "my mum's sister", "his partner's son": one person
            j = i
            while j > 0 and re.sub(r"[^a-z']", "", words[j - 1].lower()) in _ROLE_LEAD:
                j -= 1
            while j > 0 and re.sub(r"[^a-z']", "", words[j - 1].lower()).endswith("'s"):
                j -= 1
                while j > 0 and re.sub(r"[^a-z']", "", words[j - 1].lower()) in _ROLE_LEAD:
                    j -= 1
            cuts.append(j)
        if not cuts:
            continue
        cuts[0] = 0
        # between two relatives, the words after an "and" go with the second ("lives with her father and sees
        # her mother monthly"), the words before it with the first
        for k in range(1, len(cuts)):
            joins = [i for i in range(cuts[k - 1] + 1, cuts[k]) if words[i].lower() in ("and", "or", "then")]
            if joins:
                cuts[k] = joins[-1] + 1
        bounds = sorted(set(cuts)) + [len(words)]
        carried: frozenset = frozenset()
        for a, b in zip(bounds, bounds[1:]):
            piece = " ".join(words[a:b])
            named = relatives_bearing(piece)
            # "his partner's son" is the son: the relative through whom he is named is not the one said of
            role_of = load_cues().kinship.role_of
            owners = {
                role_of.get(w.removesuffix("'s"), w.removesuffix("'s"))
                for w, nxt in zip(tokenize(piece), tokenize(piece)[1:])
                if w.endswith("'s") and _kin_word(w) and _kin_word(nxt)
            }
            if owners and any(r.role not in owners for r in named):
                named = frozenset(r for r in named if r.role not in owners)
            stems = _content_stems(piece)
            if named and not stems:
                carried |= named  # "my mum and my sister both have it": the finding is said of both
                continue
            named, carried = named | carried, frozenset()
            if named:
                out.append((named, stems))
    return tuple(out)


# a checkpoint naming one relative is left to _relatives_differ: binding its words as well cost entailed pairs
_BINDING_MIN_ROLES = 2


def _relative_binding_clash(checkpoint: str, output: str) -> str | None:
    """When a checkpoint names two or more relatives, each with its own finding, and the output says a finding
    of one of them of a relative who cannot be that one ("His mother works part-time as a care assistant; his
    father is a scaffolder" against "His father works part-time as a care assistant"; "lives with her mother ...
    sees her father monthly" against "lives with her father and sees her mother monthly"): which word moved."""
    c_parts = _checkpoint_bindings(checkpoint)
    roles = {r.role for named, _ in c_parts for r in named}
    if len(roles) < _BINDING_MIN_ROLES:
        return None
    unbound = frozenset().union(*(stems for named, stems in c_parts if not named))
    bound: dict[str, set] = {}
    for named, stems in c_parts:
        if named:
            for s_ in stems - unbound:
                bound.setdefault(s_, set()).update(named)
    if not bound:
        return None
    for named, stems in _output_bindings(output):
        for s_ in stems & bound.keys():
            if not any(relatives_agree(a, b) for a in named for b in bound[s_]):
                return f"relative: '{s_}' is said of {min(bound[s_]).role}, not {min(named).role}"
    return None


@lru_cache(maxsize=1)
def _subject_blind_stems() -> frozenset[str]:
    """language.json's ``subject_blind_verbs``, as stems."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    )
    return frozenset(stem(v) for v in raw["subject_blind_verbs"]["verbs"])


@lru_cache(maxsize=1)
def _person_words() -> frozenset[str]:
    kin = load_cues().kinship
    return frozenset(kin.role_of) | frozenset(kin.groups) | _other_person_words()


_PATIENT_IN_CHECKPOINT = frozenset({"i", "he", "she", "patient", "pt"})
_PATIENT_OWNER_IN_CHECKPOINT = frozenset({"my", "his", "her", "patient", "pt"})


@lru_cache(maxsize=memo_size(65536))
def verb_subjects(text: str, checkpoint: bool) -> frozenset[tuple[str, bool]]:
    """(verb stem, whether its subject is the patient) for each subject spaCy's parse gives a verb outside
    ``subject_blind_verbs``: the patient is "I" (and, in a checkpoint, written of the patient: "he", "she", "the
    patient", a name); another person is a relative's or another person's word ("my mum", "her aunt", "a
    friend"). A subject that is neither ("it", "they", "he" in a reply) is left out. Empty for a text too long
    to parse."""
    from mentalhospital_env.knowledge.language import _parsed

    doc = _parsed(text)
    if doc is None:
        return frozenset()
    blind, persons = _subject_blind_stems(), _person_words()
    out = set()
    for t in doc:
        if (
            t.dep_ == "poss"
            and t.head is not t
            and t.head.is_alpha
            and t.head.lower_ not in persons
            and (t.head.lower_.endswith("ing") or t.head.dep_ in ("nsubj", "nsubjpass", "ROOT"))
        ):
            # a gerund's owner, or the owner of what the clause is about, is its subject: "my brother's drinking",
            # "his dad's gambling" ("'s" read as a possessive or as "is": the drinking is the brother's either
            # way), "my mum's depression has got worse"
            verb = stem(t.head.lower_)
            word = t.lower_.removesuffix("'s")
            if verb in blind:
                continue
            if word in persons:
                out.add((verb, False))
            elif word == "my" or (checkpoint and word in _PATIENT_OWNER_IN_CHECKPOINT):
                out.add((verb, True))
            continue
        if t.dep_ not in ("nsubj", "nsubjpass") or t.head is t:
            continue
        if stem(t.head.text.lower()) in blind or not t.head.text.isalpha():
            # "my mum's been depressed", "I'm depressed": a being verb's complement is said of its subject
            said = [c for c in t.head.children if c.dep_ in ("acomp", "attr") and c.is_alpha]
            if said and t.i < said[0].i:
                word = t.text.lower().removesuffix("'s")
                verb = stem(said[0].lower_)
                if word in persons:
                    out.add((verb, False))
                elif word == "i" or (checkpoint and word in _PATIENT_IN_CHECKPOINT):
                    out.add((verb, True))
            continue
        verb = stem(t.head.text.lower())
        if verb in blind or not t.head.text.isalpha():
            continue
        word = t.text.lower().removesuffix("'s")
        if word in persons:
            out.add((verb, False))
        elif word == "i" or (checkpoint and word in _PATIENT_IN_CHECKPOINT):
            out.add((verb, True))
        elif checkpoint and t.i > 0 and t.text[:1].isupper() and t.text[1:].islower() and doc[t.i - 1].text != ".":
            out.add((verb, True))  # a name inside the sentence: the record's patient
    return frozenset(out)


def subject_clash(checkpoint: str, output: str) -> str | None:
    """A verb both statements use whose subject is the patient in one and a relative or another person in the
    other, and nobody else's in either ("He avoids phone calls" against "My mum avoids phone calls"; "Sarah
    nursed her mother" against "My aunt nursed my mother"): a finding said of two people. Parsed only when one
    of the two names a person."""
    persons = _person_words()
    # (a possessive names its person: "my mum's been low")
    if persons.isdisjoint(t.removesuffix("'s") for t in tokenize(output)) and persons.isdisjoint(
        t.removesuffix("'s") for t in tokenize(checkpoint)
    ):
        return None
    c_subjects = verb_subjects(checkpoint, True)
    if not c_subjects:
        return None
    o_subjects = verb_subjects(output, False)
    for verb in {v for v, _ in c_subjects} & {v for v, _ in o_subjects}:
        c_who = {p for v, p in c_subjects if v == verb}
        o_who = {p for v, p in o_subjects if v == verb}
        if len(c_who) == 1 and len(o_who) == 1 and c_who != o_who:
            return f"subject differs: '{verb}' is said of {'the patient' if True in c_who else 'another person'}"
    return None


def _times_conflict(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a != b


# --- Opposite meanings and amounts (knowledge/data/contrasts.json) -----------------------------------


@lru_cache(maxsize=1)
def _contrasts():
    """The contrast data, stemmed once: contraries as (a phrases, b phrases), the flip cues, the phrases of each
    frequency level with the level they mark, the excessive count of times a day, the intensity levels' phrases,
    and the substance words that make intensity count."""
    raw = _contrasts_json()

    def phrases(words):
        out = {tuple(stems_of(w)) for w in words}
        return tuple(sorted((p for p in out if p), key=len, reverse=True))

    contraries = tuple((phrases(g["a"]), phrases(g["b"])) for g in raw["contraries"])
    flips = phrases(raw["flip_cues"])
    # the contraries whose phrases hold their own negation ("without trying"): no flip cue turns their sides
    unflipped = frozenset(n for n, g in enumerate(raw["contraries"]) if g.get("flips") is False)

    def levels(block):
        table: dict[tuple[str, ...], int] = {}
        for level, words in block["levels"].items():
            for w in words:
                key = tuple(stems_of(w))
                if key:
                    table[key] = max(table.get(key, 0), int(level))
        return tuple(sorted(table, key=len, reverse=True)), table

    substances = frozenset(stem(w) for w in raw["intensity"].get("substance_words", ()))
    return (
        contraries,
        flips,
        levels(raw["frequency"]),
        float(raw["frequency"].get("times_a_day_excessive", 8)),
        levels(raw["intensity"]),
        substances,
        unflipped,
    )


# clauses for the contrasts: punctuation, a contrast word, or "and" opening a new subject ("no appetite and
# I've lost five kilos"), so that a negation reaches the rest of its own clause only
_CLAUSE_SPLIT = re.compile(
    r"[,;:.!?()]+|\bbut\b|\bthough\b|\balthough\b|\bwhereas\b|\band (?=(?:i|i've|i'm|he|she|they|we|my|his|her)\b)"
)


@lru_cache(maxsize=memo_size(65536))
def _clauses(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(t for t in (stems_of(part) for part in _CLAUSE_SPLIT.split(text.lower())) if t)


_USED_TO = ("use", "to")


def _sides_said(
    text: str, groups: tuple[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]], ...], unflipped: frozenset[int]
) -> frozenset[tuple[int, str]]:
    """The sides of each two-sided meaning of ``groups`` a statement says, as (group, "a" or "b"): a side after an
    odd number of flip cues in the same clause counts as the other side (see :func:`contrary_sides`)."""
    flips = _contrasts()[1]
    out: set[tuple[int, str]] = set()
    for clause in _clauses(text):
        found = find_phrases(clause, flips)
        flip_ends = [e for a_, e in found if clause[a_:e] != _USED_TO]
        past_ends = [e for a_, e in found if clause[a_:e] == _USED_TO]
        for n, (a, b) in enumerate(groups):
            # the longer of two overlapping phrases of one meaning is what the clause says ("few close friends",
            # not the "close friends" inside it)
            spans = sorted(
                (
                    (start, end, side)
                    for side, group in (("a", a), ("b", b))
                    for start, end in find_phrases(clause, group)
                ),
                key=lambda t: (t[0] - t[1], t[0]),
            )
            taken: list[tuple[int, int]] = []
            for start, end, side in spans:
                if any(start < e and s < end for s, e in taken):
                    continue
                taken.append((start, end))
                # "haven't stopped enjoying" enjoys; "nothing I used to enjoy" enjoys no more
                flipped = n not in unflipped and (
                    sum(e <= start for e in flip_ends) % 2 == 1 or any(start - 2 <= e <= start for e in past_ends)
                )
                out.add((n, ("b" if side == "a" else "a") if flipped else side))
    return frozenset(out)


@lru_cache(maxsize=memo_size(65536))
def contrary_sides(text: str) -> frozenset[tuple[int, str]]:
    """The sides of each contrary meaning a statement says, as (group, "a" or "b"): a side after an odd number
    of flip cues in the same clause counts as the other side ("no sudden steps" says gradual, "denies feeling
    restless or agitated" says calm, "I haven't stopped enjoying things" says pleasure)."""
    return _sides_said(text, _contrasts()[0], _contrasts()[6])


@lru_cache(maxsize=1)
def _directions() -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]], ...]:
    """contrasts.json's ``directions``, stemmed once: the two poles of each general direction (more / less,
    better / worse, well / badly, still / stopped) as (a phrases, b phrases)."""

    def phrases(words):
        out = {tuple(stems_of(w)) for w in words}
        return tuple(sorted((p for p in out if p), key=len, reverse=True))

    return tuple((phrases(g["a"]), phrases(g["b"])) for g in _contrasts_json().get("directions", ()))


@lru_cache(maxsize=memo_size(65536))
def direction_sides(text: str) -> frozenset[tuple[int, str]]:
    """The poles of contrasts.json's general ``directions`` a statement says, as (direction, "a" or "b"), read as
    :func:`contrary_sides` reads the contraries (a pole under a flip cue is the other pole: "not sleeping well"
    says badly)."""
    return _sides_said(text, _directions(), frozenset())


# the word-level negation veto that counts the content words two statements share and vetoes when half of them
# differ in negation (a vote of chance-shared words); the learned reader's accepts may overrule it by the parse
SHARED_NEGATION = "negation differs on the shared content"


@lru_cache(maxsize=memo_size(16384))
def clause_polarities(text: str) -> frozenset[bool] | None:
    """Whether each clause of ``text`` is denied, as the parse reads it (contrasts.json's ``clause_negation``):
    the clause heads are the root and the verbs joined to it ("and we never argue", a reported or run-on clause),
    and a head is denied by an odd number of negations among its own dependents (a "neg" dependent, a negative
    word, a dependent phrase holding one: "Nobody in my family's had anything like this") or by being a denying
    verb itself ("Denies", "Has stopped"). ``None`` when the parser is not installed."""
    try:
        from mentalhospital_env.cases.compile import _nlp

        nlp = _nlp()
    except (ImportError, RuntimeError):  # pragma: no cover - a core dependency
        return None
    words, verbs = _clause_negation()
    out: set[bool] = set()
    for head in nlp(text):
        if not (head.dep_ == "ROOT" or (head.dep_ in ("conj", "ccomp", "parataxis") and head.pos_ in ("VERB", "AUX"))):
            continue
        denied = head.lower_ in verbs
        for child in head.children:
            if child.dep_ == "neg" or child.lower_ in words:
                denied = not denied
            elif child.dep_ in ("nsubj", "nsubjpass", "dobj", "attr", "npadvmod", "advmod") and any(
                t.lower_ in words for t in child.subtree
            ):
                denied = not denied
        out.add(denied)
    return frozenset(out)


@lru_cache(maxsize=1)
def _clause_negation() -> tuple[frozenset[str], frozenset[str]]:
    raw = _contrasts_json()["clause_negation"]
    return frozenset(raw["words"]), frozenset(raw["verbs"])


def same_clause_polarity(checkpoint: str, output: str) -> bool:
    """Whether the parse reads both statements as wholly said or wholly denied, alike (every clause of each the
    same way, and the two the same): then a word-level negation vote (:data:`SHARED_NEGATION`) is a paraphrase's
    other words, not a denial ("Never made the booking" for "Never booked the psychologist")."""
    c, o = clause_polarities(checkpoint), clause_polarities(output)
    return c is not None and len(c) == 1 and c == o


def direction_clash(checkpoint: str, output: str) -> str | None:
    """When the output says only the other pole of a general direction the checkpoint says only one pole of
    ("better in the mornings" against "worse in the mornings", "sleeps well" against "I'm not sleeping well").
    The learned reader's accepts pass this gate: the reader reads what a pair is about, not which way it points."""
    n = _other_pole_only(direction_sides(checkpoint), direction_sides, output)
    return None if n is None else f"opposite direction ({_contrasts_json()['directions'][n]['about']})"


def contrary_clash(checkpoint: str, output: str) -> str | None:
    """When the output says only the other side of a contrary meaning the checkpoint says only one side of
    (contrasts.json): "I want to put weight back on" against "frightened of gaining weight"."""
    n = _other_pole_only(contrary_sides(checkpoint), contrary_sides, output)
    return None if n is None else f"opposite meaning ({_contrast_about(n)})"


@lru_cache(maxsize=1)
def _habit_groups() -> frozenset[int]:
    """The contraries (by number) whose first side's object said as done by habit is their second side
    (contrasts.json's ``habit_is_other_side``: the avoidance contrary)."""
    return frozenset(n for n, g in enumerate(_contrasts_json()["contraries"]) if g.get("habit_is_other_side"))


def habit_against_avoidance(checkpoint: str, output: str) -> str | None:
    """When the checkpoint says it avoids something (a first side of a contrary with ``habit_is_other_side``) and the
    output says that thing done by habit, weekly or more often, with no flip cue, avoidance, inability or finding of
    its own in it: "avoids the cinema" against "we go to the cinema every Friday". The thing is a content word both
    statements hold, other than the avoidance phrase's own."""
    groups = _habit_groups()
    if not groups:
        return None
    c_sides = contrary_sides(checkpoint)
    avoided = [n for n, side in c_sides if side == "a" and n in groups and (n, "b") not in c_sides]
    if not avoided:
        return None
    o_freq, _ = amount_levels(output)
    if o_freq is None or o_freq[0] < 4 or contrary_sides(output) & {(n, s) for n in avoided for s in "ab"}:
        return None
    o_clauses = _clauses(output)
    flips = _contrasts()[1]
    if any(find_phrases(clause, flips) for clause in o_clauses):
        return None
    if _inability_words().intersection(tokenize(output)) or (
        read_statement(output).concept_ids - read_statement(checkpoint).concept_ids
    ):
        # a finding beside the habit ("the crowds every Saturday make me panic") may be what the avoidance is of
        return None
    o_stems = {t for clause in o_clauses for t in clause}
    contraries = _contrasts()[0]
    side_stems = {t for n in avoided for phrase in contraries[n][0] for t in phrase}
    function_words = load_cues().function_words
    c_stems = {t for clause in _clauses(checkpoint) for t in clause}
    shared = {t for t in c_stems & o_stems if t not in side_stems and t not in function_words and t[:1].isalpha()}
    if not shared:
        return None
    return f"opposite meaning (avoided, against done by habit: {sorted(shared)[0]!r})"


def _other_pole_only(c_sides, sides_of, output: str) -> int | None:
    """The pair (a direction or a contrary, by its number) of which the checkpoint says only one pole and the output
    only the other; None when there is none (the output is read only when the checkpoint says a pole)."""
    if not c_sides:
        return None
    o_sides = sides_of(output)
    for n, side in c_sides:
        other = "b" if side == "a" else "a"
        if (n, other) in o_sides and (n, side) not in o_sides and (n, other) not in c_sides:
            return n
    return None


@lru_cache(maxsize=None)
def _contrast_about(n: int) -> str:
    raw = _contrasts_json()
    return raw["contraries"][n]["about"]


@lru_cache(maxsize=1)
def _frequency_words() -> dict[str, int]:
    """contrasts.json's frequency adverbs read as written ("monthly"), with their levels."""
    raw = _contrasts_json()
    return {w.lower(): int(v) for w, v in raw["frequency"].get("words", {}).items()}


@lru_cache(maxsize=1)
def _slash_rate() -> re.Pattern:
    """A count written with a slash before a period word of ``language.json``'s rates ("20/day", "3/week")."""
    from mentalhospital_env.knowledge.language import load_cues

    periods = "|".join(sorted(map(re.escape, load_cues().rate_periods), key=len, reverse=True))
    return re.compile(rf"(\d)\s*/\s*(?=(?:{periods})\b)", re.IGNORECASE)


@lru_cache(maxsize=memo_size(65536))
def amount_levels(text: str) -> tuple[tuple[int, int] | None, frozenset[int]]:
    """How often (the span of frequency levels said, lowest and highest, or ``None``) and how much (the
    intensity levels said, read only where a substance is named) a statement says, on the scales of
    contrasts.json."""
    (_, flips, (f_phrases, f_table), excessive, (i_phrases, i_table), substances, _) = _contrasts()
    text = _slash_rate().sub(r"\1 a ", text)  # "Smokes 20/day" says how often as "20 a day" does
    frequency: list[int] = []
    said: set[int] = set()
    named = False
    for clause in _clauses(text):
        # an amount under a negation earlier in its clause is denied, not said ("denies heavy drinking")
        first_flip = min((a for a, _ in find_phrases(clause, flips)), default=len(clause))
        frequency.extend(f_table[clause[a:b]] for a, b in find_phrases(clause, f_phrases) if a < first_flip)
        said.update(i_table[clause[a:b]] for a, b in find_phrases(clause, i_phrases) if a < first_flip)
        named = named or not substances.isdisjoint(clause)
    adverbs = _frequency_words()
    frequency.extend(adverbs[t] for t in tokenize(text) if t in adverbs)
    for value, unit in _quantities(text):
        if unit.startswith("time") and unit.endswith("/day"):
            frequency.append(8 if value >= excessive else 6)
        elif named and unit.endswith("/day"):  # "~1 L vodka/day", "six pints a night": every day
            frequency.append(6)
        elif unit.startswith("time") and unit.endswith("/week"):
            frequency.append(5 if value >= 3 else 4)
        elif unit.startswith("time") and unit.endswith("/month"):  # "1-2x/month": rare; "three times a month" near weekly
            frequency.append(4 if value >= 3 else 3)
    span = (min(frequency), max(frequency)) if frequency else None
    return span, frozenset(said) if named else frozenset()


def amount_level_clash(checkpoint: str, output: str) -> str | None:
    """When both statements say how often and the levels differ ("before meals" against "forty times a day"), or
    both say how much of a substance and share no level ("a glass at Christmas" against "drinks heavily")."""
    c_freq, c_int = amount_levels(checkpoint)
    if not c_freq and not c_int and "times" not in bare_counts(checkpoint):
        return None
    o_freq, o_int = amount_levels(output)
    if c_freq and o_freq and (c_freq[1] + 2 <= o_freq[0] or o_freq[1] + 2 <= c_freq[0]):
        return f"amount differs (how often: level {c_freq} against {o_freq})"
    if c_int and o_int and not c_int & o_int:
        return f"amount differs (how much: level {max(c_int)} against {max(o_int)})"
    return _episodes_against_habit(checkpoint, output, c_freq, o_freq)


def _episodes_against_habit(
    checkpoint: str, output: str, c_freq: tuple[int, int] | None, o_freq: tuple[int, int] | None
) -> str | None:
    """A habit said by how often (at or above contrasts.json's ``counts.habit_level``: "most nights") against a
    statement that says no frequency and counts the times at most ``counts.episode_max`` ("once", "on two
    occasions"): one or two episodes are not a habit, whichever statement says which."""
    habit, most = _episode_limits()
    for freq, other, other_freq in ((c_freq, output, o_freq), (o_freq, checkpoint, c_freq)):
        if freq and freq[0] >= habit and other_freq is None:
            times = bare_counts(other).get("times")
            if times and times[1] <= most:
                return f"amount differs (a habit, level {freq}, against {times[1]:g} time(s))"
    return None


@lru_cache(maxsize=1)
def _episode_limits() -> tuple[int, float]:
    """contrasts.json's ``counts``: the lowest frequency level read as a habit and the most times read as episodes."""
    raw = _contrasts_json()["counts"]
    return int(raw["habit_level"]), float(raw["episode_max"])


@lru_cache(maxsize=1)
def _condition_groups() -> tuple[tuple[tuple[str, ...], ...], dict[tuple[str, ...], int]]:
    """contrasts.json's ``conditions``: every naming phrase, stemmed, longest first, and its group."""
    raw = _contrasts_json()["conditions"]["groups"]
    table = {tuple(stems_of(w)): n for n, group in enumerate(raw) for w in group if stems_of(w)}
    return tuple(sorted(table, key=len, reverse=True)), table


@lru_cache(maxsize=memo_size(65536))
def conditions_named(text: str) -> frozenset[int]:
    """The physical conditions a statement names (groups of contrasts.json's ``conditions``)."""
    phrases, table = _condition_groups()
    tokens = tuple(stems_of(text))
    return frozenset(table[tokens[a:b]] for a, b in find_phrases(tokens, phrases))


def condition_clash(checkpoint: str, output: str) -> str | None:
    """When both statements name physical conditions and share none ("irritable bowel syndrome" against
    "thyroid tablets", "a stroke" against "a heart attack")."""
    c = conditions_named(checkpoint)
    if not c:
        return None
    o = conditions_named(output)
    return "another condition named" if o and not c & o else None


@lru_cache(maxsize=1)
def _when_data():
    """contrasts.json's ``when`` block, ready to read: units in days, spans of bare plurals and vague counts,
    the fixed points ("last month") as stemless token tuples, the duration markers, the ratio."""
    raw = _contrasts_json()["when"]
    return (
        {k: float(v) for k, v in raw["units_in_days"].items()},
        tuple(float(x) for x in raw["bare_plural"]),
        {tuple(k.split()): tuple(float(x) for x in v) for k, v in raw["vague_counts"].items()},
        {tuple(k.split()): tuple(float(x) for x in v) for k, v in raw["points"].items()},
        tuple(sorted((tuple(m.split()) for m in raw["duration_markers"]), key=len, reverse=True)),
        frozenset(raw["duration_after"]),
        float(raw["ratio"]),
    )


_WHEN_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?")


def _count_before(tokens: tuple[str, ...], end: int, start: int) -> tuple[float, float] | None:
    """The count said in ``tokens[start:end]`` (just before a unit word) as a span: a number ("forty", "18"),
    a vague count ("several"), or ``None`` when there is none."""
    vague = _when_data()[2]
    words = tokens[start:end]
    for k in (3, 2, 1):
        if len(words) >= k and tuple(words[-k:]) in vague:
            return vague[tuple(words[-k:])]
    # the number words right before the unit only ("took 14 tablets two weeks ago" is two weeks)
    number_words = _single_number_words()
    k = len(words)
    while k > 0 and (words[k - 1][0].isdigit() or words[k - 1] in number_words or words[k - 1] == "and"):
        k -= 1
    said = [v for v, _ in quantities(" ".join(words[k:]) + " unit")] if k < len(words) else []
    return (min(said), max(said)) if said else None


@lru_cache(maxsize=1)
def _single_number_words() -> frozenset[str]:
    return frozenset(p[0] for p, _ in load_cues().number_words if len(p) == 1)


@lru_cache(maxsize=memo_size(65536))
def when_marks(text: str) -> tuple[frozenset[tuple[float, float]], frozenset[tuple[float, float]]]:
    """The points in the past (``"eight months ago"``, ``"last year"``) and the durations (``"for six years"``,
    ``"a two-month history"``) a statement says, each as a span of days (contrasts.json's ``when``)."""
    units, bare, _, points, markers, after, _ = _when_data()
    tokens = tuple(_WHEN_TOKEN.findall(text.lower().replace("\u2019", "'").replace(",", "")))
    said_points: set[tuple[float, float]] = set()
    durations: set[tuple[float, float]] = set()

    def span(unit_at: int, start: int) -> tuple[float, float]:
        days = units[tokens[unit_at]]
        count = _count_before(tokens, unit_at, start)
        if count is None:
            count = bare if tokens[unit_at].endswith("s") else (1.0, 1.0)
        return (count[0] * days, count[1] * days)

    for i, token in enumerate(tokens):
        if token == "ago" and i > 0 and tokens[i - 1] in units:
            said_points.add(span(i - 1, max(0, i - 4)))
        for phrase, value in points.items():
            if tokens[i : i + len(phrase)] == phrase:
                said_points.add((value[0], value[1]))
        for marker in markers:
            if tokens[i : i + len(marker)] != marker:
                continue
            j = i + len(marker)
            if j < len(tokens) and tokens[j] == "the" and tokens[j + 1 : j + 2] in (("last",), ("past",)):
                j += 2
            unit_at = next((k for k in range(j, min(len(tokens), j + 4)) if tokens[k] in units), None)
            if unit_at is not None and not (unit_at + 1 < len(tokens) and tokens[unit_at + 1] == "ago"):
                durations.add(span(unit_at, j))
            break
        if token in after and i > 0 and tokens[i - 1] in units:
            durations.add(span(i - 1, max(0, i - 4)))
    return frozenset(said_points), frozenset(durations)


def when_clash(checkpoint: str, output: str) -> str | None:
    """When both statements say how long ago (or both how long) and every two of their spans lie more than the
    ratio apart ("eight months ago" against "twenty years ago", "for six years" against "for six months",
    "of four days duration" against "for years")."""
    c_points, c_long = when_marks(checkpoint)
    if not c_points and not c_long:
        return None
    o_points, o_long = when_marks(output)
    ratio = _when_data()[6]

    def apart(a: frozenset, b: frozenset) -> bool:
        return bool(a and b) and all(x[1] * ratio < y[0] or y[1] * ratio < x[0] for x in a for y in b)

    if apart(c_points, o_points):
        return "time differs (how long ago)"
    if apart(c_long, o_long):
        return "time differs (how long)"
    return None


# --- The check applied to every pair ---------------------------------------------------------------


@lru_cache(maxsize=memo_size(65536))
def statement_conflict(checkpoint: str, output: str) -> str | None:
    """Why ``output`` cannot entail ``checkpoint`` (negation, subject, time or direction), or ``None``.

    Only what the two statements share is compared: a concept or content word in both must have the
    same negation and subject, and no past-versus-current conflict; a directional word on the same
    attribute must point the same way (``poor sleep`` against ``sleeping too much``). Then the contrasts
    data: an opposite meaning said without a negation word, or another amount (:func:`contrary_clash`,
    :func:`amount_level_clash`).
    """
    return (
        _reading_conflict(checkpoint, output)
        or contrary_clash(checkpoint, output)
        or habit_against_avoidance(checkpoint, output)
        or amount_level_clash(checkpoint, output)
        or when_clash(checkpoint, output)
        or condition_clash(checkpoint, output)
        or _relative_binding_clash(checkpoint, output)
        or subject_clash(checkpoint, output)
    )


@lru_cache(maxsize=1)
def _cessation_cues() -> tuple[tuple[str, ...], ...]:
    """language.json's ``cessation_cues``, as token tuples, longest first."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    )
    return tuple(
        sorted({tuple(tokenize(c)) for c in raw.get("cessation_cues", {}).get("cues", ())}, key=len, reverse=True)
    )


@lru_cache(maxsize=1)
def _inability_words() -> frozenset[str]:
    """language.json's ``cessation_cues.inability``: words before which a cessation cue is a lost ability."""
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    )
    return frozenset(w for c in raw.get("cessation_cues", {}).get("inability", ()) for w in tokenize(c))


@lru_cache(maxsize=memo_size(65536))
def says_stopped(text: str) -> bool:
    """Whether ``text`` says something has stopped (``cessation_cues`` outside its concept mentions and not
    after an inability word: "I can't go on buses any more" is a lost ability; or an ``ended`` cue: "gave up the cigarettes", "no longer drives", "ex-smoker", "not had any since")."""
    tokens = tuple(tokenize(text))
    inside = {j for m in load_lexicon().find(text, max_gap=2) for j in range(m.start, m.end)}
    unable = _inability_words()
    for cue in _cessation_cues():
        n = len(cue)
        if any(
            tokens[i : i + n] == cue
            and inside.isdisjoint(range(i, i + n))
            and unable.isdisjoint(tokens[max(0, i - 10) : i])
            for i in range(len(tokens) - n + 1)
        ):
            return True
    return has_cue(text, "ended")


def _stopped_alike(c: StatementReading, o: StatementReading, c_negated: bool, o_negated: bool) -> bool:
    """A finding the checkpoint says has stopped, and the output says has stopped or is absent: no negation clash
    ("She stopped smoking at 60" read as denied, "I gave up the cigarettes at sixty" read as said: both say it
    ended)."""
    if c_negated == o_negated:
        return True
    # the checkpoint must say it stopped: against a plain denial ("Denies anhedonia") an output's "any more" is
    # the finding itself ("I don't enjoy my hobbies any more"), and a non-smoker is no ex-smoker
    return says_stopped(c.text) and (o_negated or says_stopped(o.text))


def _reading_conflict(checkpoint: str, output: str) -> str | None:
    """:func:`statement_conflict` from the two statements' readings: normal function against a finding,
    implied and whole-statement clashes, relatives, named disorders and drugs, negation, subject and time of the
    shared concepts and words, quantities, and directions."""
    c = read_statement(checkpoint)
    o = read_statement(output)
    clash = _normal_against_finding(c, o) or _normal_against_finding(o, c)
    if clash:
        return f"direction differs (normal function against {clash})"
    other = _another_finding(c, o)
    if other:
        return f"direction differs (opposite finding: {other})"
    implied = _implied_direction_clash(c, o) or _implied_direction_clash(o, c)
    if implied:
        return f"direction differs ({implied})"
    whole = _whole_statement_clash(c, o)
    if whole:
        return whole
    if not _may_share(c, o):  # nothing in common: nothing to disagree about
        return None
    relatives = _relatives_differ(checkpoint, output)
    if relatives:
        return f"subject differs ({relatives})"
    named = _named_differ(checkpoint, output)
    if named:
        return f"another {named}"
    for cc in c.concepts:
        if cc.negated:
            implying = next(
                (
                    oc.concept_id
                    for oc in o.concepts
                    if not oc.negated
                    and (
                        (_same_subject(oc, cc) and cc.concept_id in implied_concepts(oc.concept_id))
                        or (oc.subject == "other" and cc.concept_id in relatives_concepts(oc.concept_id))
                    )
                ),
                None,
            )
            if implying and not any(oc.concept_id == cc.concept_id and oc.negated for oc in o.concepts):
                return f"negation differs on {cc.concept_id} (implied by {implying})"
        found = [oc for oc in o.concepts if oc.concept_id == cc.concept_id]
        if not found:
            continue
        if not any(oc.negated == cc.negated for oc in found):
            if not any(_stopped_alike(c, o, cc.negated, oc.negated) for oc in found):
                return f"negation differs on {cc.concept_id}"
            continue
        if not any(oc.negated == cc.negated and _same_subject(oc, cc) for oc in found):
            return f"subject differs on {cc.concept_id}"
        if all(_times_conflict(oc.time, cc.time) for oc in found if oc.negated == cc.negated):
            return f"time frame differs on {cc.concept_id}"
    shared = 0.0
    negation_clash = subject_clash = time_clash = 0.0
    about_relatives = concepts_about_relatives()
    between = concepts_between_persons()
    person_words = _person_stems()
    when = _when_stems()
    avoids = not c.negated and "avoidance" in c.cues
    normal = normal_concepts(c, o)
    # Both statements call a function normal and neither holds a negation cue: any word they read as denied
    # is denied only by a phrase that says a function is fine ("I can focus fine" denies poor concentration),
    # so "concentration intact" and "I can focus fine" do not differ in negation.
    both_normal = bool(c.normal) and bool(o.normal) and not c.negated and not o.negated
    for cw in c.words:
        alike = o.alike_stems(cw.stem)
        if not alike:
            continue
        found = [ow for ow in o.words if ow.stem in alike]
        weight = word_weight(cw.stem)
        shared += weight
        if both_normal:
            if not any(ow.subject == cw.subject for ow in found):
                subject_clash += weight
            elif all(_times_conflict(ow.time, cw.time) for ow in found):
                time_clash += weight
            continue
        if cw.negated and (
            (cw.concept_id is not None and cw.concept_id in normal)
            or any(not ow.negated and ow.stem in o.normal for ow in found)
        ):
            # "denies difficulty concentrating" against "my concentration is fine": the same denial; every
            # word of a finding the output denies by calling its function normal agrees, the "problems" of
            # "no problems with my memory" (the normal phrase's own word) included, and so does a word the output
            # calls fine whatever finding the checkpoint reads it under ("no heart problems", "my heart's fine")
            continue
        if not any(ow.negated == cw.negated for ow in found) and not (
            # "avoids buses" against "I won't get on a bus": keeping away from a thing is not doing it
            avoids and not cw.negated and all(ow.negated for ow in found)
        ) and not any(_stopped_alike(c, o, cw.negated, ow.negated) for ow in found):
            if cw.concept_id is not None:  # a word of the checkpoint's finding itself
                if (
                    any(oc.concept_id == cw.concept_id and oc.negated == cw.negated for oc in o.concepts)
                    and any(oc.concept_id == cw.concept_id and oc.negated != cw.negated for oc in o.concepts)
                    # ... said with a word of the finding, not only with a person's ("her friend has nobody to
                    # support her": the friend is no mention of support)
                    and any(
                        ow.concept_id == cw.concept_id and ow.negated == cw.negated and ow.stem not in person_words
                        for ow in o.words
                    )
                ):
                    # the output says the finding both ways, once as a heading ('Drug allergies: "No
                    # allergies."'): the mention with the checkpoint's polarity answers for its words
                    continue
                if cw.said_negated and not cw.negated and any(
                    ow.negated and ow.concept_id is None for ow in found
                ):
                    # "not eating" (restricting food) against "I haven't eaten": the same words, negated as said
                    continue
                if any(cw.concept_id in ow.also for ow in found) and any(
                    oc.concept_id == cw.concept_id and oc.negated == cw.negated for oc in o.concepts
                ):
                    # the output's word is read under another concept first, but it holds the checkpoint's
                    # finding too, with its polarity ("my periods" of menstrual history in "my periods are
                    # regular", which denies amenorrhoea as "Periods regular." does)
                    continue
                return f"negation differs on {cw.stem!r}"
            if _date_bounds_denial(cw.stem, checkpoint if cw.negated else output):
                # a date that bounds a denial ("no falls since June") read as said in the other statement ("not had a
                # fall since that one in June"): the denial and the date stand in different clauses
                shared -= weight
                continue
            negation_clash += weight
        elif not any(ow.subject == cw.subject for ow in found):
            if cw.concept_id is None and (cw.stem in when or cw.stem[:1].isdigit()):
                # a word that only dates or counts ("six weeks", "since") belongs to no one: "since she was six
                # weeks old I've been crying" dates the speaker's crying by the baby's age
                pass
            elif cw.concept_id in about_relatives or cw.concept_id in between or cw.stem in person_words:
                # a family-history finding, a bond with someone (a marriage, a household), or the relative's own
                # name ("husband"), has no subject to differ
                pass
            elif cw.concept_id is not None:
                return f"subject differs on {cw.stem!r}"
            else:
                subject_clash += weight
        elif all(_times_conflict(ow.time, cw.time) for ow in found):
            time_clash += weight
    # Words shared by chance ("work", "day") should not veto on their own when most agree.
    if shared:
        if negation_clash * 2 >= shared:
            return SHARED_NEGATION
        if subject_clash * 2 >= shared:
            return "subject differs on the shared content"
        if time_clash * 2 >= shared:
            return "time frame differs on the shared content"
    amount_clash = (
        _amounts_differ(_quantities(checkpoint), _quantities(output), checkpoint, output)
        or _counts_differ(checkpoint, output)
        or scale_score_clash(checkpoint, output)
    )
    if amount_clash:
        return amount_clash
    c_polarity, o_polarity = c.polarity, o.polarity
    if c.phrase_marks or o.phrase_marks:
        # A direction that a concept's own phrase carries is the concept itself: when both statements
        # hold the concept alike (or the output denies it by a normal function), it is no disagreement.
        agreed = normal | {
            cc.concept_id
            for cc in c.concepts
            if any(
                oc.concept_id == cc.concept_id and oc.negated == cc.negated and oc.subject == cc.subject
                for oc in o.concepts
            )
        }
        if agreed:
            c_polarity = c_polarity - {m[:3] for m in c.phrase_marks if m[3] in agreed}
            o_polarity = o_polarity - {m[:3] for m in o.phrase_marks if m[3] in agreed}
    neither_negated = not c.negated and not o.negated
    for axis, attribute, sign in c_polarity:
        for o_axis, o_attribute, o_sign in o_polarity:
            if not attribute or not same_stem(attribute, o_attribute):
                continue
            if axis == o_axis and o_sign == -sign:
                return f"direction differs on {attribute}"
            # "poor concentration" against "concentration has improved": a state against a change the other way
            # (less of a problem is a change for the better: "anxiety reduced" is "anxiety has eased")
            if (
                "change" in (axis, o_axis)
                and axis != o_axis
                and _valence((axis, attribute, sign), c, True)
                == -_valence((o_axis, o_attribute, o_sign), o, True)
            ):
                return f"direction differs on {attribute}"
            # "speech normal" against "speech loud and pressured", "mood euthymic" against "mood elevated"
            if neither_negated and (
                (axis == "integrity" and sign > 0 and o_axis in ("amount", "speed"))
                or (o_axis == "integrity" and o_sign > 0 and axis in ("amount", "speed"))
            ):
                return f"direction differs on {attribute} (normal against changed)"
    stopped = _stopped_against_ongoing(c, o) or _stopped_against_ongoing(o, c)
    if stopped:
        return f"direction differs (stopped against ongoing: {stopped})"
    # Directions on different words of a shared topic: one sign on an axis against the other sign; a
    # state ("poor", "increased") against a change the other way ("improved", "worse").
    if shared or (c.concept_ids & o.concept_ids):
        return topic_direction_clash(c, o, c_polarity, o_polarity)
    return None


def _whole_statement_clash(c: StatementReading, o: StatementReading) -> str | None:
    """A difference in who or when that no shared word needs to show: a whole output about someone else
    than the whole checkpoint ("her mother washes her hands over and over" for "obsessive handwashing"); a
    whole output in the past against a checkpoint stated as current in so many words ("currently", "at
    present"); a whole output in the past that says it has ended ("but not anymore", "sober for two years")
    against a checkpoint that is neither past nor a denial."""
    if not c.words or not o.words:
        return None
    c_subjects = {w.subject for w in c.words}
    # A family history ("No family psychiatric history") is about the relatives whoever the clause's subject
    # is: "nobody in my family has had mental health problems" says it with the family as the subject (one
    # relative named in the output alone, "my sister has had no problems", is no word on the whole family).
    about_family = (
        bool(c.concepts)
        and all(cc.concept_id in concepts_about_relatives() for cc in c.concepts)
        and has_cue(o.text, "whole_family")
        and not (relatives_bearing(o.text) and not relatives_bearing(c.text))
    )
    if len(c_subjects) == 1 and not about_family and not any(w.subject in c_subjects for w in o.words):
        return "subject differs (the whole statement)"
    remote = _remote_past_only(c, o)
    if remote:
        return f"time frame differs (only long ago: {remote})"
    then = _then_not_now(c, o)
    if then:
        return f"time frame differs (said of then against now: {then})"
    recurred = _ended_against_present(c, o)
    if recurred:
        return f"time frame differs (the checkpoint says it has ended; the output: {recurred})"
    if _hypothetical_only(c.text, o.text):
        return "the output says what would happen, not what did"
    c_cues, o_cues = c.cues, o.cues
    if not c_cues and "ended" not in o_cues:
        return None
    c_past = any(w.time == "past" for w in c.words)
    if "onset" not in o_cues and all(
        w.time == "past" for w in o.words
    ):  # "this bout started two months ago" goes on
        if "current_time_overrides" in c_cues and all(w.time == "current" for w in c.words):
            return "time frame differs (the whole statement)"
        # "smokes cannabis daily" against "I smoked cannabis every day at university": a habit now against one then
        if "habitual" in c_cues and not c.negated and not c_past:
            return "time frame differs (a present habit against a past one)"
    if "ended" in o_cues and "ended" not in c_cues and not c.negated and not c_past:
        return "time frame differs (the output says it has ended)"
    return None


def _shared_words(c: StatementReading, o: StatementReading) -> list[ContentWord]:
    """The output's content words that are alike to a word of the checkpoint."""
    return [w for cw in c.words for w in o.words if w.stem in o.alike_stems(cw.stem)]


def _then_not_now(c: StatementReading, o: StatementReading) -> str | None:
    """A finding the checkpoint states in the present that the output tells of a past time and then sets against now
    after a "but" ("Avoids phone calls" against "As a teenager he hated the phone, but he's fine with it these days";
    "Heavy daily drinking" against "He drank heavily in his twenties but has cut right down since"): every word the
    two share lies before the "but" and in the output's past, and what follows it is not in the past. The shared
    word, else ``None``. A checkpoint in the past tense ("At 19 she had funny turns") is a history, left alone."""
    if c.negated or o.negated or "ended" in c.cues or any(w.time == "past" for w in c.words):
        return None
    tokens = tokenize(o.text)
    if "but" not in tokens[1:] or _past_tense(tokenize(c.text)):
        return None
    turn = tokens.index("but", 1)
    if _past_tense(tokens[turn + 1 :]) or has_cue(" ".join(tokens[turn + 1 :]), "past_time"):
        return None
    before = {word_key(stem(t)) for t in tokens[:turn]}
    shared = _shared_words(c, o)
    if not shared or any(w.time != "past" or w.stem not in before for w in shared):
        return None
    return shared[0].stem


def _past_tense(tokens: Sequence[str]) -> bool:
    """Whether a statement holds a verb in the past tense, read from its words (the parse runs without a tagger):
    ``language.json`` ``recent_cues``' past words, or an "-ed" word not after one of its ``ed_not_past_after``."""
    cues = load_cues()
    past, not_after = cues.past_words, cues.ed_not_past_after
    return any(
        t in past or (t.endswith("ed") and len(t) > 4 and t.isalpha() and (i == 0 or tokens[i - 1] not in not_after))
        for i, t in enumerate(tokens)
    )


def _holds(tokens: Sequence[str], phrases: tuple[tuple[str, ...], ...]) -> bool:
    return any(tuple(tokens[i : i + len(p)]) == p for p in phrases for i in range(len(tokens) - len(p) + 1))


def _ended_against_present(c: StatementReading, o: StatementReading) -> str | None:
    """A finding the checkpoint says has ended ("One overdose at 28; none since", "Cannabis once at 14, none since",
    "Ex-smoker", "no further trouble") that the output says of now or of a time just gone, with no end of its own
    ("He's smoking weed", "She took an overdose last week"): "recent" or "present", else ``None``. A past-tense
    output with no recent time ("I smoked a pack a day for years") is left alone."""
    if "ended" not in c.cues or o.negated or "ended" in o.cues or not _shared_words(c, o):
        return None
    if any(w.time == "past" for w in o.words) or any(m[0] == "cessation" for m in o.polarity):
        return None
    tokens = tokenize(o.text)
    if _holds(tokens, load_cues().recent):
        return "recent"
    return None if _past_tense(tokens) else "present"


_SENTENCE_END = re.compile(r"[.!?;]+")


def _conditional(tokens: Sequence[str]) -> bool:
    """A condition opening a clause and a modal of what would follow it: not a modal of the past ("could have
    tried", "if I'd been quicker": regret about what happened) nor the "'d" of "had" right after the condition."""
    cues = load_cues()
    if not _holds(tokens, cues.hypothetical_openers):
        return False
    for i, t in enumerate(tokens):
        if (t,) not in cues.hypothetical_modals:
            continue
        after = tokens[i + 1 : i + 3]
        if after[:1] == ["been"] or (after[:1] in (["have"], ["'ve"]) and after[1:] != ["to"]):
            continue  # "could have tried", not "might have to stop"
        if i > 0 and (tokens[i - 1],) in cues.hypothetical_openers and t.endswith("'d"):
            continue
        return True
    return False


@lru_cache(maxsize=memo_size(65536))
def _hypothetical_only(checkpoint: str, output: str) -> bool:
    """Whether the output says what would happen under a condition ("If it got any worse I might have to stop going
    to the cinema", "If I tried to stop I reckon I'd last a day") and the checkpoint says nothing conditional: a
    condition opening a clause and a modal of its consequence (``language.json`` ``hypothetical``). A condition with
    a plain consequence is a fact ("If I haven't had a smoke I'm ratty"). Wishes and thoughts of death or harm
    (``hypothetical.exempt_concepts``: "if I could I'd go to sleep and not wake up") are said this way, and are left
    alone."""
    cues = load_cues()
    c_tokens = tokenize(checkpoint)
    if _holds(c_tokens, cues.hypothetical_openers) or _holds(c_tokens, cues.hypothetical_modals):
        return False
    sentences = [part for part in _SENTENCE_END.split(output) if part.strip()]
    conditional = [part for part in sentences if _conditional(tokenize(part))]
    if not conditional:
        return False
    # the words the checkpoint shares with the output lie in its conditional sentences only ("Every Monday
    # something's gone, his PE stuff. He'd lose his head if it wasn't screwed on." says the finding first)
    said = _content_stems(" ".join(part for part in sentences if part not in conditional))
    if said & _content_stems(checkpoint):
        return False
    exempt = cues.hypothetical_exempt
    return not any(m.concept_id in exempt for text in (checkpoint, output) for m in read_statement(text).concepts)


def _remote_past_only(c: StatementReading, o: StatementReading) -> str | None:
    """A finding the checkpoint states as present (no past word, not denied) that the output says only of a time
    long gone ("Hears voices" against "I heard voices once when I had a fever as a child"): the finding, else
    ``None``. Findings dated to childhood by definition (``remote_past.childhood_domains``) and an onset long ago
    ("it started years ago") are no clash."""
    if c.negated or o.negated or not has_cue(o.text, "remote_past") or has_cue(o.text, "onset"):
        return None
    if any(w.time == "past" for w in c.words) or "ended" in c.cues:
        return None
    lexicon, childhood = load_lexicon(), load_cues().childhood_domains
    # (a checkpoint that itself dates something long ago, "gained 12 kg since stopping smoking three years ago",
    # is not read word by word against an output that dates the same thing)
    remote_in_checkpoint = has_cue(c.text, "remote_past")
    for cc in c.concepts:
        concept = lexicon.get(cc.concept_id)
        if concept.kind == "history" or concept.domain in childhood:
            continue
        found = [oc for oc in o.concepts if oc.concept_id == cc.concept_id and oc.subject == cc.subject]
        if found and all(oc.time == "past" for oc in found):
            return cc.concept_id
        if not found and cc.subject == "patient" and not remote_in_checkpoint:
            # the output tells the patient's finding in words the lexicon does not read as it ("heard banging
            # through the wall once, years ago" against "hears banging and whispering through the wall"): the
            # checkpoint's content words that the output shares, all said of then (a relative's illness is
            # history, told of then as often as not: "my mother was depressed when I was growing up")
            held = {w.stem for w in c.words}
            shared = [w for w in o.words if any(same_stem(w.stem, h) for h in held)]
            if shared and all(w.time == "past" for w in shared):
                return cc.concept_id
    return None


def _same_subject(a: ConceptReading, b: ConceptReading) -> bool:
    """Whether two mentions of one concept are about the same person (always, for a family-history concept or a
    bond between the patient and someone else)."""
    return (
        a.subject == b.subject
        or a.concept_id in concepts_about_relatives()
        or a.concept_id in concepts_between_persons()
    )


@lru_cache(maxsize=1)
def concepts_about_relatives() -> frozenset[str]:
    """Concepts that are about the patient's relatives by definition (family history): the ``about_relatives``
    lists of the lexicon files. Who the clause is about does not change what they say."""
    return frozenset(lexicon_relations("about_relatives"))


@lru_cache(maxsize=1)
def concepts_between_persons() -> frozenset[str]:
    """Concepts that are the patient's with another person (a marriage, a household, caring for a parent): the
    ``between_persons`` lists of the lexicon files. Said with the other person as subject ("he's been really good
    through all this", "my wife says I've gone distant"), they are still the patient's."""
    return frozenset(lexicon_relations("between_persons"))


@lru_cache(maxsize=1)
def concepts_done_to_patient() -> frozenset[str]:
    """Concepts that happen to the patient at someone else's hands (abuse, violence): the ``done_to_patient``
    lists of the lexicon files. Said with the patient as object ("he hit me"), they are the patient's."""
    return frozenset(lexicon_relations("done_to_patient"))


@lru_cache(maxsize=1)
def _person_stems() -> frozenset[str]:
    """Stems of the one-word other-subject cues ("husband", "mother"): words naming a person."""
    return frozenset(word_key(stem(p[0])) for p in load_cues().other_subject if len(p) == 1)


def topic_direction_clash(
    c: StatementReading,
    o: StatementReading,
    c_polarity: frozenset | None = None,
    o_polarity: frozenset | None = None,
) -> str | None:
    """Directions on different words of one topic that disagree: one sign on an axis against the other
    sign, or a state ("poor", "increased") against a change the other way ("improved", "worse")."""
    c_polarity = c.polarity if c_polarity is None else c_polarity
    o_polarity = o.polarity if o_polarity is None else o_polarity
    if not c_polarity or not o_polarity:
        return None
    for c_axes, o_axes, name in (
        (("amount",), ("amount",), "amount"),
        (("integrity",), ("integrity",), "integrity"),
        (("change",), ("change",), "change"),
        (("speed",), ("speed",), "speed"),
        (("amount", "integrity"), ("change",), "state against change"),
        (("change",), ("amount", "integrity"), "change against state"),
    ):
        against = "change" in c_axes + o_axes and c_axes != o_axes
        c_signs = {_valence(m, c, against) for m in c_polarity if m[0] in c_axes}
        o_signs = {_valence(m, o, against) for m in o_polarity if m[0] in o_axes}
        if len(c_signs) == 1 and len(o_signs) == 1 and c_signs != o_signs:
            return f"direction differs ({name})"
    return None


def _stopped_against_ongoing(a: StatementReading, b: StatementReading) -> str | None:
    """What ``a`` says was stopped or cut down ("I stopped my lithium", "quit smoking weed", "I've cut right
    down") that ``b`` states as ongoing (no stop or decrease of its own, not negated): the word itself, or a
    concept both mention."""
    if any(m[0] == "cessation" or (m[0] == "amount" and m[2] < 0) for m in b.polarity):
        return None  # b stops or lessens too
    own = {m[:3] for m in a.phrase_marks}  # "stopped seeing friends" is social withdrawal, not a stop
    for axis, attribute, sign in a.polarity:
        if axis != "cessation" or sign > 0 or not attribute or (axis, attribute, sign) in own:
            continue
        concepts = {w.concept_id for w in a.words if w.stem == attribute and w.concept_id}
        for w in b.words:
            if (
                not w.negated
                and w.time != "past"  # "history of heavy drinking" is no ongoing drinking
                and (same_stem(w.stem, attribute) or (w.concept_id and w.concept_id in concepts))
            ):
                return attribute
    return None


def _normal_against_finding(a: StatementReading, b: StatementReading) -> str | None:
    """A symptom that ``b`` affirms (and ``a`` does not hold) when ``a`` says the function it is about is
    normal or has improved ("I sleep fine" against "I can't sleep", "my memory has improved" against
    "forgetfulness"), or ``None``."""
    better = a.normal | {
        attribute for axis, attribute, sign in a.polarity if axis == "change" and sign > 0 and attribute
    }
    if not better:
        return None
    lexicon = load_lexicon()
    for bc in b.concepts:
        if (
            bc.negated
            or bc.concept_id in a.concept_ids
            or lexicon.get(bc.concept_id).kind not in ("symptom", "sign")
        ):
            continue
        about = concept_attribute_stems(bc.concept_id)
        if any(same_stem(n, x) for n in better for x in about):
            return bc.concept_id
    return None


@lru_cache(maxsize=1)
def opposite_findings() -> frozenset[tuple[str, str]]:
    """Pairs of lexicon concepts that are opposite findings on one function (psychomotor retardation and
    agitation, insomnia and hypersomnia ...), both ways: the ``opposite_findings`` lists of the lexicon files."""
    out: set[tuple[str, str]] = set()
    for a, b in lexicon_relations("opposite_findings"):
        out.update(((a, b), (b, a)))
    return frozenset(out)


def _another_finding(c: StatementReading, o: StatementReading) -> str | None:
    """The opposite finding the output affirms when the checkpoint affirms one of a pair and the output does
    not ("psychomotor agitation" against "psychomotor retardation"), or ``None``."""
    opposites = opposite_findings()
    for cc in c.concepts:
        if cc.negated or cc.concept_id in o.concept_ids:
            continue
        for oc in o.concepts:
            if (
                not oc.negated
                and oc.concept_id not in c.concept_ids
                and (cc.concept_id, oc.concept_id) in opposites
            ):
                return f"{oc.concept_id} against {cc.concept_id}"
    return None


@lru_cache(maxsize=memo_size(4096))
def implied_directions(concept_id: str) -> frozenset[tuple[str, str, int]]:
    """The directions a concept's clinical terms agree on: ``("amount", "energy", -1)`` for fatigue ("low
    energy", "loss of energy"), ``("amount", "sleep", 1)`` for hypersomnia ("increased sleep"). A mark that
    some term contradicts (the other sign on the same axis and word) is left out."""
    marks = {
        m for term in load_lexicon().get(concept_id).clinical_terms for m in polarity_marks(term) if m[1]
    }
    return frozenset(m for m in marks if (m[0], m[1], -m[2]) not in marks)


def _implied_direction_clash(a: StatementReading, b: StatementReading) -> str | None:
    """A finding that ``a`` affirms (and ``b`` does not name) whose own direction ``b`` states the other way
    ("hypersomnia" against "I'm sleeping much less", "energy increased" against fatigue said as "no energy")."""
    if not b.polarity:
        return None
    own = {m[:3] for m in b.phrase_marks}
    for ac in a.concepts:
        if ac.negated or ac.concept_id in b.concept_ids:
            continue
        for axis, attribute, sign in implied_directions(ac.concept_id):
            for b_axis, b_attribute, b_sign in b.polarity:
                if (
                    b_axis == axis
                    and b_sign == -sign
                    and (b_axis, b_attribute, b_sign) not in own
                    and same_stem(attribute, b_attribute)
                ):
                    return f"{ac.concept_id} against {b_axis} of {b_attribute}"
    return None


def _valence(mark: tuple[str, str, int], reading: StatementReading, against_change: bool) -> int:
    """A mark's sign; set against a change (better / worse), more of a problem counts as worse."""
    axis, attribute, sign = mark
    if against_change and axis == "amount" and attribute in reading.problems:
        return -sign
    return sign


# --- Adjudicators ----------------------------------------------------------------------------------


class Adjudicator(ABC):
    """Decides entailment for pairs below the embedder's threshold: True, False, or None (abstain)."""

    name: str = "adjudicator"

    @abstractmethod
    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[bool | None]:
        """One verdict per ``(checkpoint, output)`` pair, in order."""

    def judge(self, checkpoint: str, output: str) -> bool | None:
        return self.judge_many([(checkpoint, output)])[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class ClinicalAdjudicator(Adjudicator):
    """The offline rule-based clinical adjudicator.

    A pair is entailed when :func:`statement_conflict` finds nothing and the output carries at least
    ``min_share`` of the checkpoint's weighted content (:meth:`carried_share`); when the checkpoint
    names lexicon concepts and the output carries none of them, it needs ``min_share_without_concept``
    ("psychomotor agitation" shares a word with "psychomotor retardation" but not its finding).
    Never abstains.
    """

    name = "clinical"

    def __init__(
        self,
        min_share: float = 0.45,
        min_share_without_concept: float = 0.6,
        phrase_embedder: Embedder | None = None,
        phrase_threshold: float | None = None,
    ):
        for name, value in (
            ("min_share", min_share),
            ("min_share_without_concept", min_share_without_concept),
        ):
            if not 0 < value <= 1:
                raise ValueError(f"clinical adjudicator {name} must lie in (0, 1], got {value}")
        if (phrase_embedder is None) != (phrase_threshold is None):
            raise ValueError("clinical adjudicator: give phrase_embedder and phrase_threshold together")
        self.min_share = min_share
        self.min_share_without_concept = min_share_without_concept
        self.phrase_embedder = phrase_embedder
        self.phrase_threshold = phrase_threshold
        self._phrases: dict[str, object] = {}
        # per output text: its embedding and, per concept, its best similarity to the concept's phrasings and
        # the negation cues that phrasing holds of its own, read once
        self._output_phrasing: dict[str, tuple[object, dict[str, tuple[float, int]]]] = {}
        self._phrase_negations: dict[str, np.ndarray] = {}
        # verdicts per (checkpoint, output): the adjudicator is a pure function of the two texts
        self._verdicts: dict[tuple[str, str], bool] = {}
        # phrasings of a checkpoint set's concepts, stacked (see phrasing_stack); the set a subset was served by
        self._stacked: OrderedDict[frozenset[str], PhrasingStack] = OrderedDict()
        self._stacked_bytes = 0
        self._served_by: OrderedDict[frozenset[str], frozenset[str]] = OrderedDict()

    def clear_cache(self) -> None:
        """Forget the remembered verdicts and output phrasing similarities (the lexicon's stacked phrasings stay)."""
        self._verdicts.clear()
        self._output_phrasing.clear()

    def prepare(self, checkpoints: Sequence[str]) -> None:
        """Read the checkpoints' weighed words and encode the lexicon phrasings of their concepts (with a phrase
        embedder) ahead of time."""
        readings = [read_statement(text) for text in checkpoints]
        for reading in readings:
            reading.share_words  # noqa: B018  (a cached property: read once, here)
        if self.phrase_embedder is None:
            return
        concepts = {cc.concept_id for reading in readings for cc in reading.concepts}
        if concepts:
            self.phrasing_stack(concepts)

    def _concept_phrases(self, concept_id: str):
        phrases = self._phrases.get(concept_id)
        if phrases is None:
            terms = list(load_lexicon().get(concept_id).terms)
            phrases = self.phrase_embedder.encode(terms)
            with memos_off():  # read once here: the phrasings need not take room in the text memos
                self._phrase_negations[concept_id] = np.array([len(negated_spans_in(t)) for t in terms])
            self._phrases[concept_id] = phrases
        return phrases

    def phrased_concepts(self, c: StatementReading, o: StatementReading) -> frozenset[str]:
        """The checkpoint's concepts that the output says in words the lexicon does not list.

        With a phrase embedder, a concept the output does not mention literally counts as carried when
        the output is at least ``phrase_threshold`` similar to one of the concept's lexicon phrasings
        (terms and lay phrases) and its negation and subject agree ("I can't fall asleep at night"
        against the phrasings of insomnia).
        """
        if self.phrase_embedder is None or not c.concepts or not o.words:
            return frozenset()  # an output without a content word says no concept in other words
        literal = o.concept_ids
        out = set()
        for cc in c.concepts:
            if cc.broad or cc.concept_id in literal or cc.concept_id in out:
                # a class of findings ("hallucinations") is said in its members' words, never in phrasings like
                # one member's ("nothing much stands out" against "someone standing there")
                continue
            if o.negated != cc.negated or (
                o.subject != cc.subject and cc.concept_id not in concepts_about_relatives()
            ):  # a family history has no subject to differ (see _same_subject)
                continue
            similarity, phrasing_negations = self.closest_phrasing(o.text, cc.concept_id)
            if similarity < self.phrase_threshold:
                continue
            # When the phrasing the output is like holds a negation of its own ("don't know where I am", of
            # disorientation), an output with no negation more than the phrasing's denies nothing: "I don't
            # know." is no denial of disorientation ("I've never heard things other people couldn't hear" is
            # one of hearing them).
            if cc.negated and phrasing_negations and len(negated_spans_in(o.text)) <= phrasing_negations:
                continue
            # An output that names another finding in the lexicon's words and is closer to that finding's
            # phrasings is about that finding ("I've lost a lot of weight" is weight loss, however near it
            # comes to a phrasing of poor concentration).
            if any(
                self.concept_similarity(o.text, k) >= similarity for k in literal if k not in c.concept_ids
            ):
                continue
            out.add(cc.concept_id)
        return frozenset(out)

    def phrasing_stack(self, concept_ids: Sequence[str]) -> PhrasingStack:
        """The phrasings of at least these concepts in one :class:`PhrasingStack`. A stack built for a larger
        set (all the checkpoints of a case, see :meth:`prepare`) serves every subset of it, so an interview
        whose open checkpoints shrink step by step stacks its phrasings once. Stacks are kept up to
        :data:`PHRASING_STACK_BYTES` together (least recently used forgotten first): sparse ones (the
        hashing embedder's, about 150 kB a case) for every case of a suite, dense ones for a few dozen."""
        wanted = frozenset(concept_ids)
        stacks = self._stacked
        key = wanted if wanted in stacks else self._served_by.get(wanted)
        if key is None or key not in stacks:
            key = next((concepts for concepts in reversed(stacks) if wanted <= concepts), None)
            if key is not None:
                self._served_by[wanted] = key
                if len(self._served_by) > memo_size(4096):
                    self._served_by.popitem(last=False)
        if key is not None:
            stacks.move_to_end(key)
            return stacks[key]
        ordered = tuple(sorted(wanted))
        stack = PhrasingStack(ordered, [self._concept_phrases(k) for k in ordered])
        stacks[wanted] = stack
        self._stacked_bytes += stack.nbytes
        while self._stacked_bytes > PHRASING_STACK_BYTES and len(stacks) > 1:
            self._stacked_bytes -= stacks.popitem(last=False)[1].nbytes
        return stack

    def concept_similarity(self, output: str, concept_id: str) -> float:
        """The output's best cosine with one of the concept's lexicon phrasings (``-inf`` when it has none);
        remembered per output and concept (the output is encoded once)."""
        return self.closest_phrasing(output, concept_id)[0]

    def closest_phrasing(self, output: str, concept_id: str) -> tuple[float, int]:
        """:meth:`concept_similarity`, and how many negation cues the phrasing it is most like holds of its own
        (1 for "don't know where I am"; 0 when the concept has no phrasing)."""
        entry = self._output_phrasing.get(output)
        if entry is None:
            if len(self._output_phrasing) >= _MEMO_SIZE:
                self._output_phrasing.pop(next(iter(self._output_phrasing)))
            entry = (self._output_vector(output), {})
            self._output_phrasing[output] = entry
        vector, best = entry
        found = best.get(concept_id)
        if found is None:
            phrases = self._concept_phrases(concept_id)
            if len(phrases):
                sims = phrases @ vector
                k = int(np.argmax(sims))
                found = (float(sims[k]), int(self._phrase_negations[concept_id][k]))
            else:
                found = (float("-inf"), 0)
            best[concept_id] = found
        return found

    def _output_vector(self, output: str) -> np.ndarray:
        """The output's embedding: the embedder cache's own (read-only) vector when it keeps one, so the memo
        holds a reference rather than a second copy (4 kB a text with the hashing embedder); the same values."""
        encoded = self.phrase_embedder.encode([output])
        cache = getattr(self.phrase_embedder, "cache", None)
        kept = cache.get(output) if cache is not None else None
        return kept if kept is not None else encoded[0].copy()

    def could_entail(self, checkpoint: str, output: str) -> bool:
        """False when :meth:`entailed` refuses the pair at once: no word or concept in common, no concept
        said in other words, no function said to be normal. A cheap test to skip most pairs."""
        c = read_statement(checkpoint)
        o = read_statement(output)
        return (
            _may_share(c, o)
            or bool(self.phrase_embedder is not None and c.concepts and self.phrased_concepts(c, o))
            or bool(normal_concepts(c, o))
        )

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[bool | None]:
        return [self.entailed(c, o) for c, o in pairs]

    def carried_share(self, checkpoint: str, output: str) -> float:
        """Share of the checkpoint's content the output carries, each word weighted by :func:`word_weight`.

        A word is carried when the output has the same stem, or when the word belongs to a concept
        mention of the checkpoint and the output mentions that concept with the same negation and
        subject (``auditory hallucinations`` is carried by ``I hear voices``).
        """
        c = read_statement(checkpoint)
        o = read_statement(output)
        return _carried_share(c, o, self.phrased_concepts(c, o) | normal_concepts(c, o))

    def entailed(self, checkpoint: str, output: str) -> bool:
        key = (checkpoint, output)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._entailed(checkpoint, output)
            if len(self._verdicts) >= _MEMO_SIZE:
                self._verdicts.pop(next(iter(self._verdicts)))
            self._verdicts[key] = verdict
        return verdict

    def _entailed(self, checkpoint: str, output: str) -> bool:
        c = read_statement(checkpoint)
        o = read_statement(output)
        phrased = self.phrased_concepts(c, o) if self.phrase_embedder is not None else frozenset()
        normal = normal_concepts(c, o)
        if not _may_share(c, o) and not (c.concepts and phrased) and not normal:
            return False
        if scale_score_agrees(checkpoint, output):  # a scale's score said under another of its names
            return statement_conflict(checkpoint, output) is None
        if not names_the_finding(c, o):
            return False
        # Every test below must pass; the share, the cheapest and the one most pairs fail, goes first.
        share = _carried_share(c, o, phrased | normal)
        if share and not _carries_more_than_when(c, o, phrased | normal):
            return False
        if c.concepts and not (_carries_a_concept(c, o) or phrased or normal):
            if share < self.min_share_without_concept:
                return False
        elif share < self.min_share:
            return False
        if statement_conflict(checkpoint, output) is not None:
            return False
        # said in other words, but the other way
        return not ((phrased - normal) and topic_direction_clash(c, o))


_MEMO_SIZE = memo_size(65536)

PHRASING_STACK_BYTES = memo_size(64 * 2**20)
"""Memory a :class:`ClinicalAdjudicator` gives its :class:`PhrasingStack` s, all together."""


class PhrasingStack:
    """The lexicon phrasings of some concepts, stacked, for the similarity of many outputs to every phrasing
    at once: :meth:`best` gives each output's best cosine with each concept's phrasings.

    ``concepts`` are in block order; block ``n`` (phrasings ``starts[n]`` on) holds ``concepts[n]``'s. Sparse
    embeddings (the hashing embedder's: a phrasing uses a few dozen of 1024 dimensions) are kept by
    dimension as (phrasing, value) entries, so a stack costs a few hundred kilobytes at most; dense ones as a
    matrix with a row per dimension. The similarities are for a prefilter: they may differ from
    ``phrasings @ vector`` in the last float bits (the sums run in another order).
    """

    def __init__(self, concepts: tuple[str, ...], blocks: Sequence[np.ndarray]):
        self.concepts = concepts
        self.starts = np.cumsum([0] + [len(b) for b in blocks[:-1]])
        stacked = np.vstack(blocks) if blocks else np.zeros((0, 1), dtype=np.float32)  # phrasings x dims
        self.size, self.dimension = stacked.shape
        phrasing, dimension = np.nonzero(stacked)
        self.sparse = len(phrasing) * 4 < stacked.size
        if self.sparse:
            order = np.argsort(dimension, kind="stable")
            self.phrasings = phrasing[order].astype(np.int32)
            self.values = stacked[phrasing, dimension][order]
            self.first = np.zeros(
                self.dimension + 1, dtype=np.int64
            )  # entries of dimension d: first[d]:first[d+1]
            np.cumsum(np.bincount(dimension, minlength=self.dimension), out=self.first[1:])
            self.nbytes = self.phrasings.nbytes + self.values.nbytes + self.first.nbytes
        else:
            self.by_dimension = np.ascontiguousarray(stacked.T)
            self.nbytes = self.by_dimension.nbytes

    def best(self, vectors: np.ndarray) -> np.ndarray:
        """``(outputs, concepts)``: each output vector's highest cosine with one of each concept's phrasings."""
        used = np.flatnonzero(vectors.any(axis=0))
        if self.sparse:
            counts = self.first[used + 1] - self.first[used]
            total = int(counts.sum())
            if total:
                ends = np.cumsum(counts)
                entry = np.arange(total) + np.repeat(self.first[used] - (ends - counts), counts)
                phrasing = self.phrasings[entry]
                weights = vectors[:, np.repeat(used, counts)] * self.values[entry]
                flat = (np.arange(len(vectors))[:, None] * self.size + phrasing).ravel()
                products = np.bincount(flat, weights.ravel(), minlength=len(vectors) * self.size)
                products = products.reshape(len(vectors), self.size)
            else:
                products = np.zeros((len(vectors), self.size))
        elif len(used) * 2 < vectors.shape[1]:  # only the dimensions in use
            products = vectors[:, used] @ self.by_dimension[used]
        else:
            products = vectors @ self.by_dimension
        return np.maximum.reduceat(products, self.starts, axis=1)


def _carried_share(c: StatementReading, o: StatementReading, said: frozenset[str]) -> float:
    """:meth:`ClinicalAdjudicator.carried_share` of two readings; ``said`` holds the checkpoint's concepts
    the output carries in other words (phrasings, a normal function)."""
    carried_concepts = {
        cc.concept_id for cc in c.concepts if any(_carries(oc, cc) for oc in o.concepts)
    } | said
    o_stems = o.stems | amount_stems_carried(c.text, o.text)
    words, total = c.share_words
    carried = 0.0
    for word_stem, weight, holders in words:
        if (
            not holders.isdisjoint(carried_concepts)
            or word_stem in o_stems
            or o.alike_stems(word_stem)
        ):
            carried += weight
    return carried / total if total else 0.0


@lru_cache(maxsize=1)
def _time_units() -> tuple[dict[str, float], float]:
    """Units of time in days by stem (contrasts.json's ``when``: ``units_in_days`` and ``clock_units_in_days``), and
    the ratio within which two amounts of time are the same amount."""
    raw = _contrasts_json()["when"]
    units = {**raw["units_in_days"], **raw.get("clock_units_in_days", {})}
    return {stem(k): float(v) for k, v in units.items()}, float(raw.get("same_amount_ratio", 1.0))


@lru_cache(maxsize=memo_size(65536))
def amount_stems_carried(checkpoint: str, output: str) -> frozenset[str]:
    """The checkpoint's words for its amounts that the output carries in other words: when every amount the
    checkpoint says (:func:`~mentalhospital_env.knowledge.language.quantities`) the output says too, in digits or
    in words ("24 years" and "twenty-four years") or, for time, in another unit within ``same_amount_ratio``
    ("four months" and "seventeen weeks", "two hours a day" and "120 minutes a day"), the checkpoint's number words
    and digits and the units of those amounts. Empty when some amount of the checkpoint is not said."""
    c_amounts = quantities(checkpoint)
    if not c_amounts:
        return frozenset()
    o_amounts = quantities(output)
    if not o_amounts:
        return frozenset()
    days, ratio = _time_units()

    def same(a: tuple[float, str], b: tuple[float, str]) -> bool:
        a_base, _, a_rate = a[1].partition("/")
        b_base, _, b_rate = b[1].partition("/")
        if a_rate != b_rate:
            return False
        if a_base == b_base:
            return a[0] == b[0]
        if a_base in days and b_base in days:
            x, y = a[0] * days[a_base], b[0] * days[b_base]
            return x > 0 and y > 0 and max(x, y) <= ratio * min(x, y)
        return False

    if not all(any(same(a, b) for b in o_amounts) for a in c_amounts):
        return frozenset()
    numbers = _single_number_words()
    out = {word_key(stem(unit.partition("/")[0])) for _, unit in c_amounts}
    out |= {w.stem for w in read_statement(checkpoint).words if w.stem[:1].isdigit() or w.stem in numbers}
    return frozenset(out)


@lru_cache(maxsize=1)
def _undirected_dates() -> tuple[frozenset[str], frozenset[str]]:
    """contrasts.json's ``dates_without_polarity``: the stems of words that only date, and the words before one that
    make it bound a denial ("since", "beyond")."""
    block = _contrasts_json().get("dates_without_polarity", {})
    return frozenset(stem(w) for w in block.get("words", ())), frozenset(block.get("bounds", ()))


def _date_bounds_denial(word_stem: str, denying: str) -> bool:
    """Whether ``word_stem`` only dates (a month, a day, a number in digits) and, in the statement that denies
    (``denying``), bounds the denial: straight after a bound word, a "the" or "last" between ("since June 2026",
    "beyond tonight")."""
    dates, bounds = _undirected_dates()
    if word_stem not in dates and not word_stem[:1].isdigit():
        return False
    tokens = tokenize(denying.lower())
    for j, token in enumerate(tokens):
        if stem(token) != word_stem:
            continue
        k = j - 1
        if k >= 0 and tokens[k] in ("the", "last"):
            k -= 1
        if k >= 0 and tokens[k] in bounds:
            return True
    return False


@lru_cache(maxsize=1)
def _when_stems() -> frozenset[str]:
    """Stems that say only when or how long (numbers, periods, onset words, "ago"; from the cue data) and words
    that name no finding of their own ("symptoms", "problems")."""
    cues = load_cues()
    words = {w for phrase, _ in cues.number_words for w in phrase}
    words |= set(cues.rate_periods)
    words |= {w for phrase in cues.onset for w in phrase}
    words |= {"ago", "around", "about", "since", "duration", "last", "past", "recent", "recently", "month", "months"}
    # how often, said without a finding ("On and off, you know." says nothing of "Constipation on and off")
    words |= {"on", "off", "now", "then", "again"}
    # words that name no finding of their own ("symptoms for six months" is a duration)
    words |= {"symptom", "symptoms", "problem", "problems", "difficulty", "difficulties", "issue", "issues", "current"}
    return frozenset(stem(w) for w in words)


@lru_cache(maxsize=1)
def _course_stems() -> frozenset[str]:
    """Words of a statement about onset or course, whose finding is its time."""
    words = ("developed", "develop", "duration", "came", "onset", "course", "worsening", "worsened", "persisting")
    return frozenset(stem(w) for w in words)


def _carries_more_than_when(c: StatementReading, o: StatementReading, said: frozenset[str]) -> bool:
    """Whether the output carries some of the checkpoint beyond when or how long: "it started around six months
    ago" says nothing of "nightmares for six months" but its duration. True when the checkpoint holds nothing but
    such words, or a concept is carried."""
    if said or any(_carries(oc, cc) for cc in c.concepts for oc in o.concepts):
        return True
    if not _course_stems().isdisjoint(c.stems) or "onset" in c.cues:
        # a statement of onset or course ("developed about three weeks ago", "of three years duration",
        # "marked worsening over two weeks") is about when: an onset reply answers it
        return True
    when = _when_stems()
    words, _ = c.share_words
    finding = [w for w, _, _ in words if w not in when and not w[:1].isdigit()]
    if not finding:
        return True
    o_stems = o.stems
    return any(w in o_stems or o.alike_stems(w) for w in finding)


def _carries_a_concept(c: StatementReading, o: StatementReading) -> bool:
    return any(_carries(oc, cc) for cc in c.concepts for oc in o.concepts)


def _carries(oc: ConceptReading, cc: ConceptReading) -> bool:
    """Whether the output's mention ``oc`` says the checkpoint's ``cc``: the same concept with the same
    negation and subject, an affirmed finding that implies an affirmed one ("a plan to overdose" says
    suicidal ideation; see :func:`implied_concepts`), or a denied finding that a denied one implies (no
    suicidal ideation says no plan)."""
    if (
        oc.subject == "other"
        and oc.negated == cc.negated
        and cc.concept_id in relatives_concepts(oc.concept_id)
    ):
        return True  # "my mum has been depressed for years" says a family history of mental illness
    if not _same_subject(oc, cc):
        return False
    if oc.concept_id == cc.concept_id:
        return oc.negated == cc.negated
    if oc.negated and cc.negated:
        # the contrapositive: no ideation at all says no plan ("I don't drink" says no relief drinking)
        return oc.concept_id in implied_concepts(cc.concept_id)
    return not oc.negated and not cc.negated and cc.concept_id in implied_concepts(oc.concept_id)


@lru_cache(maxsize=memo_size(4096))
def relatives_concepts(concept_id: str) -> frozenset[str]:
    """The family-history concepts a finding says when it is a relative's ("my mother has depression" is a
    family psychiatric history): the ``said_of_a_relative`` pairs of the lexicon files, each a family-history
    concept and a concept id or kind."""
    kind = load_lexicon().get(concept_id).kind
    return frozenset(
        family
        for family, said in _said_of_a_relative()
        if said in (concept_id, kind) and family != concept_id
    )


@lru_cache(maxsize=1)
def _said_of_a_relative() -> tuple[tuple[str, str], ...]:
    """The ``said_of_a_relative`` pairs of every lexicon file, read once (not once per concept asked)."""
    return lexicon_relations("said_of_a_relative")


@lru_cache(maxsize=memo_size(4096))
def implied_concepts(concept_id: str) -> frozenset[str]:
    """The concepts a finding implies, following the ``implies`` pairs of the lexicon files transitively (a
    suicide plan implies suicidal ideation; morning relief drinking implies alcohol use)."""
    edges = _implication_edges()
    out: set[str] = set()
    todo = [concept_id]
    while todo:
        for b in edges.get(todo.pop(), ()):
            if b not in out and b != concept_id:
                out.add(b)
                todo.append(b)
    return frozenset(out)


@lru_cache(maxsize=memo_size(4096))
def implying_concepts(concept_id: str) -> frozenset[str]:
    """The concepts that imply this one (:func:`implied_concepts` read backwards): a plan implies ideation."""
    return frozenset(k for k in _implication_edges() if concept_id in implied_concepts(k))


@lru_cache(maxsize=1)
def _implication_edges() -> dict[str, tuple[str, ...]]:
    edges: dict[str, list[str]] = {}
    for a, b in lexicon_relations("implies"):
        edges.setdefault(a, []).append(b)
    return {k: tuple(v) for k, v in edges.items()}


@lru_cache(maxsize=1)
def _lexicon_document_frequency() -> tuple[dict[str, int], int]:
    """In how many lexicon concepts (terms, lay phrases and questions) each content stem occurs."""
    words = load_cues().function_words
    counts: dict[str, int] = {}
    lexicon = load_lexicon()
    for concept in lexicon.concepts:
        seen = {
            word_key(stem(t))
            for text in (*concept.terms, *concept.questions)
            for t in tokenize(text)
            if t not in words
        }
        for s in seen:
            counts[s] = counts.get(s, 0) + 1
    return counts, len(lexicon.concepts)


@lru_cache(maxsize=memo_size(65536))
def word_weight(word_stem: str) -> float:
    """How specific a content word is: ``1 + log((N + 1) / (df + 1))`` over the lexicon's N concepts.

    Words many concepts use (``sleep``, ``time``) weigh less than rare ones (``hallucination``,
    ``trazodone``); a word outside the lexicon counts as occurring in one concept; numbers weigh 0.5.
    """
    import math

    if word_stem[:1].isdigit():
        return 0.5
    counts, n = _lexicon_document_frequency()
    df = max(1, counts.get(word_stem, 1))
    return 1.0 + math.log((n + 1) / (df + 1))


JUDGE_SYSTEM_PROMPT = (
    "You check psychiatric records. Given a reference checkpoint about a patient and a statement "
    "(a patient's reply or a sentence of a clinical note), decide whether the statement conveys the "
    "checkpoint: the same finding, about the patient (not a relative), with the same polarity (a denial "
    "does not convey a symptom, and a symptom does not convey its denial) and no conflicting time frame "
    "(past versus current). Lay wording of a clinical term counts. Answer with one word: yes or no."
)

_YES = re.compile(r"^\W*(yes|y|true|entailed|entails|correct|1)\b", re.IGNORECASE)
_NO = re.compile(r"^\W*(no|n|false|not entailed|does not|incorrect|0)\b", re.IGNORECASE)
_ANSWER = re.compile(r"\b(?:answer|verdict|decision)\s*[:=]\s*\**\s*(yes|no|true|false)\b", re.IGNORECASE)


def parse_yes_no(reply: str) -> bool | None:
    """Read a judge's yes or no; ``None`` when the reply says neither (or both) clearly.

    Accepts ``Yes.``, ``**No**``, ``answer: yes``, ``True``, a reasoning block followed by a final
    answer, and JSON such as ``{"entailed": true}``.
    """
    if not isinstance(reply, str):
        return None
    text = re.sub(r"<think>.*?</think>", " ", reply, flags=re.DOTALL | re.IGNORECASE).strip()
    json_answer = re.search(
        r'"(?:entailed|entails|answer|verdict)"\s*:\s*"?(true|false|yes|no)"?', text, re.IGNORECASE
    )
    if json_answer:
        return json_answer.group(1).lower() in ("true", "yes")
    labelled = _ANSWER.findall(text)
    if labelled:
        return labelled[-1].lower() in ("yes", "true")
    first = text.splitlines()[0] if text else ""
    if _YES.match(first) and not _NO.match(first):
        return True
    if _NO.match(first):
        return False
    words = re.findall(r"\b(yes|no)\b", text.lower())
    if words and len(set(words)) == 1:
        return words[0] == "yes"
    if words:  # several: the last one is the conclusion
        return words[-1] == "yes"
    return None


class LLMJudge(Adjudicator):
    """A language model asked yes or no for each pair, in one batched call.

    A failed call (any exception from the client) abstains on every pair of the batch; a reply that
    :func:`parse_yes_no` cannot read abstains on its pair. ``failures`` counts both.
    """

    def __init__(
        self, client: LLMClient, settings: GenerationSettings | None = None, name: str | None = None
    ):
        from mentalhospital_env.llm import GenerationSettings

        self.client = client
        self.settings = settings or GenerationSettings(max_new_tokens=8, temperature=0.0)
        self.name = name or f"llm:{getattr(client, 'name', 'llm')}"
        self.failures = 0

    @staticmethod
    def conversation(checkpoint: str, output: str) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": JUDGE_SYSTEM_PROMPT},
            {
                "role": "user",
                "content": f"Checkpoint: {checkpoint}\nStatement: {output}\nDoes the statement convey the checkpoint?",
            },
        ]

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[bool | None]:
        if not pairs:
            return []
        conversations = [self.conversation(c, o) for c, o in pairs]
        try:
            replies = self.client.generate(conversations, self.settings)
        except Exception:  # noqa: BLE001 - a judge failure abstains; it never scores the pair or crashes an episode
            self.failures += len(pairs)
            return [None] * len(pairs)
        if len(replies) != len(pairs):
            self.failures += len(pairs)
            return [None] * len(pairs)
        verdicts = [parse_yes_no(r) for r in replies]
        self.failures += sum(v is None for v in verdicts)
        return verdicts


class Jury(Adjudicator):
    """The majority verdict of several adjudicators; abstentions do not vote, a tie is False, no vote abstains."""

    name = "jury"

    def __init__(self, members: Sequence[Adjudicator]):
        if len(members) < 1:
            raise ValueError("a jury needs at least one adjudicator")
        self.members = tuple(members)
        self.name = "jury(" + ",".join(m.name for m in self.members) + ")"

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[bool | None]:
        votes = [m.judge_many(pairs) for m in self.members]
        out: list[bool | None] = []
        for i in range(len(pairs)):
            cast = [v[i] for v in votes if v[i] is not None]
            if not cast:
                out.append(None)
                continue
            yes = sum(cast)
            out.append(yes * 2 > len(cast))
        return out


def make_adjudicator(
    name: str | Adjudicator | None,
    llm: str | Sequence[str] | LLMClient | None = None,
    clinical: ClinicalAdjudicator | None = None,
) -> Adjudicator | None:
    """An adjudicator from its name: ``"clinical"``, ``"llm"``, ``"jury"`` or ``"none"``.

    ``llm`` is a client, a ``make_client`` spec, or (for a jury) a list of them; a jury holds the
    clinical adjudicator plus one LLM judge per client. ``clinical`` is the clinical adjudicator to
    use (a default one when not given).
    """
    if name is None or isinstance(name, Adjudicator):
        return name
    clinical = clinical or ClinicalAdjudicator()
    key = name.strip().lower()
    if key in ("none", "off", ""):
        return None
    if key in ("clinical", "rules", "rule-based"):
        return clinical
    if key in ("llm", "jury"):
        clients = _clients(llm)
        if not clients:
            raise ValueError(f"adjudicator {name!r} needs an LLM client or spec (MatcherConfig.llm)")
        judges = [LLMJudge(c) for c in clients]
        if key == "llm":
            if len(judges) != 1:
                raise ValueError("adjudicator 'llm' takes one LLM; use 'jury' for several")
            return judges[0]
        return Jury([clinical, *judges])
    raise ValueError(f"unknown adjudicator {name!r}: use 'clinical', 'llm', 'jury' or 'none'")


def _clients(llm) -> list:
    if llm is None:
        return []
    if isinstance(llm, (str, bytes)) or not isinstance(llm, Sequence):
        llm = [llm]
    out = []
    for item in llm:
        if isinstance(item, str):
            from mentalhospital_env import llm as llm_package

            make_client = getattr(llm_package, "make_client", None)
            if make_client is None:
                raise ValueError(
                    f"cannot build LLM client {item!r}: mentalhospital_env.llm has no make_client yet"
                )
            out.append(make_client(item))
        else:
            out.append(item)
    return out
