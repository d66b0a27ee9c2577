"""How much of the held-out topic figure comes from cue phrases written after reading the held-out set.

The newest held-out set (the last of ``topic_classifier.HELD_OUT_SETS``) was written and committed before the
understand room was tuned; where the same hand then tuned it, a cue phrase added since ``--since`` (a git
ref) that occurs in a held-out utterance and in no utterance of the tuning file
(``interview_topics.jsonl``) may have been drawn from the held-out wording. This script takes every such
phrase out of the taxonomy (in memory) and prints the held-out macro-F1 without them, beside the
figure with them: the lower one is the honest held-out figure.

    python benchmarks/topic_heldout_leak.py --since main
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import topic_classifier as tc  # noqa: E402

TAXONOMY = "mentalhospital_env/patient/data/taxonomy.json"
FIELDS = ("cues", "weak_cues", "solo_cues", "unless", "needs")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--since", default="main", help="git ref of the taxonomy before tuning")
    args = ap.parse_args(argv)
    import mentalhospital_env.patient.understanding as u
    from mentalhospital_env.knowledge.language import stems_of

    before = json.loads(
        subprocess.run(["git", "-C", str(ROOT), "show", f"{args.since}:{TAXONOMY}"], capture_output=True, text=True, check=True).stdout
    )
    now = json.loads((ROOT / TAXONOMY).read_text("utf-8"))
    held = tc.load_labels(tc.HELD_OUT_SETS[-1][0])  # the newest held-out set
    tune = tc.load_labels(tc.DATA / "interview_topics.jsonl")

    def texts(rows):
        return [stems_of(t) for r in rows for t in (r["utterance"], r.get("context")) if t]

    def occurs(stemmed_texts, phrase):
        p = stems_of(phrase)
        return any(tuple(s[i : i + len(p)]) == p for s in stemmed_texts for i in range(len(s) - len(p) + 1))

    held_texts, tune_texts = texts(held), texts(tune)
    old = {t["id"]: t for t in before["topics"]}
    leaked = []
    for t in now["topics"]:
        for field in FIELDS:
            for phrase in [c for c in t.get(field, []) if c not in old.get(t["id"], {}).get(field, [])]:
                if occurs(held_texts, phrase) and not occurs(tune_texts, phrase):
                    leaked.append(f"{t['id']}.{field}: {phrase}")
                    t[field].remove(phrase)

    def macro(rows):
        gold = [set(r["topics"]) for r in rows]
        pred = [set(u.understand(r["utterance"], r.get("context")).topics) for r in rows]
        table = tc.scores(gold, pred)
        return sum(s["f1"] for s in table.values()) / len(table), sum(g == p for g, p in zip(gold, pred)) / len(rows)

    with_f1, with_exact = macro(held)
    text = json.dumps(now)

    class _File:
        def joinpath(self, _):
            return self

        def read_text(self, _encoding="utf-8"):
            return text

    u.resources = type("R", (), {"files": staticmethod(lambda _pkg: _File())})
    u.load_taxonomy.cache_clear()
    u._understand.cache_clear()
    u._follow.cache_clear()
    without_f1, without_exact = macro(held)
    tune_f1, _ = macro(tune)
    print(f"{len(leaked)} cue phrases added since {args.since} occur in held-out utterances and in no tuning utterance:")
    for line in leaked:
        print(f"  {line}")
    print(f"held-out macro-F1 with them {with_f1:.3f} (exact {100 * with_exact:.1f}%), "
          f"without them {without_f1:.3f} (exact {100 * without_exact:.1f}%): the honest figure is the second")
    print(f"tuning file macro-F1 without them {tune_f1:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
