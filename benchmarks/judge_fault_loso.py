"""Leave-one-slice-out choice of one note fault's points (Qual.), over the rated development slices.

For a fault kind of ``rewards/mentaleval/data/note_faults.json`` and a grid of point values fixed in advance (0 is the
fault switched off), each development slice is scored with the value that maximises QWK on the notes of the other
slices pooled (ties to the smaller value); the table gives each slice's Qual. QWK with the fault off and with the value
chosen without it, and the value the pooled slices choose (the one to ship). Nothing is read from a slice to score
that slice. Run: ``python benchmarks/judge_fault_loso.py KIND [--grid 0,0.25,0.5,0.75,1,1.5]``; ``limit:NAME`` in place of
KIND varies ``cues.json`` ``limits.NAME`` instead (``--prefer``: the value ties go to, the shipped one).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from judge_agreement import HELD_OUT, SPLITS, charts, load_encounters, load_ratings  # noqa: E402

from mentalhospital_env.rewards.agreement import quadratic_weighted_kappa  # noqa: E402
from mentalhospital_env.rewards.mentaleval import OfflineJudge  # noqa: E402
from mentalhospital_env.rewards.mentaleval import note_faults  # noqa: E402
from mentalhospital_env.rewards.mentaleval.offline import note_quality_score  # noqa: E402

#: every rated development slice (stop 41: through held_out40); never the newest fresh slice (judge_agreement.HELD_OUT)
SLICES = ("tune",) + tuple(s for s in SPLITS if s not in ("all", "earlier", HELD_OUT))


def qwk(ref: list[int], pred: list[float]) -> float:
    return quadratic_weighted_kappa(ref, [int(p + 0.5) for p in pred], (1, 2, 3, 4, 5))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind")
    ap.add_argument("--grid", default="0,0.25,0.5,0.75,1,1.5")
    ap.add_argument("--prefer", type=float, default=0.0, help="the grid value ties go to (0: the fault off)")
    args = ap.parse_args()
    grid = [float(x) for x in args.grid.split(",")]
    rows = [r for r in load_ratings() if r["kind"] == "note" and r["split"] in SLICES]
    items = charts(rows, load_encounters())
    judge = OfflineJudge()
    readings = [judge._note_reading(case, chart) for case, chart in items]
    scores: dict[float, list[float]] = {}
    if args.kind.startswith("limit:"):
        from mentalhospital_env.rewards.mentaleval.cues import load_cues

        limits, name = load_cues().limits, args.kind.split(":", 1)[1]
        had = limits.get(name)
        try:
            for p in grid:
                limits[name] = p
                scores[p] = [note_quality_score(r) for r in readings]
        finally:
            if had is None:
                limits.pop(name, None)
            else:
                limits[name] = had
    else:
        points = note_faults._data()["points"][args.kind]
        shipped = dict(points)
        try:
            for p in grid:
                points["points"] = p
                points["max_points"] = max(p, shipped["max_points"] * (p / shipped["points"]) if shipped["points"] else p)
                scores[p] = [note_quality_score(r) for r in readings]
        finally:
            points.update(shipped)
    fired = sum(any(f.kind == args.kind for f in r.faults) for r in readings)
    print(f"{args.kind}: fires on {fired} of {len(rows)} notes; grid {grid}")

    def best(pick: list[int]) -> float:
        ref = [rows[i]["rating"] for i in pick]
        return max(grid, key=lambda p: (round(qwk(ref, [scores[p][i] for i in pick]), 6), -abs(p - args.prefer)))

    print(f"{'slice':12} {'n':>3} {'fires':>5} {'chosen':>6} {'QWK pref':>8} {'QWK LOSO':>8}")
    for s in SLICES:
        inside = [i for i, r in enumerate(rows) if r["split"] == s]
        outside = [i for i, r in enumerate(rows) if r["split"] != s]
        p = best(outside)
        ref = [rows[i]["rating"] for i in inside]
        n_fire = sum(any(f.kind == args.kind for f in readings[i].faults) for i in inside)
        print(f"{s:12} {len(inside):>3} {n_fire:>5} {p:>6} {qwk(ref, [scores[args.prefer][i] for i in inside]):>8.3f} "
              f"{qwk(ref, [scores[p][i] for i in inside]):>8.3f}")
    everything = list(range(len(rows)))
    p = best(everything)
    ref = [r["rating"] for r in rows]
    print(f"{'all':12} {len(rows):>3} {fired:>5} {p:>6} {qwk(ref, scores[args.prefer]):>8.3f} {qwk(ref, scores[p]):>8.3f}  (the value to ship)")


if __name__ == "__main__":
    main()
