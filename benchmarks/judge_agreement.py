"""Agreement of MentalEval judges with hand ratings (the study's Table 5 shape).

The hand ratings (``benchmarks/data/judge_agreement/ratings.jsonl``) are 1-5 scores of treatment plans
(App.) and clinical notes (Qual.), written and rated by hand before any judge was run on them; each note
is judged against the frozen encounter it was written from (``encounters.json``) and every item against the record it
was rated against (``records.json`` freezes those a later redraw of the suite changed). For each judge this
prints QWK, exact accuracy and MAE with seeded bootstrap 95% intervals, on all items, on the earlier set (every
item but the scripted slice), on its held-out half (``split == "held_out"``: cases the judge's cue lists were not tuned
on) and on the scripted slice (``split == "scripted"``: the scripted clinician's own notes and plans on test-v2, rated
by hand before any judge ran on them and never tuned on; the realistic output the judge must not be lenient on) and on
the stop-28 slice (``split == "held_out28"``: the scripted clinician's note and plan on 10 further test-v2 cases drawn
with seed 2828, plus hand-written variants on the same encounters, rated before any judge ran on them; read while
mending the judge in stop 29, so it is development since) and on the stop-29 slice (``split == "held_out29"``: the
scripted clinician's note and plan on 10 further test-v2 cases drawn with seed 2929, plus hand-written variants, rated
before any judge ran on them; never tuned on) and on the stop-30 slice (``split == "held_out30"``: the scripted clinician's
note and plan on 10 further test-v2 cases drawn with seed 3030, plus hand-written variants, written and rated at stop 30
before any judge ran on them; never tuned on) and on the stop-31 slice (``split == "held_out31"``: the scripted clinician's note and plan on
10 further test-v2 cases drawn with seed 3131, plus hand-written variants, written and rated at stop 31 by a writer who had
not read the judge's rules, before any judge ran on them; read at stop 32, development since) and on the stop-32 slice
(``split == "held_out32"``: the scripted clinician's note and plan on 10 further test-v2 cases drawn with seed 3232, plus
five hand-written plans and three hand-written notes on each encounter, rated at stop 32 by a consultant who read no code
of the library, before any judge ran on them; read at stop 33) and on the stop-33 slice (``split == "held_out33"``: the
same on 10 further test-v2 cases of stop 33's draw, seed 3333, rated by a consultant who read no code of the library;
read at stop 34) and on the stop-34 slice (``split == "held_out34"``: the same on 10 further test-v2 cases, seed 3434,
played at a629fb8 and rated by a consultant who read no code of the library; read at stop 35) and on the stop-35 slice
(``split == "held_out35"``: the same on 10 further test-v2 cases, seed 3535, played at c770a5d and rated by a consultant
who read no code of the library; read at stop 36) and on the stop-36 slice (``split == "held_out36"``: the same on 10
further test-v2 cases, seed 3636, played at 9b80d3d and rated by a consultant who read no code of the library; read at
stop 37) and on the stop-37 slice (``split == "held_out37"``: the same on 10 further test-v2 cases, seed 3737, played at
4019686 and rated by a consultant who read no code of the library; read at stop 38) and on the stop-38 slice
(``split == "held_out38"``: the same on 10 further test-v2 cases, seed 3838, played at 1c5421f and rated by a
consultant who read no code of the library; read at stop 39) and on the stop-39 slice (``split == "held_out39"``: the
same on 10 further test-v2 cases, seed 3939, played at 87a193a and rated by a consultant who read no code of the library;
read at stop 40) and on the stop-40 slice (``split == "held_out40"``: the same on 10 further test-v2 cases, seed 4040,
played at ca53a5d and rated by consultants who read no code of the library; read at stop 41) and on the stop-41 slice
(``split == "held_out41"``: the same on 10 further test-v2 cases, seed 4141, played at 5670465 and rated by consultants
who read no code of the library; read at stop 42) and on the stop-42 slice (``split == "held_out42"``: the same on 10
further test-v2 cases, seed 4242, played at d1846b4 and rated by consultants who read no code of the library; read at
stop 43) and on the stop-43 slice (``split == "held_out43"``: the same on 10 further test-v2 cases, seed 4343, played at
4e7e189 and rated by consultants who read no code of the library; read at stop 44) and on the stop-44 slice
(``split == "held_out44"``: the same on 10 further test-v2 cases, seed 4444, played at c6bf17a and rated by
consultants who read no code of the library; read at stop 45) and on the stop-45 slice (``split == "held_out45"``: the
same on 10 further test-v2 cases, seed 4545, played at 51369c7 and rated by consultants who read no code of the library;
read at stop 46) and on the stop-46 slice (``split == "held_out46"``: the same on 10 further test-v2 cases, seed 4646, played at
ef707c4 and rated by consultants who read no code of the library; read at stop 47) and on the stop-47 slice (``split ==
"held_out47"``: the same on 10 further test-v2 cases, seed 4747, played at 19756ca and rated by consultants who read no
code of the library; read at stop 48 and 49) and on the stop-49 slice (``split ==
"held_out49"``: the same on 10 further test-v2 cases, seed 4949, played at 184b3e4 and rated by a consultant who read no
code of the library; read at stop 50; no slice was drawn at stop 48) and on the stop-50 slice (``split ==
"held_out50"``: the same on 10 further test-v2 cases, seed 5050 over the unrated test-v2 ids no pair set reads, played at
cb8a4f7c and rated by a consultant who read no code of the library; read at stop 51) and on the stop-51 slice (``split ==
"held_out51"``: the same on 10 further test-v2 cases, seed 5151 over the unrated test-v2 ids no pair set reads, played at
d40d291d and rated by a consultant who read no code of the library; read at stop 52) and on the stop-52 slice (``split ==
"held_out52"``: the same on 10 further test-v2 cases, seed 5252 over the unrated test-v2 ids no pair set reads, played at
b0e924bd and rated by a consultant who read no code of the library; read at stop 53) and on the stop-53 slice (``split ==
"held_out53"``: the same on 10 further test-v2 cases, seed 5353 over the unrated test-v2 ids no pair set reads, played at
45e30f33 and rated by a consultant who read no code of the library; read at stop 54) and on the stop-54 slice (``split ==
"held_out54"``: the same on 10 further test-v2 cases, seed 5454 over the unrated test-v2 ids no pair set reads, played at
ecba7d6f and rated by a consultant who read no code of the library; read at stop 55) and on the stop-55 slice (``split ==
"held_out55"``: the same on 10 further test-v2 cases, seed 5555 over the unrated test-v2 ids no pair set reads, played at
26303f8a and rated by a consultant who read no code of the library; read at stop 56) and on the stop-56 slice (``split ==
"held_out56"``: the same on 10 further test-v2 cases, seed 5656 over the unrated test-v2 ids no pair set reads, played at
f9d5e8ef and rated by a consultant who read no code of the library; never tuned on).

Judges: ``offline`` (default) and ``llm-tiny`` (the LLM judge through a tiny random Llama built offline,
``mentalhospital_env.llm.tiny``; its scores are noise and the row only shows that the path runs end to
end). Run: ``python benchmarks/judge_agreement.py [--judges offline,llm-tiny] [--json] [--disagreements]``.
Targets: offline QWK >= 0.8 on App. and on Qual.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.rewards.agreement import agreement
from mentalhospital_env.rewards.chart import Chart, Turn

DATA = Path(__file__).parent / "data" / "judge_agreement"
TARGET_QWK = 0.8


def load_ratings(folder: Path = DATA) -> list[dict[str, Any]]:
    rows = []
    with open(folder / "ratings.jsonl", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if "_about" in row:
                continue
            for key in ("id", "kind", "case_id", "suite", "rating", "text", "split"):
                if key not in row:
                    raise ValueError(f"{folder / 'ratings.jsonl'}:{n}: missing {key!r}")
            rows.append(row)
    return rows


def load_encounters(folder: Path = DATA) -> dict[str, dict[str, Any]]:
    raw = json.loads((folder / "encounters.json").read_text("utf-8"))
    return {e["case_id"]: e for e in raw["encounters"]}


def load_records(folder: Path = DATA) -> dict[tuple[str, str], Any]:
    """The records some rows were rated against, frozen beside them (``records.json``): a suite redrawn since
    holds another patient under the same id. Keyed by (suite, case id)."""
    path = folder / "records.json"
    if not path.exists():
        return {}
    raw = json.loads(path.read_text("utf-8"))
    return {(raw["suite"], c["case_id"]): load_case(c) for c in raw["cases"]}


def charts(rows: list[dict[str, Any]], encounters: dict[str, dict[str, Any]]) -> list[tuple[Any, Chart]]:
    """Each rated item as the (case, chart) a judge reads: a plan alone, or a note with its encounter; the case
    is the record the item was rated against (frozen in ``records.json`` where the suite was redrawn since)."""
    suites = {name: load_suite(name) for name in {r["suite"] for r in rows}}
    frozen = load_records()
    out = []
    for r in rows:
        case = frozen.get((r["suite"], r["case_id"])) or suites[r["suite"]][r["case_id"]]
        if r["kind"] == "plan":
            out.append((case, Chart(treatment=r["text"])))
        else:
            e = encounters[r["case_id"]]
            turns = tuple(Turn(t["doctor"], t["patient"]) for t in e["turns"])
            out.append((case, Chart(turns=turns, exam_results=tuple(tuple(p) for p in e["exam_results"]), note=r["text"])))
    return out


def make_judges(names: list[str]) -> dict[str, Any]:
    from mentalhospital_env.rewards.mentaleval import LLMJudge, OfflineJudge

    judges: dict[str, Any] = {}
    for name in names:
        if name == "offline":
            judges[name] = OfflineJudge()
        elif name == "llm-tiny":
            from mentalhospital_env.llm import GenerationSettings, TransformersClient
            from mentalhospital_env.llm.tiny import build_tiny_llama

            path = build_tiny_llama(Path(tempfile.mkdtemp(prefix="tiny_llama_")))
            judges[name] = LLMJudge(TransformersClient(str(path)), settings=GenerationSettings(max_new_tokens=8))
        else:
            raise SystemExit(f"unknown judge {name!r}; choose offline or llm-tiny")
    return judges


_DIMENSION = {"plan": "treatment_appropriateness", "note": "note_quality"}
SPLITS = ("all", "earlier", "held_out", "scripted", "held_out28", "held_out29", "held_out30", "held_out31", "held_out32", "held_out33", "held_out34", "held_out35", "held_out36", "held_out37", "held_out38", "held_out39", "held_out40", "held_out41", "held_out42", "held_out43", "held_out44", "held_out45", "held_out46", "held_out47", "held_out49", "held_out50", "held_out51", "held_out52", "held_out53", "held_out54", "held_out55", "held_out56")
HELD_OUT = "held_out56"  # never read while tuning; --disagreements never lists it (stop 56: held_out55 is development data)

#: Pre-registered at stop 40 (s40-judge), written and committed alone before any change to the judge; the earlier claim
#: (``PREREGISTERED39``) is in ``scripts/fit_judge_calibration.py`` and this one follows its shape. It is decided once, at
#: stop 40's integration, on the fresh slice ``held_out40`` (added by the integrator, never seen by s40-judge), with
#: ``command`` run on the base (``base_commit``, this branch's start) and on the merged build:
#:   the offline judge's rules (s40-judge: root causes grouped over the development slices held_out28..held_out39 and
#:   checked leave-one-slice-out; the therapy for an undescribed disorder; one drug table for the maxima) are a GAIN iff
#:   ALL of
#:   1. App QWK on held_out40 >= base's App QWK on held_out40 + 0.03;
#:   2. Qual QWK on held_out40 >= base's Qual QWK on held_out40 + 0.03;
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out40's scripted-clinician notes and plans, base and merged.
PREREGISTERED40 = {
    "slice": "held_out40",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "ca53a5d",
    "targets": ("App.", "Qual."),
    "claim": {"min_app_qwk_gain": 0.03, "min_qual_qwk_gain": 0.03, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out40's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 40's integration: NOT MET, and both fell. Base (ca53a5d + the sets) App 0.679, Qual 0.624 on
#: held_out40; the s40-judge branch whole App 0.640, Qual 0.579 (scripted App 0.704, Qual 0.829: held). Taken out after
#: the decision because each lowered the fresh slice: the App reweighting and the scoped-negation note reader; kept: the
#: therapy-for-an-undescribed-disorder rule and the one drug table (App 0.716, Qual 0.624, a post hoc figure).

#: Pre-registered at stop 41 (s41-judge), written and committed alone before any change to the judge, in the shape of
#: ``PREREGISTERED40`` above (whose gain reversed on its fresh slice). It is decided once, at stop 41's integration, on the
#: fresh slice ``held_out41`` (10 further test-v2 cases rated by consultants who read no code of the library, added by the
#: integrator, never seen by s41-judge), with ``command`` run on the base (``base_commit``, this branch's start) and on the
#: merged build: the offline judge's changes of s41-judge (how a note's claims are checked against the transcript and how
#: a plan's safety steps are recognised; each kept only if it helped the half of the development slices it was not fitted
#: on) are a GAIN iff ALL of
#:   1. App QWK on held_out41 >= base's App QWK on held_out41 + 0.03;
#:   2. Qual QWK on held_out41 >= base's Qual QWK on held_out41 + 0.03;
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out41's scripted-clinician notes and plans, base and merged.
PREREGISTERED41 = {
    "slice": "held_out41",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "5670465",
    "targets": ("App.", "Qual."),
    "claim": {"min_app_qwk_gain": 0.03, "min_qual_qwk_gain": 0.03, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out41's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 41's integration: NOT MET (Qual missed). Base (5670465 + the sets) App 0.703, Qual 0.317 on
#: held_out41; the s41-judge branch alone App 0.754 (met), Qual 0.317 (no held_out41 note moved); scripted App 0.698,
#: Qual 0.829 (held). After the decision s41-judge2 was fitted ON held_out41 (a "Denies:" header list read to its
#: sentence's end): Qual 0.582 there, a post hoc figure; no development slice moved. held_out41 is development data
#: from stop 42.

#: Pre-registered at stop 42 (s42-judge), written and committed alone before any change to the judge, in the shape of
#: ``PREREGISTERED41`` above (App rose on its fresh slice, Qual did not move; a reader fix found after the decision took
#: Qual to 0.582 there). It is decided once, at stop 42's integration, on the fresh slice ``held_out42`` (10 further
#: test-v2 cases rated by consultants who read no code of the library, added by the integrator, never seen by s42-judge),
#: with ``command`` run on the base (``base_commit``, this branch's start) and on the merged build: the offline judge's
#: changes of s42-judge (how a note's claims are read against the transcript, from the Qual disagreements of every
#: development slice coded by root cause; each kept only if it helped the half of the development slices it was not
#: fitted on) are a GAIN iff ALL of
#:   1. App QWK on held_out42 >= base's App QWK on held_out42 + 0.03;
#:   2. Qual QWK on held_out42 >= base's Qual QWK on held_out42 + 0.03;
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out42's scripted-clinician notes and plans, base and merged.
PREREGISTERED42 = {
    "slice": "held_out42",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "d1846b4",
    "targets": ("App.", "Qual."),
    "claim": {"min_app_qwk_gain": 0.03, "min_qual_qwk_gain": 0.03, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out42's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 42's integration: NOT MET (App and Qual both missed). Base (d1846b4 + the sets) App 0.788, Qual
#: 0.490 on held_out42; the s42-judge branch alone (a negation's reach inside a note's comma list; a note with no
#: headings read as its history and its risk section) App 0.788, Qual 0.490: no held_out42 item moved; scripted App
#: 0.698, Qual 0.829 (held). Over all slices Qual rose 0.666 -> 0.682, on development slices only. held_out42 is
#: development data from stop 43.

#: Pre-registered at stop 43 (s43-judge), written and committed alone before any change to the judge, in the shape of
#: ``PREREGISTERED42`` above (neither App nor Qual moved on its fresh slice; a post hoc reader took merged Qual to 0.505
#: there). It is decided once, at stop 43's integration, on the fresh slice ``held_out43`` (10 further test-v2 cases rated
#: by consultants who read no code of the library, added by the integrator, never seen by s43-judge), with ``command`` run
#: on the base (``base_commit``, this branch's start) and on the merged build: the offline judge's changes of s43-judge
#: (how a note is read against the transcript and a plan against the record, from the disagreements of every development
#: slice, held_out28..held_out42 and tune/held_out/scripted, coded by root cause; each kept only if it helped the half of
#: the development slices it was not fitted on) are a GAIN iff ALL of
#:   1. App QWK on held_out43 >= base's App QWK on held_out43 + 0.03;
#:   2. Qual QWK on held_out43 >= base's Qual QWK on held_out43 + 0.03;
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out43's scripted-clinician notes and plans, base and merged.
PREREGISTERED43 = {
    "slice": "held_out43",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "4e7e189",
    "targets": ("App.", "Qual."),
    "claim": {"min_app_qwk_gain": 0.03, "min_qual_qwk_gain": 0.03, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out43's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 43's integration: NOT MET (App and Qual both missed). Base (4e7e189 + the sets) App 0.801, Qual
#: 0.572 on held_out43; the s43-judge branch alone (a therapy listed only for other disorders earns no therapy credit;
#: access to means and what keeps the patient safe read as answered from the medicines named and the people lived with)
#: App 0.801, Qual 0.572: no held_out43 item moved; scripted App 0.698 -> 0.717, Qual 0.829 (held). The judge's mean
#: (judge - rating) over held_out43's scripted-clinician items: notes +0.76, plans +0.54, base and merged alike (lenient
#: on notes that leave out the reason for referral: 0150's sleep complaint, 0127's empty mental state). held_out43 is
#: development data from stop 44.

#: Pre-registered at stop 44 (s44-judge), written and committed alone before any change to the judge, in the shape of
#: ``PREREGISTERED43`` above (no held_out43 item moved; the judge was lenient by +0.76 on held_out43's scripted notes
#: that leave out the reason for referral). It is decided once, at stop 44's integration, on the fresh slice
#: ``held_out44`` (10 further test-v2 cases rated by consultants who read no code of the library, added by the
#: integrator, never seen by s44-judge), with ``command`` run on the base (``base_commit``, this branch's start) and on
#: the merged build: the offline judge's changes of s44-judge (what a note must carry, read against the transcript: the
#: presenting complaint tied to the reason for referral, the central findings the transcript elicited, risk, an
#: assessment the transcript supports, with omissions scored; from the disagreements of every development slice,
#: held_out28..held_out43 and tune/held_out/scripted, coded by root cause; each kept only if it helped the half of the
#: development slices it was not fitted on) are a GAIN iff ALL of
#:   1. App QWK on held_out44 >= base's App QWK on held_out44 + 0.03;
#:   2. Qual QWK on held_out44 >= base's Qual QWK on held_out44 + 0.03;
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out44's scripted-clinician notes and plans, base and merged.
PREREGISTERED44 = {
    "slice": "held_out44",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "c6bf17a",
    "targets": ("App.", "Qual."),
    "claim": {"min_app_qwk_gain": 0.03, "min_qual_qwk_gain": 0.03, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out44's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 44's integration: NOT MET (App missed). Base (c6bf17a + the sets, e97b644..41727b5) App 0.701,
#: Qual 0.397 on held_out44; the s44-judge branch alone (what the patient told of the illness and a note carries nowhere
#: is a fault, told_content_omitted) App 0.701 (+0.000, no plan item moved: s44-judge changed no plan reading), Qual
#: 0.438 (+0.041, the one dimension that gained); scripted App 0.717 (held), Qual 0.829 -> 0.885. The judge's mean
#: (judge - rating) over held_out44's scripted-clinician items: notes +0.45 -> +0.30, plans +0.78 -> +0.78 (0179's plan,
#: sertraline and sleep CBT with no opioid substitution for daily injected heroin, rated 2, scored 5.0). held_out44 is
#: development data from stop 45. The five test files pass on the judge-alone build (476 passed, 1 xfailed as
#: marked).

#: Pre-registered at stop 45 (s45-judge), written and committed alone before any change to the judge, in the shape of
#: ``PREREGISTERED44`` above (Qual rose on its fresh slice, 0.397 -> 0.438; App did not move, 0.701 -> 0.701: no plan
#: reading changed, and the judge was lenient by +0.78 on held_out44's scripted plans). It is decided once, at stop 45's
#: integration, on the fresh slice ``held_out45`` (10 further test-v2 cases rated by consultants who read no code of the
#: library, added by the integrator, never seen by s45-judge), with ``command`` run on the base (``base_commit``, this
#: branch's start) and on the merged build: the offline judge's changes of s45-judge (a structural reading of what a plan
#: must carry: the case's principal disorder treated with a first-line treatment for it, from the knowledge base's data
#: in any wording; no treatment of a disorder the case does not have; each critical action carried; nothing
#: contraindicated; each scored as a named fault; from the plan disagreements of every development slice,
#: held_out28..held_out44 and tune/held_out/scripted, coded by root cause; each kept only if it helped the half of the
#: development slices it was not fitted on) are a GAIN iff ALL of
#:   1. App QWK on held_out45 >= base's App QWK on held_out45 + 0.03;
#:   2. Qual QWK on held_out45 >= base's Qual QWK on held_out45 + 0.03;
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out45's scripted-clinician notes and plans, base and merged.
PREREGISTERED45 = {
    "slice": "held_out45",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "51369c7",
    "targets": ("App.", "Qual."),
    "claim": {"min_app_qwk_gain": 0.03, "min_qual_qwk_gain": 0.03, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out45's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 45's integration: NOT MET (App short of its gain, Qual did not move). Base (51369c7 + the sets,
#: 1cf32fd..a418543) App 0.772, Qual 0.664 on held_out45; the s45-judge branch alone (a drug that treats no disorder the
#: patient has is a named fault, unindicated_drugs, App at most 2; a drug that realises what a rule allows for one of
#: the patient's disorders, critical_actions.json 'may', serves the case) App 0.789 (+0.017), Qual 0.664 (+0.000, no note
#: reading changed); scripted App 0.717 -> 0.754, Qual 0.885 -> 0.885. The judge's mean (judge - rating) over
#: held_out45's scripted-clinician items: notes +0.78 -> +0.78, plans +0.32 -> +0.32 (no scripted item's score moved:
#: the scripted clinician adds no unindicated drug). held_out45 is development data from stop 46. The five test files
#: pass on the judge-alone build (479 passed, 1 xfailed as marked).

#: Pre-registered at stop 46 (s46-judge), written and committed alone before any change to the judge, in the shape of
#: ``PREREGISTERED45`` above (App rose on its fresh slice 0.772 -> 0.789, short of its +0.03; Qual did not move, 0.664
#: -> 0.664, and the judge was lenient by +0.78 on held_out45's scripted notes). This claim is about QUAL first. It is
#: decided once, at stop 46's integration, on the fresh slice ``held_out46`` (10 further test-v2 cases rated by
#: consultants who read no code of the library, added by the integrator, never seen by s46-judge), with ``command`` run
#: on the base (``base_commit``, this branch's start) and on the merged build: the offline judge's changes of s46-judge
#: (a structural reading of a note against its encounter: each assertion checked against what the patient said and the
#: results returned, a denial recorded as a denial, the key positive findings elicited and left out, a risk assessment,
#: an impression that follows from the findings; from the note disagreements of every development slice,
#: held_out28..held_out45 and tune/held_out/scripted, coded by root cause; each kept only if it helped the half of the
#: development slices it was not fitted on) are a GAIN iff ALL of
#:   1. Qual QWK on held_out46 >= base's Qual QWK on held_out46 + 0.03 (the claim);
#:   2. App QWK on held_out46 >= base's App QWK on held_out46 - 0.02 (expected: App unchanged, +0.00 to +0.02, from at
#:      most a reading of a critical action said in other words; no App gain is claimed);
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out46's scripted-clinician notes and plans, base and merged (expected:
#:   the lean on scripted notes falls towards 0 from the base's).
PREREGISTERED46 = {
    "slice": "held_out46",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "ef707c4",
    "targets": ("Qual.",),
    "expected_not_claimed": {"App.": "unchanged, +0.00 to +0.02"},
    "claim": {"min_qual_qwk_gain": 0.03, "max_app_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out46's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 46's integration: NOT MET (Qual fell on the fresh slice). Base (ef707c4 + the sets,
#: f0d6481..93fe61d) App 0.721, Qual 0.517 on held_out46; the s46-judge branch alone (told_content_omitted reads every
#: fact of the record, not only its narrative sections, and the affirming clauses of a sentence that also holds a
#: negation; the calibration refitted, still off) App 0.721 (+0.000), Qual 0.501 (-0.016); scripted App 0.717 -> 0.717,
#: Qual 0.885 -> 0.885; all slices Qual 0.672 -> 0.679 (development slices carry the gain, the fresh one does not).
#: The judge's mean (judge - rating) over held_out46's scripted-clinician items: notes -0.52 -> -0.57, plans +0.58 ->
#: +0.58: on this slice the judge is HARSH on the scripted notes (five of ten judged 2.0-2.25 against ratings of 3-4),
#: the opposite of held_out45's lean (+0.78) that the claim was written against. held_out46 is development data from
#: stop 47. The five test files pass on the judge-alone build (482 passed, 1 xfailed as marked).

#: Pre-registered at stop 47 (s47-judge), written and committed alone before any change to the judge, in the shape of
#: ``PREREGISTERED46`` above (Qual fell on its fresh slice 0.517 -> 0.501; App did not move, 0.721; the judge was HARSH
#: on held_out46's scripted notes, -0.52, where it had been lenient on held_out45's, +0.78). This claim is about QUAL. It
#: is decided once, at stop 47's integration, on the fresh slice ``held_out47`` (10 further test-v2 cases rated by
#: consultants who read no code of the library, added by the integrator, never seen by s47-judge), with ``command`` run
#: on the base (``base_commit``, this branch's start) and on the merged build: the offline judge's changes of s47-judge
#: (a STRUCTURAL reading of a note's impression: the impression/assessment section parsed into its diagnostic
#: statements, each mapped to the taxonomy's disorders by a table of names and synonyms held as data (ICD-10 codes, lay
#: and clinical names) with its status (stated, provisional/query, ruled out/not established, differential), so that
#: the checks diagnosis_against_record / diagnosis_missed charge only what the note asserts; root causes coded over the
#: note disagreements of every development slice, held_out28..held_out46 and tune/held_out/scripted; each change kept
#: only if it helped the half of the development slices it was not fitted on) are a GAIN iff ALL of
#:   1. Qual QWK on held_out47 >= base's Qual QWK on held_out47 + 0.03 (the claim);
#:   2. App QWK on held_out47 >= base's App QWK on held_out47 - 0.02 (expected: App unchanged, +0.00 to +0.02, from at
#:      most a reading of a critical action said in other words; no App gain is claimed);
#:   3. App QWK and Qual QWK on the 'scripted' slice (the scripted clinician's own notes and plans) each >= base's - 0.05;
#:   4. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such. Reported beside the decision, not deciding: each dimension alone, MAE,
#:   and the mean of (judge - rating) over held_out47's scripted-clinician notes and plans, base and merged (expected:
#:   fewer harsh misses on notes; the lean on scripted notes moves up from harsh, towards 0, if held_out47 leans harsh).
PREREGISTERED47 = {
    "slice": "held_out47",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "19756ca",
    "targets": ("Qual.",),
    "expected_not_claimed": {"App.": "unchanged, +0.00 to +0.02"},
    "claim": {"min_qual_qwk_gain": 0.03, "max_app_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("App and Qual each alone", "MAE", "mean (judge - rating) over held_out47's scripted-clinician "
                              "notes and plans, base and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Decided once at stop 47's integration: MET, narrowly and on four items. Base (19756ca + the sets, 578e8f4..c390b74)
#: App 0.761, Qual 0.598 on held_out47; the s47-judge branch alone (the impression read statement by statement, each
#: disorder named in other words mapped to its code with a status: stated, provisional, features recorded, differential,
#: ruled out; diagnosis_against_record / diagnosis_missed charge only what the note asserts; the calibration refitted,
#: still off) App 0.761 (+0.000), Qual 0.668 (+0.070 >= +0.03); scripted App 0.717 -> 0.717, Qual 0.885 -> 0.885; all
#: slices Qual 0.676 -> 0.692. Only four of held_out47's 40 notes moved: two hand-written notes rated 5 (depression with
#: insomnia, 0165 and 0275) no longer charged a missed diagnosis (judge 2.6 -> 4.6, 2.2 -> 4.2), two notes moved 0.5 away
#: from their ratings (the scripted note of 0165, rated 4: 4.5 -> 5.0; a hand-written one rated 3: 4.2 -> 4.7). The
#: judge's mean (judge - rating) over held_out47's scripted-clinician items: notes +1.06 -> +1.11, plans +0.44 -> +0.44:
#: on this slice the judge is LENIENT on the scripted notes again (held_out46: -0.52; held_out45: +0.78), which the
#: change does not touch. held_out47 is development data from stop 48. The five test files pass on the judge-alone build
#: (484 passed, 1 xfailed as marked).

#: Pre-registered at stop 49 (s49-sets), written and committed with the fresh slice before any judge ran on it; the
#: judge fixer (s49-judge) works from main (184b3e4) and never reads held_out49. Decided once at stop 49's
#: integration with the command below on the base (s49-sets) and on the merged build. App and Qual each count as a GAIN
#: on held_out49 if and only if its QWK rises by at least 0.03, the other dimension loses at most 0.02, and the scripted
#: slice loses at most 0.05 on either; a change that misses is kept only where no held_out49 figure moves the wrong way,
#: and is reported as a missed gain.
PREREGISTERED49 = {
    "slice": "held_out49",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "184b3e4",
    "targets": ("Qual.", "App."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out49's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 50 (s50-sets), written and committed with the fresh slice before any judge ran on it; the
#: judge fixer (s50-judge) works from main (cb8a4f7c) and never reads held_out50. Decided once at stop 50's
#: integration with the command below on the base (s50-sets) and on the merged build, by the same rule as stop 49: App
#: and Qual each count as a GAIN on held_out50 if and only if its QWK rises by at least 0.03, the other dimension loses at
#: most 0.02, and the scripted slice loses at most 0.05 on either; a change that misses is kept only where no held_out50
#: figure moves the wrong way, and is reported as a missed gain; otherwise the judge merge is reverted.
PREREGISTERED50 = {
    "slice": "held_out50",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "cb8a4f7c",
    "targets": ("Qual.", "App."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out50's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 51 (s51-sets), written after the slice's base figure was taken on s51-sets (App QWK 0.551, Qual
#: QWK 0.586: the base run that first measured the slice) and before any judge change was run on it; the judge fixer
#: (s51-judge) works from main (d40d291d) and never reads held_out51. Decided once at stop 51's integration with the
#: command below on the base (s51-sets) and on the merged build, by the same rule as stops 49 and 50: App and Qual each
#: count as a GAIN on held_out51 if and only if its QWK rises by at least 0.03, the other dimension loses at most 0.02,
#: and the scripted slice loses at most 0.05 on either; a change that misses is kept only where no held_out51 figure
#: moves the wrong way, and is reported as a missed gain; otherwise the judge merge is reverted.
PREREGISTERED51 = {
    "slice": "held_out51",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "d40d291d",
    "base_figures": {"App.": 0.551, "Qual.": 0.586},
    "targets": ("Qual.", "App."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out51's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 52 (s52-sets), written and committed before the slice held_out52 was rated, wired or measured
#: at all (its base figure is taken after this claim, on s52-sets, and recorded in stop 52's closing note), and before
#: any judge change is run on it; the judge fixer (s52-judge) works from main (b0e924bd) on App (treatment plans) and
#: never reads held_out52. Decided once at stop 52's integration with the command below on the base (s52-sets) and on
#: the merged build, by the same rule as stops 49 to 51: App and Qual each count as a GAIN on held_out52 if and only if
#: its QWK rises by at least 0.03, the other dimension loses at most 0.02, and the scripted slice loses at most 0.05 on
#: either; a change that misses is kept only where no held_out52 figure moves the wrong way, and is reported as a
#: missed gain; otherwise the judge merge is reverted.
PREREGISTERED52 = {
    "slice": "held_out52",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "b0e924bd",
    "base_figures": None,  # taken after this claim was committed: see stop 52's closing note
    "targets": ("App.", "Qual."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out52's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 53 (s53-sets), written and committed before the slice held_out53 was drawn, played, rated or
#: wired (its ten test-v2 cases are drawn by random.Random(5353) over the test-v2 ids no pair set and no earlier slice
#: reads; its base figure is taken after this claim, on s53-sets, and recorded in stop 53's closing note), and before
#: any judge change is run on it; the judge fixer (s53-judge) works from main (45e30f33) on App (treatment plans) and
#: never reads held_out53. Decided once at stop 53's integration with the command below on the base (s53-sets) and on
#: the merged build, by the same rule as stops 49 to 52: App and Qual each count as a GAIN on held_out53 if and only if
#: its QWK rises by at least 0.03, the other dimension loses at most 0.02, and the scripted slice loses at most 0.05 on
#: either; a change that misses is kept only where no held_out53 figure moves the wrong way, and is reported as a
#: missed gain; otherwise the judge merge is reverted.
PREREGISTERED53 = {
    "slice": "held_out53",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "45e30f33",
    "base_figures": None,  # taken after this claim was committed: see stop 53's closing note
    "targets": ("App.", "Qual."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out53's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}


#: Pre-registered at stop 54 (s54-sets), written and committed before the slice held_out54 was played, rated or wired
#: (its ten test-v2 cases are drawn by random.Random(5454) over the test-v2 ids no pair set and no earlier slice reads;
#: its base figure is taken after this claim, on s54-sets, and recorded in stop 54's closing note), and before any judge
#: change is run on it; the judge fixer (s54-judge) works from main (ecba7d6f) on App (treatment plans) and never reads
#: held_out54. Decided once at stop 54's integration with the command below on the base (s54-sets) and on the merged
#: build, by the same rule as stops 49 to 53: App and Qual each count as a GAIN on held_out54 if and only if its QWK
#: rises by at least 0.03, the other dimension loses at most 0.02, and the scripted slice loses at most 0.05 on either;
#: a change that misses is kept only where no held_out54 figure moves the wrong way, and is reported as a missed gain;
#: otherwise the judge merge is reverted.
PREREGISTERED54 = {
    "slice": "held_out54",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "ecba7d6f",
    "base_figures": None,  # taken after this claim was committed: see stop 54's closing note
    "targets": ("App.", "Qual."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out54's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 55 (s55-sets), written and committed before the slice held_out55 was played, rated or wired
#: (its ten test-v2 cases are drawn by random.Random(5555) over the test-v2 ids no pair set and no earlier slice reads;
#: its base figure is taken after this claim, on s55-sets, and recorded in stop 55's closing note), and before any judge
#: change is run on it; the judge fixer (s55-judge) works from main (26303f8a) on App (treatment plans) and never reads
#: held_out55. Decided once at stop 55's integration with the command below on the base (s55-sets) and on the merged
#: build, by the same rule as stops 49 to 54: App and Qual each count as a GAIN on held_out55 if and only if its QWK
#: rises by at least 0.03, the other dimension loses at most 0.02, and the scripted slice loses at most 0.05 on either;
#: a change that misses is kept only where no held_out55 figure moves the wrong way, and is reported as a missed gain;
#: otherwise the judge merge is reverted.
PREREGISTERED55 = {
    "slice": "held_out55",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "26303f8a",
    "base_figures": None,  # taken after this claim was committed: see stop 55's closing note
    "targets": ("App.", "Qual."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out55's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 56 (s56-sets), written and committed before the slice held_out56 was played, rated or wired
#: (its ten test-v2 cases are drawn by random.Random(5656) over the 141 test-v2 ids no pair set and no earlier slice
#: reads: 0026, 0031, 0097, 0134, 0211, 0319, 0329, 0366, 0378, 0446; its base figure is taken after this claim, on
#: s56-sets, and recorded in stop 56's closing note), and before any judge change is run on it; the judge fixer
#: (s56-judge) works from main (f9d5e8ef) on App and Qual and never reads held_out56. Decided once at stop 56's
#: integration with the command below on the base (s56-sets) and on the merged build, by the same rule as stops 49 to
#: 55: App and Qual each count as a GAIN on held_out56 if and only if its QWK rises by at least 0.03, the other
#: dimension loses at most 0.02, and the scripted slice loses at most 0.05 on either; a change that misses is kept only
#: where no held_out56 figure moves the wrong way, and is reported as a missed gain; otherwise the judge merge is
#: reverted.
PREREGISTERED56 = {
    "slice": "held_out56",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "f9d5e8ef",
    "base_figures": None,  # taken after this claim was committed: see stop 56's closing note
    "targets": ("App.", "Qual."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out56's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 57 (s57-sets), written and committed before any judge change of this stop is run on held_out56
#: (the judge fixer, s57-judge, works from main 7026fb72 and never reads its items); no fresh slice is drawn this stop. held_out56 (the
#: slice PREREGISTERED56 decided on; its figures were taken twice at stop 56, base and merged, and no fixer has read its
#: items) decides once more, with the command below, on the base (7026fb72) and on the merged build, by the same rule as
#: stops 49 to 56: App and Qual each count as a GAIN on held_out56 if and only if its QWK rises by at least 0.03, the
#: other dimension loses at most 0.02, and the scripted slice loses at most 0.05 on either; a change that misses is kept
#: only where no held_out56 figure moves the wrong way, and is reported as a missed gain; otherwise the judge merge is
#: reverted. A slice decided on a second time is weaker evidence than a fresh one: the note says so beside the figure.
PREREGISTERED57 = {
    "slice": "held_out56",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "7026fb72",
    "base_figures": None,  # taken after this claim was committed: see stop 57's closing note
    "targets": ("App.", "Qual."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out56's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

#: Pre-registered at stop 59 (s59-sets), committed before any judge change of this stop is run on held_out56: the clinician
#: fixer (s59-clin, from main a94ba2c8, never reading held_out56's items) tightened the critical-action checker (near
#: misses a consultant fails: 'social services liaison' about housing as a safeguarding referral, 'Start tomorrow' as
#: follow-up within days). held_out56 decides a third time, with the command below, on the base (a94ba2c8) and on the
#: merged build, by the rule of stops 49 to 57: App and Qual each count as a GAIN on held_out56 if and only if its QWK
#: rises by at least 0.03, the other dimension loses at most 0.02, and the scripted slice loses at most 0.05 on either; a
#: change that misses is kept only where no held_out56 figure moves the wrong way, and is reported as a missed gain;
#: otherwise the checker change is reverted. A slice decided on a third time is weak evidence: the note says so.
PREREGISTERED59 = {
    "slice": "held_out56",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "a94ba2c8",
    "base_figures": None,  # taken after this claim was committed: see stop 59's closing note
    "targets": ("App.", "Qual."),
    "claim": {"min_qwk_gain": 0.03, "max_other_qwk_loss": 0.02, "max_scripted_app_qwk_loss": 0.05,
              "max_scripted_qual_qwk_loss": 0.05},
    "reported_not_deciding": ("MAE", "mean (judge - rating) over held_out56's scripted-clinician notes and plans, base "
                              "and merged"),
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}

def _in_split(row: dict[str, Any], split: str) -> bool:
    """``all``: every item; ``earlier``: the first set (``tune`` and ``held_out``, no later slice); else the row's own ``split``."""
    if split == "all":
        return True
    if split == "earlier":
        return row["split"] in ("tune", "held_out")
    return row["split"] == split


