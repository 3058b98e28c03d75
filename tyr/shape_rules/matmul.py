"""Products and dim reorderings: `@`/`matmul`, `F.linear`, `outer`, `inner`, `trace`, `F.bilinear`, `tensordot`,
`kron`, `cross`, `einsum`, `.T`, `.mT`, `transpose`, `permute`."""

from __future__ import annotations

from collections.abc import Sequence

from tyr._symbolic import const
from tyr.shape_rules.broadcast import broadcast_shapes, broadcast_sizes, broadcasts_to
from tyr.shape_rules.core import (
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    Variadic,
    const_of,
    describe_dim,
    differ,
    distinct_positions,
    has_elements,
    is_one,
    locate,
    min_rank,
    mismatch,
    never_one,
    numel,
    rank,
    same,
    show,
    show_shape,
    sizes,
    variadic_index,
    wrap_dim,
)


def _after_variadic(shape: Shape) -> int:
    """How many dims at the end of `shape` are fixed (all of them when it has no Variadic)."""
    v = variadic_index(shape)
    return len(shape) if v is None else len(shape) - v - 1


def _before_variadic(shape: Shape) -> int:
    """How many dims at the start of `shape` are fixed (all of them when it has no Variadic)."""
    v = variadic_index(shape)
    return len(shape) if v is None else v


def _size(shape: Shape, pos: int) -> Size:
    item = shape[pos]
    assert not isinstance(item, Variadic)
    return item


def _check_contraction(op: str, a: Shape, a_pos: int, b: Shape, b_pos: int, names: tuple[str, str]) -> None:
    ka, kb = _size(a, a_pos), _size(b, b_pos)
    if differ(ka, kb):
        raise mismatch(op, names[0], describe_dim(a, a_pos), ka, names[1], describe_dim(b, b_pos), kb)


def matmul(a: MaybeShape, b: MaybeShape, *, op: str = "matmul") -> MaybeShape:
    """`a @ b` / `torch.matmul(a, b)`.

    * 1-d @ 1-d `(K,) @ (K,)` is a dot product: `()`.
    * 2-d @ 2-d `(N, K) @ (K, M)` is `(N, M)`; a 1-d left operand `(K,)` acts as `(1, K)` and a
      1-d right operand `(K,)` as `(K, 1)`, and the added dim is removed from the result.
    * Dims before the last two are batch dims and broadcast: `(*A, N, K) @ (*B, K, M)` is
      `(*broadcast(A, B), N, M)`.
    * The contracted sizes must be equal (no broadcasting); 0-d operands are rejected.

    `Tensor[*Batch, D] @ Tensor[D, E]` is `(*Batch, E)` whether `Batch` is empty or not.
    """
    if a is None or b is None:
        return None
    names = ("the left operand", "the right operand")
    for shape, name in zip((a, b), names):
        if rank(shape) == 0:
            raise ShapeRuleError(f"{op}: {name} is 0-d; both arguments to matmul need at least 1 dimension")
    fixed_a, fixed_b = _after_variadic(a), _after_variadic(b)
    b_vector = rank(b) == 1
    b_matrix = fixed_b >= 2
    if not (b_vector or b_matrix) or fixed_a == 0:
        return None  # where the contracted dims are depends on a Variadic's length
    b_k = len(b) - (1 if b_vector else 2)
    _check_contraction(op, a, len(a) - 1, b, b_k, names)
    tail_b: Shape = () if b_vector else (b[-1],)
    if rank(a) == 1:
        # (K,) @ (*B, K, M) is (*B, M); (K,) @ (K,) is ().
        return (*b[:-2], *tail_b)
    if fixed_a == 1:
        # a is (..., *V, K): a matrix whose rows are the Variadic's last dim, or a vector when the
        # Variadic is empty.  Both give (*V, M) (or (*V,)) exactly when b has no batch dims.
        if variadic_index(a) == 0 and (b_vector or rank(b) == 2):
            return (*a[:-1], *tail_b)
        return None
    batch = broadcast_shapes(a[:-2], b[:-2], op=f"{op} (batch dimensions)", operands=names)
    if batch is None:
        return None
    return (*batch, a[-2], *tail_b)


