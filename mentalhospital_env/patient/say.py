"""Say: the decided answer in the patient's own words.

The fourth room of the patient, and the only one a language model replaces. :class:`LayRenderer`
says a fact in the patient's words (its ``patient_says``, which every fact the patient tells carries once
the recall room has voiced it through ``cases.compile.voiced``; an examiner's finding in lay words from
``data/render.json``);
:class:`Voice` is the persona's own few variants of each phrase bank (``data/phrases.json``), drawn
once under its seed; :class:`Speaker` words an :class:`AnswerPlan` in that voice (fillers and tails
only where the persona calls for them); :func:`plain_reply` is the reply with no persona (the
memory-only variant). Phrase banks never carry clinical content: every clinical word of a reply
comes from a fact.
"""

from __future__ import annotations

import json
import random
from datetime import datetime
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.cases import Case
from mentalhospital_env.knowledge.language import SharedMemo, find_phrases, load_cues, memo_size, tokenize
from mentalhospital_env.knowledge.lexicon import Lexicon, load_lexicon

from .check import ClaimChecker
from .decide import PersonaProfile, focus_asked, refused_words, says_focus
from .implied import load_implications
from .informant import CHILD_AGE
from .reading import CLOSED_WORLD_KINDS, concept_topics, cosine, read_statements, stable_seed
from .recall import (
    AFFIRM,
    DENY,
    NOTHING_MORE,
    QUOTED_WORDS,
    TELL,
    UNKNOWN,
    WITHHELD,
    AnswerItem,
    AnswerPlan,
    FactIndex,
    IndexedFact,
    asks_each_length,
    asks_how_long,
    duration_in,
    finding_topics,
    load_recall_rules,
    meant,
    wh_word,
)
from .understanding import is_reflection as _is_reflection
from .understanding import load_taxonomy

# a patient's self-contained wordings (fact, position, wording, concepts asked), one memo for all patients
_CONTAINED: SharedMemo[tuple[str, int, str, tuple[str, ...]], str] = SharedMemo("RepresentationSkill.contained", 32768)


def _data(name: str) -> dict:
    return json.loads(resources.files(__package__).joinpath(f"data/{name}").read_text("utf-8"))


@lru_cache(maxsize=1)
def load_phrases() -> dict:
    """The phrase banks (``data/phrases.json``), cached."""
    return _data("phrases.json")


@lru_cache(maxsize=1)
def _own_view_pattern() -> re.Pattern[str]:
    return re.compile(load_phrases()["own_view"]["pattern"])


def _own_view(text: str) -> str | None:
    """The patient's own words for what is happening, quoted in the record's line on their view of it
    (``phrases.json`` ``own_view``): "Limited: 'I'm just getting old.'" is said "I'm just getting old."."""
    found = _own_view_pattern().search(text)
    if not found:
        return None
    said = found.group(1).strip().rstrip(".!?,;")
    return said[0].upper() + said[1:] + "."


@lru_cache(maxsize=1)
def load_styles() -> dict:
    """How disorders and speech style shape speech (``data/styles.json``), cached: here, where tails fit."""
    return _data("styles.json")


@lru_cache(maxsize=1)
def load_denials() -> dict[str, list[str]]:
    """How the patient denies a whole topic (``data/denials.json``), cached."""
    return _data("denials.json")["denials"]


# --------------------------------------------------------------------------------------------------
# Lay rendering
# --------------------------------------------------------------------------------------------------


