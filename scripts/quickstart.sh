#!/usr/bin/env bash
# The main job: install MentalHospital (offline defaults only), evaluate the scripted clinician on
# the frozen `test-v2` suite (the leaderboard's default; generator version 2, zero audit findings) with
# the offline patient and scorers, and print the study's tables.
# A second run resumes from results/scripted (and finishes at once when the run is complete).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
.venv/bin/mentalhospital evaluate --doctor scripted --suite test-v2 --out results/scripted --workers 2
