"""Draw patient replies from scripted-doctor episodes for the reading protocol (issue 13).

    python benchmarks/reading_sample.py --seed 13 --n 100 [--suites handwritten,dev] [--variant full]
    python benchmarks/reading_sample.py --whole benchmarks/data/patient_exam/unseen/uw-001.json

Plays the scripted clinician (``mentalhospital_env.agents.scripted``, through the evaluation
harness and the environment) on every case of the ``handwritten`` suite and a seeded draw of
``--cases`` cases of each other suite, then draws ``--n`` doctor turns with their patient replies at
random under the printed seed. Each is printed with its case id and the exam's lint findings, for a
reader to code by hand as wrong / not answering / unnatural / fine against the record. The lints are
a hint for the reader, never the code: the reading is the measure.

``--whole PATH`` instead plays one whole scripted episode on each record of a case file (a record a
user brings, such as ``unseen/uw-001.json``, which no code of the patient was tuned on) and prints
every turn, then how many replies fail a lint (issue 13 asks for none).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exam_grading import Lints  # noqa: E402


def turns_of(suite: str, case_ids: list[str], variant: str, seed: int) -> list[tuple[str, str, str, str, str]]:
    """(case id, doctor, reply, mark, added) of every answered turn (``added``: what the person present said after the
    patient's reply, printed on its own line and never linted as the patient's); a reply the person with the patient gave (the turn's
    speaker is the informant) is marked ``(informant)``, so that a reader never takes it for the patient's."""
    from mentalhospital_env.evaluation import EvaluationSpec, run_episode

    spec = EvaluationSpec(suite=suite, patient_variant=variant, seeds=(seed,))
    out = []
    for case_id in case_ids:
        record = run_episode("scripted", spec, case_id, seed)["record"]
        for turn in record["chart"]["turns"]:
            if turn.get("doctor") and turn.get("patient"):
                mark = " (informant)" if turn.get("speaker") == "informant" else ""
                # the patient seen without the person who came with them (asked out, or sent out before the start)
                mark += " (seen alone)" if turn.get("alone") else ""
                # what the person present said after the patient's reply (a correction), on its own line
                added = f"\n  P (informant, after): {turn['added']}" if turn.get("added") else ""
                out.append((case_id, turn["doctor"], turn["patient"], mark, added))
    return out


def main(argv: list[str] | None = None) -> int:
    from mentalhospital_env.cases import load_suite

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--suites", default="handwritten,dev")
    ap.add_argument("--cases", type=int, default=10, help="cases drawn from each suite other than handwritten")
    ap.add_argument("--variant", default="full")
    ap.add_argument("--whole", type=Path, help="a case file: lint every reply of a whole scripted episode")
    args = ap.parse_args(argv)
    if args.whole:
        loaded = load_suite(args.whole)
        cases = {c.case_id: c.to_dict() for c in loaded.cases}
        lints = Lints()
        pairs = turns_of(str(args.whole), list(cases), args.variant, args.seed)
        failing = 0
        for i, (case_id, doctor, patient, mark, added) in enumerate(pairs, 1):
            found = lints.check(patient, doctor, cases[case_id])
            failing += bool(found)
            print(f"[{i}] {case_id}\n  D: {doctor}\n  P{mark}: {patient}{added}" + (f"\n  lints: {'; '.join(found)}" if found else ""))
        print(f"\n{failing} of {len(pairs)} replies fail a lint (seed {args.seed}, variant {args.variant})")
        return 0
    rng = random.Random(args.seed)
    pairs: list[tuple[str, str, str, str, str]] = []
    cases = {}
    for suite in args.suites.split(","):
        loaded = load_suite(suite)
        ids = [c.case_id for c in loaded.cases]
        if suite != "handwritten":
            ids = rng.sample(ids, min(args.cases, len(ids)))
        cases.update({c.case_id: c.to_dict() for c in loaded.cases if c.case_id in ids})
        pairs += turns_of(suite, ids, args.variant, args.seed)
    lints = Lints()
    sample = rng.sample(pairs, min(args.n, len(pairs)))
    print(f"reading sample: seed {args.seed}, variant {args.variant}, {len(sample)} of {len(pairs)} turns "
          f"from scripted-doctor episodes on {len(cases)} cases ({args.suites})")
    for i, (case_id, doctor, patient, mark, added) in enumerate(sample, 1):
        found = lints.check(patient, doctor, cases[case_id])
        print(f"[{i}] {case_id}\n  D: {doctor}\n  P{mark}: {patient}{added}" + (f"\n  lints: {'; '.join(found)}" if found else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