class LayRenderer:
    """Puts a record sentence into the patient's words.

    ``patient_says`` wins when the case gives it. Otherwise: a pertinent negative becomes a lay
    denial of each concept it rules out ("I don't hear voices"); a quoted mood becomes "I feel ...";
    any other sentence loses its clinical framing ("Patient reports"), its third-person pronouns and
    verbs become first person, clinical terms of lexicon concepts become the concept's lay phrase,
    and a bare phrase gets a lead ("I've been ...", "I've had ...").
    """

    def __init__(self, lexicon: Lexicon | None = None):
        self.lexicon = lexicon or load_lexicon()
        table = _data("render.json")
        self.base_verbs = frozenset(table["base_verbs"])
        self.past_verbs = frozenset(table["past_verbs"])
        self.be_words = frozenset(table["be_words"])
        self.not_gerunds = frozenset(table["not_gerunds"])
        self.relatives = frozenset(table["relatives"])
        self.negation_words = frozenset(table["negation_words"])
        self.echo_answers = re.compile(table.get("echo_answers", r"(?!)"), re.IGNORECASE)
        self.concept_clauses: Mapping[str, Mapping[str, list[str]]] = table.get("concept_clauses", {})
        self.mood_lead: Mapping[str, Any] = table.get("mood_lead", {})
        self.said_already = {k: re.compile(v, re.IGNORECASE) for k, v in table.get("said_already", {}).items()}
        self.child_clauses: Mapping[str, Mapping[str, list[str]]] = table.get("child_clauses", {})
        self.asked_clauses = {
            concept: tuple((re.compile(e["asked"], re.IGNORECASE), {k: v for k, v in e.items() if k != "asked"})
                           for e in entries)
            for concept, entries in table.get("asked_clauses", {}).items()
        }
        self.report_tags = tuple(
            (re.compile(pattern, re.IGNORECASE), repl) for pattern, repl in table.get("report_tags", {}).items()
        )
        kin = "|".join(sorted((r for r in self.relatives if r not in ("maternal", "paternal")), key=len, reverse=True))
        self._bare_relative = re.compile(rf"\b(with|and|to|by|from)\s+({kin})\b(?!\s+(?:of|in law|'s))", re.IGNORECASE)
        subject = table.get("subject", {})
        self.physical_sections = frozenset(subject.get("physical_sections", ()))
        self.physical_topics = frozenset(subject.get("physical_topics", ()))
        self.open_topics = frozenset(subject.get("open_topics", ()))
        self.physical_concept_topics = frozenset(subject.get("physical_concept_topics", ()))
        self._clauses: dict[tuple[str, bool, int], str | None] = {}
        self._wordings: dict[tuple[str, bool], list[str]] = {}
        self._naming: dict[tuple[str, bool, bool, int], str | None] = {}
        protective = table.get("protective", {})
        self._protective_lead = re.compile(protective.get("lead", r"(?!)"), re.IGNORECASE)
        self._protective_things = frozenset(protective.get("things", ()))

    def _phrases(self, concept_id: str) -> list[str]:
        concept = self.lexicon.get(concept_id)
        usable = [p for p in concept.lay_phrases if not (set(tokenize(p)) & self.negation_words)]

        def rank(p: str) -> int:
            first = tokenize(p)[0] if tokenize(p) else ""
            return 0 if self._gerund(first) or first in self.base_verbs else 1

        return sorted(usable, key=rank)

    def _gerund(self, word: str) -> bool:
        return len(word) > 4 and word.endswith("ing") and word not in self.not_gerunds

    def _frame(self, phrase: str, negated: bool) -> str | None:
        first = tokenize(phrase)[0] if tokenize(phrase) else ""
        if self._gerund(first) or first in self.be_words:
            return (f"I haven't been {phrase}" if negated else f"I've been {phrase}") + "."
        if first in self.base_verbs:
            return (f"I don't {phrase}" if negated else f"I {phrase}") + "."
        if first in self.past_verbs:
            return None if negated else f"I {phrase}."
        return (f"I haven't had {phrase}" if negated else f"I've had {phrase}") + "."

    def clause(self, concept_id: str, negated: bool = False, variant: int = 0) -> str | None:
        """A first-person sentence affirming or denying a concept in lay words ("I hear voices."),
        checked with the lexicon to state exactly that concept with that polarity; ``None`` when there
        is none.

        The hand-written wordings of ``concept_clauses`` in ``data/render.json`` come first (the
        first one that passes the lexicon check, or the ``variant``-th of those that pass), sentence-
        cased with a full stop: a lay phrase framed by a heuristic reads badly or even says the
        opposite ("I haven't had stayed frozen.", "I see things getting better." for hopelessness).
        A polarity the table lists empty is one the concept is not said in (a topic such as
        ``occupation`` has no yes or no): ``None``, nothing framed. Only a concept or polarity the
        table does not list at all (a concept added to the lexicon later) falls back to framing one of
        its lexicon lay phrases (:meth:`_frame`). Results are cached per concept, polarity and variant."""
        key = (concept_id, negated, variant)
        if key in self._clauses:
            return self._clauses[key]
        found = None
        wordings = self._table_wordings(concept_id, negated)
        if wordings:
            text = wordings[variant % len(wordings)]
            found = text[0].upper() + text[1:] + "."
        listed = ("absent" if negated else "present") in self.concept_clauses.get(concept_id, {})
        if found is not None or listed:
            self._clauses[key] = found
            return found
        for phrase in self._phrases(concept_id):
            text = self._frame(phrase, negated)
            if text is None:
                continue
            mentions = self.lexicon.find(text)
            if mentions and all(m.concept_id == concept_id and m.negated == negated for m in mentions):
                found = text
                break
        self._clauses[key] = found
        return found

    def asked_clause(self, concept_id: str, question: str, negated: bool = False, variant: int = 0) -> str | None:
        """A wording of a concept and polarity for what the question asks of it (``asked_clauses`` of
        ``data/render.json``: "Do you feel you might act on them?" is answered on intent, not on a plan alone), as a
        sentence; ``None`` where no entry's pattern matches the question (``concept_clauses`` stand)."""
        for n, (asked, entry) in enumerate(self.asked_clauses.get(concept_id, ())):
            if asked.search(question):
                known = self._checked_wordings({concept_id: entry}, f"asked{n}:", concept_id, negated)
                if known:
                    text = known[variant % len(known)]
                    return text[0].upper() + text[1:] + "."
        return None

    def child_clause(self, concept_id: str, negated: bool = False, variant: int = 0) -> str | None:
        """A child's wording of a concept and polarity (``child_clauses`` of ``data/render.json``) that the
        lexicon reads as exactly that, without a full stop; ``None`` when the table has none (the adult
        wording stands)."""
        known = self._checked_wordings(self.child_clauses, "child:", concept_id, negated)
        return known[variant % len(known)] if known else None

    def naming_clause(
        self, concept_id: str, negated: bool = False, framed: bool = True, variant: int = 0
    ) -> str | None:
        """A short lay clause, without a full stop, that names a concept with a polarity ("no allergies
        to any medicines", "I don't hear voices"): the table of ``data/render.json`` first, then a
        framed lexicon lay phrase (:meth:`clause`); each checked with the lexicon to state exactly
        that concept with that polarity. ``None`` when there is none. ``framed=False`` takes only the
        table (a framed lay phrase may say more than the record: "I've been in prison" for a conviction).
        ``variant`` picks one of the table's wordings (a patient keeps one per concept)."""
        key = (concept_id, negated, framed, variant)
        if key in self._naming:
            return self._naming[key]
        found = None
        entries = self._table_wordings(concept_id, negated)
        if entries:
            found = entries[variant % len(entries)]
        if found is None and framed:
            sentence = self.clause(concept_id, negated)
            if sentence:
                found = sentence.rstrip(".")
        self._naming[key] = found
        return found

    def _table_wordings(self, concept_id: str, negated: bool) -> list[str]:
        """The ``concept_clauses`` wordings of a concept and polarity that the lexicon reads as exactly
        that concept with that polarity (a wording the lexicon no longer reads so is skipped, never said)."""
        return self._checked_wordings(self.concept_clauses, "", concept_id, negated)

    def _checked_wordings(self, table: dict, table_key: str, concept_id: str, negated: bool) -> list[str]:
        """The wordings ``table`` holds for a concept and polarity that the lexicon reads as exactly that concept
        with that polarity, remembered under ``table_key`` (one memo for the adult and the child tables)."""
        key = (table_key + concept_id, negated)
        known = self._wordings.get(key)
        if known is None:
            known = [
                entry
                for entry in table.get(concept_id, {}).get("absent" if negated else "present", ())
                if (mentions := self.lexicon.find(entry))
                and all(m.concept_id == concept_id and m.negated == negated for m in mentions)
            ]
            self._wordings[key] = known
        return known

    def say(self, fact: IndexedFact, asked: frozenset[str] = frozenset()) -> str:
        """The fact in the patient's words (of a clinician's line naming several symptoms, the ``asked``
        ones: "How is your concentration?" is not told "I can't sleep properly" from the referral's list)."""
        if fact.fact.patient_says:
            said = fact.fact.patient_says.strip()
            whole = _WHOLLY_QUOTED.fullmatch(said)
            if whole and len(tokenize(whole.group(1))) > 3:
                # "'I had no idea I was this unhappy.'." - the patient's own words, said without the marks
                inner = whole.group(1).strip()
                return inner[0].upper() + inner[1:] + ("" if inner.endswith((".", "!", "?")) else ".")
            return said
        if not fact.fact.told:
            return self._clinicians_words(fact, asked)
        dated = _DATED_QUOTE.fullmatch(fact.fact.text) if fact.section == "mental_status_exam.mood" else None
        if dated:
            word = dated.group(1).strip().rstrip(".")
            return word[0].upper() + word[1:] + "."  # her word that day, said as a feeling (_mood_answer)
        if fact.rules_out and not fact.affirms and not fact.about_other:
            denials = [d for d in (self.clause(c, negated=True) for c in sorted(fact.rules_out)[:3]) if d]
            return " ".join(denials) if denials else "No, nothing like that."
        if fact.section.startswith("mental_status_exam.") and fact.affirms:
            # an examiner's finding: tell only what the patient would notice, in lay words
            said = [d for d in (self.clause(c) for c in sorted(fact.affirms)[:3]) if d]
            said += [d for d in (self.clause(c, negated=True) for c in _denied_here(fact, asked, bool(said))[:2]) if d]
            if said:
                return " ".join(said)
        if fact.section == "family_history":
            return self.relative(fact.fact.text)
        # the examiner's sentence with no wording of its own (every other sentence the patient tells
        # carries one: the recall room voices it once per case, cases.compile.voiced): never read out
        return self._clinicians_words(fact, asked)

    def _clinicians_words(self, fact: IndexedFact, asked: frozenset[str] = frozenset()) -> str:
        """What the patient says of a sentence only a clinician wrote: the patient's own words quoted in
        it, if any ("in the bad week 'life feels pointless'": "Life feels pointless.", not "I've never had
        thoughts of ending my life." from its "no suicidal thoughts now"), else the symptoms it names, in
        lay words; nothing when it names none ("Alert and oriented" is never "I've had alert and oriented")."""
        reported = _REPORTED.search(fact.fact.text) if fact.section.startswith(_VOICED_QUOTES) else None
        if reported:
            # "said he would 'sort them out' if the police don't": "I'd sort them out if the police don't."
            modal = {"would": "I'd", "will": "I'll", "could": "I could", "might": "I might"}[reported.group(1).lower()]
            return f"{modal} {reported.group(2).strip(' .,;')}{reported.group(3).rstrip(' .,;')}."
        if "protective_factors" in asked:
            keeps = self.protective(fact.fact.text)
            if keeps:
                return keeps
        quoted = QUOTED_WORDS.findall(fact.fact.text) if fact.section.startswith(_VOICED_QUOTES) else []
        quoted = [q.strip(" .,;") for q in quoted if len(q.split()) >= 2 and not _quoted_fragment().match(q)]
        if quoted:
            return " ".join(q[0].upper() + q[1:] + "." for q in quoted[:2])
        # the symptoms it names (not a history word the clinician's phrasing happens to hold: "pump gas
        # to drive him out" is no "I do drive")
        lexicon = self.lexicon
        named = [c for c in sorted(fact.affirms) if lexicon.get(c).kind in CLOSED_WORLD_KINDS]
        # what the lexicon reads in it first; a finding read only by meaning when nothing else is named
        named = [c for c in named if c not in fact.meant] or named
        named = [c for c in named if c in asked] or named  # of several, the ones the doctor asked about
        said = [d for d in (self.clause(c) for c in named[:2]) if d]
        said += [d for d in (self.clause(c, negated=True) for c in _denied_here(fact, asked, bool(said))[:1]) if d]
        return " ".join(said)

    def protective(self, text: str) -> str | None:
        """What keeps the patient going, from a clinician's list of protective factors (``protective``
        of ``data/render.json``): "protective factors are her sons and her faith" -> "My sons and my
        faith."; "Protective: children, wife willing to support, help-seeking now" -> "My children and
        my wife." Only the people and things a person would name (not
        "help-seeking now"); ``None`` when the sentence lists none."""
        found = self._protective_lead.search(text)
        if not found:
            return None
        things: list[str] = []
        for item in re.split(r",|;|\band\b|/", found.group(1)):
            name = re.fullmatch(r"\s*([A-Z][a-z]+)\s*", item)
            if name and name.group(1).lower() not in self._protective_things and item is not found.group(1):
                things.append(name.group(1))  # "Protective: Aisha, her job, her cat" - Aisha, by name
                continue
            words = re.findall(r"[a-z'-]+", item.lower())
            while words and words[0] in ("her", "his", "their", "the", "a", "an", "my"):
                words = words[1:]
            if not words or words[0] not in self._protective_things:
                continue
            noun = words[0]
            if len(words) > 1 and f"{words[0]} {words[1]}" in self._protective_things:
                noun = f"{words[0]} {words[1]}"
            things.append(f"my {noun}")
        if not things:
            return None
        listed = things[0] if len(things) == 1 else ", ".join(things[:-1]) + " and " + things[-1]
        return f"{listed[0].upper()}{listed[1:]}."

    def unreport(self, text: str) -> str:
        """The record's reporting taken off what the patient says of themself (``report_tags`` of
        ``data/render.json``): "I have taken a week off sick, my partner adds." -> "I have taken a week
        off sick."; "And I say it became much worse" -> "And it became much worse"; "Femi notes that
        the voices continued" -> "The voices continued"; and a bare relative made the patient's: "I live
        with partner" -> "I live with my partner"."""
        if not text:
            return text
        out = []
        # a new sentence only where one starts with a capital: "I wake at 3 a.m. and pace the hallway." is one
        for sentence in re.split(r"(?<=[.!?])\s+(?=[^a-z])", text):
            for pattern, repl in self.report_tags:
                sentence = pattern.sub(repl, sentence)
            # "I live with partner and a young child": the record's bare relative is the patient's own
            sentence = self._bare_relative.sub(r"\1 my \2", sentence)
            sentence = sentence.strip()
            if sentence:
                out.append(sentence[0].upper() + sentence[1:])
        return " ".join(out)

    def relative(self, text: str) -> str:
        """A family-history sentence as the patient tells it: "A sister was treated ..." -> "My sister was treated ..."."""
        out = []
        for sentence in (s.strip() for s in re.split(r"(?<=[.;!?])\s+", text) if s.strip()):
            words = sentence.split()
            lead = words[0].lower().strip(",") if words else ""
            second = re.sub(r"('s|,)$", "", words[1].lower()) if len(words) > 1 else ""
            if lead in ("a", "an", "the", "her", "his", "their") and second in self.relatives:
                words = ["My"] + words[1:]
            elif re.sub(r"('s|,)$", "", lead) in self.relatives:
                words = ["My", words[0].lower()] + words[1:]
            out.append(" ".join(words))
        return " ".join(out)


_RENDERERS: dict[int, LayRenderer] = {}


def lay_renderer(lexicon: Lexicon | None = None) -> LayRenderer:
    """The lay renderer of a lexicon, built once (it indexes every clinical term) and shared."""
    lex = lexicon or load_lexicon()
    hit = _RENDERERS.get(id(lex))
    if hit is None or hit.lexicon is not lex:
        hit = _RENDERERS[id(lex)] = LayRenderer(lex)
    return hit


# --------------------------------------------------------------------------------------------------
# Voice
# --------------------------------------------------------------------------------------------------


def _years(span: str | None) -> float:
    """How many years a timeline span says ("about ten years" 10, "eighteen months" 1.5; 0 when none)."""
    if not span:
        return 0.0
    words = _course_numbers()
    m = re.search(r"(\d+(?:\.\d+)?|[a-z]+)(?:\s+and\s+a\s+half)?\s+(year|month)s?\b", span.lower())
    if m is None:
        return 0.0
    n = float(m.group(1)) if m.group(1)[0].isdigit() else words.get(m.group(1), 0.0)
    n += 0.5 if "and a half" in m.group(0) else 0.0
    return n if m.group(2) == "year" else n / 12


@lru_cache(maxsize=1)
def _course_numbers() -> dict[str, float]:
    """The one-word numbers of the language cues (``number_words``: "ten", "forty"), with "a" / "an" as one."""
    return {p[0]: v for p, v in load_cues().number_words if len(p) == 1} | {"a": 1.0, "an": 1.0}


@lru_cache(maxsize=1)
def _course_rules() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, Any]]:
    spec = _data("recall.json")["insight_course"]
    said = re.compile("|".join(f"(?:{p})" for p in spec["patterns"]), re.IGNORECASE)
    before = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in spec["not_before"]) + r")\b[\w\s,'-]{0,25}$", re.IGNORECASE)
    return said, before, spec


_LONG_COURSE: dict[str, bool] = {}


def long_standing(case: Case) -> bool:
    """Whether the record gives the problem a long course (``recall.json`` ``insight_course``): the present
    illness's timeline spans at least ``min_years`` or began at an age, the history says so in words
    ("lifelong", "since childhood", "for about ten years", a third episode) where the words before are not a
    part of life that lasted ("married for 32 years"), or a category of the record is lifelong by nature.
    Read once per case."""
    key = f"{case.case_id}:{id(case)}"
    hit = _LONG_COURSE.get(key)
    if hit is not None:
        return hit
    from .timeline import timeline

    said, before, spec = _course_rules()
    ehr = case.ehr
    line = timeline(ehr.history_of_present_illness or "")
    long = bool(line.onset_age) or max(_years(line.duration), _years(line.onset_ago)) >= spec["min_years"]
    if not long and case.diagnosis is not None:
        long = bool(set(case.diagnosis.categories) & set(spec["categories"]))
    if not long:
        for section in spec["sections"]:
            text = getattr(ehr, section, None) or ""
            if not isinstance(text, str):
                continue
            if any(not before.search(text[: m.start()]) for m in said.finditer(text)):
                long = True
                break
    if len(_LONG_COURSE) > 4096:
        _LONG_COURSE.clear()
    _LONG_COURSE[key] = long
    return long


