"""Leave-one-set-out refits of the matcher's thresholds (one script: the per-pair pieces, then the fits).

    python benchmarks/loso.py pieces EMBEDDER OUT.npz                     # the full adjudicator grid (slow)
    python benchmarks/loso.py without EMBEDDER OUT.npz 'PHRASE|SHARE'...  # the share-without-concept grid for some settings
    python benchmarks/loso.py refit OUT.npz [WITHOUT.npz] [CURRENT_JSON]  # the documented fit, leaving each set out
    python benchmarks/loso.py lean EMBEDDER L_EMBEDDER.npz PHRASE SHARE WITHOUT [grid]
        # one pass at the embedder's fitted settings (hashing 0.5 0.3 0.4, use 0.6 0.3 0.4, minilm 0.75 0.3 0.4);
        # 'grid' adds the adjudicator without phrasings at every share (the same for every embedder)
    python benchmarks/loso.py embedders L_hashing.npz L_use.npz L_minilm.npz  # per embedder: as is, documented
        # fit, threshold refit, and the embedder's own contribution (the first file holds the grid)

For every pair of every set (the calibration half, the held-out half, the later sets), read as the matcher reads it
on its case (:func:`read_with_persons`): the cosine, whether the unit says nothing, whether the check
(:func:`statement_conflict`) refuses it, and the clinical adjudicator's verdict on the grid the documented fit walks.
A single pair's pipeline verdict at embedder threshold t is then

    not silent and ((sim >= t and not conflict) or (sim < t and clinical))

(the candidate prefilter changes nothing, see Matcher._candidates), so the fit can be repeated per fold with arrays.
For each development set X (the record, narrative, reply, clinic pairs and heldout28..): fit on the calibration half
and every other development set (never the held-out half of match_pairs.jsonl), report on X; also the thresholds as
rewards/data/thresholds.json has them ("as is"), and a fit on everything but the held-out half reported on it.
(Until stop 41 three scripts: loso_precompute.py, loso_fit.py and loso_fit2.py.)
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from mentalhospital_env.rewards.adjudication import ClinicalAdjudicator, read_statement, statement_conflict
from mentalhospital_env.rewards.calibration import (
    MIN_SHARE_GRID,
    PAIR_SETS,
    PHRASE_GRID,
    UNSEEN_SUITES,
    WITHOUT_CONCEPT_GRID,
    choose_threshold,
    load_match_pairs,
    pair_file,
    read_with_persons,
)
from mentalhospital_env.rewards.calibration import (
    TARGET_PRECISION as TARGET,
)
from mentalhospital_env.rewards.embedders import make_embedder

ROOT = Path(__file__).resolve().parents[1]


# --- the per-pair pieces --------------------------------------------------------------------------------------


def all_pairs():
    out = []
    for split in ("calibration", "held_out"):
        out += [("match_" + split, p) for p in load_match_pairs(split=split)]
    for split in PAIR_SETS:
        if pair_file(split).exists():
            out += [(split, p) for p in load_match_pairs(pair_file(split))]
    return out


def pieces(spec: str, path: str) -> None:
    """Every pair's pieces with the full adjudicator grid (phrase threshold None or PHRASE_GRID, each share)."""
    t0 = time.perf_counter()
    tagged = all_pairs()
    sets = [s for s, _ in tagged]
    pairs = [p for _, p in tagged]
    read = read_with_persons(pairs, UNSEEN_SUITES)
    embedder = make_embedder(spec)
    texts = sorted({t for cu in read for t in cu})
    embedder.encode(texts)
    print(f"{spec}: encoded {len(texts)} texts in {time.perf_counter() - t0:.0f} s", flush=True)
    vectors = {t: v for t, v in zip(texts, embedder.encode(texts))}
    sims = np.array([float(vectors[c] @ vectors[u]) for c, u in read], dtype=np.float32)
    silent = np.array([not read_statement(u).words and not read_statement(u).concepts for _, u in read])
    conflict = np.array([statement_conflict(c, u) is not None for c, u in read])
    phrases = (None, *PHRASE_GRID)
    grid = np.zeros((len(read), len(phrases), len(MIN_SHARE_GRID)), dtype=bool)
    plain = ClinicalAdjudicator()
    phrased = ClinicalAdjudicator(phrase_embedder=embedder, phrase_threshold=0.5)
    for a, phrase in enumerate(phrases):
        adj = plain if phrase is None else phrased
        adj.phrase_threshold = phrase
        for b, share in enumerate(MIN_SHARE_GRID):
            adj.min_share = share
            adj._verdicts.clear()
            grid[:, a, b] = [adj.entailed(c, u) for c, u in read]
        print(f"{spec}: phrase {phrase} done at {time.perf_counter() - t0:.0f} s", flush=True)
    np.savez_compressed(
        path,
        sets=np.array(sets),
        ids=np.array([p.id for p in pairs]),
        kinds=np.array([p.kind for p in pairs]),
        entails=np.array([p.entails for p in pairs]),
        sims=sims,
        silent=silent,
        conflict=conflict,
        grid=grid,
        phrases=np.array([-1.0 if p is None else p for p in phrases]),
        shares=np.array(MIN_SHARE_GRID),
    )
    print(f"{spec}: wrote {path} in {time.perf_counter() - t0:.0f} s", flush=True)


