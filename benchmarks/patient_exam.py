"""The patient exam (issue 13): questions written by reading records, graded without the patient's machinery.

Every variant of the offline patient (``full``, ``naive``, ``memory``, ``representation``) answers
the exam's scripted conversations (``benchmarks/data/patient_exam/*.jsonl``: one fresh encounter per
conversation, so follow-ups have their context); :mod:`exam_grading` gives each reply a verdict
(wrong / not answering / unnatural / fine), the lints, the filler flag and leaks. Each reply is graded
with its conversation's earlier replies (since stop 61: ``repeated_earlier`` reads them); figures from
before stop 61 were graded by the older grader (no first-person record reading, no repetition across
replies, nine items' details before audit 61's corrections) and are not comparable one for one;
figures from before stop 62 were graded by the older grader too (no sentence-by-sentence record
reading, no repeat with a tail, no denial said twice, tacked_on firing on a reason or on the answer's
own subject, five items before audit 62's corrections).

    python benchmarks/patient_exam.py                        # all four variants, table per group
    python benchmarks/patient_exam.py --variants full --show 15
    python benchmarks/patient_exam.py --json /tmp/exam.json  # every reply with its grade

Percentages are of replies. "unnatural" counts replies whose content passed but a lint failed (the
verdict's precedence); "any lint" counts every reply with a lint, whatever its content verdict.
Targets (issue 13, full patient): wrong <= 3, not answering <= 5, unnatural <= 3, filler <= 5, leaks 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exam_grading import DATA, Grade, Lints, Question, conversations, grade, load_exam, suite_source, tally  # noqa: E402

VARIANTS = ("full", "naive", "memory", "representation")
TARGETS = {"wrong": 3.0, "not_answering": 5.0, "unnatural": 3.0, "filler": 5.0, "leaks": 0.0}
COLUMNS = (
    ("replies", "replies", "{:.0f}"),
    ("wrong", "wrong %", "{:.1f}"),
    ("not_answering", "not ans. %", "{:.1f}"),
    ("unnatural", "unnatural %", "{:.1f}"),
    ("fine", "fine %", "{:.1f}"),
    ("any_lint", "any lint %", "{:.1f}"),
    ("filler", "filler %", "{:.1f}"),
    ("leaks", "leaks", "{:.0f}"),
    ("details", "details %", "{:.1f}"),
)


def load_cases(questions: list[Question]) -> dict[str, Any]:
    from mentalhospital_env.cases import load_suite

    wanted = {q.case_id for q in questions}
    cases = {}
    for suite in sorted({q.suite for q in questions}):
        for case in load_suite(suite_source(suite)).cases:
            if case.case_id in wanted:
                cases[case.case_id] = case
    missing = sorted(wanted - set(cases))
    if missing:
        raise SystemExit(f"exam questions name cases no suite holds: {', '.join(missing[:10])}")
    return cases


def run_variant(variant: str, questions: list[Question], cases: dict[str, Any], lints: Lints, seed: int,
                topic_reader: str = "fast"):
    from mentalhospital_env.patient import make_patient

    rows: list[dict[str, Any]] = []
    latencies: list[float] = []
    as_dict = {cid: case.to_dict() for cid, case in cases.items()}
    for n, (conv, turns) in enumerate(conversations(questions).items()):
        case = cases[turns[0].case_id]
        patient = make_patient(case, variant, seed=seed + n, topic_reader=topic_reader)
        earlier: list[str] = []
        for q in turns:
            t0 = time.perf_counter()
            reply = patient.respond(q.ask).text
            latencies.append(time.perf_counter() - t0)
            g = grade(q, reply, as_dict[q.case_id], lints, earlier=earlier)
            earlier = [*earlier, reply]  # the conversation's earlier replies (repeated_earlier, stop 61)
            rows.append({"question": q, "reply": reply, "grade": g})
    return rows, latencies


def format_rows(title: str, table: dict[str, dict[str, float]]) -> str:
    head = f"{'':<34}" + "".join(f"{label:>13}" for _, label, _ in COLUMNS)
    lines = [title, head, "-" * len(head)]
    for name, stats in table.items():
        cells = "".join(
            f"{fmt.format(stats[key]) if key in stats else '-':>13}" for key, _, fmt in COLUMNS
        )
        lines.append(f"{name:<34}{cells}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from mentalhospital_env.patient.embedding_reader import TOPIC_READERS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="folder of exam *.jsonl files")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=8, help="print this many graded failures of the first variant")
    ap.add_argument("--json", type=Path, help="write every reply and its grade here")
    ap.add_argument("--topic-reader", choices=TOPIC_READERS, default="fast",
                    help="the patient's topic reader (make_patient topic_reader): fast (default) or embedding")
    args = ap.parse_args(argv)

    questions = load_exam(args.data)
    cases = load_cases(questions)
    groups = sorted({q.group for q in questions})
    print(
        f"patient exam: {len(questions)} questions, {len(conversations(questions))} conversations, "
        f"{len(cases)} records ({', '.join(f'{g}: {len({q.case_id for q in questions if q.group == g})}' for g in groups)}); seed {args.seed}"
        + (f"; topic reader {args.topic_reader}" if args.topic_reader != "fast" else "")
    )
    lints = Lints()
    overall: dict[str, dict[str, float]] = {}
    per_group: dict[str, dict[str, float]] = {}
    dump: list[dict[str, Any]] = []
    first_rows = None
    for variant in [v.strip() for v in args.variants.split(",") if v.strip()]:
        rows, latencies = run_variant(variant, questions, cases, lints, args.seed, args.topic_reader)
        first_rows = first_rows or rows
        grades: list[Grade] = [r["grade"] for r in rows]
        overall[variant] = tally(grades)
        overall[variant]["median_ms"] = 1000 * sorted(latencies)[len(latencies) // 2]
        for g in groups:
            per_group[f"{variant} / {g}"] = tally([r["grade"] for r in rows if r["question"].group == g])
        for r in rows:
            q, g = r["question"], r["grade"]
            dump.append({"variant": variant, "id": q.id, "case_id": q.case_id, "ask": q.ask, "reply": r["reply"],
                         "verdict": g.verdict, "reasons": g.reasons, "lints": g.lints, "filler": g.filler, "leak": g.leak})
    print()
    print(format_rows("All exam records", overall))
    print("median ms/reply: " + ", ".join(f"{v} {s['median_ms']:.2f}" for v, s in overall.items()))
    print()
    print(format_rows("Per group", per_group))
    if first_rows:
        kinds = {}
        for r in first_rows:
            kinds.setdefault(r["question"].kind, []).append(r["grade"])
        print()
        print(format_rows(f"By kind of question ({args.variants.split(',')[0]})", {k: tally(v) for k, v in sorted(kinds.items())}))
    if "full" in overall:
        s = overall["full"]
        print()
        print("targets for the full patient (issue 13): " + "; ".join(
            f"{k} {s[k]:.1f} {'<=' if s[k] <= t else '>'} {t:g} {'met' if s[k] <= t else 'MISSED'}" for k, t in TARGETS.items()))
    if args.show and first_rows:
        bad = [r for r in first_rows if r["grade"].verdict != "fine"]
        print(f"\nfirst {min(args.show, len(bad))} of {len(bad)} non-fine replies ({args.variants.split(',')[0]}):")
        for r in bad[: args.show]:
            q, g = r["question"], r["grade"]
            print(f"- [{g.verdict}] {q.id} D: {q.ask}\n    P: {r['reply']}\n    why: {'; '.join(g.reasons + g.lints)}")
    if args.json:
        args.json.write_text(json.dumps(dump, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"\nwrote {len(dump)} graded replies to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
