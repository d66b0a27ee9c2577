#!/usr/bin/env bash
# Install everything the tests need (torch pinned to the CPU build) and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh dev,llm,embed,train
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
.venv/bin/python -m pytest -n 2 --dist loadgroup "$@"
