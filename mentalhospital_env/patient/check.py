"""Check: the last room of the patient. Every sentence of a reply must rest on the record.

:class:`ClaimChecker` reads the concepts a reply states (with polarity and subject) and says which
the record does not support; :class:`LeakGuard` finds and takes out what a patient never says (the
diagnosis, a code, a scale or its score); :func:`facts_expressed` tells which facts a free text (a
language model's reply) expresses. The offline and the model backends share this room.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from mentalhospital_env.cases import Case
from mentalhospital_env.knowledge.language import SharedMemo, memo_size, stems, tokenize

from .reading import (
    CLOSED_WORLD_KINDS,
    CueSet,
    Statement,
    _spans,
    concept_topics,
    load_memory_cues,
    read_statements,
)
from .understanding import load_taxonomy

# what each patient worked out for its own wordings, remembered in one memo per kind for all patients of the
# process (a cap per patient grows with the suite: see SharedMemo)
_SPACES = re.compile(r"\s{2,}")
_SENTENCE_START = re.compile(r"(^|[.!?]\s+)([a-z])")
_SPACE_BEFORE_MARK = re.compile(r"\s+([,.;])")
_LEAKS: SharedMemo[str, bool] = SharedMemo("LeakGuard.leaks", 32768)
_CHECKED: SharedMemo[str, ClaimCheck] = SharedMemo("ClaimChecker.checked", 32768)

if TYPE_CHECKING:
    from .recall import FactIndex, IndexedFact

# --------------------------------------------------------------------------------------------------
# Leak guard
# --------------------------------------------------------------------------------------------------


class LeakGuard:
    """What a patient must never say: the case's diagnosis names, ICD codes, category ids, scale scores.

    Names come from the case's reference disorders and, when the knowledge base is available, their
    synonyms (multi-word ones and acronyms such as ``MDD``); codes and scores are caught by pattern.
    """

    def __init__(self, case: Case):
        cues = load_memory_cues()
        names: set[str] = set()
        for disorder in case.diagnosis.disorders:
            names.add(disorder.name)
            names.add(disorder.name.split(",")[0])
            names.update(_disorder_synonyms(disorder.code))
        names.update(c.replace("_", " ") for c in case.diagnosis.categories if "_" in c)
        phrases = {tuple(tokenize(n)) for n in names if len(tokenize(n)) >= 2 or len(n) >= 6 or n.isupper()}
        phrases.discard(())
        # a relative's illness as the family history names it is what the family told the patient ("My mother
        # had recurrent depression", not "My mother had a condition"): that name, where the record gives it to
        # a relative, is theirs to say; every other name of the diagnosis stays unsaid
        family = tokenize(" ".join([case.ehr.family_history or ""] + [
            f"{f.text} {f.patient_says or ''}" for f in case.facts if f.section == "family_history"]))
        phrases = {p for p in phrases if not _contains(family, p)}
        self.phrases = CueSet(phrases)
        self.codes = frozenset(d.code.upper() for d in case.diagnosis.disorders)
        self._code = cues.code_pattern
        self._score = cues.score_pattern
        scales = [e.name for e in case.exams if e.kind == "scale" and tokenize(e.name)]
        # a one-word scale name that is an acronym and also an everyday word ("SCARED") leaks only
        # when written as the acronym: "I'd say scared" is a mood, not a scale
        self._acronyms = tuple(
            re.compile(rf"\b{re.escape(n.strip())}\b")
            for n in scales
            if len(tokenize(n)) == 1 and n.strip().isupper()
        )
        self._scales = CueSet(
            tuple(tokenize(n)) for n in scales if not (len(tokenize(n)) == 1 and n.strip().isupper())
        )
        self.replacement = cues.leak_replacement
        self._owner = _LEAKS.owner()

    def leaks(self, text: str) -> bool:
        """Whether ``text`` names the diagnosis, an ICD-10-CM code, a scale score or a scale by name
        (remembered per text: a reply is checked after wording and again after each clause added)."""
        if not text:
            return False
        return _LEAKS.recall(self._owner, text, lambda: self._reads_as_leak(text))

    def _reads_as_leak(self, text: str) -> bool:
        if self._code.search(text) or self._score.search(text):
            return True
        if any(p.search(text) for p in self._acronyms):
            return True
        tokens = tokenize(text)
        return bool(_spans(tokens, self.phrases)) or bool(_spans(tokens, self._scales))

    def scrub(self, text: str) -> str:
        """``text`` with diagnosis names, codes and scores taken out (names become lay words)."""
        text = self._code.sub("", text)
        text = self._score.sub("", text)
        for pattern in self._acronyms:
            text = pattern.sub(self.replacement, text)
        for pattern in self._phrase_patterns():
            text = pattern.sub(self.replacement, text)
        text = _SPACE_BEFORE_MARK.sub(r"\1", _SPACES.sub(" ", text)).strip()
        # a name that opened a sentence leaves its replacement there in capitals ("Bipolar affective disorder
        # was diagnosed at 26" -> "A condition was diagnosed at 26", never "a condition was ...")
        return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)

    def _phrase_patterns(self) -> tuple[re.Pattern[str], ...]:
        """The names and scales as patterns (words apart by any non-word run), compiled on first use."""
        patterns = self.__dict__.get("_phrase_res")
        if patterns is None:
            patterns = self._phrase_res = tuple(_phrase_pattern(p) for p in self.phrases.phrases + self._scales.phrases)
        return patterns


def _contains(tokens: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(tokens[i:i + n]) == phrase for i in range(len(tokens) - n + 1))


@lru_cache(maxsize=memo_size(1024))
def _phrase_pattern(phrase: tuple[str, ...]) -> re.Pattern[str]:
    """A name's words as a pattern, any non-word run between them (shared by every guard naming it)."""
    return re.compile(r"\b" + r"\W+".join(re.escape(w) for w in phrase) + r"\b", re.IGNORECASE)