@lru_cache(maxsize=8)
def _expander(pairs: tuple[tuple[str, str], ...]):
    """A function saying each contraction of ``pairs`` in full, longest first, the first letter's case kept."""
    full = {k.lower(): v for k, v in pairs}
    pattern = re.compile(r"(?<![\w'])(" + "|".join(re.escape(k) for k in sorted(full, key=len, reverse=True)) + r")(?![\w'])",
                         re.IGNORECASE)

    def said(m: re.Match[str]) -> str:
        out = full[m.group(1).lower()]
        return out[0].upper() + out[1:] if m.group(1)[0].isupper() else out

    return lambda text: pattern.sub(said, text.replace("\u2019", "'"))


class Voice:
    """The persona's own few variants of each phrase bank, drawn once under its seed."""

    def __init__(self, persona: PersonaProfile, rng: random.Random, long_course: bool = False):
        phrases = load_phrases()
        picks = phrases["pick"]
        self.banks: dict[str, tuple[str, ...]] = {}
        for name, bank in phrases["banks"].items():
            k = min(len(bank), int(picks.get(name, 2)))
            self.banks[name] = tuple(rng.sample(bank, k))
        self.refusals = {
            kind: tuple(rng.sample(v, min(2, len(v)))) for kind, v in phrases["refusals"].items()
        }
        # a problem of many years is no "rough patch" (phrases.json insight_long)
        views = phrases["insight_long"] if long_course else phrases["insight"]
        self.insight = tuple(views.get(persona.insight, views["partial"]))
        self.traits = {t: phrases["traits"][t] for t in persona.traits if t in phrases["traits"]}
        for trait in sorted(self.traits):
            # a trait's own banks replace the persona's: few words ("impoverished"), a dialect ("northern")
            for bank, values in self.traits[trait].items():
                if isinstance(values, list) and bank in self.banks:
                    self.banks[bank] = tuple(values)
        self.catchphrases = persona.catchphrases
        self.catchphrases_said: dict[str, int] = {}
        # the formal trait's contractions said in full (its ``expand`` table), built once for the voice
        expand = self.traits.get("formal", {}).get("expand")
        self.in_full = _expander(tuple(sorted(expand.items()))) if expand else None

        self.recent: set[str] = set()
        self.used: set[str] = set()

    def turn(self) -> None:
        """Start a new reply: what the last reply used is now what this one should not repeat."""
        self.recent, self.used = self.used, set()

    def pick(self, bank: str, rng: random.Random, optional: bool = False) -> str:
        """A phrase of the bank that the previous reply did not use; with ``optional``, nothing
        (``""``) when every variant was just used (a hedge or filler is better left out than repeated)."""
        return self.choose(self.banks[bank], rng, optional)

    def choose(self, options: Sequence[str], rng: random.Random, optional: bool = False) -> str:
        fresh = [o for o in options if o not in self.recent]
        if not fresh:
            if optional:
                return ""
            fresh = list(options)
        choice = fresh[rng.randrange(len(fresh))]
        self.used.add(choice)
        return choice


# --------------------------------------------------------------------------------------------------
# Wording
# --------------------------------------------------------------------------------------------------


