"""Per-pair pieces of the matcher's decision for one embedder, for leave-one-set-out refits.

    python benchmarks/loso_precompute.py EMBEDDER OUT.npz          # the full adjudicator grid (slow)
    python benchmarks/loso_precompute.py --lean EMBEDDER OUT.npz PHRASE SHARE WITHOUT [grid]
        # one pass at the embedder's fitted settings (hashing 0.5 0.3 0.4, use 0.6 0.3 0.4, minilm 0.75 0.3 0.4);
        # 'grid' adds the adjudicator without phrasings at every share (the same for every embedder)
    python benchmarks/loso_fit2.py L_hashing.npz L_use.npz L_minilm.npz

For every pair of every set (the calibration half, the held-out half, the later sets), read as the matcher reads it
on its case (:func:`read_with_persons`): the cosine, whether the unit says nothing, whether the check
(:func:`statement_conflict`) refuses it, and the clinical adjudicator's verdict on the grid the documented fit walks
(phrase threshold None or PHRASE_GRID, content share MIN_SHARE_GRID, share without concept at its default 0.6).
A single pair's pipeline verdict at embedder threshold t is then

    not silent and ((sim >= t and not conflict) or (sim < t and clinical))

(the candidate prefilter changes nothing, see Matcher._candidates), so the fit can be repeated per fold with arrays.
"""
from __future__ import annotations

import sys
import time

import numpy as np


from mentalhospital_env.rewards.adjudication import ClinicalAdjudicator, read_statement, statement_conflict
from mentalhospital_env.rewards.calibration import (
    MIN_SHARE_GRID,
    PAIR_SETS,
    PHRASE_GRID,
    WITHOUT_CONCEPT_GRID,
    load_match_pairs,
    pair_file,
    pair_similarities,
    UNSEEN_SUITES,
    read_with_persons,
)
from mentalhospital_env.rewards.embedders import make_embedder


def all_pairs():
    out = []
    for split in ("calibration", "held_out"):
        out += [("match_" + split, p) for p in load_match_pairs(split=split)]
    for split in PAIR_SETS:
        if pair_file(split).exists():
            out += [(split, p) for p in load_match_pairs(pair_file(split))]
    return out


def main(spec: str, path: str, extra: str | None = None) -> None:
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


if __name__ == "__main__":
    if sys.argv[1] == "--lean":
        spec, path, phrase, share, without = sys.argv[2:7]
        lean(spec, path, None if phrase == "None" else float(phrase), float(share), float(without), len(sys.argv) > 7)
        sys.exit(0)
    if sys.argv[1] == "--without":
        spec, path = sys.argv[2], sys.argv[3]
        combos = [(None if a == "None" else float(a), float(b)) for a, b in (x.split("|") for x in sys.argv[4:])]
        without_grid(spec, path, combos)
    else:
        main(sys.argv[1], sys.argv[2])
