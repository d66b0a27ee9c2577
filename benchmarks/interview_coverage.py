"""Interview coverage that the patient's replies earn: what was disclosed, and whether it was credited.

Runs the scripted clinician against the offline patient over a suite, then sorts every interview
checkpoint derived from a fact (id ``"i-" + fact id``) into one of three bins:

* ``covered``: some reply entails the checkpoint (the scorer credited it);
* ``disclosed, not matched``: the patient disclosed the fact but no reply was credited for it
  (the reply was not self-contained, or the matcher missed it);
* ``not disclosed``: the patient never disclosed the fact.

Checkpoints not derived from a fact are counted only in the mean coverage.

    python benchmarks/interview_coverage.py --suite test --limit 40 [--show 20]

``--show N`` prints N disclosed-but-unmatched checkpoints with the reply that disclosed them;
``--dump PATH`` writes each case's covered and disclosed ids and transcript. ``--content-only`` is a
second lens on the same transcripts: sentences that name nothing of the record (a bare "No.", "Not
that I know of.") are dropped before matching, so a checkpoint counts only when a reply says what it
is about (the mean coverage printed first is always the episode's own score).
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
    parser.add_argument(
        "--content-only",
        action="store_true",
        help="drop reply sentences that name no lexicon concept and no word of the case's checkpoints",
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
        record_words = _record_words(case) if args.content_only else None
        said_by: dict[str, str] = {}
        for turn in turns:
            reply = turn["patient"]
            tracker.update(reply if record_words is None else _with_content(reply, record_words))
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
    if args.content_only:
        print("bins below: content-only lens (reply sentences naming nothing of the record dropped)")
    print(f"covered                      {covered}")
    print(f"disclosed, not matched       {missed}")
    print(f"not disclosed                {hidden}")
    for case_id, checkpoint, reply in examples[: args.show]:
        print(f"  [{case_id}] {checkpoint!r} | {reply!r}")
    return {"mean": mean, "covered": covered, "missed": missed, "hidden": hidden}


def _record_words(case) -> frozenset[str]:
    """Stems of the case's interview checkpoints that carry content (not stopwords, not yes or no)."""
    from mentalhospital_env.knowledge.language import stems
    from mentalhospital_env.patient.understanding import load_taxonomy

    stop = load_taxonomy().stopwords | set(stems("no not never none nothing yes"))
    return frozenset(
        s for c in case.checkpoints.interview for s in stems(c.text) if s not in stop and len(s) > 2
    )


def _with_content(reply: str, record_words: frozenset[str]) -> str:
    """The reply without its sentences that name no lexicon concept and no content word of the record."""
    from mentalhospital_env.knowledge.language import stems
    from mentalhospital_env.knowledge.lexicon import load_lexicon
    from mentalhospital_env.patient.memory import split_statements

    lexicon = load_lexicon()
    kept = [s for s in split_statements(reply) if lexicon.find(s) or set(stems(s)) & record_words]
    return ". ".join(kept) + ("." if kept else "")


if __name__ == "__main__":
    main()