def _exact_rank(shape: MaybeShape, n: int, op: str, name: str) -> tuple[Size, ...] | None:
    """The sizes of an operand that must have exactly `n` dims; None when unknown (or open, past a Variadic)."""
    if shape is None:
        return None
    if variadic_index(shape) is None and len(shape) != n or min_rank(shape) > n:
        what = {1: "a vector (1-d)", 2: "a matrix (2-d)", 3: "a batch of matrices (3-d)"}[n]
        raise ShapeRuleError(f"{op}: {name} must be {what}, not {show_shape(shape)}")
    if variadic_index(shape) is not None:
        return None
    return sizes(shape)


def mm(a: MaybeShape, b: MaybeShape, *, op: str = "mm") -> MaybeShape:
    """`torch.mm(a, b)`: matrices only (no vectors, no batches, unlike `matmul`): `(N, K) @ (K, M)` is `(N, M)`."""
    names = ("the first matrix", "the second matrix")
    x, y = _exact_rank(a, 2, op, names[0]), _exact_rank(b, 2, op, names[1])
    if x is None or y is None:
        return None
    _check_contraction(op, x, 1, y, 0, names)
    return (x[0], y[1])


def bmm(a: MaybeShape, b: MaybeShape, *, op: str = "bmm") -> MaybeShape:
    """`torch.bmm(a, b)`: batches of matrices, 3-d each, equal batch sizes (no broadcasting): `(B, N, M)`."""
    names = ("the first batch", "the second batch")
    x, y = _exact_rank(a, 3, op, names[0]), _exact_rank(b, 3, op, names[1])
    if x is None or y is None:
        return None
    _check_contraction(op, x, 0, y, 0, names)
    _check_contraction(op, x, 2, y, 1, names)
    return (x[0], x[1], y[2])


def mv(a: MaybeShape, v: MaybeShape, *, op: str = "mv") -> MaybeShape:
    """`torch.mv(a, v)`: a matrix `(N, K)` times a vector `(K,)` is `(N,)`."""
    names = ("the matrix", "the vector")
    x, y = _exact_rank(a, 2, op, names[0]), _exact_rank(v, 1, op, names[1])
    if x is None or y is None:
        return None
    _check_contraction(op, x, 1, y, 0, names)
    return (x[0],)


def dot(a: MaybeShape, b: MaybeShape, *, op: str = "dot") -> MaybeShape:
    """`torch.dot(a, b)` / `vdot`: two vectors of one size give a 0-d tensor."""
    names = ("the first vector", "the second vector")
    x, y = _exact_rank(a, 1, op, names[0]), _exact_rank(b, 1, op, names[1])
    if x is not None and y is not None:
        _check_contraction(op, x, 0, y, 0, names)
    return ()


def _added_to(op: str, input: MaybeShape, product: MaybeShape) -> MaybeShape:
    """`input + product` where `input` must broadcast to the product's shape without growing it."""
    broadcasts_to(input, product, op=op)
    if input is None or product is None:
        return product
    out = broadcast_shapes(input, product, op=op, operands=("the input", "the product"))
    return out if out is not None and len(out) == len(product) else product


def _written_into(op: str, input: MaybeShape, product: MaybeShape, n: int) -> MaybeShape:
    """`input.addmm_(a, b)`, `baddbmm_`, `addmv_`, `addr_`: the product, of `n` dims, is added to `input` in
    place, which torch allows only where the two shapes are equal: `input` is not broadcast, not even a
    dim of size 1 (`Bad in-place call`).  The result is `input`, its unknown sizes the product's."""
    if input is not None and (variadic_index(input) is None and len(input) != n or min_rank(input) > n):
        raise ShapeRuleError(
            f"{op}: the input {show_shape(input)} must have the product's {n} dims, as the result is written into it"
        )
    if input is None or variadic_index(input) is not None:
        return product if input is None else input
    if product is None:
        return input
    for pos, (x, y) in enumerate(zip(sizes(input), sizes(product), strict=True)):
        if differ(x, y):
            raise ShapeRuleError(
                f"{op}: dimension {pos} of the input ({show(x)}) must be the product's size {show(y)}, as the result "
                f"is written into the input without broadcasting; shapes {show_shape(input)} and {show_shape(product)}"
            )
    return tuple(x if x is not None else y for x, y in zip(sizes(input), sizes(product), strict=True))


