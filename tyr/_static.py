"""What mypy sees for `tyr.Tensor` and `tyr.Dim`; the runtime objects live in `tyr._annotations`.

This module is only imported under `TYPE_CHECKING`.  The tyr mypy plugin
(`tyr.mypy_plugin`) gives these names their meaning:

* `Tensor[...]` means `torch.Tensor[...]`: tyr's torch stubs (`typed_stubs/torch`)
  make `torch.Tensor` generic over its shape, one type argument per dim: an int
  literal type (`Literal[768]`), a type variable (`B`), a `DimExpr` for a computed
  size (`"4*D"`), or `Any` for a size nobody knows.  The bare `Tensor` is
  `Tensor[*tuple[Any, ...]]`: a tensor of unknown shape.  The name itself is a
  plain subclass of `torch.Tensor`, not generic, so that `Hidden = Tensor[B, T, 768]`
  is a type alias mypy hands to the plugin whole (an index of a generic class in an
  expression would have mypy read `768` on its own, as an invalid type).
* `Dim[D]` is an `int` whose value is the size `D`; `Dim[768]` is `Literal[768]`.  The name
  `from tyr import Dim` gives is `DimName`, not generic for the same reason as `Tensor`
  (`Width = Dim[768]`); the plugin reads it as the generic `Dim` below.
* `DimExpr[Literal["4*D"], D]` is a computed size: the normal form of the
  expression (`tyr._symbolic`) followed by the type variables it mentions, in
  sorted order of their names.  Keeping the variables as type arguments lets
  mypy substitute them like any other type argument (a generic class's attribute,
  a type alias); the plugin renormalises what mypy substituted.
"""

from typing import Generic, TypeVar, TypeVarTuple, Unpack

import torch

_N = TypeVar("_N", covariant=True)  # so that Dim[B] and Dim[T] join to a Dim (an int), not `object`
_Template = TypeVar("_Template")
_Symbols = TypeVarTuple("_Symbols")


class Tensor(torch.Tensor):
    """`Tensor[B, T, 768]` in an annotation or alias: the plugin reads it as `torch.Tensor[B, T, 768]`."""


class Dim(int, Generic[_N]):
    """An int whose value is the type-level size `_N`."""

    # Sizes of distinct symbols may be equal (`x.shape[1] == pos.shape[1]` is how code asks):
    # comparing them is never mypy's "non-overlapping equality" (`--strict-equality`), which it
    # waives for a class with its own `__eq__`.
    def __eq__(self, other: object) -> bool:
        return int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return int.__ne__(self, other)

    __hash__ = int.__hash__


class DimName(int):
    """`Dim[D]` in an annotation or alias: the plugin reads it as `Dim[D]` (`Dim[768]`: `Literal[768]`)."""


class DimExpr(Generic[_Template, Unpack[_Symbols]]):
    """A size computed from other sizes: `_Template` is its normal form as a string literal type."""


__all__ = ["Dim", "DimExpr", "DimName", "Tensor"]
