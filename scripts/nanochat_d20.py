"""nanochat's d20 on tyr: size the GPU configuration, then run a few steps of it at a tiny width on the CPU.

    python -m scripts.nanochat_d20 [--data DIR] [--steps 3]

The `d20` preset of `scripts/train_nanochat.py` is nanochat's speedrun model: depth 20, so
20 layers 1280 wide (20 x 64), 10 heads of 128, context 2048, a 65,536-token BPE vocabulary;
32 rows of 2048 tokens on each of 8 GPUs (524,288 tokens per step) for 21,400 steps, 11.2B
tokens, 20 per parameter. This script builds that model without memory (on the `meta`
device), checks its parameter count against the config's and prints it with the FLOPs per
token and for the whole run. Then it trains the same preset for `--steps` steps on the CPU
with the width cut to 20 x 4 = 80 (heads of 8) and a context of 64, through the very command
line the GPU run uses (`scripts/nanochat_d20.sh`):

    torchrun --nproc_per_node 8 -m scripts.train_nanochat --data data/fineweb_bpe --preset d20 --out runs/d20

Without `--data`, the CPU steps read a small BPE dataset made from tinyshakespeare.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from benchmarks.bench_train import CORPUS
from scripts.train_nanochat import PRESETS, main, parse_args
from tyr.data import prepare
from tyr.models.nanochat import NanoChat

GPUS = 8
VOCAB = 65_536


def size_d20() -> dict[str, Any]:
    """The d20 run's sizes, from the preset and a model built on the meta device."""
    config = parse_args(["--data", "-", "--preset", "d20"])
    model_config = config.model_config(VOCAB)
    with torch.device("meta"):
        model = NanoChat.from_config(model_config)
    params = sum(p.numel() for p in model.parameters())
    if params != model_config.num_params():
        raise AssertionError(f"the model has {params:,} parameters, the config counts {model_config.num_params():,}")
    tokens_per_step = GPUS * config.batch_size * config.grad_accum * config.row_len
    tokens = tokens_per_step * config.max_steps
    return {"description": model_config.describe(), "params": params, "flops_per_token": model_config.flops_per_token(),
            "tokens_per_step": tokens_per_step, "tokens": tokens, "tokens_per_param": tokens / params,
            "flops": model_config.flops_per_token() * tokens}  # fmt: skip


def run(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", help="a dataset folder (default: a BPE dataset of tinyshakespeare, made here)")
    parser.add_argument("--steps", type=int, default=3, help="CPU steps at the tiny width (default 3)")
    parser.add_argument("--out", default=None, help="run directory of the CPU steps (default: a temporary one)")
    args = parser.parse_args(argv)

    sizes = size_d20()
    print(f"d20: {sizes['description']}")
    print(f"d20: {sizes['tokens_per_step']:,} tokens per step on {GPUS} GPUs x {PRESETS['d20']['max_steps']:,} steps "
          f"= {sizes['tokens'] / 1e9:.1f}B tokens ({sizes['tokens_per_param']:.1f} per parameter), "
          f"{sizes['flops']:.2e} training FLOPs")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="nanochat_d20-") as tmp:
        data = args.data
        if data is None:
            source = Path(tmp) / "shakespeare.txt"
            source.write_text(CORPUS.read_text(encoding="utf-8")[:100_000], encoding="utf-8")
            data = str(Path(tmp) / "bpe")
            prepare([source], data, tokenizer="bpe", vocab_size=512, row_group_size=64, progress=False)
        tiny = ["--data", data, "--preset", "d20", "--aspect-ratio", "4", "--head-dim", "8", "--block-size", "64",
                "--batch-size", "4", "--max-steps", str(args.steps), "--no-compile", "--eval-interval", str(args.steps),
                "--eval-batches", "2", "--log-interval", "1", "--checkpoint-interval", str(args.steps),
                "--sample-tokens", "0", "--out", args.out or str(Path(tmp) / "run")]  # fmt: skip
        summary = main(tiny)
    return {**sizes, "cpu_summary": summary}


if __name__ == "__main__":
    run()