class Speaker:
    """Wording: turns a decided :class:`AnswerPlan` into what this patient would say, in their voice."""

    def __init__(self, case: Case, index: FactIndex, persona: PersonaProfile, lay: LayRenderer | None = None):
        self.case = case
        self.index = index
        self.persona = persona
        self.lay = lay or lay_renderer(index.lexicon)
        self.checker = ClaimChecker(index)
        self._yes_no = False
        self._items = 0
        self._asked: tuple[str, ...] = ()
        #: the day of the latest mood the examination quotes with its day (``None``: none dated): an earlier one is
        #: no mood of now, said in no reply ("How is your energy through the day?" was "... I feel sad and tired.",
        #: February's word, though December's is "pretty good, considering", uw-033)
        self._latest_mood: datetime | None = max(
            (d for f in index.facts if (d := _quote_day(f)) is not None), default=None)
        self._topics: tuple[str, ...] = ()
        self._timing = False
        self._wh: str | None = None
        self._said_how_long = False
        self._said_no = False
        self._stock_denials = 0
        self._one_topic = True
        self._told_parts: set[str] = set()
        self._told: set[str] = set()  # facts this patient has put in words in this encounter
        # self_contained() depends on the fact, its wording and the concepts asked only: remembered
        self._owner = _CONTAINED.owner()
        self.reset()

    def reset(self) -> None:
        # the voice is the person's own: fixed per case (so the same patient sounds the same in every
        # encounter); the encounter seed only varies which of its phrases come up in each reply
        self.voice = Voice(self.persona, random.Random(stable_seed("voice", self.case.case_id)), long_standing(self.case))
        self._told = set()

    # -- wording -----------------------------------------------------------------------------------

    def render(self, plan: AnswerPlan, rng: random.Random, tone: str | None, partial: bool) -> str:
        """The reply text for a plan, in this persona's voice (a chart's clock times as a person says them:
        :func:`spoken_clock`)."""
        return self.in_full(self._as_young(spoken_clock(self._render(plan, rng, tone, partial))))

    def _as_young(self, text: str) -> str:
        """A young patient's words (``young`` of ``data/render.json``): what only the chart measures (a tablet's
        strength) left out; anyone else's as they are."""
        young = _young()
        if self.case.demographics.age >= young["under_age"] or not text:
            return text
        return young["leave_out"].sub("", text)

    def in_full(self, text: str) -> str:
        """A formal speaker's words said in full ("I am", "do not": the ``formal`` trait's ``expand`` of
        ``data/phrases.json``); anyone else's as they are. uw-029's retired teacher ("I would not say so, Doctor")
        said "I haven't lost interest in things" and "It's been all right" like anyone else."""
        say = self.voice.in_full
        return say(text) if say and text else text

    def _render(self, plan: AnswerPlan, rng: random.Random, tone: str | None, partial: bool) -> str:
        voice = self.voice
        voice.turn()
        p = self.persona
        self._yes_no = plan.question.yes_no
        self._question = plan.question.text
        self._items = len(plan.items)
        # the subjects of this reply answered with a "no" (a denial, or told from sentences that rule it out): a
        # reply that denies one part opens no other part with a bare "Yes" ("Have you been unwell like this before,
        # say after an operation?" - not "Yeah, I guess. I have high blood pressure ... I haven't had any previous
        # episodes like this")
        self._denied_parts = {
            i.subject for i in plan.items
            if not i.silent and (i.stance == DENY or (i.stance == TELL and i.facts and self._denial(i.facts[0])))
        }
        # the subjects of this reply told or affirmed: a part denied beside them is named, never opened with a bare
        # stock "no" ("Has it caused problems with money, with the police, or have you driven after using?" - not "No,
        # nothing like that. I've never been in trouble with the law. I just dozed off, ... a rolled-up dollar bill")
        self._told_parts = {
            i.subject for i in plan.items
            if not i.silent and i.stance in (AFFIRM, TELL) and i.facts and not self._denial(i.facts[0])
            # a sentence that rules out a thing asked is a "no" too ("...; no suicidal ideation.")
            and not set(i.facts[0].rules_out) & set(plan.question.concepts)
        } | {
            # a part affirmed but kept back (a sensitive fact before rapport: uw-024's money, stop 53) is left unsaid;
            # a bare "No, I can't say I have." before the part denied would deny it
            i.subject for i in plan.items if i.silent and i.stance == AFFIRM
        }
        self._asked = plan.question.concepts
        self._topics = plan.question.topics
        self._timing = asks_how_long(plan.question)
        self._each = asks_each_length(plan.question)
        self._wh = wh_word(plan.question)
        self._said_how_long = False
        self._said_no = False
        self._stock_denials = 0
        self._one_topic = len(plan.question.topics) <= 1
        if plan.refusal is not None:
            options = voice.refusals[plan.refusal]
            return options[rng.randrange(len(options))]
        parts: list[str] = []
        if plan.small_talk and not plan.items:
            parts.append(voice.pick("greeting" if plan.small_talk == "greeting" else "closing", rng))
            return " ".join(parts)
        reflection = _is_reflection(plan.question.text)
        if plan.unclear and reflection and tone != "judgemental":
            # "It sounds exhausting, being told it's nothing.": a reflection is acknowledged, not queried
            return voice.pick("affirm", rng)
        if plan.unclear:
            if tone == "empathic":
                return voice.pick("empathy_ack", rng)
            if tone in ("curt", "judgemental"):
                return voice.pick("cold_ack", rng)
            return voice.pick("clarify", rng)
        own = self._own_words(plan)
        if own:
            return own
        if reflection and any(i.stance in (AFFIRM, TELL) and i.facts and not i.silent for i in plan.items):
            parts.append(voice.pick("affirm", rng))  # "You seem ashamed." - "Yeah. ..."
        elif p.opener_rate and rng.random() < p.opener_rate and any(i.stance == TELL for i in plan.items):
            parts.append(voice.pick("openers", rng, optional=True))
        sentences: list[str] = []
        withheld_said = False
        for item in self._keep_to_question(plan):
            if item.silent:
                continue
            if item.stance == WITHHELD:
                if withheld_said:
                    continue  # one "I'd rather not" per reply
                withheld_said = True
            told = self._item(item, rng)
            if p.most_sentences and item.subject not in _RISK_SAID_WHOLE and not any(
                    f.section.split(".", 1)[0] in p.said_whole_sections for f in item.facts):
                # risk, allergies and medicines are said whole, however long (styles.json said_whole_sections)
                told = self._few(told, plan.question.text, p.most_sentences, focus_asked(plan.question))
            sentences.extend(told)
        if sentences and self._yes_no and not self._opens_no(sentences[0]) and self._no_outcome(plan, sentences[0]):
            # "Has the citalopram helped?" - "No, citalopram for a year made no difference.": a closed question on
            # how a treatment went is answered no first when what answers it says it did nothing
            head = sentences[0] if sentences[0].startswith(("I ", "I'")) else sentences[0][0].lower() + sentences[0][1:]
            sentences[0] = f"No, {head}"
        if not sentences and any(i.stance == TELL and i.facts and not i.silent for i in plan.items):
            # every fact recall found was off the subject ("He admits to two near-misses" for "Have you
            # been admitted?"): nothing else to say
            sentences.append(voice.pick("dont_know", rng))
        # one "no" a reply: a later denial that opens with "No" again loses its opener ("No, that's been fine.
        # I've never had thoughts of ending my life. No, nothing like that." - the second "No" stacked)
        said_no = False
        unstacked: list[str] = []
        for s in sentences:
            if said_no and _OPENS_NO.match(s):
                rest = _OPENS_NO.sub("", s, count=1).strip()
                if not rest or not rest[0].isalpha():
                    continue
                s = rest[0].upper() + rest[1:]
            said_no = said_no or self._opens_no(s)
            unstacked.append(s)
        sentences = unstacked
        if "pressured" in voice.traits and len(sentences) > 1:
            # what is said again is left out before the run-on is joined: once joined it is one sentence,
            # and "as for my mood, I feel on top of the world, and as for my mood, I feel on top of the world"
            # would pass the sentence-by-sentence check below
            sentences = _unrepeated(sentences)
        if "pressured" in voice.traits and len(sentences) > 1:
            joiner = voice.traits["pressured"]["joiner"]
            # one run-on sentence: every sentence after the first starts lower case ("I" stays)
            run = [sentences[0]] + [s if s.startswith(("I ", "I'")) else s[0].lower() + s[1:] for s in sentences[1:]]
            sentences = [joiner.join(s.rstrip(".") for s in run[:-1]) + joiner + run[-1]]
        if parts and sentences and not parts[-1].endswith((".", "!", "?", ":")):
            head = sentences[0]
            if not head.startswith(("I ", "I'")):  # "The thing is, my skin ...", but "Honestly, I ..."
                sentences[0] = head[0].lower() + head[1:]
        parts.extend(sentences)
        if partial:
            parts.append(voice.pick("partial", rng))
        # a reply that holds back ("Sorry, what was the other thing you asked?") adds no saying of its own
        tail = (not partial and self._topic_saying(plan, rng, sentences)) or self._tail(plan, rng, len(sentences)) \
            or self._catchphrase(plan, rng, sentences)
        if tail:
            parts.append(tail)
        elif sentences and parts and not partial:
            hedge = self.hedge(plan, rng)
            last = parts[-1]
            if hedge and last.endswith(".") and len(last.split()) >= 4 and "," not in last[-25:]:
                parts[-1] = f"{last[:-1]}, {hedge}."
        said: dict[str, None] = {}
        bags: list[frozenset[str]] = []
        # the same thing twice in one reply (two facts worded alike, or one fact's sentence told again
        # inside another) is said once: compared sentence by sentence
        # a written semicolon is a full stop in speech ("I have asthma; I've got an inhaler."); a note's
        # "Currently self-employed builder." said with its article ("At the moment I'm a self-employed builder.")
        parts = [_with_article(re.sub(r";\s+(\w)", lambda m: ". " + m.group(1).upper(), part)) for part in parts]
        sentences = [x for part in parts if part for x in (re.split(r"(?<=[.!?])\s+", part) if part[-1:] in ".!?" else [part])]
        for s in sentences:
            if not s or s in said:
                continue
            bag = _content(s)
            if bag and any(_repeats(bag, earlier) for earlier in bags):
                continue
            said.setdefault(s, None)
            bags.append(bag)
        return " ".join(said)

    def _own_words(self, plan: AnswerPlan) -> str:
        """A terse adult's own words for what was asked (:func:`.decide.own_words`: "Bit sad.", "Bit better."), where
        every topic asked has some and the record holds something to tell of it; empty otherwise (the facts are
        worded as ever)."""
        words = self.persona.own_words
        if not words:
            return ""
        taxonomy = load_taxonomy()
        asked = [t for t in plan.question.topics if t in taxonomy.by_id and taxonomy.kind(t) != "meta"]
        told = any(i.stance in (AFFIRM, TELL) and i.facts and not i.silent and not self._denial(i.facts[0]) for i in plan.items)
        if not asked or not told or any(i.stance == WITHHELD for i in plan.items):
            return ""
        said = [w for w, topics in words if topics & set(asked)]
        if not all(any(t in topics for _, topics in words) for t in asked):
            return ""
        return " ".join(said)

    def _no_outcome(self, plan: AnswerPlan, said: str) -> bool:
        """Whether the reply's first sentence tells, to a question on how a treatment went (the ``outcome`` facet
        of ``data/recall.json``), that it did nothing (its ``none`` patterns)."""
        rules = load_recall_rules()
        asked = rules.facets.get("outcome")
        none = rules.outcome_none
        return asked is not None and none is not None and asked[0].search(plan.question.text) is not None \
            and none.search(said) is not None and not (rules.outcome_none_not_asked is not None
                                                and rules.outcome_none_not_asked.search(plan.question.text))

    def _few(self, told: list[str], question: str, most: int, kinds: frozenset[str] = frozenset()) -> list[str]:
        """Each thing recall told in at most ``most`` sentences (``most_sentences`` of the persona): a person
        answers and stops, they do not read out a fact the record wrote as a list ("Do you have any physical
        health problems?" was eight sentences of one obstetric history, uw-022). A fact's opening sentence is
        kept, then those that give the kind of answer asked (``kinds``: :func:`.decide.focus_asked`; "How many jobs
        have you had?" keeps "I've had five jobs in eight years"), then those closest in words to the question, in
        the fact's order; never one that goes on from a sentence left out ("But I can't stop them.")."""
        query = None
        out: list[str] = []
        for text in told:
            pieces = [x for x in _SENTENCES.split(text) if x]
            if len(pieces) <= most:
                out.append(text)
                continue
            if query is None:
                query = self.index.vectorize(question)
            # a sentence that goes on from the one before ("And it is often too high.") is let go before a separate
            # one (hw-028's "I had a transient ischaemic attack three years ago." was cut for it)
            ranked = sorted(range(1, len(pieces)), key=lambda k: (
                not any(says_focus(pieces[k], kind) for kind in kinds),
                pieces[k].split(" ", 1)[0].strip(",") in _goes_on_words(),
                -cosine(query, self.index.vectorize(pieces[k])), k))
            chosen = {0, *ranked[: most - 1]}
            # a sentence that goes on from the one before it is said with it or not at all, in order, so that a chain
            # ("But ... . And ... .") goes with the first link left out
            keep: list[int] = []
            for k in sorted(chosen):
                if k == 0 or (keep and keep[-1] == k - 1) or pieces[k].split(" ", 1)[0].strip(",") not in _goes_on_words():
                    keep.append(k)
            out.append(" ".join(pieces[k] for k in keep))
        return out

    def _keep_to_question(self, plan: AnswerPlan) -> list[AnswerItem]:
        """The plan's items less the facts a person would not add to what they were asked (the readers'
        "irrelevant record sentence tacked onto a right answer"), by the topics each fact answers:

        - of the facts told for one thing, those on none of the question's topics when another is on one
          ("Which places do you avoid?" - "I can't go to the supermarket on my own anymore.", not then "I took
          sertraline for a while.");
        - to a question in one part, the facts of a topic it only touches (its second topic and after, not named
          in its words) that are not also on its first, when the first has an answer ("How much are you eating on a normal day?" is
          not answered "... I was a high achiever at school"; "Have you had treatment for your mood before?"
          not "... I take combined oral contraceptive").

        A fact with no topics is kept: nothing says it is off the subject."""
        asked = set(plan.question.topics)
        items = list(plan.items)
        if not asked:
            return items

        def spoken(item: AnswerItem) -> bool:
            return item.stance in (AFFIRM, TELL) and bool(item.facts) and not item.silent

        def on(fact: IndexedFact, topics: set[str]) -> bool:
            return not fact.topics or bool(set(fact.topics) & topics)

        def strictly_on(fact: IndexedFact, topics: set[str]) -> bool:
            return bool(set(fact.topics) & topics)

        primary = plan.question.topics[0]
        text = plan.question.text.lower()

        def named(topic: str) -> bool:
            # the question says the topic in words ("Has it affected your work?"), not only touches it
            return any(len(w) > 3 and re.search(rf"\b{re.escape(w[:5])}", text) for w in topic.split("_"))

        # one part: no "and", "or" or list comma ("Do you still enjoy things, even time with the baby?" is one)
        head = re.sub(r",\s*(?:even|like|such as|for example|including|especially)\b.*", "", text.split("?")[0])
        one_part = text.count("?") <= 1 and not re.search(r"\b(?:and|or)\b|,", head)
        first_answered = any(
            spoken(i) and i.subject not in asked - {primary} and any(strictly_on(f, {primary}) for f in i.facts)
            for i in items
        )
        # the sentences recall chose because they name who depends on them answer whatever their topics ("Do you have
        # children or anyone who depends on you?" of dev-0027: "At the moment I'm full-time carer for a parent." is on
        # work, and was cut beside "I live with my partner and a young child.", on the household)
        household = load_recall_rules().household_concepts
        out = []
        for n, item in enumerate(items):
            if not spoken(item) or (item.stance == TELL and item.subject in household):
                out.append(item)
                continue
            facts = item.facts
            if any(strictly_on(f, asked) for f in facts):
                facts = tuple(f for f in facts if on(f, asked))
            if one_part and first_answered and item.subject in asked and item.subject != primary and not named(item.subject):
                facts = tuple(f for f in facts if not f.topics or primary in f.topics)
            if facts != item.facts:
                if not facts:
                    continue
                item = replace(item, facts=facts)
            out.append(item)
        return out

    def on_subject(self, item: AnswerItem) -> tuple[IndexedFact, ...]:
        """The facts of a topic's answer that are about that topic (``subject`` of ``data/render.json``).

        Recall gives a topic the facts that share its words; a person keeps to what was asked. A fact
        of the physical sections (illnesses, medicines, allergies) stays only for the topics they
        answer ("How do you see what's happening?" is not answered with "I'm on thyroid tablets").
        A history topic (who you live with, work, childhood) keeps a fact that states symptoms only
        when the fact comes from the topic's own or a history section, or also states something of
        the topic ("Who do you live with?" is not answered with "my mood is flat and useless", but
        "At work I can't concentrate" answers a question about work). A symptom topic leaves out a
        fact whose concepts are all bodily complaints of other topics ("How has your mood been?" is
        not answered with "Crampy abdominal pain and bloating")."""
        lay = self.lay
        tax = load_taxonomy()
        topic = tax.by_id.get(item.subject)
        if item.stance != TELL or topic is None or item.subject in lay.open_topics:
            return item.facts
        lexicon = self.index.lexicon
        home = set(topic.sections) | set(tax.home_sections.get("history", ()))
        personal = {"personal_history", "family_history"}  # the life story, not drink or past episodes
        kept = []
        for fact in item.facts:
            if fact.section in lay.physical_sections and item.subject not in lay.physical_topics:
                continue
            if topic.kind == "history" and fact.section not in home:
                concepts = sorted(fact.affirms | fact.rules_out)
                symptoms = [c for c in concepts if lexicon.get(c).kind in CLOSED_WORLD_KINDS]
                others = [c for c in concepts if c not in symptoms and item.subject in concept_topics(lexicon, c)]
                # a worry said in the patient's words is a symptom told too, though it states no lexicon finding
                # ("What do you do for work?" is not "... Between attacks I worry about the next one", hw-004)
                if (symptoms or fact.said) and not others:
                    continue
            elif topic.kind == "symptom" and item.subject not in lay.physical_topics and fact.section not in topic.sections:
                # bodily complaints told for "How has your mood been?": every concept physical, none of the topic
                tops = [concept_topics(lexicon, c) for c in sorted(fact.affirms | fact.rules_out)]
                if tops and all(set(t) & lay.physical_concept_topics and item.subject not in t for t in tops):
                    continue
                # a life-history fact that states no symptom ("I live with my partner Jamie ... In a rented
                # flat." for "How would you describe your mood right now?", uw-002 at stop 27); a topic with no
                # section of its own (trauma: "Grew up in a stable home" is its answer, hw-001) keeps the life story
                if topic.sections and fact.section in personal and not any(
                    lexicon.get(c).kind in CLOSED_WORLD_KINDS or item.subject in concept_topics(lexicon, c)
                    for c in fact.affirms | fact.rules_out
                ):
                    continue
            kept.append(fact)
        return tuple(kept)

    def _implied(self, subject: str) -> bool:
        """Whether ``subject`` (a concept, or a topic of one) is a finding the record implies and does not state
        (:attr:`FactIndex.implied`)."""
        return subject in self.index.implied or subject in self.index.implied_by_topic

    def _item(self, item: AnswerItem, rng: random.Random) -> list[str]:
        voice = self.voice
        if item.facts and self._latest_mood is not None:
            item = replace(item, facts=_latest_moods(item.facts, self._latest_mood))
            if not item.facts:
                return []
        if item.stance == TELL and item.facts:
            facts = self.on_subject(item)
            if not facts:
                return []  # nothing of it on the subject: another part answers, or render says it doesn't know
            if facts != item.facts:
                item = replace(item, facts=facts)
        if item.stance == WITHHELD:
            # what the persona will not talk about, in their own words for it ("No. Stop.", uw-030)
            return [refused_words(item, self.persona, self.index) or voice.pick("withhold", rng)]
        if item.stance == UNKNOWN:
            if item.subject == "insight":
                # their own words for it, where the record's line on their view quotes them ("Limited: 'I'm just
                # getting old.'"), before the persona's stock phrase
                own = next((v for f in self.case.facts if f.section == "mental_status_exam.insight"
                            if (v := _own_view(f.text))), None)
                return [own or voice.insight[rng.randrange(len(voice.insight))]]
            if item.subject == "family" or item.about_other:
                bank = load_phrases()["banks"]["dont_know_family"]
                return [bank[rng.randrange(len(bank))]]
            if self._implied(item.subject):
                # a finding of their own the record implies and no sentence states (a test's or the plan's): a
                # hedge about their own experience, not "no idea" (data/implied.json unsure)
                bank = load_implications().unsure
                start = stable_seed("unsure", self.case.case_id, item.subject) % len(bank)
                turned = [bank[(start + k) % len(bank)] for k in range(len(bank))]
                said = next((b for b in turned if b not in voice.recent and b not in voice.used), turned[0])
                voice.used.add(said)
                return [said]
            return [voice.pick("dont_know", rng)]
        if item.stance == NOTHING_MORE:
            return [voice.pick("nothing_more", rng)]
        if item.stance == DENY:
            said = [self._denial_only(f, self.self_contained(f, self._say(f))) for f in item.facts if f.fact.patient_says]
            # the denial first, and "No," only before a sentence that denies ("Have you been in trouble with the
            # police?" - "No, I have good friendships. And I've never been ..." at stop 27, hw-002)
            said = [self._denial_first(t) for t in said]
            said.sort(key=lambda t: not self._negative(t))
            if said and self._yes_no and not self._opens_no(said[0]) and self._negative(said[0]):
                # "Have you had help before?" - "No, I haven't had any contact with services.": a closed
                # question is answered yes or no first
                head = said[0] if said[0].startswith(("I ", "I'")) else said[0][0].lower() + said[0][1:]
                said[0] = f"No, {head}"
            if said:
                # a denial in the record's words counts as the reply's one "no": the next thing denied is named
                # without another ("No, I don't use any drugs. I don't smoke weed.", not "... No, I'd have said if so.")
                self._said_no = True
                return said
            if item.subject not in self.index.lexicon:
                denial = self._topic_denial(item.subject)
                return [denial or voice.pick(f"deny_{self._wh}" if self._wh else "deny", rng)]
            # "How has your memory been?" is not answered "No." (a wh-question has no yes or no)
            no = voice.pick(f"deny_{self._wh}" if self._wh else "deny", rng)
            if self.index.lexicon.get(item.subject).domain == "risk" and not self._wh:
                no = "No."  # "Have you ever tried to end your life?" - not "No, that's been fine."
            # with several things answered at once a bare "no" would be ambiguous: name what is denied;
            # alone, some denials are named and some not, the same way each time for a concept
            # a risk question is answered in words, never a bare stock "No, I'd have said if so."
            name_it = self._items > 1 or not self._yes_no or self.index.lexicon.get(item.subject).domain == "risk" or (
                "impoverished" not in voice.traits
                and stable_seed("no", self.case.case_id, item.subject) % 5 < 3
            )
            if not name_it:
                self._said_no = True
                return [no]
            if self._stock_denials and self._one_topic:
                # "How has your appetite been?" - "No problems there. I haven't lost my appetite.", not then "I'm
                # not always hungry." too: a question on one subject gets one denial in stock words, not a checklist
                return []
            clause = (self._child_words(item.subject, True, None)
                      or self.lay.asked_clause(item.subject, self._question, True,
                                               stable_seed("clause", self.case.case_id, item.subject))
                      or self.lay.clause(item.subject, negated=True))
            if clause:
                self._stock_denials += 1
            risk_how = self._wh == "how" and self.index.lexicon.get(item.subject).domain == "risk"
            if clause and (self._said_no or self._wh == "what" or self._told_parts - {item.subject} or risk_how):
                # (a how-question of a risk asks how likely or how they would, never how it has been: "How likely do
                # you think it is that you would act on those thoughts?" - not "All right, I think. I wouldn't ...")
                # "No, I don't use any drugs. I've never taken cocaine.": one "no" a reply; "What do you do
                # for enjoyment?" - "I haven't lost interest in things.", not "Nothing really. I haven't ..."
                return [clause]
            self._said_no = True
            return [no, clause] if clause else [no]
        out: list[str] = []
        if (
            item.stance == AFFIRM
            and self._yes_no
            and "impoverished" not in voice.traits
            and stable_seed("yes", self.case.case_id, item.subject) % 2 == 0  # the same concept, the same way
            and not any(self._denial(f) for f in item.facts[:1])  # no "Yes." before "None."
            and not self._denied_parts - {item.subject}  # nor before another part's "no"
        ):
            out.append(voice.pick("affirm", rng))
        for fact in item.facts:
            if fact.section == "mental_status_exam.insight" and not fact.fact.patient_says:
                out.append(_own_view(fact.fact.text) or voice.insight[rng.randrange(len(voice.insight))])
                continue
            if item.stance == TELL and self._one_topic and (self._said_no or self._stock_denials) and (
                not fact.present or fact.fact.polarity == "absent"
            ):
                # "Have you ever had thoughts of ending your life?" - "Nope. I don't want to die.", not then
                # "I've never had thoughts of ending my life." as well: one subject, one denial
                continue
            if item.stance == TELL and not fact.present and fact.fact.polarity is None:
                # a pertinent negative worded for another question ("Never, no."): the topic's own denial
                if (self._said_no or self._stock_denials) and self._one_topic:
                    # "Have you ever had thoughts of ending your life?" - "Nope. I don't want to die.", not then
                    # "I've never had thoughts of ending my life." as well: one subject, one denial
                    continue
                denial = self._topic_denial(item.subject)
                if denial:
                    self._stock_denials += 1
                    out.append(denial)
                    continue
            text = self.self_contained(fact, self._say(fact, item.subject))
            if not text:
                continue
            text = self._to_the_point(text, item, fact)
            if self._each:
                # "How long does an attack last?" asks each one's length: a sentence that says one ("They peak within
                # ten minutes", "spells of four to six days") is said, again if told; no "For five months now." of the
                # illness is put to it, nor its onset or complaint said again ("It started six weeks ago.", hw-003/004)
                if fact.id in self._told and (not _A_LENGTH.search(text) or fact.section == "chief_complaint"):
                    continue
            elif self._timing:
                # "How long has that been going on?": how long (once), and no more than that when it was told
                how_long = self.index.durations.get(fact.id)
                spoken = duration_in(text)
                if spoken and fact.id in self._told and not self._said_how_long:
                    out.append(_how_long(spoken))  # told already: now only how long
                    self._said_how_long = True
                    continue
                if spoken:
                    how_long = None  # the wording says how long itself
                    self._said_how_long = True
                if how_long and self._said_how_long:
                    if fact.id in self._told:
                        continue
                elif how_long and fact.id in self._told:
                    out.append(_how_long(how_long))
                    self._said_how_long = True
                    continue
                elif how_long and how_long.lower() not in text.lower():
                    text = f"{text} {_how_long(how_long)}"
                    self._said_how_long = True
                elif how_long:
                    self._said_how_long = True
            self._told.add(fact.id)
            if "impoverished" in voice.traits and len(text.split()) > 10:
                head = re.split(r"(?<=[.;!?])\s+|,\s+", text)[0].rstrip(".,;")
                # a terse speaker says the first clause, never only the time or place that opens it: uw-010's
                # "In 1987, aged 29, I was the site inspector ..." was said "In 1987.", his passing death wish
                # "Since the summer of 2026." and "Since about 2019." (a piece with no one in it is no answer)
                if re.search(r"\b(?:I|I'm|I've|I'd|I'll|my|me|we|our)\b", head):
                    text = head + "."
            out.append(text)
        return out

    def _to_the_point(self, text: str, item: AnswerItem, fact: IndexedFact) -> str:
        """Of one fact said in several sentences, the sentences on what was asked.

        A record sentence often carries two subjects ("I've been refusing food for a week. And I'm convinced my
        insides are rotting."); asked one of them ("What do you think is going on with your body?"), a person
        says that one, not the other beside it. Each sentence of the wording is read for the subjects it names
        (its cue words and the findings it states, :func:`~.understanding.record_topics`,
        :func:`~.reading.read_statements`). A sentence that states a symptom or a substance, none of them asked
        nor a neighbour of one, is left out when another sentence of the fact is on what was asked. A sentence
        that names only the life story (school, work, family), or nothing, or points back at the one before
        ("They peak within ten minutes", "None in the week") goes with the one before it. A fact filed in the
        record's own section of a subject asked is on it throughout ("I had a transient ischaemic attack" under
        the medical history, whatever "attack" reads as), an open question (what brought them, how it started)
        admits everything, and a wording none of whose sentences is on the subject is said whole (recall's
        choice, not say's to undo)."""
        sentences = _SENTENCES.split(text)
        if len(sentences) < 2 or item.about_other or fact.section == "family_history":
            # a relative's history names their illness whatever the subject ("My uncle died by suicide")
            return text
        asked = self._asked_subjects(item)
        if not asked or asked & self.lay.open_topics or asked & _RISK_SAID_WHOLE:
            # a risk question's answer carries its reasons ("I'm being punished for my sins. I think I'd be better
            # off dead."): the guilt or the belief said beside the wish to die is part of it, never trimmed
            return text
        tax = load_taxonomy()
        if any(fact.section in tax.by_id[t].sections for t in asked if t in tax.by_id):
            return text
        named = [_named_subjects(s, self.index.lexicon) for s in sentences]
        on = [bool(n & asked) for n in named]
        off = [not o and not _POINTS_BACK_HEAD.match(s) and any(tax.kind(t) in ("symptom", "substance") for t in n)
               for s, n, o in zip(sentences, named, on)]
        if not any(on) or not any(off):
            return text
        kept: list[str] = []
        keep_prev = False
        for s, o, x in zip(sentences, on, off):
            keep = o or (not x and keep_prev)
            if keep:
                kept.append(s)
            keep_prev = keep
        head = _GOES_ON_HEAD.sub("", kept[0])
        kept[0] = head[:1].upper() + head[1:]
        return " ".join(kept)

    def _asked_subjects(self, item: AnswerItem) -> frozenset[str]:
        """The subjects a reply keeps to: the question's topics, the item's subject (a topic, or the topics of
        the concept it answers), those of the concepts asked, and each one's neighbours in the taxonomy."""
        tax = load_taxonomy()
        lexicon = self.index.lexicon
        asked = set(self._topics)
        for c in (*self._asked, item.subject):
            if c in tax.by_id:
                asked.add(c)
            elif c in lexicon:
                asked.update(finding_topics(c, lexicon))
        for t in list(asked):
            if t in tax.by_id:
                asked.update(tax.by_id[t].related)
        return frozenset(asked) - _FRAMES

    def _child_words(self, concept_id: str, negated: bool, variant: int | None, stop: bool = True) -> str | None:
        """A child's own wording of a concept (:meth:`LayRenderer.child_clause`) when the patient is a child,
        as a sentence (``stop``) or a clause; ``None`` for an adult or a concept with none."""
        if self.case.demographics.age >= CHILD_AGE:
            return None
        pick = stable_seed("clause", self.case.case_id, concept_id) if variant is None else variant
        words = self.lay.child_clause(concept_id, negated, pick)
        if not words:
            return None
        return words[0].upper() + words[1:] + "." if stop else words

    def _topic_denial(self, topic: str) -> str | None:
        """The topic's own denial (``data/denials.json``), the same for a case each time; to a wh-question
        one that does not open with "No" ("When you're angry, what goes through your mind?" - "I'd never
        hurt anyone.")."""
        denials = load_denials().get(topic)
        if not denials:
            return None
        if self._wh:
            denials = [d for d in denials if not _OPENS_NO.match(d)] or [
                d for d in (_OPENS_NO.sub("", d) for d in denials) if d
            ]
            denials = [d[0].upper() + d[1:] for d in denials]
            if not denials:
                return None
        return denials[stable_seed("deny", self.case.case_id, topic) % len(denials)]

    def _say(self, fact: IndexedFact, subject: str | None = None) -> str:
        findings = load_recall_rules().finding_topics
        asked = frozenset(self._asked) | {c for c in fact.affirms if subject is not None and (
            c == subject or subject in findings.get(c, ()))}
        text = self.lay.unreport(self.lay.say(fact, asked))
        if fact.leaks:
            text = self.index.guard.scrub(text)
        return text

    def _trait_tail(self, trait: str, rng: random.Random) -> str:
        return self.voice.choose(self.voice.traits[trait]["tail"], rng, optional=True)

    def _tail(self, plan: AnswerPlan, rng: random.Random, told: int) -> str:
        """A trait's closing sentence, where a person with that trait would say it (``tail_when`` of
        ``data/styles.json``): the anxious and the guarded after something sensitive, the vague after
        a question about when, the tangential after an open question they answered, the pressured
        after a long answer, the minimising after substance use; at the persona's tail rate."""
        traits = self.voice.traits
        if not plan.items or rng.random() >= max(self.persona.tail_rate, 0.0):
            return ""
        tails = load_styles()["tails"]
        when = tails["when"]
        # a risk answer takes no tail but the discomfort of telling it (``risk_topics``: a drift or a shrug after a
        # death wish reads as the wish brushed aside)
        risk = bool(set(tails.get("risk_topics", ())) & set(plan.question.topics))
        for trait in ("minimising", "vague", "tangential", "pressured", "anxious", "guarded", "irritable"):
            condition = when.get(trait, "never")
            if risk and condition != "sensitive":
                continue
            if trait in traits and "tail" in traits[trait] and self._tail_fits(condition, plan, told):
                return self._trait_tail(trait, rng)
        return ""

    def _topic_saying(self, plan: AnswerPlan, rng: random.Random, sentences: list[str]) -> str:
        """One of the patient's own sayings that the speech style places by topic (:func:`.decide.topic_sayings`:
        "No thoughts of ending her life ('That's for the Lord')"), after an answer to a question on its topics, at
        ``topic_rate`` of ``catchphrases`` in ``data/styles.json``: one placed after a denial only after a "no",
        never after a "yes"; never one the answer already says, nor more than ``per_encounter`` times."""
        sayings = self.persona.sayings
        if not sayings or not sentences:
            return ""
        asked = set(plan.question.topics)
        spoken = [i for i in plan.items if not i.silent and (i.stance in (AFFIRM, DENY) or i.stance == TELL and i.facts)]
        if not asked or not spoken:
            return ""
        denied = all(i.stance == DENY or (i.stance == TELL and self._denial(i.facts[0])) for i in spoken)
        stock = set(self.voice.banks["dont_know"]) | set(self.voice.banks["clarify"])
        if all(s in stock for s in sentences):
            return ""  # "No idea." says nothing a saying could follow (uw-028: "No idea. I'd never, ...")
        # what the answer is about: the topics of what it tells; a saying follows an answer on its subject, never a
        # sentence recall found on another ("How much of your day do the thoughts take?" - a propranolol line)
        about = {t for i in spoken if i.stance in (AFFIRM, TELL) for f in i.facts for t in f.topics}
        table = load_styles().get("catchphrases", {})
        said = " ".join(sentences).lower()
        most = int(table.get("per_encounter", 3))
        fitting = [p for p, topics, after_no in sayings
                   if topics & asked and (denied or not after_no) and (denied or topics & about)
                   and p.lower().rstrip(".!?") not in said
                   and self.voice.catchphrases_said.get(p, 0) < most]
        if not fitting or rng.random() >= float(table.get("topic_rate", 0.0)):
            return ""
        choice = self.voice.choose(fitting, rng, optional=True)
        if choice:
            self.voice.catchphrases_said[choice] = self.voice.catchphrases_said.get(choice, 0) + 1
        return choice

    def _catchphrase(self, plan: AnswerPlan, rng: random.Random, sentences: list[str]) -> str:
        """One of the patient's own sayings from the case's speech style ("It's too late.", "I can't be
        bothered."), after an answer with something in it to a question on one of the topics of
        ``catchphrases`` in ``data/styles.json``, at its rate; never twice running, never one the
        answer already says."""
        phrases = self.voice.catchphrases
        table = load_styles().get("catchphrases", {})
        if not phrases or not sentences or not any(i.stance in (AFFIRM, TELL) and i.facts and not i.silent for i in plan.items):
            return ""
        if not set(plan.question.topics) & set(table.get("topics", ())):
            return ""
        if rng.random() >= float(table.get("rate", 0.0)):
            return ""
        said = " ".join(sentences).lower()
        most = int(table.get("per_encounter", 3))
        fresh = [p for p in phrases if p.lower().rstrip(".!?") not in said and self.voice.catchphrases_said.get(p, 0) < most]
        choice = self.voice.choose(fresh, rng, optional=True) if fresh else ""
        if choice:
            self.voice.catchphrases_said[choice] = self.voice.catchphrases_said.get(choice, 0) + 1
        return choice

    def _tail_fits(self, condition: str, plan: AnswerPlan, told: int) -> bool:
        spoken = [i for i in plan.items if i.stance in (AFFIRM, TELL) and i.facts and not i.silent]
        if condition == "any":
            return bool(spoken)
        if condition == "substance":
            return any(i.subject in ("alcohol_use", "drug_use", "substance") or i.facts[0].section == "substance_use" for i in spoken)
        if condition == "timing":
            return self._timing or bool({"onset", "course"} & set(plan.question.topics))
        if condition == "open":
            return bool(spoken) and not self._yes_no
        if condition == "long":
            return told >= 2
        if condition == "sensitive":
            sensitive = set(load_styles()["tails"]["sensitive_topics"])
            return bool(spoken) and (
                any(i.sensitive or i.subject in sensitive for i in spoken) or bool(sensitive & set(plan.question.topics))
            )
        return False

    def hedge(self, plan: AnswerPlan, rng: random.Random) -> str:
        """One of the persona's own hedges ("I reckon", "you know"), now and then, worked into the
        last sentence of an answer with something in it: a talkative person's turn of phrase, or a
        filler where the persona has a filler rate. Never a sentence of its own."""
        if set(load_styles().get("no_hedge_traits", ("impoverished",))) & set(self.voice.traits) or not any(
            i.stance in (AFFIRM, TELL) and i.facts and not i.silent for i in plan.items
        ):
            return ""
        if self.persona.verbosity == "talkative" and rng.random() < 0.08:
            return self.voice.pick("signature", rng, optional=True)
        if self.persona.filler_rate and rng.random() < self.persona.filler_rate:
            return self.voice.pick("fillers", rng, optional=True)
        return ""

    # -- self-contained answers --------------------------------------------------------------------

    def self_contained(self, fact: IndexedFact, text: str) -> str:
        """The fact's wording, made to name what it is about when it does not.

        A reply such as "Not that I know of." is an answer only next to its question; this adds a
        short lay clause naming each concept the fact rules out, or states and the doctor asked
        about (asked concepts first, at most two), that the wording leaves out, with the fact's
        polarity: "Not that I know of, no allergies to
        any medicines." A mood answer is said as a feeling ("I feel scared.").
        A clause is kept only if the lexicon reads it in the reply with that polarity, it states
        nothing else new, and the reply still passes the claim check: it adds no clinical content.
        A denial in the patient's own words is never turned into an affirmation.
        """
        if not text or fact.section == "family_history":
            return text
        key = (fact.id, fact.position, text, self._asked)
        return _CONTAINED.recall(self._owner, key, lambda: self._self_contained(fact, text))

    def _self_contained(self, fact: IndexedFact, text: str) -> str:
        """:meth:`self_contained` worked out (it is remembered per fact, wording and concepts asked)."""
        if fact.section == "mental_status_exam.mood":
            return self._mood_answer(fact, text)
        lexicon = self.index.lexicon
        said = [s for s in read_statements(text, lexicon) if s.subject == "patient"]
        # what the wording says in other words than the lexicon's ("better off without me" is hopelessness)
        named = {s.concept_id for s in said} | meant(text, load_recall_rules())
        if "protective_factors" in fact.affirms and text == self.lay.protective(fact.fact.text):
            named.add("protective_factors")  # "My sons and my faith." names what keeps them going
        tokens = tokenize(text)
        bare_no = bool(tokens) and tokens[0] in self.lay.negation_words | {
            "none",
            "nope",
            "nothing",
            "nobody",
            "never",
        }
        bare_denial = not said and bare_no
        # a wording that already says something in a sentence of its own needs no clause to name it: "I smoke
        # about 20 a day" is not followed by ", I'm a smoker", "I haven't lost my appetite" not by "I'm not always
        # hungry", "Codeine makes me sick" not by ", I have an allergy to a medicine" (the readers' stacked
        # stock phrases); a short "Not that I know of." or "Every day." still says what it is about
        first_person = bool({"i", "me", "my", "i'm", "i've", "i'd"} & set(tokens))
        substantive = (len(tokens) > 5 or (first_person and len(tokens) >= 3)) and not (bare_no and len(tokens) <= 8 and not said)
        denies = substantive and any(s.negated for s in said)  # it names a thing it denies already
        wanted: list[tuple[str, bool]] = []
        for concept_id in (*self._asked, *sorted(fact.rules_out), *sorted(fact.affirms)):
            if concept_id in fact.rules_out:
                negated = True
            elif concept_id in fact.affirms:
                negated = False
            else:
                continue
            if concept_id in named or (bare_denial and not negated) or (concept_id, negated) in wanted:
                continue
            if substantive and negated and denies:
                continue
            if substantive and not negated and self._says_already(text, concept_id):
                continue
            if not negated and concept_id not in self._asked:
                continue  # what the patient has is named only when asked
            if not negated and _past_only(fact.fact.text):
                continue  # "Ex-smoker; stopped 8 years ago" is not named in the present ("..., I smoke cigarettes")
            if negated and concept_id not in self._asked and fact.affirms and not bare_no:
                continue  # "Yes. Every day." is not followed by what the fact also rules out
            wanted.append((concept_id, negated))
        for concept_id, negated in wanted[:2]:
            variant = stable_seed("clause", self.case.case_id, concept_id)
            clause = self._child_words(concept_id, negated, variant, stop=False) or self.lay.naming_clause(
                concept_id, negated, framed=negated, variant=variant
            )
            if clause:
                text = self._attach(text, clause, concept_id, negated)
        return text

    def _says_already(self, text: str, concept_id: str) -> bool:
        """Whether a wording already says a concept in other words: it shares a content stem with the
        concept's naming clause, every one ("I smoke about 20 a day" and "I'm a smoker"; "I've always been a
        worrier" does not say "I've got money worries")."""
        told = self.lay.said_already.get(concept_id)
        if told is not None and told.search(text):
            return True  # "Codeine makes me sick" tells the allergy question its answer (render.json said_already)
        variant = stable_seed("clause", self.case.case_id, concept_id)
        clause = self.lay.naming_clause(concept_id, False, framed=False, variant=variant) or ""
        stems = {w[:4] for w in _content(clause)}
        return bool(stems) and stems <= {w[:4] for w in _content(text)}

    def _attach(self, text: str, clause: str, concept_id: str, negated: bool) -> str:
        """``text`` with ``clause`` worked in (after a leading "No,", at the end of the last sentence,
        or as a sentence of its own), the first way that the lexicon and the claim check accept."""
        before = {(s.concept_id, s.negated) for s in read_statements(text, self.index.lexicon)}
        fragment = clause if clause.startswith(("I ", "I'")) else clause[0].lower() + clause[1:]
        sentence = clause[0].upper() + clause[1:] + "."
        candidates = []
        lead = re.match(
            r"^((?:no|yes|yeah|nope|never|not really|no, no)),\s+(.+)$", text, re.IGNORECASE | re.DOTALL
        )
        if lead and not re.search(r"[.!?]\s", lead.group(2).strip()):
            rest = lead.group(2)
            if not rest.startswith(("I ", "I'")):
                rest = rest[0].lower() + rest[1:]
            # a bare echo ("I haven't.") says nothing once the clause names what is denied (``echo_answers``)
            echo = self.lay.echo_answers.fullmatch(rest.strip())
            candidates.append(f"{lead.group(1)}, {fragment}." if echo else f"{lead.group(1)}, {fragment}, {rest}")
        if text.endswith("."):
            candidates.append(f"{text[:-1]}, {fragment}.")
        candidates.append(f"{text} {sentence}")
        wanted = (concept_id, negated)
        for candidate in candidates:
            statements = read_statements(candidate, self.index.lexicon)
            now = {(s.concept_id, s.negated) for s in statements}
            if wanted not in now or not now <= before | {wanted}:
                continue
            if not self.checker.check(candidate).ok or self.index.guard.leaks(candidate):
                continue
            return candidate
        return text

    def _denial_only(self, fact: IndexedFact, text: str) -> str:
        """Of a record sentence that joins a denial to something on another subject ("Good friendships; no
        forensic history"), told as a denial, only what denies: "Have you been in trouble with the police?" -
        "No, I've never been in trouble with the police.", not then "I have good friendships."."""
        asked = set(self._topics)
        if not asked or not fact.topics or set(fact.topics) <= asked:
            return text
        parts = re.split(r"(?<=[.!?])\s+", text)
        denying = [p for p in parts if self._negative(p)]
        if not denying or len(denying) == len(parts):
            return text
        head = re.sub(r"^(?:And|But|So)\s+", "", denying[0])
        return " ".join([head[0].upper() + head[1:]] + denying[1:])

    def _denial_first(self, text: str) -> str:
        """A denial's sentences with the one that denies first: "I have good friendships. And I've never been in
        trouble with the police." -> "I've never been in trouble with the police. I have good friendships."."""
        parts = re.split(r"(?<=[.!?])\s+", text)
        if len(parts) < 2 or self._negative(parts[0]):
            return text
        at = next((i for i, p in enumerate(parts) if self._negative(p)), None)
        if at is None:
            return text
        head = re.sub(r"^(?:And|But|So)\s+", "", parts[at])
        head = head[0].upper() + head[1:]
        return " ".join([head] + parts[:at] + parts[at + 1:])

    def _negative(self, text: str) -> bool:
        """Whether a sentence says no to something: a negation word, "never", or a "-n't"."""
        tokens = tokenize(text)
        return any(t in self.lay.negation_words or t in ("never", "none", "nothing", "nope") or t.endswith("n't") for t in tokens)

    def _opens_no(self, text: str) -> bool:
        tokens = tokenize(text)
        return bool(tokens) and tokens[0] in self.lay.negation_words | {"none", "nope", "nothing", "nobody", "never", "not"}

    def _denial(self, fact: IndexedFact) -> bool:
        """Whether the fact, as the patient words it, is a "no" (it rules something out, or begins so)."""
        tokens = tokenize(fact.fact.patient_says or "")
        if fact.fact.polarity is not None:
            return fact.fact.polarity == "absent"
        starts_no = bool(tokens) and tokens[0] in self.lay.negation_words | {
            "none",
            "nope",
            "nothing",
            "nobody",
            "never",
        }
        return starts_no or (bool(fact.rules_out) and not fact.affirms)

    def _mood_answer(self, fact: IndexedFact, text: str) -> str:
        """A mood answer said as a feeling: "I feel scared." (the patient's word; render.json ``mood_lead``)."""
        if "mood" in tokenize(text) or not self.lay.mood_lead:
            return text
        quoted = re.fullmatch(
            r"\s*['\"\u2018\u201c]([^'\"\u2019\u201d]+)['\"\u2019\u201d]\s*[.;]?\s*", fact.fact.text
        ) or _DATED_QUOTE.fullmatch(fact.fact.text)
        pick = stable_seed("mood", self.case.case_id)
        if quoted and len(tokenize(quoted.group(1))) <= 3:
            mood = quoted.group(1).strip().rstrip(".").lower()
            if re.search(self.lay.mood_lead.get("as_is_pattern", "(?!)"), mood):
                return text  # "Never better." is an answer as it stands
            am = re.search(self.lay.mood_lead.get("am_pattern", "(?!)"), mood)
            mood = self.lay.mood_lead.get("am_words", {}).get(mood, mood) if am else mood  # "I'm at rock bottom"
            # "I feel tired" where the record holds no tiredness claims it: then "Tired, really."
            candidates = [
                leads[pick % len(leads)].format(mood=mood, Mood=mood[:1].upper() + mood[1:])
                for leads in (self.lay.mood_lead["short_am" if am else "short"], self.lay.mood_lead.get("short_plain", ()))
                if leads
            ]
            for candidate in candidates:
                if self.checker.check(candidate).ok and not self.index.guard.leaks(candidate):
                    return candidate
            return text
        elif text.startswith(("I ", "I'")):
            # "As for my mood, I wake up and the sadness is there.", never before a note's fragment
            # ("As for my mood, worried all the time, I suppose.")
            leads = self.lay.mood_lead["long"]
            candidate = leads[pick % len(leads)].format(text=text)
        else:
            return text
        if self.checker.check(candidate).ok and not self.index.guard.leaks(candidate):
            return candidate
        return text


