"""The run configuration every trainer shares, its presets, and the command line built from it.

A trainer that needs more options subclasses `TrainConfig` (a keyword-only dataclass);
every field becomes a flag (`n_layer` is `--n-layer`), a preset sets any of them, and
the flags given on the command line override the preset.
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from tyr.optim.diloco import check_settings as check_diloco

Optimizer = Literal["adamw", "muon", "sharded", "sgd"]
Schedule = Literal["cosine", "wsd"]
Align = Literal["none", "bos"]
Activation = Literal["gelu", "relu2"]


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    """Everything a run needs besides its model code. Defaults are nanoGPT's CPU configuration.

    Sizes are per rank and per micro-batch: one optimizer step reads
    ``batch_size * grad_accum * world_size`` rows of ``seq_len`` tokens.
    """

    data: str  # dataset folder from `python -m tyr.data prepare`
    out: str = "runs/run"  # run directory: checkpoints, metrics.jsonl, curves.png, summary.json
    # model
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    block_size: int = 64  # the model's context: the longest sequence it takes
    dropout: float = 0.0
    activation: Activation = "gelu"  # the MLP's: GELU, or ReLU squared
    # data
    seq_len: int = 0  # tokens per training row; 0 means block_size
    align: Align = "none"  # "none": rows are windows of the token stream; "bos": rows start at a document
    # optimisation
    batch_size: int = 12  # rows per micro-batch on each rank
    grad_accum: int = 1  # micro-batches whose gradients add up to one step
    max_steps: int = 2000
    optimizer: Optimizer = "adamw"
    lr: float = 1e-3  # peak AdamW rate (with Muon: of the embeddings, head and gains, unless set below)
    muon_lr: float = 0.02  # peak Muon rate of the hidden matrices
    embedding_lr: float = 0.0  # with Muon: peak AdamW rate of the input embeddings (0: --lr)
    head_lr: float = 0.0  # with Muon: of the output head (0: --lr)
    scalar_lr: float = 0.0  # with Muon: of gains, biases and other scalars (0: --lr)
    muon_momentum_warmup: int = 0  # steps over which Muon's momentum rises from 0.85 to 0.95
    beta1: float = 0.9
    beta2: float = 0.99
    weight_decay: float = 0.1  # on matrices only
    schedule: Schedule = "cosine"  # warmup then cosine, or warmup-stable-decay
    warmup_steps: int = 100  # (at most max_steps)
    min_lr_ratio: float = 0.1  # the schedule ends at lr * min_lr_ratio
    decay_fraction: float = 0.2  # wsd: the share of steps spent decaying
    grad_clip: float = 1.0  # global gradient norm limit; 0 disables clipping
    # DiLoCo (tyr.optim.DiLoCo): 0 synchronises gradients every step (DDP); H > 0 lets each rank take H
    # steps of its own optimizer on its own data, then averages the weight change with one all-reduce
    diloco_steps: int = 0  # H, inner steps per round
    outer_lr: float = 0.7  # the outer SGD's rate (DiLoCo's default)
    outer_momentum: float = 0.9  # its Nesterov momentum (0: none)
    diloco_fragments: int = 1  # streaming DiLoCo: fragments of the model synchronised in turn, H / F steps apart
    # DiLoCo that survives lost workers (tyr.train.replicas): each process is a replica launched on its own;
    # a torchft lighthouse at this address forms each round's quorum of the live ones ("" = off)
    lighthouse: str = ""
    replica_id: int = 0  # this replica's number: its data shard, and out/replica_<id> for its run directory
    replicas: int = 1  # replicas in the run (the data is split this many ways)
    ft_timeout: float = 10.0  # seconds a round waits for a quorum or a lost peer before rolling back
    # runtime
    compile: bool = False  # torch.compile the model
    threads: int = 0  # torch threads per process; 0: cores / processes on this machine
    dist_timeout: float = 600.0  # seconds to wait for the other ranks (joining, every collective) before failing
    seed: int = 1337
    # bookkeeping
    eval_interval: int = 250  # steps between validation passes (and at step 0)
    eval_batches: int = 20  # batches per periodic validation; the final one reads the whole split
    log_interval: int = 10
    checkpoint_interval: int = 500
    keep_checkpoints: int = 2
    sample_tokens: int = 300  # text sampled at the end (0: none)

    def __post_init__(self) -> None:
        choices: dict[str, tuple[str, ...]] = {
            "optimizer": typing.get_args(Optimizer),
            "schedule": typing.get_args(Schedule),
            "align": typing.get_args(Align),
            "activation": typing.get_args(Activation),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")
        positive = ("n_layer", "n_head", "n_embd", "block_size", "batch_size", "grad_accum", "max_steps",
                    "eval_interval", "eval_batches", "log_interval", "checkpoint_interval", "keep_checkpoints")  # fmt: skip
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("seq_len", "threads", "warmup_steps", "sample_tokens", "seed", "diloco_steps", "muon_momentum_warmup"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if self.n_embd % self.n_head:
            raise ValueError(
                f"n_embd must split evenly into heads: n_embd % n_head = {self.n_embd} % {self.n_head} "
                f"= {self.n_embd % self.n_head}"
            )
        if self.seq_len > self.block_size:
            raise ValueError(
                f"--seq-len {self.seq_len} is longer than the model's context, --block-size {self.block_size}: "
                "the model cannot read rows that long. Lower --seq-len or raise --block-size."
            )
        if not 0.0 <= self.dropout < 1.0 or not 0.0 <= self.min_lr_ratio <= 1.0:
            raise ValueError(f"need 0 <= dropout < 1 and 0 <= min_lr_ratio <= 1, got {self.dropout}, {self.min_lr_ratio}")
        if not 0.0 <= self.decay_fraction <= 1.0:
            raise ValueError(f"decay_fraction is a share of the steps in [0, 1], got {self.decay_fraction}")
        if self.diloco_steps:
            if self.optimizer == "sharded":
                raise ValueError(
                    "--optimizer sharded synchronises every step (it reduce-scatters gradients), which DiLoCo "
                    "exists to avoid: with --diloco-steps use --optimizer adamw or muon (each rank keeps its own)."
                )
            check_diloco(steps=self.diloco_steps, outer_lr=self.outer_lr, outer_momentum=self.outer_momentum,
                         fragments=self.diloco_fragments)  # fmt: skip
        if self.lighthouse:
            if not self.diloco_steps:
                raise ValueError("--lighthouse coordinates DiLoCo rounds: give --diloco-steps H too")
            if not 0 <= self.replica_id < self.replicas:
                raise ValueError(f"need 0 <= replica_id < replicas, got {self.replica_id} of {self.replicas}")
            if not self.ft_timeout > 0:
                raise ValueError(f"ft_timeout must be > 0 seconds, got {self.ft_timeout}")
        if not self.dist_timeout > 0:
            raise ValueError(f"dist_timeout must be > 0 seconds, got {self.dist_timeout}")
        rates = ("lr", "muon_lr", "embedding_lr", "head_lr", "scalar_lr", "weight_decay", "grad_clip")
        negative = [f"{name} {getattr(self, name)}" for name in rates if getattr(self, name) < 0]
        if negative:
            raise ValueError(f"learning rates, weight_decay and grad_clip must be >= 0, got {', '.join(negative)}")

    @property
    def row_len(self) -> int:
        """Tokens per training row: `seq_len`, or the model's whole context."""
        return self.seq_len or self.block_size


