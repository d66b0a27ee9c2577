"""Diagnosis and exam-recommendation scores: categories (Cate.), disorder ranking (Diso.) and exams.

Three scorers, each a pure function of the doctor's output and the case's reference:

* :func:`category_scores`: multi-label agreement of diagnostic categories (precision, recall, F1 and
  exact match), the study's Cate. column is the F1.
* :func:`disorder_ndcg`: nDCG of the doctor's ranked disorders against the case's reference order,
  matching by ICD-10-CM code with partial credit within a three-character family; the study's Diso.
  column. :func:`ndcg` is the plain formula underneath.
* :func:`exam_scores`: precision, recall and F1 of the ordered exams against the indicated ones.

Names, synonyms and aliases are resolved through the knowledge base
(``mentalhospital_env.knowledge``: ``resolve_disorder``, ``resolve_exam``), so "MDD", "major
depression" and "F32.1" can all name the same disorder and "PHQ9" the PHQ-9.
"""

from __future__ import annotations

import math
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from mentalhospital_env.knowledge.language import memo_size
from mentalhospital_env.knowledge.codes import (
    code_family,
    is_icd10cm_code,
    load_categories,
    normalize_code,
)

FAMILY_CREDIT = 0.5
"""Share of a reference disorder's gain earned by a code of the same three-character family."""

_BRACKETED_CODE = re.compile(r"[(\[]\s*([A-Za-z]\d[0-9A-Za-z](?:\.[0-9A-Za-z]{1,4})?)\s*[)\]]")
_ENUMERATION = re.compile(r"^\s*(?:\d+[.)]|[-*\u2022])\s*")
_LEADING_CODE = re.compile(r"^\s*(?:\d+[.)]\s*)?([A-Za-z]\d[0-9A-Za-z](?:\.?[0-9A-Za-z]{1,4})?)\b")


@dataclass(frozen=True)
class SetScores:
    """Agreement of a predicted set with a reference set.

    ``precision = |P ∩ R| / |P|``, ``recall = |P ∩ R| / |R|``, ``f1 = 2pr / (p + r)`` (0 when both
    are 0), ``exact = 1.0`` when ``P == R`` else ``0.0``. Conventions for empty sets: an empty
    prediction has precision 0 (it claims nothing right) unless the reference is empty too; an empty
    reference gives recall 1 (nothing to find). Both empty: every score is 1.
    """

    precision: float
    recall: float
    f1: float
    exact: float
    predicted: tuple[str, ...] = ()
    reference: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["predicted"] = list(self.predicted)
        out["reference"] = list(self.reference)
        return out


def set_scores(predicted: Iterable[str], reference: Iterable[str]) -> SetScores:
    """Precision, recall, F1 and exact match of two sets of already-normalized labels."""
    pred = tuple(dict.fromkeys(predicted))
    ref = tuple(dict.fromkeys(reference))
    p_set, r_set = set(pred), set(ref)
    hits = len(p_set & r_set)
    if not p_set and not r_set:
        return SetScores(1.0, 1.0, 1.0, 1.0, pred, ref)
    precision = hits / len(p_set) if p_set else 0.0
    recall = hits / len(r_set) if r_set else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return SetScores(precision, recall, f1, 1.0 if p_set == r_set else 0.0, pred, ref)


# --- categories ---------------------------------------------------------------------------------


def _fold(label: str) -> str:
    """Lower case, hyphens, slashes, underscores and commas as spaces, single spaces."""
    return " ".join(re.sub(r"[-/_,]", " ", label.strip().lower()).split())


@lru_cache(maxsize=1)
def _category_names() -> dict[str, str]:
    """Folded category ids and names (also without a trailing "(and related) disorders") to ids."""
    table: dict[str, str] = {}
    for cat in load_categories():
        name = _fold(cat.name)
        for key in (cat.id, name, re.sub(r"\s+(and related\s+)?disorders?$", "", name)):
            table[_fold(key)] = cat.id
    return table