_OPENS_NO = re.compile(r"^\s*(?:no|nope)\b[,.]?\s*(?:nothing like that[,.]?\s*)?", re.IGNORECASE)
# sections whose clinician's sentences quote the patient ("in the bad week 'life feels pointless'")
_VOICED_QUOTES = ("mental_status_exam.thought_content", "risk_assessment.")
# the quotes are recall's QUOTED_WORDS (an apostrophe inside a word stays in the quote: "'it'd be easier all round if
# I went where Trev is'", uw-021)


@lru_cache(maxsize=1)
def _quoted_fragment() -> re.Pattern[str]:
    """A quoted fragment that opens on one of ``render.json`` ``quoted_fragment_opens`` (a preposition) is part of the
    clinician's clause, not a thing the patient said whole ("says he would not act 'with Raewyn crook'")."""
    words = _data("render.json")["quoted_fragment_opens"]
    return re.compile(r"^(?:" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)

# a threat or intention reported with the patient's words: "said he would 'sort them out' if the police don't"
_REPORTED = re.compile(
    r"\b(?:said|says|stated|told \w+|threatened)\s+(?:that\s+)?(?:he|she|they)\s+(would|will|could|might)\s+"
    r"['\u2018\u201c\"]([A-Za-z](?:[^'\u2019\u201d\"]|(?<=[a-z])['\u2019](?=[a-z])){2,80})['\u2019\u201d\"]((?:[^;.'\u2018\u201c\"]|(?<=[a-z])'(?=[a-z])){0,40})",
    re.IGNORECASE,
)
_WHOLLY_QUOTED = re.compile(r"\s*['\"\u2018\u201c]([^'\"\u2019\u201d]+)['\"\u2019\u201d]\s*[.;]?\s*")
# a mood the examination quotes with the day it was said ("'Pretty good, considering' (1 December 2026)."): a chart of
# several visits keeps each visit's word, the latest the mood now
_DATED_QUOTE = re.compile(
    r"\s*['\"\u2018\u201c]([^'\"\u2019\u201d]+)['\"\u2019\u201d]\s*\((\d{1,2} [A-Z][a-z]+ \d{4})\)\s*[.;]?\s*")


