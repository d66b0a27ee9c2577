"""How fast is scoring? A 30-turn episode scored end to end with the offline defaults.

Measures, on one core (``OMP_NUM_THREADS=1`` and friends are set before numpy loads):

1. ``score_chart``: the study's ten columns of a finished 30-turn chart (interview, exam and note
   coverage with the offline matcher, category F1, nDCG, the offline MentalEval judge), with the
   case's checkpoint embeddings cached (the scorer is warm) and every output text new (each run
   writes a chart no cache has seen);
2. ``RewardShaper``: the same episode step by step (30 asks, exams, note, diagnosis, plan, finish),
   as the environment pays it;
3. incremental interview coverage: the cost of one ``InterviewCoverage.update`` at turn 22 and at
   turn 56 of one episode, two follow-up replies built on the same exemplary reply, each with words
   of its own (their ratio should be near 1: a step's cost does not grow with the
   transcript);
4. the offline judge alone;
5. under load: ``score_chart``'s CPU time (``time.process_time``, which other processes' load inflates far less
   than the wall clock) and a reference workload that imports nothing from the library (regex tokenising,
   counting and sorting a fixed synthetic text, the kind of work a reading does), timed in CPU time just before
   each run: ``score_chart / reference`` (and interview + note coverage / reference), medians. The 50 ms budget
   holds on a machine where the reference takes under ``50 / ratio`` ms.

Run: ``python benchmarks/scoring.py [--runs 20] [--json]``. Target: under 50 ms per episode for (1).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import re
import statistics
import time
from dataclasses import replace

from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.coverage import InterviewCoverage, default_matcher
from mentalhospital_env.rewards.mentaleval import OfflineJudge
from mentalhospital_env.rewards.mentaleval.ladders import calibration_case, exemplary_chart
from mentalhospital_env.rewards.scoring import Scorer
from mentalhospital_env.rewards.shaping import RewardConfig, RewardShaper

_FOLLOW_UPS = (
    "When did that start?",
    "How has that affected your work?",
    "What makes it better or worse?",
    "Who else knows about this?",
    "How often does that happen?",
    "What happened the last time?",
)
_WORDS = ("today", "again", "mostly", "lately", "honestly", "really", "somehow", "anyway", "truly", "still")


def _tag(run: int) -> str:
    """A few words no earlier run used, so output texts miss every cache."""
    digits = f"{run:04d}"
    return " ".join(_WORDS[int(d)] for d in digits)


def episode_chart(base: Chart, turns: int, run: int) -> Chart:
    """A chart of ``turns`` interview turns built from the exemplary one, every text unique to ``run``."""
    tag = _tag(run)
    out: list[Turn] = []
    i = 0
    while len(out) < turns:
        source = base.turns[i % len(base.turns)]
        if i < len(base.turns):
            out.append(Turn(source.doctor, f"{source.patient} ({tag})", source.fact_ids))
        else:
            question = _FOLLOW_UPS[i % len(_FOLLOW_UPS)]
            # the turn's own words too: a reply repeated with the same checkpoints open is a look-up
            # (rewards.coverage.MATCH_MEMORY), and every turn here should cost what a new reply costs
            out.append(Turn(question, f"{source.patient} I think it was {tag}, {_tag(i)}.", ()))
        i += 1
    note = "\n".join(f"{line} ({tag})" if line.strip() else line for line in (base.note or "").splitlines())
    return replace(base, turns=tuple(out), note=note, treatment=f"{base.treatment} ({tag})")


def _ms(samples: list[float]) -> dict[str, float]:
    return {
        "median_ms": 1000 * statistics.median(samples),
        "min_ms": 1000 * min(samples),
        "max_ms": 1000 * max(samples),
    }


_REFERENCE_TEXT = " ".join(
    f"Patient {i} reports {w} sleep, {v} appetite and {u} mood for {i % 9 + 1} weeks; denies voices."
    for i, (w, v, u) in enumerate(
        [("poor", "reduced", "low"), ("broken", "normal", "flat"), ("good", "increased", "anxious")] * 150
    )
)
_WORD = re.compile(r"[a-z0-9']+")


def reference_work() -> int:
    """A fixed workload with nothing of the library in it (a yardstick of the machine's speed under its
    present load): tokenise, count and sort a synthetic text of about 450 short statements."""
    counts: dict[str, int] = {}
    for sentence in _REFERENCE_TEXT.split(";"):
        for token in _WORD.findall(sentence.lower()):
            counts[token] = counts.get(token, 0) + 1
    return len(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def run(runs: int) -> dict[str, object]:
    case = calibration_case()
    base = exemplary_chart(case)
    scorer = Scorer()  # offline defaults: hashing embedder, clinical adjudicator, offline judge
    scorer.score(case, episode_chart(base, 30, 9999))  # warm: checkpoint embeddings, knowledge base

    score_times, score_cpu, reference_cpu = [], [], []
    for r in range(runs):
        chart = episode_chart(base, 30, r)
        c = time.process_time()
        reference_work()
        reference_cpu.append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        scorer.score(case, chart)
        score_times.append(time.perf_counter() - t)
        score_cpu.append(time.process_time() - c)

    shaper = RewardShaper(case, RewardConfig(), matcher=scorer.matcher)
    shape_times = []
    for r in range(runs):
        chart = episode_chart(base, 30, 1000 + r)
        t = time.perf_counter()
        shaper.replay(chart)
        shape_times.append(time.perf_counter() - t)

    early, late = [], []
    for r in range(runs):
        coverage = InterviewCoverage(case, scorer.matcher)
        chart = episode_chart(base, 56, 3000 + r)
        for n, turn in enumerate(chart.turns, 1):
            t = time.perf_counter()
            coverage.update(turn.patient)
            dt = time.perf_counter() - t
            if n == 22:  # turns 22 and 56 reply on the same exemplary turn (17 of them), so alike in size
                early.append(dt)
            elif n == 56:
                late.append(dt)

    # Where score_chart's time goes, part by part, on fresh charts.
    from mentalhospital_env.rewards.coverage import exam_coverage, interview_coverage, note_coverage
    from mentalhospital_env.rewards.ranking import category_scores, exam_scores, rank_disorders

    parts: dict[str, list[float]] = {"interview_coverage": [], "note_coverage": [], "exams_and_diagnosis": []}
    part_references, coverage_cpu = [], []
    for r in range(runs):
        chart = episode_chart(base, 30, 5000 + r)
        c = time.process_time()
        reference_work()
        part_references.append(time.process_time() - c)
        fresh = episode_chart(base, 30, 7000 + r)  # its own texts: the timed parts below must find no memo warm
        c = time.process_time()
        interview_coverage(case, fresh.patient_replies, scorer.matcher)
        note_coverage(case, fresh.note, scorer.matcher)
        coverage_cpu.append(time.process_time() - c)
        t = time.perf_counter()
        interview_coverage(case, chart.patient_replies, scorer.matcher)
        t1 = time.perf_counter()
        note_coverage(case, chart.note, scorer.matcher)
        t2 = time.perf_counter()
        exam_coverage(case, chart.exams)
        exam_scores(chart.exams, case.checkpoints.exam)
        category_scores(chart.categories, case.diagnosis.categories)
        rank_disorders(chart.disorders, case.diagnosis.codes)
        t3 = time.perf_counter()
        parts["interview_coverage"].append(t1 - t)
        parts["note_coverage"].append(t2 - t1)
        parts["exams_and_diagnosis"].append(t3 - t2)

    judge = OfflineJudge()
    judge.score(case, base)
    judge_times = []
    for r in range(runs):
        chart = episode_chart(base, 30, 4000 + r)
        t = time.perf_counter()
        judge.score(case, chart)
        judge_times.append(time.perf_counter() - t)

    return {
        "case": case.case_id,
        "turns": 30,
        "runs": runs,
        "matcher": repr(default_matcher()),
        "score_chart": _ms(score_times),
        "shaper_episode": _ms(shape_times),
        "interview_update_turn22": _ms(early),
        "interview_update_turn56": _ms(late),
        "turn56_over_turn22": statistics.median(late) / statistics.median(early),
        "offline_judge": _ms(judge_times),
        **{f"part_{k}": _ms(v) for k, v in parts.items()},
        "score_chart_cpu": _ms(score_cpu),
        "reference_cpu": _ms(reference_cpu + part_references),
        "score_chart_over_reference": statistics.median(score_cpu) / statistics.median(reference_cpu),
        "coverage_over_reference": statistics.median(coverage_cpu) / statistics.median(part_references),
    }


def reread_comparison(runs: int) -> dict[str, dict[str, float]]:
    """``score_chart`` in CPU time with the per-encounter and per-text memos of the note checks bypassed (each reader
    reads the chart afresh, as before they were kept) and in place, runs interleaved in one process, fresh texts each
    run: the memos' saving under the same load."""
    from mentalhospital_env.rewards.mentaleval import note_faults, offline, precision

    from mentalhospital_env.knowledge import answers
    from mentalhospital_env.knowledge.critical import CriticalActions

    remembered = [
        (answers, "_patient_findings"),
        (precision, "encounter_evidence"),
        (precision, "check_note"),
        (offline, "check_note"),
        (note_faults, "note_faults"),
        (offline, "note_faults"),
    ]
    kept = {(owner, name): (getattr(owner, name), getattr(owner, name).__wrapped__) for owner, name in remembered}
    kept[(CriticalActions, "check")] = (CriticalActions.check, CriticalActions._check)

    def memos(on: bool) -> None:
        for (owner, name), (with_memo, without) in kept.items():
            setattr(owner, name, with_memo if on else without)

    case = calibration_case()
    base = exemplary_chart(case)
    scorer = Scorer()
    scorer.score(case, episode_chart(base, 30, 9999))
    times: dict[str, list[float]] = {"reread": [], "remembered": []}
    try:
        for r in range(runs):
            for on in (True, False) if r % 2 else (False, True):
                memos(on)
                chart = episode_chart(base, 30, 20000 + 2 * r + on)
                c = time.process_time()
                scorer.score(case, chart)
                times["remembered" if on else "reread"].append(time.process_time() - c)
    finally:
        memos(True)
    return {k: _ms(v) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--reread", action="store_true", help="only score_chart's CPU time with the note checks' memos off and on"
    )
    args = parser.parse_args()
    if args.reread:
        for key, f in reread_comparison(args.runs).items():
            print(f"  score_chart CPU, {key:10s} median {f['median_ms']:8.2f} ms   (min {f['min_ms']:.2f}, max {f['max_ms']:.2f})")
        return
    figures = run(args.runs)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"case {figures['case']}, 30-turn episode, {figures['runs']} runs, {figures['matcher']}")
    keys = ["score_chart", *(k for k in figures if k.startswith("part_")), "offline_judge", "shaper_episode"]
    for key in (*keys, "interview_update_turn22", "interview_update_turn56"):
        f = figures[key]
        print(f"  {key:26s} median {f['median_ms']:8.2f} ms   (min {f['min_ms']:.2f}, max {f['max_ms']:.2f})")
    print(f"  incremental coverage cost, turn 56 / turn 22: {figures['turn56_over_turn22']:.2f}")
    ratio = figures["score_chart_over_reference"]
    print(
        f"  CPU time (this process's, which other processes' load inflates far less than the clock): score_chart "
        f"median {figures['score_chart_cpu']['median_ms']:.2f} ms, reference workload "
        f"{figures['reference_cpu']['median_ms']:.2f} ms"
    )
    print(
        f"  score_chart / reference (CPU medians): {ratio:.2f}; interview + note coverage / reference: "
        f"{figures['coverage_over_reference']:.2f}; the 50 ms budget holds where the reference takes under "
        f"{50 / ratio:.2f} ms"
    )
    print(
        f"  target: score_chart under 50 ms -> {'met' if figures['score_chart']['median_ms'] < 50 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
