"""Note precision: every claim a note makes about the patient, held against what the patient said.

A claim is a symptom or sign the note states of the patient, present ("reports low mood") or absent ("denies
hearing voices"), outside the plan and not as a disorder's name. The evidence is the encounter: each reply read
as the answer to the question before it (:func:`mentalhospital_env.knowledge.answers.read_reply`), the exam
results, what the doctor saw on walking in; and, for signs a clinician observes (tremor, agitation), the
record.

A claim is an error when:

* it asserts a finding the patient denied and never affirmed ("denied by the patient"),
* it records as denied a finding the patient affirmed and never denied ("affirmed by the patient"),
* it asserts, or records as denied, a finding that never came up ("never came up"), unless the record
  states the same (a sign the clinician could observe, a finding said in words the lexicon does not read, a
  negative the record holds).

Findings the lexicon links (a suicide plan implies suicidal thoughts; early waking is insomnia) support each
other. Errors about risk (suicidal thoughts, self-harm, harm to others) or psychosis (hallucinations,
delusions) are ``serious``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from mentalhospital_env.knowledge.answers import patient_findings, read_reply
from mentalhospital_env.knowledge.language import clauses, memo_size, negation_breaks, sentence_breaks, stem, tokenize
from mentalhospital_env.knowledge.lexicon import lexicon_relations, load_lexicon

from ..chart import Chart
from .features import _disorder_names, mentions, note_blocks

_CLAIM_KINDS = frozenset({"symptom", "sign"})
_SERIOUS_DOMAINS = frozenset({"risk", "psychosis"})


@dataclass(frozen=True)
class ClaimError:
    concept: str
    asserted: str  # "present" or "absent"
    why: str
    serious: bool


@dataclass(frozen=True)
class NotePrecision:
    """The note's claims about the patient and the errors among them."""

    claims: int
    errors: tuple[ClaimError, ...]

    @property
    def serious(self) -> int:
        return sum(e.serious for e in self.errors)

    @property
    def precision(self) -> float | None:
        """Share of claims without error (``None`` for a note that claims nothing)."""
        return None if not self.claims else 1.0 - len(self.errors) / self.claims

    def to_dict(self) -> dict[str, Any]:
        return {
            "claims": self.claims,
            "errors": len(self.errors),
            "serious_errors": self.serious,
            "precision": self.precision,
            "error_list": [asdict(e) for e in self.errors],
        }


@dataclass(frozen=True)
class Evidence:
    """What the encounter and the record say of each finding."""

    affirmed: frozenset[str]
    denied: frozenset[str]
    record_present: frozenset[str]
    record_absent: frozenset[str]


@lru_cache(maxsize=1)
def _links() -> dict[str, frozenset[str]]:
    """Each concept with the concepts that imply it or that it implies, and its ``cues.json``
    ``claim_equivalents`` (either supports the other); an unknown concept id raises ``ValueError``."""
    import json
    from importlib import resources

    lexicon = load_lexicon()
    out: dict[str, set[str]] = {}
    for entry in lexicon_relations("implies"):
        if isinstance(entry, tuple) and len(entry) == 2:
            a, b = entry
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    raw = json.loads(resources.files(__package__).joinpath("data/cues.json").read_text("utf-8"))
    for i, group in enumerate(raw.get("claim_equivalents", {}).get("groups", ())):
        unknown = [c for c in group if c not in lexicon]
        if unknown:
            raise ValueError(f"cues.json: claim_equivalents.groups[{i}] names unknown lexicon concepts {unknown}")
        for c in group:
            out.setdefault(c, set()).update(x for x in group if x != c)
    return {k: frozenset(v) for k, v in out.items()}


def _with_links(concepts: Iterable[str]) -> frozenset[str]:
    links = _links()
    out = set(concepts)
    for c in list(out):
        out |= links.get(c, frozenset())
    return frozenset(out)


def note_claims(note: str) -> tuple[tuple[str, bool], ...]:
    """``(concept id, asserted present)`` for each finding the note states of the patient (see the module
    docstring), once per concept and polarity."""
    return _note_claims(note)


@lru_cache(maxsize=memo_size(4096))
def _note_claims(note: str) -> tuple[tuple[str, bool], ...]:
    out: dict[tuple[str, bool], None] = {}
    for key, text in note_blocks(note):
        # the plan speaks of what may come, the assessment names diagnoses, and medical, medication, allergy and
        # family sections hold no psychiatric finding of the patient ("irritable bowel syndrome")
        if key in ("plan", "assessment", "medical_history", "medications", "allergies", "family_history"):
            continue
        for claim in _block_claims(text):
            out[claim] = None
    return tuple(out)


def _block_claims(text: str) -> list[tuple[str, bool]]:
    """The claims of one note section, read on their own (whom a clause is about does not carry across
    sections: "Family history: mother has bipolar disorder" says nothing of the mental state after it)."""
    lexicon = load_lexicon()
    found = mentions(text)
    if not found:
        return []
    tokens = tokenize(text)
    names = [(a, b) for a, b, _ in _disorder_names().find([stem(t) for t in tokens])]
    # the patient's own words in quotation marks are a report of what was said, not the note's claim
    names += _quoted_spans(text)
    breaks = negation_breaks(text)
    parts = clauses(text)
    sentence_starts = sorted({0} | set(sentence_breaks(text)))
    out = []
    for m in found:
        if lexicon.get(m.concept_id).kind not in _CLAIM_KINDS:
            continue
        if any(a < m.end and m.start < b for a, b in names):
            continue
        if any(m.start < b < m.end for b in breaks):
            continue
        clause = next((c for c in parts if c.start <= m.start < c.end), None)
        if clause is not None and clause.subject == "other":
            continue
        out.append((m.concept_id, not (m.negated or _denied_in_sentence(tokens, sentence_starts, m.start))))
    return out


