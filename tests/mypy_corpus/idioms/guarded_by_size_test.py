"""A branch guarded by a test of sizes: there the size is what the test says (`tyr.mypy_plugin._guards`), and
the call is no error; its result has sizes unknown (they hold in the branch only).  Symbols are rigid (`Bc` is
not 1), so the same calls unguarded are errors."""

from typing import Generic, TypeVar

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
Bc = TypeVar("Bc")
L = TypeVar("L")
D = TypeVar("D")
I = TypeVar("I")  # noqa: E741
O = TypeVar("O")  # noqa: E741
S = TypeVar("S")
H = TypeVar("H")
W = TypeVar("W")


def broadcast_context(x: Tensor[B, D], context: Tensor[Bc, L, D]) -> Tensor:
    """A diffusion sampler's batch-1 text context, broadcast to the batch."""
    if context.shape[0] == 1:
        context = context.expand(x.shape[0], -1, -1)
        reveal_type(context)  # N: Revealed type is "torch._tensor.Tensor[Any, Any, Any]"
    return context


def as_a_conditional_value(x: Tensor[B, D], t: Tensor[Bc]) -> None:
    t = t.expand(x.shape[0]) if t.shape[0] == 1 else t
    reveal_type(t)  # N: Revealed type is "torch._tensor.Tensor[Any] | torch._tensor.Tensor[Bc]"


def in_the_else_branch(x: Tensor[B, D], context: Tensor[Bc, L, D]) -> None:
    n = context.shape[0]
    if n != 1:
        print(n)
    else:
        reveal_type(context.expand(x.shape[0], -1, -1))  # N: Revealed type is "torch._tensor.Tensor[Any, Any, Any]"


def unguarded(x: Tensor[B, D], context: Tensor[Bc, L, D]) -> None:
    context.expand(x.shape[0], -1, -1)  # E: expand: dimension 0 of the tensor has size Bc, which is not 1
    if context.shape[1] == 1:  # another size tested
        context.expand(x.shape[0], -1, -1)  # E: expand: dimension 0 of the tensor has size Bc, which is not 1


class InvertedResidual(nn.Module, Generic[I, O, S]):
    """The residual only where the block keeps the size: stride 1 and as many channels out as in."""

    def __init__(self, inp: Dim[I], oup: Dim[O], stride: Dim[S]) -> None:
        super().__init__()
        self.stride = stride
        self.inp = inp
        self.oup = oup
        self.conv = nn.Conv2d(inp, oup, 3, stride, 1)

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor:
        if self.stride == 1 and self.inp == self.oup:
            return x + self.conv(x)
        out: Tensor = x + self.conv(x)  # E: +: dimension 3 of the left operand (W) does not broadcast
        return out


class FlaggedResidual(nn.Module, Generic[I, O, S]):
    """torchvision's inverted residual: the test is a flag set once from sizes, and the sum flows on."""

    def __init__(self, inp: Dim[I], oup: Dim[O], stride: Dim[S]) -> None:
        super().__init__()
        self.use_res = stride == 1 and inp == oup
        self.conv = nn.Conv2d(inp, oup, 3, stride, 1)

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, O, "H//S", "W//S"]:
        out = self.conv(x)
        if self.use_res:
            out = out + x
        return out


class ChannelsAsserted(nn.Module, Generic[D]):
    """A forward generic in its input's channels, which an assert (or a raise) says are the module's."""

    def __init__(self, channels: Dim[D]) -> None:
        super().__init__()
        self.channels = channels
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: Tensor[B, L, H, W]) -> Tensor:
        assert x.shape[1] == self.channels
        return self.conv(x)

    def checked(self, x: Tensor[B, L, H, W]) -> Tensor:
        if x.shape[1] != self.channels:
            raise ValueError("wrong channels")
        return self.conv(x)

    def unchecked(self, x: Tensor[B, L, H, W]) -> Tensor:
        return self.conv(x)  # E: conv2d: the input has L channels (dim 1 of (B, L, H, W)) but the weight (D, D, 3, 3)


N = TypeVar("N")
C = TypeVar("C")
H2 = TypeVar("H2")
W2 = TypeVar("W2")


def offsets_cancel(x: Tensor[B, "L+1", D], pos: Tensor[1, "N+1", D]) -> Tensor:
    # `L + 1 == N + 1` is `L == N`; so is DINOv2's `npatch == n`, both less the class token
    if x.shape[1] == pos.shape[1]:
        return x + pos
    npatch, n = x.shape[1] - 1, pos.shape[1] - 1
    if npatch == n:
        return x + pos
    y = x + pos  # E: +: dimension 1 of the left operand (L + 1) does not broadcast with dimension 1 of the right operand (N + 1)
    return x


def whole_shapes(h: Tensor[B, C, H, W], skip: Tensor[B, C, H2, W2]) -> Tensor:
    # a U-Net decoder resizes only where the sizes differ: tuples of sizes compare item by item
    if h.shape[-2:] != skip.shape[-2:]:
        h = nn.functional.interpolate(h, size=skip.shape[-2:])
        return torch.cat([h, skip], dim=1)
    return torch.cat([h, skip], dim=1)


def asserted_whole(h: Tensor[B, C, H, W], skip: Tensor[B, C, H2, W2]) -> Tensor:
    assert h.shape == skip.shape
    return h + skip


def returned_early(x: Tensor[B, L, D], pos: Tensor[1, N, D]) -> Tensor:
    if x.shape[1] != pos.shape[1]:
        return x
    return x + pos


def _assert(condition: bool, message: str) -> None:
    """timm's `_assert`, `torch._assert` as tracing keeps it."""
    assert condition, message


def traced_assert(x: Tensor[B, L, D], pos: Tensor[1, N, D]) -> Tensor:
    _assert(x.shape[1] == pos.shape[1], "one position per token")
    return x + pos
