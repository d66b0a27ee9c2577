"""Fit the fact filing's topic model (``mentalhospital_env/patient/data/fact_topic_model.json``).

A record sentence is filed under the topics its section names and under those whose record cue words it holds
(:func:`mentalhospital_env.patient.understanding.record_topics`). One word is a poor judge of what a sentence
answers: "He drinks no coffee now because he fears it triggers the attacks" holds "drinks", and "not drinking
half what she does at home" is an old woman's fluids, not alcohol. This script fits a multi-label linear model
(one L2 logistic regression per topic, scikit-learn's liblinear; scikit-learn is a dev dependency, never needed
at run time) over :func:`mentalhospital_env.patient.topic_model.fact_features` (the sentence's stems and stem
pairs, its section, the topics its cue words found) on record sentences labelled by hand with the topics they
answer, and writes its weights as data; the filing reads them with numpy (see
:func:`mentalhospital_env.patient.understanding.file_fact`): a topic a cue word found is dropped where the model
is sure the sentence does not answer it, a topic no cue word found is added where it is sure it does.

    python scripts/fit_fact_topic_model.py --estimate   # leave-one-record-out, and fitted -> the held-out split
    python scripts/fit_fact_topic_model.py --write      # fit on the fitting splits and write the shipped file

Fitting data: ``fact_topics.jsonl``'s ``tune`` split, ``fact_topics_train31.jsonl`` and ``fact_topics_train32.jsonl``
(342 sentences of ten more records; each written and committed before any code of the filing ran on it). ``fact_topics.jsonl``'s ``heldout`` split (four records) is never
fitted on: ``--estimate`` measures it once, with thresholds chosen by leave-one-record-out on the fitting data
alone. Files named *heldout3x* are never read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mentalhospital_env.knowledge.language import stems_of
from mentalhospital_env.patient.topic_model import FORMAT, fact_features, topic_model_text
from mentalhospital_env.patient.understanding import cue_topics_of_fact, file_fact, load_taxonomy

DATA = ROOT / "benchmarks" / "data"
FILES = ("fact_topics.jsonl", "fact_topics_train31.jsonl", "fact_topics_train32.jsonl")
FIT_SPLITS = ("tune", "train31", "train32")
HELD_OUT_SPLIT = "heldout"
OUT = ROOT / "mentalhospital_env" / "patient" / "data" / "fact_topic_model.json"
#: regularisation and pruning as the utterance model's (scripts/fit_topic_model.py); features seen once are
#: kept, since a record sentence's words are sparser than a question's
C = 1.0
MIN_COUNT = 1
PRUNE = 0.1
#: the thresholds tried by leave-one-record-out on the fitting data; the best by micro-F1 is shipped
VETO_GRID = (0.0, 0.1, 0.2, 0.3, 0.4)
#: the model adds no topic (2.0: never): with stop 32's data leave-one-record-out would add at 0.7 (micro-F1 0.742 against
#: 0.736 for vetoes only), but an added topic puts a sentence into more answers, and on the patient exam the adds made
#: 12 fine replies unnatural and 5 not answering (a referral sentence, filed under the chief complaint, tacked onto every
#: opening reply: "I'm so ashamed. My family pushed me to see the doctor."); vetoes only left those replies as they were
ADD_GRID = (2.0,)
CONFIRM_ABOVE = 0.5
#: topics never dropped from a sentence whose cue words found them: a risk the record mentions is never unfiled
KEEP = ("suicide", "self_harm", "violence")
#: nor a topic with fewer labelled sentences than this in the fitting data (5 of 0, 5, 8, 12 by leave-one-record-out):
#: the model has not seen enough of it to overrule a cue word ("She was admitted to hospital in 2019" with four
#: sentences labelled admissions)
MIN_SUPPORT = 5


def load() -> list[dict]:
    rows = []
    for name in FILES:
        assert "heldout3" not in name and "held_out3" not in name
        for line in (DATA / name).read_text("utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    for r in rows:
        r["section_topics"], r["cue"] = cue_topics_of_fact(r["section"], r["text"])
        r["feats"] = fact_features(stems_of(r["text"]), r["section"], r["cue"])
    return rows


class Fitted:
    def __init__(self, rows: list[dict], topics: list[str]):
        from sklearn.linear_model import LogisticRegression

        counts: dict[str, int] = {}
        for r in rows:
            for f in r["feats"]:
                counts[f] = counts.get(f, 0) + 1
        self.vocab = sorted(f for f, n in counts.items() if n >= MIN_COUNT)
        self.index = {f: i for i, f in enumerate(self.vocab)}
        self.topics = topics
        x = self.matrix(rows)
        self.w = np.zeros((len(self.vocab), len(topics)))
        self.b = np.full(len(topics), -8.0)
        for j, t in enumerate(topics):
            y = np.array([t in r["topics"] for r in rows])
            if y.sum() == 0:
                continue
            if y.all():
                self.b[j] = 8.0
                continue
            m = LogisticRegression(C=C, solver="liblinear", max_iter=1000)
            m.fit(x, y)
            self.w[:, j] = m.coef_[0]
            self.b[j] = m.intercept_[0]
        self.w[np.abs(self.w) < PRUNE] = 0.0
        self.w, self.b = self.w.round(4), self.b.round(4)

    def matrix(self, rows: list[dict]) -> np.ndarray:
        x = np.zeros((len(rows), len(self.vocab)))
        for i, r in enumerate(rows):
            for f in r["feats"]:
                if f in self.index:
                    x[i, self.index[f]] = 1.0
        return x

    def probs(self, rows: list[dict]) -> list[dict[str, float]]:
        p = 1 / (1 + np.exp(-(self.matrix(rows) @ self.w + self.b)))
        return [dict(zip(self.topics, row.tolist())) for row in p]


def kept(fit: list[dict], topics: list[str]) -> list[str]:
    """The topics the model never drops: the risks, and those with too few labelled sentences in ``fit``."""
    support = {t: sum(1 for r in fit if t in r["topics"]) for t in topics}
    return [t for t in topics if t in KEEP or support[t] < MIN_SUPPORT]


def filed(rows: list[dict], probs: list[dict] | None, veto: float, add: float, keep=KEEP) -> list[set[str]]:
    if probs is None:
        return [set(r["section_topics"]) | set(r["cue"]) for r in rows]
    return [set(file_fact(r["section_topics"], r["cue"], p, add, veto, CONFIRM_ABOVE, keep)) for r, p in zip(rows, probs)]


def micro(rows: list[dict], pred: list[set[str]]) -> tuple[float, float, float, int, int]:
    gold = [set(r["topics"]) for r in rows]
    tp = sum(len(g & p) for g, p in zip(gold, pred))
    fp = sum(len(p - g) for g, p in zip(gold, pred))
    fn = sum(len(g - p) for g, p in zip(gold, pred))
    prec, rec = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return prec, rec, 2 * tp / max(1, 2 * tp + fp + fn), fp, fn


def line(name: str, rows: list[dict], pred: list[set[str]]) -> str:
    p, r, f, fp, fn = micro(rows, pred)
    return f"  {name:<28} micro precision {p:.3f}  recall {r:.3f}  F1 {f:.3f}  wrong topics {fp}  missed {fn}"


def loro(fit: list[dict], topics: list[str]) -> dict[str, list[dict]]:
    """Each fitting record's probabilities from a model fitted on the other records."""
    out = {}
    for rec in sorted({r["record"] for r in fit}):
        rest = [r for r in fit if r["record"] != rec]
        model = Fitted(rest, topics)
        part = [r for r in fit if r["record"] == rec]
        out[rec] = (model.probs(part), kept(rest, topics))
    return out


