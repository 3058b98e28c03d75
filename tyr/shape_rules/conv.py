"""Spatial ops: `conv1d`/`conv2d`/`conv3d`, `conv_transpose*d`, `max_pool*d`/`avg_pool*d`, `F.pad`, `F.interpolate`.

Output sizes are built with the `Expr` algebra, so they simplify the way a person
would: a stride-2 conv of `2*H` with kernel 3 and padding 1 is `H`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal, Union

from tyr._symbolic import Expr, const
from tyr.shape_rules.core import (
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Unknown,
    Variadic,
    as_size,
    const_of,
    differ,
    divide_size,
    divide_with_offset,
    lower_bound,
    min_rank,
    rank,
    show,
    show_shape,
    sizes,
    variadic_index,
)

IntOrTuple = Union[int, Unknown, Sequence[Union[int, Unknown]]]
"""A per-spatial-dim argument: one int for every dim, or one per dim.  `UNKNOWN` is an int of
unknown value (`padding=(k // 2, 0)` with a plain-int `k`): it makes only its dim's output size
unknown, and the checks that need it are skipped for that dim; `UNKNOWN` for the whole argument
makes every dim's so."""

Stride = Union[int, Expr]
"""A stride or a number of groups: an int, or a size (`nn.Conv2d(3, d, kernel_size=p, stride=p)`)."""

StrideItem = Union[Stride, Unknown]
"""A stride or kernel size of one spatial dim: an int, a size, or `UNKNOWN`."""

StrideOrTuple = Union[Stride, Unknown, Sequence[StrideItem]]


def _per_dim(value: Any, n: int, name: str, op: str) -> tuple[Any, ...]:
    """One item per spatial dim (each may be `UNKNOWN`)."""
    if isinstance(value, (int, Expr, Unknown)):
        return (value,) * n
    values = tuple(value)
    if len(values) == 1:
        return values * n
    if len(values) != n:
        raise ShapeRuleError(f"{op}: {name} must be a single int or a list of {n} ints, got {list(values)}")
    return values


def _split_input(input: Shape, n: int, op: str) -> tuple[Shape, Size, tuple[Size, ...]] | None:
    """`(batch dims, channels, spatial sizes)` of an `(N, C, *spatial)` or `(C, *spatial)` input.

    None when a Variadic hides the channel or spatial dims; a leading Variadic is kept as
    the batch part (valid when it holds at most one dim)."""
    v = variadic_index(input)
    if v is None:
        if len(input) not in (n + 1, n + 2):
            raise ShapeRuleError(
                f"{op}: expected a {n + 1}-d (unbatched) or {n + 2}-d (batched) input, got {show_shape(input)}"
            )
    else:
        if len(input) - 1 > n + 2:
            raise ShapeRuleError(f"{op}: expected at most {n + 2} dims, got {show_shape(input)}")
        if v != 0 or len(input) - 1 != n + 1:
            return None
    batch = input[: len(input) - n - 1]
    channels = input[len(input) - n - 1]
    assert not isinstance(channels, Variadic)
    spatial = tuple(s for s in input[len(input) - n :] if not isinstance(s, Variadic))
    return batch, channels, spatial



def _known_negative(e: Expr) -> bool:
    value = e.const_value
    return value is not None and value < 0


def _divided(item: Stride) -> bool:
    """Whether a padding or dilation is a division of sizes (`k // 2`, `(k - 1) // 2` of a kernel `k: Dim[K]`).

    Its normal form takes `K` even (SHAPES.md §6), so `2*(K//2) - K` cancels to 0 and a "same"
    convolution would read `H + 1`; that idiom is written for odd kernels, where torch gives `H`.
    The size it leaves is unknown."""
    return isinstance(item, Expr) and (item.has_division or bool(item.facts))


def _divided_apart(amount: Expr, size: Expr) -> bool:
    """A pad that is a division of other sizes than the padded one's (`k // 2` of a kernel `k`, padding
    `H` on both sides): `2*(K//2)` reads `K`, one more than torch's at the odd kernels it is for."""
    return _divided(amount) and not amount.symbols <= size.symbols


def conv_output_size(size: Size, kernel: Size, stride: Stride, padding: Stride, dilation: Stride) -> Size:
    """`(size + 2*padding - dilation*(kernel - 1) - 1) // stride + 1`, the length a convolution leaves."""
    if size is None or kernel is None or _divided(padding) or _divided(dilation):
        return None
    # a patch embedding, kernel and stride P: `(I - P)//P + 1` is `I//P`; a kernel K with stride 2 unknown
    out = divide_with_offset(size, 2 * padding - dilation * (kernel - 1) - 1, stride)
    return None if out is None else out + 1


def _positive(size: Size) -> bool | None:
    """Whether a size is > 0: True, False (it is 0), or None when that depends on values."""
    if size is None:
        return None
    value = size.const_value
    if value is not None:
        return value > 0
    low = lower_bound(size)
    return True if low is not None and low >= 1 else None


def _batch_size(batch: Shape) -> Size:
    if not batch:
        return const(1)  # an unbatched input is run as a batch of one
    item = batch[0]
    return None if isinstance(item, Variadic) else item