def addmm(input: MaybeShape, a: MaybeShape, b: MaybeShape, *, op: str = "addmm", in_place: bool = False) -> MaybeShape:
    """`torch.addmm(input, a, b)`: `mm(a, b)`, `(N, M)`, plus an `input` that broadcasts to it (`addmm_`: that
    has its shape)."""
    if in_place:
        return _written_into(op, input, mm(a, b, op=op), 2)
    return _added_to(op, input, mm(a, b, op=op))


def baddbmm(
    input: MaybeShape, a: MaybeShape, b: MaybeShape, *, op: str = "baddbmm", in_place: bool = False
) -> MaybeShape:
    """`torch.baddbmm(input, a, b)`: `bmm(a, b)`, `(B, N, M)`, plus an `input` that broadcasts to it (`baddbmm_`:
    that has its shape)."""
    if in_place:
        return _written_into(op, input, bmm(a, b, op=op), 3)
    return _added_to(op, input, bmm(a, b, op=op))


def addbmm(
    input: MaybeShape, a: MaybeShape, b: MaybeShape, *, op: str = "addbmm", in_place: bool = False
) -> MaybeShape:
    """`torch.addbmm(input, a, b)`: `bmm(a, b)` summed over the batch, `(N, M)`, plus an `input` broadcast to it.

    `addbmm_` is the same on CPU and CUDA: torch resizes an `input` that broadcasts to `(N, M)` (a
    `(M,)` or 0-d one) to that shape, so its result too is `(N, M)`, not the input's shape.  (Where
    the resize keeps the input's memory, an `(M,)` input for a product of `(1, M)`, torch refuses the
    overlap of the expanded input and the result: a verdict on memory, not checked here.)
    """
    product = bmm(a, b, op=op)
    return _added_to(op, input, None if product is None else product[1:])


def addmv(
    input: MaybeShape, a: MaybeShape, v: MaybeShape, *, op: str = "addmv", in_place: bool = False
) -> MaybeShape:
    """`torch.addmv(input, a, v)`: `mv(a, v)`, `(N,)`, plus an `input` that broadcasts to it (`addmv_`: that
    has its shape, even for an empty matrix).

    An empty matrix is a shortcut in torch: the result is then `input` (times `beta`), whatever
    its shape, so the result is unknown unless the matrix is provably empty or not.
    """
    if in_place:
        return _written_into(op, input, mv(a, v, op=op), 1)
    out = _added_to(op, input, mv(a, v, op=op))
    if has_elements(a):
        return out
    if a is not None and const_of(numel(a)) == 0:
        return input
    if input is None or out is None or rank(input) != len(out):
        return None
    return out if all(same(x, y) for x, y in zip(sizes(input), sizes(out))) else None


def addr(input: MaybeShape, u: MaybeShape, v: MaybeShape, *, op: str = "addr", in_place: bool = False) -> MaybeShape:
    """`torch.addr(input, u, v)`: the outer product of two vectors, `(N, M)`, plus an `input` broadcast to it
    (`addr_`: that has its shape)."""
    x, y = _exact_rank(u, 1, op, "the first vector"), _exact_rank(v, 1, op, "the second vector")
    product = None if x is None or y is None else (x[0], y[0])
    if in_place:
        return _written_into(op, input, product, 2)
    return _added_to(op, input, product)


def cdist(a: MaybeShape, b: MaybeShape) -> MaybeShape:
    """`torch.cdist(a, b)`: the distances between the rows of `(*A, P, M)` and `(*B, R, M)`, `(*broadcast, P, R)`."""
    op = "cdist"
    names = ("x1", "x2")
    for shape, name in zip((a, b), names):
        if shape is not None and rank(shape) is not None and len(shape) < 2:
            raise ShapeRuleError(f"{op}: {name} must have at least 2 dims (rows, columns), not {show_shape(shape)}")
    if a is None or b is None or _after_variadic(a) < 2 or _after_variadic(b) < 2:
        return None
    _check_contraction(op, a, len(a) - 1, b, len(b) - 1, names)
    batch = broadcast_shapes(a[:-2], b[:-2], op=f"{op} (batch dimensions)", operands=names)
    return None if batch is None else (*batch, a[-2], b[-2])


