"""What a record implies without saying it (``data/implied.json``).

Recall's closed world reads a symptom or a substance the record does not mention as denied. That is
wrong where the record implies the finding in other ways: a lithium overdose implies the thought of
dying, a detox in the plan or a raised GGT the drinking, avoiding company for dread of it the dread.
:func:`implied_findings` reads those relations (general relations between lexicon concepts, tests and
treatments; no record's words) and returns, for each concept implied and not stated, the concepts stated of
the patient that imply it (empty when only a test or the plan does). Recall then answers from what implies
it, or hedges, never "no".

The case's reference diagnosis is not read (stop 45). Until then a diagnosis code implied its core features,
and an unstated core feature was hedged where any other unstated feature was denied: a doctor policy could
read the hidden diagnosis off which screening questions got "Hard to say" (``benchmarks/patient_leak.py``:
hedges on silent features 14 times as often for the reference disorder's as for others'). What the patient is
unsure of now depends on the record's own sentences, tests and plan only.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from mentalhospital_env.cases import Case

from .reading import _read_data


@dataclass(frozen=True)
class Implications:
    by_concept: Mapping[str, tuple[str, ...]]
    exams: tuple[tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str] | None, tuple[str, ...]], ...]
    treatment: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]
    negated_before: re.Pattern[str]
    unsure: tuple[str, ...]
    topics: Mapping[str, tuple[str, ...]]
    #: rating scales: (name, the totals' possible maxima, at least, below, implied concepts); a cut-off is None if unused
    scales: tuple[tuple[re.Pattern[str], tuple[int, ...], int | None, int | None, tuple[str, ...]], ...] = ()


@lru_cache(maxsize=1)
def load_implications() -> Implications:
    raw = _read_data("implied.json")
    flags = re.IGNORECASE
    return Implications(
        by_concept={k: tuple(v) for k, v in raw.get("concepts", {}).items() if not k.startswith("_")},
        exams=tuple(
            (re.compile(e["name"], flags), re.compile(e["result"], flags),
             re.compile(e["unless"], flags) if e.get("unless") else None, tuple(e["implies"]))
            for e in raw.get("exams", ())
        ),
        treatment=tuple((re.compile(t["said"], flags), tuple(t["implies"])) for t in raw.get("treatment", ())),
        scales=tuple(
            (re.compile(e["name"], flags), tuple(e.get("out_of", ())), e.get("at_least"), e.get("below"),
             tuple(e["implies"]))
            for e in raw.get("scales", ()) if "name" in e
        ),
        negated_before=re.compile(raw.get("negated_before", r"(?!)"), flags),
        unsure=tuple(raw.get("unsure", {}).get("said", ())) or ("Hard to say, really.",),
        topics={k: tuple(v) for k, v in raw.get("topics", {}).items() if not k.startswith("_")},
    )


def _said_unnegated(pattern: re.Pattern[str], text: str, negated: re.Pattern[str]) -> bool:
    """Whether ``pattern`` is said in ``text`` other than after a negation in its clause ("no detox needed")."""
    return any(not negated.search(text[: m.start()]) for m in pattern.finditer(text))


_FRACTION = re.compile(r"(?<![\d/.])(\d{1,3})\s*/\s*(\d{1,3})(?![\d/.])")
_TOTAL = re.compile(r"\b(?:total|score|scored)\s*(?:of\s*|was\s*|=\s*|:\s*)?(\d{1,3})\b(?!\s*/)", re.IGNORECASE)


def scale_total(result: str, out_of: Iterable[int]) -> int | None:
    """A rating scale's total in a test result: the first N/M whose M is one of the scale's maxima (a date such as
    15/4/27 is none), else a number after 'total' or 'score'; None when the result gives none."""
    maxima = set(out_of)
    for m in _FRACTION.finditer(result):
        total, top = int(m.group(1)), int(m.group(2))
        if top in maxima and total <= top:
            return total
    m = _TOTAL.search(result)
    return int(m.group(1)) if m else None


def implied_findings(
    case: Case, stated: Iterable[str], told: Iterable[str] | None = None
) -> dict[str, frozenset[str]]:
    """Concepts the record implies of the patient -> the stated concepts that imply them (empty: implied only by
    a test result or the treatment plan; never by the reference diagnosis, which the patient does not read).
    ``stated``: the concepts a sentence of the record affirms of the patient; concepts among them are never returned (they are answered from their own sentences).
    ``told``: those of them a sentence the patient can tell affirms (not a relative's collateral, an examiner's
    observation or a referral question the record marks untold); only these imply others (default: ``stated``)."""
    rules = load_implications()
    stated = frozenset(stated)
    sources = stated if told is None else frozenset(told)
    out: dict[str, set[str]] = {}
    for source in sorted(sources):
        for c in rules.by_concept.get(source, ()):
            out.setdefault(c, set()).add(source)
    for exam in case.exams or ():
        for name, result, unless, concepts in rules.exams:
            if name.search(exam.name) and result.search(exam.result) and not (unless and unless.search(exam.result)):
                for c in concepts:
                    out.setdefault(c, set())
    for exam in case.exams or ():
        # a rating scale's total past its cut-off (data/implied.json ``scales``): its domain's findings
        for name, out_of, at_least, below, concepts in rules.scales:
            if not name.search(exam.name):
                continue
            total = scale_total(exam.result, out_of)
            if total is not None and ((at_least is not None and total >= at_least)
                                      or (below is not None and total < below)):
                for c in concepts:
                    out.setdefault(c, set())
    plan = case.treatment.plan if case.treatment else ""
    said = " ".join([plan, *(m.name for m in (case.treatment.medications or ()))]) if case.treatment else ""
    for pattern, concepts in rules.treatment:
        if _said_unnegated(pattern, said, rules.negated_before):
            for c in concepts:
                out.setdefault(c, set())
    return {c: frozenset(v) for c, v in out.items() if c not in stated}


def implied_topics(concept_id: str) -> tuple[str, ...]:
    """The interview topics whose closed-world denial an implied finding stops (``data/implied.json`` ``topics``)."""
    return load_implications().topics.get(concept_id, ())
