"""Discrete Fourier transforms (`torch.fft`): the transformed dims' sizes, for complex, real-input and
real-output transforms; the sample frequencies; the shifts of the zero frequency.

A complex transform (`fft`, `ifft`, `fftn`, ...) keeps each size, or takes the length
asked for; a real-input one (`rfft`, `ihfft`, `rfftn`, `ihfftn`) halves the last transformed
dim to `n // 2 + 1`; a real-output one (`irfft`, `hfft`, `irfftn`, `hfftn`) gives `2 * (n - 1)`
there unless told the length.  Lengths must be positive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from tyr._symbolic import const
from tyr.shape_rules.core import (
    Dims,
    MaybeShape,
    ShapeRuleError,
    Size,
    SizeArg,
    Variadic,
    as_size,
    const_of,
    dims_argument,
    distinct_positions,
    locate,
    rank,
    show,
    show_shape,
)

Kind = Literal["complex", "real_input", "real_output"]


def fft(shape: MaybeShape, n: SizeArg = None, dim: int = -1, *, kind: Kind = "complex", op: str = "fft") -> MaybeShape:
    """`torch.fft.fft(x, n, dim)` and its one-dim kin (`ifft`, `rfft`, `irfft`, `hfft`, `ihfft`); `n=None`
    keeps the input's length (and -1 is no length)."""
    if _not_positive(as_size(n)):
        raise ShapeRuleError(f"{op}: n={show(as_size(n))} data points; it must be positive")
    return fftn(shape, None if n is None else [n], [dim], kind=kind, op=op)


def fftn(
    shape: MaybeShape,
    s: Sequence[SizeArg] | None = None,
    dims: Sequence[int] | None = None,
    *,
    kind: Kind = "complex",
    op: str = "fftn",
) -> MaybeShape:
    """`torch.fft.fftn(x, s, dim)` (and `fft2`, `rfftn`, `irfftn`, ...): `s` gives each transformed dim's length
    (-1 keeps it, None is a length of unknown value); with `dim=None` the last `len(s)` dims are
    transformed, or all of them."""
    if s is not None and dims is not None and len(s) != len(dims):
        raise ShapeRuleError(f"{op}: s gives {len(s)} lengths for the {len(dims)} dims {tuple(dims)}; it must give one per dim")
    if shape is None:
        return None
    if dims is None:
        if rank(shape) is None:
            return None
        count = len(shape) if s is None else len(s)
        if count > len(shape):
            raise ShapeRuleError(f"{op}: s has {count} lengths but the input {show_shape(shape)} has {len(shape)} dims")
        dims = list(range(len(shape) - count, len(shape)))
    if not dims and kind != "complex":
        raise ShapeRuleError(f"{op}: must transform at least one dim, and {show_shape(shape)} has none")
    positions = distinct_positions(shape, dims, op, scalar_as_1d=False)
    out: list[Size | Variadic] = list(shape)
    for i, pos in enumerate(positions):
        given = s is not None and const_of(as_size(s[i])) != -1
        asked = as_size(s[i]) if s is not None and given else None
        if given and asked is None:  # a length of unknown value
            if pos is None:
                return None
            out[pos] = None
            continue
        last = i == len(positions) - 1
        if pos is None:  # a dim of the Variadic: its length may change only if it is kept
            if _not_positive(asked):
                raise ShapeRuleError(f"{op}: the length {show(asked)} must be positive")
            if asked is not None or (last and kind != "complex"):
                return None
            continue
        size = out[pos]
        assert not isinstance(size, Variadic)
        length = size if asked is None else asked
        if last and kind == "real_output" and asked is None:
            length = None if size is None else 2 * (size - 1)
        if _not_positive(length):
            raise ShapeRuleError(f"{op}: {show(length)} data points along dim {dims[i]} of {show_shape(shape)}")
        if last and kind == "real_input":
            length = None if length is None else length // 2 + 1
        out[pos] = length
    return tuple(out)


def _not_positive(size: Size) -> bool:
    value = const_of(size)
    return value is not None and value <= 0


def fftfreq(n: SizeArg, *, real: bool = False, op: str = "fftfreq") -> MaybeShape:
    """`torch.fft.fftfreq(n)`: `(n,)`; `rfftfreq(n)`: `(n // 2 + 1,)` (torch halves a negative `n` towards 0)."""
    size = as_size(n)
    value = const_of(size)
    if real and size is not None:
        size = const(-(-value // 2) + 1) if value is not None and value < 0 else size // 2 + 1
    if _negative(size):
        raise ShapeRuleError(f"{op}: n={show(as_size(n))} gives {show(size)} frequencies")
    return (size,)


def fftshift(shape: MaybeShape, dim: Dims = None, *, op: str = "fftshift") -> MaybeShape:
    """`torch.fft.fftshift(x, dim)` / `ifftshift`: the shape is kept; `dim` (all dims when None) names
    at least one dim of `x`, which a 0-d tensor has none of."""
    dims = dims_argument(dim)
    if shape is None:
        return None
    if dims == () or dims is None and rank(shape) == 0:
        raise ShapeRuleError(f"{op}: no dim to shift in {show_shape(shape)}")
    for d in dims or ():
        locate(shape, d, op, scalar_as_1d=False)
    return shape


def _negative(size: Size) -> bool:
    value = const_of(size)
    return value is not None and value < 0