def run(names: list[str], resamples: int = 1000) -> dict[str, Any]:
    rows = load_ratings()
    encounters = load_encounters()
    items = charts(rows, encounters)
    report: dict[str, Any] = {"items": {"plans": sum(r["kind"] == "plan" for r in rows), "notes": sum(r["kind"] == "note" for r in rows),
                                        "cases": len({r["case_id"] for r in rows})}, "judges": {}, "scores": {}}
    skipped: set[str] = set()
    for name, judge in make_judges(names).items():
        verdicts = judge.score_many(items)
        scores = [v.get(_DIMENSION[r["kind"]]) for r, v in zip(rows, verdicts)]
        report["scores"][name] = {r["id"]: s for r, s in zip(rows, scores)}
        table = {}
        for kind in ("plan", "note"):
            for split in SPLITS:
                pick = [i for i, r in enumerate(rows) if r["kind"] == kind and _in_split(r, split)]
                if not pick:
                    if split == HELD_OUT:  # the newest slice, named before its ratings land: said, then skipped
                        skipped.add(split)
                        continue
                    raise SystemExit(f"judge_agreement: no {kind} ratings in the {split!r} slice (ratings.jsonl lost them?)")
                ref = [rows[i]["rating"] for i in pick]
                pred = [scores[i] for i in pick]
                table[f"{kind}:{split}"] = agreement(ref, pred, resamples=resamples).to_dict()
        report["judges"][name] = table
    if skipped:
        report["skipped"] = sorted(skipped)
    return report


