"""The symptom and history lexicon: concepts with clinical terms, lay phrasings and clinician questions.

Data lives in ``data/lexicon.json``. A :class:`Concept` is one thing a clinician asks about (low mood,
hearing voices, alcohol use, family history of mental illness). :meth:`Lexicon.find` spots concepts
in any text, clinical or lay, by stemmed phrase matching, and marks each mention negated or not, so
"denies hearing voices" finds ``auditory_hallucinations`` negated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterable

from .language import negated_spans, stems, tokenize, stem

CONCEPT_KINDS = ("symptom", "sign", "history")


@dataclass(frozen=True)
class Concept:
    """One concept of the lexicon.

    ``kind`` is ``symptom`` or ``sign`` (a closed world: the patient denies what the record does not
    mention) or ``history`` (an open world: the patient does not know what the record does not say);
    ``domain`` groups concepts for an interview (``mood``, ``psychosis``, ``substance`` ...);
    ``categories`` are the diagnostic categories the concept points to.
    """

    id: str
    kind: str
    domain: str
    clinical_terms: tuple[str, ...]
    lay_phrases: tuple[str, ...]
    questions: tuple[str, ...]
    sensitive: bool
    categories: tuple[str, ...]

    @property
    def terms(self) -> tuple[str, ...]:
        return self.clinical_terms + self.lay_phrases


@dataclass(frozen=True)
class Mention:
    """A concept found in a text: token span ``start:end`` and whether a negation cue covers it."""

    concept_id: str
    start: int
    end: int
    negated: bool


class Lexicon:
    """All concepts, with a phrase index for fast lookup in any text."""

    def __init__(self, concepts: Iterable[Concept]):
        self.concepts: tuple[Concept, ...] = tuple(concepts)
        self._by_id = {c.id: c for c in self.concepts}
        index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for c in self.concepts:
            for term in c.terms:
                key = tuple(stems(term))
                if key:
                    index.setdefault(key[0], []).append((key, c.id))
        for entries in index.values():
            entries.sort(key=lambda e: -len(e[0]))
        self._index = index

    def __len__(self) -> int:
        return len(self.concepts)

    def __contains__(self, concept_id: object) -> bool:
        return concept_id in self._by_id

    def get(self, concept_id: str) -> Concept:
        try:
            return self._by_id[concept_id]
        except KeyError:
            raise KeyError(f"no lexicon concept {concept_id!r}") from None

    def find(self, text: str) -> list[Mention]:
        """Every concept mentioned in ``text``, longest phrase first at each position, with negation."""
        tokens = tokenize(text)
        stemmed = [stem(t) for t in tokens]
        neg = negated_spans(tokens)
        out: list[Mention] = []
        i = 0
        n = len(stemmed)
        while i < n:
            best_end = 0
            for key, cid in self._index.get(stemmed[i], ()):
                end = i + len(key)
                if end <= n and tuple(stemmed[i:end]) == key and end >= best_end:
                    best_end = end
                    negated = any(s <= i < e for s, e in neg)
                    if not any(m.concept_id == cid and m.start == i for m in out):
                        out.append(Mention(cid, i, end, negated))
            i += 1
        return out

    def concepts_in(self, text: str) -> frozenset[str]:
        """Ids of the concepts mentioned in ``text``, negated or not."""
        return frozenset(m.concept_id for m in self.find(text))


def _concept(raw: dict) -> Concept:
    return Concept(
        id=raw["id"],
        kind=raw["kind"],
        domain=raw["domain"],
        clinical_terms=tuple(raw.get("clinical_terms", ())),
        lay_phrases=tuple(raw.get("lay_phrases", ())),
        questions=tuple(raw.get("questions", ())),
        sensitive=bool(raw.get("sensitive", False)),
        categories=tuple(raw.get("categories", ())),
    )


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The bundled lexicon (cached; validated by :func:`mentalhospital_env.knowledge.load_knowledge`)."""
    raw = json.loads(resources.files(__package__).joinpath("data/lexicon.json").read_text("utf-8"))
    return Lexicon(_concept(c) for c in raw["concepts"])


def has_sensitive_concept(text: str) -> bool:
    """Whether ``text`` mentions a sensitive concept (suicidal thoughts, self-harm, substance use, trauma ...)."""
    lex = load_lexicon()
    return any(lex.get(m.concept_id).sensitive for m in lex.find(text))