def normalize_category(label: str) -> str:
    """A category id for ``label`` (an id such as ``depressive``, or a name such as "Depressive
    disorders" or "trauma- and stressor-related"); labels that name no category come back folded,
    so they count as wrong rather than vanish."""
    folded = _fold(label)
    return _category_names().get(folded, folded)


def category_scores(predicted: Sequence[str] | None, reference: Sequence[str]) -> SetScores:
    """Multi-label category agreement (the study's Cate. is ``.f1``).

    Labels are normalized with :func:`normalize_category`; duplicates count once. ``predicted=None``
    (the doctor skipped the diagnosis) scores like an empty prediction: all zeros.
    """
    pred = [normalize_category(c) for c in (predicted or ()) if c and c.strip()]
    ref = [normalize_category(c) for c in reference]
    return set_scores(pred, ref)


# --- disorders ----------------------------------------------------------------------------------


def _knowledge() -> Any:
    from mentalhospital_env.knowledge import load_knowledge

    return load_knowledge()


def _code_of(resolved: Any) -> str | None:
    if resolved is None:
        return None
    if isinstance(resolved, str):
        return normalize_code(resolved)
    code = getattr(resolved, "code", None)
    return normalize_code(code) if isinstance(code, str) else None


@lru_cache(maxsize=memo_size(4096))
def resolve_disorder_code(text: str) -> str | None:
    """The ICD-10-CM code a doctor's entry names, or ``None`` when it names none.

    An entry that starts with a code (``"F32.1"``, ``"2. f321 major depression"``) or gives one in
    brackets (``"Bipolar disorder (F31.2)"``) is that code; anything else (a name, a synonym, an
    abbreviation such as "MDD", with any list numbering removed) goes through the knowledge base's
    ``resolve_disorder``.
    """
    entry = text.strip()
    if not entry:
        return None
    found = _LEADING_CODE.match(entry) or _BRACKETED_CODE.search(entry)
    if found:
        code = normalize_code(found.group(1))
        if is_icd10cm_code(code):
            return code
    name = _ENUMERATION.sub("", entry).strip()
    try:
        resolved = _knowledge().resolve_disorder(name)
    except (KeyError, LookupError, ValueError):
        return None
    return _code_of(resolved)


def ndcg(ranked_gains: Sequence[float], ideal_gains: Sequence[float]) -> float:
    """Normalized discounted cumulative gain.

    ``DCG = sum_i g_i / log2(i + 1)`` over the ranked gains at positions ``i = 1, 2, ...``, and
    ``nDCG = DCG / IDCG`` where IDCG is the DCG of ``ideal_gains`` sorted in decreasing order
    (linear gains, as ``sklearn.metrics.ndcg_score``). Returns 0 when the ideal DCG is 0.
    """
    ideal = sorted((g for g in ideal_gains), reverse=True)
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    if idcg <= 0:
        return 0.0
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(ranked_gains))
    return dcg / idcg


@dataclass(frozen=True)
class RankingResult:
    """nDCG of a ranked disorder list with what each entry earned.

    ``entries`` holds, per predicted entry after de-duplication, ``(entry, code or None, gain,
    matched reference code or None)``.
    """

    ndcg: float
    entries: tuple[tuple[str, str | None, float, str | None], ...]
    reference: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ndcg": self.ndcg,
            "entries": [list(e) for e in self.entries],
            "reference": list(self.reference),
        }


def reference_gains(reference_codes: Sequence[str]) -> list[float]:
    """Graded relevance from the reference order: with ``m`` reference disorders, the one at
    position ``j`` (1 = principal) has gain ``m - j + 1``; the principal gains most."""
    m = len(reference_codes)
    return [float(m - j) for j in range(m)]