def _check_params(op: str, strides: tuple[StrideItem, ...], pads: tuple[StrideItem, ...],
                  dilations: tuple[StrideItem, ...], groups: Stride) -> None:
    """The checks on each dim's stride, padding and dilation that do not need the input; an
    item of unknown value (or a size such as `(K - 1)*L`, never negative) is not checked."""
    if any((c := _const(p)) is not None and c < 0 for p in pads):
        raise ShapeRuleError(f"{op}: padding must be non-negative, got {_show_items(pads)}")
    if any((c := _const(s)) is not None and c <= 0 for s in strides):
        raise ShapeRuleError(f"{op}: strides must be positive, got {_show_items(strides)}")
    if any((c := _const(d)) is not None and c < 0 for d in dilations):
        raise ShapeRuleError(f"{op}: dilation must be positive, got {_show_items(dilations)}")
    value = _const(groups)
    if value is not None and value <= 0:
        raise ShapeRuleError(f"{op}: groups must be positive, got {value}")


def _show_items(items: Sequence[StrideItem]) -> str:
    """Per-dim items as a list, `[?, 0]` with one of unknown value."""
    return "[" + ", ".join("?" if isinstance(i, Unknown) else show(as_size(i)) for i in items) + "]"


def _const(value: StrideItem) -> int | None:
    if isinstance(value, Unknown):
        return None
    return value if isinstance(value, int) else value.const_value


def _check_weight(op: str, weight: MaybeShape, n: int, what: str) -> list[Size] | None:
    if weight is None:
        return None
    if variadic_index(weight) is None and len(weight) != n + 2:
        raise ShapeRuleError(f"{op}: the weight must have {n + 2} dims ({what}, *kernel), got {show_shape(weight)}")
    if variadic_index(weight) is not None:
        return None
    return [s for s in weight if not isinstance(s, Variadic)]


def _check_groups(op: str, size: Size, groups: Stride, weight: Shape) -> None:
    c, g = const_of(size), _const(groups)
    if c is not None and g is not None and (c < g or c % g):
        raise ShapeRuleError(
            f"{op}: dim 0 of the weight {show_shape(weight)} must be a positive multiple of groups ({groups})"
        )


def conv_nd(
    input: MaybeShape,
    weight: MaybeShape,
    bias: MaybeShape = None,
    stride: StrideOrTuple = 1,
    padding: StrideOrTuple | Literal["same", "valid"] = 0,
    dilation: StrideOrTuple = 1,
    groups: Stride = 1,
    *,
    n: int = 2,
) -> MaybeShape:
    """`F.conv{n}d(input, weight, bias, stride, padding, dilation, groups)`.

    `input` is `(N, C_in, *spatial)` or unbatched `(C_in, *spatial)`; `weight` is
    `(C_out, C_in // groups, *kernel)`; `bias` is `(C_out,)`.  Each spatial size `L`
    becomes `(L + 2*padding - dilation*(kernel - 1) - 1) // stride + 1`, and the padded
    input must be at least as large as the dilated kernel.  `padding="same"` keeps `L`
    (stride 1 only); `"valid"` is 0.  Strides and groups must be positive, paddings
    non-negative, `C_out` a positive multiple of `groups`.

    torch takes a shortcut for an input with no batch (`N == 0`) or no channels
    (`C_in == 0`), and the rule follows it: kernel sizes, dilations and spatial sizes may
    then be 0, and with no input channels the output has none either.

    A stride, padding or dilation item may be a size (`padding=(K - 1)*L, dilation=L` in a
    TCN block) or `UNKNOWN` (and a kernel size in the weight None): with `UNKNOWN` that dim's
    output size is unknown and the checks that need the item are
    skipped for it; the other dims are computed and checked as usual.  Under `"same"` a
    stride that is not known to be 1 must be 1 for torch to accept it, so it keeps `L`.
    """
    op = f"conv{n}d"
    strides = _per_dim(stride, n, "stride", op)
    dilations = _per_dim(dilation, n, "dilation", op)
    same = padding == "same"
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ShapeRuleError(f"{op}: padding must be 'same', 'valid' or ints, got {padding!r}")
        pads = (0,) * n
    else:
        pads = _per_dim(padding, n, "padding", op)
    _check_params(op, strides, pads, dilations, groups)
    if same and any(c is not None and c != 1 for c in map(_const, strides)):
        # a stride of unknown value is 1 wherever torch accepts the call, which keeps L
        raise ShapeRuleError(f"{op}: padding='same' is not supported for strided convolutions")
    w = _check_weight(op, weight, n, "C_out, C_in/groups")
    parts = None if input is None else _split_input(input, n, op)
    if w is None or weight is None:
        return None
    out_channels, in_per_group, kernel = w[0], w[1], w[2:]
    _check_groups(op, out_channels, groups, weight)
    _check_bias(op, bias, out_channels, weight)
    if parts is None:
        return None
    batch, channels, spatial = parts
    expected = None if in_per_group is None else in_per_group * groups
    if differ(channels, expected):
        raise ShapeRuleError(
            f"{op}: the input has {show(channels)} channels (dim {len(batch)} of {show_shape(input)}) but the "
            f"weight {show_shape(weight)} with groups={show(as_size(groups))} expects {show(expected)}"
        )
    if channels is None:
        channels = expected
    out: list[Size] = []
    for i, (size, k) in enumerate(zip(spatial, kernel)):
        stride_i, pad, dilation_i = strides[i], pads[i], dilations[i]
        extent = None if k is None or isinstance(dilation_i, Unknown) else dilation_i * (k - 1) + 1
        padded: Size
        if same:
            padded = None if size is None or extent is None else size + extent - 1
        else:
            padded = None if size is None or isinstance(pad, Unknown) else size + 2 * pad
        if padded is not None and extent is not None and _known_negative(padded - extent):
            raise ShapeRuleError(
                f"{op}: spatial dim {i} of the input ({show(size)}, padded to {show(padded)}) is smaller than the "
                f"dilated kernel ({show(extent)})"
            )
        if same:
            out.append(size)
        elif isinstance(stride_i, Unknown) or isinstance(pad, Unknown) or isinstance(dilation_i, Unknown):
            out.append(None)
        else:
            out.append(conv_output_size(size, k, stride_i, pad, dilation_i))
    # torch's shortcut for inputs with no batch or no channels
    batch_size = _batch_size(batch)
    has_batch, has_channels = _positive(batch_size), _positive(channels)
    shortcut = False if has_batch and has_channels else True if has_batch is False or has_channels is False else None
    kernel_empty = any(const_of(k) == 0 for k in kernel)
    if kernel_empty and (shortcut is False or has_channels):
        # the full path needs a non-empty kernel; the shortcut reads the weight's first element
        raise ShapeRuleError(f"{op}: kernel sizes must be positive, got weight {show_shape(weight)}")
    if shortcut is False:
        if any(_const(d) == 0 for d in dilations):
            raise ShapeRuleError(f"{op}: dilation must be positive, got {list(dilations)}")
        if any(const_of(s) == 0 for s in spatial):
            raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty in a spatial dim")
    result_channels = out_channels if has_channels else const(0) if has_channels is False else None
    return (*batch, result_channels, *out)


