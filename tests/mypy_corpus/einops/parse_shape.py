"""`**parse_shape(y, pattern)` passes the sizes of `y`'s named dims as lengths."""

from typing import TypeVar, reveal_type

from einops import parse_shape, rearrange

from tyr import Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")


def unflatten_like(x: Tensor[B, "H*W", C], image: Tensor[B, 3, H, W]) -> None:
    y = rearrange(x, "b (h w) c -> b c h w", **parse_shape(image, "b _ h w"))
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, C, H, W]"
    reveal_type(parse_shape(image, "b c h w"))  # N: Revealed type is "dict[Any, Any]"
    parse_shape(image, "b c (h w)")  # E: parse_shape: 'b c (h w)' has a composed dim  [tyr-shape]
    parse_shape(image, "b 1 h w")  # E: parse_shape: 'b 1 h w' has a dim of size 1 where the tensor has 3  [tyr-shape]
    sizes = parse_shape(image, "b _ h w")
    reveal_type(rearrange(x, "b (h w) c -> b c h w", **sizes))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