def linear(input: MaybeShape, weight: MaybeShape, bias: MaybeShape = None, *, has_bias: bool = False) -> MaybeShape:
    """`F.linear(input, weight, bias)`: `input @ weight.T + bias`.

    `input` is `(*, in_features)`; `weight` is `(out_features, in_features)` (or `(in_features,)`,
    which drops the last dim); the result is `(*, out_features)`.  A bias of shape `()`,
    `(1,)` or `(out_features,)` is exact for every input; torch accepts a bias of two or
    more dims or not depending on the input's memory layout, so the result is then unknown.
    Pass `has_bias=True` when a bias is given but its shape is unknown.
    """
    if input is not None and rank(input) == 0 or weight is not None and rank(weight) == 0:
        raise ShapeRuleError("linear: the input and the weight need at least 1 dimension each")
    if weight is not None and min_rank(weight) > 2:
        raise ShapeRuleError(f"linear: the weight {show_shape(weight)} must have 1 or 2 dimensions")
    if input is None or weight is None or variadic_index(weight) is not None:
        return None
    w = sizes(weight)
    if _after_variadic(input) >= 1:
        _check_contraction("linear", input, len(input) - 1, weight, len(w) - 1, ("the input", "the weight"))
    out = matmul(input, (w[1], w[0]) if len(w) == 2 else w, op="linear")
    if bias is None:
        return None if has_bias else out
    if variadic_index(bias) is not None:
        return None
    b = sizes(bias)
    input_rank = rank(input)
    if len(w) == 1:
        if input_rank == 2 or input_rank == 1 and b:
            raise ShapeRuleError(
                f"linear: with a 1-d weight torch takes a bias only for an input that is not 2-d, and then "
                f"only a 0-d one; got input {show_shape(input)} and bias {show_shape(bias)}"
            )
        return out if not b and input_rank is not None else None
    if len(b) >= 2:
        return None  # torch accepts it or not depending on the input's layout
    if len(b) == 1 and differ(b[0], w[0]) and not is_one(b[0]):
        raise ShapeRuleError(
            f"linear: the bias has {show(b[0])} features but the weight has {show(w[0])} outputs"
        )
    return out


def outer(a: MaybeShape, b: MaybeShape) -> MaybeShape:
    """`torch.outer(a, b)`: both 1-d, `(N,)` and `(M,)` give `(N, M)`."""
    for shape, name in ((a, "the first argument"), (b, "the second argument")):
        if shape is not None and variadic_index(shape) is None and len(shape) != 1:
            raise ShapeRuleError(f"outer: {name} must be 1-d, not {show_shape(shape)}")
    if a is None or b is None or variadic_index(a) is not None or variadic_index(b) is not None:
        return None
    return (a[0], b[0])


def inner(a: MaybeShape, b: MaybeShape) -> MaybeShape:
    """`torch.inner(a, b)`: a sum over the last dims, which must be equal (no broadcasting), giving
    `a.shape[:-1] + b.shape[:-1]`; a 0-d operand scales the other, whose shape it is."""
    if a == ():
        return b
    if b == ():
        return a
    if a is None or b is None or min_rank(a) == 0 or min_rank(b) == 0:
        return None  # either may be 0-d
    names = ("the first tensor", "the second tensor")
    if _after_variadic(a) >= 1 and _after_variadic(b) >= 1:
        _check_contraction("inner", a, len(a) - 1, b, len(b) - 1, names)
    if isinstance(a[-1], Variadic) or isinstance(b[-1], Variadic) or (
        variadic_index(a) is not None and variadic_index(b) is not None
    ):
        return None
    return (*a[:-1], *b[:-1])


def trace(shape: MaybeShape) -> MaybeShape:
    """`torch.trace(x)`: the sum of a matrix's diagonal, a 0-d tensor."""
    _exact_rank(shape, 2, "trace", "the input")
    return ()


