"""The patient ablation (the study's table 4): naive, representation only, memory only, full patient.

Every variant answers the same fixed, thorough question script (:func:`question_script`) on every
case of a suite; :mod:`mentalhospital_env.rewards.fidelity` scores the transcripts against the
records: coverage, precision, hallucination and leak rates, and the proxies for realism, fidelity
and distinctiveness. The offline backend always runs; an LLM backend runs too when given with
``--llm SPEC`` (a spec of :func:`mentalhospital_env.llm.make_client`), answering many patients in
one batched call per script line.

    python benchmarks/patient_fidelity.py                      # test suite, offline
    python benchmarks/patient_fidelity.py --suite dev --cases 100
    python benchmarks/patient_fidelity.py --suite lexicon:200  # generated lexicon cases
    python benchmarks/patient_fidelity.py --llm openai:http://127.0.0.1:8000/v1?model=m --llm-cases 20
    python benchmarks/patient_fidelity.py --suite handwritten --exam   # beside the patient exam

Realism counts a reply as lay language only if it also passes the patient exam's lints
(``benchmarks/exam_grading.py``: jargon, record text, person and agreement errors, written
punctuation, a many-questions filler after one question), and precision counts a reply that takes
no stance on the concept it was asked about as an unsupported statement, so that where the exam
finds an error these scores move (``--no-exam-lints`` gives the lexicon-only reading). ``--exam``
also runs the exam itself for the same variants and prints the two side by side.

Rates print as percentages; realism, fidelity and distinctiveness are 0..100 proxies, not the
study's 1..5 ratings. Deltas in brackets are against the row above, as in the study's table.
The median offline reply latency of each variant is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mentalhospital_env.rewards.chart import Turn
from mentalhospital_env.rewards.fidelity import (
    FidelityScores,
    RecordReading,
    ScriptLine,
    aggregate,
    distinctiveness,
    question_script,
    score_transcript,
    style_profile,
)

from mentalhospital_env.cases import Case
from mentalhospital_env.knowledge.lexicon import load_lexicon
from mentalhospital_env.patient import VARIANTS, make_patient, respond_batch

ROW_NAMES = {
    "naive": "naive prompt",
    "representation": "representation only",
    "memory": "memory only",
    "full": "full patient",
}
COLUMNS = (
    ("coverage", "Cov.", True),
    ("precision", "Prec.", True),
    ("hallucination", "Halluc.", False),
    ("leak", "Leak", False),
    ("answered", "Answered", True),
    ("realism", "Realism", True),
    ("fidelity", "Fidelity", True),
    ("distinctiveness", "Distinct.", True),
)


def load_cases(spec: str, limit: int | None) -> tuple[str, list[Case]]:
    """Cases of a bundled suite, a suite path, or ``lexicon:N`` generated cases (fallback when a suite is missing)."""
    if spec.startswith("lexicon:"):
        from mentalhospital_env.patient.casebook import lexicon_cases

        n = int(spec.split(":", 1)[1])
        return spec, lexicon_cases(n if limit is None else min(n, limit))
    from mentalhospital_env.cases import SuiteError, load_suite

    try:
        suite = load_suite(spec)
    except (SuiteError, FileNotFoundError, OSError, ValueError, KeyError) as err:
        from mentalhospital_env.patient.casebook import lexicon_cases

        n = limit or 200
        print(
            f"[suite {spec!r} not available ({type(err).__name__}: {str(err)[:120]}); using lexicon:{n} cases]"
        )
        return f"lexicon:{n}", lexicon_cases(n)
    cases = list(suite.cases)
    return spec, cases[:limit] if limit else cases


def run_offline(
    cases: Sequence[Case], variant: str, script: Sequence[ScriptLine], seed: int
) -> tuple[list[list[Turn]], list[float]]:
    """Every case's transcript under the script, and each reply's latency in seconds."""
    transcripts: list[list[Turn]] = []
    latencies: list[float] = []
    clock = time.perf_counter
    for i, case in enumerate(cases):
        patient = make_patient(case, variant, seed=seed + i)
        turns = []
        for line in script:
            t0 = clock()
            reply = patient.respond(line.utterance)
            latencies.append(clock() - t0)
            turns.append(Turn(line.utterance, reply.text, reply.fact_ids))
        transcripts.append(turns)
    return transcripts, latencies


def run_llm(
    cases: Sequence[Case], variant: str, script: Sequence[ScriptLine], seed: int, client
) -> tuple[list[list[Turn]], dict[str, int]]:
    """Transcripts with a model backend: all cases' patients answer each script line in one batched call."""
    patients = [make_patient(case, variant, backend=client, seed=seed + i) for i, case in enumerate(cases)]
    transcripts: list[list[Turn]] = [[] for _ in cases]
    sources: dict[str, int] = {}
    for line in script:
        replies = respond_batch(patients, [line.utterance] * len(patients))
        for turns, reply in zip(transcripts, replies):
            turns.append(Turn(line.utterance, reply.text, reply.fact_ids))
            sources[reply.source] = sources.get(reply.source, 0) + 1
    return transcripts, sources


