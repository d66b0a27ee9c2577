"""Print the histories a blind reader sees, and keep the diagnoses in a separate key (issue 14).

    python benchmarks/blind_history.py SUITE_FILE --seed N [--n 10] --out DIR

Draws ``--n`` cases of a suite file (JSON Lines) under the printed seed and writes two files:
``DIR/histories.md`` with only what a referral and clerking would show before the interview (age,
sex, setting, chief complaint, present illness, past psychiatric and medical history: no diagnosis,
exams, mental state or plan), and ``DIR/key.md`` with each case's reference diagnoses. The reader
writes a principal-diagnosis guess and a confidence for every history in ``histories.md`` before
opening ``key.md``. Nothing here reads the generator: the reading is the measure.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

SECTIONS = ("chief_complaint", "history_of_present_illness", "past_psychiatric_history", "medical_history")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", type=Path, help="a suite file, one case a line")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    cases = [json.loads(line) for line in args.suite.read_text(encoding="utf-8").splitlines() if line.strip()]
    picked = sorted(random.Random(args.seed).sample(range(len(cases)), args.n))
    args.out.mkdir(parents=True, exist_ok=True)
    lines = [f"# Blind histories: {args.suite.name}, seed {args.seed}, n {args.n}", ""]
    key = [f"# Key: {args.suite.name}, seed {args.seed}", ""]
    for i, idx in enumerate(picked, 1):
        c = cases[idx]
        d = c["demographics"]
        lines += [f"## {i}. {c['case_id']}: {d['age']}, {d['sex']}, {c['setting']}", ""]
        for s in SECTIONS:
            if c["ehr"].get(s):
                lines += [f"**{s}**: {c['ehr'][s]}", ""]
        lines += ["guess: ", "confidence: ", ""]
        key.append(f"{i}. {c['case_id']}: " + "; ".join(f"{x['code']} {x['name']}" for x in c["diagnosis"]["disorders"]))
    (args.out / "histories.md").write_text("\n".join(lines), encoding="utf-8")
    (args.out / "key.md").write_text("\n".join(key) + "\n", encoding="utf-8")
    print(f"seed {args.seed}: {', '.join(cases[i]['case_id'] for i in picked)} -> {args.out}/histories.md (key in key.md)")


if __name__ == "__main__":
    main()