def _check_bias(op: str, bias: MaybeShape, channels: Size, weight: Shape) -> None:
    if bias is None:
        return
    if variadic_index(bias) is None and len(bias) != 1:
        raise ShapeRuleError(f"{op}: the bias must be 1-d with C_out elements, got {show_shape(bias)}")
    if rank(bias) == 1:
        size = bias[0]
        assert not isinstance(size, Variadic)
        if differ(size, channels):
            raise ShapeRuleError(
                f"{op}: the bias has {show(size)} elements but the weight {show_shape(weight)} has {show(channels)} "
                f"output channels"
            )


def conv_transpose_nd(
    input: MaybeShape,
    weight: MaybeShape,
    bias: MaybeShape = None,
    stride: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    output_padding: IntOrTuple = 0,
    groups: int = 1,
    dilation: IntOrTuple = 1,
    *,
    n: int = 2,
) -> MaybeShape:
    """`F.conv_transpose{n}d(input, weight, bias, stride, padding, output_padding, groups, dilation)`.

    `input` is `(N, C_in, *spatial)` or `(C_in, *spatial)`; `weight` is
    `(C_in, C_out // groups, *kernel)`; the result has `C_out` channels and spatial sizes
    `(L - 1)*stride - 2*padding + dilation*(kernel - 1) + output_padding + 1`, which must be
    positive.  `output_padding` must be smaller than the stride or the dilation, and the
    input's spatial sizes must not be 0.  (With an empty batch torch skips those checks
    except that the sizes may not be negative.)  An output size of exactly 0, or a dilation
    of 0, is accepted by some of torch's kernels and not others, so the result is then
    unknown.  A stride, padding, output_padding or dilation item may be `UNKNOWN`: that dim's
    output size is then unknown and the checks that need the item are skipped for it.
    """
    op = f"conv_transpose{n}d"
    strides = _per_dim(stride, n, "stride", op)
    pads = _per_dim(padding, n, "padding", op)
    extra = _per_dim(output_padding, n, "output_padding", op)
    dilations = _per_dim(dilation, n, "dilation", op)
    _check_params(op, strides, pads, dilations, groups)
    if any(not isinstance(p, Unknown) and p < 0 for p in extra):
        raise ShapeRuleError(f"{op}: output_padding must be non-negative, got {_show_items(extra)}")
    w = _check_weight(op, weight, n, "C_in, C_out/groups")
    parts = None if input is None else _split_input(input, n, op)
    if w is None or weight is None:
        return None
    in_channels, out_per_group, kernel = w[0], w[1], w[2:]
    _check_groups(op, in_channels, groups, weight)
    out_channels = None if out_per_group is None else out_per_group * groups
    _check_bias(op, bias, out_channels, weight)
    if parts is None:
        return None
    batch, channels, spatial = parts
    if differ(channels, in_channels):
        raise ShapeRuleError(
            f"{op}: the input has {show(channels)} channels (dim {len(batch)} of {show_shape(input)}) but the "
            f"weight {show_shape(weight)} expects {show(in_channels)}"
        )
    if any(const_of(k) == 0 for k in kernel) or const_of(out_per_group) == 0:
        raise ShapeRuleError(f"{op}: the weight {show_shape(weight)} must not be empty")
    full = _positive(_batch_size(batch))  # False: torch's shortcut for an empty batch
    if full is not False and any(d == 0 for d in dilations):
        return None  # torch's oneDNN kernel runs some of these, its reference kernel refuses them all
    if full:
        for e, s, d in zip(extra, strides, dilations):
            if not isinstance(e, Unknown) and not isinstance(s, Unknown) and not isinstance(d, Unknown) and \
                    e >= s and e >= d:
                raise ShapeRuleError(
                    f"{op}: output_padding {_show_items(extra)} must be smaller than the stride "
                    f"{_show_items(strides)} or the dilation {_show_items(dilations)}"
                )
        if any(const_of(s) == 0 for s in spatial):
            raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty in a spatial dim")
    out: list[Size] = []
    for i, (size, k) in enumerate(zip(spatial, kernel)):
        stride_i, pad, extra_i, dilation_i = strides[i], pads[i], extra[i], dilations[i]
        if (size is None or k is None or isinstance(stride_i, Unknown) or isinstance(pad, Unknown)
                or isinstance(extra_i, Unknown) or isinstance(dilation_i, Unknown) or _divided(pad)
                or _divided(dilation_i)):
            out.append(None)
            continue
        length = (size - 1) * stride_i - 2 * pad + dilation_i * (k - 1) + extra_i + 1
        value = const_of(length)
        if value is not None and value < 0:
            raise ShapeRuleError(f"{op}: spatial dim {i} of the output would be {length}; too small")
        if value == 0 and full is not False:
            return None  # torch's oneDNN kernel returns an empty output here, its reference kernel refuses
        out.append(length)
    return (*batch, out_channels, *out)


