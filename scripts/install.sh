#!/usr/bin/env bash
# Create .venv (if missing) and install MentalHospital into it with the given extras.
# torch is pinned here, before anything that depends on it, so that pip takes the CPU build
# instead of a multi-gigabyte CUDA build; the package itself does not pin torch.
# Usage: bash scripts/install.sh [EXTRAS]   e.g. bash scripts/install.sh dev,llm,embed,train
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
if [ -n "$extras" ] && [[ "$extras" =~ (llm|embed|train|dev|verifiers) ]]; then
  .venv/bin/python -m pip install -q "torch==2.13.0"
fi
# The default editable mode maps mentalhospital_env.agents and .rewards to agents/ and rewards/ with an
# import hook, which works from any directory, the repository root included. For static tools
# (pyright, mypy) install with --config-settings editable_mode=strict instead (see README).
if [ -n "$extras" ]; then
  .venv/bin/python -m pip install -q -e ".[${extras}]"
else
  .venv/bin/python -m pip install -q -e .
fi
