"""Fit the understand room's follow model (``mentalhospital_env/patient/data/follow_model.json``, stop 42).

Whether a doctor's question leans on the previous turn ("Did any of that make a difference?" after "What have you
tried so far?") or stands alone ("Has he ever had a seizure?" after any question) was decided by a hand-written rule
(``understanding._follow``: a short question, a frame word, a word that points back). Read over the labelled sets, the
rule misses follow-ups whose own words name no topic and carries the previous topic into questions that stand alone:
a pronoun that names the patient to an informant ("Has she been bingeing, making herself sick?") reads as pointing
back. This model reads it instead: one L2 logistic regression (scikit-learn's liblinear, a dev dependency) over
:func:`mentalhospital_env.patient.topic_model.follow_features` of the utterance alone (never the previous turn's words),
fitted on the labelled sets up to ``fit_topic_model.NEWEST_READ``:

- a labelled follow-up (a row with ``context``) whose hand-labelled topics hold a topic the cues read in the context
  is a question that leans on it (1); one whose labels hold none of them changes the subject (0);
- a labelled question written without a context is one that stands alone (0).

Its probability carries the previous turn's topics where it is at least ``CARRY_AT`` and undoes the cue rule's
carrying where it is under ``DROP_UNDER`` (:func:`mentalhospital_env.patient.understanding.carried`).

    python scripts/fit_follow_model.py --estimate   # leave-one-set-out over heldout31-39: macro-F1, and carries
    python scripts/fit_follow_model.py --write      # fit on every set up to NEWEST_READ and write the shipped file

``--estimate`` also counts, on each left-out set, the questions written without a context read after the question
before them in the file (an unrelated one): how many get a topic of that question that their labels lack (a carry
into a question that stands alone), by the cue rule and by the model.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import fit_topic_model as T  # noqa: E402

from mentalhospital_env.patient.topic_model import FORMAT, follow_features, topic_model_text  # noqa: E402
from mentalhospital_env.patient.understanding import (  # noqa: E402
    cue_reading,
    inherited_topics,
    model_input,
    own_topics,
)

OUT = ROOT / "mentalhospital_env" / "patient" / "data" / "follow_model.json"
#: chosen at stop 42 by leave-one-set-out over heldout31-39 (macro-F1 and the carries into questions that stand
#: alone), before heldout40's and heldout41's figures were taken with the model. The shipped file is that stop's fit (up to
#: heldout39); stop 43 moved fit_topic_model.NEWEST_READ to 40 and did not refit this model (a --write now reads heldout40)
C = 1.0
CARRY_AT = 0.5
DROP_UNDER = 0.05


def rows_of(name: str) -> list[dict]:
    T.refuse_fresh(T.SETS[name])
    rows = [json.loads(line) for line in (T.DATA / T.SETS[name]).read_text("utf-8").splitlines() if line.strip()]
    for i, r in enumerate(rows):
        stemmed, _ = model_input(r["utterance"], None)
        r["ff"] = follow_features(stemmed, own_topics(r["utterance"]))
        if r.get("context"):
            inh = inherited_topics(r["context"])
            r["y"] = int(bool(set(r["topics"]) & set(inh))) if inh else None
        else:
            r["y"] = 0
            before = rows[i - 1]["utterance"] if i else rows[-1]["utterance"]
            r["unrelated_before"] = before
    return rows


class Fitted:
    def __init__(self, rows: list[dict], c: float = C, min_count: int = 2):
        from sklearn.linear_model import LogisticRegression

        rows = [r for r in rows if r["y"] is not None]
        self.vocab, self.index = T.vocabulary((r["ff"] for r in rows), min_count)
        m = LogisticRegression(C=c, solver="liblinear", max_iter=1000).fit(self.matrix(rows), [r["y"] for r in rows])
        self.w = m.coef_[0].round(4)
        self.w[np.abs(self.w) < T.PRUNE] = 0.0
        self.b = round(float(m.intercept_[0]), 4)

    def matrix(self, rows: list[dict]):
        import scipy.sparse as sp

        ri, ci = [], []
        for i, r in enumerate(rows):
            for f in r["ff"]:
                j = self.index.get(f)
                if j is not None:
                    ri.append(i)
                    ci.append(j)
        return sp.csr_matrix((np.ones(len(ri)), (ri, ci)), shape=(len(rows), len(self.vocab)))

    def probs(self, rows: list[dict]) -> np.ndarray:
        return 1 / (1 + np.exp(-(np.asarray(self.matrix(rows) @ self.w) + self.b)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--estimate", action="store_true")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    sets = {n: rows_of(n) for n in T.SETS if (T.DATA / T.SETS[n]).is_file()}
    if args.estimate:
        print(f"C={C} carry at {CARRY_AT}, undo the cue rule's carry under {DROP_UNDER}")
        print(f"  {'set':<10} follow-ups: leaning (labels) / carried by the rule, right / by the model, right;"
              " stand-alone questions after an unrelated one: carried into by the rule / by the model")
        for out in T.ESTIMATE:
            model = Fitted([r for n in sets if n != out for r in sets[n]])
            rows = sets[out]
            p = model.probs(rows)
            fu = [(r, q) for r, q in zip(rows, p) if r.get("context") and r["y"] is not None]
            rule = [cue_reading(r["utterance"], r["context"]).follow_up for r, _ in fu]
            mine = [(q >= CARRY_AT) or (ru and q >= DROP_UNDER) for (r, q), ru in zip(fu, rule)]
            alone = [(r, q) for r, q in zip(rows, p) if not r.get("context") and inherited_topics(r["unrelated_before"])]

            def wrong_carry(r: dict, by_rule: bool) -> bool:
                extra = set(inherited_topics(r["unrelated_before"])) - set(r["topics"])
                got = cue_reading(r["utterance"], r["unrelated_before"])
                return bool(by_rule and got.follow_up and extra & set(got.topics))

            into_rule = sum(wrong_carry(r, True) for r, _ in alone)
            into_model = sum(1 for r, q in alone if (q >= CARRY_AT and set(inherited_topics(r["unrelated_before"])) - set(r["topics"]))
                             or (q >= DROP_UNDER and wrong_carry(r, True)))
            print(f"  {out:<10} {sum(r['y'] for r, _ in fu):>3}/{len(fu):<3} rule {sum(rule):>3} right "
                  f"{sum(a == bool(r['y']) for a, (r, _) in zip(rule, fu)):>3}  model {sum(mine):>3} right "
                  f"{sum(a == bool(r['y']) for a, (r, _) in zip(mine, fu)):>3}   stand-alone {len(alone):>3}: rule "
                  f"{into_rule:>3}  model {into_model:>3}", flush=True)
    if args.write:
        model = Fitted([r for n in sets for r in sets[n]])
        weights = {f: {"follows": float(w)} for f, w in zip(model.vocab, model.w) if w}
        out = {
            "format": FORMAT,
            "_about": "fitted by scripts/fit_follow_model.py --write on the labelled sets of benchmarks/data/"
                      f"interview_topics*.jsonl up to heldout{T.NEWEST_READ} ({sum(len(v) for v in sets.values())} "
                      f"utterances): does a question lean on the previous turn; L2 logistic regression, C={C}",
            "topics": ["follows"],
            "bias": [model.b],
            "cue_features": False,
            "combine": {"add_above": CARRY_AT, "veto_below": DROP_UNDER, "confirm_above": 0.5},
            "weights": weights,
        }
        OUT.write_text(topic_model_text(out), "utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}: {len(weights)} features, {OUT.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
