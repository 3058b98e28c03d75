"""What a trainer tells the training loop about its model: the `Task` protocol.

The loop (`tyr.train.Trainer`) owns everything that is the same for every model:
processes and threads, data, the optimizer and schedule, gradient accumulation and
synchronisation, checkpoints, signals, progress, metrics and plots. A task owns what
is not: how the model is built, what its training loss is, how many nats it assigns to
validation text, and how it writes a sample. A trainer script is a `Task` and a
`main()` (see `scripts/train_gpt.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Protocol, TypeVar

import torch
from torch import nn

from tyr import Integer, Tensor
from tyr.data import Batch, Manifest, Tokenizer

B = TypeVar("B")
T = TypeVar("T")


class Task(Protocol):
    """A model and its objective, as the training loop sees them.

    A task is made from the run's config (`GPTTask(config)`), so it knows its own options.
    `model` below is what the loop calls: in `loss`, the module `build_model` returned,
    possibly wrapped by `torch.compile` and `DistributedDataParallel` (call it, don't reach
    into it); in `eval_nats` and `sample`, the bare module.
    """

    name: str
    """Short name for logs, plot titles and `summary.json`, e.g. ``"gpt"``."""

    def check(self, dataset: Manifest) -> None:
        """Raise ValueError if the config cannot work with this dataset; runs before any work."""
        ...

    def build_model(self, vocab_size: int) -> nn.Module:
        """The freshly initialised model for a tokenizer of `vocab_size` ids (on the CPU)."""
        ...

    def loss(self, model: nn.Module, batch: Batch[Any, Any]) -> Tensor[()]:
        """The training loss of one micro-batch, a mean (so micro-batches average)."""
        ...

    def eval_nats(
        self, model: nn.Module, batch: Batch[B, T], generator: torch.Generator
    ) -> tuple[Tensor[B, T], Annotated[Tensor[B, T], Integer]]:
        """Validation: the loss in nats of each token scored, and those tokens' ids, both `(B, T)`.

        The loop sums them into `val_loss` (nats per token) and, leaving out BOS (a boundary,
        no text), `val_bpb` (bits per byte of text, `tyr.train.text_nats`) and
        `val_nats_per_char`. `generator` is seeded the same way for every validation pass,
        so a stochastic estimate (a diffusion ELBO) is the same function of the weights each time.
        """
        ...

    def metrics(self, val: Mapping[str, float]) -> dict[str, float]:
        """More validation metrics from the loop's (`val_loss`, `val_bpb`, `val_nats_per_char`)."""
        ...

    def sample(self, model: nn.Module, tokenizer: Tokenizer, generator: torch.Generator) -> str:
        """Text written by the trained model (in eval mode)."""
        ...