# -- pooling -----------------------------------------------------------------------------------------


def pool_output_size(
    size: Size, kernel: Stride, stride: Stride, padding: int, dilation: int, ceil_mode: bool
) -> Size:
    """The length pooling leaves: `(size + 2*padding - dilation*(kernel - 1) - 1) / stride + 1`, rounded
    down, or up with `ceil_mode` as long as the last window starts inside the (left-padded) input.

    A kernel or stride that is a size (`F.avg_pool2d(x, x.shape[2:])`, a global pool) divides as a
    convolution's stride does (SHAPES.md §6); rounded up, its length is left unknown.
    """
    if size is None:
        return None
    extent = dilation * (kernel - 1) + 1
    if not ceil_mode:
        rounded_down = divide_with_offset(size, 2 * padding - extent, stride)
        return None if rounded_down is None else rounded_down + 1
    if isinstance(extent, Expr) or isinstance(stride, Expr):
        return None
    out = divide_size(size, 2 * padding - extent + stride - 1, stride) + 1
    if size.const_value is not None:
        value = out.const_value
        assert value is not None
        return const(value - 1) if (value - 1) * stride >= size.const_value + padding else out
    # The last window starts inside the input for every size when padding + stride <= extent.
    return out if padding + stride <= extent else None


def pool_nd(
    input: MaybeShape,
    kernel_size: StrideOrTuple,
    stride: StrideOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    *,
    n: int = 2,
    kind: Literal["max", "avg", "lp"] = "max",
) -> MaybeShape:
    """`F.max_pool{n}d` / `F.avg_pool{n}d(input, kernel_size, stride, padding, [dilation,] ceil_mode)`,
    and `F.lp_pool{n}d(input, norm_type, kernel_size, stride, ceil_mode)`, an average pool without padding.

    `input` is `(N, C, *spatial)` or `(C, *spatial)`, every dim but N non-empty; `stride`
    defaults to `kernel_size`.  Each spatial size becomes `pool_output_size(...)`, which
    must be at least 1; padding may be at most half the kernel.  (`return_indices=True`
    gives two tensors of this shape.)  A kernel or stride may be a size (a `Dim`).  A kernel,
    stride, padding or dilation item may be `UNKNOWN`: that dim's output size is then unknown
    and the checks that need the item are skipped for it.
    """
    op = f"{kind}_pool{n}d"
    if kind == "lp" and not isinstance(kernel_size, (int, Expr, Unknown)) and (n == 1 or len(kernel_size) != n):
        # lp_pool1d multiplies by its kernel size, lp_pool2d/3d unpack exactly n of them
        raise ShapeRuleError(f"{op}: kernel_size must be a single int{'' if n == 1 else f' or {n} ints'}, "
                             f"got {list(kernel_size)}")
    kernels = tuple(map(_int_if_constant, _per_dim(kernel_size, n, "kernel_size", op)))
    no_stride = stride is None or (isinstance(stride, Sequence) and not list(stride))
    strides = kernels if no_stride else tuple(map(_int_if_constant, _per_dim(stride, n, "stride", op)))
    pads = _per_dim(padding, n, "padding", op)
    dilations = _per_dim(dilation, n, "dilation", op)
    if any(_at_most_zero(k) for k in (*kernels, *strides)) or any(not isinstance(d, Unknown) and d <= 0 for d in dilations):
        raise ShapeRuleError(
            f"{op}: kernel_size {_show_items(kernels)}, stride {_show_items(strides)} and dilation "
            f"{_show_items(dilations)} must be positive"
        )
    for k, p in zip(kernels, pads):
        if not isinstance(p, Unknown) and (p < 0 or not isinstance(k, Unknown) and _more_than_half(p, k)):
            raise ShapeRuleError(
                f"{op}: padding {_show_items(pads)} must be between 0 and half of kernel_size {_show_items(kernels)}"
            )
    if input is None:
        return None
    parts = _split_input(input, n, op)
    if parts is None:
        return None
    batch, channels, spatial = parts
    for size in (channels, *spatial):
        if size is not None and size.const_value == 0:
            raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty in a dim other than the batch")
    out: list[Size] = []
    for i, size in enumerate(spatial):
        k, stride_i, pad, dilation_i = kernels[i], strides[i], pads[i], dilations[i]
        if isinstance(k, Unknown) or isinstance(pad, Unknown) or isinstance(dilation_i, Unknown):
            out.append(None)  # nothing to check without the window or the padding
            continue
        if isinstance(stride_i, Unknown):
            length = None
        else:
            length = pool_output_size(size, k, stride_i, pad, dilation_i, ceil_mode)
        value = const_of(length)
        if value is not None and value < 1:
            raise ShapeRuleError(
                f"{op}: spatial dim {i} of the input ({show(size)}) leaves an output of size {length}; too small"
            )
        extent = dilation_i * (k - 1) + 1
        if not ceil_mode and size is not None and (lower_bound(-size + extent - 2 * pad) or 0) >= 1:
            # rounded down, a window longer than the padded input leaves nothing, at every size
            raise ShapeRuleError(
                f"{op}: spatial dim {i} of the input ({show(size)}, padded by {pad} on each side) is shorter "
                f"than the pooling window ({show(as_size(extent))}); the output would be empty"
            )
        out.append(length)
    return (*batch, channels, *out)


