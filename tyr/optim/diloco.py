"""DiLoCo: workers train apart for H steps, then average what they learned with one all-reduce.

Each worker runs its own inner optimizer (AdamW, Muon) on its own data, with no
communication, for ``steps`` (H) steps. Then the *pseudo-gradient* — the weights at
the start of the round minus the worker's weights now — is averaged over the workers
with one all-reduce of one flat buffer, and an outer optimizer (SGD with Nesterov
momentum; DiLoCo's defaults lr 0.7, momentum 0.9) applies it to the start-of-round
weights. Every worker then starts the next round from the same new weights.
Communication is one model's worth of numbers every H steps instead of every step.

**Streaming** (``fragments`` F > 1): the parameters are cut into F fragments of about
equal size, in model order, and fragment f is synchronised H / F steps after fragment
f - 1, so each synchronisation moves 1/F of the model and the traffic is spread over
the round (Streaming DiLoCo). The total per round is the same.

**Equivalences** (checked by ``python -m tyr verify``): with H = 1, outer SGD lr 1 and no
momentum, the new weights are the mean of the workers' weights after one inner step;
with an inner optimizer linear in the gradient (plain SGD) that is exactly data-parallel
SGD. With one worker and the same settings it is the inner optimizer alone.

**Rounds that fail.** ``average`` returns False when a round could not be averaged
(a fault-tolerant transport lost a worker); the round is then rolled back: the
weights return to the start of the round, the outer optimizer does not step, and
the next round begins. The inner optimizer's state is kept.

Without a process group (one process) the average is the worker's own pseudo-gradient.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import torch
import torch.distributed as dist
from torch import nn

from tyr import Tensor

N = TypeVar("N")

Average = Callable[[Tensor[N]], bool]
"""Replace a flat buffer by its mean over the workers, in place; False: the round failed (roll back)."""


def all_reduce_mean(flat: Tensor[N]) -> bool:
    """The mean over the default process group's ranks with one all-reduce (itself without a group)."""
    if dist.is_available() and dist.is_initialized():
        dist.all_reduce(flat, op=dist.ReduceOp.SUM)
        flat.div_(dist.get_world_size())
    return True


def split_evenly(params: Sequence[nn.Parameter], fragments: int) -> list[list[nn.Parameter]]:
    """`params` cut into `fragments` consecutive runs of about `numel / fragments` elements each (none empty)."""
    if not 1 <= fragments <= len(params):
        raise ValueError(f"DiLoCo: fragments must be between 1 and the {len(params)} parameter tensors, got {fragments}")
    total = sum(p.numel() for p in params)
    out: list[list[nn.Parameter]] = [[]]
    seen = 0
    for index, param in enumerate(params):
        unplaced, unopened = len(params) - index, fragments - len(out)
        if out[-1] and unopened and (seen >= total * len(out) / fragments or unplaced == unopened):
            out.append([])
        out[-1].append(param)
        seen += param.numel()
    return out


def check_settings(*, steps: int, outer_lr: float, outer_momentum: float, fragments: int) -> None:
    """Raise ValueError, naming the setting, unless DiLoCo can run with these."""
    if steps < 1:
        raise ValueError(f"DiLoCo: steps (H, inner steps per round) must be >= 1, got {steps}")
    if not 1 <= fragments <= steps:
        raise ValueError(f"DiLoCo: fragments must be between 1 and steps (H = {steps}): a fragment is synchronised "
                         f"at most once per inner step; got {fragments}")  # fmt: skip
    if not outer_lr > 0 or not 0 <= outer_momentum < 1:
        raise ValueError(f"DiLoCo: need outer_lr > 0 and 0 <= outer_momentum < 1, got {outer_lr}, {outer_momentum}")


class _Fragment:
    """Parameters synchronised together: their start-of-round copy and the outer optimizer over it."""

    def __init__(self, params: list[nn.Parameter], lr: float, momentum: float) -> None:
        self.params = params
        # The outer optimizer steps the start-of-round ("global") weights; leaves of their own.
        self.start = [p.detach().clone() for p in params]
        self.outer = torch.optim.SGD(self.start, lr=lr, momentum=momentum, nesterov=momentum > 0)
        self.numel = sum(p.numel() for p in params)

    @torch.no_grad()
    def synchronise(self, average: Average[Any]) -> bool:
        """Average the pseudo-gradient, step the outer optimizer, restart every worker from the result."""
        locals_ = [p.detach() for p in self.params]
        pseudo: Tensor[Any] = torch.cat([(s - p).reshape(-1) for s, p in zip(self.start, locals_)])
        committed = average(pseudo)
        if committed:
            offset = 0
            for start in self.start:
                start.grad = pseudo[offset : offset + start.numel()].view_as(start)
                offset += start.numel()
            self.outer.step()
            for start in self.start:
                start.grad = None
        for param, start in zip(self.params, self.start):
            param.copy_(start)
        return committed