def _disorder_synonyms(code: str) -> tuple[str, ...]:
    """Synonyms of a disorder that name it (several words, or an acronym such as ``MDD``) from the
    knowledge base. Single lay words ("depression", "anxiety") are left to the patient: people use
    them of themselves and their relatives without naming a diagnosis."""
    try:
        from mentalhospital_env.knowledge import load_knowledge

        disorder = load_knowledge().resolve_disorder(code)
    except (ImportError, LookupError, ValueError, OSError, AttributeError):
        return ()  # the knowledge base is optional for the guard: the case's names and codes still apply
    if disorder is None:
        return ()
    synonyms = tuple(getattr(disorder, "synonyms", ()) or ())
    return tuple(s for s in synonyms if len(tokenize(s)) >= 2 or (s.isupper() and len(s) >= 3))


# --------------------------------------------------------------------------------------------------
# Checking replies against the record
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimCheck:
    """The clinical content of a reply and whether the record supports it.

    ``statements``: every concept stated; ``unsupported``: those the record does not support;
    ``leak``: the reply names the diagnosis, a code or a score.
    """

    statements: tuple[Statement, ...]
    unsupported: tuple[Statement, ...]
    leak: bool

    @property
    def ok(self) -> bool:
        return not self.unsupported and not self.leak


class ClaimChecker:
    """Checks that a text states only what the record supports.

    A concept stated as present about the patient must be affirmed by some fact; one stated as
    absent must be ruled out by some fact, or, for symptoms and signs (closed world), affirmed by none;
    a concept stated about someone else must be stated about someone else in the record (or denied).
    """

    def __init__(self, index: FactIndex):
        self.index = index
        self._owner = _CHECKED.owner()

    def supported(self, statement: Statement) -> bool:
        index = self.index
        c = statement.concept_id
        if statement.subject == "other":
            if not statement.negated and c in index.supported_present and index.lexicon.get(c).domain == "social":
                return True  # "My children and my wife.": the patient's own family, read as about them
            return c in index.supported_other if not statement.negated else c not in index.supported_other
        if not statement.negated:
            return c in index.supported_present
        if c in index.supported_absent:
            return True
        if c in index.supported_present:
            return False
        if index.lexicon.get(c).kind in CLOSED_WORLD_KINDS or c in index.closed_concepts:
            return True
        # history a section of the record would hold (admissions, police): denied when that section
        # is there and says nothing of it (the taxonomy's closed_if_section)
        return self._closed_history(c)

    def _closed_history(self, concept_id: str) -> bool:
        tax = load_taxonomy()
        topics = [tax.by_id[t] for t in concept_topics(self.index.lexicon, concept_id) if t in tax.by_id]
        return bool(topics) and all(
            t.closed_if_section is not None and self.index.by_section.get(t.closed_if_section) for t in topics
        )

    def check(self, text: str) -> ClaimCheck:
        """What ``text`` states and what of it the record does not support (remembered per text)."""
        return _CHECKED.recall(self._owner, text, lambda: self._check(text))

    def _check(self, text: str) -> ClaimCheck:
        found = tuple(read_statements(text, self.index.lexicon))
        unsupported = tuple(s for s in found if not self.supported(s))
        return ClaimCheck(found, unsupported, self.index.guard.leaks(text))


def facts_expressed(
    text: str, index: FactIndex, candidates: Iterable[IndexedFact], min_overlap: float = 0.5
) -> tuple[str, ...]:
    """Which of ``candidates`` a free text (an LLM reply) expresses.

    A fact counts when the text states one of its concepts with the fact's polarity, or, for a fact
    without concepts, when at least ``min_overlap`` of the fact's content stems occur in the text.
    """
    said = read_statements(text, index.lexicon)
    present = {s.concept_id for s in said if not s.negated and s.subject == "patient"}
    absent = {s.concept_id for s in said if s.negated and s.subject == "patient"}
    other = {s.concept_id for s in said if s.subject == "other"}
    cues = load_memory_cues()
    words = {s for s in stems(text) if s not in cues.stopwords}
    out = []
    for f in candidates:
        if f.affirms or f.rules_out or f.about_other:
            if f.affirms & present or f.rules_out & absent or f.about_other & other:
                out.append(f.id)
        elif f.content and len(f.content & words) / len(f.content) >= min_overlap:
            out.append(f.id)
    return tuple(out)

