"""Benchmark: NanoChat (`scripts/train_nanochat.py --preset cpu`) against the GPT baseline of `bench_train.py`.

Both learn tinyshakespeare on the CPU, in one process, taking turns (the order reversed every
round, each advancing by the same share of its run per turn) so that a machine whose load
changes slows both alike; only training is timed.

* baseline   nanoGPT's CPU GPT in plain PyTorch (`baseline_gpt.py`): characters, 4 layers,
             4 heads, 128 wide, context 64, batch 12, AdamW 1e-3, 2000 steps, random windows
             of the first 90% of the text, as in `bench_train.py`;
* nanochat   NanoChat as `scripts/train_nanochat.py --preset cpu` builds it (model,
             Muon/AdamW split, schedule, loss), on a byte-level BPE dataset of the same 90%
             made with `tyr.data.prepare` (paragraphs as documents), read by `TokenLoader`
             with BOS-aligned best-fit rows.

Both are scored in bits per byte on the same text, the last 10% (nanoGPT's validation split),
at regular points of their runs:

* baseline: nanoGPT's validation loss (every character predicted once, in windows of 64) / ln 2,
  so that 2.72 bits per byte is nanoGPT's 1.8857 nats per character;
* nanochat: the text cut into paragraphs, each after a BOS, read as one stream in windows of
  its context; the nats of every token of text (BOS left out) over the bytes of the paragraphs.

The paragraph breaks ("\\n\\n") are text to the baseline and boundaries (BOS, not counted) to
NanoChat; `baseline, breaks left out` scores the baseline without them (their nats and bytes)
for a like-for-like figure. Reported: each side's bits per byte at the end and the other's at
the same wall time, the wall time at which each first reaches 2.72 (interpolated between the
two evaluations around the crossing), tokens and bytes per second.

One run on a 2-core machine shared with other work (load average 3.8 before, 2.0 after), one
thread, checks on: the baseline ended at 2.7291 bits per byte after 2000 steps in 137.4 s and so
never reached 2.72 (nanoGPT reports 1.8857 nats per character, 2.7205); NanoChat reached 2.72 at
28.8 s (0.21 x the baseline's whole run) and ended at 2.5544 after 300 steps in 102.0 s, when
the baseline was at 2.8214; 6,026 tokens/s (13,630 bytes/s) against the baseline's 11,182.
With `--baseline-steps 3000` (its cosine stretched to 3000 steps; load 2.5 before, 4.5 after)
the baseline reached 2.72 at 153.0 s (178.3 s breaks left out) and NanoChat, the same run to
the bit, at 32.9 s: 0.22 x (0.18 x).

Run:  .venv/bin/python benchmarks/bench_nanochat.py [--vocab-size 1024] [--evals 20] [--flags "--max-steps 500"]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

import tyr
from benchmarks.baseline_gpt import BaselineConfig, BaselineGPT, BaselineTrainer
from benchmarks.bench_train import CORPUS
from scripts.train_nanochat import NanoChatTask, parse_args
from tyr.data import Batch, TokenLoader, Tokenizer, prepare, split_documents
from tyr.models.nanochat import NanoChat
from tyr.optim import clip_grad_norm_
from tyr.schedules import LRScheduler
from tyr.train import build_optimizer, build_schedule, choose_threads, text_nats

TARGET_BPB = 2.72  # nanoGPT's 1.8857 nats per character, in bits
BREAKS = re.compile(r"\n\n+")


@dataclass
class Side:
    """One side of the race: its step, its batches, how it is scored, and its record."""

    name: str
    step: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    batches: Callable[[int], list[tuple[torch.Tensor, torch.Tensor]]]
    score: Callable[[], dict[str, float]]
    steps: int
    tokens_per_step: int
    done: int = 0
    seconds: float = 0.0
    loss: float = math.nan  # the last training loss
    curve: list[tuple[int, float, dict[str, float]]] = field(default_factory=list)  # (step, seconds, scores)

    def evaluate(self) -> None:
        self.curve.append((self.done, self.seconds, self.score()))


def first_time_below(curve: list[tuple[int, float, dict[str, float]]], key: str, target: float) -> float | None:
    """The training time at which `key` first reaches `target`, linear between the evaluations around it."""
    for (_, t0, s0), (_, t1, s1) in zip(curve, curve[1:]):
        if s1[key] <= target:
            if s0[key] <= target:
                return t0
            return t0 + (t1 - t0) * (s0[key] - target) / (s0[key] - s1[key])
    return curve[0][1] if curve and curve[0][2][key] <= target else None


def value_at(curve: list[tuple[int, float, dict[str, float]]], key: str, seconds: float) -> float:
    """`key` at a training time, linear between evaluations (the last value after the end)."""
    for (_, t0, s0), (_, t1, s1) in zip(curve, curve[1:]):
        if t0 <= seconds <= t1:
            return s0[key] + (s1[key] - s0[key]) * (seconds - t0) / max(t1 - t0, 1e-9)
    return curve[-1][2][key]


# -- the baseline ---------------------------------------------------------------------------------


def baseline_side(train: torch.Tensor, val: torch.Tensor, breaks: torch.Tensor, vocab: int, steps: int,
                  seed: int) -> Side:  # fmt: skip
    torch.manual_seed(seed)
    config = BaselineConfig(vocab_size=vocab, max_iters=steps, warmup_iters=min(100, steps))
    trainer = BaselineTrainer(config)
    generator = torch.Generator().manual_seed(seed)
    block, rows = config.block_size, 12

    def batches(n: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
        out = []
        for _ in range(n):  # nanoGPT's get_batch: random windows of the training text
            starts = torch.randint(len(train) - block, (rows,), generator=generator).tolist()
            out.append((torch.stack([train[i : i + block] for i in starts]),
                        torch.stack([train[i + 1 : i + 1 + block] for i in starts])))  # fmt: skip
        return out

    def score() -> dict[str, float]:
        return baseline_bpb(trainer.model, val, breaks, block)

    return Side("baseline", trainer.step, batches, score, steps, rows * block)


@torch.no_grad()
def baseline_bpb(model: BaselineGPT, val: torch.Tensor, breaks: torch.Tensor, block: int) -> dict[str, float]:
    """Bits per byte (= per character: the text is ASCII) of nanoGPT's validation, with and without the breaks."""
    model.eval()
    windows = (len(val) - 1) // block
    x = val[: windows * block].view(windows, block)
    y = val[1 : windows * block + 1].view(windows, block)
    kept = ~breaks[1 : windows * block + 1].view(windows, block)
    total = text = 0.0
    for i in range(0, windows, 256):
        logits, _ = model(x[i : i + 256])
        nats = F.cross_entropy(logits.flatten(0, 1), y[i : i + 256].flatten(), reduction="none")
        total += nats.sum().item()
        text += (nats * kept[i : i + 256].flatten()).sum().item()
    model.train()
    ln2 = math.log(2)
    return {"bpb": total / (ln2 * y.numel()), "bpb_without_breaks": text / (ln2 * kept.sum().item())}