class DiLoCo:
    """DiLoCo around an inner optimizer: call `step()` after each inner `optimizer.step()`.

    Args:
        model: the model every worker trains (the same initial weights on every worker).
        inner: its optimizer, stepped by the caller; it must not synchronise gradients
            (no DistributedDataParallel, no ShardedAdamW).
        steps: H, inner steps per round (>= 1).
        outer_lr: the outer SGD's learning rate. Default 0.7.
        outer_momentum: its Nesterov momentum (0: plain SGD). Default 0.9.
        fragments: F, streaming DiLoCo's fragments (1: the whole model at once). Default 1.
        average: how pseudo-gradients are averaged; default one all-reduce over the
            default process group (see `Average` for a fault-tolerant one).

    Bookkeeping: `rounds` (synchronisations that committed), `rolled_back`, and
    `bytes_reduced` (this worker's all-reduce payload so far, in bytes).

    It is a checkpointable optimizer: `state_dict()` holds the inner optimizer's state,
    the outer optimizers', the start-of-round weights and this worker's own weights
    (mid-round they differ between workers), so `is_sharded` tells checkpoints to keep
    one state per rank.

    Example::

        inner = AdamW(model, lr=1e-3)
        diloco = DiLoCo(model, inner, steps=50)
        for batch in loader:
            loss(model, batch).backward(); inner.step(); inner.zero_grad()
            diloco.step()
    """

    is_sharded = True

    def __init__(
        self,
        model: nn.Module,
        inner: torch.optim.Optimizer,
        *,
        steps: int,
        outer_lr: float = 0.7,
        outer_momentum: float = 0.9,
        fragments: int = 1,
        average: Average[Any] = all_reduce_mean,
    ) -> None:
        check_settings(steps=steps, outer_lr=outer_lr, outer_momentum=outer_momentum, fragments=fragments)
        params = [p for p in model.parameters() if p.requires_grad]  # tied parameters once
        self.model, self.inner, self.steps, self.average = model, inner, steps, average
        self.fragments = [_Fragment(group, outer_lr, outer_momentum) for group in split_evenly(params, fragments)]
        # fragment f synchronises when (inner steps taken) % H hits its offset: H/F, 2H/F, ..., H (as 0)
        self.offsets = [(f + 1) * steps // fragments % steps for f in range(fragments)]
        self.local_steps = 0
        self.rounds = self.rolled_back = self.bytes_reduced = 0

    def step(self, *, final: bool = False) -> bool:
        """Count one inner step; synchronise the fragments whose turn it is (all of them if `final`).

        Returns True when something was synchronised. Call it on every worker at once.
        """
        self.local_steps += 1
        due = [f for f, offset in zip(self.fragments, self.offsets) if self.local_steps % self.steps == offset]
        if final:
            due = self.fragments
        for fragment in due:
            committed = fragment.synchronise(self.average)
            self.bytes_reduced += fragment.numel * fragment.start[0].element_size()
            self.rounds += committed
            self.rolled_back += not committed
        return bool(due)

    # -- checkpoints -----------------------------------------------------------------------------

    def state_dict(self, *, shared_only: bool = False) -> dict[str, Any]:
        """This worker's whole DiLoCo state: inner and outer optimizers, start and local weights.

        `shared_only`: without this worker's own counters (what a rejoining worker copies from a peer).
        """
        counts = {} if shared_only else {"counts": [self.rounds, self.rolled_back, self.bytes_reduced]}
        return {
            "inner": self.inner.state_dict(),
            "outer": [f.outer.state_dict() for f in self.fragments],
            "start": [[s.clone() for s in f.start] for f in self.fragments],
            "local": [[p.detach().clone() for p in f.params] for f in self.fragments],
            "local_steps": self.local_steps,
            **counts,
        }

    @torch.no_grad()
    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Load `state_dict()`; ValueError names what does not fit (fragments, tensor sizes)."""
        sizes = [[tuple(s.shape) for s in f.start] for f in self.fragments]
        saved = [[tuple(s.shape) for s in start] for start in state.get("start", [])]
        if sizes != saved:
            raise ValueError(
                f"DiLoCo.load_state_dict: the saved state has {len(saved)} fragments of "
                f"{[len(s) for s in saved]} tensors, this run {len(sizes)} of {[len(s) for s in sizes]} (or their "
                "shapes differ); resume with the same model and --diloco-fragments."
            )
        self.inner.load_state_dict(state["inner"])
        for fragment, outer, start, local in zip(self.fragments, state["outer"], state["start"], state["local"]):
            for mine, theirs in zip(fragment.start, start):
                mine.copy_(theirs)
            for param, theirs in zip(fragment.params, local):
                param.copy_(theirs)
            fragment.outer.load_state_dict(outer)
        self.local_steps = int(state["local_steps"])
        if "counts" in state:
            self.rounds, self.rolled_back, self.bytes_reduced = (int(n) for n in state["counts"])
