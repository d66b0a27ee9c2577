"""The ``mentalhospital`` command.

Each subcommand is a thin shell over a library function, imported only when that subcommand runs,
so ``mentalhospital --help`` stays fast:

* ``mentalhospital cases generate --n N --seed S [--out FILE]``: synthetic cases as JSON Lines.
* ``mentalhospital cases validate PATH``: check a case file, a JSONL suite or a folder against docs/cases.md.
* ``mentalhospital cases compile IN OUT``: narrative records with their facts compiled into patient
  memory (topics, polarity, what the patient says in the first person), for review and editing.
* ``mentalhospital cases stats SUITE``: counts by category, disorder, setting, sex and age band.
* ``mentalhospital cases audit SUITE``: a clinical reviewer's checks, each finding naming case, field
  and rule, then counts by rule (exit status 1 when anything is found).
* ``mentalhospital evaluate --doctor NAME --suite SUITE --out DIR [--workers N | --concurrency N]``:
  run and score a doctor over a seeded suite (resumes when DIR holds an interrupted run), then print
  the tables.
* ``mentalhospital table RESULTS...``: the study's leaderboard and breakdown tables (text, Markdown, CSV).
* ``mentalhospital compare A B``: which metric differences between two runs exceed their intervals.
* ``mentalhospital report RESULTS``: a self-contained HTML report with charts and every transcript.
* ``mentalhospital export suite|episodes SOURCE --out DIR``: a Hugging Face dataset folder with its card.
* ``mentalhospital play``: play the doctor yourself at the terminal, scored like any model.
"""

from __future__ import annotations

import os

# An episode's matrix products are tiny: BLAS threads only add overhead (measured: single-threaded
# BLAS halves the CPU time of a scored episode). Set before numpy is imported; worker processes
# inherit it; an explicit setting in the environment wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from typing import Callable, Sequence