def _bilinear_weight(weight: MaybeShape, op: str) -> tuple[Size, ...] | None:
    """The weight's `(out, in1, in2)`.  torch never checks its rank: a weight of more dims that may be
    empty reaches no contraction and is read by its first three (`(0, 1, 1, 5)` gives `(*, 0)`)."""
    if weight is not None and variadic_index(weight) is None and len(weight) > 3 and not has_elements(weight):
        return sizes(weight)[:3]
    return _exact_rank(weight, 3, op, "the weight")


def bilinear(input1: MaybeShape, input2: MaybeShape, weight: MaybeShape, bias: MaybeShape = None,
             *, has_bias: bool = False) -> MaybeShape:
    """`F.bilinear(x1, x2, weight, bias)` / `nn.Bilinear(in1, in2, out)`: `(*, in1)` and `(*, in2)` with the same
    leading dims, and a weight `(out, in1, in2)`, give `(*, out)`; a bias is `(out,)`.

    The feature dims must not be empty (torch reshapes each input to `(-1, features)`).  Pass
    `has_bias=True` when a bias is given (`bias=None` then means its shape is unknown): its first dim
    must be `out`, and it is added to the product, broadcasting.
    """
    op = "bilinear"
    w = _bilinear_weight(weight, op)
    names = ("input1", "input2")
    for shape, name in zip((input1, input2), names):
        if shape is not None and rank(shape) == 0:
            raise ShapeRuleError(f"{op}: {name} must have at least 1 dimension, not {show_shape(shape)}")
    if input1 is None or input2 is None:
        return None
    r1, r2 = rank(input1), rank(input2)
    if r1 is not None and r2 is not None:
        if r1 != r2:
            raise ShapeRuleError(
                f"{op}: input1 {show_shape(input1)} and input2 {show_shape(input2)} must have as many dimensions"
            )
        for i in range(r1 - 1):
            _check_contraction(op, input1, i, input2, i, names)
    for shape, name, k in ((input1, "input1", 1), (input2, "input2", 2)):
        if _after_variadic(shape) < 1:
            continue
        last = shape[-1]
        assert not isinstance(last, Variadic)
        if last is not None and last.const_value == 0:
            raise ShapeRuleError(f"{op}: {name} {show_shape(shape)} has no features (its last dimension is 0)")
        if w is not None:
            _check_contraction(op, shape, len(shape) - 1, w, k, (name, "the weight"))
    if bias is not None and rank(bias) == 0:
        raise ShapeRuleError(f"{op}: the bias must have at least 1 dimension, not {show_shape(bias)}")
    if bias is not None and w is not None and _before_variadic(bias) >= 1:
        _check_contraction(op, bias, 0, w, 0, ("the bias", "the weight"))
    out = None if w is None else w[0]
    if _after_variadic(input1) >= 1:
        result: MaybeShape = (*input1[:-1], out)
    elif _after_variadic(input2) >= 1:
        result = (*input2[:-1], out)
    else:
        return None
    if has_bias:  # added, broadcasting: a bias `(out, 1)` passes torch's check and widens the result
        return broadcast_shapes(result, bias, op=op, operands=("the product", "the bias"))
    return result


