"""A name rebound through a callee typed `Any` (`getattr(self, f"block{i}")(x)`, an item of a `list[Any]`)
in a loop or a branch: mypy types it as the old shape or `Any`, and only one path has the old shape.
A generic call given that union binds no size from it: the old shape is no fact about the value."""

from typing import Any, TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")


def keep(x: Tensor[B, 4, H]) -> Tensor[B, 4, H]:
    return x


class Down(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block0 = nn.Conv1d(4, 4, 3, stride=2, padding=1)

    def forward(self, x: Tensor[B, 4, H]) -> Tensor[B, 4, "H//2"]:
        for i in range(1):
            x = getattr(self, f"block{i}")(x)
        y = keep(x)
        reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[4], Any]"
        return y


def in_a_branch(x: Tensor[B, 4, H], f: Any, c: bool) -> Tensor[B, 4, "H//2"]:
    if c:
        x = f(x)
    return keep(x)


def optional_still_binds(x: Tensor[B, 4, H] | None) -> None:
    if x is not None:
        reveal_type(keep(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], H]"