def rank_disorders(
    predicted: Sequence[str] | None, reference_codes: Sequence[str], family_credit: float = FAMILY_CREDIT
) -> RankingResult:
    """nDCG of ``predicted`` (codes or names, best first) against ``reference_codes`` (priority order).

    Gains: reference disorder ``j`` of ``m`` has gain ``m - j + 1`` (:func:`reference_gains`). Each
    predicted entry is resolved to a code (:func:`resolve_disorder_code`); entries resolving to a code
    already listed, or repeating an unresolved text, count once (the later copy is dropped, so
    duplicates neither earn nor cost). Matching is one to one: first every predicted code equal to
    a reference code takes that code's full gain; then, in predicted order, each remaining predicted
    code sharing the three-character family (``F32.1`` ~ ``F32.2``) with a reference code not yet
    taken earns ``family_credit`` times the gain of the highest-gain such code. Unmatched entries
    earn 0 but keep their rank, so a wrong first guess pushes the right one down.
    ``nDCG = DCG(gains in predicted order) / IDCG(reference gains)`` (:func:`ndcg`); the ideal is the
    whole reference list, so leaving out a reference disorder costs, and the score is in [0, 1].
    """
    ref = [normalize_code(c) for c in reference_codes]
    gains = reference_gains(ref)
    gain_of = dict(zip(ref, gains))
    entries: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    for raw in predicted or ():
        if not isinstance(raw, str) or not raw.strip():
            continue
        code = resolve_disorder_code(raw)
        key = code if code is not None else "text:" + raw.strip().lower()
        if key in seen:
            continue
        seen.add(key)
        entries.append((raw, code))
    earned: list[float] = [0.0] * len(entries)
    matched: list[str | None] = [None] * len(entries)
    taken: set[str] = set()
    for i, (_, code) in enumerate(entries):
        if code is not None and code in gain_of:
            earned[i], matched[i] = gain_of[code], code
            taken.add(code)
    for i, (_, code) in enumerate(entries):
        if code is None or matched[i] is not None:
            continue
        family = code_family(code)
        options = [r for r in ref if r not in taken and code_family(r) == family]
        if options:
            best = max(options, key=lambda r: gain_of[r])
            earned[i], matched[i] = family_credit * gain_of[best], best
            taken.add(best)
    score = ndcg(earned, gains)
    return RankingResult(
        score,
        tuple((raw, code, g, m) for (raw, code), g, m in zip(entries, earned, matched)),
        tuple(ref),
    )


def disorder_ndcg(case: Any, ranked: Sequence[str] | None, family_credit: float = FAMILY_CREDIT) -> float:
    """The study's Diso.: nDCG of the doctor's ranked disorders against ``case.diagnosis`` (see
    :func:`rank_disorders` for the exact formula). ``ranked=None`` (skipped) scores 0."""
    return rank_disorders(ranked, case.diagnosis.codes, family_credit).ndcg


# --- exams --------------------------------------------------------------------------------------


@lru_cache(maxsize=memo_size(4096))
def canonical_exam(name: str) -> str:
    """The knowledge base's name for an exam (``"phq9"`` -> ``"PHQ-9"``); unknown names come back
    trimmed and lower-cased, so they still compare by spelling."""
    text = name.strip()
    try:
        resolved = _knowledge().resolve_exam(text)
    except (KeyError, LookupError, ValueError):
        resolved = None
    if isinstance(resolved, str):
        return resolved
    canonical = getattr(resolved, "name", None)
    if isinstance(canonical, str):
        return canonical
    return re.sub(r"\s+", " ", text.lower())


def exam_scores(predicted: Sequence[str] | None, indicated: Sequence[str]) -> SetScores:
    """Exam recommendation against the indicated exams (``case.checkpoints.exam``).

    Both sides are resolved with :func:`canonical_exam` (aliases such as "thyroid function" -> TSH),
    duplicates count once, then :class:`SetScores`: ``precision = |ordered ∩ indicated| / |ordered|``,
    ``recall = |ordered ∩ indicated| / |indicated|``, F1 their harmonic mean. ``None`` (the exam
    stage skipped) scores like ordering nothing.
    """
    pred = [canonical_exam(e) for e in (predicted or ()) if isinstance(e, str) and e.strip()]
    ref = [canonical_exam(e) for e in indicated]
    return set_scores(pred, ref)
