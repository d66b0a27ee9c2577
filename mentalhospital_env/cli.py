"""The ``mentalhospital`` command.

Each subcommand is a thin shell over a library function, imported only when that subcommand runs,
so ``mentalhospital --help`` stays fast:

* ``mentalhospital cases generate --n N --seed S [--out FILE]``: synthetic cases as JSON Lines.
* ``mentalhospital cases validate PATH``: check a case file, a JSONL suite or a folder against CASES.md.
* ``mentalhospital cases stats SUITE``: counts by category, disorder, setting, sex and age band.
"""

from __future__ import annotations

import argparse
import sys
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

    n = write_cases(args.out, n=args.n, seed=args.seed)
    print(f"wrote {n} case(s) to {args.out}", file=sys.stderr)
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mentalhospital",
        description="A simulated psychiatric clinic for training and evaluating doctor agents (synthetic cases).",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    cases = commands.add_parser("cases", help="generate, validate and describe case suites")
    cases_commands = cases.add_subparsers(dest="cases_command", metavar="ACTION")
    p = cases_commands.add_parser("generate", help="generate synthetic cases (deterministic under --seed)")
    p.add_argument("--n", type=int, required=True, help="number of cases")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", default="-", help="output JSONL file, '-' for standard output (default)")
    p.set_defaults(run=_cases_generate)
    p = cases_commands.add_parser("validate", help="check case files against the case format (CASES.md)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .json case, a .jsonl suite or a folder of .json cases")
    p.set_defaults(run=_cases_validate)
    p = cases_commands.add_parser("stats", help="counts by category, disorder, setting, sex and age band")
    p.add_argument("suite", metavar="SUITE", help="a bundled suite name (dev, test, handwritten) or a path")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.set_defaults(run=_cases_stats)
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


if __name__ == "__main__":
    raise SystemExit(main())
