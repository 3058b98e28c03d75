#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: lint (ruff), type-check (mypy), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TYR_VENV:-.venv}"
bash scripts/setup.sh
"$venv/bin/python" -m ruff check .
"$venv/bin/python" -m mypy
"$venv/bin/python" -m pytest -n "${TYR_TEST_WORKERS:-2}" "$@"
