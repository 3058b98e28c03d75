#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: mypy on the project, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TYR_VENV:-.venv}"
bash scripts/setup.sh
"$venv/bin/python" -m mypy
"$venv/bin/python" -m pytest -n "${TYR_TEST_WORKERS:-2}" "$@"
