"""Reductions and ops along one dim: `sum`/`mean`/`std`/`var`/`norm`/`amax`/`argmax`/`max(dim)`, `aminmax`,
`kthvalue`, `softmax`, `topk`, `searchsorted` / `bucketize` (a search along the last dim of sorted boundaries),
`isin`, and the statistics `histc`, `cov` / `corrcoef`."""

from __future__ import annotations

from tyr._symbolic import const
from tyr.shape_rules.core import (
    Dims,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Variadic,
    as_size,
    const_of,
    describe_dim,
    differ,
    dims_argument,
    has_elements,
    locate,
    lower_bound,
    min_rank,
    mismatch,
    never_one,
    numel,
    rank,
    show,
    show_shape,
    sizes,
    variadic_index,
)


def _reduced_positions(shape: Shape, dims: tuple[int, ...], op: str) -> list[int] | None:
    """Tuple positions of `dims` (checked for range and repeats), or None where a Variadic hides one."""
    positions: list[int] = []
    unknown = False
    for d in dims:
        pos = locate(shape, d, op)
        if pos is None:
            unknown = True
        elif pos in positions:
            raise ShapeRuleError(f"{op}: the dims {dims} name dimension {describe_dim(shape, pos)} more than once")
        else:
            positions.append(pos)
    return None if unknown else positions


def _check_nonempty(shape: Shape, positions: list[int], op: str) -> None:
    for pos in positions:
        size = shape[pos]
        assert not isinstance(size, Variadic)
        if const_of(size) == 0:
            raise ShapeRuleError(
                f"{op}: reduces dimension {describe_dim(shape, pos)}, which has size 0 "
                f"(the result would have no value); tensor {show_shape(shape)}"
            )


def _full(shape: Shape, keepdim: bool, op: str, nonempty: bool) -> MaybeShape:
    if nonempty and const_of(numel(shape)) == 0:
        raise ShapeRuleError(f"{op}: reduces all of {show_shape(shape)}, which has no elements; name a dim")
    if not keepdim:
        return ()
    if variadic_index(shape) is not None:
        return None
    return tuple(const(1) for _ in shape)


def reduce(
    shape: MaybeShape,
    dim: Dims = None,
    keepdim: bool = False,
    *,
    op: str = "sum",
    nonempty: bool = False,
    empty_dim_reduces_all: bool = True,
) -> MaybeShape:
    """A reduction over `dim`: `sum`, `mean`, `nansum`, `prod`, `std`, `var`, `norm`, `logsumexp`,
    `count_nonzero`, `any`/`all`, and (with `nonempty=True`) `amax`/`amin`, `max()`/`min()`.

    `dim` is one dim, a tuple of dims (each named once), or None for all dims.  The
    reduced dims are removed, or kept with size 1 when `keepdim`.  A 0-d tensor takes dim
    0 or -1 and stays 0-d.  `dim=()` reduces every dim (`any`/`all` reduce none:
    `empty_dim_reduces_all=False`).  `nonempty`: torch rejects reducing a dim of size 0
    (there is no maximum of nothing), and reducing everything when there are no elements.
    `op="norm"` is `torch.norm` with its default `p="fro"`, which takes at most 2 dims (use
    `op="vector_norm"` for a numeric `p`); `op="logsumexp"` with `dim=()` fails in torch for
    a non-empty tensor without `keepdim`.  `Tensor[*Batch, D].sum(-1)` is `(*Batch,)`.
    """
    if shape is None:
        return None
    dims = dims_argument(dim)
    if dims == () and not empty_dim_reduces_all:
        return shape
    if op == "norm" and dims is not None and len(dims) > 2:
        raise ShapeRuleError(f"{op}: a matrix norm (p='fro' or 'nuc') takes at most 2 dims, got {dims}; use a numeric p")
    if dims == () and op == "logsumexp" and not keepdim and shape and has_elements(shape):
        # torch reduces everything, then fails to write the 0-d result
        raise ShapeRuleError(f"{op}: dim=() fails for the non-empty {show_shape(shape)} unless keepdim=True")
    if not dims:
        return _full(shape, keepdim, op, nonempty)
    positions = _reduced_positions(shape, dims, op)
    if positions is None:
        return None
    if not shape:
        return ()
    if nonempty:
        _check_nonempty(shape, positions, op)
    if keepdim:
        return tuple(const(1) if i in positions else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in positions)


