#!/usr/bin/env bash
# The main job: install MentalHospital (offline defaults only) and run it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
.venv/bin/mentalhospital cases stats dev
.venv/bin/mentalhospital cases stats test