def tensordot(a: MaybeShape, b: MaybeShape, dims: int | tuple[Sequence[int], Sequence[int]]) -> MaybeShape:
    """`torch.tensordot(a, b, dims)`: the dims `dims` names contracted, the rest of `a` then the rest of `b`.

    An int `k` contracts the last `k` dims of `a` with the first `k` of `b`; a pair of lists
    names them.  Contracted sizes must be equal, or one of them 1.
    """
    op = "tensordot"
    if isinstance(dims, int):
        if dims < 0:
            raise ShapeRuleError(f"{op}: dims must be non-negative, got {dims}")
        for shape, name in ((a, "the first tensor"), (b, "the second tensor")):
            if shape is not None and rank(shape) is not None and dims > len(shape):
                raise ShapeRuleError(f"{op}: cannot contract {dims} dims of {name} {show_shape(shape)}")
        if a is None or b is None or _after_variadic(a) < dims or _before_variadic(b) < dims:
            return None
        pa: list[int | None] = list(range(len(a) - dims, len(a)))
        pb: list[int | None] = list(range(dims))
    else:
        da, db = dims
        if len(da) != len(db):
            raise ShapeRuleError(f"{op}: the two lists of dims must have the same length, got {list(da)} and {list(db)}")
        if a is None or b is None:
            return None
        pa = distinct_positions(a, da, op, scalar_as_1d=False)
        pb = distinct_positions(b, db, op, scalar_as_1d=False)
    if any(p is None for p in pa + pb) or (variadic_index(a) is not None and variadic_index(b) is not None):
        return None
    for i, j in zip(pa, pb):
        assert i is not None and j is not None
        x, y = _size(a, i), _size(b, j)
        if not broadcast_sizes(x, y)[0]:
            raise mismatch(op, "the first tensor", describe_dim(a, i), x, "the second tensor", describe_dim(b, j), y)
    return (*(s for k, s in enumerate(a) if k not in pa), *(s for k, s in enumerate(b) if k not in pb))


def _first_of_size_3(shape: MaybeShape, op: str) -> int | None:
    """The dim `torch.cross` picks when given none: the input's first of size 3 (None where not evident)."""
    if shape is None or rank(shape) is None:
        return None
    for i, size in enumerate(sizes(shape)):
        value = None if size is None else size.const_value
        if value == 3:
            return i
        if value is None:
            return None  # this one may be 3
    raise ShapeRuleError(f"{op}: the input {show_shape(shape)} has no dimension of size 3")


def kron(a: MaybeShape, b: MaybeShape) -> MaybeShape:
    """`torch.kron(a, b)`: shapes aligned at their last dims (the shorter padded with 1s), sizes multiplied."""
    if a is None or b is None or rank(a) is None or rank(b) is None:
        return None
    n = max(len(a), len(b))
    one = const(1)
    left, right = (one,) * (n - len(a)) + sizes(a), (one,) * (n - len(b)) + sizes(b)
    return tuple(None if x is None or y is None else x * y for x, y in zip(left, right))


def cross(a: MaybeShape, b: MaybeShape, dim: int | None) -> MaybeShape:
    """`torch.cross(a, b, dim)` / `torch.linalg.cross`: two tensors of one number of dims, broadcast, 3 along `dim`.

    With `dim=None` (`torch.cross`'s deprecated default) torch picks the first dim of size 3;
    the shape is the broadcast one either way.
    """
    op = "cross"
    if a is not None and b is not None and rank(a) is not None and rank(b) is not None and len(a) != len(b):
        raise ShapeRuleError(
            f"{op}: the inputs must have the same number of dims, not {show_shape(a)} and {show_shape(b)}"
        )
    out = broadcast_shapes(a, b, op=op, operands=("input", "other"))
    if dim is None:
        dim = _first_of_size_3(a, op)
        if dim is None:
            return out
    for shape, name in ((a, "input"), (b, "other")):
        if shape is None or rank(shape) is None:
            continue
        size = _size(shape, wrap_dim(dim, len(shape), op, scalar_as_1d=False))
        if size is not None and size.const_value is not None and size.const_value != 3:
            raise ShapeRuleError(f"{op}: dimension {dim} of {name} {show_shape(shape)} must be 3, not {show(size)}")
    return out


# -- reordering dims -----------------------------------------------------------------------------


def transpose(shape: MaybeShape, dim0: int, dim1: int) -> MaybeShape:
    """`x.transpose(dim0, dim1)` / `swapaxes`: the two dims trade places (a 0-d tensor takes 0 and -1)."""
    if shape is None:
        return None
    p0, p1 = locate(shape, dim0, "transpose"), locate(shape, dim1, "transpose")
    if p0 is None or p1 is None:
        return None
    if not shape:
        return ()
    out = list(shape)
    out[p0], out[p1] = shape[p1], shape[p0]
    return tuple(out)


