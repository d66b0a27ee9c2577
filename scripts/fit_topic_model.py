"""Fit the understand room's topic model (``mentalhospital_env/patient/data/topic_model.json``).

A multi-label linear model (one L2 logistic regression per topic, scikit-learn's liblinear; scikit-learn
is a dev dependency, never needed at run time) over the features of
:func:`mentalhospital_env.patient.topic_model.features`, fitted on the hand-labelled doctor utterances of
``benchmarks/data/interview_topics*.jsonl``. Deterministic: same data, same file.

    python scripts/fit_topic_model.py --estimate           # leave-one-set-out macro-F1 of every set
    python scripts/fit_topic_model.py --estimate --topics  # and pooled F1 per topic
    python scripts/fit_topic_model.py --show               # the readings it changes on heldout32 and heldout33
    python scripts/fit_topic_model.py --write              # fit on every set and write the shipped file

The hyperparameters are fixed constants below (see there why). ``--estimate`` fits on all labelled sets but one
and scores the one left out, for each set in turn: cues alone against cues with the model, and, where a
training-only set (stop 31's ``train31``) is there, the model fitted without it and with it. The cues were tuned
on every set but heldout30 and heldout31 (heldout32's errors were read at stop 33, heldout33's read and tuned on at stop
34), so the cue column is a fitted figure except there; the model never saw the set it is scored on. The shipped file (``--write``) is fitted on every set. A held-out set newer than ``NEWEST_READ`` is
refused by name (it is a fresh set that others measure on).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mentalhospital_env.patient.topic_model import FORMAT, features, topic_model_text
from mentalhospital_env.patient.understanding import (
    combine,
    cue_reading,
    cue_seen,
    cue_vetoed,
    load_taxonomy,
    model_input,
)

DATA = ROOT / "benchmarks" / "data"
#: every labelled set the model is fitted on: the sixteen sets of stops 20-39 (all read, all development data now: stop
#: 31's fresh set from stop 32, stop 32's and stop 33's from stop 34, stop 34's from stop 35, stop 35's to 39's from stop
#: 40, once their figures were taken; the cues were tuned on heldout33 at stop 34 and on heldout37 at stop 38) and stop
#: 31's training set (written for fitting only: no cue was tuned on it)
SETS = {
    "main": "interview_topics.jsonl",
    "heldout": "interview_topics_heldout.jsonl",
    "heldout22": "interview_topics_heldout22.jsonl",
    "heldout24": "interview_topics_heldout24.jsonl",
    "heldout28": "interview_topics_heldout28.jsonl",
    "heldout29": "interview_topics_heldout29.jsonl",
    "heldout30": "interview_topics_heldout30.jsonl",
    "heldout31": "interview_topics_heldout31.jsonl",
    "train31": "interview_topics_train31.jsonl",
    "heldout32": "interview_topics_heldout32.jsonl",
    "heldout33": "interview_topics_heldout33.jsonl",
    "heldout34": "interview_topics_heldout34.jsonl",
    "heldout35": "interview_topics_heldout35.jsonl",
    "heldout36": "interview_topics_heldout36.jsonl",
    "heldout37": "interview_topics_heldout37.jsonl",
    "heldout38": "interview_topics_heldout38.jsonl",
    "heldout39": "interview_topics_heldout39.jsonl",
    "heldout40": "interview_topics_heldout40.jsonl",
    # stop 45: development data since stops 42 to 44
    "heldout41": "interview_topics_heldout41.jsonl",
    "heldout42": "interview_topics_heldout42.jsonl",
    "heldout43": "interview_topics_heldout43.jsonl",
}
#: sets written to fit the model only: fitted on, never left out in the mean (nobody measures on them)
TRAIN_ONLY = ("train31",)
#: the sets --show reads by default (the two newest development sets)
SHOW = ("heldout42", "heldout43")
#: the sets --estimate leaves out in turn by default (stop 40: the nine sets written by writers who read no code; the
#: older ones stay in every fitting); --estimate-all leaves out every measured set
ESTIMATE = tuple(f"heldout{n}" for n in range(36, 44))
#: held-out sets are numbered by the stop that wrote them; one newer than the newest set above is a fresh set that
#: somebody else measures on, and the script refuses to read it whatever its name
NEWEST_READ = 43
#: stop 44's set (heldout44, the check of stop 45's refit: never fitted on) and stop 45's (heldout45, written in another
#: worktree at stop 45) are refused by name too, whatever NEWEST_READ says: a fresh set's figure is for the stop that
#: wrote it. Stop 43 moved heldout40 into the fitting; stop 45 moved heldout41 to heldout43 (development data since the
#: stops after they were written: their figures were taken, their errors read) into it and keeps heldout44 out as its check
FRESH = ("heldout44", "held_out44", "heldout45", "held_out45")
OUT = ROOT / "mentalhospital_env" / "patient" / "data" / "topic_model.json"
#: fixed at stop 30 before any figure of heldout29 or heldout24 was seen with the model, and left unchanged at stop 31
#: before any per-set figure of the seven-set leave-one-set-out was printed: an independent reader (no cue features, so
#: it does not learn to echo cues fitted to its own training sets), moderate regularisation, adds at 0.7, drops under
#: 0.05. Stop 35 tried settings re-chosen by the best leave-one-set-out mean over a grid (C 4, veto under 0.1 where
#: another topic is confirmed at 0.3: mean 0.886 against 0.880, chosen before heldout35 existed). On heldout35 they read
#: 0.686 against 0.668 for these, but the patient exam (benchmarks/patient_exam.py, graded apart from the patient) lost
#: seven replies with them: "Has it affected your work?" answered "No. I don't spend everything on it." (dev-0002,
#: dev-0038, dev-0049: a money topic added), "When did you have your last drink?" answered with how much (dev-0024).
#: The exam reads what the patient says, so these stay.
#: Stop 36 refitted these settings with heldout35 in the fitting (4693 utterances) on the merged build and did not ship
#: it: stop 36's fresh set heldout36 read 0.789 with it against 0.782 for the shipped model (fitted to heldout34), and
#: the patient exam lost three replies ("Has the sertraline helped?" answered with the list of every drug he takes,
#: hw-028; citalopram at 27 tacked onto a suicide screen, hw-003; a food-refusal paragraph tacked onto how many foods
#: she eats, hw-035). heldout35 stays out of the fitting until a refit helps the exam as well as the labels.
#: Stop 42 changed the combination, not the model (the weights are those of stop 40's fitting). Read by root cause over
#: heldout39-41, most wrong readings were a topic asked in words no cue was written for (heldout41: 155 of 230 wrong
#: readings) and the second topic of a compound question missed (98): at 0.7 the model, which reads those words, was
#: let add almost nothing. Leave-one-set-out over heldout31-39 (mean macro-F1): 0.811 at 0.7; 0.822 at 0.3 everywhere;
#: 0.823 at 0.3 where the cues read no topic of substance and 0.5 beside one (ADD_ALONE_ABOVE, ADD_ABOVE); 0.822 with
#: the complaint and its frame (kind presentation) kept at 0.7 (ADD_FRAME_ABOVE). 0.3 everywhere was not kept: it read
#: "Any thoughts of harming yourself?" as violence and suicide too (0.41 each) and "Was your mum angry that you'd been
#: drinking?" as family history, and the patient exam lost five replies ("Hard to say. I'm not sure." to a self-harm
#: screen, hw-010); the frame's own bar keeps "Margaret found you in the garage with a rope. Can you tell me about
#: that?" from being read as the open question (the exam, hw-015). heldout40 and heldout41 were scored only after the
#: choice: 0.783 -> 0.793 and 0.722 -> 0.735 with the follow model (scripts/fit_follow_model.py).
C = 1.0
CUE_FEATURES = False
ADD_ABOVE = 0.5
ADD_ALONE_ABOVE = 0.3
ADD_FRAME_ABOVE = 0.7
VETO_BELOW = 0.05
CONFIRM_ABOVE = 0.5
#: stop 43: a topic the previous turn asked about is added where the model reads it at this probability or more
#: (``combine.add_before_above``; until then never: the follow-up rule alone carried a topic on). The model reads the
#: previous turn's words (``c:`` features), and it read "Do you worry about having another one?" after "Have you ever
#: had a panic attack?" as panic at 0.93, "Do you ever forget to take it?" after "Are you on any medication?" as
#: medication at 0.97, where the follow-up rule carried nothing. Chosen on heldout40 with the model fitted up to
#: heldout39 (0.793 without, 0.799 at 0.7, 0.801 at 0.5); 0.7 rather than 0.5 because the labelled sets hardly hold
#: follow-ups that change the subject (stop 42), where a lower bar would carry the old topic wrongly
ADD_BEFORE_ABOVE = 0.7
#: weights smaller than this are dropped (in the estimate too, so that it measures the shipped form): the file
#: stays small enough to read and review
PRUNE = 0.1


def refuse_fresh(filename: str) -> None:
    """Raise where ``filename`` is a held-out set newer than the newest one read (a fresh set measured by others)."""
    if any(name in filename.replace("-", "_") for name in FRESH):
        raise SystemExit(f"{filename}: a fresh held-out set; the topic model is never fitted or estimated on it")
    for number in re.findall(r"held_?out(\d+)", filename.replace("-", "_")):
        if int(number) > NEWEST_READ:
            raise SystemExit(f"{filename}: a fresh held-out set; the topic model is never fitted or estimated on it")


def load(name: str) -> list[dict]:
    refuse_fresh(SETS[name])
    return prepared([json.loads(line) for line in (DATA / SETS[name]).read_text("utf-8").splitlines() if line.strip()])


def prepared(rows: list[dict]) -> list[dict]:
    """Labelled rows with what the fitting reads: the cues' reading (``cue``, ``seen``, ``before``, ``own``) and the
    model's features with and without cue features (``feats``); ``scripts/fit_embedding_topic_reader.py`` shares it."""
    for r in rows:
        cue = cue_reading(r["utterance"], r.get("context"))
        stemmed, ctx = model_input(r["utterance"], r.get("context"))
        r["cue"] = list(cue.topics)
        r["seen"] = cue_seen(stemmed)
        r["held"] = cue_vetoed(stemmed)
        r["before"] = list(cue_reading(r["context"]).topics) if r.get("context") else []
        r["own"] = list(cue_reading(r["utterance"]).topics) if r.get("context") else list(cue.topics)
        r["feats"] = {True: features(stemmed, ctx, cue.topics), False: features(stemmed, ctx, ())}
    return rows


