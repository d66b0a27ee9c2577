"""Leave-one-slice-out choice of App.'s weighted terms (``offline.TREATMENT_TERMS``) over the rated development slices.

Each plan is read once (the judge's :class:`~mentalhospital_env.rewards.mentaleval.features.PlanReading`); for every
weight set of a grid fixed in advance (safety, follow-up, dose and psychoeducation weights, concordance the remainder
to 1), each development slice is scored with the set that maximises App. QWK on the other slices pooled (ties to the
shipped weights), and the table gives each slice's QWK with the shipped weights, with the set chosen without it, and
the set the pooled slices choose. A second table fits on one half of the slices and scores the other half. Nothing is
read from a slice to score that slice; the newest held-out slice (``judge_agreement.HELD_OUT``) is never read.
Run: ``python benchmarks/judge_terms_loso.py [--against-stop39]`` (``--against-stop39``: the stop-39 weights, concordance
0.40, safety 0.20, follow-up 0.15, dose 0.10, psychoeducation 0.15, stand first in place of the shipped ones: each slice's
QWK before stop 40's change and with the weights chosen without it).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import itertools
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from judge_agreement import HELD_OUT, SPLITS, charts, load_encounters, load_ratings  # noqa: E402

from mentalhospital_env.rewards.agreement import quadratic_weighted_kappa  # noqa: E402
from mentalhospital_env.rewards.mentaleval import OfflineJudge  # noqa: E402
from mentalhospital_env.rewards.mentaleval import offline  # noqa: E402
from mentalhospital_env.rewards.mentaleval.features import read_plan  # noqa: E402

SLICES = tuple(s for s in SPLITS if s not in ("all", "earlier", HELD_OUT)) + ("tune",)
HALVES = (("tune", "held_out28", "held_out30", "held_out32", "held_out34", "held_out36", "held_out38"),
          ("held_out", "scripted", "held_out29", "held_out31", "held_out33", "held_out35", "held_out37", "held_out39"))
GRID = {"education": (0.15, 0.1, 0.05, 0.0), "safety": (0.2, 0.15, 0.1, 0.05, 0.0), "follow_up": (0.15, 0.1, 0.05),
        "dose": (0.1, 0.05, 0.0)}


def qwk(ref: list[int], pred: list[float]) -> float:
    return quadratic_weighted_kappa(ref, [int(p + 0.5) for p in pred], (1, 2, 3, 4, 5))


def terms(education: float, safety: float, follow_up: float, dose: float) -> tuple:
    o = offline
    return ((round(1.0 - education - safety - follow_up - dose, 3), o.plan_concordance), (safety, o.plan_safety),
            (follow_up, o.plan_follow_up), (dose, o.plan_dose), (education, o.plan_education), (-1.0, o.plan_overreach))


def name(t: tuple) -> str:
    return " ".join(f"{f.__name__[5:]}={w:g}" for w, f in t[:5])


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against-stop39", action="store_true", help="compare with the stop-39 weights, not the shipped ones")
    args = ap.parse_args()
    rows = [r for r in load_ratings() if r["kind"] == "plan" and r["split"] in SLICES]
    judge = OfflineJudge()
    readings = []
    for r, (case, chart) in zip(rows, charts(rows, load_encounters())):
        guideline, _ = judge._case_view(case)
        readings.append(read_plan(chart.treatment or "", guideline, case))
    shipped = offline.TREATMENT_TERMS
    first = terms(0.15, 0.20, 0.15, 0.10) if args.against_stop39 else shipped
    candidates = [first] + [terms(*v) for v in itertools.product(*GRID.values())]
    scores = {}
    try:
        for t in candidates:
            offline.TREATMENT_TERMS = t
            scores[name(t)] = [offline.rule_treatment_score(x) for x in readings]
    finally:
        offline.TREATMENT_TERMS = shipped

    def pooled(key: str, slices: tuple[str, ...]) -> float:
        pick = [i for i, r in enumerate(rows) if r["split"] in slices]
        return qwk([rows[i]["rating"] for i in pick], [scores[key][i] for i in pick])

    keys = list(scores)  # the shipped (or stop-39) weights first: ties go to them
    print(f"{'slice':11} {'n':>3}  {'stop-39' if args.against_stop39 else 'shipped'}  chosen-without-it")
    gains = []
    for s in SLICES:
        others = tuple(x for x in SLICES if x != s)
        best = max(keys, key=lambda k: round(pooled(k, others), 4))
        before, after = pooled(keys[0], (s,)), pooled(best, (s,))
        gains.append(after - before)
        n = sum(r["split"] == s for r in rows)
        print(f"{s:11} {n:>3}  {before:.3f}    {after:.3f} ({after - before:+.3f})  {best}")
    print(f"better on {sum(g > 1e-9 for g in gains)}, worse on {sum(g < -1e-9 for g in gains)} of {len(gains)}; "
          f"mean change {statistics.mean(gains):+.3f}")
    print("pooled choice:", max(keys, key=lambda k: round(pooled(k, SLICES), 4)), "; compared with:", keys[0])
    for fit, test in (HALVES, HALVES[::-1]):
        best = max(keys, key=lambda k: round(pooled(k, fit), 4))
        print(f"fit on {', '.join(fit)}: {best}; other half pooled {pooled(keys[0], test):.3f} -> {pooled(best, test):.3f}")


if __name__ == "__main__":
    main()