def permute(shape: MaybeShape, dims: Sequence[int]) -> MaybeShape:
    """`x.permute(*dims)`: dim `i` of the result is dim `dims[i]` of `x`; `dims` names every dim once."""
    if shape is None:
        return None
    if variadic_index(shape) is not None:
        if len(dims) < min_rank(shape):
            raise ShapeRuleError(
                f"permute: {len(dims)} dims given for a tensor with at least {min_rank(shape)}: {show_shape(shape)}"
            )
        return None
    if len(dims) != len(shape):
        raise ShapeRuleError(
            f"permute: {len(dims)} dims given for a {len(shape)}-d tensor {show_shape(shape)}; name each dim once"
        )
    wrapped = [wrap_dim(d, len(shape), "permute") for d in dims]
    if len(set(wrapped)) != len(wrapped):
        raise ShapeRuleError(f"permute: dims {tuple(dims)} name a dim more than once")
    return tuple(shape[d] for d in wrapped)


def T(shape: MaybeShape) -> MaybeShape:
    """`x.T`: all dims reversed (torch deprecates it, with a warning, for tensors that are not 2-d)."""
    if shape is None or variadic_index(shape) is not None:
        return None
    return tuple(reversed(shape))


def t(shape: MaybeShape) -> MaybeShape:
    """`x.t()`: a 2-d tensor transposed; 0-d and 1-d tensors are returned as they are."""
    if shape is None:
        return None
    if min_rank(shape) > 2:
        raise ShapeRuleError(f"t: expects a tensor with at most 2 dimensions, not {show_shape(shape)}")
    if variadic_index(shape) is not None:
        return None
    return tuple(reversed(shape))


def mT(shape: MaybeShape, *, op: str = "mT") -> MaybeShape:
    """`x.mT` / `x.mH` / `x.adjoint()`: the last two dims swapped, for tensors of at least 2 dims (batches
    of matrices).

    A 0-d tensor is returned as it is (torch warns that this is deprecated); 1-d is an error.
    """
    if shape is None:
        return None
    if rank(shape) == 0:
        return ()
    if rank(shape) == 1:
        raise ShapeRuleError(f"{op}: needs a matrix or a batch of matrices, not {show_shape(shape)}")
    if _after_variadic(shape) < 2:
        return None
    return (*shape[:-2], shape[-1], shape[-2])


# -- einsum ----------------------------------------------------------------------------------------


def _parse_operand(text: str, what: str) -> tuple[list[str], list[str] | None]:
    """The labels of one operand's subscripts: before and after its ellipsis (None if it has none)."""
    text = text.replace(" ", "")
    if text.count("...") > 1 or text.replace("...", "").count("."):
        raise ShapeRuleError(f"einsum: a '.' in {what} is not part of a single ellipsis '...'")
    before, sep, after = text.partition("...")
    for label in before + after:
        if not (label.isascii() and label.isalpha()):
            raise ShapeRuleError(f"einsum: subscript {label!r} in {what} is not a letter in [a-zA-Z]")
    return list(before), (list(after) if sep else None)


