#!/usr/bin/env bash
# Create .venv (or $TYR_VENV) and install tyr with its dev extras.
# torch is installed first and pinned: an unpinned torch pulls gigabytes of CUDA packages.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TYR_VENV:-.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q "torch==2.13.0"
"$venv/bin/python" -m pip install -q -e ".[dev]"
echo "tyr installed in $venv"