def macro_f1(gold: list[set[str]], pred: list[set[str]]) -> float:
    f1s = []
    for t in sorted(set().union(*gold)):
        tp = sum(1 for g, p in zip(gold, pred) if t in g and t in p)
        fp = sum(1 for g, p in zip(gold, pred) if t not in g and t in p)
        fn = sum(1 for g, p in zip(gold, pred) if t in g and t not in p)
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(f1s) / len(f1s)


def vocabulary(feature_lists, min_count: int) -> tuple[list[str], dict[str, int]]:
    """The features seen in at least ``min_count`` of the lists, sorted, and each one's column."""
    counts: dict[str, int] = {}
    for feats in feature_lists:
        for f in feats:
            counts[f] = counts.get(f, 0) + 1
    vocab = sorted(f for f, n in counts.items() if n >= min_count)
    return vocab, {f: i for i, f in enumerate(vocab)}


class Fitted:
    def __init__(self, rows: list[dict], topics: list[str], c: float, cues: bool, min_count: int = 2):
        from sklearn.linear_model import LogisticRegression

        self.vocab, self.index = vocabulary((r["feats"][cues] for r in rows), min_count)
        self.cues, self.topics = cues, topics
        x = self.matrix(rows)
        self.w = np.zeros((len(self.vocab), len(topics)))
        self.b = np.full(len(topics), -8.0)
        for j, t in enumerate(topics):
            y = np.array([t in r["topics"] for r in rows])
            if y.sum() == 0:
                continue
            m = LogisticRegression(C=c, solver="liblinear", max_iter=1000)
            m.fit(x, y)
            self.w[:, j] = m.coef_[0]
            self.b[j] = m.intercept_[0]
        self.w[np.abs(self.w) < PRUNE] = 0.0
        self.w, self.b = self.w.round(4), self.b.round(4)

    def matrix(self, rows: list[dict]):
        """The rows' binary features as a sparse matrix (liblinear fits the same weights as on a dense one, in a
        fraction of the time)."""
        import scipy.sparse as sp

        ri, ci = [], []
        for i, r in enumerate(rows):
            for f in r["feats"][self.cues]:
                j = self.index.get(f)
                if j is not None:
                    ri.append(i)
                    ci.append(j)
        return sp.csr_matrix((np.ones(len(ri)), (ri, ci)), shape=(len(rows), len(self.vocab)))

    def probs(self, rows: list[dict]) -> list[dict[str, float]]:
        p = 1 / (1 + np.exp(-(np.asarray(self.matrix(rows) @ self.w) + self.b)))
        return [dict(zip(self.topics, row.tolist())) for row in p]