def argmax(shape: MaybeShape, dim: int | None = None, keepdim: bool = False, *, op: str = "argmax") -> MaybeShape:
    """`x.argmax(dim, keepdim)` / `argmin`: the index of the extreme value along `dim` (of the flattened
    tensor when `dim` is None, giving `()`, or all ones with `keepdim`).  The dim must not be empty."""
    return reduce(shape, dim, keepdim, op=op, nonempty=True)


def max_along(shape: MaybeShape, dim: int, keepdim: bool = False, *, op: str = "max") -> tuple[Shape, Shape] | None:
    """`x.max(dim, keepdim)` / `min` / `median(dim)` / `mode(dim)`: `(values, indices)`, both reduced over `dim`.

    The dim must not be empty (torch: "Expected reduction dim to have non-zero size")."""
    out = reduce(shape, dim, keepdim, op=op, nonempty=op in ("max", "min", "median", "mode", "nanmedian"))
    return None if out is None else (out, out)


def quantile(
    shape: MaybeShape, q: MaybeShape, dim: int | None = None, keepdim: bool = False, *, op: str = "quantile"
) -> MaybeShape:
    """`torch.quantile(x, q, dim, keepdim)` / `nanquantile`: `x` reduced over `dim` (all dims when None), with
    one leading dim of `Q` quantiles when `q` is a 1-d `(Q,)` tensor (`q=()` is a scalar).
    The input may not be empty."""
    if q is not None and rank(q) is not None and len(q) > 1:
        raise ShapeRuleError(f"{op}: q must be a scalar or a 1-d tensor, not {show_shape(q)}")
    if shape is not None and const_of(numel(shape)) == 0:
        raise ShapeRuleError(f"{op}: the input {show_shape(shape)} has no elements")
    reduced = reduce(shape, dim, keepdim, op=op)
    if reduced is None or q is None or rank(q) is None:
        return None
    return (*q, *reduced)


def along_dim(shape: MaybeShape, dim: int, *, op: str = "softmax") -> MaybeShape:
    """Ops that keep the shape and work along one dim: `softmax`, `log_softmax`, `cumsum`, `cumprod`,
    `argsort`, `sort` (values and indices).  The dim must exist (a 0-d tensor takes 0 and -1), except
    for `cummax` / `cummin` of a tensor that may be empty: torch returns that as it is, for any dim."""
    if shape is None:
        return None
    if op in ("cummax", "cummin") and not has_elements(shape):
        return shape
    locate(shape, dim, op)
    return shape


def renorm(shape: MaybeShape, dim: int, *, op: str = "renorm") -> MaybeShape:
    """`x.renorm(p, dim, maxnorm)`: the shape kept; torch renorms the slices along `dim`, of 2 dims or more."""
    if shape is not None and rank(shape) is not None and len(shape) < 2:
        raise ShapeRuleError(f"{op}: the input must have at least 2 dims, not {show_shape(shape)}")
    return along_dim(shape, dim, op=op)


def topk(shape: MaybeShape, k: SizeArg, dim: int = -1, *, op: str = "topk") -> tuple[Shape, Shape] | None:
    """`x.topk(k, dim)`: `(values, indices)` with dim `dim` of size `k`.

    `k` must be between 0 and the dim's size (a 0-d tensor counts as size 1)."""
    count = as_size(k)
    if shape is None:
        return None
    pos = _count_along(shape, count, dim, 0, op)
    if pos is None:
        return None
    if not shape:
        return ((), ())
    out = (*shape[:pos], count, *shape[pos + 1 :])
    return (out, out)


