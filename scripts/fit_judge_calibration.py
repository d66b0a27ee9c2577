"""Fit the offline MentalEval judge's calibration (``rewards/mentaleval/data/calibration.json``) to hand ratings.

App. and Qual. are each ``clip(intercept + sum(w * x), 1, 5)`` over the judge's own readings
(:func:`mentalhospital_env.rewards.mentaleval.offline.plan_features`, :func:`~rewards.mentaleval.offline.note_features`), then held
under the hard caps (a contraindicated drug 1, a critical action missing 2, note-precision errors); since stop 35 the note
model is also followed by the rules' deductions and floors (``offline.note_after_fit``: a supervisor's faults, omissions,
misfiled quotes, a checklist of denials; the usable-note and accurate-fragment floors; a keyword list keeps the rules'
score), which it neither reads nor learns (its target is the rating with those points given back). The model is
ridge regression on standardised features with every weight's sign fixed beforehand (``SIGNS``: a reading that
should lower the score may only lower it), so that the calibration ladders stay monotone.

Fixed before any per-slice figure was looked at (stop 31): the feature lists and signs below, ridge ``ALPHA = 1.0``
on standardised features, fitted on every item (capped ones too) against its hand rating, the development slices
``SLICES`` (never ``held_out31``, which is written blind for the next measurement). Refitted at stop 34 on every
development slice (``held_out31`` and ``held_out32`` too), with ``EXCLUDED`` (``held_out33``, ``held_out34``) never
read; each model is ``enabled`` as decided on those two slices (``DECIDED``, pre-registered at stop 33): the note model
(Qual.) beat the rules on both but breaks the judge's ladders and floors, so it is off; the plan model (App.) lost on
both and is off.

Stop 36: the note rules changed (full credit for structure at half the length, note-precision errors weighed by kind,
central features of six more disorders; see ``PREREGISTERED36``) and both models were refitted on every development
slice, held_out34 and held_out35 too, with ``held_out36`` (written blind at stop 36) refused by name; both stay off until
``PREREGISTERED36`` is applied once at integration.

Stop 38: the rules changed again (s38-judge; see ``PREREGISTERED38``) and both models were refitted on every development
slice, held_out36 and held_out37 too, with ``held_out38`` (written blind at stop 38) refused by name. Leave-one-slice-out,
the fitted models beat the rules on 5 of 13 slices each (App and Qual) and both stay off (``DECIDED``).

Stop 39: the rules changed again (s39-judge; see ``PREREGISTERED39``) and both models were refitted on every development
slice, held_out38 too, with ``held_out39`` (rated blind at stop 39) refused by name. Leave-one-slice-out, the fitted
models beat the rules on 5 of 14 slices (App) and 7 of 14 (Qual, not most); both stay off (``DECIDED``).

Estimate: leave-one-slice-out QWK (fit on the other slices, score the left-out one), rules vs fitted, for every
slice. A dimension's model is written ``enabled`` only if it beats the rules on most left-out slices; otherwise the
fitted weights are written for the record and the rules keep scoring.

Run: ``python scripts/fit_judge_calibration.py [--write]``. Needs scikit-learn (a dev dependency); the judge itself
reads the data file with numpy only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

#: slices never fitted on, by name: held_out34 (the slice the stop-35 note model was compared on) and held_out35 (written
#: blind at stop 35 by a consultant who read no code; the slice PREREGISTERED decides on). held_out33 is development
#: data since stop 35 and fitted on.
EXCLUDED = ("held_out56",)
#: Stop 41: held_out39 and held_out40 are development data (read for disagreements at stops 40 and 41) and fitted on
#: (SLICES); held_out41, rated blind at stop 41 by consultants who read no code, is refused by name (PREREGISTERED41 in
#: benchmarks/judge_agreement.py decides on it). The models stay off (DECIDED); the refit only keeps them current.
#: Stop 42: held_out41 is development data (read for disagreements at stop 42) and fitted on; held_out42, rated blind at
#: stop 42, is refused by name (PREREGISTERED42 decides on it). The models stay off.
#: Stop 43: held_out42 is development data (read for disagreements at stop 43) and fitted on; held_out43, rated blind at
#: stop 43, is refused by name (PREREGISTERED43 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 44: held_out43 is development data (read for disagreements at stop 44) and fitted on; held_out44, rated blind at
#: stop 44, is refused by name (PREREGISTERED44 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 45: held_out44 is development data (read for disagreements at stop 45) and fitted on; held_out45, rated blind at
#: stop 45, is refused by name (PREREGISTERED45 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 46: held_out45 is development data (read for disagreements at stop 46) and fitted on; held_out46, rated blind at
#: stop 46, is refused by name (PREREGISTERED46 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 47: held_out46 is development data (read for disagreements at stop 47) and fitted on; held_out47, rated blind at
#: stop 47, is refused by name (PREREGISTERED47 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 49 (no slice was drawn at stop 48): held_out47 is development data (read at stop 49) and fitted on; held_out49,
#: rated blind at stop 49, is refused by name (PREREGISTERED49 in benchmarks/judge_agreement.py decides on it). The
#: models stay off.
#: Stop 50: held_out49 is development data (read at stop 50) and fitted on; held_out50, rated blind at stop 50, is
#: refused by name (PREREGISTERED50 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 51: held_out50 is development data (read at stop 51) and fitted on; held_out51, rated blind at stop 51, is
#: refused by name (PREREGISTERED51 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 52: held_out51 is development data (read at stop 52) and fitted on; held_out52, rated blind at stop 52, is
#: refused by name (PREREGISTERED52 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 53: held_out52 is development data (read at stop 53) and fitted on; held_out53, rated blind at stop 53, is
#: refused by name (PREREGISTERED53 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 54: held_out53 is development data (read at stop 54) and fitted on; held_out54, rated blind at stop 54, is
#: refused by name (PREREGISTERED54 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 55: held_out54 is development data (read at stop 55) and fitted on; held_out55, rated blind at stop 55, is
#: refused by name (PREREGISTERED55 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 56: held_out55 is development data (read at stop 56) and fitted on; held_out56, rated blind at stop 56, is
#: refused by name (PREREGISTERED56 in benchmarks/judge_agreement.py decides on it). The models stay off.
#: Stop 39: held_out38 is development data (read for disagreements at stop 39 and fitted on: SLICES); held_out39, rated
#: blind at stop 39 by a consultant who read no code, is refused by name (PREREGISTERED39 decides on it).
#: Stop 38: held_out36 and held_out37 are development data (read for disagreements at stop 38; fitting may read them);
#: held_out38, rated blind at stop 38 by a consultant who read no code, is refused by name (PREREGISTERED38 decides on it).
#: Stop 36: held_out34 and held_out35 are development data and fitted on (SLICES); held_out36, written blind at stop 36
#: by another consultant, is refused by name: its rows are dropped before any feature is read (rows_and_features).
#: the pre-registered decision (stop 33: 'enable the note model ONLY IF it beats the rules' Qual on held_out33 and on
#: held_out34'), taken at stop 34 with benchmarks/judge_agreement.py --resamples 200 on the fitted and the rules' judge.
#: The note model met that condition: Qual QWK fitted 0.460 vs rules 0.201 on held_out33, 0.450 vs 0.383 on held_out34.
#: It is still off, because switched on it breaks what the judge must keep (issue 15: every ladder rung monotone for
#: every judge): on the note-faults ladder the main-risk rung falls 0.96 below the rung before it, not the 1.0 the
#: ladder asks; a usable structured note falls to 1.8 below its floor of 2; an accurate keyword note scores 2.3, not 2;
#: a good chart's note 3.94, under the 4 a good chart keeps (tests/test_mentaleval.py). In-sample it also scores lower
#: than the rules on the 'scripted' slice (0.465 vs 0.829). App. lost on both slices (0.712 vs 0.782, 0.735 vs 0.775)
#: and is off.
#: Stop 35: the note model now leaves the rules' deductions, caps and floors to the rules (offline.note_after_fit; its
#: features no longer include what is charged after it, and it is fitted to the rating with those points given back),
#: so switched on it keeps every ladder rung and floor (tests/test_mentaleval.py passes with it on). Refitted on every
#: development slice (held_out33 too), it scores Qual QWK 0.404 [0.164, 0.649] on held_out34, which it never read,
#: against the rules' 0.383 [0.205, 0.579]; the scripted slice 0.829, as the rules. The plan model, refitted the same
#: way and now held to all the rules' caps (offline.safety_cap: stop 34's hard_plan_cap left out the gap caps,
#: and switched on it broke four plan-cap tests), scores App 0.781 [0.647, 0.864] on held_out34 against the rules' 0.797
#: [0.671, 0.881] (the rules since the MAOI-with-SSRI contraindication of stop 35), and keeps test_mentaleval and
#: test_critical_actions passing. Both stay off until the rule recorded in
#: PREREGISTERED is applied at integration.
#: Applied once at stop 35's integration, unchanged, no refit (benchmarks/judge_agreement.py --resamples 200 on the
#: merged build): the note model reads Qual QWK 0.184 [-0.055, 0.443] on held_out35 against the rules' 0.172 [-0.007,
#: 0.390] (MAE 1.251 vs 1.485; scripted 0.829 vs 0.829): a gain of 0.012, under the 0.05 asked, so it stays off. The
#: plan model reads App 0.700 [0.510, 0.815] against the rules' 0.741 [0.565, 0.857] (MAE 0.762 vs 0.702; scripted 0.661
#: vs 0.698): it loses, and stays off.
#: PREREGISTERED36 applied once at stop 36's integration (s36-sets merged with s36-judge2, before any other branch;
#: benchmarks/judge_agreement.py --resamples 200): (a) the rules' note change: Qual QWK on held_out36 0.390 [0.169,
#: 0.609] against the base's 0.300 [0.127, 0.488], a gain of 0.090, UNDER the 0.10 asked, so no gain is claimed; MAE
#: 1.293 vs 1.467 (no worse: met), App 0.650 vs 0.650 (met), scripted Qual 0.829 vs 0.829 (met). The change is kept
#: (every held_out36 figure moves the right way or stays) and reported as a missed pre-registered gain. (b) the note
#: model switched on alone: Qual 0.381 [0.139, 0.599] against the rules' 0.390, MAE 1.216 vs 1.293, scripted 0.765 vs
#: 0.829: no gain, stays off. The plan model alone: App 0.638 [0.466, 0.769] against 0.650 (MAE 0.746 vs 0.757;
#: scripted 0.673 vs 0.698): stays off.
DECIDED = {"note": False, "plan": False}
#: Pre-registered at stop 35 (written and committed alone, before held_out35 exists in this branch and before any
#: judge has been run on it; to be applied ONCE, unchanged, at integration, with no refit and no change to the judge or
#: to data/calibration.json after held_out35 is read). held_out35 is never fitted on (``EXCLUDED``).
#: Measure: add held_out35 to benchmarks/judge_agreement.py's SPLITS; run
#: ``.venv/bin/python benchmarks/judge_agreement.py --resamples 200`` with the shipped calibration.json (both models
#: off: the rules), then with only the dimension's model "enabled": true in it (nothing else edited). Read the
#: held_out35 and scripted rows. For each model separately (note = Qual., plan = App.), switch it on
#: (DECIDED[kind] = True and "enabled": true in the committed calibration.json) if and only if ALL of:
#:   1. its held_out35 QWK >= the rules' held_out35 QWK + ``min_qwk_gain`` (0.05) on its dimension;
#:   2. its held_out35 MAE <= the rules' held_out35 MAE on its dimension;
#:   3. its scripted-slice QWK >= the rules' scripted-slice QWK - ``max_scripted_loss`` (0.02) (the scripted
#:      clinician's own notes and plans, which the leaderboard and the warm start rest on, may not get worse);
#:   4. with it on, ``.venv/bin/python -m pytest tests/test_mentaleval.py tests/test_critical_actions.py
#:      tests/test_note_precision.py tests/test_note_faults.py tests/test_agreement.py -q`` passes, apart from
#:      test_the_shipped_calibration_is_off_and_never_fitted_on_the_newest_held_out_slices, which pins DECIDED and
#:      'enabled' and is updated with the decision (every ladder rung, cap and floor kept).
#: Otherwise it stays off. QWK and MAE are the point estimates printed (rounded to 3 places as printed); the intervals
#: are reported, not used. On 1, a gain of exactly 0.05 passes and anything less stays off.
PREREGISTERED = {
    "slice": "held_out35",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "min_qwk_gain": 0.05,
    "max_mae_increase": 0.0,
    "max_scripted_loss": 0.02,
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
    "note": "Qual.",
    "plan": "App.",
}
#: Pre-registered at stop 36 (issue 15), written and committed alone in branch s36-judge2 before any change to the
#: judge's rules in that branch and before held_out36 exists there; to be applied ONCE by the integrator, unchanged.
#: (a) The stop-36 note-rule change counts as a GAIN on held_out36 if and only if ALL of, with
#:     ``.venv/bin/python benchmarks/judge_agreement.py --resamples 200`` (point estimates as printed, both calibration
#:     models off) run on the merged build and on the base the branch started from (9b80d3d), each with held_out36 added
#:     to SPLITS:
#:   1. Qual QWK on held_out36 >= base's Qual QWK on held_out36 + 0.10;
#:   2. Qual MAE on held_out36 <= base's Qual MAE on held_out36;
#:   3. App QWK on held_out36 >= base's App QWK on held_out36 - 0.02 (the change is to notes; plans must not move);
#:   4. Qual QWK on the 'scripted' slice >= base's - 0.05 (the scripted clinician's own notes, which the leaderboard
#:      and the warm start rest on).
#:   Anything less is no gain: report it as such (the change was fitted to held_out32..35 and did not carry).
#: (b) The calibration models (refitted at stop 36 with held_out35 in the fitting, held_out36 refused by name) are
#:     switched on by the stop-35 rule (PREREGISTERED below, its slice read as held_out36), each against the rules of
#:     the build it ships in.
PREREGISTERED36 = {
    "slice": "held_out36",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "9b80d3d",
    "rules_min_qual_qwk_gain": 0.10,
    "rules_max_qual_mae_increase": 0.0,
    "rules_max_app_qwk_loss": 0.02,
    "rules_max_scripted_qual_loss": 0.05,
    # (b) each calibration model, switched on alone in a copy (DECIDED[kind] = True and "enabled": true, nothing else
    # edited), against the rules of the build it ships in, on held_out36: on iff QWK >= rules + 0.05, MAE <= rules,
    # scripted-slice QWK >= rules - 0.02 and the tests below pass with it on (as stop 35's PREREGISTERED)
    "model_min_qwk_gain": 0.05,
    "model_max_mae_increase": 0.0,
    "model_max_scripted_loss": 0.02,
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Pre-registered at stop 37 (issue 15), written and committed alone in branch s37-judge (from main at 4019686) before
#: any change to the judge's rules in that branch, while held_out37 (10 test-v2 cases rated blind by a consultant at
#: stop 37) exists nowhere in it; held_out37 is refused by name (``EXCLUDED``) and never read by this branch. To be
#: applied ONCE by the integrator, unchanged, with no refit and no edit to the judge or its data after held_out37 is read.
#: The stop-37 judge change (the note-precision check reading the patient's own words apart from the clinician's
#: reader, and whatever else s37-judge changes in the rules) counts as a GAIN on held_out37 if and only if ALL of, with
#: ``.venv/bin/python benchmarks/judge_agreement.py --resamples 200`` (point estimates as printed, rounded to 3 places,
#: both calibration models off) run on the merged build and on the base (4019686), each with held_out37 added to SPLITS:
#:   1. Qual QWK on held_out37 >= base's Qual QWK on held_out37 + 0.10;
#:   2. Qual MAE on held_out37 <= base's Qual MAE on held_out37;
#:   3. App QWK on held_out37 >= base's App QWK on held_out37 - 0.02 (the change is to notes; plans must not move);
#:   4. Qual QWK on the 'scripted' slice >= base's - 0.05 (the scripted clinician's own notes, which the leaderboard and
#:      the warm start rest on);
#:   5. ``tests`` below pass on the merged build.
#:   Anything less is no gain: report it as such (the change was made on held_out32..36 and did not carry). Reported
#:   beside the decision, not deciding: the mean of (judge - rating) over the scripted clinician's own notes in
#:   held_out37 (the fault the change aims at: template notes rated 2-3 scored 4.5-5), base and merged.
#:   The calibration models are not refitted at stop 37 and stay off (DECIDED); switching one on is not part of this
#:   decision.
PREREGISTERED37 = {
    "slice": "held_out37",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "4019686",
    "rules_min_qual_qwk_gain": 0.10,
    "rules_max_qual_mae_increase": 0.0,
    "rules_max_app_qwk_loss": 0.02,
    "rules_max_scripted_qual_loss": 0.05,
    "reported_not_deciding": "mean (judge - rating) over held_out37's scripted-clinician notes, base and merged",
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Pre-registered at stop 38 (issue 15), written and committed alone in branch s38-judge (from main at 1c5421f) before
#: any change to the judge's rules or data in that branch, while held_out38 (10 test-v2 cases, the same build of slice
#: as held_out37: the scripted clinician's note and plan plus hand-written notes and plans, rated blind at stop 38 by a
#: consultant who read no code) exists nowhere in it; held_out38 is refused by name (``EXCLUDED``) and never read by this
#: branch. To be applied ONCE by the integrator, unchanged, with no refit and no edit to the judge or its data after
#: held_out38 is read.
#: Measure: ``.venv/bin/python benchmarks/judge_agreement.py --resamples 200`` (point estimates as printed, rounded to 3
#: places, both calibration models off) on the merged build and on the base (1c5421f), each with held_out38 in SPLITS
#: (and HELD_OUT = "held_out38"). The stop-38 change targets BOTH dimensions, each claimed separately:
#: (a) the note rules (content the patient never said, denials of what he reported, misfiled quotes, the assessment's
#:     reasoning and central content left out): a GAIN on Qual iff ALL of
#:   1. Qual QWK on held_out38 >= base's Qual QWK on held_out38 + 0.10;
#:   2. Qual MAE on held_out38 <= base's Qual MAE on held_out38;
#:   3. App QWK on held_out38 >= base's App QWK on held_out38 - 0.02;
#:   4. Qual QWK and App QWK on the 'scripted' slice each >= base's - 0.05;
#: (b) the plan rules and critical actions (an unsafe or bipolar-specific drug without bipolar features, no first-line
#:     treatment, a disorder treated that the interview and record never describe, a medical admission read from
#:     'inpatient care'): a GAIN on App iff ALL of
#:   1. App QWK on held_out38 >= base's App QWK on held_out38 + 0.03;
#:   2. App MAE on held_out38 <= base's App MAE on held_out38;
#:   3. Qual QWK on held_out38 >= base's Qual QWK on held_out38 - 0.02;
#:   4. Qual QWK and App QWK on the 'scripted' slice each >= base's - 0.05;
#: and for either claim, 5. ``tests`` below pass on the merged build.
#:   Anything less is no gain on that dimension: report it as such (the change was made on held_out32..37 and did not
#:   carry). Two claims are tested, so one met by chance is likelier than with one: both outcomes are reported together.
#:   Reported beside the decision, not deciding: the mean of (judge - rating) over the scripted clinician's own notes
#:   and plans in held_out38, base and merged. The calibration models stay off (DECIDED); switching one on is not part
#:   of this decision.
PREREGISTERED38 = {
    "slice": "held_out38",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "1c5421f",
    "targets": ("Qual.", "App."),
    "qual_claim": {"min_qual_qwk_gain": 0.10, "max_qual_mae_increase": 0.0, "max_app_qwk_loss": 0.02,
                   "max_scripted_qwk_loss": 0.05},
    "app_claim": {"min_app_qwk_gain": 0.03, "max_app_mae_increase": 0.0, "max_qual_qwk_loss": 0.02,
                  "max_scripted_qwk_loss": 0.05},
    "reported_not_deciding": "mean (judge - rating) over held_out38's scripted-clinician notes and plans, base and merged",
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: Pre-registered at stop 39 (issue 15), written and committed alone in branch s39-judge (from main at 87a193a) before
#: any change to the judge's rules or data in that branch, while held_out39 (10 test-v2 cases, the same build of slice as
#: held_out38: the scripted clinician's note and plan plus hand-written notes and plans, rated blind at stop 39 by a
#: consultant who read no code) exists nowhere in it; held_out39 is refused by name (``EXCLUDED``) and never read by this
#: branch. held_out38 is development data from stop 39 (its disagreements are read while changing the rules, and it is
#: fitted on: ``SLICES``). To be applied ONCE by the integrator, unchanged, with no refit and no edit to the judge or its
#: data after held_out39 is read.
#: Measure: ``.venv/bin/python benchmarks/judge_agreement.py --resamples 200`` (point estimates as printed, rounded to 3
#: places, both calibration models off) on the merged build and on the base (87a193a), each with held_out39 in SPLITS
#: (and HELD_OUT = "held_out39"). The stop-39 change targets BOTH dimensions, each claimed separately:
#: (a) the plan rules and their data (a dose above the standard range or doubled, a large supply to a patient at risk of
#:     overdose, a review later than the standard interval after starting an antidepressant in a young person or with
#:     suicidal ideation, a therapy for a disorder the case never describes, a drinker started on an antidepressant
#:     with nothing on the alcohol): a GAIN on App iff ALL of
#:   1. App QWK on held_out39 >= base's App QWK on held_out39 + 0.03;
#:   2. App MAE on held_out39 <= base's App MAE on held_out39;
#:   3. Qual QWK on held_out39 >= base's Qual QWK on held_out39 - 0.02;
#:   4. Qual QWK and App QWK on the 'scripted' slice each >= base's - 0.05;
#: (b) the note rules (a substance use the patient disclosed left out of the note is an omission, and whatever else
#:     s39-judge changes in the note rules): a GAIN on Qual iff ALL of
#:   1. Qual QWK on held_out39 >= base's Qual QWK on held_out39 + 0.10;
#:   2. Qual MAE on held_out39 <= base's Qual MAE on held_out39;
#:   3. App QWK on held_out39 >= base's App QWK on held_out39 - 0.02;
#:   4. Qual QWK and App QWK on the 'scripted' slice each >= base's - 0.05;
#: and for either claim, 5. ``tests`` below pass on the merged build.
#:   Anything less is no gain on that dimension: report it as such (the change was made on held_out32..38 and did not
#:   carry). Two claims are tested, so one met by chance is likelier than with one: both outcomes are reported together.
#:   Reported beside the decision, not deciding: the mean of (judge - rating) over the scripted clinician's own notes
#:   and plans in held_out39, base and merged. The calibration models stay off (DECIDED); they are refitted at stop 39
#:   with held_out38 among the fitted slices (``SLICES``) and held_out39 refused by name; switching one on is not part
#:   of this decision.
PREREGISTERED39 = {
    "slice": "held_out39",
    "command": ".venv/bin/python benchmarks/judge_agreement.py --resamples 200",
    "base_commit": "87a193a",
    "targets": ("App.", "Qual."),
    "app_claim": {"min_app_qwk_gain": 0.03, "max_app_mae_increase": 0.0, "max_qual_qwk_loss": 0.02,
                  "max_scripted_qwk_loss": 0.05},
    "qual_claim": {"min_qual_qwk_gain": 0.10, "max_qual_mae_increase": 0.0, "max_app_qwk_loss": 0.02,
                   "max_scripted_qwk_loss": 0.05},
    "reported_not_deciding": "mean (judge - rating) over held_out39's scripted-clinician notes and plans, base and merged",
    "tests": ("tests/test_mentaleval.py", "tests/test_critical_actions.py", "tests/test_note_precision.py",
              "tests/test_note_faults.py", "tests/test_agreement.py"),
}
#: the development slices fitted on (stop 35: every rated slice but ``EXCLUDED``; stop 31 fitted the first six; stop 38
#: added held_out36 and held_out37; stop 39 added held_out38; stop 41 added held_out39 and held_out40; stop 42 added held_out41;
#: stop 43 added held_out42; stop 44 added held_out43; stop 45 added held_out44; stop 46 added held_out45; stop 47 added held_out46; stop 50 added held_out49; stop 51 added held_out50; stop 52 added held_out51; stop 53 added held_out52; stop 54 added held_out53; stop 55 added held_out54; stop 56 added held_out55)
SLICES = ("tune", "held_out", "scripted", "held_out28", "held_out29", "held_out30", "held_out31", "held_out32", "held_out33",
          "held_out34", "held_out35", "held_out36", "held_out37", "held_out38", "held_out39", "held_out40", "held_out41",
          "held_out42", "held_out43", "held_out44", "held_out45", "held_out46", "held_out47", "held_out49",
          "held_out50", "held_out51", "held_out52", "held_out53", "held_out54", "held_out55")
ALPHA = 1.0
SIGNS = {
    "plan": {
        "rule_score": 1, "concordance": 1, "safety": 1, "follow_up": 1, "dose": 1, "education": 1,
        "overreach": -1, "gaps": -1, "advised_missing": -1, "critical_missing": -1, "contraindicated": -1,
    },
    "note": {
        "rule_score": 1, "structure": 1, "prose": 1, "error_points": -1, "serious_errors": -1,
        "unsupported_share": -1, "misleading": -1, "usable": 1,
    },
}
OUT = ROOT / "rewards" / "mentaleval" / "data" / "calibration.json"


def rows_and_features():
    """Every development item with its split, hand rating, features and hard cap (calibration switched off)."""
    import judge_agreement as ja
    from mentalhospital_env.rewards.mentaleval import offline

    offline._calibrations.cache_clear()
    saved = offline.CALIBRATION_PATH
    offline.CALIBRATION_PATH = ROOT / "does-not-exist.json"
    try:
        rows = [r for r in ja.load_ratings() if r["split"] not in EXCLUDED]  # refused by name first
        rows = [r for r in rows if r["split"] in SLICES]
        items = ja.charts(rows, ja.load_encounters())
        judge = offline.OfflineJudge()
        out = {"plan": [], "note": []}
        for row, (case, chart) in zip(rows, items):
            if row["kind"] == "plan":
                reading = judge.readings(case, chart)["plan"]
                feats, cap = offline.plan_features(reading), offline.safety_cap(reading)
            else:
                reading = judge._note_reading(case, chart)
                if not reading.sections and not reading.prose_sentences and not reading.claims:
                    feats, cap = offline.note_features(reading), 1.0
                else:
                    feats, cap = offline.note_features(reading), offline.note_precision_cap(reading)
            item = {"id": row["id"], "split": row["split"], "rating": float(row["rating"]), "features": feats, "cap": cap}
            if row["kind"] == "note" and (reading.sections or reading.prose_sentences or reading.claims):
                # stop 35: what the judge applies after the note model (offline.note_after_fit) is not the model's to
                # learn: it is fitted to the rating with those points given back
                item["after"] = lambda fitted, reading=reading: offline.note_after_fit(fitted, reading)
                item["target"] = item["rating"] + offline.note_deductions(reading)
            out[row["kind"]].append(item)
        return out
    finally:
        offline.CALIBRATION_PATH = saved
        offline._calibrations.cache_clear()


def fit(items, signs):
    """Sign-constrained ridge on standardised features; returns (intercept, weights) in raw feature units."""
    from sklearn.linear_model import Ridge

    names = list(signs)
    X = np.array([[it["features"][n] * signs[n] for n in names] for it in items])
    y = np.array([it.get("target", it["rating"]) for it in items])
    mu, sd = X.mean(axis=0), X.std(axis=0)
    sd[sd == 0] = 1.0
    model = Ridge(alpha=ALPHA, positive=True).fit((X - mu) / sd, y)
    w = model.coef_ / sd  # in sign-flipped raw units
    intercept = float(model.intercept_ - (w * mu).sum())
    return intercept, {n: float(w[i] * signs[n]) for i, n in enumerate(names)}


def predict(intercept, weights, it):
    raw = float(np.clip(intercept + sum(w * it["features"][n] for n, w in weights.items()), 1.0, 5.0))
    if "after" in it:
        return it["after"](raw)
    return min(raw, it["cap"])


def qwk(ref, pred):
    from mentalhospital_env.rewards.agreement import RATING_LABELS, quadratic_weighted_kappa

    r = [int(np.floor(v + 0.5)) for v in ref]
    p = [int(np.floor(v + 0.5)) for v in pred]
    return quadratic_weighted_kappa(r, p, RATING_LABELS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = parser.parse_args()
    data = rows_and_features()
    result = {"_about": "Fitted by scripts/fit_judge_calibration.py (see its docstring): App. ('plan') and Qual. "
                        "('note') as clip(intercept + sum(weights * features), 1, 5) within the hard caps (the note model then "
                        "less the rules' deductions and within their floors: offline.note_after_fit); a model is used "
                        "only where 'enabled', as the script's PREREGISTERED36 rule decides on held_out36."}
    for kind, signs in SIGNS.items():
        items = data[kind]
        print(f"\n{'App.' if kind == 'plan' else 'Qual.'}: leave-one-slice-out QWK (n, rules -> fitted, MAE rules -> fitted)")
        wins, table = 0, {}
        for held in SLICES:
            train = [it for it in items if it["split"] != held]
            test = [it for it in items if it["split"] == held]
            b, w = fit(train, signs)
            ref = [it["rating"] for it in test]
            rules = [it["features"]["rule_score"] for it in test]
            fitted = [predict(b, w, it) for it in test]
            q0, q1 = qwk(ref, rules), qwk(ref, fitted)
            m0 = float(np.mean(np.abs(np.array(ref) - rules)))
            m1 = float(np.mean(np.abs(np.array(ref) - fitted)))
            wins += q1 > q0
            table[held] = {"n": len(test), "rules_qwk": round(q0, 3), "fitted_qwk": round(q1, 3),
                           "rules_mae": round(m0, 3), "fitted_mae": round(m1, 3)}
            print(f"  {held:11} {len(test):4}  {q0:.3f} -> {q1:.3f}   {m0:.3f} -> {m1:.3f}")
        # stop 34 (pre-registered at stop 33): whether a model is used is decided on held_out33 and held_out34
        # (benchmarks/judge_agreement.py), which the fit never reads, not on the left-out slices above (DECIDED)
        enabled = DECIDED[kind]
        print(f"  fitted beats rules on {wins} of {len(SLICES)} left-out slices (enabled: {enabled}, decided on the "
              "excluded slices)")
        b, w = fit(items, signs)
        print(f"  weights on all {len(items)}: intercept {b:.3f} " + " ".join(f"{n}={v:+.3f}" for n, v in w.items()))
        result[kind] = {"enabled": enabled, "intercept": round(b, 6), "weights": {n: round(v, 6) for n, v in w.items()},
                        "signs": signs, "alpha": ALPHA, "slices": list(SLICES), "excluded": list(EXCLUDED), "n": len(items),
                        "leave_one_slice_out": table}
    if args.write:
        OUT.write_text(json.dumps(result, indent=1) + "\n", "utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