def scored(rows: list[dict], probs: list[dict], add: float | None = None, veto: float | None = None) -> float:
    add = ADD_ABOVE if add is None else add
    veto = VETO_BELOW if veto is None else veto
    gold = [set(r["topics"]) for r in rows]
    return macro_f1(gold, [set(combine(r["cue"], p, add, veto, CONFIRM_ABOVE, r["own"], r["seen"], r["before"], vetoed_by_cue=r["held"], add_alone=ADD_ALONE_ABOVE, add_frame=ADD_FRAME_ABOVE, add_before=ADD_BEFORE_ABOVE)) for r, p in zip(rows, probs)])


def per_topic(rows: list[dict], preds: list[set[str]]) -> dict[str, tuple[float, int]]:
    """F1 and support of each gold topic."""
    out = {}
    for t in sorted(set().union(*(set(r["topics"]) for r in rows))):
        tp = sum(1 for r, p in zip(rows, preds) if t in r["topics"] and t in p)
        fp = sum(1 for r, p in zip(rows, preds) if t not in r["topics"] and t in p)
        fn = sum(1 for r, p in zip(rows, preds) if t in r["topics"] and t not in p)
        out[t] = (2 * tp / (2 * tp + fp + fn) if tp else 0.0, tp + fn)
    return out