def _cases_validate(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases import CaseError, load_suite

    status = 0
    for path in args.paths:
        try:
            suite = load_suite(path)
        except CaseError as e:
            print(str(e), file=sys.stderr)
            status = 1
            continue
        print(f"{path}: {len(suite)} case(s), all valid")
    return status


def _cases_generate(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases.generator import write_cases

    try:
        n = write_cases(args.out, n=args.n, seed=args.seed, version=args.version)
    except OSError as e:
        print(f"mentalhospital cases generate: cannot write {args.out}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"wrote {n} case(s) to {args.out}", file=sys.stderr)
    return 0


def _cases_compile(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases import CaseError
    from mentalhospital_env.cases.compile import compile_suite

    try:
        n = compile_suite(args.source, args.out, overwrite=args.force)
    except (CaseError, FileExistsError) as e:
        print(str(e), file=sys.stderr)
        return 1
    print(f"compiled {n} case(s) to {args.out}", file=sys.stderr)
    return 0


def _cases_stats(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases import CaseError, load_suite
    from mentalhospital_env.cases.stats import format_stats, suite_stats

    try:
        suite = load_suite(args.suite)
    except CaseError as e:
        print(str(e), file=sys.stderr)
        return 1
    print(format_stats(suite_stats(suite), fmt=args.format))
    return 0


def _cases_audit(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases import CaseError, load_suite
    from mentalhospital_env.cases.audit import audit_suite, format_findings

    try:
        suite = load_suite(args.suite)
    except CaseError as e:
        print(str(e), file=sys.stderr)
        return 1
    findings = audit_suite(suite)
    if args.rule:
        findings = [f for f in findings if f.rule == args.rule or f.rule.startswith(args.rule + ".")]
    print(format_findings(findings, len(suite), limit=None if args.limit < 0 else args.limit))
    return 1 if findings else 0


def _spec_from_args(args: argparse.Namespace):
    from mentalhospital_env.evaluation import LEADERBOARD_SPEC, with_overrides

    seeds = tuple(int(x) for x in args.seeds.split(",")) if args.seeds else None
    case_ids = tuple(args.case) if args.case else None
    return with_overrides(
        LEADERBOARD_SPEC,
        suite=args.suite,
        seeds=seeds,
        case_ids=case_ids,
        limit=args.limit,
        patient_variant=args.patient_variant,
        patient_backend=args.patient_backend,
        topic_reader=args.topic_reader,
        judge=args.judge,
        matcher=args.matcher,
        turn_budget=args.turn_budget,
    )


#: command-line generation settings of the llm doctor: flag attribute -> setting in the llm: spec
_GENERATION_FLAGS = {
    "max_new_tokens": "max_new_tokens",
    "temperature": "temperature",
    "top_p": "top_p",
    "generation_seed": "seed",
    "max_interview_turns": "max_interview_turns",
    "reply_retries": "reply_retries",
}


def _doctor_with_settings(args: argparse.Namespace) -> str:
    """The doctor spec with the command line's generation settings added to an ``llm:`` spec's options."""
    from urllib.parse import urlencode

    given = {setting: getattr(args, flag) for flag, setting in _GENERATION_FLAGS.items() if getattr(args, flag, None) is not None}
    if not given:
        return args.doctor
    if not args.doctor.startswith("llm:"):
        flags = ", ".join("--" + f.replace("_", "-") for f, s in _GENERATION_FLAGS.items() if s in given)
        raise ValueError(f"{flags} apply to the llm doctor only, not {args.doctor!r}")
    head, sep, query = args.doctor.partition("?")
    fragment = ""
    if "#" in query:
        query, fragment = query.split("#", 1)
        fragment = "#" + fragment
    return head + fragment + "?" + (query + "&" if query else "") + urlencode(given)


def _evaluate(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases import CaseError
    from mentalhospital_env.evaluation import EvaluationError, run_evaluation
    from mentalhospital_env.leaderboard import breakdown_table, leaderboard_table
    from mentalhospital_env.roster import DoctorNotFound

    try:
        spec = _spec_from_args(args)
        doctor = _doctor_with_settings(args)
        results = run_evaluation(
            doctor, spec, args.out, workers=args.workers, concurrency=args.concurrency, ray=args.ray,
            progress=not args.quiet, on_error=args.on_error,
        )
    except (CaseError, EvaluationError, DoctorNotFound, ValueError) as e:
        print(f"mentalhospital evaluate: {e}", file=sys.stderr)
        return 1
    if results.get("n_failed"):
        print(
            f"mentalhospital evaluate: {results['n_failed']} episode(s) failed and are left out of the means "
            f"(listed in {args.out}/results.json; run the same command again to retry them)",
            file=sys.stderr,
        )
    labelled = [(results, None)]
    print(leaderboard_table(labelled).render(args.format))
    print(breakdown_table(labelled).render(args.format))
    print(f"results: {args.out}/results.json  episodes: {args.out}/episodes.jsonl  spec {results['spec_hash']}", file=sys.stderr)
    return 0


def _table(args: argparse.Namespace) -> int:
    from mentalhospital_env.evaluation import EvaluationError
    from mentalhospital_env.leaderboard import breakdown_table, leaderboard_table, read_labelled

    try:
        labelled = read_labelled(args.results)
    except EvaluationError as e:
        print(f"mentalhospital table: {e}", file=sys.stderr)
        return 1
    text = leaderboard_table(labelled, with_ci=args.ci).render(args.format)
    text += "\n" + breakdown_table(labelled, with_ci=args.ci).render(args.format)
    for results, label in labelled:
        if results.get("_incomplete"):
            print(f"mentalhospital table: {label or results['doctor']}: {results['_incomplete']}", file=sys.stderr)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print(f"mentalhospital table: cannot write {args.out}: {e.strerror or e}", file=sys.stderr)
            return 1
    print(text, end="")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from mentalhospital_env.evaluation import EvaluationError
    from mentalhospital_env.leaderboard import comparison_table

    try:
        print(comparison_table(args.a, args.b).render(args.format), end="")
    except EvaluationError as e:
        print(f"mentalhospital compare: {e}", file=sys.stderr)
        return 1
    return 0


def _report(args: argparse.Namespace) -> int:
    from mentalhospital_env.evaluation import EvaluationError
    from mentalhospital_env.report import write_report

    try:
        path = write_report(args.results, args.out)
    except EvaluationError as e:
        print(f"mentalhospital report: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"mentalhospital report: cannot write {args.out or 'the report'}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(path)
    return 0


def _play(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases import CaseError
    from mentalhospital_env.evaluation import EvaluationError, EvaluationSpec, run_evaluation
    from mentalhospital_env.leaderboard import leaderboard_table

    try:
        spec = EvaluationSpec(suite=args.suite, seeds=(args.seed,), case_ids=(args.case,) if args.case else None, limit=None if args.case else 1)
        out = args.out or os.path.join("play-results", spec.spec_hash)  # one folder per suite, case and seed
        results = run_evaluation("human", spec, out, workers=1, progress=False)
    except (CaseError, EvaluationError) as e:
        print(f"mentalhospital play: {e}", file=sys.stderr)
        return 1
    print(leaderboard_table([(results, "you")]).render("text"))
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def _export(args: argparse.Namespace) -> int:
    from mentalhospital_env.cases import CaseError
    from mentalhospital_env.evaluation import EvaluationError

    try:
        if args.what == "suite":
            from mentalhospital_env.export import export_suite

            folder = export_suite(args.source, args.out)
        else:
            from mentalhospital_env.export import export_episodes

            folder = export_episodes(args.source, args.out)
    except (CaseError, EvaluationError, FileNotFoundError, ImportError) as e:
        print(f"mentalhospital export: {e}", file=sys.stderr)
        return 1
    print(f"wrote {folder}/data/train.parquet and the dataset card {folder}/README.md", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mentalhospital",
        description="A simulated psychiatric clinic for training and evaluating doctor agents (synthetic cases).",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    cases = commands.add_parser("cases", help="generate, validate and describe case suites")
    cases_commands = cases.add_subparsers(dest="cases_command", metavar="ACTION")
    p = cases_commands.add_parser("generate", help="generate synthetic cases (deterministic under --seed)")
    p.add_argument("--n", type=_positive, required=True, help="number of cases (1 or more)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", default="-", help="output JSONL file, '-' for standard output (default)")
    p.add_argument("--version", type=int, choices=(1, 2), default=2,
                   help="generator version: 2 (default) tells histories as a clinician does; 1 reproduces the frozen 'test' and 'dev' suites")
    p.set_defaults(run=_cases_generate)
    p = cases_commands.add_parser("validate", help="check case files against the case format (docs/cases.md)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .json case, a .jsonl suite or a folder of .json cases")
    p.set_defaults(run=_cases_validate)
    p = cases_commands.add_parser(
        "compile", help="compile narrative records into patient memory (facts a patient can say), for review"
    )
    p.add_argument("source", metavar="IN", help="a suite name, a .jsonl suite, a folder or a .json case")
    p.add_argument("out", metavar="OUT", help="the compiled suite to write (JSON Lines)")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.set_defaults(run=_cases_compile)
    p = cases_commands.add_parser("stats", help="counts by category, disorder, setting, sex and age band")
    p.add_argument("suite", metavar="SUITE", help="a bundled suite name (dev, test, handwritten) or a path")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.set_defaults(run=_cases_stats)
    p = cases_commands.add_parser("audit", help="a clinical reviewer's checks: each finding names case, field and rule")
    p.add_argument("suite", metavar="SUITE", help="a bundled suite name (dev-v2, test-v2, test, handwritten) or a path")
    p.add_argument("--rule", default=None, help="only this rule or rule family (e.g. labs, template.frame)")
    p.add_argument("--limit", type=int, default=200, help="findings to list before the counts (-1: all; default 200)")
    p.set_defaults(run=_cases_audit)

    p = commands.add_parser("evaluate", help="run and score a doctor over a seeded suite of cases")
    p.add_argument("--doctor", required=True, help="a registered doctor (random, scripted, llm:SPEC, ppo:PATH, human) or module:factory")
    p.add_argument("--suite", default=None, help="bundled suite name (dev, test, handwritten) or a case file or folder (default: test)")
    p.add_argument("--out", required=True, help="output folder for results.json and episodes.jsonl (an interrupted run there resumes)")
    p.add_argument("--workers", type=_positive, default=1, help="parallel worker processes (default 1)")
    p.add_argument(
        "--on-error",
        choices=("stop", "record"),
        default="stop",
        help="when an episode raises (a model server down, say): stop (default) ends the run naming the episode "
        "and the cause; record writes it as failed and goes on, results.json counts the failed episodes, and "
        "running the same command again retries them",
    )
    p.add_argument(
        "--concurrency",
        type=_positive,
        default=1,
        help="episodes played at once in one process, their doctors' requests in flight together "
        "(for a served llm doctor; default 1)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="play the episodes on a Ray cluster (ADDRESS, e.g. ray://head:10001 or auto; a local Ray when "
        "omitted); --workers sets the number of actors (default: one per cluster CPU). Needs the ray extra",
    )
    g = p.add_argument_group("llm doctor generation settings (also accepted in the llm: spec's options)")
    g.add_argument("--max-new-tokens", type=int, default=None, help="tokens per reply (default 384)")
    g.add_argument("--temperature", type=float, default=None, help="0 is greedy (default 0)")
    g.add_argument("--top-p", type=float, default=None, help="nucleus mass (default 1.0)")
    g.add_argument("--generation-seed", type=int, default=None, help="sampling seed sent with each request (default 0)")
    g.add_argument("--max-interview-turns", type=int, default=None, help="questions before the doctor is told to move on (default 20)")
    g.add_argument("--reply-retries", type=int, default=None, help="re-asks after an unparseable reply (default 2)")
    p.add_argument("--seeds", default=None, help="comma-separated seeds (default 0)")
    p.add_argument("--case", action="append", help="only this case id (repeatable)")
    p.add_argument("--limit", type=_positive, default=None, help="only the first N cases of the suite")
    p.add_argument("--patient-variant", default=None, choices=("naive", "representation", "memory", "full"))
    p.add_argument("--patient-backend", default=None, help="offline (default) or an LLM client spec")
    p.add_argument(
        "--topic-reader",
        default=None,
        choices=("fast", "embedding"),
        help="how the patient reads the doctor's questions: fast (default, cue phrases and a small model) or "
        "embedding (sentence embeddings: reads unusual wordings better, about 20 ms per new question; the embed "
        "extra); worth it for language-model doctors",
    )
    p.add_argument("--judge", default=None, help="MentalEval judge: offline (default) or an LLM client spec")
    p.add_argument(
        "--matcher",
        default=None,
        help="embedder of the coverage matcher: hashing (default, fast, no extra packages), minilm or use "
        "(the embed extra), or sentence-transformers:PATH for a local model; docs/calibration.md gives each "
        "one's held-out precision and recall",
    )
    p.add_argument("--turn-budget", type=int, default=None, help="turns per episode (default 40)")
    p.add_argument("--format", choices=("text", "markdown", "csv"), default="text")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_evaluate)

    p = commands.add_parser("table", help="the study's tables from results files")
    p.add_argument("results", nargs="+", metavar="RESULTS", help="results.json or its folder, optionally PATH=LABEL")
    p.add_argument("--format", choices=("text", "markdown", "csv"), default="text")
    p.add_argument("--ci", action="store_true", help="show the 95%% interval half-width beside each mean")
    p.add_argument("--out", default=None, help="also write the tables to this file")
    p.set_defaults(run=_table)

    p = commands.add_parser("compare", help="compare two results: which differences exceed their intervals")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--format", choices=("text", "markdown", "csv"), default="text")
    p.set_defaults(run=_compare)

    p = commands.add_parser("report", help="a self-contained HTML report with charts and transcripts")
    p.add_argument("results", metavar="RESULTS", help="a results folder or its results.json")
    p.add_argument("--out", default=None, help="HTML file (default RESULTS/report.html)")
    p.set_defaults(run=_report)

    p = commands.add_parser("export", help="a suite or a run's episodes as a Hugging Face dataset folder with its card")
    p.add_argument("what", choices=("suite", "episodes"))
    p.add_argument("source", metavar="SOURCE", help="a suite (name or path), or a results folder / episodes.jsonl")
    p.add_argument("--out", required=True, help="folder for data/train.parquet and README.md (the card)")
    p.set_defaults(run=_export)

    p = commands.add_parser("play", help="play the doctor yourself at the terminal")
    p.add_argument("--suite", default="dev")
    p.add_argument("--case", default=None, help="case id (default: the suite's first case)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="where your scored episode is written (default: play-results/<spec hash>, one folder per suite, case and seed)")
    p.set_defaults(run=_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:  # a file or folder the command cannot use: one line, not a traceback
        where = f" ({e.filename})" if getattr(e, "filename", None) else ""
        print(f"mentalhospital {args.command}: {e.strerror or e}{where}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