def _int_if_constant(value: StrideItem) -> StrideItem:
    c = _const(value)
    return value if c is None else c


def _at_most_zero(value: StrideItem) -> bool:
    c = _const(value)
    return c is not None and c <= 0


def _more_than_half(padding: int, kernel: Stride) -> bool:
    """`padding > kernel // 2`, where evident (a kernel that is a size: `kernel <= 2*padding - 1` at every size)."""
    if isinstance(kernel, int):
        return padding > kernel // 2
    low = lower_bound(2 * padding - 1 - kernel)
    return low is not None and low >= 0


def pool_nd_unknown(input: MaybeShape, *, n: int = 2, kind: Literal["max", "avg", "lp"] = "max") -> MaybeShape:
    """`pool_nd` whose kernel, stride, padding or dilation is an int of unknown value.

    The input is checked as it is for every kernel (its rank, no empty dim but the batch), and
    the spatial sizes of the result are unknown.
    """
    out = pool_nd(input, 1, n=n, kind=kind)
    if out is None or variadic_index(out) is not None:
        return out
    return (*out[: len(out) - n], *(None,) * n)


def adaptive_pool_nd(
    input: MaybeShape,
    output_size: SizeArg | Unknown | Sequence[SizeArg | Unknown],
    *,
    n: int = 2,
    kind: Literal["max", "avg"] = "avg",
) -> MaybeShape:
    """`F.adaptive_avg_pool{n}d` / `F.adaptive_max_pool{n}d(input, output_size)`: the spatial dims resized.

    `input` is `(N, C, *spatial)` or `(C, *spatial)` with non-empty spatial dims (and channels,
    for a batched max); `output_size` is one size for every spatial dim or one per dim, where
    None keeps the input's size (`UNKNOWN`: an int of unknown value).  A 2-d average pool to
    size 1 is a mean over the last two dims: torch checks nothing else then.
    """
    op = f"adaptive_{kind}_pool{n}d"
    listed = isinstance(output_size, Sequence)
    items = list(output_size) if isinstance(output_size, Sequence) else [output_size] * n
    if len(items) != n:
        raise ShapeRuleError(f"{op}: output_size must have {n} sizes, got {len(items)}")
    wanted = [None if isinstance(w, Unknown) or w is None else as_size(w) for w in items]
    for w in wanted:
        if (const_of(w) or 0) < 0:
            raise ShapeRuleError(f"{op}: output sizes must be non-negative, got {show_shape(tuple(wanted))}")
    if input is None:
        return None
    if listed and rank(input) is not None and len(input) <= n:
        raise ShapeRuleError(f"{op}: the input {show_shape(input)} must have more than {n} dims")
    if n == 1 and rank(input) is not None and len(input) not in (2, 3):
        raise ShapeRuleError(f"{op}: expected a 2-d or 3-d input, got {show_shape(input)}")
    if listed and _after(input) >= n:  # None keeps the input's size
        tail = input[len(input) - n :]
        wanted = [s if items[i] is None and not isinstance(s, Variadic) else w for i, (s, w) in
                  enumerate(zip(tail, wanted))]
    if kind == "avg" and all(const_of(w) == 1 for w in wanted) and min_rank(input) >= n:
        # a mean over the last dims (torch pools 1-d as 2-d: over the last two), whatever the rank
        return (*input[:-n], *(const(1),) * n) if _after(input) >= n else None
    parts = _split_input(input, n, op)
    if parts is None:
        return None
    batch, channels, spatial = parts
    # torch checks the dims after the first of a batched input: the channels too, for max
    batched = bool(batch) and not isinstance(batch[0], Variadic)
    for size in (*spatial, *([channels] if kind == "max" and batched else [])):
        if size is not None and size.const_value == 0:
            raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty in a dim other than the batch")
    return (*batch, channels, *(spatial[i] if items[i] is None else w for i, w in enumerate(wanted)))


def _below_one(size: Size) -> bool:
    value = const_of(size)
    return value is not None and value < 1


def _after(shape: Shape) -> int:
    """How many dims at the end of `shape` are fixed."""
    v = variadic_index(shape)
    return len(shape) if v is None else len(shape) - v - 1