def precision_recall(rows: list[dict], preds: list[set[str]]) -> dict[str, tuple[float, float]]:
    """Precision and recall of each gold topic."""
    out = {}
    for t in sorted(set().union(*(set(r["topics"]) for r in rows))):
        tp = sum(1 for r, p in zip(rows, preds) if t in r["topics"] and t in p)
        fp = sum(1 for r, p in zip(rows, preds) if t not in r["topics"] and t in p)
        fn = sum(1 for r, p in zip(rows, preds) if t in r["topics"] and t not in p)
        out[t] = (tp / (tp + fp) if tp + fp else 0.0, tp / (tp + fn) if tp + fn else 0.0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--estimate", action="store_true", help="leave-one-set-out macro-F1 of every set, cues alone and with the model")
    ap.add_argument("--write", action="store_true", help="fit on every set and write the shipped file")
    ap.add_argument("--show", nargs="*", metavar="SET", help="every reading the left-one-out model changes on these "
                    f"sets (default {' '.join(SHOW)}), marked + right, - wrong, ~ still wrong")
    ap.add_argument("--topics", action="store_true", help="with --estimate: pooled leave-one-set-out F1 per topic")
    ap.add_argument("--estimate-all", action="store_true", help=f"with --estimate: leave out every measured set, not "
                    f"only {ESTIMATE[0]}-{ESTIMATE[-1]}")
    ap.add_argument("--without-training-sets", action="store_true", help=f"with --show: fit without {', '.join(TRAIN_ONLY)}")
    args = ap.parse_args()
    topics = [t.id for t in load_taxonomy().topics]
    sets = {n: load(n) for n in SETS if (DATA / SETS[n]).is_file()}
    measured = [n for n in sets if n not in TRAIN_ONLY]
    extra = [n for n in sets if n in TRAIN_ONLY]
    cue_only = {n: macro_f1([set(r["topics"]) for r in rows], [set(r["cue"]) for r in rows]) for n, rows in sets.items()}
    print(f"C={C} cue features={CUE_FEATURES} add_above={ADD_ABOVE} add_alone_above={ADD_ALONE_ABOVE} add_frame_above={ADD_FRAME_ABOVE} veto_below={VETO_BELOW} confirm_above={CONFIRM_ABOVE}")
    print("sets: " + ", ".join(f"{n} {len(sets[n])}" for n in sets))

    def left_out(out: str, with_extra: bool) -> list[dict]:
        fit = [r for n in measured if n != out for r in sets[n]] + ([r for n in extra for r in sets[n]] if with_extra else [])
        return Fitted(fit, topics, C, CUE_FEATURES).probs(sets[out])

    if args.estimate:
        print("\nleave-one-set-out: fitted on the other sets, macro-F1 of the left-out set (the cues were tuned on every"
              " set but heldout30 and heldout31, so their figure is a fitted one elsewhere; the model's is not)")
        head = f"  {'set':<10} {'n':>4}  cues   +model"
        if extra:
            head += f"  +model with {'+'.join(extra)}"
        print(head)
        sums = [0.0, 0.0, 0.0]
        pooled: dict[bool, list] = {False: [], True: []}
        left = measured if args.estimate_all else [n for n in ESTIMATE if n in sets]
        for out in left:
            p0 = left_out(out, False)
            s0 = scored(sets[out], p0)
            line = f"  {out:<10} {len(sets[out]):>4}  {cue_only[out]:.3f}  {s0:.3f}"
            sums[0] += cue_only[out]
            sums[1] += s0
            pooled[False] += [(r, set(combine(r["cue"], pr, ADD_ABOVE, VETO_BELOW, CONFIRM_ABOVE, r["own"], r["seen"], r["before"], vetoed_by_cue=r["held"], add_alone=ADD_ALONE_ABOVE, add_frame=ADD_FRAME_ABOVE, add_before=ADD_BEFORE_ABOVE)))
                              for r, pr in zip(sets[out], p0)]
            if extra:
                p1 = left_out(out, True)
                s1 = scored(sets[out], p1)
                sums[2] += s1
                line += f"   {s1:.3f}"
                pooled[True] += [(r, set(combine(r["cue"], pr, ADD_ABOVE, VETO_BELOW, CONFIRM_ABOVE, r["own"], r["seen"], r["before"], vetoed_by_cue=r["held"], add_alone=ADD_ALONE_ABOVE, add_frame=ADD_FRAME_ABOVE, add_before=ADD_BEFORE_ABOVE)))
                                 for r, pr in zip(sets[out], p1)]
            print(line, flush=True)
        k = len(left)
        line = f"  {'mean':<10} {'':>4}  {sums[0] / k:.3f}  {sums[1] / k:.3f}"
        print(line + (f"   {sums[2] / k:.3f}" if extra else ""))
        if args.topics:
            key = bool(extra)
            rows = [r for r, _ in pooled[key]]
            model_t = per_topic(rows, [p for _, p in pooled[key]])
            cue_t = per_topic(rows, [set(r["cue"]) for r in rows])
            pr = precision_recall(rows, [p for _, p in pooled[key]])
            print("\npooled over the left-out sets, per topic (worst first): cues F1, cues+model F1, precision, recall, "
                  "support")
            for t, (f, n) in sorted(model_t.items(), key=lambda kv: kv[1][0]):
                print(f"  {t:<24} {cue_t[t][0]:.3f}  {f:.3f}  {pr[t][0]:.3f}  {pr[t][1]:.3f}  {n}")
    if args.show is not None:
        for n in args.show or SHOW:
            p = left_out(n, bool(extra) and not args.without_training_sets)
            print(f"\n{n}: readings the model (fitted on the other sets) changes")
            for r, pr in zip(sets[n], p):
                got = combine(r["cue"], pr, ADD_ABOVE, VETO_BELOW, CONFIRM_ABOVE, r["own"], r["seen"], r["before"], vetoed_by_cue=r["held"], add_alone=ADD_ALONE_ABOVE, add_frame=ADD_FRAME_ABOVE, add_before=ADD_BEFORE_ABOVE)
                if set(got) != set(r["cue"]):
                    mark = "+" if set(got) == set(r["topics"]) else ("-" if set(r["cue"]) == set(r["topics"]) else "~")
                    ctx = f" [after {r['context'][:50]!r}]" if r.get("context") else ""
                    print(f"    {mark} {r['utterance'][:100]!r}{ctx} gold {sorted(r['topics'])} cues {sorted(r['cue'])} -> {sorted(got)}")
    if args.write:
        model = Fitted([r for n in sets for r in sets[n]], topics, C, CUE_FEATURES)
        weights = {}
        for f, i in model.index.items():
            row = {t: float(w) for t, w in zip(topics, model.w[i]) if w}
            if row:
                weights[f] = row
        out = {
            "format": FORMAT,
            "_about": f"fitted by scripts/fit_topic_model.py --write on all labelled sets up to heldout{NEWEST_READ} of "
                      f"benchmarks/data/interview_topics*.jsonl ({sum(len(v) for v in sets.values())} utterances); "
                      f"L2 logistic regression per topic, C={C}, cue features {CUE_FEATURES}",
            "topics": topics,
            "bias": [float(b) for b in model.b],
            "cue_features": CUE_FEATURES,
            "combine": {"add_above": ADD_ABOVE, "add_alone_above": ADD_ALONE_ABOVE, "add_frame_above": ADD_FRAME_ABOVE,
                        "add_before_above": ADD_BEFORE_ABOVE, "veto_below": VETO_BELOW,
                        "confirm_above": CONFIRM_ABOVE},
            "weights": weights,
        }
        OUT.write_text(topic_model_text(out), "utf-8")  # one feature a line: a diff shows what changed
        print(f"wrote {OUT.relative_to(ROOT)}: {len(weights)} features, {OUT.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