def loro_filed(by_rec: dict, fit: list[dict], veto: float, add: float) -> list[set[str]]:
    out = []
    for rec in sorted(by_rec):
        part = [r for r in fit if r["record"] == rec]
        probs, keep = by_rec[rec]
        out += filed(part, probs, veto, add, keep)
    return out


#: a topic the model may drop where its leave-one-record-out vetoes were right at least this often: a dropped topic
#: costs an answer (a fact no question reaches) and a kept extra one rarely does, so a veto must be right about six times
#: in seven. Stop 31 asked for no wrong veto at all (4 topics); with stop 32's 342 more sentences the estimate has
#: enough vetoes to tell a topic whose vetoes are nearly always right (course: 12 right, 1 wrong) from one whose are
#: not (energy: 3 right, 2 wrong)
MIN_PRECISION = 0.85
MIN_RIGHT = 2


def reliable(good: dict[str, int], bad: dict[str, int], topics: list[str]) -> set[str]:
    """The topics whose leave-one-record-out vetoes (:func:`veto_counts`) were right at least ``MIN_RIGHT`` times
    and at least ``MIN_PRECISION`` of the time: the model may overrule a cue word only for topics where it has
    shown it can."""
    return {t for t in topics if good.get(t, 0) >= MIN_RIGHT and good.get(t, 0) >= MIN_PRECISION * (good.get(t, 0) + bad.get(t, 0))}