def _pairs(op: str, *values: IntOrTuple) -> list[tuple[int | Unknown, ...]]:
    """kernel_size, dilation, padding and stride of `F.unfold`/`F.fold`: each an int or exactly two
    ints (an item may be `UNKNOWN`); the checks torch makes on the items that are known."""
    out: list[tuple[int | Unknown, ...]] = []
    for value, name in zip(values, ("kernel_size", "dilation", "padding", "stride")):
        pair: tuple[int | Unknown, ...] = (value, value) if isinstance(value, (int, Unknown)) else tuple(value)
        if len(pair) != 2:
            raise ShapeRuleError(f"{op}: {name} must be an int or two ints, got {_show_items(pair)}")
        out.append(pair)
    kernels, dilations, pads, strides = out
    if any(_at_most_zero(v) for v in (*kernels, *dilations, *strides)):
        raise ShapeRuleError(f"{op}: kernel_size, dilation and stride must be positive")
    if any(not isinstance(p, Unknown) and p < 0 for p in pads):
        raise ShapeRuleError(f"{op}: padding must be non-negative, got {_show_items(pads)}")
    return out


def _blocks_along(size: Size, k: int | Unknown, d: int | Unknown, p: int | Unknown,
                  s: int | Unknown) -> Size:
    """The number of blocks `F.unfold` takes along one dim (None where an item is unknown)."""
    if isinstance(k, Unknown) or isinstance(d, Unknown) or isinstance(p, Unknown) or isinstance(s, Unknown):
        return None
    return conv_output_size(size, const(k), s, p, d)


def _area(kernels: Sequence[int | Unknown]) -> int | None:
    """`kh*kw`, None where a kernel size is unknown."""
    kh, kw = kernels
    return None if isinstance(kh, Unknown) or isinstance(kw, Unknown) else kh * kw


def unfold_patches(
    input: MaybeShape, kernel_size: IntOrTuple, dilation: IntOrTuple = 1, padding: IntOrTuple = 0,
    stride: IntOrTuple = 1,
) -> MaybeShape:
    """`F.unfold(input, kernel_size, dilation, padding, stride)` (im2col): `(N, C, H, W)` to `(N, C*kh*kw, L)`.

    `L` is the number of blocks, the product of the two conv output lengths, each at least
    1; an unbatched `(C, H, W)` gives `(C*kh*kw, L)`.  An item of unknown value (`UNKNOWN`)
    leaves what needs it unknown, and its dim unchecked.
    """
    op = "unfold"
    kernels, dilations, pads, strides = _pairs(op, kernel_size, dilation, padding, stride)
    if input is None:
        return None
    r = rank(input)
    if r is not None and r not in (3, 4):
        raise ShapeRuleError(f"{op}: expected a 3-d (C, H, W) or 4-d (N, C, H, W) input, got {show_shape(input)}")
    if r is None:
        return None
    *batch, channels, h, w = sizes(input)
    for size in (channels, h, w):
        if const_of(size) == 0:
            raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty in a dim other than the batch")
    blocks: Size = const(1)
    for size, k, d, p_, s_ in zip((h, w), kernels, dilations, pads, strides):
        length = _blocks_along(size, k, d, p_, s_)
        if _below_one(length):
            raise ShapeRuleError(
                f"{op}: the input {show_shape(input)} is too small for kernel {_show_items(kernels)}"
            )
        blocks = None if blocks is None or length is None else blocks * length
    area = _area(kernels)
    return (*batch, None if channels is None or area is None else channels * area, blocks)