def kthvalue(
    shape: MaybeShape, k: SizeArg, dim: int = -1, keepdim: bool = False, *, op: str = "kthvalue"
) -> tuple[Shape, Shape] | None:
    """`x.kthvalue(k, dim, keepdim)`: `(values, indices)`, both reduced over `dim`.

    `k` counts from 1 to the dim's size (a 0-d tensor counts as size 1)."""
    if shape is not None:
        _count_along(shape, as_size(k), dim, 1, op)
    out = reduce(shape, dim, keepdim, op=op)
    return None if out is None else (out, out)


def aminmax(shape: MaybeShape, dim: int | None = None, keepdim: bool = False) -> tuple[Shape, Shape] | None:
    """`x.aminmax(dim=..., keepdim=...)`: `(min, max)`, both reduced over `dim` (all dims when None), not empty."""
    out = reduce(shape, dim, keepdim, op="aminmax", nonempty=True)
    return None if out is None else (out, out)


def _count_along(shape: Shape, count: Size, dim: int, least: int, op: str) -> int | None:
    """The position of `dim`, after checking that `count` lies between `least` and the dim's size."""
    pos = locate(shape, dim, op)
    if pos is None:
        return None
    item = shape[pos] if shape else const(1)
    assert not isinstance(item, Variadic)
    n, c = const_of(item), const_of(count)
    # `k` past the dim's size at every size (`t + 1` of a dim `T`) is as wrong as a constant one
    excess = lower_bound(count - item) if count is not None and item is not None else None
    if c is not None and (c < least or n is not None and c > n) or excess is not None and excess >= 1:
        raise ShapeRuleError(
            f"{op}: k ({show(count)}) must be between {least} and the size of dimension {dim} ({show(item)})"
        )
    return pos


def multinomial(shape: MaybeShape, num_samples: SizeArg, replacement: bool = False) -> MaybeShape:
    """`torch.multinomial(probs, num_samples, replacement)`: `(n,)` of a `(C,)` input, `(B, n)` of `(B, C)`.

    At least one sample; without replacement no more samples than categories.
    """
    op = "multinomial"
    n = as_size(num_samples)
    if (const_of(n) or 0) < 0 or const_of(n) == 0:
        raise ShapeRuleError(f"{op}: num_samples must be positive, got {show(n)}")
    if shape is None:
        return None
    r = rank(shape)
    if r is not None and r not in (1, 2) or min_rank(shape) > 2:
        raise ShapeRuleError(f"{op}: the probabilities must be 1-d or 2-d, not {show_shape(shape)}")
    if r is None:
        return None
    categories = shape[-1]
    assert not isinstance(categories, Variadic)
    rows = shape[0] if len(shape) == 2 else const(1)
    assert not isinstance(rows, Variadic)
    low = lower_bound(rows) if rows is not None else None
    if const_of(categories) == 0 and low is not None and low >= 1:
        raise ShapeRuleError(f"{op}: the probabilities {show_shape(shape)} have no categories to sample from")
    if not replacement and n is not None and categories is not None:
        low = lower_bound(n - categories)
        if low is not None and low >= 1:
            raise ShapeRuleError(
                f"{op}: {show(n)} samples without replacement from {show(categories)} categories"
            )
    return (*shape[:-1], n)


