"""Draw patient replies from scripted-doctor episodes, for reading and coding by hand.

    python benchmarks/patient_transcripts.py --seed 7 --n 40 [--suite handwritten,test] [--variant full]

Plays the scripted clinician on the suites' cases (offline patient), then draws ``--n`` (doctor turn,
patient reply) pairs at random under the printed seed and prints them with the case id, so that a
reader can code each reply (wrong / not answering / unnatural / fine) against the record.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reading_sample import turns_of as transcripts  # noqa: E402  (one way to play and collect the turns)

from mentalhospital_env.evaluation import EvaluationSpec  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--suite", default="handwritten,test")
    ap.add_argument("--cases-per-suite", type=int, default=4)
    ap.add_argument("--variant", default="full")
    ap.add_argument("--all", action="store_true", help="print whole transcripts instead of a sample")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    pairs: list[tuple[str, str, str, str]] = []
    for suite in args.suite.split(","):
        ids = [c.case_id for c in EvaluationSpec(suite=suite).load_suite()]
        chosen = rng.sample(ids, min(args.cases_per_suite, len(ids)))
        pairs += transcripts(suite, chosen, args.variant, args.seed)
    print(f"seed {args.seed}: {len(pairs)} turns from scripted-doctor episodes")
    sample = pairs if args.all else rng.sample(pairs, min(args.n, len(pairs)))
    for i, (case_id, doctor, patient, mark, added) in enumerate(sample, 1):
        print(f"[{i}] {case_id}\n  D: {doctor}\n  P{mark}: {patient}{added}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
