#!/usr/bin/env bash
# Fresh machine to a trained model: install tyr into .venv, turn tinyshakespeare into
# Parquet shards with a character tokenizer, and train a small shape-checked GPT on the CPU.
# Extra arguments go to the trainer (e.g. --max-steps 1000, --optimizer muon).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TYR_VENV:-.venv}"
corpus="${TYR_CORPUS:-../shared/data/tinyshakespeare.txt}"
bash scripts/setup.sh
if [ ! -f data/shakespeare_char/manifest.json ]; then
  "$venv/bin/python" -m tyr.data prepare "$corpus" --out data/shakespeare_char
fi
"$venv/bin/python" -m scripts.train_gpt --data data/shakespeare_char --preset tiny --out runs/shakespeare_tiny "$@"
