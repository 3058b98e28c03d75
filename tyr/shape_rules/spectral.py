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
from tyr.shape_rules.conv import conv_output_size
from tyr.shape_rules.core import (
    Dims,
    MaybeShape,
    ShapeRuleError,
    Size,
    SizeArg,
    Variadic,
    as_size,
    const_of,
    differ,
    dims_argument,
    distinct_positions,
    locate,
    min_rank,
    rank,
    same,
    show,
    show_shape,
    sizes,
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


def stft(
    shape: MaybeShape,
    n_fft: SizeArg,
    hop_length: SizeArg = None,
    win_length: SizeArg = None,
    window: MaybeShape = None,
    *,
    center: bool = True,
    pad_mode: str | None = "reflect",
    onesided: bool | None = None,
    return_complex: bool = True,
    align_to_window: bool | None = None,
    op: str = "stft",
) -> MaybeShape:
    """`torch.stft(x, n_fft, hop_length, win_length, window, ...)`: a signal `(L,)` or `(B, L)` gives
    `(freqs, frames)` or `(B, freqs, frames)`, and a last dim of 2 with `return_complex=False`.

    `hop_length` defaults to `n_fft // 4`, `win_length` to `n_fft` (at most `n_fft`); a window is
    `(win_length,)`.  `center` pads `n_fft // 2` each side, which `pad_mode="reflect"` (None: a mode
    not known or of other limits) takes from the signal, so it must be longer than that (and a batch
    must not be empty).  The frames are as a convolution's of kernel `n_fft` and stride `hop_length`
    (unknown where `align_to_window` aligns them to a shorter window); there are `n_fft // 2 + 1` frequencies where
    `onesided` (torch's default for a real signal: None here, as the rule cannot tell) and `n_fft`
    otherwise.  `align_to_window` (None: not given) is for `center=False` only.
    """
    if center and align_to_window is not None:
        raise ShapeRuleError(f"{op}: align_to_window is for center=False only")
    fft_size, hop, win = as_size(n_fft), as_size(hop_length), as_size(win_length)
    if _not_positive(fft_size):
        raise ShapeRuleError(f"{op}: n_fft={show(fft_size)} must be positive")
    hop = hop if hop_length is not None else None if fft_size is None else fft_size // 4
    win = win if win_length is not None else fft_size
    if _not_positive(hop):
        raise ShapeRuleError(f"{op}: hop_length={show(hop)} must be positive")
    if _not_positive(win) or (const_of(win) or 0) > (const_of(fft_size) or 1 << 62):
        raise ShapeRuleError(f"{op}: win_length={show(win)} must be positive and at most n_fft={show(fft_size)}")
    if window is not None and rank(window) is not None:
        if len(window) != 1 or differ(sizes(window)[0], win):
            raise ShapeRuleError(f"{op}: the window must be (win_length,) = ({show(win)},), not {show_shape(window)}")
    if shape is None:
        return None
    n = rank(shape)
    if min_rank(shape) > 2 or n is not None and n == 0:
        raise ShapeRuleError(f"{op}: the signal must be (L,) or (B, L), not {show_shape(shape)}")
    if n is None:
        return None
    dims = sizes(shape)
    length = dims[-1]
    padding: Size = const(0)
    if center:
        padding = None if fft_size is None else fft_size // 2
        if pad_mode == "reflect":
            pad, known_length = const_of(padding), const_of(length)
            if pad is not None and known_length is not None and pad >= known_length:
                raise ShapeRuleError(
                    f"{op}: center=True reflects n_fft//2 = {pad} samples at each end of a signal of "
                    f"{known_length}; it must be longer"
                )
            if n == 2 and const_of(dims[0]) == 0:
                raise ShapeRuleError(f"{op}: center=True with reflect padding takes no empty batch, got {show_shape(shape)}")
    padded = None if length is None or padding is None else length + 2 * padding
    if padded is not None and fft_size is not None:
        over = const_of(fft_size - padded)
        if over is not None and over > 0:
            raise ShapeRuleError(
                f"{op}: n_fft={show(fft_size)} is longer than the {'padded ' if center else ''}signal of {show(padded)}"
            )
    # aligned to a window shorter than n_fft, torch's frames (and whether it accepts them) are its own
    kernel = fft_size if not align_to_window or same(win, fft_size) else None
    frames = None if padded is None or kernel is None or hop is None else conv_output_size(padded, kernel, hop, 0, 1)
    freqs = None if onesided is None or fft_size is None else fft_size // 2 + 1 if onesided else fft_size
    out = (*dims[:-1], freqs, frames)
    return out if return_complex else (*out, const(2))