def _fmt(e: dict[str, Any]) -> str:
    return f"{e['value']:.3f} [{e['low']:.3f}, {e['high']:.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--judges", default="offline", help="comma-separated: offline, llm-tiny")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--disagreements", action="store_true", help="list items the offline judge misses by 1.5 or more (never the newest held-out slice)")
    args = parser.parse_args()
    report = run([n.strip() for n in args.judges.split(",") if n.strip()], args.resamples)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    items = report["items"]
    print(f"Hand ratings: {items['plans']} plans, {items['notes']} notes, {items['cases']} cases")
    for split in report.get("skipped", ()):
        print(f"(slice {split!r} skipped: no ratings for it in ratings.jsonl yet; it is added at integration)")
    print(f"{'judge':10} {'dimension':6} {'split':10} {'n':>4}  {'QWK [95% CI]':26} {'exact [95% CI]':26} {'MAE [95% CI]':26}")
    for name, table in report["judges"].items():
        for key, a in table.items():
            kind, split = key.split(":")
            dim = "App." if kind == "plan" else "Qual."
            print(f"{name:10} {dim:6} {split:10} {a['qwk']['n']:>4}  {_fmt(a['qwk']):26} {_fmt(a['accuracy']):26} {_fmt(a['mae']):26}")
    if args.disagreements:
        rows = {r["id"]: r for r in load_ratings()}
        for name, scores in report["scores"].items():
            for rid, s in scores.items():
                if rows[rid]["split"] == HELD_OUT:  # never read while tuning: its figures are the honest ones
                    continue
                if s is not None and abs(s - rows[rid]["rating"]) >= 1.5:
                    r = rows[rid]
                    print(f"{name} {rid} {r['case_id']} {r['style']}: hand {r['rating']} judge {s:.2f} | {r['reason']}")


if __name__ == "__main__":
    main()
