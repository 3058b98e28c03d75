"""Names rebound each to an item of a `map` of a lambda or of a comprehension (lucidrains' `q, k, v = map(lambda
t: rearrange(t, "b n (h d) -> b h n d", h=h), (q, k, v))`): each is rebound to what the item gives, with no union
with its old shape left to fail a later check (SHAPES.md §6)."""

from typing import Any, TypeVar

from einops import rearrange

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")


def mapped(q: Tensor[B, N, 16], k: Tensor[B, N, 16], h: int) -> Tensor[Any, N, 8]:
    q, k = map(lambda t: rearrange(t, "b n (h d) -> (b h) n d", h=h), (q, k))
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[Any, N, Any]"
    return q


def listed(q: Tensor[B, N, 16], k: Tensor[B, N, 16], h: int) -> Tensor[Any, N, 8]:
    q, k = [t.view(-1, t.shape[1], h) for t in (q, k)]
    reveal_type(k)  # N: Revealed type is "torch._tensor.Tensor[Any, N, Any]"
    return q


def generated(q: Tensor[B, N, 16], k: Tensor[B, N, 16], h: int) -> Tensor[Any, N, 8]:
    q, k = (t.view(-1, t.shape[1], h) for t in (q, k))
    return q


def known(q: Tensor[B, N, 16], k: Tensor[B, N, 16]) -> None:
    # mypy infers the lambda first without its parameter's type: the names are rebound to what that gives
    q, k = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=2), (q, k))
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[2], Any, Any]"
    q, k = [rearrange(t, "b h n d -> b n (h d)") for t in (q, k)]
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