def without_grid(spec: str, path: str, combos: list[tuple[float | None, float]]) -> None:
    """The verdicts along WITHOUT_CONCEPT_GRID for the given (phrase, share) combinations."""
    tagged = all_pairs()
    read = read_with_persons([p for _, p in tagged], UNSEEN_SUITES)
    embedder = make_embedder(spec)
    out = {}
    for phrase, share in combos:
        adj = ClinicalAdjudicator(min_share=share) if phrase is None else ClinicalAdjudicator(
            min_share=share, phrase_embedder=embedder, phrase_threshold=phrase
        )
        rows = []
        for w in WITHOUT_CONCEPT_GRID:
            adj.min_share_without_concept = w
            adj._verdicts.clear()
            rows.append([adj.entailed(c, u) for c, u in read])
        out[f"{phrase}|{share}"] = np.array(rows).T
    np.savez_compressed(path, **out)


def lean(spec: str, path: str, phrase: float | None, share: float, without: float, none_grid: bool) -> None:
    """One pass: the cosine, silent, the check, and the adjudicator at one setting (the embedder's fitted one); with
    ``none_grid`` also the adjudicator without phrasings at every share (no embedder: the same for all). The
    embedder's vectors are kept in $LOSO_VECTORS (the temporary folder by default) between runs (a data change alters verdicts, not texts)."""
    import os

    t0 = time.perf_counter()
    tagged = all_pairs()
    pairs = [p for _, p in tagged]
    read = read_with_persons(pairs, UNSEEN_SUITES)
    embedder = make_embedder(spec)
    texts = sorted({t for cu in read for t in cu})
    import tempfile

    store = os.path.join(os.environ.get("LOSO_VECTORS", tempfile.gettempdir()), f"loso_vectors_{spec}.npz")
    known = {}
    if os.path.exists(store):
        z = np.load(store, allow_pickle=True)
        known = dict(zip(z["texts"].tolist(), z["vectors"]))
    todo = [t for t in texts if t not in known]
    if todo:
        known.update(zip(todo, embedder.encode(todo)))
        np.savez(store, texts=np.array(list(known), dtype=object), vectors=np.array(list(known.values())))
    for t, v in known.items():
        embedder.cache.put(t, np.asarray(v, dtype=np.float32)) if getattr(embedder, "cache", None) is not None else None
    print(f"{spec}: {len(todo)} texts encoded in {time.perf_counter() - t0:.0f} s", flush=True)
    sims = np.array([float(known[c] @ known[u]) for c, u in read], dtype=np.float32)
    silent = np.array([not read_statement(u).words and not read_statement(u).concepts for _, u in read])
    conflict = np.array([statement_conflict(c, u) is not None for c, u in read])
    adj = ClinicalAdjudicator(min_share=share, min_share_without_concept=without) if phrase is None else (
        ClinicalAdjudicator(min_share=share, min_share_without_concept=without, phrase_embedder=embedder, phrase_threshold=phrase)
    )
    clin = np.array([adj.entailed(c, u) for c, u in read])
    cached = dict(embedder.cache._vectors)
    if len(cached) > len(known):
        np.savez(store, texts=np.array(list(cached), dtype=object), vectors=np.array(list(cached.values())))
    out = dict(
        sets=np.array([s for s, _ in tagged]), ids=np.array([p.id for p in pairs]), kinds=np.array([p.kind for p in pairs]),
        entails=np.array([p.entails for p in pairs]), sims=sims, silent=silent, conflict=conflict, clin=clin,
    )
    if none_grid:
        plain = ClinicalAdjudicator()
        grid = np.zeros((len(read), len(MIN_SHARE_GRID)), dtype=bool)
        for b, s in enumerate(MIN_SHARE_GRID):
            plain.min_share = s
            plain._verdicts.clear()
            grid[:, b] = [plain.entailed(c, u) for c, u in read]
        out["none_grid"] = grid
    np.savez_compressed(path, **out)
    print(f"{spec}: wrote {path} in {time.perf_counter() - t0:.0f} s", flush=True)



# --- the documented fit, leaving one set out (on the full-grid pieces) -----------------------------------

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