ConfigT = TypeVar("ConfigT", bound=TrainConfig)


def parse_config(
    config_type: type[ConfigT],
    presets: Mapping[str, Mapping[str, Any]],
    argv: Sequence[str] | None = None,
    *,
    description: str = "",
    default_preset: str = "tiny",
) -> ConfigT:
    """Read a config from the command line: `--preset` first, then every flag given.

    Args:
        config_type: `TrainConfig` or a subclass; each field is a flag.
        presets: name -> field values; `--preset` picks one (default `default_preset`).
        argv: the arguments (default: `sys.argv[1:]`).
        description: the `--help` text.

    An unknown preset, flag or choice exits with argparse's usage message (status 2); a
    value the config rejects (e.g. `--seq-len` longer than `--block-size`) exits the
    same way with the config's explanation. Nothing is read or built before that.
    """
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", choices=sorted(presets), default=default_preset,
                        help=f"a starting configuration (default: {default_preset}); flags override it")  # fmt: skip
    hints = typing.get_type_hints(config_type)
    for field in dataclasses.fields(config_type):
        flag = f"--{field.name.replace('_', '-')}"
        hint = hints[field.name]
        if field.name == "data":
            parser.add_argument(flag, required=True, help="dataset folder from `python -m tyr.data prepare`")
        elif hint is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=None)
        elif typing.get_origin(hint) is Literal:
            parser.add_argument(flag, choices=typing.get_args(hint), default=None)
        else:
            parser.add_argument(flag, type=hint, default=None)
    args = vars(parser.parse_args(argv))
    preset = presets[args.pop("preset")]
    values = {**preset, **{name: value for name, value in args.items() if value is not None}}
    unknown = set(preset) - {field.name for field in dataclasses.fields(config_type)}
    if unknown:
        raise ValueError(f"preset sets unknown options: {sorted(unknown)}")
    try:
        return config_type(**values)
    except ValueError as error:
        parser.error(str(error))
