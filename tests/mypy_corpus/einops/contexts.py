"""einops calls where mypy has a type context (a declared type, a return, an enclosing call) check clean.

einops types its functions `Tensor -> Tensor`; with a generic context mypy would solve that type
variable from the context and check the input against the result's shape.
"""

from typing import TypeVar, reveal_type

import numpy as np
import numpy.typing as npt
from einops import einsum, rearrange, reduce

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")


def contexts(x: Tensor[B, N, 512], scores: Tensor[B, 8, N, N]) -> Tensor[B, N, 512]:
    heads: Tensor[B, 8, N, 64] = rearrange(x, "b n (h d) -> b h n d", h=8)
    mixed = rearrange(einsum(scores, heads, "b h i j, b h j d -> b h i d"), "b h n d -> b n (h d)")
    reveal_type(mixed)  # N: Revealed type is "torch._tensor.Tensor[B, N, Literal[512]]"
    wrong: Tensor[B, 4, N, 128] = rearrange(x, "b n (h d) -> b h n d", h=8)  # E: Incompatible types in assignment  [assignment]
    return rearrange(heads, "b h n d -> b n (h d)")


def not_torch(a: npt.NDArray[np.float32]) -> None:
    reveal_type(reduce(a, "h w -> w", "max"))  # N: Revealed type is "numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.floating[numpy._typing._nbit_base._32Bit]]]"