def refit_report(path, without_path=None, current=None):
    """Leave-one-set-out refits of every setting on the full-grid pieces (``pieces`` and ``without``)."""
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



# --- per embedder, on the lean pieces -----------------------------------------------------------------------

SHARES = (0.45, 0.4, 0.35, 0.3, 0.25, 0.2)


def load_lean(path, grid_from=None):
    d = dict(np.load(path, allow_pickle=False))
    if "none_grid" not in d and grid_from is not None:
        d["none_grid"] = grid_from["none_grid"]
    return d


def _decide(d, tau, clin):
    above = d["sims"] >= np.float32(tau)
    return ~d["silent"] & ((above & ~d["conflict"]) | (~above & clin))


def documented(d, fit):
    """The documented procedure restricted to what the pooled sets allow: it starts with the strictest adjudicator
    (no phrasings, each share); when none keeps the fitting precision at the target plus the margin, the adjudicator
    keeps its defaults (share 0.45, 0.6 without a concept) and only the threshold is fitted. Returns (tau, note)."""
    y = d["entails"][fit]
    tau0 = choose_threshold(d["sims"][fit], y, ~d["conflict"][fit], target=STRICT)
    ok = [s for b, s in enumerate(SHARES) if pr(_decide(d, tau0, d["none_grid"][:, b])[fit], y)[0] >= STRICT]
    if ok:
        return None, f"shares {ok} pass: full grid needed"
    clin = d["none_grid"][:, 0]
    tau = choose_threshold(d["sims"][fit], y, (~d["conflict"] & ~clin)[fit], target=STRICT)
    rec = fit & (d["sets"] == "records")
    if rec.any():
        tau = max(tau, choose_threshold(d["sims"][rec], d["entails"][rec], (~d["conflict"] & ~clin)[rec], target=STRICT, min_accepted=1))
    return tau, "defaults"


def embedders_report(paths):
    """Leave-one-set-out figures per embedder from ``lean`` pieces (files named L_<embedder>.npz)."""
    thresholds = json.loads((ROOT / "rewards" / "data" / "thresholds.json").read_text())["embedders"]
    first = load_lean(paths[0])
    out = {}
    for path in paths:
        d = load_lean(path, first)
        name = Path(path).stem.split("_", 1)[1]
        sets = list(dict.fromkeys(d["sets"].tolist()))
        dev = [s for s in sets if not s.startswith("match_")]
        y = d["entails"]
        res = {}
        tau_now = thresholds[name]["threshold"]
        asis = _decide(d, tau_now, d["clin"])
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
            dec = _decide(d, tau, d["clin"])
            m = d["sets"] == x
            refit[x] = pr(dec[m], y[m])
            t2, note = documented(d, fit)
            doc_taus[x] = (t2, note)
            if t2 is not None:
                dec = _decide(d, t2, d["none_grid"][:, 0])
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


def _main(argv: list[str]) -> None:
    command, args = argv[0], argv[1:]
    if command == "pieces":
        pieces(args[0], args[1])
    elif command == "without":
        combos = [(None if a == "None" else float(a), float(b)) for a, b in (x.split("|") for x in args[2:])]
        without_grid(args[0], args[1], combos)
    elif command == "lean":
        spec, path, phrase, share, without = args[:5]
        lean(spec, path, None if phrase == "None" else float(phrase), float(share), float(without), len(args) > 5)
    elif command == "refit":
        without_path = args[1] if len(args) > 1 else None
        current = json.loads(args[2]) if len(args) > 2 else None
        data, folds, rows, needed = refit_report(args[0], without_path, current)
        if needed:
            print("NEED", " ".join(sorted(needed)))
        for x, f in folds.items():
            print("fold", x, "tau %.4f phrase %s share %s without %s" % f)
        for name, res in rows.items():
            print("##", name)
            for s, (p, r, tp, fp) in res.items():
                print(f"{s:20s} P {p:.3f} R {r:.3f} tp {tp} fp {fp}")
    elif command == "embedders":
        out = embedders_report(args)
        for name, o in out.items():
            print(f"### {name} (thresholds.json tau {o['tau_now']}); dev-set misses as is: {o['missed']}")
            print("threshold refit taus:", {k: round(v, 3) for k, v in o["taus"].items()})
            print("documented taus:", {k: (None if v[0] is None else round(v[0], 3), v[1]) for k, v in o["doc_taus"].items()})
            print("own contribution on dev sets (cos >= t: right, wrong):", o["curve"])
            for row, res in o["res"].items():
                print("  " + row + ": " + "; ".join(f"{s} {p:.3f}/{r:.3f} ({tp},{fp})" for s, (p, r, tp, fp) in res.items()))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    _main(sys.argv[1:] or ["help"])
