"""Does the scripted clinician write safe plans and precise notes, and does the judge fail the unsafe ones?

On a suite (default: the leaderboard's, ``test-v2``, seed 0, turn budget 40, the offline patient), plays three
doctors and scores each chart with the offline judge:

* ``scripted``: the scripted clinician;
* ``dangerous``: the same clinician with every critical action left out of its plan
  (``ScriptedClinician(critical_actions=False)``);
* ``random``: the random floor.

Reports, per doctor: note-precision errors (total, notes with any, the commonest), the share of cases with
critical actions (``knowledge/data/critical_actions.json``, read from each case's record) whose plan carries
every one of them, contraindications proposed, and App. on the cases with critical actions (mean, share at
most 2). Targets: scripted notes with zero errors; scripted plans complete in at least 95% of the cases with
critical actions; dangerous and random App. at most 2 on those cases.

Run: ``python benchmarks/clinician_safety.py [--suite test-v2] [--limit N] [--doctors scripted,dangerous,random]
[--json PATH] [--show N]`` (``--show`` prints the first N scripted notes and plans to read).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import collections
import json
import statistics
import time
from typing import Any

import gymnasium

import mentalhospital_env  # noqa: F401  (registers the environments)
from mentalhospital_env.agents.random_doctor import RandomDoctor
from mentalhospital_env.agents.scripted import ScriptedClinician
from mentalhospital_env.cases import load_suite
from mentalhospital_env.evaluation import LEADERBOARD_SPEC
from mentalhospital_env.knowledge.critical import load_critical_actions
from mentalhospital_env.rewards.mentaleval import OfflineJudge
from mentalhospital_env.rewards.mentaleval.precision import check_note

DOCTORS = {
    "scripted": lambda: ScriptedClinician(),
    "dangerous": lambda: ScriptedClinician(critical_actions=False),
    "random": lambda: RandomDoctor(0),
}


def play(env: Any, doctor: Any, case_id: str, seed: int = 0) -> Any:
    observation, info = env.reset(seed=seed, options={"case_id": case_id})
    doctor.reset(observation, info)
    for _ in range(400):
        observation, _, terminated, truncated, info = env.step(doctor.act(observation, info))
        if terminated or truncated:
            break
    return env.unwrapped.episode_record().chart


def run(suite_name: str, doctors: list[str], limit: int | None, show: int) -> dict[str, Any]:
    suite = load_suite(suite_name)
    cases = list(suite.cases)[:limit] if limit else list(suite.cases)
    actions = load_critical_actions()
    judge = OfflineJudge()
    env = gymnasium.make("MentalHospital-v0", suite=suite_name, turn_budget=40)
    report: dict[str, Any] = {"suite": suite_name, "cases": len(cases), "doctors": {}}
    for name in doctors:
        rows = []
        t0 = time.perf_counter()
        for case in cases:
            chart = play(env, DOCTORS[name](), case.case_id)
            plan = chart.treatment or ""
            check = actions.check_case(case, plan)
            precision = check_note(case, chart) if (chart.note or "").strip() else None
            scores = judge.score(case, chart)
            rows.append(
                {
                    "case_id": case.case_id,
                    "required": sorted({r.action for r in check.required}),
                    "missing": sorted({r.action for r in check.missing}),
                    "contraindicated": sorted({c.action for c in check.contraindicated}),
                    "note_errors": [(e.concept, e.asserted, e.why) for e in precision.errors] if precision else None,
                    "app": scores["treatment_appropriateness"],
                    "qual": scores["note_quality"],
                    "note": chart.note,
                    "plan": plan,
                }
            )
        with_actions = [r for r in rows if r["required"]]
        complete = [r for r in with_actions if not r["missing"]]
        errors = [e for r in rows for e in (r["note_errors"] or [])]
        apps = [r["app"] for r in with_actions if r["app"] is not None]
        report["doctors"][name] = {
            "seconds": round(time.perf_counter() - t0, 1),
            "notes": sum(r["note"] is not None and bool((r["note"] or "").strip()) for r in rows),
            "note_errors": len(errors),
            "notes_with_errors": sum(bool(r["note_errors"]) for r in rows),
            "commonest_errors": collections.Counter(f"{c} {a}: {w}" for c, a, w in errors).most_common(8),
            "cases_with_critical_actions": len(with_actions),
            "plans_complete": len(complete),
            "plans_complete_share": round(len(complete) / len(with_actions), 4) if with_actions else None,
            "commonest_missing": collections.Counter(a for r in with_actions for a in r["missing"]).most_common(8),
            "plans_contraindicated": sum(bool(r["contraindicated"]) for r in rows),
            "app_on_critical_cases_mean": round(statistics.fmean(apps), 3) if apps else None,
            "app_on_critical_cases_max": max(apps) if apps else None,
            "app_at_most_2_share": round(sum(a <= 2.0 for a in apps) / len(apps), 4) if apps else None,
            "qual_mean": round(statistics.fmean(r["qual"] for r in rows if r["qual"] is not None), 3),
            "rows": rows,
        }
    env.close()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suite", default=LEADERBOARD_SPEC.suite)
    parser.add_argument("--doctors", default="scripted,dangerous,random")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", default=None, help="write the full report (every row) here")
    parser.add_argument("--show", type=int, default=0, help="print the first N scripted notes and plans")
    args = parser.parse_args()
    report = run(args.suite, [d.strip() for d in args.doctors.split(",") if d.strip()], args.limit, args.show)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    print(f"suite {report['suite']}: {report['cases']} cases, seed 0, turn budget 40")
    for name, r in report["doctors"].items():
        summary = {k: v for k, v in r.items() if k != "rows"}
        print(f"\n== {name}")
        for k, v in summary.items():
            print(f"  {k}: {v}")
    scripted = report["doctors"].get("scripted")
    if scripted and args.show:
        for row in scripted["rows"][: args.show]:
            print(f"\n---- {row['case_id']} required={row['required']} missing={row['missing']} App={row['app']} Qual={row['qual']}")
            print(row["note"])
            print("PLAN:", row["plan"])


if __name__ == "__main__":
    main()
