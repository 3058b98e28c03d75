#!/usr/bin/env bash
# Fresh machine to a trained model: install tyr into .venv, turn tinyshakespeare into
# Parquet shards with a character tokenizer, and train nanoGPT's CPU model with tyr's fast
# recipe for 1500 steps (about 2 minutes on 2 cores): validation below 1.9 nats per character
# (1.85 measured) and a Shakespeare-like sample.
# Extra arguments go to the trainer (e.g. --max-steps 1000, --threads 1).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TYR_VENV:-.venv}"
corpus="${TYR_CORPUS:-../shared/data/tinyshakespeare.txt}"
bash scripts/setup.sh
if [ ! -f data/shakespeare_char/manifest.json ]; then
  "$venv/bin/python" -m tyr.data prepare "$corpus" --out data/shakespeare_char
fi
"$venv/bin/python" -m scripts.train_gpt --data data/shakespeare_char --preset fast --max-steps 1500 --eval-interval 500 \
  --out runs/shakespeare "$@"