# -- NanoChat -------------------------------------------------------------------------------------


def nanochat_side(dataset: Path, val_text: str, flags: list[str], seed: int) -> tuple[Side, float]:
    """NanoChat as `scripts/train_nanochat.py --preset cpu [flags]` makes it, and the validation text's bytes per token."""
    config = parse_args(["--data", str(dataset), "--preset", "cpu", "--seed", str(seed), *flags])
    loader = TokenLoader(dataset, "train", batch_size=config.batch_size, seq_len=config.row_len, align=config.align,
                         seed=config.seed, prefetch=0)  # fmt: skip
    torch.manual_seed(seed)
    task = NanoChatTask(config)
    model = task.build_model(loader.vocab_size)
    assert isinstance(model, NanoChat) and config.grad_accum == 1 and config.optimizer != "sharded"
    optimizer = build_optimizer(model, config)
    scheduler = LRScheduler(optimizer, build_schedule(config))
    stream = document_stream(loader.tokenizer, val_text)
    token_bytes = torch.from_numpy(loader.tokenizer.token_bytes())

    def step(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        loss = task.loss(model, Batch(x, y))
        loss.backward()
        if config.grad_clip > 0:
            clip_grad_norm_(model, config.grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        scheduler.step()
        return loss.detach()

    def batches(n: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
        return [(batch.inputs, batch.targets) for batch in (next(loader) for _ in range(n))]

    def score() -> dict[str, float]:
        return {"bpb": stream_bpb(model, stream, token_bytes, config.block_size)}

    side = Side("nanochat", step, batches, score, config.max_steps, config.batch_size * config.row_len)
    return side, float(token_bytes[stream].sum()) / len(stream)


def document_stream(tokenizer: Tokenizer, text: str) -> torch.Tensor:
    """The text's paragraphs, each after a BOS, one after the other: shape (N,)."""
    return torch.tensor([i for doc in split_documents(text, "paragraph") for i in tokenizer.encode(doc, bos=True)])


@torch.no_grad()
def stream_bpb(model: NanoChat[Any, Any], stream: torch.Tensor, token_bytes: torch.Tensor, block: int) -> float:
    """Bits per byte of a token stream read in windows of `block`: every token after the first scored once."""
    model.eval()
    nats = n_bytes = 0.0
    for start in range(0, len(stream) - 1, 64 * block):  # 64 windows at a time; the last may be short
        chunk = stream[start : start + 64 * block + 1]
        windows = (len(chunk) - 1) // block
        pieces = [(chunk[: windows * block].view(windows, block), chunk[1 : windows * block + 1].view(windows, block))]
        if (len(chunk) - 1) % block:
            pieces.append((chunk[windows * block : -1][None], chunk[windows * block + 1 :][None]))
        for x, y in pieces:
            if x.numel():
                text, counted = text_nats(model.nats(x, y), y, token_bytes)
                nats, n_bytes = nats + text.item(), n_bytes + counted.item()
    model.train()
    return nats / (math.log(2) * n_bytes)


# -- the race -------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--vocab-size", type=int, default=1024, help="BPE ids, BOS included (default 1024)")
    parser.add_argument("--flags", default="", help="more flags for NanoChat's trainer, e.g. '--max-steps 500'")
    parser.add_argument("--baseline-steps", type=int, default=2000, help="the baseline's steps (default 2000; 0: none)")
    parser.add_argument("--evals", type=int, default=20, help="evaluations per run, evenly spaced (default 20)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (default: as the trainer chooses)")
    parser.add_argument("--seed", type=int, default=1337)
    args = parser.parse_args()

    threads, why = choose_threads(args.threads)
    load_before = os.getloadavg()[0]
    print(f"{why}; load average {load_before:.2f}; checks {'on' if tyr.checking_enabled() else 'OFF'}", flush=True)
    text = args.corpus.read_text(encoding="utf-8")
    split = int(0.9 * len(text))  # nanoGPT's split: the last 10% is validation
    train_text, val_text = text[:split], text[split:]
    chars = sorted(set(text))
    lookup = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([lookup[c] for c in text], dtype=torch.long)
    breaks = torch.zeros(len(val_text), dtype=torch.bool)
    for match in BREAKS.finditer(val_text):
        breaks[match.start() : match.end()] = True

    with tempfile.TemporaryDirectory(prefix="bench_nanochat-") as tmp:
        source = Path(tmp) / "train.txt"
        source.write_text(train_text, encoding="utf-8")
        dataset = Path(tmp) / "bpe"
        prepare([source], dataset, tokenizer="bpe", vocab_size=args.vocab_size, val_fraction=0.0, progress=False)
        nanochat, bytes_per_token = nanochat_side(dataset, val_text, args.flags.split(), args.seed)
        sides = [nanochat]
        if args.baseline_steps:
            sides.insert(0, baseline_side(data[:split], data[split:], breaks, len(chars), args.baseline_steps, args.seed))
        race(sides, args.evals)
    report(sides, bytes_per_token, threads, load_before)


def race(sides: list[Side], evals: int) -> None:
    """Train every side to its end in turns of 1/evals of its run, evaluating (untimed) after each turn."""
    for side in sides:
        side.evaluate()
    for k in range(evals):
        for side in sides if k % 2 == 0 else sides[::-1]:
            n = round((k + 1) / evals * side.steps) - side.done
            batches = side.batches(n)  # made before the clock starts
            start = time.perf_counter()
            for x, y in batches:
                side.loss = float(side.step(x, y))
            side.seconds += time.perf_counter() - start
            side.done += n
            side.evaluate()
        shown = "  ".join(f"{s.name} {s.done} steps {s.seconds:6.1f} s loss {s.loss:.3f} bpb "
                          f"{s.curve[-1][2]['bpb']:.4f}" for s in sides)  # fmt: skip
        print(f"  {shown}", flush=True)


def report(sides: list[Side], bytes_per_token: float, threads: int, load_before: float) -> None:
    print(f"\ntinyshakespeare, {threads} thread(s), load average {load_before:.2f} before and "
          f"{os.getloadavg()[0]:.2f} after; bits per byte of the last 10% of the text")  # fmt: skip
    print(f"{'':28} {'steps':>6} {'wall s':>8} {'tokens/s':>9} {'bytes/s':>9} {'final bpb':>10} {'t(2.72) s':>10}")
    by_name = {side.name: side for side in sides}
    rows = [(side, key) for side in sides for key in (["bpb", "bpb_without_breaks"] if side.name == "baseline" else ["bpb"])]
    reached: dict[str, float | None] = {}
    for side, key in rows:
        label = side.name + (", breaks left out" if key != "bpb" else "")
        tokens_per_s = side.done * side.tokens_per_step / side.seconds
        per_token = bytes_per_token if side.name == "nanochat" else 1.0  # the baseline's tokens are ASCII characters
        hit = reached[label] = first_time_below(side.curve, key, TARGET_BPB)
        shown = f"{hit:10.1f}" if hit is not None else f"{'not':>10}"
        print(f"{label:28} {side.done:>6} {side.seconds:>8.1f} {tokens_per_s:>9,.0f} {tokens_per_s * per_token:>9,.0f} "
              f"{side.curve[-1][2][key]:>10.4f} {shown}")  # fmt: skip
    if "baseline" not in by_name:
        return
    baseline, nanochat = by_name["baseline"], by_name["nanochat"]
    end = nanochat.seconds
    print(f"\nat NanoChat's end ({end:.1f} s): NanoChat {nanochat.curve[-1][2]['bpb']:.4f} bpb, the baseline "
          f"{value_at(baseline.curve, 'bpb', end):.4f} ({value_at(baseline.curve, 'bpb_without_breaks', end):.4f} "
          "breaks left out)")  # fmt: skip
    for label in ("baseline", "baseline, breaks left out"):
        ours, theirs = reached["nanochat"], reached[label]
        if ours is not None and theirs is not None:
            print(f"time to {TARGET_BPB} bits per byte: NanoChat {ours:.1f} s = {ours / theirs:.2f} x the {label}'s "
                  f"{theirs:.1f} s (target <= 0.5 x)")  # fmt: skip
        elif ours is not None:
            print(f"time to {TARGET_BPB} bits per byte: NanoChat {ours:.1f} s = {ours / baseline.seconds:.2f} x the "
                  f"{label}'s whole run ({baseline.seconds:.1f} s), in which it does not reach {TARGET_BPB}")  # fmt: skip
        else:
            print(f"time to {TARGET_BPB} bits per byte: NanoChat does not reach it")


if __name__ == "__main__":
    main()
