#!/usr/bin/env bash
# NanoChat end to end on a CPU in a few minutes: a BPE dataset of tinyshakespeare, the `cpu` preset, a sample.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-.venv/bin/python}"
corpus="${CORPUS:-../shared/data/tinyshakespeare.txt}"
"$python" -m tyr.data prepare "$corpus" --out data/shakespeare_bpe --tokenizer bpe --vocab-size 1024 --overwrite
"$python" -m scripts.train_nanochat --data data/shakespeare_bpe --preset cpu --out runs/nanochat_cpu "$@"
"$python" -m scripts.chat_sample --run runs/nanochat_cpu --prompt "ROMEO:" --tokens 100
