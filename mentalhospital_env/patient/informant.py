"""The informant: a parent, carer or relative present at the interview, who answers in their own voice.

A patient under 13 comes with a parent or carer (the case's ``persona.informant`` names who, else
"parent"): history questions (development, school, family, medicines, when it started, what it has
done to daily life) are answered by the informant, about the child, in the third person; the child
answers how they feel, briefly. At any age, a question that speaks of the patient in the third person
("Has he ever hurt anyone?", "Carol, was your mum forgetful before?") is answered by the informant
when there is one. The informant tells the record's facts as the record has them (a parent says
"She cries at the school gate most mornings"), in lay words, and says "I'm not sure" where the
record is silent; the rules of the answer plan (what is denied, what is withheld) are the patient's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mentalhospital_env.cases import Case

from .understanding import load_taxonomy

CHILD_AGE = 13

# topics a child's parent answers (history, and how the problem came and what it has done)
_INFORMANT_KINDS = frozenset({"history", "presentation"})
_CHILD_TOPICS = frozenset({"chief_complaint"})  # the child may say why they came, in their own words
_RELATIONS = (
    ("mother", ("mother", "mum", "mom", "mummy")),
    ("father", ("father", "dad", "daddy")),
    ("grandmother", ("grandmother", "grandma", "nan", "granny")),
    ("grandfather", ("grandfather", "grandad", "grandpa")),
    ("daughter", ("daughter",)),
    ("son", ("son",)),
    ("wife", ("wife",)),
    ("husband", ("husband",)),
    ("partner", ("partner",)),
    ("carer", ("carer", "foster", "guardian", "key worker")),
)
_THIRD_PERSON = re.compile(r"\b(?:he|she|his|her|him|hers|they|their)\b", re.IGNORECASE)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yourself)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Informant:
    """Who else is present: ``relation`` to the patient ("mother", "carer", "parent" ...) and ``name``."""

    relation: str
    name: str | None = None

    def answers(self, utterance: str, topics: tuple[str, ...], child: bool) -> bool:
        """Whether the informant, not the patient, answers this question."""
        if self.name and re.search(rf"\b{re.escape(self.name)}\b", utterance):
            return True
        asked = utterance.split("?")[0] if "?" in utterance else utterance
        if _THIRD_PERSON.search(asked) and not _SECOND_PERSON.search(asked):
            return True
        if not child:
            return False
        tax = load_taxonomy()
        content = [t for t in topics if t in tax.by_id and tax.kind(t) != "meta"]
        return bool(content) and all(
            tax.kind(t) in _INFORMANT_KINDS and t not in _CHILD_TOPICS for t in content
        )

    def say(self, text: str) -> str:
        """A record sentence as the informant says it: third person kept, the clinician's labels
        dropped, the informant named in the record ("her mother") becoming "me"."""
        from mentalhospital_env.cases.compile import informant_words

        text = informant_words(text)
        if self.relation in ("mother", "father", "grandmother", "grandfather", "carer"):
            words = dict(_RELATIONS)[self.relation]
            text = re.sub(rf"\b(?:her|his|their) (?:{'|'.join(words)})\b", "me", text, flags=re.IGNORECASE)
        if self.name:
            text = re.sub(rf"\b{re.escape(self.name)}\b", "I", text)
        return text[0].upper() + text[1:] if text else text


def informant_for(case: Case) -> Informant | None:
    """The case's informant: the persona's ``informant`` (its relation word and a capitalised name in
    it, if any), or a parent for a patient under 13; ``None`` when the patient comes alone."""
    described = case.effective_persona.informant
    if not described and case.demographics.age >= CHILD_AGE:
        return None
    low = (described or "").lower()
    relation = next((r for r, words in _RELATIONS if any(re.search(rf"\b{w}\b", low) for w in words)), "parent")
    names = [w for w in re.findall(r"\b[A-Z][a-z]+\b", described or "") if w.lower() not in {
        w for _, ws in _RELATIONS for w in ws} | {"her", "his", "the", "a", "an", "parent"}]
    return Informant(relation, names[0] if names else None)