def _quote_day(fact: IndexedFact) -> datetime | None:
    """The day a mood the examination quotes was said, or ``None`` (no dated quote)."""
    m = _DATED_QUOTE.fullmatch(fact.fact.text) if fact.section == "mental_status_exam.mood" else None
    if m is None:
        return None
    try:
        return datetime.strptime(m.group(2), "%d %B %Y")
    except ValueError:
        return None


def _latest_moods(facts: tuple[IndexedFact, ...], latest: datetime | None) -> tuple[IndexedFact, ...]:
    """``facts`` without the moods the examination quotes from visits before its latest (``latest``, the day of the
    record's latest): asked how the mood is, the patient says December's "pretty good, considering", not March's
    "so-so" and February's "sad and tired" beside it (uw-033 at seed 13)."""
    if latest is None:
        return facts
    return tuple(f for f in facts if (d := _quote_day(f)) is None or d >= latest)


_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


@lru_cache(maxsize=1)
def _goes_on_words() -> frozenset[str]:
    """The words a sentence opens with when it goes on from the one before it ("I'd never hurt him. But I can't
    stop them."): ``goes_on_words`` of ``data/render.json``."""
    return frozenset(_data("render.json").get("goes_on_words", ()))
# risk subjects, whose answers are said whole (see Speaker._to_the_point)
_RISK_SAID_WHOLE = frozenset({"suicide", "self_harm", "violence"})
# the frame of an illness (when it began, how it goes, what set it off, what it stops): every subject has one
_FRAMES = frozenset({"onset", "course", "trigger", "functioning", "help_tried"})
# a sentence that goes on from the one before ("And I'm convinced ..."): said first, it loses the joining word
_GOES_ON_HEAD = re.compile(r"^(?:And|But|So|Also|Then)\s+(?=\S)")
# a sentence that points back at the one before ("They peak within ten minutes", "None in the week", "It helped")
_POINTS_BACK_HEAD = re.compile(r"^(?:(?:And|But|So)\s+)?(?:It|It's|They|They're|Them|Both|None|Neither|That|This|These|Those|Which|Each)\b")


