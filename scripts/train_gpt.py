"""Train a shape-checked GPT on a dataset prepared by `python -m tyr.data prepare`.

One process (CPU, or one GPU):
    python -m scripts.train_gpt --data data/shakespeare_char --preset tiny --out runs/tiny

Data parallel on N processes (DDP averages gradients; `--optimizer sharded` shards AdamW's state, ZeRO-1):
    torchrun --nproc_per_node 2 -m scripts.train_gpt --data data/shakespeare_char --preset tiny --out runs/tiny2

Resume: run the same command again. Training continues from the newest checkpoint in --out
(model, optimizer, schedule position, data-loader position and RNG states), and Ctrl-C or
SIGTERM stops at the next step boundary after writing a checkpoint, so nothing is lost.

The run directory gets `metrics.jsonl` (one line per logged step), `curves.png`
(training curves, redrawn at every evaluation) and `step_*/` checkpoints.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Literal

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from tqdm import tqdm

from tyr import distributed
from tyr.checkpoint import latest_checkpoint, load_checkpoint, save_checkpoint
from tyr.data import TokenLoader
from tyr.metrics import MetricsLog, plot_metrics
from tyr.models import GPT, GPTConfig
from tyr.optim import AdamW, Muon, ShardedAdamW, clip_grad_norm_
from tyr.schedules import LRScheduler, WarmupCosine

Optimizer = Literal["adamw", "muon", "sharded"]


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    data: str
    out: str
    # model
    n_layer: int
    n_head: int
    n_embd: int
    block_size: int  # tokens per training row, T
    dropout: float = 0.0
    # optimisation
    batch_size: int  # rows per step on each rank, B
    max_steps: int
    lr: float = 1e-3
    min_lr_ratio: float = 0.1  # cosine decays to lr * min_lr_ratio
    warmup_steps: int = 20
    weight_decay: float = 0.1
    grad_clip: float = 1.0  # 0 disables clipping
    optimizer: Optimizer = "adamw"
    # bookkeeping
    eval_interval: int = 100
    eval_batches: int = 10
    log_interval: int = 10
    checkpoint_interval: int = 100
    keep_checkpoints: int = 2
    seed: int = 1337
    sample_tokens: int = 200  # text sampled at the end (0: none)

    def __post_init__(self) -> None:
        if self.optimizer not in ("adamw", "muon", "sharded"):
            raise ValueError(f"optimizer must be adamw, muon or sharded, got {self.optimizer!r}")
        for name in ("batch_size", "max_steps", "eval_interval", "log_interval", "checkpoint_interval"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")


PRESETS: dict[str, dict[str, Any]] = {
    # about a minute on 2 CPU cores: a real, shape-checked training run for the quick start
    "tiny": dict(n_layer=2, n_head=4, n_embd=64, block_size=64, batch_size=16, max_steps=300, lr=2e-3,
                 eval_interval=100, checkpoint_interval=100),
    # nanoGPT's "baby GPT" on shakespeare-char (wants a GPU)
    "small": dict(n_layer=6, n_head=6, n_embd=384, block_size=256, batch_size=64, max_steps=5000, lr=1e-3,
                  dropout=0.2, warmup_steps=100, eval_interval=250, checkpoint_interval=500),
}  # fmt: skip


def build_optimizer(model: nn.Module, config: TrainConfig) -> torch.optim.Optimizer:
    if config.optimizer == "muon":
        return Muon(model, lr=0.02, adam_lr=config.lr, adam_betas=(0.9, 0.95))
    if config.optimizer == "sharded":
        clip = config.grad_clip if config.grad_clip > 0 else None  # the sharded step clips its own shards
        return ShardedAdamW(model, lr=config.lr, betas=(0.9, 0.95), weight_decay=config.weight_decay,
                            max_grad_norm=clip)  # fmt: skip
    return AdamW(model, lr=config.lr, betas=(0.9, 0.95), weight_decay=config.weight_decay)


@torch.no_grad()
def evaluate(model: nn.Module, loader: TokenLoader, batches: int, device: torch.device) -> float:
    """Mean loss over the first `batches` validation batches, averaged over ranks."""
    model.eval()
    loader.reset()
    total = torch.zeros((), device=device)
    for _ in range(batches):
        inputs, targets = next(loader)
        _, loss = model(inputs.to(device), targets.to(device))
        total += loss
    model.train()
    mean = total / batches
    if distributed.is_initialized():
        torch.distributed.all_reduce(mean)
        mean /= distributed.world_size()
    return float(mean)


class StopRequest:
    """Ctrl-C / SIGTERM ask the loop to stop at the next step boundary (all ranks agree)."""

    def __init__(self) -> None:
        self.requested = False
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._handle)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True

    def agreed(self) -> bool:
        if not distributed.is_initialized():
            return self.requested
        flag = torch.tensor(float(self.requested))
        torch.distributed.all_reduce(flag, op=torch.distributed.ReduceOp.MAX)
        return bool(flag.item())


def train(config: TrainConfig) -> dict[str, float]:
    info = distributed.init_from_env()
    main = info.rank == 0
    out = Path(config.out)
    torch.manual_seed(config.seed)  # same initial weights on every rank

    train_loader = TokenLoader(config.data, "train", batch_size=config.batch_size, seq_len=config.block_size,
                               seed=config.seed)  # fmt: skip
    val_loader = TokenLoader(config.data, "val", batch_size=config.batch_size, seq_len=config.block_size,
                             order="sequential", prefetch=0)  # fmt: skip
    model_config = GPTConfig(vocab_size=train_loader.vocab_size, block_size=config.block_size,
                             n_layer=config.n_layer, n_head=config.n_head, n_embd=config.n_embd,
                             dropout=config.dropout)  # fmt: skip
    model = GPT.from_config(model_config).to(info.device)
    # ShardedAdamW reduce-scatters gradients itself; otherwise DDP averages them.
    sharded = config.optimizer == "sharded"
    net: nn.Module = DistributedDataParallel(model) if info.world_size > 1 and not sharded else model
    optimizer = build_optimizer(model, config)
    scheduler = LRScheduler(optimizer, WarmupCosine(warmup_steps=config.warmup_steps, total_steps=config.max_steps,
                                                    final_ratio=config.min_lr_ratio))  # fmt: skip

    step = 0
    resume_from = latest_checkpoint(out)
    if resume_from is not None:
        checkpoint = load_checkpoint(resume_from, model=model, optimizer=optimizer)
        scheduler.load_state_dict(checkpoint.schedule_state)
        train_loader.load_state_dict(checkpoint.loader_state)
        step = checkpoint.step

    def checkpoint_now() -> None:
        save_checkpoint(out, step=step, model=model, optimizer=optimizer, schedule_state=scheduler.state_dict(),
                        loader_state=train_loader.state_dict(), extra={"config": dataclasses.asdict(config)},
                        keep_last=config.keep_checkpoints)  # fmt: skip

    if main:
        out.mkdir(parents=True, exist_ok=True)
        where = f"resuming from {resume_from}" if resume_from else "starting fresh"
        print(f"GPT with {model.num_params():,} parameters on {info.world_size} x {info.device}; {where}")
    metrics = MetricsLog(out / "metrics.jsonl") if main else None
    stop = StopRequest()
    results: dict[str, float] = {}

    def evaluate_and_plot() -> None:
        results["val_loss"] = evaluate(net, val_loader, config.eval_batches, info.device)
        if metrics is not None:
            metrics.log(step, val_loss=results["val_loss"])
            plot_metrics(metrics.path, out / "curves.png", title=f"GPT {config.n_layer}x{config.n_embd}")

    progress = tqdm(total=config.max_steps, initial=step, disable=not main, desc="train", unit="step")
    tokens_per_step = config.batch_size * config.block_size * info.world_size
    clock = time.perf_counter()
    try:
        while step < config.max_steps:
            if step % config.eval_interval == 0:
                evaluate_and_plot()
            inputs, targets = next(train_loader)
            _, loss = net(inputs.to(info.device), targets.to(info.device))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            norm = clip_grad_norm_(model, config.grad_clip) if config.grad_clip > 0 and not sharded else None
            optimizer.step()
            scheduler.step()
            step += 1
            results["train_loss"] = loss.item()
            progress.update()
            if step % config.log_interval == 0 and metrics is not None:
                elapsed, clock = time.perf_counter() - clock, time.perf_counter()
                record = {"train_loss": results["train_loss"], "lr": optimizer.param_groups[0]["lr"],
                          "tokens_per_s": tokens_per_step * config.log_interval / elapsed}  # fmt: skip
                if norm is not None:
                    record["grad_norm"] = float(norm)
                metrics.log(step, **record)
                progress.set_postfix(loss=f"{results['train_loss']:.3f}", val=f"{results.get('val_loss', math.nan):.3f}")
            if step % config.checkpoint_interval == 0 or step == config.max_steps:
                checkpoint_now()
            if stop.agreed():
                checkpoint_now()
                if main:
                    progress.write(f"stopped at step {step}; checkpoint written to {out}. Run again to resume.")
                return results
        evaluate_and_plot()
        if main and config.sample_tokens:
            tokenizer = train_loader.tokenizer
            prompt = torch.tensor([[tokenizer.bos_id]], device=info.device)
            sample = model.generate(prompt, config.sample_tokens, top_k=10)[0, 1:].tolist()
            documents = [tokenizer.decode(d) for d in _split_at(sample, tokenizer.bos_id)]
            progress.write("--- sample ---\n" + "\n\n".join(documents) + "\n--------------")
        return results
    except BaseException:
        distributed.destroy(wait=False)
        raise
    finally:
        progress.close()
        train_loader.close()
        val_loader.close()
        if metrics is not None:
            metrics.close()
            if main:
                print(f"train loss {results.get('train_loss', math.nan):.4f}, val loss "
                      f"{results.get('val_loss', math.nan):.4f}; curves in {out / 'curves.png'}")  # fmt: skip
        distributed.destroy()


def _split_at(ids: list[int], separator: int) -> list[list[int]]:
    """Token ids cut into documents at each BOS."""
    documents: list[list[int]] = [[]]
    for token in ids:
        if token == separator:
            documents.append([])
        else:
            documents[-1].append(token)
    return [d for d in documents if d]


_ARG_TYPES: dict[str, type] = {"int": int, "float": float, "str": str, "Optimizer": str}


def parse_args(argv: list[str] | None = None) -> TrainConfig:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="dataset folder from `python -m tyr.data prepare`")
    parser.add_argument("--out", default="runs/gpt", help="run directory: checkpoints, metrics, curves")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="tiny")
    for field in dataclasses.fields(TrainConfig):
        name = field.name
        if name in ("data", "out"):
            continue
        parser.add_argument(f"--{name.replace('_', '-')}", type=_ARG_TYPES[str(field.type)], help="overrides the preset")
    args = vars(parser.parse_args(argv))
    values: dict[str, Any] = {**PRESETS[args.pop("preset")]}
    values.update({k: v for k, v in args.items() if v is not None})
    return TrainConfig(**values)


if __name__ == "__main__":
    train(parse_args())
