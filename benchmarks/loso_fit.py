"""Leave-one-set-out refits of the matcher's thresholds, by the documented procedure (rewards/calibration.py's
calibrate_embedder), on the per-pair pieces benchmarks/loso_precompute.py wrote.

    python benchmarks/loso_fit.py OUT.npz [WITHOUT.npz]

For each development set X (the record, narrative, reply, clinic pairs and heldout28..): fit on the calibration half
and every other development set (never the held-out half of match_pairs.jsonl), report on X. Also: the thresholds as
rewards/data/thresholds.json has them ("as is"), and a fit on everything but the held-out half reported on it.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

# the documented procedure's own threshold choice (loso_fit2 imports it from here)
from mentalhospital_env.rewards.calibration import TARGET_PRECISION as TARGET, choose_threshold  # noqa: F401

STRICT = TARGET + 0.02
WITHOUT_GRID = (0.6, 0.55, 0.5, 0.45, 0.4)


def pr(decided, y):
    tp = int(np.sum(decided & y))
    fp = int(np.sum(decided & ~y))
    fn = int(np.sum(~decided & y))
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, tp, fp


class Data:
    def __init__(self, path, without_path=None):
        d = np.load(path)
        self.sets = d["sets"]
        self.y = d["entails"].astype(bool)
        self.sims = d["sims"].astype(np.float32)
        self.silent = d["silent"].astype(bool)
        self.conflict = d["conflict"].astype(bool)
        self.grid = d["grid"]
        self.phrases = [None if p < 0 else round(float(p), 2) for p in d["phrases"]]
        self.shares = [round(float(s), 2) for s in d["shares"]]
        self.without = dict(np.load(without_path)) if without_path and Path(without_path).exists() else {}

    def clin(self, phrase, share, without=0.6):
        if without == 0.6:
            return self.grid[:, self.phrases.index(phrase), self.shares.index(share)]
        key = f"{phrase}|{share}"
        if key not in self.without:
            raise KeyError(key)
        return self.without[key][:, WITHOUT_GRID.index(without)]

    def pipeline(self, tau, clin):
        above = self.sims >= np.float32(tau)
        return ~self.silent & ((above & ~self.conflict) | (~above & clin))


def adds_only_right(decided, baseline, y):
    gained = y[decided & ~baseline]
    return not len(gained) or gained.sum() >= STRICT * len(gained)


def fit_clinical(data, tau, fit):
    y = data.y[fit]
    best_recall, phrase, share, reference = -1.0, None, None, None
    for s in data.shares:
        chosen = recall = chosen_dec = without = None
        recall = -1.0
        for cand in data.phrases:
            dec = data.pipeline(tau, data.clin(cand, s))[fit]
            p, r, _, _ = pr(dec, y)
            if p < STRICT:
                break
            if without is None:
                without = dec
            elif not adds_only_right(dec, without, y):
                break
            chosen, recall, chosen_dec = cand, r, dec
        if chosen_dec is None:
            continue
        if reference is None:
            reference = chosen_dec
        elif not adds_only_right(chosen_dec, reference, y):
            continue
        if recall > best_recall:
            best_recall, phrase, share = recall, chosen, s
    return phrase, share


def fit_without(data, tau, phrase, share, fit):
    if share is None:
        return None
    y = data.y[fit]
    chosen = reference = None
    for w in WITHOUT_GRID:
        try:
            dec = data.pipeline(tau, data.clin(phrase, share, w))[fit]
        except KeyError:
            return ("need", phrase, share)
        if pr(dec, y)[0] < STRICT:
            break
        if reference is None:
            reference = dec
        elif not adds_only_right(dec, reference, y):
            break
        chosen = w
    return chosen


def fit(data, fit_mask):
    cal = fit_mask
    # first estimate: cosine behind the check, every fitting pair counted
    guarded = choose_threshold(data.sims[cal], data.y[cal], ~data.conflict[cal], target=STRICT)
    phrase, share = fit_clinical(data, guarded, cal)
    clin = data.clin(phrase, share) if share is not None else data.clin(phrase, 0.45)
    refused = ~clin
    guarded = choose_threshold(data.sims[cal], data.y[cal], (~data.conflict & refused)[cal], target=STRICT)
    rec = fit_mask & (data.sets == "records")
    if rec.any():
        own = ~data.conflict & ~clin
        guarded = max(guarded, choose_threshold(data.sims[rec], data.y[rec], own[rec], target=STRICT, min_accepted=1))
    phrase, share = fit_clinical(data, guarded, cal)
    without = fit_without(data, guarded, phrase, share, cal)
    return guarded, phrase, share, without


def settings_decisions(data, tau, phrase, share, without):
    # share None: the adjudicator's defaults (0.45 / 0.6)
    s = share if share is not None else 0.45
    w = without if without is not None else 0.6
    return data.pipeline(tau, data.clin(phrase, s, w))


def main(path, without_path=None, current=None):
    data = Data(path, without_path)
    dev = [s for s in dict.fromkeys(data.sets.tolist()) if s not in ("match_calibration", "match_held_out")]
    rows = {}
    needed = set()
    if current:
        dec = settings_decisions(data, *current)
        rows["as is"] = {s: pr(dec[data.sets == s], data.y[data.sets == s]) for s in ["match_calibration", "match_held_out", *dev]}
    folds = {}
    for x in dev:
        mask = (data.sets != x) & (data.sets != "match_held_out")
        folds[x] = fit(data, mask)
    folds["match_held_out"] = fit(data, data.sets != "match_held_out")
    loso = {}
    for x, (tau, phrase, share, without) in folds.items():
        if isinstance(without, tuple):
            needed.add(f"{without[1]}|{without[2]}")
            continue
        dec = settings_decisions(data, tau, phrase, share, without)
        m = data.sets == x
        loso[x] = pr(dec[m], data.y[m])
    rows["leave-one-set-out"] = loso
    return data, folds, rows, needed


if __name__ == "__main__":
    path = sys.argv[1]
    without_path = sys.argv[2] if len(sys.argv) > 2 else None
    current = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
    data, folds, rows, needed = main(path, without_path, current)
    if needed:
        print("NEED", " ".join(sorted(needed)))
    for x, f in folds.items():
        print("fold", x, "tau %.4f phrase %s share %s without %s" % f)
    for name, res in rows.items():
        print("##", name)
        for s, (p, r, tp, fp) in res.items():
            print(f"{s:20s} P {p:.3f} R {r:.3f} tp {tp} fp {fp}")
