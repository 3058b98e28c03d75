"""The dtype classes: `Float`, `Int`, `Bool`, `Shaped`, and sized ones such as `Float32` and `Int64`."""

import torch
from beartype import beartype
from jaxtyping import Bool, Float, Float32, Int, Int64, Shaped, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def masked_mean(x: Float[Tensor, "n d"], mask: Bool[Tensor, "n"]) -> Float[Tensor, "d"]:
    return x[mask].mean(dim=0)


@jaxtyped(typechecker=beartype)
def gather_rows(x: Float32[Tensor, "n d"], idx: Int64[Tensor, "k"]) -> Float32[Tensor, "k d"]:
    return x[idx]


@jaxtyped(typechecker=beartype)
def count(labels: Int[Tensor, "n"], anything: Shaped[Tensor, "n"]) -> Int[Tensor, ""]:
    return (labels > 0).sum()


masked_mean(torch.randn(5, 3), torch.tensor([True, False, True, True, False]))
gather_rows(torch.randn(5, 3), torch.tensor([4, 0]))
count(torch.tensor([1, 0, 2], dtype=torch.int32), torch.tensor([True, False, True]))
count(torch.tensor([1, 0, 2]), torch.randn(3).half())
