"""`Trainer`: the training loop every tyr trainer runs, written once.

One step is `grad_accum` micro-batches (forward, loss, backward; gradients are
synchronised across ranks on the last one), global-norm clipping, the optimizer
update and the schedule. Around it: threads and processes, Parquet loaders,
checkpoints with exact resume (model, optimizer, schedule, loader position, RNG
states, counters), a Ctrl-C / SIGTERM stop at a step boundary, a tqdm bar with
loss and tokens/s, `metrics.jsonl`, `curves.png`, periodic validation, a sample
at the end and `summary.json`.

Each piece is a method, so that a variant of the loop (another way to synchronise
gradients, an outer optimizer) replaces one method rather than the loop:
`micro_step` (forward and backward of one micro-batch), `sync_context` (whether a
backward synchronises gradients), `optimizer_step` (clip, update, schedule),
`state` / `load` (what a checkpoint holds).

With `--diloco-steps H` the ranks do not synchronise gradients: each steps its own
optimizer on its own data and `tyr.optim.DiLoCo` averages the weights' change every H
steps (and at the last step, so a run always ends with one model). Validation between
rounds scores each rank's own weights; an `--eval-interval` that H divides sees
synchronised ones.

Resuming takes the newest checkpoint that every rank can read; a damaged one (a
missing or truncated file) is reported and the one before it is used.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, Generic, TypeVar, cast

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from safetensors import SafetensorError
from tqdm import tqdm

from tyr import Integer, Tensor, distributed
from tyr.checkpoint import CheckpointMismatchError, Stateful, list_checkpoints, load_checkpoint, save_checkpoint
from tyr.data import Batch, DataError, TokenLoader, Tokenizer, load_manifest
from tyr.metrics import MetricsLog, plot_metrics
from tyr.optim import (
    AdamW,
    DiLoCo,
    Muon,
    Role,
    ShardedAdamW,
    all_reduce_mean,
    clip_grad_norm_,
    role_param_groups,
    weight_decay_groups,
)
from tyr.optim.diloco import Average
from tyr.schedules import LRScheduler, Schedule, WarmupCosine, WarmupStableDecay
from tyr.train.config import TrainConfig
from tyr.train.replicas import ReplicaGroup
from tyr.train.task import Task
from tyr.train.threads import choose_threads

ConfigT = TypeVar("ConfigT", bound=TrainConfig)
B = TypeVar("B")
T = TypeVar("T")
V = TypeVar("V")


def build_optimizer(model: nn.Module, config: TrainConfig) -> torch.optim.Optimizer:
    """AdamW (torch's fused kernel) with decay on matrices only, Muon for hidden matrices, AdamW sharded (ZeRO-1),
    or plain SGD (linear in the gradient: `tyr verify` compares DiLoCo with DDP on it).

    With Muon, the hidden matrices get `muon_lr` and the AdamW parameters are grouped by
    role (embeddings, head, scalars: `role_param_groups`), each with its own rate
    (`embedding_lr`, `head_lr`, `scalar_lr`; 0 means `lr`).
    """
    betas = (config.beta1, config.beta2)
    if config.optimizer == "muon":
        device = next(model.parameters()).device
        lrs: dict[Role, float] = {"matrix": config.muon_lr, "embedding": config.embedding_lr or config.lr,
                                  "head": config.head_lr or config.lr, "scalar": config.scalar_lr or config.lr}  # fmt: skip
        return Muon(role_param_groups(model, lrs), adam_betas=betas, ns_dtype=_matmul_dtype(device),
                    momentum_warmup=config.muon_momentum_warmup)  # fmt: skip
    groups = weight_decay_groups(model, weight_decay=config.weight_decay)
    if config.optimizer == "sgd":
        return torch.optim.SGD(groups, lr=config.lr)
    if config.optimizer == "sharded":
        clip = config.grad_clip if config.grad_clip > 0 else None  # it clips its own shards
        return ShardedAdamW(groups, lr=config.lr, betas=betas, max_grad_norm=clip)
    return AdamW(groups, lr=config.lr, betas=betas, fused=True)


def _matmul_dtype(device: torch.device) -> torch.dtype:
    """bfloat16 where its matrix products are native (CUDA; CPUs with AVX-512 BF16 or AMX), else float32."""
    if device.type == "cuda":
        return torch.bfloat16
    try:
        native = bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        native = False
    return torch.bfloat16 if native else torch.float32


def build_schedule(config: TrainConfig) -> Schedule:
    """Linear warmup, then cosine down to `min_lr_ratio`, or flat and a linear decay over the last `decay_fraction`."""
    warmup = min(config.warmup_steps, config.max_steps)
    if config.schedule == "wsd":
        decay = round(config.decay_fraction * (config.max_steps - warmup))
        return WarmupStableDecay(warmup_steps=warmup, total_steps=config.max_steps, decay_steps=decay,
                                 final_ratio=config.min_lr_ratio)  # fmt: skip
    return WarmupCosine(warmup_steps=warmup, total_steps=config.max_steps, final_ratio=config.min_lr_ratio)


class StopRequest:
    """Ctrl-C / SIGTERM ask the loop to stop at the next step boundary (all ranks agree)."""

    def __init__(self) -> None:
        self.requested = False
        self._previous = {sig: signal.signal(sig, self._handle) for sig in (signal.SIGINT, signal.SIGTERM)}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True

    def agreed(self) -> bool:
        if not distributed.is_initialized():
            return self.requested
        flag = torch.tensor(float(self.requested))
        torch.distributed.all_reduce(flag, op=torch.distributed.ReduceOp.MAX)
        return bool(flag.item())

    def restore(self) -> None:
        """Put back the handlers that were there before."""
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


def text_nats(
    nats: Tensor[B, T], targets: Annotated[Tensor[B, T], Integer], token_bytes: Annotated[Tensor[V], Integer]
) -> tuple[Tensor[()], Tensor[()]]:
    """The nats spent on text and its length in bytes: (summed nats, summed bytes) of the targets that are text.

    Args:
        nats: the loss of each target, `Tensor[B, T]`.
        targets: the token ids scored, `Tensor[B, T]`.
        token_bytes: `Tensor[V]`, the bytes of text each id stands for (`Tokenizer.token_bytes`),
            0 for BOS: its nats and its (no) bytes are both left out.

    Bits per byte are ``nats / (ln 2 * bytes)`` over a whole split: the same figure for any
    tokenizer (nanochat's `evaluate_bpb`).
    """
    counted = token_bytes[targets]
    return (nats * (counted > 0)).sum(), counted.sum()


def _chars(tokenizer: Tokenizer, ids: Tensor) -> int:
    """Characters of the text that token ids stand for; BOS is a boundary, not text."""
    rows = ids.reshape(-1, ids.size(-1)).tolist()
    return sum(len(tokenizer.decode([i for i in row if i != tokenizer.bos_id])) for row in rows)


class Trainer(Generic[ConfigT]):
    """Trains `task`'s model as `config` says; `run()` does the whole run.

    Every rank constructs one (under torchrun, after the command line was parsed).
    Checks that need only the config and the dataset's manifest run first, so a bad
    argument fails before a process group, a loader or a model exists.
    """

    def __init__(self, task: Task, config: ConfigT) -> None:
        manifest = load_manifest(config.data)  # a missing or damaged dataset fails here
        task.check(manifest)
        self.task, self.config = task, config
        self.threads, threads_note = choose_threads(config.threads)
        self.dist = distributed.init_from_env(timeout=config.dist_timeout)
        self.main = self.dist.rank == 0
        self.out = Path(config.out)
        # a replica of a --lighthouse run is a process group of one: it shards the data by its replica number
        member, members = self.dist.rank, self.dist.world_size
        if config.lighthouse:
            self.out = self.out / f"replica_{config.replica_id}"
            member, members = config.replica_id, config.replicas
        torch.manual_seed(config.seed)  # the same initial weights on every rank

        b, t, align = config.batch_size, config.row_len, config.align
        self.train_loader = TokenLoader(config.data, "train", batch_size=b, seq_len=t, align=align, seed=config.seed,
                                        rank=member, world_size=members)  # fmt: skip
        self.val_loader = TokenLoader(config.data, "val", batch_size=b, seq_len=t, align=align, order="sequential",
                                      epochs=1, prefetch=0)  # fmt: skip
        self.tokenizer = self.train_loader.tokenizer
        self.token_bytes = torch.from_numpy(self.tokenizer.token_bytes()).to(self.dist.device)

        self.model = task.build_model(self.train_loader.vocab_size).to(self.dist.device)
        torch.manual_seed(config.seed + member)  # from here on (masks, dropout) each rank draws its own
        forward = cast(nn.Module, torch.compile(self.model)) if config.compile else self.model
        self.sharded = config.optimizer == "sharded"  # ShardedAdamW reduce-scatters gradients itself
        self.net = forward
        if self.dist.world_size > 1 and not self.sharded and not config.diloco_steps:
            self.net = DistributedDataParallel(forward)
        self.optimizer = build_optimizer(self.model, config)
        self.scheduler = LRScheduler(self.optimizer, build_schedule(config))
        self.diloco: DiLoCo | None = None
        self.replicas: ReplicaGroup | None = None
        if config.diloco_steps:
            average: Average[Any] = all_reduce_mean
            if config.lighthouse:
                # a healing replica receives a live peer's DiLoCo state (bound late: DiLoCo is made next)
                self.replicas = ReplicaGroup(config, state=lambda: self._diloco().state_dict(shared_only=True),
                                             load=lambda state: self._diloco().load_state_dict(state))  # fmt: skip
                average = self.replicas.average
            self.diloco = DiLoCo(self.model, self.optimizer, steps=config.diloco_steps, outer_lr=config.outer_lr,
                                 outer_momentum=config.outer_momentum, fragments=config.diloco_fragments,
                                 average=average)  # fmt: skip
        # what a checkpoint stores as the optimizer: with DiLoCo, its state wraps the inner optimizer's
        self.checkpointed: Stateful = self.diloco or self.optimizer

        self.step = 0
        self.tokens = 0  # training tokens consumed, all ranks together
        self.seconds = 0.0  # time spent in run(), over every resumed run
        self.resumed_from = self.resume()
        self.tokens_per_step = config.batch_size * config.grad_accum * config.row_len * members
        if self.main:
            params = sum(p.numel() for p in self.model.parameters())
            where = f"resuming from {self.resumed_from}" if self.resumed_from else "starting fresh"
            print(f"{task.name}: {params:,} parameters on {self.dist.world_size} x {self.dist.device}, "
                  f"{self.tokens_per_step:,} tokens per step; {threads_note}; {where}", flush=True)  # fmt: skip

    # -- checkpoints ---------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """What a checkpoint holds besides model, optimizer and RNG states (JSON-able)."""
        return {
            "config": dataclasses.asdict(self.config),
            "tokens": self.tokens,
            "seconds": self.seconds,
            "replica": None if self.replicas is None else self.replicas.state_dict(),
        }

    def _diloco(self) -> DiLoCo:
        assert self.diloco is not None, "DiLoCo's state is asked for before it exists"
        return self.diloco

    def save(self) -> Path:
        return save_checkpoint(self.out, step=self.step, model=self.model, optimizer=self.checkpointed,
                               schedule_state=self.scheduler.state_dict(), loader_state=self.train_loader.state_dict(),
                               extra=self.state(), keep_last=self.config.keep_checkpoints)  # fmt: skip

    def load(self, path: Path) -> None:
        checkpoint = load_checkpoint(path, model=self.model, optimizer=self.checkpointed)
        self.scheduler.load_state_dict(checkpoint.schedule_state)
        self.train_loader.load_state_dict(checkpoint.loader_state)
        self.step = checkpoint.step
        extra = checkpoint.extra or {}
        self.tokens, self.seconds = int(extra.get("tokens", 0)), float(extra.get("seconds", 0.0))
        if self.replicas is not None and extra.get("replica"):
            self.replicas.load_state_dict(extra["replica"])

    def resume(self) -> Path | None:
        """Load the newest checkpoint in `out` that every rank can read; None when there is none.

        A damaged checkpoint (a file missing, truncated or unparsable on any rank) is
        skipped with a warning and the one before it is tried; one that does not fit this
        run (another model, world size or optimizer) is an error, since an older one
        would not fit either.
        """
        found = list_checkpoints(self.out)
        for path in reversed(found):
            problem = ""
            try:
                self.load(path)
            except CheckpointMismatchError:
                raise
            except (OSError, ValueError, KeyError, TypeError, SafetensorError) as error:
                problem = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
            if distributed.every_rank(not problem):
                return path
            if self.main or problem:
                print(f"warning: rank {self.dist.rank}: checkpoint {path} is damaged ({problem or 'on another rank'}); "
                      "falling back to the one before it", file=sys.stderr, flush=True)  # fmt: skip
        if found:
            raise ValueError(f"no checkpoint in {self.out} could be read (tried {len(found)}); move them away to "
                             "start afresh")  # fmt: skip
        return None

    # -- one step ------------------------------------------------------------------------------

    def sync_context(self, last: bool) -> contextlib.AbstractContextManager[Any]:
        """DDP synchronises gradients in the backward of the last micro-batch only."""
        if isinstance(self.net, DistributedDataParallel) and not last:
            return self.net.no_sync()
        return contextlib.nullcontext()

    def micro_step(self, batch: Batch[Any, Any], last: bool) -> Tensor[()]:
        """Forward and backward of one micro-batch; returns its loss (detached)."""
        batch = Batch(batch.inputs.to(self.dist.device), batch.targets.to(self.dist.device))
        with self.sync_context(last):
            loss = self.task.loss(self.net, batch)
            (loss / self.config.grad_accum).backward()
        detached: Tensor[()] = loss.detach()
        return detached

    def optimizer_step(self) -> Tensor[()] | None:
        """Clip, update and advance the schedule; returns the gradient norm before clipping."""
        norm = None
        if self.config.grad_clip > 0 and not self.sharded:
            norm = clip_grad_norm_(self.model, self.config.grad_clip)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.scheduler.step()
        if self.diloco is not None:
            self.diloco.step(final=self.step + 1 == self.config.max_steps)
        if isinstance(self.optimizer, ShardedAdamW):
            norm = self.optimizer.last_grad_norm
        return norm

    def train_step(self, batches: Sequence[Batch[Any, Any]] | None = None) -> tuple[Tensor[()], Tensor[()] | None]:
        """One optimizer step over `grad_accum` micro-batches: (mean loss, gradient norm).

        `batches`: the micro-batches to use instead of the loader's next ones (`tyr verify`
        feeds the same rows to runs that must agree).
        """
        accumulate = self.config.grad_accum
        if batches is not None and len(batches) != accumulate:
            raise ValueError(f"train_step: got {len(batches)} micro-batches, grad_accum is {accumulate}")
        total = torch.zeros((), device=self.dist.device)
        for micro in range(accumulate):
            batch = next(self.train_loader) if batches is None else batches[micro]
            total += self.micro_step(batch, last=micro == accumulate - 1)
        norm = self.optimizer_step()
        self.step += 1
        self.tokens += self.tokens_per_step
        mean: Tensor[()] = total / accumulate
        return mean, norm

    # -- validation and samples ----------------------------------------------------------------

    @torch.no_grad()
    def evaluate(self, batches: int | None = None) -> dict[str, float]:
        """Validation metrics over the first `batches` batches, or the whole split (None), all ranks."""
        self.model.eval()
        self.val_loader.reset()
        generator = torch.Generator(self.dist.device).manual_seed(self.config.seed + 1 + self.dist.rank)
        sums = torch.zeros(5, dtype=torch.float64, device=self.dist.device)  # nats, tokens; of text: nats, bytes, chars
        for index, batch in enumerate(self.val_loader):
            if batches is not None and index >= batches:
                break
            batch = Batch(batch.inputs.to(self.dist.device), batch.targets.to(self.dist.device))
            nats, scored = self.task.eval_nats(self.model, batch, generator)
            text, n_bytes = text_nats(nats, scored, self.token_bytes)
            chars = _chars(self.tokenizer, scored.cpu())
            sums += torch.stack([nats.sum().double(), torch.tensor(float(nats.numel()), device=sums.device),
                                 text.double(), n_bytes.double(), torch.tensor(float(chars), device=sums.device)])  # fmt: skip
        self.model.train()
        if distributed.is_initialized():
            torch.distributed.all_reduce(sums)
        nats_total, tokens, text_total, bytes_total, chars_total = sums.tolist()
        val = {
            "val_loss": nats_total / tokens,  # per token, BOS included
            "val_bpb": text_total / (math.log(2) * bytes_total),  # of the text: BOS left out
            "val_nats_per_char": text_total / chars_total,
        }
        return {**val, **self.task.metrics(val)}

    def sample(self) -> str:
        self.model.eval()
        generator = torch.Generator(self.dist.device).manual_seed(self.config.seed)
        text = self.task.sample(self.model, self.tokenizer, generator)
        self.model.train()
        return text

    # -- the run -------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Train to `max_steps` (or until stopped), then validate on the whole split and sample.

        Returns the summary also written to `summary.json`: steps, tokens, seconds,
        final validation metrics, last training loss, whether training finished.
        """
        config, out = self.config, self.out
        metrics = MetricsLog(out / "metrics.jsonl") if self.main else None
        stop = StopRequest()
        summary: dict[str, Any] = {"task": self.task.name}
        last: dict[str, float] = {}
        progress = tqdm(total=config.max_steps, initial=self.step, disable=not self.main, desc=self.task.name,
                        unit="step", dynamic_ncols=True)  # fmt: skip

        def validate(batches: int | None) -> dict[str, float]:
            val = self.evaluate(batches)
            last["val_loss"] = val["val_loss"]
            if metrics is not None:
                metrics.log(self.step, **val)
                plot_metrics(metrics.path, out / "curves.png", title=self._title())
            return val

        started = clock = time.perf_counter()
        seconds_before, interval_tokens = self.seconds, 0
        finished = False
        try:
            while self.step < config.max_steps:
                if self.step % config.eval_interval == 0:
                    validate(config.eval_batches)
                    clock = time.perf_counter()  # tokens/s counts training only
                    interval_tokens = 0
                loss, norm = self.train_step()
                interval_tokens += self.tokens_per_step
                self.seconds = seconds_before + time.perf_counter() - started
                progress.update()
                if self.step % config.log_interval == 0 or self.step == config.max_steps:
                    last["train_loss"] = loss.item()
                    elapsed, clock = time.perf_counter() - clock, time.perf_counter()
                    record = {"train_loss": last["train_loss"], "lr": self.optimizer.param_groups[0]["lr"],
                              "tokens_per_s": interval_tokens / elapsed}  # fmt: skip
                    interval_tokens = 0
                    if norm is not None:
                        record["grad_norm"] = float(norm)
                    if metrics is not None:
                        metrics.log(self.step, **record)
                    progress.set_postfix(loss=f"{last['train_loss']:.3f}", val=f"{last.get('val_loss', math.nan):.3f}",
                                         tok_s=f"{record['tokens_per_s']:,.0f}")  # fmt: skip
                if self.step % config.checkpoint_interval == 0 or self.step == config.max_steps:
                    self.save()
                if stop.agreed():
                    self.save()
                    progress.write(f"stopped at step {self.step}; checkpoint written to {out}. Run again to resume.")
                    break
            else:
                finished = True
            progress.close()
            if finished:
                summary.update(validate(None))
                if self.main and config.sample_tokens:
                    print("--- sample ---\n" + self.sample() + "\n--------------", flush=True)
            summary.update(steps=self.step, tokens=self.tokens, seconds=round(self.seconds, 3),
                           train_loss=last.get("train_loss", math.nan), finished=finished,
                           world_size=self.dist.world_size, threads=self.threads,
                           allreduce_bytes=self.allreduce_bytes())  # fmt: skip
            if self.diloco is not None:
                summary.update(diloco_rounds=self.diloco.rounds, diloco_rolled_back=self.diloco.rolled_back)
            if self.replicas is not None:
                summary.update(replica_id=self.config.replica_id,
                               round_sizes={str(k): v for k, v in sorted(self.replicas.round_sizes.items())})
            if self.main:
                (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
                shown = ", ".join(f"{k} {v:.4f}" for k, v in summary.items() if k.startswith("val_"))
                print(f"step {self.step}: {shown or 'not validated'}; {self.seconds:.1f} s training; "
                      f"summary in {out / 'summary.json'}", flush=True)  # fmt: skip
            return summary
        except BaseException:
            distributed.destroy(wait=False)
            raise
        finally:
            progress.close()
            stop.restore()
            if metrics is not None:
                metrics.close()
            self.close()

    def allreduce_bytes(self) -> int | None:
        """What this rank has all-reduced so far, in bytes (None where not counted: ShardedAdamW).

        DDP reduces every trainable parameter's gradient once per step; DiLoCo counts its
        own rounds. A ring all-reduce sends and receives about 2 (N - 1) / N times this.
        """
        if self.diloco is not None:
            return self.diloco.bytes_reduced
        if self.dist.world_size == 1 or self.sharded:
            return 0 if self.dist.world_size == 1 else None
        return self.step * sum(p.numel() * p.element_size() for p in self.model.parameters() if p.requires_grad)

    def close(self) -> None:
        """Stop the loaders and leave the process group (`run` does this when it ends)."""
        self.train_loader.close()
        self.val_loader.close()
        if self.replicas is not None:
            self.replicas.shutdown()
        distributed.destroy()

    def _title(self) -> str:
        c = self.config
        return f"{self.task.name} {c.n_layer}x{c.n_embd}, {c.n_head} heads, context {c.block_size}"


def train(task: Task, config: TrainConfig) -> dict[str, Any]:
    """Build a `Trainer` and run it; returns the run's summary.

    For a command line: a bad config, dataset or checkpoint, or a rendezvous that cannot be
    reached (`ValueError`, `DataError`, `ConnectionError`: raised before any training work)
    exits with its message and status 1, without a traceback.
    """
    try:
        trainer = Trainer(task, config)
    except (ValueError, DataError, ConnectionError) as error:
        distributed.destroy(wait=False)
        raise SystemExit(f"error: {error}") from None
    return trainer.run()