def exam_lints():
    """The patient exam's lints (they import nothing from the patient), or None without spaCy."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from exam_grading import Lints

        lints = Lints()
        lints.nlp  # load now: a missing model should say so here, not mid-run
        return lints
    except ImportError as err:
        print(f"[exam lints unavailable ({err}); realism reads jargon with the lexicon only]")
        return None


def score(
    cases: Sequence[Case],
    transcripts: Sequence[Sequence[Turn]],
    script: Sequence[ScriptLine],
    lexicon,
    lints=None,
) -> dict[str, Any]:
    per_case: list[FidelityScores] = []
    profiles_a: dict[str, dict[str, float]] = {}
    profiles_b: dict[str, dict[str, float]] = {}
    concept_lines = [i for i, line in enumerate(script) if line.role == "concept"]
    half_a = set(concept_lines[0::2])
    half_b = set(concept_lines[1::2])
    for case, turns in zip(cases, transcripts):
        reading = RecordReading(case, lexicon)
        natural = None
        if lints is not None:
            record = case.to_dict()
            natural = lambda q, r, record=record: not lints.check(r, q, record)  # noqa: E731
        per_case.append(score_transcript(case, turns, script, lexicon, reading, natural=natural))
        profiles_a[case.case_id] = style_profile(
            (t.patient for i, t in enumerate(turns) if i in half_a), case, lexicon
        )
        profiles_b[case.case_id] = style_profile(
            (t.patient for i, t in enumerate(turns) if i in half_b), case, lexicon
        )
    pooled = aggregate(per_case)
    out = pooled.to_dict()
    out["distinctiveness"] = distinctiveness(profiles_a, profiles_b) if len(cases) > 1 else float("nan")
    out["cases"] = len(cases)
    return out


def format_table(title: str, rows: dict[str, dict[str, Any]], latency: dict[str, float] | None = None) -> str:
    head = f"{'variant':<21}" + "".join(f"{label:>17}" for _, label, _ in COLUMNS)
    if latency:
        head += f"{'median ms/reply':>17}"
    lines = [title, head, "-" * len(head)]
    previous: dict[str, Any] | None = None
    for variant, row in rows.items():
        cells = []
        for key, _, _ in COLUMNS:
            value = 100 * row[key]
            if previous is None:
                cells.append(f"{value:>17.2f}")
            else:
                cells.append(f"{value:>8.2f} ({value - 100 * previous[key]:+6.2f})")
        line = f"{ROW_NAMES.get(variant, variant):<21}" + "".join(cells)
        if latency:
            line += f"{1000 * latency[variant]:>17.3f}"
        lines.append(line)
        previous = row
    return "\n".join(lines)


def format_details(rows: dict[str, dict[str, Any]]) -> str:
    keys = ("coverage_reported", "lay_rate", "in_role", "length_fit", "consistency", "replies", "statements")
    head = f"{'variant':<21}" + "".join(f"{k:>19}" for k in keys)
    lines = [head]
    for variant, row in rows.items():
        cells = "".join(
            f"{row[k]:>19}" if isinstance(row[k], int) else f"{100 * row[k]:>19.2f}" for k in keys
        )
        lines.append(f"{ROW_NAMES.get(variant, variant):<21}{cells}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--suite", default="test", help="bundled suite name, suite path, or lexicon:N (default: test)"
    )
    parser.add_argument("--cases", type=int, default=None, help="use only the first N cases")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated variants")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--llm", default=None, help="also run an LLM backend (spec for mentalhospital_env.llm.make_client)"
    )
    parser.add_argument("--llm-cases", type=int, default=20, help="cases for the LLM backend (default 20)")
    parser.add_argument(
        "--llm-script", type=int, default=None, help="use only the first N script lines with the LLM"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the results as JSON here")
    parser.add_argument(
        "--no-exam-lints", action="store_true", help="read jargon with the lexicon only (the old realism)"
    )
    parser.add_argument(
        "--exam", action="store_true", help="also run the patient exam and print it beside fidelity"
    )
    args = parser.parse_args(argv)

    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; choose from {VARIANTS}")
    lexicon = load_lexicon()
    lints = None if args.no_exam_lints else exam_lints()
    suite_name, cases = load_cases(args.suite, args.cases)
    script = question_script(lexicon)
    print(f"suite {suite_name}: {len(cases)} cases; script of {len(script)} doctor turns; seed {args.seed}")

    results: dict[str, Any] = {
        "suite": suite_name,
        "cases": len(cases),
        "script_turns": len(script),
        "seed": args.seed,
    }
    rows: dict[str, dict[str, Any]] = {}
    latency: dict[str, float] = {}
    for variant in variants:
        t0 = time.perf_counter()
        transcripts, lat = run_offline(cases, variant, script, args.seed)
        latency[variant] = statistics.median(lat)
        rows[variant] = score(cases, transcripts, script, lexicon, lints)
        rows[variant]["median_reply_s"] = latency[variant]
        rows[variant]["p95_reply_s"] = sorted(lat)[int(0.95 * (len(lat) - 1))]
        print(f"  {variant}: {len(lat)} replies in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    print()
    print(
        format_table(f"Patient ablation, offline backend ({suite_name}, {len(cases)} cases)", rows, latency)
    )
    print()
    print(format_details(rows))
    results["offline"] = rows

    if args.exam:
        from patient_exam import load_cases as exam_cases
        from patient_exam import run_variant

        from exam_grading import load_exam, tally

        questions = load_exam()
        exam_case_map = exam_cases(questions)
        lints = lints or exam_lints()
        print()
        print("Fidelity beside the patient exam (exam: 40 records read by hand; fidelity: this suite)")
        head = f"{'variant':<21}" + "".join(
            f"{h:>14}" for h in ("fid. realism", "fid. prec.", "fid. answered", "exam wrong", "exam not ans.", "exam unnat.", "exam filler")
        )
        print(head)
        print("-" * len(head))
        results["exam"] = {}
        for variant in variants:
            exam_rows, _ = run_variant(variant, questions, exam_case_map, lints, args.seed)
            t = tally([r["grade"] for r in exam_rows])
            results["exam"][variant] = t
            r = rows[variant]
            print(
                f"{ROW_NAMES.get(variant, variant):<21}{100 * r['realism']:>14.2f}{100 * r['precision']:>14.2f}"
                f"{100 * r['answered']:>14.2f}{t['wrong']:>14.1f}{t['not_answering']:>14.1f}{t['unnatural']:>14.1f}{t['filler']:>14.1f}"
            )

    if args.llm:
        from mentalhospital_env.llm import make_client

        client = make_client(args.llm)
        llm_cases = cases[: args.llm_cases]
        llm_script = script[: args.llm_script] if args.llm_script else script
        llm_rows: dict[str, dict[str, Any]] = {}
        for variant in variants:
            t0 = time.perf_counter()
            transcripts, sources = run_llm(llm_cases, variant, llm_script, args.seed, client)
            llm_rows[variant] = score(llm_cases, transcripts, llm_script, lexicon)
            llm_rows[variant]["sources"] = sources
            llm_rows[variant]["wall_s"] = time.perf_counter() - t0
        print()
        print(format_table(f"Patient ablation, LLM backend {args.llm} ({len(llm_cases)} cases)", llm_rows))
        print("reply sources:", {v: r["sources"] for v, r in llm_rows.items()})
        results["llm"] = {"spec": args.llm, "rows": llm_rows}

    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