@lru_cache(maxsize=memo_size(8192))
def _named_subjects(sentence: str, lexicon: Lexicon) -> frozenset[str]:
    """The interview topics a sentence names: by its cue words, and by the concepts it states."""
    from .understanding import record_topics

    topics = set(record_topics("", sentence))
    for st in read_statements(sentence, lexicon):
        topics.update(finding_topics(st.concept_id, lexicon))
    return frozenset(topics) - _FRAMES


def _past_only(text: str) -> bool:
    """Whether a record sentence tells something of the past only: a past-time cue ("ago", "used to") and
    no cue that it goes on ("since", "now"). "Low mood since the birth four months ago" is still so."""
    cues = load_cues()
    tokens = tokenize(text)
    return bool(find_phrases(tokens, cues.past_time)) and not find_phrases(tokens, cues.current_time)


def _denied_here(fact: IndexedFact, asked: frozenset[str], told: bool) -> list[str]:
    """What a clinician's line rules out that the patient says here: what was asked; with nothing asked
    and nothing else told, all of it. "Any physical symptoms with the worry?" is not answered "I've never
    had thoughts of ending my life." from the examiner's "preoccupied with worries ...; no suicidal ideation"."""
    ruled = sorted(fact.rules_out)
    if asked:
        return [c for c in ruled if c in asked]
    return [] if told else ruled