def veto_counts(by_rec: dict, fit: list[dict], veto: float) -> tuple[dict[str, int], dict[str, int]]:
    """How often each topic's leave-one-record-out veto (a cue word's topic dropped) was right and wrong."""
    good: dict[str, int] = {}
    bad: dict[str, int] = {}
    for rec in sorted(by_rec):
        part = [r for r in fit if r["record"] == rec]
        probs, keep = by_rec[rec]
        for r, after in zip(part, filed(part, probs, veto, 2.0, keep)):
            for t in set(r["cue"]) - after:
                (good if t not in r["topics"] else bad)[t] = (good if t not in r["topics"] else bad).get(t, 0) + 1
    return good, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--estimate", action="store_true", help="leave-one-record-out on the fitting data, then the held-out split")
    ap.add_argument("--write", action="store_true", help="fit on the fitting splits and write the shipped file")
    ap.add_argument("--show", action="store_true", help="with --estimate: every held-out filing the model changes")
    ap.add_argument("--veto", type=float, default=None)
    ap.add_argument("--add", type=float, default=None)
    args = ap.parse_args()
    topics = [t.id for t in load_taxonomy().topics]
    rows = load()
    fit = [r for r in rows if r["split"] in FIT_SPLITS]
    held = [r for r in rows if r["split"] == HELD_OUT_SPLIT]
    print(f"fitting data: {len(fit)} sentences of {len({r['record'] for r in fit})} records; held out: {len(held)} "
          f"sentences of {len({r['record'] for r in held})} records")
    by_rec = loro(fit, topics)
    ordered = [r for rec in sorted(by_rec) for r in fit if r["record"] == rec]
    grid = {(v, a): micro(ordered, loro_filed(by_rec, fit, v, a))[2] for v in VETO_GRID for a in ADD_GRID}
    veto, add = max(grid, key=lambda k: (round(grid[k], 4), -k[0], k[1]))
    veto = veto if args.veto is None else args.veto
    add = add if args.add is None else args.add
    good, bad = veto_counts(by_rec, fit, veto)  # counted once: the choice below and --estimate's table read it
    vetoable = reliable(good, bad, topics)
    print(f"topics the model may drop (leave-one-record-out vetoes right at least {MIN_RIGHT} times and at least "
          f"{MIN_PRECISION:.0%} of the time): {sorted(vetoable)}")
    if args.estimate:
        print("  leave-one-record-out vetoes per topic, right/wrong: " + ", ".join(
            f"{t} {good.get(t, 0)}/{bad.get(t, 0)}" for t in sorted(set(good) | set(bad), key=lambda t: -good.get(t, 0))))
    print(f"C={C}; chosen by leave-one-record-out micro-F1: veto_below={veto} add_above={add} confirm_above={CONFIRM_ABOVE}")
    if args.estimate:
        print("\nleave-one-record-out on the fitting data (each record filed by a model fitted on the others):")
        print(line("cue words alone", ordered, filed(ordered, None, 0, 2)))
        print(line("cues + model", ordered, loro_filed(by_rec, fit, veto, add)))
        print(line("cues + model, vetoes only", ordered, loro_filed(by_rec, fit, veto, 2.0)))
        for (v, a), f in sorted(grid.items()):
            print(f"    veto {v:<4} add {a:<4} micro-F1 {f:.3f}")
        model = Fitted(fit, topics)
        hp = model.probs(held)
        keep = sorted(set(kept(fit, topics)) | (set(topics) - vetoable))
        print(f"\nfitted on all fitting data, the held-out split ({len(held)} sentences, never fitted on):")
        print(line("cue words alone", held, filed(held, None, 0, 2)))
        print(line("cues + model", held, filed(held, hp, veto, add, keep)))
        print(line("cues + model, vetoes only", held, filed(held, hp, veto, 2.0, keep)))
        if args.show:
            for r, before, after in zip(held, filed(held, None, 0, 2), filed(held, hp, veto, add, keep)):
                if before != after:
                    g = set(r["topics"])
                    mark = "+" if len(after ^ g) < len(before ^ g) else ("-" if len(after ^ g) > len(before ^ g) else "~")
                    print(f"    {mark} {r['text'][:90]!r} gold {sorted(g)} cues {sorted(before)} -> {sorted(after)}")
    if args.write:
        model = Fitted(fit, topics)
        weights = {}
        for f, i in model.index.items():
            row = {t: float(w) for t, w in zip(topics, model.w[i]) if w}
            if row:
                weights[f] = row
        out = {
            "format": FORMAT,
            "_about": "fitted by scripts/fit_fact_topic_model.py --write on the hand-labelled record sentences of "
                      f"benchmarks/data/fact_topics.jsonl (split tune), fact_topics_train31.jsonl and fact_topics_train32.jsonl ({len(fit)} "
                      f"sentences); L2 logistic regression per topic, C={C}; thresholds by leave-one-record-out; "
                      f"combine.keep: the risks, the topics with fewer than {MIN_SUPPORT} labelled sentences and those "
                      f"whose leave-one-record-out vetoes were not right at least {MIN_RIGHT} times and {MIN_PRECISION:.0%} of the time",
            "topics": topics,
            "bias": [float(b) for b in model.b],
            "cue_features": True,
            "combine": {"add_above": add, "veto_below": veto, "confirm_above": CONFIRM_ABOVE, "keep": sorted(set(kept(fit, topics)) | (set(topics) - vetoable))},
            "weights": weights,
        }
        OUT.write_text(topic_model_text(out), "utf-8")  # one feature a line: a diff shows what changed
        print(f"wrote {OUT.relative_to(ROOT)}: {len(weights)} features, {OUT.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