def fold_patches(
    input: MaybeShape, output_size: Sequence[SizeArg] | SizeArg, kernel_size: IntOrTuple, dilation: IntOrTuple = 1,
    padding: IntOrTuple = 0, stride: IntOrTuple = 1,
) -> MaybeShape:
    """`F.fold(input, output_size, kernel_size, ...)` (col2im): `(N, C*kh*kw, L)` to `(N, C, *output_size)`.

    The second-to-last dim must divide by `kh*kw`, and `L` must be the number of blocks
    `output_size` holds (as `F.unfold` counts them).  An item of unknown value (`UNKNOWN`)
    leaves what needs it unknown, and unchecked.
    """
    op = "fold"
    kernels, dilations, pads, strides = _pairs(op, kernel_size, dilation, padding, stride)
    out = [as_size(s) for s in output_size] if isinstance(output_size, Sequence) else [as_size(output_size)] * 2
    if len(out) != 2:
        raise ShapeRuleError(f"{op}: output_size must have 2 sizes, got {len(out)}")
    if any(_below_one(o) for o in out):
        raise ShapeRuleError(f"{op}: output sizes must be positive, got {show_shape(tuple(out))}")
    if input is None:
        return None
    r = rank(input)
    if r is not None and r not in (2, 3):
        raise ShapeRuleError(f"{op}: expected a 2-d (C*kh*kw, L) or 3-d (N, C*kh*kw, L) input, got {show_shape(input)}")
    if r is None:
        return None
    *batch, columns, count = sizes(input)
    if const_of(columns) == 0 or const_of(count) == 0:
        raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty in a dim other than the batch")
    area = _area(kernels)
    c = const_of(columns)
    if c is not None and area is not None and c % area:
        raise ShapeRuleError(f"{op}: dim -2 of the input ({c}) must divide by the kernel's {area} elements")
    blocks: Size = const(1)
    for size, k, d, p_, s_ in zip(out, kernels, dilations, pads, strides):
        length = _blocks_along(size, k, d, p_, s_)
        if _below_one(length):
            raise ShapeRuleError(
                f"{op}: output_size {show_shape(tuple(out))} holds no block of kernel {_show_items(kernels)}"
            )
        blocks = None if blocks is None or length is None else blocks * length
    if differ(count, blocks):
        raise ShapeRuleError(
            f"{op}: dim -1 of the input ({show(count)}) must be the number of blocks, {show(blocks)}, that "
            f"output_size {show_shape(tuple(out))} holds"
        )
    return (*batch, None if columns is None or area is None else columns // area, *out)


def grid_sample(input: MaybeShape, grid: MaybeShape) -> MaybeShape:
    """`F.grid_sample(input, grid)`: `(N, C, H, W)` sampled at `(N, Ho, Wo, 2)` gives `(N, C, Ho, Wo)`
    (5-d: `(N, C, D, H, W)` at `(N, Do, Ho, Wo, 3)`).

    The input's spatial dims are non-empty; the batch sizes agree.
    """
    op = "grid_sample"
    for shape, name in ((input, "input"), (grid, "grid")):
        if shape is not None and rank(shape) is not None and len(shape) not in (4, 5):
            raise ShapeRuleError(f"{op}: the {name} must be 4-d or 5-d, not {show_shape(shape)}")
    if input is None or grid is None or rank(input) is None or rank(grid) is None:
        return None
    if len(input) != len(grid):
        raise ShapeRuleError(f"{op}: input {show_shape(input)} and grid {show_shape(grid)} must have one rank")
    x, g = sizes(input), sizes(grid)
    if differ(x[0], g[0]):
        raise ShapeRuleError(f"{op}: the batch sizes differ: input {show_shape(input)}, grid {show_shape(grid)}")
    if differ(g[-1], const(len(x) - 2)):
        raise ShapeRuleError(f"{op}: the grid's last dim must be {len(x) - 2} (coordinates), not {show(g[-1])}")
    if any(const_of(s) == 0 for s in x[2:]):
        raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty in a spatial dim")
    return (x[0], x[1], *g[1:-1])


def affine_grid(theta: MaybeShape, size: Sequence[SizeArg]) -> MaybeShape:
    """`F.affine_grid(theta, size)`: `(N, 2, 3)` and `size=(N, C, H, W)` give `(N, H, W, 2)`;
    `(N, 3, 4)` and `(N, C, D, H, W)` give `(N, D, H, W, 3)`.  The sizes are positive."""
    op = "affine_grid"
    wanted = [as_size(s) for s in size]
    if len(wanted) not in (4, 5):
        raise ShapeRuleError(f"{op}: size must have 4 or 5 entries (N, C, *spatial), got {len(wanted)}")
    if any(_below_one(s) for s in wanted):
        raise ShapeRuleError(f"{op}: the sizes must be positive, got {show_shape(tuple(wanted))}")
    n = len(wanted) - 2
    expected = (wanted[0], const(n), const(n + 1))
    if theta is not None and rank(theta) is not None:
        got = sizes(theta)
        if len(got) != 3 or any(differ(a, b) for a, b in zip(got, expected)):
            raise ShapeRuleError(f"{op}: theta must be {show_shape(expected)} for size {show_shape(tuple(wanted))}, "
                                 f"not {show_shape(theta)}")
    return (wanted[0], *wanted[2:], const(n))


# -- padding and resizing ------------------------------------------------------------------------------


def pad(shape: MaybeShape, pad: Sequence[SizeArg], mode: str = "constant") -> MaybeShape:
    """`F.pad(input, pad, mode)`: `pad = (left, right, top, bottom, ...)` pads the last dim first.

    `len(pad)` must be even and at most twice the number of dims.  In `"constant"` mode a
    pad may be negative (it crops) as long as the two crops of a dim together leave it at
    least 0.  `"reflect"`,
    `"replicate"` and `"circular"` pad 1 to 3 trailing dims of a tensor with 1 or 2 more
    dims.  Reflect and replicate need every dim non-empty (but the batch dim of the longer
    form) and sizes of at least 1 after padding; reflect needs each pad smaller than its
    dim.  Circular needs each pad at most its dim and sizes of at least 0.
    """
    amounts = [as_size(p) for p in pad]
    if len(amounts) % 2:
        raise ShapeRuleError(f"pad: the padding must have an even length (two per dim), got {len(amounts)}")
    if shape is None:
        return None
    k = len(amounts) // 2
    r = rank(shape)
    if r is not None and k > r:
        raise ShapeRuleError(f"pad: {len(amounts)} pads given for the {r}-d tensor {show_shape(shape)}")
    if mode != "constant":
        if k not in (1, 2, 3) or r is not None and r not in (k + 1, k + 2):
            raise ShapeRuleError(
                f"pad: mode {mode!r} pads 1 to 3 dims of a tensor with 1 or 2 more dims; got {len(amounts)} pads "
                f"for {show_shape(shape)}"
            )
        if mode in ("reflect", "replicate"):
            # every dim but the batch dim (of the longer form) must be non-empty
            checked = shape[1:] if r == k + 2 else shape if r == k + 1 else shape[len(shape) - k :]
            for s in checked:
                if not isinstance(s, Variadic) and const_of(s) == 0:
                    raise ShapeRuleError(f"pad: mode {mode!r} needs non-empty dims, got {show_shape(shape)}")
    v = variadic_index(shape)
    fixed = len(shape) if v is None else len(shape) - v - 1
    if fixed < k:
        return None
    out: list[Size | Variadic] = list(shape)
    least = 1 if mode in ("reflect", "replicate") else 0
    for i in range(k):
        pos = len(shape) - 1 - i
        size = shape[pos]
        assert not isinstance(size, Variadic)
        before, after = amounts[2 * i], amounts[2 * i + 1]
        if size is None or before is None or after is None or _divided_apart(before, size) or _divided_apart(after, size):
            out[pos] = None
            continue
        new = size + before + after
        value = const_of(new)
        if value is not None and value < least:
            raise ShapeRuleError(f"pad: dim {pos} ({show(size)}) padded by ({before}, {after}) would be {new}")
        if mode == "constant":
            # the input's part that survives a negative pad (a crop) must not be negative either
            kept = size + min(const_of(before) or 0, 0) + min(const_of(after) or 0, 0)
            if _known_negative(kept):
                raise ShapeRuleError(f"pad: the crop ({before}, {after}) is more than dim {pos} ({show(size)}) holds")
        if mode in ("reflect", "circular"):
            for amount in (before, after):
                a, n = amount.const_value, size.const_value
                if a is not None and n is not None and (a >= n if mode == "reflect" else a > n):
                    raise ShapeRuleError(f"pad: in mode {mode!r} a pad of {a} is too large for dim {pos} of size {n}")
        out[pos] = new
    return tuple(out)


def interpolate(
    shape: MaybeShape,
    size: SizeArg | Unknown | Sequence[SizeArg] = None,
    scale_factor: float | Sequence[float] | None = None,
    mode: str = "nearest",
) -> MaybeShape:
    """`F.interpolate(input, size, scale_factor, mode)`: spatial dims resized.

    `input` is `(N, C, *spatial)` with 1 to 3 spatial dims (`linear` needs 1, `bilinear` and
    `bicubic` 2, `trilinear` 3).  Exactly one of `size` (an int or one per spatial dim) and
    `scale_factor` is given (`size=UNKNOWN`: an int of unknown value); a scale gives
    `floor(L * scale)`.  The input's spatial sizes must
    be positive; so must the output's and the channels, except in `"area"` mode (adaptive
    average pooling), which allows empty outputs, and empty channels for 1 or 2 spatial dims,
    and checks nothing when every output size is 1 (it takes the mean).
    """
    if (size is None) == (scale_factor is None):
        raise ShapeRuleError("interpolate: give exactly one of size and scale_factor")
    if shape is None:
        return None
    if variadic_index(shape) is not None:
        return None
    dims = len(shape)
    needs = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
    if dims not in (3, 4, 5) or mode in needs and needs[mode] != dims:
        raise ShapeRuleError(f"interpolate: mode {mode!r} does not take a {dims}-d input {show_shape(shape)}")
    n = dims - 2
    channels = shape[1]
    spatial = [s for s in shape[2:] if not isinstance(s, Variadic)]
    out: list[Size]
    if size is not None:
        if isinstance(size, Sequence):
            wanted = [as_size(s) for s in size]
        else:
            wanted = [None if isinstance(size, Unknown) else as_size(size)] * n
        if len(wanted) != n:
            raise ShapeRuleError(f"interpolate: {len(wanted)} sizes given for {n} spatial dims")
        out = wanted
    else:
        assert scale_factor is not None
        scales = list(scale_factor) if isinstance(scale_factor, Sequence) else [scale_factor] * n
        if len(scales) != n:
            raise ShapeRuleError(f"interpolate: {len(scales)} scale factors given for {n} spatial dims")
        out = [_scaled(s, f) for s, f in zip(spatial, scales)]
    area = mode == "area"
    # "area" is adaptive average pooling, which takes the mean when every output size is 1
    shortcut = area and all(const_of(o) in (1, None) for o in out)
    nonempty = [] if shortcut else [*spatial, *([channels] if not area or n == 3 else [])]
    for s in nonempty:
        assert not isinstance(s, Variadic)
        if const_of(s) == 0:
            raise ShapeRuleError(f"interpolate: the input {show_shape(shape)} is empty in a non-batch dim")
    for i, s in enumerate(out):
        value = const_of(s)
        if value is not None and (value < 0 or value == 0 and not area):
            raise ShapeRuleError(f"interpolate: output spatial dim {i} would be {s}; sizes must be positive")
    return (shape[0], shape[1], *out)


def _scaled(size: Size, factor: float) -> Size:
    if size is None:
        return None
    if size.const_value is not None:
        return const(math.floor(float(size.const_value) * factor))
    if float(factor).is_integer():
        return size * int(factor)
    # A dyadic factor (0.5, 1.5, 0.25) is exact in floating point: floor(L * m / 2**k) is (m*L) // 2**k.
    # That is `L//2**k` at every `L` for m = 1; otherwise a division left in it (`3*(L//2)` for 1.5)
    # holds only where `L` is a multiple of 2**k, of which scaling says nothing: unknown.
    num, den = float(factor).as_integer_ratio()
    if den & (den - 1) == 0 and den <= 1 << 10:
        scaled = (size * num) // den
        return scaled if num == 1 or not scaled.has_division else None
    return None
