"""A size such as `b - 2` is -1 at `b = 1`, where torch infers (`view`, `reshape`, `unflatten`) or
keeps (`expand`) that dim instead: the result's dim is unknown there, never `B - 2`, and the
element counts are not compared.  `b - 1` is never negative and stays a size."""

from typing import TypeVar, reveal_type

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")


def tail_regrouped(x: Tensor[B, 3], b: Dim[B]) -> None:
    # x[2:] is empty at B = 1, and reshape(-1, 3) of it is (0, 3)
    y = x[2:].reshape(b - 2, 3)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[3]]"
    z = x[1:].reshape(b - 1, 3)
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B - 1'], B], Literal[3]]"
    u = x.unflatten(0, (b - 2, 1))
    reveal_type(u)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[1], Literal[3]]"


def widened(y: Tensor[T, 1], t: Dim[T]) -> None:
    reveal_type(y.expand(t - 2, 5))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[5]]"
    reveal_type(y.expand(t, t - 2))  # N: Revealed type is "torch._tensor.Tensor[T, Any]"


def miscounted(x: Tensor[B, 3], b: Dim[B]) -> None:
    x.reshape(b - 1, 3)  # E: reshape: shape [B - 1, 3] has 3*B - 3 elements but the tensor (B, 3) has 3*B  [tyr-shape]
