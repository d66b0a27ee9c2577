"""Fit the opt-in embedding topic reader (``mentalhospital_env/patient/data/embedding_topic_reader.json``).

The reader of stop 35's pre-registered experiment (``/work/notes/s35/exp/prereg_minilm.py``): one L2 logistic
regression per topic (scikit-learn's liblinear, C 1; scikit-learn is a dev dependency, never needed at run time) over
the default reader's stem features (:func:`mentalhospital_env.patient.topic_model.features`, no cue features) beside
three times the all-MiniLM-L6-v2 sentence embeddings of the utterance and of the doctor's previous turn (zero
without one). It mends the cues' reading (``combine`` below). Needs the ``embed`` extra. Deterministic: same data,
same file.

    python scripts/fit_embedding_topic_reader.py --estimate   # leave-one-set-out macro-F1, both readers, heldout31-39
    python scripts/fit_embedding_topic_reader.py --write      # fit on every set and write the shipped file

``--estimate`` fits on every labelled set but one (stop 31's training set always in) and scores the one left out,
for heldout31 to heldout39 in turn: the cues alone, the default reader (``scripts/fit_topic_model.py``'s model and
settings, refitted without the set: since stop 46 the topic reader that decides alone), and this reader under both
combination rules. The cues were tuned on most of
these sets, so the cue column is a fitted figure; the models never saw the set they are scored on.

Every labelled set up to stop 39's is read (heldout35 to heldout39 are development data since stop 40). A held-out set newer
than ``NEWEST_READ`` is refused by number, and stop 40's fresh set by its name too (``FRESH``): others measure on it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import fit_topic_model as F

from mentalhospital_env.patient.embedding_reader import EMBEDDING_FORMAT, embed, plain_combine
from mentalhospital_env.patient.topic_model import topic_model_text
from mentalhospital_env.patient.understanding import combine, is_reflection, load_taxonomy

DATA = F.DATA
NEWEST_READ = 39
#: the default reader's sets up to this reader's ``NEWEST_READ`` (stop 43 moved the default reader's fitting up to
#: heldout40; this reader was not refitted then, and reads what it read before)
SETS = {n: f for n, f in F.SETS.items() if all(int(k) <= NEWEST_READ for k in re.findall(r"held_?out(\d+)", f))}
TRAIN_ONLY = F.TRAIN_ONLY
#: the sets left out in turn by --estimate
ESTIMATE = F.ESTIMATE
#: stop 40's to 48's fresh sets and stop 51's, refused by name whatever NEWEST_READ says
FRESH = ("heldout40", "held_out40", "heldout41", "held_out41", "heldout42", "held_out42", "heldout43", "held_out43", "heldout44", "held_out44", "heldout45", "held_out45", "heldout46", "held_out46",
         "heldout47", "held_out47", "heldout48", "held_out48", "heldout51", "held_out51")
OUT = ROOT / "mentalhospital_env" / "patient" / "data" / "embedding_topic_reader.json"
#: the pre-registered settings of stop 35 (fixed before heldout35 existed): C 1, the embeddings scaled by 3 (so that
#: they weigh against the binary stem features under one penalty), a cue topic dropped under 0.02, a topic added at 0.3
C = 1.0
SCALE = 3.0
ADD_ABOVE = 0.3
VETO_BELOW = 0.02
#: the default reader's confirmation threshold, used by the guarded rule only
CONFIRM_ABOVE = 0.5
#: how the probabilities mend the cues (see mentalhospital_env.patient.embedding_reader.RULES); chosen by the patient
#: exam at stop 36 (see the module docstring of the reader and docs)
RULE = "guarded"
#: stem features seen fewer times than this are left out; stem weights smaller than PRUNE are dropped (the file
#: stays small); the embedding weights are all kept
MIN_COUNT = 2
PRUNE = 0.1
DIMENSION = 384


def refuse_fresh(filename: str) -> None:
    """Raise where ``filename`` is a fresh held-out set (stop 36's by name, or any newer than ``NEWEST_READ``)."""
    name = filename.replace("-", "_").lower()
    if any(f in name for f in FRESH):
        raise SystemExit(f"{filename}: a fresh held-out set; the embedding reader is never fitted or estimated on it")
    for number in re.findall(r"held_?out(\d+)", name):
        if int(number) > NEWEST_READ:
            raise SystemExit(f"{filename}: a fresh held-out set; the embedding reader is never fitted or estimated on it")


def load(name: str, sets: dict[str, str] = SETS) -> list[dict]:
    refuse_fresh(sets[name])
    path = DATA / sets[name]
    return F.prepared([json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()])


def embed_rows(rows: list[dict], cache: Path | None = None) -> np.ndarray:
    """``SCALE`` times the unit embeddings of each row's utterance and context (zeros without one), side by side;
    ``cache``: an ``.npz`` file of embeddings from an earlier run, read and added to (the texts are its keys)."""
    texts = sorted({r["utterance"] for r in rows} | {r["context"] for r in rows if r.get("context")})
    vectors: dict[str, np.ndarray] = {}
    if cache is not None and cache.is_file():
        z = np.load(cache, allow_pickle=False)
        vectors = dict(zip(z["texts"].tolist(), z["vectors"]))
    missing = [t for t in texts if t not in vectors]
    if missing:
        vectors.update(zip(missing, embed(missing)))
        if cache is not None:
            keys = sorted(vectors)
            np.savez(cache, texts=np.array(keys), vectors=np.array([vectors[k] for k in keys], dtype=np.float32))
    zero = np.zeros(DIMENSION, dtype=np.float32)
    return SCALE * np.array([np.concatenate([vectors[r["utterance"]], vectors[r["context"]] if r.get("context") else zero])
                             for r in rows], dtype=np.float64)


class Fitted:
    """The reader fitted on ``rows``: stem vocabulary, stem weights, embedding weights (scale folded in), bias."""

    def __init__(self, rows: list[dict], topics: list[str]):
        import scipy.sparse as sp
        from sklearn.linear_model import LogisticRegression

        counts: dict[str, int] = {}
        for r in rows:
            for f in r["feats"][False]:
                counts[f] = counts.get(f, 0) + 1
        self.vocab = sorted(f for f, n in counts.items() if n >= MIN_COUNT)
        self.index = {f: i for i, f in enumerate(self.vocab)}
        x = sp.hstack([self.stems(rows), sp.csr_matrix(np.vstack([r["emb"] for r in rows]))]).tocsr()
        self.topics = [t for t in topics if sum(t in r["topics"] for r in rows) >= 2]
        self.w = np.zeros((len(self.vocab), len(self.topics)))
        self.d = np.zeros((2 * DIMENSION, len(self.topics)))
        self.b = np.zeros(len(self.topics))
        for j, t in enumerate(self.topics):
            y = np.array([t in r["topics"] for r in rows])
            m = LogisticRegression(C=C, solver="liblinear", max_iter=3000, random_state=0).fit(x, y)
            self.w[:, j] = m.coef_[0][: len(self.vocab)]
            self.d[:, j] = m.coef_[0][len(self.vocab):] * SCALE
            self.b[j] = m.intercept_[0]
        self.w[np.abs(self.w) < PRUNE] = 0.0
        self.w, self.d, self.b = self.w.round(4), self.d.round(5), self.b.round(4)

    def stems(self, rows: list[dict]):
        import scipy.sparse as sp

        x = sp.lil_matrix((len(rows), len(self.vocab)))
        for i, r in enumerate(rows):
            for f in r["feats"][False]:
                if f in self.index:
                    x[i, self.index[f]] = 1.0
        return x.tocsr()

    def probs(self, rows: list[dict]) -> list[dict[str, float]]:
        emb = np.vstack([r["emb"] for r in rows]) / SCALE
        z = self.stems(rows) @ self.w + emb @ self.d + self.b
        p = 1 / (1 + np.exp(-z))
        return [dict(zip(self.topics, row.tolist())) for row in p]


def mended(r: dict, probs: dict[str, float], rule: str) -> set[str]:
    """What the reader reads in a prepared row, as the patient's understand room reads it."""
    if rule == "plain":
        return set(plain_combine(r["cue"], probs, ADD_ABOVE, VETO_BELOW))
    return set(combine(r["cue"], probs, ADD_ABOVE, VETO_BELOW, CONFIRM_ABOVE, r["own"], r["seen"], r["before"],
                       reflection=is_reflection(r["utterance"]), vetoed_by_cue=r["held"]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--estimate", action="store_true", help="leave-one-set-out macro-F1 of heldout31-39, both readers")
    ap.add_argument("--write", action="store_true", help="fit on every set and write the shipped file")
    ap.add_argument("--topics", action="store_true", help="with --estimate: pooled F1 per topic, both readers")
    ap.add_argument("--cache", type=Path, default=None, help="an .npz file to keep the embeddings in between runs")
    args = ap.parse_args()
    if not (args.estimate or args.write):
        ap.error("nothing to do: pass --estimate and/or --write")
    topics = [t.id for t in load_taxonomy().topics]
    t0 = time.perf_counter()
    sets = {n: load(n) for n in SETS if (DATA / SETS[n]).is_file()}
    every = [r for rows in sets.values() for r in rows]
    for r, e in zip(every, embed_rows(every, args.cache)):
        r["emb"] = e
    print(f"sets: {', '.join(f'{n} {len(v)}' for n, v in sets.items())} (read and embedded in {time.perf_counter() - t0:.0f} s)")
    print(f"C={C} scale={SCALE} add_above={ADD_ABOVE} veto_below={VETO_BELOW} confirm_above={CONFIRM_ABOVE} shipped rule={RULE}",
          flush=True)
    if args.write:
        rows = [r for v in sets.values() for r in v]
        model = Fitted(rows, topics)
        weights: dict[str, dict[str, float]] = {}
        for f, i in model.index.items():
            row = {t: float(w) for t, w in zip(model.topics, model.w[i]) if w}
            if row:
                weights[f] = row
        for i in range(2 * DIMENSION):
            name = f"e:u{i}" if i < DIMENSION else f"e:c{i - DIMENSION}"
            weights[name] = {t: float(w) for t, w in zip(model.topics, model.d[i]) if w}
        out = {
            "format": EMBEDDING_FORMAT,
            "_about": "fitted by scripts/fit_embedding_topic_reader.py --write on all labelled sets of "
                      f"benchmarks/data/interview_topics*.jsonl up to heldout{NEWEST_READ} ({len(rows)} utterances); L2 logistic "
                      f"regression per topic over the stem features and {SCALE:g} x the all-MiniLM-L6-v2 embeddings of "
                      f"the utterance (e:u) and the previous turn (e:c), C={C}; the e: weights apply to the unit "
                      "embeddings (the scale is folded in)",
            "embedder": "all-MiniLM-L6-v2",
            "dimension": DIMENSION,
            "topics": model.topics,
            "bias": [float(b) for b in model.b],
            "cue_features": False,
            "combine": {"rule": RULE, "add_above": ADD_ABOVE, "veto_below": VETO_BELOW, "confirm_above": CONFIRM_ABOVE},
            "weights": weights,
        }
        OUT.write_text(topic_model_text(out), "utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}: {len(model.topics)} topics, {len(weights) - 2 * DIMENSION} stem features, "
              f"{2 * DIMENSION} embedding dimensions, {OUT.stat().st_size // 1024} KiB")
    if args.estimate:
        print("\nleave-one-set-out macro-F1 (fitted on every other set, train31 in; the cues were tuned on most sets):")
        print(f"  {'set':<10} {'n':>4}  cues   fast   emb-guarded  emb-plain")
        sums = np.zeros(4)
        pooled: dict[str, list] = {"fast": [], "guarded": [], "plain": []}
        for out in ESTIMATE:
            if out not in sets:
                continue
            held = sets[out]
            fit = [r for n, rows in sets.items() if n != out for r in rows]
            gold = [set(r["topics"]) for r in held]
            fast_model = F.Reader(F.reading_rows(fit), topics, F.C, F.VECTOR_SCALE)
            fast = F.read_sets(held, fast_model.probs(F.reading_rows(held)), fast_model.topics)
            emb_p = Fitted(fit, topics).probs(held)
            guarded = [mended(r, p, "guarded") for r, p in zip(held, emb_p)]
            plain = [mended(r, p, "plain") for r, p in zip(held, emb_p)]
            scores = [F.macro_f1(gold, [set(r["cue"]) for r in held]), F.macro_f1(gold, fast),
                      F.macro_f1(gold, guarded), F.macro_f1(gold, plain)]
            sums += scores
            pooled["fast"] += list(zip(held, fast))
            pooled["guarded"] += list(zip(held, guarded))
            pooled["plain"] += list(zip(held, plain))
            print(f"  {out:<10} {len(held):>4}  {scores[0]:.3f}  {scores[1]:.3f}  {scores[2]:.3f}        {scores[3]:.3f}",
                  flush=True)
        k = sum(1 for n in ESTIMATE if n in sets)
        print(f"  {'mean':<10} {'':>4}  " + "  ".join(f"{s / k:.3f}" for s in sums[:2])
              + f"  {sums[2] / k:.3f}        {sums[3] / k:.3f}")
        if args.topics:
            rows = [r for r, _ in pooled["fast"]]
            per = {k: F.per_topic(rows, [p for _, p in v]) for k, v in pooled.items()}
            print("\npooled over the left-out sets, per topic (worst under the guarded rule first): fast, emb-guarded,"
                  " emb-plain F1, support")
            for t, (f, n) in sorted(per["guarded"].items(), key=lambda kv: kv[1][0]):
                print(f"  {t:<24} {per['fast'][t][0]:.3f}  {f:.3f}  {per['plain'][t][0]:.3f}  {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
