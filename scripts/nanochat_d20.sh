#!/usr/bin/env bash
# nanochat's d20 speedrun model on tyr: 8 GPUs (one node), about 3.9e19 FLOPs.
#
# 1. A byte-level BPE dataset with 65,536 ids (nanochat's size; uint16 tokens hold them all),
#    from a folder of text files (e.g. FineWeb-Edu shards exported to .txt), one document per file:
#        python -m tyr.data prepare /data/fineweb_edu_txt --out data/fineweb_bpe --tokenizer bpe \
#            --vocab-size 65536 --documents file --val-fraction 0.001
# 2. Size the model and check the command line on the CPU first (builds d20 on the meta device,
#    prints 560,988,200 parameters and 3.49e9 FLOPs per token, trains 3 steps at width 80):
#        python -m scripts.nanochat_d20
# 3. Train: 20 layers x 1280, context 2048, 32 rows per GPU = 524,288 tokens per step, 21,400 steps
#    (11.2B tokens, 20 per parameter), Muon + AdamW, warmup-stable-decay, torch.compile.
#    Run the same command again to resume from the newest checkpoint.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DATA:-data/fineweb_bpe}"
OUT="${OUT:-runs/d20}"
torchrun --standalone --nproc_per_node 8 -m scripts.train_nanochat --data "$DATA" --preset d20 --out "$OUT" "$@"
# 4. Write with it (KV cache):
python -m scripts.chat_sample --run "$OUT" --prompt "The capital of France is" --tokens 64
