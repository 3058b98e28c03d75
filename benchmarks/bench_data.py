"""Benchmark: is the data loader ever the bottleneck of GPT training on CPU?

For each configuration the benchmark prepares tinyshakespeare into Parquet shards, then
measures, in the same process:

* loader    tokens/s that `TokenLoader` yields on its own (prefetch thread on; the
            consumer only takes batches), counting ``batch_size * seq_len`` per batch;
* trainer   tokens/s one GPT training step consumes on a fixed batch: the
            `tyr.models.gpt.GPT` forward and backward plus a `torch.optim.AdamW` step;
* fed       the same training loop fed by the loader, end to end.

The target is ``loader / trainer >= 50``; ``fed`` close to ``trainer`` shows that the
loader's background thread does not slow training down.

Configurations (the GPT is nanoGPT's CPU shakespeare-char model: 4 layers, 4 heads,
128 wide, batch 12, context 64):

* char/tokens   character tokenizer, pre-tokenized shards
* bpe/tokens    byte-level BPE with 4096 ids, pre-tokenized shards
* bpe/text      byte-level BPE, raw-text shards tokenized by the loader as it reads

Run:  .venv/bin/python benchmarks/bench_data.py [--seconds 2] [--corpus PATH] [--threads N]

On a shared machine, `--threads 1` gives steadier trainer figures: two OpenMP threads
competing with other processes for two cores slow training down by an order of magnitude.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from tyr.data import Batch, TokenLoader, prepare
from tyr.data.manifest import Column
from tyr.data.prepare import TokenizerKind
from tyr.models.gpt import GPT, GPTConfig

CORPUS = Path(__file__).resolve().parents[2] / "shared/data/tinyshakespeare.txt"
TARGET = 50.0


@dataclass(frozen=True)
class Config:
    name: str
    tokenizer: TokenizerKind
    column: Column
    batch_size: int = 12
    seq_len: int = 64
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128


CONFIGS = [
    Config("char/tokens", "char", "tokens"),
    Config("bpe/tokens", "bpe", "tokens"),
    Config("bpe/text", "bpe", "text"),
]


def rate(step: Callable[[], int], seconds: float, warmup: int = 2, min_steps: int = 3) -> float:
    """Tokens per second of `step` (which returns the tokens it handled), timed for `seconds`."""
    for _ in range(warmup):
        step()
    tokens = steps = 0
    start = time.perf_counter()
    while steps < min_steps or time.perf_counter() - start < seconds:
        tokens += step()
        steps += 1
    return tokens / (time.perf_counter() - start)


def train_step(model: GPT[Any, Any], optimizer: torch.optim.Optimizer, batches: Iterator[Batch[Any, Any]]) -> int:
    inputs, targets = next(batches)
    _, loss = model(inputs, targets)
    assert loss is not None
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return inputs.numel()


def forever(batch: Batch[Any, Any]) -> Iterator[Batch[Any, Any]]:
    while True:
        yield batch


def bench(config: Config, folder: Path, seconds: float) -> dict[str, float]:
    settings: dict[str, Any] = {"batch_size": config.batch_size, "seq_len": config.seq_len}
    with TokenLoader(folder, **settings) as loader:
        vocab_size = loader.vocab_size

        def load() -> int:
            return next(loader).inputs.numel()

        loader_rate = rate(load, seconds, warmup=5)

    torch.manual_seed(0)
    gpt = GPTConfig(
        vocab_size=vocab_size,
        block_size=config.seq_len,
        n_layer=config.n_layer,
        n_head=config.n_head,
        n_embd=config.n_embd,
    )
    model: GPT[Any, Any] = GPT.from_config(gpt)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    with TokenLoader(folder, **settings) as fixed:
        batch = next(fixed)
    fixed_batches = forever(batch)
    trainer_rate = rate(lambda: train_step(model, optimizer, fixed_batches), seconds)
    with TokenLoader(folder, **settings) as feeding:
        fed_rate = rate(lambda: train_step(model, optimizer, feeding), seconds)
    return {"loader": loader_rate, "trainer": trainer_rate, "fed": fed_rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="text corpus (default tinyshakespeare)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads for training (default: torch's)")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; corpus {args.corpus.name}")
    print(f"{'config':12} {'loader tok/s':>13} {'trainer tok/s':>14} {'ratio':>8} {'fed tok/s':>10}  target")
    with tempfile.TemporaryDirectory(prefix="bench_data-") as tmp:
        for config in CONFIGS:
            folder = Path(tmp) / config.name.replace("/", "-")
            prepare([args.corpus], folder, tokenizer=config.tokenizer, column=config.column, progress=False)
            r = bench(config, folder, args.seconds)
            ratio = r["loader"] / r["trainer"]
            verdict = "ok" if ratio >= TARGET else f"BELOW {TARGET:.0f}x"
            figures = f"{r['loader']:>13,.0f} {r['trainer']:>14,.0f} {ratio:>7,.0f}x {r['fed']:>10,.0f}"
            print(f"{config.name:12} {figures}  {verdict}")


if __name__ == "__main__":
    main()