def _quoted_spans(note: str) -> list[tuple[int, int]]:
    """Token spans of text in double quotation marks."""
    out = []
    for match in re.finditer(r'["\u201c]([^"\u201d]*)["\u201d]', note):
        start = len(tokenize(note[: match.start()]))
        out.append((start, start + len(tokenize(match.group(0))) + 1))
    return out


_CONTRAST = frozenset({
    "but", "although", "though", "however", "yet", "except", "whereas", "while",
    "says", "said", "reports", "reported", "describes", "described", "states", "stated", "admits", "admitted",
    "endorses", "endorsed", "complains", "feels", "felt",
})
_NOTE_DENIALS = frozenset({"denies", "denied", "deny", "denying", "no", "not", "never", "nor", "without", "negative"})


def _denied_in_sentence(tokens: list[str], starts: list[int], at: int) -> bool:
    """Whether a denial earlier in the note's sentence reaches the finding at token ``at`` with no contrast
    between ("He denies low mood, sleep problems, appetite change and periods of elevated mood"; "has never
    thought of ending his life or wanted to hurt anyone"; not "no plan but reports voices")."""
    start = max(s for s in starts if s <= at)
    for j in range(at - 1, start - 1, -1):
        if tokens[j] in _CONTRAST:
            return False
        if tokens[j] in _NOTE_DENIALS:
            return True
    return False


def encounter_evidence(case: Any, chart: Chart) -> Evidence:
    """The findings the encounter affirms and denies, and those the record states present or absent."""
    affirmed: set[str] = set()
    denied: set[str] = set()
    for turn in chart.turns:
        reading = read_reply(turn.doctor, turn.patient)
        affirmed |= reading.affirmed
        denied |= reading.denied
    facts = {f.id: f for f in getattr(case, "facts", ())}
    for turn in chart.turns:
        for fid in turn.fact_ids:
            fact = facts.get(fid)
            if fact is not None:
                affirmed |= {c for c, negated in patient_findings(fact.text) if not negated}
    for _, result in chart.exam_results:
        affirmed |= {c for c, negated in patient_findings(result) if not negated}
    return Evidence(
        affirmed=frozenset(affirmed),
        denied=frozenset(denied),
        record_present=_record_concepts(case, False),
        record_absent=_record_concepts(case, True),
    )


_RECORD: dict[int, tuple[Any, frozenset[str], frozenset[str]]] = {}


def _record_concepts(case: Any, negated: bool) -> frozenset[str]:
    hit = _RECORD.get(id(case))
    if hit is None or hit[0] is not case:
        present: set[str] = set()
        absent: set[str] = set()
        texts = [f.text for f in getattr(case, "facts", ())]
        ehr = getattr(case, "ehr", None)
        if ehr is not None:
            texts += [f"{path.split('.')[-1].replace('_', ' ')}: {text}" for path, text in ehr.sections()]
        for text in texts:
            for m in mentions(text):
                (absent if m.negated else present).add(m.concept_id)
        if len(_RECORD) > 1024:
            _RECORD.clear()
        hit = (case, frozenset(present), frozenset(absent))
        _RECORD[id(case)] = hit
    return hit[2] if negated else hit[1]


def check_note(case: Any, chart: Chart) -> NotePrecision:
    """Every claim of ``chart.note`` held against the encounter and the record (see the module docstring)."""
    note = chart.note or ""
    claims = note_claims(note) if note.strip() else ()
    if not claims:
        return NotePrecision(0, ())
    evidence = encounter_evidence(case, chart)
    walk_in = frozenset(m.concept_id for m in mentions(chart.extra.get("walk_in", ""))) if chart.extra else frozenset()
    lexicon = load_lexicon()
    errors = []
    for concept, present in claims:
        linked = _with_links([concept])
        said_yes = bool(linked & evidence.affirmed) or concept in walk_in
        said_no = bool(linked & evidence.denied)
        serious = lexicon.get(concept).domain in _SERIOUS_DOMAINS
        if present:
            if said_yes:
                continue
            if said_no:
                errors.append(ClaimError(concept, "present", "denied by the patient", serious))
            elif lexicon.get(concept).kind != "sign" and not linked & evidence.record_present:
                # a sign is the clinician's own observation; a finding the record states may have been said in
                # words the lexicon does not read ("the people on TV send me signals")
                errors.append(ClaimError(concept, "present", "never came up", serious))
        else:
            if said_no:
                continue
            if said_yes:
                errors.append(ClaimError(concept, "absent", "affirmed by the patient", serious))
            elif not linked & evidence.record_absent:
                errors.append(ClaimError(concept, "absent", "never came up", serious))
    return NotePrecision(len(claims), tuple(errors))


__all__ = ["ClaimError", "Evidence", "NotePrecision", "check_note", "encounter_evidence", "note_claims"]