def einsum(equation: str, shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.einsum(equation, *operands)` for a literal equation.

    Each operand's subscripts name its dims (an ellipsis `...` stands for the dims it does
    not name); a label repeated within an operand takes its diagonal (the sizes must be
    equal); across operands a label's sizes must be equal or 1 (broadcast), and the
    ellipsis dims broadcast.  Without `->` the output is the ellipsis dims, then the labels
    used exactly once, in sorted order (upper case first).
    """
    inputs_text, arrow, output_text = equation.partition("->")
    if "->" in output_text or "-" in inputs_text or ">" in inputs_text or "-" in output_text:
        raise ShapeRuleError(f"einsum: the equation {equation!r} is malformed")
    operand_texts = inputs_text.split(",")
    if len(operand_texts) != len(shapes):
        raise ShapeRuleError(
            f"einsum: the equation {equation!r} has {len(operand_texts)} operands but {len(shapes)} were given"
        )
    parsed = [_parse_operand(t, f"operand {i}") for i, t in enumerate(operand_texts)]
    label_size: dict[str, Size] = {}
    label_from: dict[str, str] = {}
    ellipses: list[MaybeShape] = []
    unknown = False  # an operand of unknown shape, or whose subscripts reach into its Variadic
    unknown_labels: set[str] = set()
    counts: dict[str, int] = {}
    for i, ((before, after), shape) in enumerate(zip(parsed, shapes)):
        for label in before + (after or []):
            counts[label] = counts.get(label, 0) + 1
        named = len(before) + len(after or [])
        if shape is None:
            unknown = True
            unknown_labels.update(before + (after or []))
            continue
        v = variadic_index(shape)
        if after is None:
            if v is None and len(shape) != named or v is not None and min_rank(shape) > named:
                raise ShapeRuleError(
                    f"einsum: operand {i} {show_shape(shape)} has {len(shape) if v is None else 'more'} dims but "
                    f"its subscripts {operand_texts[i].strip()!r} name {named} and there is no ellipsis"
                )
            if v is not None:
                unknown = True
                unknown_labels.update(before)
                continue
            dims: list[tuple[str, int]] = list(zip(before, range(len(shape))))
        else:
            if min_rank(shape) < named:
                raise ShapeRuleError(
                    f"einsum: operand {i} {show_shape(shape)} has fewer dims than the {named} its subscripts "
                    f"{operand_texts[i].strip()!r} name"
                )
            if v is not None and (v < len(before) or len(shape) - v - 1 < len(after)):
                unknown = True  # the subscripts reach into the Variadic
                unknown_labels.update(before + after)
                continue
            start = len(shape) - len(after)
            dims = list(zip(before, range(len(before)))) + list(zip(after, range(start, len(shape))))
            ellipses.append(shape[len(before) : start])
        seen_here: dict[str, int] = {}
        for label, pos in dims:
            size = _item(shape, pos)
            if label in seen_here:
                prev = _item(shape, seen_here[label])
                if differ(size, prev):
                    raise ShapeRuleError(
                        f"einsum: subscript {label} is repeated in operand {i} but its dims "
                        f"{describe_dim(shape, seen_here[label])} ({show(prev)}) and {describe_dim(shape, pos)} "
                        f"({show(size)}) differ"
                    )
                continue
            seen_here[label] = pos
            where = f"dimension {describe_dim(shape, pos)} of operand {i}"
            if label not in label_size:
                label_size[label], label_from[label] = size, where
                continue
            ok, merged = broadcast_sizes(label_size[label], size)
            if not ok:
                raise ShapeRuleError(
                    f"einsum: subscript {label} is {show(label_size[label])} at {label_from[label]} but "
                    f"{show(size)} at {where}"
                )
            label_size[label] = merged
    has_ellipsis = any(after is not None for _, after in parsed)
    if arrow:
        out_before, out_after = _parse_operand(output_text, "the output")
        out_labels = out_before + (out_after or [])
        for label in out_labels:
            if out_labels.count(label) > 1:
                raise ShapeRuleError(f"einsum: output subscript {label} appears more than once")
            if label not in counts:
                raise ShapeRuleError(f"einsum: output subscript {label} does not appear in any operand")
        out_has_ellipsis = out_after is not None
    else:
        out_before = sorted(label for label, n in counts.items() if n == 1)
        out_after, out_has_ellipsis = [], has_ellipsis
        out_before, out_after = [], out_before
    ellipsis_shape: MaybeShape = ()
    if ellipses:
        ellipsis_shape = broadcast_shapes(*ellipses, op="einsum (ellipsis dimensions)")
    if not out_has_ellipsis:
        # An operand of unknown shape still has the dims its subscripts name: a label's size is
        # what the others give it, where that is no 1 that the unknown one may broadcast.
        return tuple(
            _beside_unknown(label_size.get(label)) if label in unknown_labels else label_size[label]
            for label in out_before + (out_after or [])
        )
    if unknown:
        return None
    if ellipsis_shape is None:
        return None
    return (
        *(label_size[label] for label in out_before),
        *ellipsis_shape,
        *(label_size[label] for label in out_after or []),
    )


def _beside_unknown(size: Size) -> Size:
    return size if size is not None and never_one(size) else None


def _item(shape: Shape, pos: int) -> Size:
    item = shape[pos]
    assert not isinstance(item, Variadic)
    return item