def searchsorted(sorted_sequence: MaybeShape, values: MaybeShape, sorter: MaybeShape = None) -> MaybeShape:
    """`torch.searchsorted(sorted_sequence, values, sorter=...)`: an index per value, in the shape of `values`
    (a Python number is a 0-d `values`).

    A 1-d `sorted_sequence` takes `values` of any shape; one of N >= 2 dims holds a sorted row per
    leading index, so `values` must have N dims too, the first N - 1 of the same sizes (not
    broadcast).  A 0-d `values` needs a 1-d `sorted_sequence`; a `sorter` has the shape of
    `sorted_sequence` exactly.
    """
    op = "searchsorted"
    if sorted_sequence is None:
        return values
    if sorter is not None and variadic_index(sorter) is None and variadic_index(sorted_sequence) is None:
        if len(sorter) != len(sorted_sequence) or any(map(differ, sizes(sorter), sizes(sorted_sequence))):
            raise ShapeRuleError(
                f"{op}: the sorter {show_shape(sorter)} must have the shape of sorted_sequence "
                f"{show_shape(sorted_sequence)}"
            )
    n, least = rank(sorted_sequence), min_rank(sorted_sequence)
    if n == 0:
        raise ShapeRuleError(f"{op}: sorted_sequence must have at least 1 dim, got a 0-d tensor")
    if values is None or least < 2:
        if values is not None and rank(values) == 0 and n is not None and n != 1:
            raise ShapeRuleError(f"{op}: a 0-d value needs a 1-d sorted_sequence, not {show_shape(sorted_sequence)}")
        return values
    m = rank(values)
    if m == 0:
        raise ShapeRuleError(f"{op}: a 0-d value needs a 1-d sorted_sequence, not {show_shape(sorted_sequence)}")
    if (n is not None and min_rank(values) > n) or (m is not None and least > m) or (n is not None and m not in (None, n)):
        raise ShapeRuleError(
            f"{op}: values {show_shape(values)} must have the {n if n is not None else least} dims of "
            f"sorted_sequence {show_shape(sorted_sequence)}"
        )
    if n is not None and m is not None:
        for i, (a, b) in enumerate(zip(sizes(sorted_sequence)[:-1], sizes(values)[:-1])):
            if differ(a, b):
                raise mismatch(op, "sorted_sequence", str(i), a, "values", str(i), b)
    return values


def bucketize(input: MaybeShape, boundaries: MaybeShape) -> MaybeShape:
    """`torch.bucketize(input, boundaries)`: a bucket index per element of `input` (a Python number is 0-d),
    in its shape; `boundaries` must be 1-d."""
    if boundaries is not None:
        n = rank(boundaries)
        if n is not None and n != 1 or min_rank(boundaries) > 1:
            raise ShapeRuleError(f"bucketize: the boundaries must be 1-d, not {show_shape(boundaries)}")
    return input


def isin(elements: MaybeShape, test_elements: MaybeShape) -> MaybeShape:
    """`torch.isin(elements, test_elements)`: whether each element is among the test elements, in the shape of
    `elements` (a Python number is 0-d); `test_elements` may have any shape."""
    return elements


def histc(shape: MaybeShape, bins: SizeArg = 100) -> MaybeShape:
    """`torch.histc(x, bins)`: a histogram of all the elements, `(bins,)`; `bins` must be positive."""
    count = as_size(bins)
    value = const_of(count)
    if value is not None and value <= 0:
        raise ShapeRuleError(f"histc: bins must be positive, got {value}")
    return (count,)


def cov(shape: MaybeShape, fweights: MaybeShape = None, aweights: MaybeShape = None, *, op: str = "cov") -> MaybeShape:
    """`torch.cov(x, fweights=..., aweights=...)` / `corrcoef(x)`: `x` is at most 2-d, `(V, O)` (one row per
    variable, one column per observation; 1-d or 0-d: one variable); the `(V, V)` matrix, squeezed, so
    one variable gives `()`.  A weight is at most 1-d, one per observation (none at all sum to zero: an error)."""
    if shape is None:
        return None
    if min_rank(shape) > 2:
        raise ShapeRuleError(f"{op}: the input must have at most 2 dims, not {show_shape(shape)}")
    n = rank(shape)
    if n is None:
        return None
    observations = const(1) if n == 0 else sizes(shape)[-1]
    for name, weights in (("fweights", fweights), ("aweights", aweights)):
        if weights is None:
            continue
        if const_of(observations) == 0:
            raise ShapeRuleError(f"{op}: {name} for no observations sum to zero, which cannot be normalised")
        if min_rank(weights) > 1:
            raise ShapeRuleError(f"{op}: {name} must have at most 1 dim, not {show_shape(weights)}")
        if rank(weights) is not None and differ(numel(weights), observations):
            raise ShapeRuleError(
                f"{op}: {name} {show_shape(weights)} must hold one weight per observation, {show(observations)} "
                f"(the last dim of the input {show_shape(shape)})"
            )
    if n < 2:
        return ()
    variables = sizes(shape)[0]
    if const_of(variables) == 1:
        return ()
    return (variables, variables) if never_one(variables) else None
