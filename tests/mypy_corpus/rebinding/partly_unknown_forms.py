"""A name rebound to a partly unknown tensor gets exactly that tensor's shape, whatever form the
assignment takes: never a shape met from the old and the new (SHAPES.md §6, "never a wrong shape").

mypy narrows a name's declared type by the value assigned; a declared `Tensor[B, T, Any, Any]`
met with a new `Tensor[B, Any, T, Any]` would give `Tensor[B, T, T, Any]`, which is wrong.
"""

from typing import Any, TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def rotate(q: Tensor[B, T, Any, Any], k: Tensor[B, T, Any, Any]) -> tuple[Tensor[B, T, Any, Any], Tensor[B, T, Any, Any]]:
    return q, k


def heads(x: Tensor[B, T, D], n: int) -> None:
    q = x.view(x.shape[0], x.shape[1], n, -1)
    k = x.view(x.shape[0], x.shape[1], n, -1)
    q, k = rotate(q, k)
    q, k = q.transpose(1, 2), k.transpose(1, 2)  # one tuple assignment, item by item
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, Any, T, Any]"
    reveal_type(k)  # N: Revealed type is "torch._tensor.Tensor[B, Any, T, Any]"


def unpacked(x: Tensor[B, T, D], n: int) -> None:
    q = x.view(x.shape[0], x.shape[1], n, -1).transpose(1, 2)
    k = q
    q, k = rotate(q, k)  # the call's result unpacked
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, Any, Any, Any]"


def aliased(x: Tensor[B, T, D], n: int, flag: bool) -> None:
    q = x.view(x.shape[0], x.shape[1], n, -1)
    k = q.transpose(1, 2)
    q = k  # no hook runs here: the shapes of `q` that `k`'s value overlaps were forgotten with it
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, Any, T, Any]"
    h = x.view(x.shape[0], x.shape[1], n, -1)
    h = h.transpose(1, 2) if flag else h.transpose(1, 2).contiguous()
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, Any, T, Any]"


def ranks(x: Tensor[B, T, D], n: int) -> None:
    y = x.reshape(n, -1)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any, Any]"
    y = x.view(x.shape[0], x.shape[1], x.shape[2], 1)  # known again, another rank
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, T, D, Literal[1]]"
    y = y.reshape(n, -1, 2)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any, Any, Literal[2]]"


def zero_d(x: Tensor[1, 1], n: int) -> None:
    """`view` is overloaded (`view(dtype)`, `view(size)`, `view(*size)`): mypy also runs the hook for an
    item that does not match `()`, whose result (unknown) is not what is assigned."""
    x = x.view(())
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[()]"
    y = x.reshape(1, 1)
    y = y.view([])
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[()]"


def after_an_error(x: Tensor[B, T, D], y: Tensor[B, 1, 3]) -> None:
    """A call tyr reports gives the unknown shape; the old shape does not come back to fail the next line."""
    x = torch.cat((x, y), dim=1)  # E: cat: sizes must match except in dimension 1  [tyr-shape]
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


def attribute(x: Tensor[B, T, D], n: int) -> None:
    z = x.reshape(n, x.shape[2])
    z = z.T  # an attribute, not a call: the same rule
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[D, Any]"