#: a length of one episode ("about twenty minutes", "four to six days"), never a time ago nor a rate ("ten hours a night")
_A_LENGTH = re.compile(
    r"\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|ninety|"
    r"a few|a couple of|several)(?:\s*(?:to|or|-)\s*\w+)?\s+(?:seconds?|minutes?|hours?|days?|weeks?)\b"
    r"(?!\s+(?:ago|a|an|per|each|every)\b)",
    re.IGNORECASE)


def _how_long(duration: str) -> str:
    """A duration as the patient says it: "It started four months ago." / "For about two years now."."""
    if duration.lower().endswith(" ago"):
        return f"It started {duration}."
    if duration.lower().startswith(("the last", "the past")):
        return f"Over {duration}."
    return f"For {duration} now."


def _with_article(text: str) -> str:
    """ "At the moment I'm postgraduate student." -> "... I'm a postgraduate student.": a job or role said
    after "At the moment I'm" with no article takes one (compile.json's ``person_noun_pattern`` names the
    nouns of a kind of person)."""
    if "At the moment I'm " not in text:
        return text
    from mentalhospital_env.cases.compile import _data as compile_data

    nouns = compile_data()["person_noun_pattern"]

    def add(m: re.Match[str]) -> str:
        phrase = m.group(1)
        if phrase.split()[0] in ("a", "an", "the", "my", "on", "in", "at", "off", "not", "still", "out", "between") or not re.search(
            nouns, phrase.split()[-1]
        ):
            return m.group(0)
        return f"At the moment I'm {'an' if phrase[0] in 'aeio' else 'a'} {phrase}"

    return re.sub(r"At the moment I'm ((?:[a-z-]+ ){0,2}[a-z-]+?)(?= (?:for|at|in|with|of)\b|[.,]|$)", add, text)


_CLOCK_TIME = re.compile(r"(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
# hours with a leading zero on one side ("02 to 10"), never a count ("10 to 12 cans")
_HOUR_RANGE = re.compile(r"(?<![\d:.])(?=0\d to |\d\d to 0\d)(0\d|1\d|2[0-3]) to (0\d|1\d|2[0-3])(?![\d:])")


@lru_cache(maxsize=1)
def _clock() -> dict:
    table = _data("render.json")["clock"]
    return {**table, "part_said": re.compile(table["part_said"], re.IGNORECASE)}


@lru_cache(maxsize=1)
def _young() -> dict:
    table = _data("render.json")["young"]
    return {**table, "leave_out": re.compile("|".join(f"(?:{p})" for p in table["leave_out"]), re.IGNORECASE)}


def _hour_word(hour: int) -> str:
    return _clock()["hours"][hour % 12]


def _time_words(hour: int, minute: int) -> tuple[str, bool]:
    """A time of day in words, the minutes to the nearest five, and whether it was rounded."""
    clock = _clock()
    named = clock["named"].get(f"{hour}:{minute:02d}")
    if named:
        return named, False
    near = 5 * round(minute / 5)
    rounded = near != minute
    if near == 60:
        hour, near = (hour + 1) % 24, 0
    if near == 0:
        words = _hour_word(hour)
    elif str(near) in clock["past"]:
        words = f"{clock['past'][str(near)]} {_hour_word(hour)}"
    else:
        words = f"{clock['to'][str(near)]} {_hour_word(hour + 1)}"
    return words, rounded


def _part_of_day(hour: int) -> str:
    return next(part for start, end, part in _clock()["parts"] if start <= hour < end)


def spoken_clock(text: str) -> str:
    """``text`` with a chart's clock times said as a person says them (``clock`` of ``data/render.json``): "I woke at
    06:30" is "I woke at half six in the morning", "at 23:00" "at eleven at night", "from about 02:40" "from about
    twenty to three in the morning", and "I sleep about 02 to 10" "I sleep about two to ten". The part of the day is
    left out where the sentence says it next ("at 07:00 in the morning"). hw-036's man said he was found on the
    footbridge "at 23:00", uw-034's woman that her chest went tight "from about 02:40 that day"."""
    if not text or not any(ch.isdigit() for ch in text):
        return text
    clock = _clock()

    def said(m: re.Match[str]) -> str:
        hour, minute = int(m.group(1)), int(m.group(2))
        words, rounded = _time_words(hour, minute)
        before = text[max(0, m.start() - 7):m.start()].lower()
        if rounded and clock["about"] not in before:
            words = f"{clock['about']} {words}"
        if words not in clock["named"].values() and not clock["part_said"].match(text[m.end():].lstrip(" ,").lower()):
            words = f"{words} {_part_of_day(hour)}"
        return words

    text = _CLOCK_TIME.sub(said, text)
    return _HOUR_RANGE.sub(lambda m: f"{_hour_word(int(m.group(1)))} to {_hour_word(int(m.group(2)))}", text)


def plain_reply(plan: AnswerPlan, index: FactIndex) -> str:
    """A reply with no persona (the memory-only variant): the facts as the record or the case has them.

    ``patient_says`` when present, else the record's sentence; "No." for denials, "I don't know."
    for what the record does not cover; refusals are flat.
    """
    if plan.refusal is not None:
        return "I can't tell you that."
    if plan.small_talk and not plan.items:
        return "Hello." if plan.small_talk == "greeting" else "Goodbye."
    if plan.unclear:
        return "I don't understand the question."
    out: list[str] = []
    wh = wh_word(plan.question)
    no = "No." if wh is None else "Fine." if wh == "how" else "Nothing, really."  # a wh-question has no "no"
    for item in plan.items:
        if item.silent:
            continue
        if item.stance == UNKNOWN:
            out.append("I don't know.")
        elif item.stance == DENY:
            said = [f.fact.patient_says for f in item.facts if f.fact.patient_says]
            out.append(" ".join(said) if said else no)
        elif item.stance == WITHHELD:
            out.append("I'd rather not say.")
        elif item.stance == NOTHING_MORE:
            out.append("Nothing else.")
        else:
            for fact in item.facts:
                text = fact.fact.patient_says or fact.fact.text
                out.append(index.guard.scrub(text) if fact.leaks else text)
    # several things denied at once with nothing to say of them: one "No.", not "No. No. No."
    return " ".join(dict.fromkeys(s.strip() for s in out if s.strip()))


def _unrepeated(sentences: Sequence[str]) -> list[str]:
    """The sentences less any that says again what an earlier one said (:func:`_repeats`), each sentence
    of a wording compared on its own."""
    kept: list[str] = []
    bags: list[frozenset[str]] = []
    for text in sentences:
        pieces = [p for p in re.split(r"(?<=[.!?])\s+", text) if p]
        fresh = []
        for piece in pieces:
            bag = _content(piece)
            if bag and any(_repeats(bag, earlier) for earlier in bags):
                continue
            fresh.append(piece)
            if bag:
                bags.append(bag)
        if fresh:
            kept.append(" ".join(fresh))
    return kept


def _content(sentence: str) -> frozenset[str]:
    """The content stems of a sentence (no stopwords, none under three letters)."""
    from .understanding import load_taxonomy, stems_of

    stop = load_taxonomy().stopwords
    # a contraction ("I've", "wouldn't") is a function word, not what the sentence is about
    return frozenset(w for w in stems_of(sentence) if len(w) > 2 and w not in stop and "'" not in w)


def _repeats(bag: frozenset[str], earlier: frozenset[str]) -> bool:
    """Whether a sentence says again what an earlier one of the same reply said: two or more content
    stems shared, and they make two thirds of the shorter sentence."""
    shared = len(bag & earlier)
    if len(bag) == 1 and bag <= earlier and len(earlier) <= 3:
        return True  # "Worried all the time, I suppose. I worry all the time."
    return shared >= 2 and shared * 3 >= 2 * min(len(bag), len(earlier))
