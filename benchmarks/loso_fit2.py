"""Leave-one-set-out figures per embedder from benchmarks/loso_precompute.py --lean outputs (see docs/calibration.md,
the stop-40 round): the matcher as rewards/data/thresholds.json sets it ("as is"); the documented fit on the
calibration half plus every development set but one, reported on that one ("documented fit"); the embedder
threshold alone refitted that way with the adjudicator as fitted on the calibration half ("threshold refit"); and the
embedder's own contribution (pairs the check passes and the adjudicator refuses) by cosine over all development sets.

    python benchmarks/loso_fit2.py L_hashing.npz L_use.npz L_minilm.npz   # named L_<embedder>.npz; the first holds the grid
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loso_fit import STRICT, choose_threshold, pr  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARES = (0.45, 0.4, 0.35, 0.3, 0.25, 0.2)


def load(path, grid_from=None):
    d = dict(np.load(path, allow_pickle=False))
    if "none_grid" not in d and grid_from is not None:
        d["none_grid"] = grid_from["none_grid"]
    return d


def pipeline(d, tau, clin):
    above = d["sims"] >= np.float32(tau)
    return ~d["silent"] & ((above & ~d["conflict"]) | (~above & clin))


def documented(d, fit):
    """The documented procedure restricted to what the pooled sets allow: it starts with the strictest adjudicator
    (no phrasings, each share); when none keeps the fitting precision at the target plus the margin, the adjudicator
    keeps its defaults (share 0.45, 0.6 without a concept) and only the threshold is fitted. Returns (tau, note)."""
    y = d["entails"][fit]
    tau0 = choose_threshold(d["sims"][fit], y, ~d["conflict"][fit], target=STRICT)
    ok = [s for b, s in enumerate(SHARES) if pr(pipeline(d, tau0, d["none_grid"][:, b])[fit], y)[0] >= STRICT]
    if ok:
        return None, f"shares {ok} pass: full grid needed"
    clin = d["none_grid"][:, 0]
    tau = choose_threshold(d["sims"][fit], y, (~d["conflict"] & ~clin)[fit], target=STRICT)
    rec = fit & (d["sets"] == "records")
    if rec.any():
        tau = max(tau, choose_threshold(d["sims"][rec], d["entails"][rec], (~d["conflict"] & ~clin)[rec], target=STRICT, min_accepted=1))
    return tau, "defaults"


def main(paths):
    thresholds = json.loads((ROOT / "rewards" / "data" / "thresholds.json").read_text())["embedders"]
    first = load(paths[0])
    out = {}
    for path in paths:
        d = load(path, first)
        name = Path(path).stem.split("_", 1)[1]
        sets = list(dict.fromkeys(d["sets"].tolist()))
        dev = [s for s in sets if not s.startswith("match_")]
        y = d["entails"]
        res = {}
        tau_now = thresholds[name]["threshold"]
        asis = pipeline(d, tau_now, d["clin"])
        res["as is"] = {s: pr(asis[d["sets"] == s], y[d["sets"] == s]) for s in sets}
        # threshold refit, adjudicator fixed (as fitted on the calibration half)
        refit, taus = {}, {}
        doc, doc_taus = {}, {}
        for x in [*dev, "match_held_out"]:
            fit = (d["sets"] != x) & (d["sets"] != "match_held_out")
            own = ~d["conflict"] & ~d["clin"] & ~d["silent"]
            tau = choose_threshold(d["sims"][fit], y[fit], own[fit], target=STRICT)
            rec = fit & (d["sets"] == "records")
            if rec.any():
                tau = max(tau, choose_threshold(d["sims"][rec], y[rec], own[rec], target=STRICT, min_accepted=1))
            taus[x] = tau
            dec = pipeline(d, tau, d["clin"])
            m = d["sets"] == x
            refit[x] = pr(dec[m], y[m])
            t2, note = documented(d, fit)
            doc_taus[x] = (t2, note)
            if t2 is not None:
                dec = pipeline(d, t2, d["none_grid"][:, 0])
                doc[x] = pr(dec[m], y[m])
        res["threshold refit"] = refit
        res["documented fit"] = doc
        # own contribution by cosine on all development sets
        devm = np.isin(d["sets"], dev)
        own = devm & ~d["conflict"] & ~d["clin"] & ~d["silent"]
        curve = []
        for t in (0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5):
            acc = own & (d["sims"] >= t)
            curve.append((t, int((acc & y).sum()), int((acc & ~y).sum())))
        missed = int((devm & y & ~asis).sum())
        out[name] = dict(res=res, taus=taus, doc_taus=doc_taus, curve=curve, missed=missed, tau_now=tau_now)
    return out


if __name__ == "__main__":
    out = main(sys.argv[1:])
    for name, o in out.items():
        print(f"### {name} (thresholds.json tau {o['tau_now']}); dev-set misses as is: {o['missed']}")
        print("threshold refit taus:", {k: round(v, 3) for k, v in o["taus"].items()})
        print("documented taus:", {k: (None if v[0] is None else round(v[0], 3), v[1]) for k, v in o["doc_taus"].items()})
        print("own contribution on dev sets (cos >= t: right, wrong):", o["curve"])
        for row, res in o["res"].items():
            print("  " + row + ": " + "; ".join(f"{s} {p:.3f}/{r:.3f} ({tp},{fp})" for s, (p, r, tp, fp) in res.items()))
