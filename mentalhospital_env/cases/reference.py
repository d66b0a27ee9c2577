"""The clinical reference that the case generator and the consistency checks consult.

It is a read-only view of the knowledge base files (validated first by
:func:`mentalhospital_env.knowledge.load_knowledge`) (``knowledge/data/disorders.json``,
``presentations.json``, ``exams.json``, ``drugs.json`` and the lexicon), indexed the way a case
needs them: disorders and presentations by ICD-10-CM code, exams by name or alias, drugs by name or
synonym. Entries keep the shape of the knowledge base schema (plain mappings), so a test can build a
small reference from a handful of entries with :meth:`ClinicalReference.from_entries`.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping

from mentalhospital_env.knowledge.language import is_about_other_person, memo_size
from mentalhospital_env.knowledge.lexicon import Lexicon, Mention, load_lexicon

Entry = Mapping[str, Any]

_LEVEL_EXAM = re.compile(r"(?P<drug>.+?)\s+level\Z", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_CACHE_LIMIT = memo_size(200_000)


class MissingKnowledge(LookupError):
    """The knowledge base lacks something the generator or a check needs."""


class ClinicalReference:
    """Disorders, presentations, exams, drugs and the lexicon, indexed for case work."""

    def __init__(
        self,
        disorders: Iterable[Entry],
        presentations: Iterable[Entry],
        exams: Iterable[Entry],
        drugs: Iterable[Entry],
        lexicon: Lexicon,
    ):
        self.disorders: dict[str, Entry] = {d["code"]: d for d in disorders}
        self.presentations: dict[str, Entry] = {p["code"]: p for p in presentations}
        self.exam_list: tuple[Entry, ...] = tuple(exams)
        self.drug_list: tuple[Entry, ...] = tuple(drugs)
        self.lexicon = lexicon
        self._exams: dict[str, Entry] = {}
        for e in self.exam_list:
            for alias in (e["name"], *e.get("aliases", ())):
                self._exams.setdefault(alias.strip().lower(), e)
        self._drugs: dict[str, Entry] = {}
        for d in self.drug_list:
            for alias in (d["name"], *d.get("synonyms", ())):
                self._drugs.setdefault(alias.strip().lower(), d)
        self._mentions: dict[str, tuple[Mention, ...]] = {}
        self._readings: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._other_person: dict[str, bool] = {}

    # ------------------------------------------------------------------------------ construction

    @classmethod
    def from_entries(
        cls,
        disorders: Iterable[Entry],
        presentations: Iterable[Entry],
        exams: Iterable[Entry],
        drugs: Iterable[Entry],
        lexicon: Lexicon | None = None,
    ) -> "ClinicalReference":
        """A reference from knowledge-base-shaped entries (the bundled lexicon when none is given)."""
        return cls(disorders, presentations, exams, drugs, lexicon if lexicon is not None else load_lexicon())

    @staticmethod
    def bundled() -> "ClinicalReference":
        """The reference built from the bundled knowledge base (cached)."""
        return _bundled()

    # ----------------------------------------------------------------------------------- lookups

    def disorder(self, code: str) -> Entry | None:
        return self.disorders.get(code)

    def presentation(self, code: str) -> Entry | None:
        return self.presentations.get(code)

    def exam(self, name: str) -> Entry | None:
        """An exam by its name or any alias, case-insensitive."""
        return self._exams.get(name.strip().lower())

    def drug(self, name: str) -> Entry | None:
        """A drug by its name or any synonym, case-insensitive."""
        return self._drugs.get(name.strip().lower())

    def level_exam_drug(self, exam_name: str) -> Entry | None:
        """The drug whose serum level an exam measures (``"Lithium level"`` -> lithium), if any."""
        exam = self.exam(exam_name)
        name = exam["name"] if exam is not None else exam_name
        m = _LEVEL_EXAM.match(name.strip())
        return self.drug(m.group("drug")) if m else None

    def mentions(self, text: str) -> tuple[Mention, ...]:
        """Lexicon concepts in ``text`` with negation.

        Memoised on the text with its numbers masked (numbers are single tokens and name no concept,
        so ``for 3 years`` and ``for 19 years`` read the same): generated texts repeat a lot.
        """
        key = _DIGITS.sub("0", text)
        found = self._mentions.get(key)
        if found is None:
            found = tuple(self.lexicon.find(key))
            if len(self._mentions) < _CACHE_LIMIT:
                self._mentions[key] = found
        return found

    def readings(self, text: str) -> tuple[frozenset[str], frozenset[str]]:
        """(asserted, denied): the ids of the concepts :meth:`mentions` finds in ``text``, not negated and
        negated; memoised on the text as given (the generator's chart asks again for every draft)."""
        found = self._readings.get(text)
        if found is None:
            pos: set[str] = set()
            neg: set[str] = set()
            for m in self.mentions(text):
                (neg if m.negated else pos).add(m.concept_id)
            found = (frozenset(pos), frozenset(neg))
            if len(self._readings) < _CACHE_LIMIT:
                self._readings[text] = found
        return found

    def about_other_person(self, text: str) -> bool:
        """Whether a statement is about someone else (``"mother had depression"``), memoised."""
        key = _DIGITS.sub("0", text)
        found = self._other_person.get(key)
        if found is None:
            found = is_about_other_person(key)
            if len(self._other_person) < _CACHE_LIMIT:
                self._other_person[key] = found
        return found

    def concept_sensitive(self, concept_id: str) -> bool:
        return concept_id in self.lexicon and self.lexicon.get(concept_id).sensitive

    def concept_term(self, concept_id: str) -> str:
        """The first clinical term of a concept (``low_mood`` -> ``depressed mood``), or its id in words."""
        if concept_id in self.lexicon:
            terms = self.lexicon.get(concept_id).clinical_terms
            if terms:
                return terms[0]
        return concept_id.replace("_", " ")


def _read_entries(name: str, key: str) -> list[Entry]:
    path = resources.files("mentalhospital_env.knowledge").joinpath(f"data/{name}")
    if not path.is_file():
        raise MissingKnowledge(f"the knowledge base has no data/{name} yet; the generator needs it")
    raw = json.loads(path.read_text("utf-8"))
    entries = raw.get(key)
    if not isinstance(entries, list):
        raise MissingKnowledge(f"data/{name} has no list {key!r}")
    return entries


@lru_cache(maxsize=1)
def _bundled() -> ClinicalReference:
    # The knowledge base's own loader validates the files first (cross-references, bands, codes) and
    # raises its KnowledgeError naming what is wrong; this view then reads the same files as entries.
    from mentalhospital_env.knowledge import load_knowledge

    load_knowledge()
    return ClinicalReference(
        _read_entries("disorders.json", "disorders"),
        _read_entries("presentations.json", "presentations"),
        _read_entries("exams.json", "exams"),
        _read_entries("drugs.json", "drugs"),
        load_lexicon(),
    )
