"""How well the exam's lints agree with a reader (issue 13): the reader-labelled replies of
``benchmarks/data/patient_exam/reader/labels.jsonl`` against :class:`exam_grading.Lints`.

    python benchmarks/reader_agreement.py              # both halves, per flag
    python benchmarks/reader_agreement.py --show held_out

Each labelled reply carries the reader's flags (``off_subject``, ``stock_tail``,
``medical_history``, ``record_voice``); each lint finding maps to one flag by its name. Per flag and
half, the table gives true positives, false positives, false negatives, precision and recall, and
the share of replies where the reader and the lints agree on that flag. The ``tune`` half was read
while writing the lints; the ``held_out`` half was not, and its figures are the estimate.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exam_grading import DATA, Lints  # noqa: E402

LABELS = DATA / "reader" / "labels.jsonl"
FLAGS = ("off_subject", "stock_tail", "medical_history", "record_voice")
PREFIX = {"off subject": "off_subject", "stock tail": "stock_tail", "medical history": "medical_history", "record voice": "record_voice"}


def flags_of(findings: list[str]) -> set[str]:
    out = set()
    for f in findings:
        head = f.split(":", 1)[0]
        if head in PREFIX:
            out.add(PREFIX[head])
    return out


def load_cases(rows: list[dict]) -> dict[str, dict]:
    from mentalhospital_env.cases import load_suite

    cases: dict[str, dict] = {}
    for suite in sorted({r["suite"] for r in rows}):
        wanted = {r["case_id"] for r in rows if r["suite"] == suite}
        cases.update({c.case_id: c.to_dict() for c in load_suite(suite).cases if c.case_id in wanted})
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--show", choices=("tune", "held_out"), help="print every disagreement of this half")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.labels.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = load_cases(rows)
    lints = Lints()
    for r in rows:
        r["found"] = lints.check(r["patient"], r["doctor"], cases[r["case_id"]])
        r["lint_flags"] = flags_of(r["found"])
    print(f"reader agreement: {len(rows)} labelled replies ({args.labels})")
    print(f"{'half':<9}{'flag':<17}{'reader':>7}{'lints':>7}{'tp':>5}{'fp':>5}{'fn':>5}{'prec.':>7}{'recall':>8}{'agree':>8}")
    for half in ("tune", "held_out"):
        part = [r for r in rows if r["split"] == half]
        for flag in (*FLAGS, "any"):
            def has(r, key):
                return bool(r[key]) if flag == "any" else flag in r[key]
            reader = [has(r, "flags") for r in part]
            lint = [bool(r["lint_flags"]) if flag == "any" else flag in r["lint_flags"] for r in part]
            tp = sum(a and b for a, b in zip(reader, lint))
            fp = sum(b and not a for a, b in zip(reader, lint))
            fn = sum(a and not b for a, b in zip(reader, lint))
            agree = sum(a == b for a, b in zip(reader, lint))
            prec = f"{tp / (tp + fp):.2f}" if tp + fp else "-"
            rec = f"{tp / (tp + fn):.2f}" if tp + fn else "-"
            print(f"{half:<9}{flag:<17}{sum(reader):>7}{sum(lint):>7}{tp:>5}{fp:>5}{fn:>5}{prec:>7}{rec:>8}{agree:>5}/{len(part)}")
        # the reader's whole-reply code against the grader's lints (any lint at all)
        bad = [r["verdict"] != "fine" for r in part]
        any_lint = [bool(r["found"]) for r in part]
        print(f"{half:<9}{'not fine/any lint':<17}{sum(bad):>7}{sum(any_lint):>7}{sum(a and b for a, b in zip(bad, any_lint)):>5}"
              f"{sum(b and not a for a, b in zip(bad, any_lint)):>5}{sum(a and not b for a, b in zip(bad, any_lint)):>5}"
              f"{'':>15}{sum(a == b for a, b in zip(bad, any_lint)):>5}/{len(part)}")
    if args.show:
        print()
        for r in rows:
            if r["split"] != args.show:
                continue
            if set(r["flags"]) != r["lint_flags"]:
                print(f"[{r['n']}] {r['case_id']} reader {sorted(r['flags'])} lints {sorted(r['lint_flags'])}\n  D: {r['doctor']}\n  P: {r['patient']}")
                for f in r["found"]:
                    print(f"    - {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
