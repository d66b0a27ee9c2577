"""The structural reading of a note's impression (its assessment section): the section parted into its diagnostic
statements, each named disorder mapped to the knowledge base's code (by an ICD-10 code, the knowledge base's names and
synonyms, or the further names of ``data/impression.json``, lay and clinical) with its status in the note's own words:

- ``stated``: made outright ("Moderate depressive episode");
- ``provisional``: made and held open ("probable PTSD", "?ADHD", "co-morbid depressive episode, to be confirmed");
- ``feature``: the disorder's features recorded, the diagnosis not made ("depressive symptoms to reassess once abstinent");
- ``symptom``: a disorder's name that is also a single finding ("insomnia", "agoraphobia"), standing alone; listed
  before what the clause says the findings amount to ("with panic attacks, insomnia and low mood, most consistent with
  ...", ``findings_before``), it is a ``feature`` of that conclusion, never its diagnosis;
- ``differential``: weighed against another ("Differential diagnosis includes ...", "X vs Y", "Z is less likely");
- ``ruled_out``: not made, said so ("panic disorder not established", "no evidence of psychosis", "family history of").

A statement is a clause: a sentence parted at ``;``, a dash between words, brackets and line breaks; a status marker
counts only in its own clause, near the name (``before_window`` / ``after_window`` tokens), a marker after the name
winning over one before it ("possible panic disorder, not established"); a ruled-out marker before a name reaches only
its own item (:func:`_negation_reaches`: it stops at another name, a comma or a colon, except along an "or" list). A differential heading ("Differential
diagnosis includes") weighs every name after it in its sentence. No record's words are held here: only the table's
names and markers, which are facts of clinical usage.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.knowledge.language import stem, tokenize

from ..ranking import resolve_disorder_code
from .cues import CuePhrases

STATUSES = ("stated", "provisional", "feature", "symptom", "differential", "ruled_out")


@dataclass(frozen=True)
class Statement:
    """One disorder an impression names: its code, the code prefixes its name covers (``family``: empty for a name
    that is one disorder), its status, and the words it was named by."""

    code: str
    status: str
    words: str
    family: tuple[str, ...] = ()

    def covers(self, code: str) -> bool:
        """Whether this statement names ``code``'s disorder by a name that covers its family ("psychotic illness"
        covers paranoid schizophrenia)."""
        return any(code.upper().startswith(p.upper()) for p in self.family)


@lru_cache(maxsize=1)
def _conf() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("data/impression.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _names() -> CuePhrases:
    """Every name an impression may state a disorder by; the label says which: ``f:i`` (a feature name of
    ``feature_names[i]``), ``x:i`` (a further name of ``names[i]``), ``k:`` + the name (the knowledge base's). A feature
    name is listed first, so that a phrase the knowledge base also calls a disorder ("insomnia") reads as a feature
    where the table says so; the longest phrase wins at each position."""
    from .features import _disorder_names

    conf = _conf()
    phrases: list[str] = []
    labels: list[str] = []
    for i, entry in enumerate(conf["feature_names"]):
        for name in entry["names"]:
            phrases.append(name)
            labels.append(f"f:{i}")
    for i, entry in enumerate(conf["names"]):
        for name in entry["names"]:
            phrases.append(name)
            labels.append(f"x:{i}")
    for name in _disorder_names().phrases:
        phrases.append(name)
        labels.append("k:" + name)
    return CuePhrases(phrases, labels)


@lru_cache(maxsize=1)
def _markers() -> CuePhrases:
    phrases: list[str] = []
    labels: list[str] = []
    for status, sides in _conf()["status"].items():
        for side in ("before", "after"):
            for marker in sides[side]:
                phrases.append(marker)
                labels.append(f"{side}:{status}")
    return CuePhrases(phrases, labels)


_CODE = re.compile(r"\b([A-Z]\d{2}(?:\.\d{1,3})?)\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(?\"'])|\n+")
_CLAUSE = re.compile(r";|\s[-\u2013\u2014]+\s|[()\[\]]")
_SCALE = re.compile(r"\b([A-Za-z]+)-(\d+)\b")  # a name hyphen-joined to its item count: a rating scale ("GAD-7", "PHQ-9")
_HEADING = re.compile(r"^\s*[#*\-\s]*[^:\n]{0,40}:\s*")


def _resolve(label: str, words: str) -> tuple[str, tuple[str, ...], str | None] | None:
    """(code, family, ``"feature"`` for a syndrome's feature name of the table, ``"symptom"`` for a disorder's name
    that is a single finding, else ``None``) for a name found under ``label``."""
    conf = _conf()
    kind, _, rest = label.partition(":")
    if kind in ("f", "x"):
        entry = conf["feature_names" if kind == "f" else "names"][int(rest)]
        return entry["code"], tuple(entry["family"]), "feature" if kind == "f" else None
    code = resolve_disorder_code(rest) or resolve_disorder_code(words)
    return (code, (), "symptom" if _a_finding(words) else None) if code else None


def _a_finding(words: str) -> bool:
    """Whether a disorder's name is, as a whole, also a single finding of the lexicon ("insomnia", "panic attacks"):
    named in a list of what the patient has, it records a symptom, not a diagnosis."""
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    lexicon = load_lexicon()
    n = len(tokenize(words))
    return any(m.start == 0 and m.end == n and lexicon.get(m.concept_id).kind in ("symptom", "sign") for m in lexicon.find(words))


@lru_cache(maxsize=1)
def _findings_before() -> CuePhrases:
    return CuePhrases(_conf()["findings_before"])


def _boundaries(clause: str, n: int) -> tuple[frozenset[int], frozenset[int]]:
    """The token positions a comma, and those a colon, stands before in a clause of ``n`` tokens (empty where the
    clause does not part cleanly)."""
    commas: set[int] = set()
    colons: set[int] = set()
    at = 0
    for piece, mark in re.findall(r"([^,:]*)([,:]?)", clause):
        at += len(tokenize(piece))
        if mark:
            (commas if mark == "," else colons).add(at)
    return (frozenset(commas), frozenset(colons)) if at == n else (frozenset(), frozenset())


def _negation_reaches(m_end: int, start: int, end: int, found: list[tuple[int, int, str]], stems_: list[str],
                      commas: frozenset[int], colons: frozenset[int], window: int) -> bool:
    """Whether a ruled-out marker ending at ``m_end`` ("no", "without", "no evidence of") reaches the name at
    ``start:end``. Its scope is its own item: it ends at another disorder's name ("without psychotic features and
    generalised anxiety disorder"), at a comma ("no self-harm, no psychosis, generalised anxiety disorder") and at a
    colon ("no mania: moderate depressive episode"); along a list joined by "or" ("no evidence of depression, panic
    disorder or psychosis"), it reaches every item. A colon always ends it."""
    if any(m_end < b <= start for b in colons):
        return False
    gap = range(m_end, start)
    crossed = any(m_end <= s < start for s, _, _ in found) or any(m_end < b <= start for b in commas)
    if not crossed:
        return start - m_end <= window
    named = {i for s, e, _ in found for i in range(s, e)}
    joins = set(_conf()["list_or"])
    if not all(i in named or stems_[i] in joins for i in gap):
        return False
    return any(stems_[i] in joins for i in gap) or (end < len(stems_) and stems_[end] in joins)


def _clause_statements(clause: str, carried: str | None) -> tuple[list[Statement], str | None]:
    """The statements of one clause, and the status a differential heading in it carries to the sentence's later
    clauses."""
    conf = _conf()
    tokens = tokenize(clause)
    stems_ = [stem(t) for t in tokens]
    commas, colons = _boundaries(clause, len(tokens))
    concluded = [s for s, _, _ in _findings_before().find(stems_)]
    found = _names().find(stems_)
    markers = [m for m in _markers().find(stems_)  # a marker inside a disorder's name ("... severe without psychotic
               if not any(s < m[1] and m[0] < e for s, e, _ in found)]  # features") is part of the name, no marker
    before_window, after_window = int(conf["before_window"]), int(conf["after_window"])
    out: list[Statement] = []
    heading = None
    for start, end, label in markers:
        if label == "before:differential" and not any(s < start for s, _, _ in found):
            heading = "differential"  # "Differential diagnosis includes A, B and C": every name after it is weighed
            break
    for start, end, label in found:
        hit = _resolve(label, " ".join(tokens[start:end]))
        if hit is None:
            continue
        code, family, feature = hit
        status = None
        after = [(m_start, lab) for m_start, m_end, lab in markers if lab.startswith("after:")
                 and end <= m_start <= end + after_window
                 and not any(end <= s < m_start for s, _, _ in found)]  # no other name between
        if after:
            status = min(after)[1].split(":", 1)[1]
        else:
            before = [(m_end, lab) for m_start, m_end, lab in markers if lab.startswith("before:") and m_end <= start
                      and (_negation_reaches(m_end, start, end, found, stems_, commas, colons, before_window)
                           if lab == "before:ruled_out" else start - m_end <= before_window)]
            if before:
                status = max(before)[1].split(":", 1)[1]
        if status is None:
            status = heading if heading and any(m_end <= start for _, m_end, lab in markers if lab == "before:differential") else None
        if status is None:
            status = carried or "stated"
        if feature and status in ("stated", "provisional"):
            status = feature
        if status == "symptom" and any(c >= end for c in concluded):
            status = "feature"  # a finding listed before what it amounts to ("..., panic attacks, most consistent with")
        out.append(Statement(code, status, " ".join(tokens[start:end]), family))
    return out, heading or carried


def read_impression(text: str) -> tuple[Statement, ...]:
    """The statements of an impression, in the order named (see the module's docstring). An ICD-10 code written in
    a clause ("(F41.1)") is the disorder of the name nearest before it, so it adds nothing by itself unless the
    clause names none."""
    text = re.sub(r"\?\s*(?=[A-Za-z])", " query ", text or "")
    text = _SCALE.sub(r"\1\2", text)  # "GAD-7 13/21" is a rating scale's score, not a diagnosis
    out: list[Statement] = []
    for sentence in _SENTENCE.split(text):
        sentence = _HEADING.sub("", sentence, count=1) if _HEADING.match(sentence) and not _markers().find(
            [stem(t) for t in tokenize(sentence.split(":", 1)[0])]) else sentence
        carried: str | None = None
        for clause in _CLAUSE.split(sentence):
            if not clause.strip():
                continue
            statements, carried = _clause_statements(clause, carried)
            if not statements:
                for code in _CODE.findall(clause):
                    resolved = resolve_disorder_code(code)
                    if resolved:
                        statements.append(Statement(resolved, carried or "stated", code))
            out.extend(statements)
    return tuple(out)


def resolved_codes(statements: tuple[Statement, ...], reference: tuple[str, ...]) -> tuple[Statement, ...]:
    """The statements with a family name's code put as the record's own member of that family, where the record
    holds one (the note's "psychotic illness" for the record's paranoid schizophrenia)."""
    out = []
    for s in statements:
        if s.family:
            own = next((r for r in reference if s.covers(r)), None)
            if own:
                s = Statement(own, s.status, s.words, s.family)
        out.append(s)
    return tuple(out)
