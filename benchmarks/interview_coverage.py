"""Interview coverage that the patient's replies earn: what was disclosed, and whether it was credited.

Runs the scripted clinician against the offline patient over a suite, then sorts every interview
checkpoint derived from a fact (id ``"i-" + fact id``) into one of three bins:

* ``covered``: some reply entails the checkpoint (the scorer credited it);
* ``disclosed, not matched``: the patient disclosed the fact but no reply was credited for it
  (the reply was not self-contained, or the matcher missed it);
* ``not disclosed``: the patient never disclosed the fact.

Checkpoints not derived from a fact are counted only in the mean coverage.

    python benchmarks/interview_coverage.py --suite test --limit 40 [--show 20]

``--show N`` prints N disclosed-but-unmatched checkpoints with the reply that disclosed them.
"""

from __future__ import annotations

import argparse
import json
import statistics


def main(argv: list[str] | None = None) -> dict[str, float]:
    from mentalhospital_env.rewards.coverage import InterviewCoverage

    from mentalhospital_env.evaluation import EvaluationSpec, run_episode

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="test")
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--doctor", default="scripted")
    parser.add_argument(
        "--show", type=int, default=0, help="print this many disclosed-but-unmatched examples"
    )
    parser.add_argument(
        "--dump", help="write each case's covered, disclosed and transcript to this JSON file"
    )
    args = parser.parse_args(argv)

    spec = EvaluationSpec(suite=args.suite, limit=args.limit)
    suite = spec.load_suite()
    case_ids = [c.case_id for c in suite][: args.limit]
    scores: list[float] = []
    covered = missed = hidden = 0
    examples: list[tuple[str, str, str]] = []
    dump: dict[str, dict] = {}
    for case_id in case_ids:
        episode = run_episode(args.doctor, spec, case_id, args.seed)
        case = suite[case_id]
        scores.append(float(episode["scores"]["inter"]))
        turns = episode["record"]["chart"]["turns"]
        tracker = InterviewCoverage(case)
        said_by: dict[str, str] = {}
        for turn in turns:
            tracker.update(turn["patient"])
            for fid in turn["fact_ids"]:
                said_by.setdefault(fid, turn["patient"])
        dump[case_id] = {
            "covered": sorted(tracker.covered_ids),
            "disclosed": sorted(said_by),
            "turns": [[t["doctor"], t["patient"]] for t in turns],
        }
        for checkpoint in case.checkpoints.interview:
            if not checkpoint.id.startswith("i-"):
                continue
            fid = checkpoint.id[2:]
            if checkpoint.id in tracker.covered_ids:
                covered += 1
            elif fid in said_by:
                missed += 1
                examples.append((case_id, checkpoint.text, said_by[fid]))
            else:
                hidden += 1
    mean = statistics.fmean(scores) if scores else 0.0
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            json.dump(dump, f, indent=1)
    print(
        f"{args.doctor} clinician, offline full patient, suite {args.suite}, {len(case_ids)} cases, seed {args.seed}"
    )
    print(f"mean interview coverage      {mean:.3f}")
    print(f"covered                      {covered}")
    print(f"disclosed, not matched       {missed}")
    print(f"not disclosed                {hidden}")
    for case_id, checkpoint, reply in examples[: args.show]:
        print(f"  [{case_id}] {checkpoint!r} | {reply!r}")
    return {"mean": mean, "covered": covered, "missed": missed, "hidden": hidden}


if __name__ == "__main__":
    main()
