"""A name only the return value has is bound by what the function returns, as jaxtyping binds it when it
checks the return value: any size in the body (HF's `repeat_kv` returns its input unchanged for one
repeat), unknown to the caller.  Names the arguments bind stay checked in the return value."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def repeat_kv(x: Float[Tensor, "b kv s d"], n_rep: int) -> Float[Tensor, "b h s d"]:
    b, kv, s, d = x.shape
    if n_rep == 1:
        return x
    x = x[:, :, None, :, :].expand(b, kv, n_rep, s, d)
    return x.reshape(b, kv * n_rep, s, d)


reveal_type(repeat_kv(torch.randn(2, 4, 8, 16), 1))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Any, Literal[8], Literal[16]]"
reveal_type(repeat_kv(torch.randn(2, 4, 8, 16), 3))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Any, Literal[8], Literal[16]]"


@jaxtyped(typechecker=beartype)
def drops_the_batch(x: Float[Tensor, "b n d"]) -> Float[Tensor, "b m d"]:
    return x[0]  # E: Incompatible return value type (got "Tensor[n, d]", expected "Tensor[b, Any, d]")  [return-value]


drops_the_batch(torch.randn(2, 3, 4))  # raises
