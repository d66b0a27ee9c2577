"""Per-step cost of incremental interview coverage, at turn 5 versus turn 50.

    python benchmarks/coverage_speed.py                 # 20 cases of the dev suite, hashing embedder
    python benchmarks/coverage_speed.py --cases 50 --embedder use

For each case, the offline patient answers 50 clinician questions (the lexicon's questions, cycled);
`InterviewCoverage.update(reply)` is timed at every turn, with the checkpoint embeddings and readings
computed once when the tracker is built (as in an episode); replies are never cached from an earlier
repeat (each repeat clears the caches first, and the fastest of the repeats is kept per turn). The
figure of interest is the median cost of the update at turn 5 against turn 50: each update checks
only the checkpoints still uncovered against the new reply, so the ratio should stay near 1 (or fall
below it as checkpoints get covered) however long the transcript. The batch recomputation of the whole
transcript at turn 50 is printed beside it for contrast. Run on one core:
`taskset -c 0 python benchmarks/coverage_speed.py`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from mentalhospital_env.rewards.adjudication import read_statement, statement_conflict
from mentalhospital_env.rewards.coverage import MATCH_MEMORY, InterviewCoverage, interview_coverage
from mentalhospital_env.rewards.matching import Matcher, MatcherConfig

from mentalhospital_env.cases import load_suite
from mentalhospital_env.knowledge.lexicon import load_lexicon
from mentalhospital_env.patient import make_patient

TURNS = 50


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--suite", default="dev")
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--embedder", default="hashing")
    parser.add_argument(
        "--repeats", type=int, default=3, help="timed runs per case (the minimum is kept per turn)"
    )
    args = parser.parse_args(argv)

    suite = load_suite(args.suite)
    questions = [q for concept in load_lexicon().concepts for q in concept.questions]
    matcher = Matcher(MatcherConfig(embedder=args.embedder))
    per_turn: list[list[float]] = [[] for _ in range(TURNS)]
    batch_ms: list[float] = []
    checkpoints = 0
    for index, case in enumerate(suite.cases[: args.cases]):
        patient = make_patient(case, seed=index)
        replies = [patient.respond(questions[(index * 7 + t) % len(questions)]).text for t in range(TURNS)]
        best = [float("inf")] * TURNS
        for _ in range(args.repeats):
            # Every repeat starts cold for the replies: no embedding, reading or verdict of a reply is
            # cached from an earlier repeat. The tracker then encodes and reads the checkpoints, once.
            matcher.embedder.cache.clear()
            read_statement.cache_clear()
            statement_conflict.cache_clear()
            if hasattr(matcher.adjudicator, "clear_cache"):
                matcher.adjudicator.clear_cache()  # its remembered verdicts and output similarities
            MATCH_MEMORY.clear()  # coverage's memory of matcher answers (a repeat would only look them up)
            tracker = InterviewCoverage(case, matcher)
            for turn, reply in enumerate(replies):
                start = time.perf_counter()
                tracker.update(reply)
                best[turn] = min(best[turn], time.perf_counter() - start)
        for turn in range(TURNS):
            per_turn[turn].append(best[turn] * 1000)
        start = time.perf_counter()
        interview_coverage(case, replies, matcher)
        batch_ms.append((time.perf_counter() - start) * 1000)
        checkpoints += len(case.checkpoints.interview)

    n = len(per_turn[0])
    at5, at50 = statistics.median(per_turn[4]), statistics.median(per_turn[TURNS - 1])
    window5 = statistics.median(x for t in range(2, 8) for x in per_turn[t])
    window50 = statistics.median(x for t in range(TURNS - 6, TURNS) for x in per_turn[t])
    print(
        f"{n} cases of {args.suite!r}, {checkpoints / n:.1f} interview checkpoints per case, embedder {matcher.embedder.name}"
    )
    print(f"update at turn 5:  median {at5:.3f} ms   (turns 3-8:   {window5:.3f} ms)")
    print(f"update at turn 50: median {at50:.3f} ms   (turns 45-50: {window50:.3f} ms)")
    print(f"ratio turn 50 / turn 5: {at50 / at5:.2f}   (windows: {window50 / window5:.2f})")
    print(
        f"whole 50-turn interview incrementally: {statistics.median(sum(per_turn[t][i] for t in range(TURNS)) for i in range(n)):.1f} ms per case"
    )
    print(
        f"batch recomputation of all 50 replies at once: median {statistics.median(batch_ms):.1f} ms per case"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
