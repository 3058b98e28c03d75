"""Linear algebra (`torch.linalg`): solutions, inverses, determinants, decompositions and norms.

The ops take batches of matrices `(*, m, n)`: the last two dims are the matrix, the dims
before them batch dims (broadcast where two operands meet).  A matrix that must be
square has two sizes that must be equal (distinct symbols are not, SHAPES.md §6).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tyr._symbolic import const
from tyr.shape_rules.broadcast import broadcast_shapes
from tyr.shape_rules.core import (
    Dims,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    Unknown,
    Variadic,
    const_of,
    differ,
    dims_argument,
    distinct_positions,
    lower_bound,
    min_rank,
    never_zero,
    numel,
    provably_at_least,
    rank,
    same,
    show,
    show_shape,
    sizes,
    variadic_index,
)
from tyr.shape_rules.matmul import dot
from tyr.shape_rules.reduce import reduce

Order = float | str | None | Unknown
"""A norm's `ord`: a number, a name (`"fro"`, `"nuc"`), None (not given), or `UNKNOWN`, a number of unknown value."""


# -- batches of matrices --------------------------------------------------------------------------


def _matrix(shape: MaybeShape, op: str, name: str = "A") -> tuple[Shape, Size, Size] | None:
    """`(batch, rows, cols)` of a batch of matrices; None where that is unknown (past a Variadic)."""
    if shape is None:
        return None
    if rank(shape) is not None and len(shape) < 2:
        raise ShapeRuleError(f"{op}: {name} must have at least 2 dims (a batch of matrices), not {show_shape(shape)}")
    v = variadic_index(shape)
    if v is not None and v > len(shape) - 3:
        return None
    rows, cols = shape[-2], shape[-1]
    assert not isinstance(rows, Variadic) and not isinstance(cols, Variadic)
    return shape[:-2], rows, cols


def _square(shape: MaybeShape, op: str, name: str = "A") -> tuple[Shape, Size] | None:
    """`(batch, n)` of a batch of square `n` by `n` matrices; None where that is unknown."""
    matrix = _matrix(shape, op, name)
    if matrix is None:
        return None
    batch, rows, cols = matrix
    if differ(rows, cols):
        raise ShapeRuleError(
            f"{op}: {name} must be a batch of square matrices, not {show(rows)} by {show(cols)} ({show_shape(shape)})"
        )
    return batch, rows if rows is not None else cols


def _min(a: Size, b: Size) -> Size:
    """`min(a, b)` where one is evidently the smaller at every size (`min(B, B + 1)` is `B`), else None."""
    if a is None or b is None:
        return None
    if provably_at_least(b, a):
        return a
    if provably_at_least(a, b):
        return b
    return None


def square(shape: MaybeShape, *, op: str = "linalg.inv") -> MaybeShape:
    """`inv`, `cholesky`, `matrix_exp`, `matrix_power`: a batch of square matrices, shape kept."""
    _square(shape, op)
    return shape


def det(shape: MaybeShape, *, op: str = "linalg.det") -> MaybeShape:
    """`det(A)` (and each of `slogdet`'s two results): one number per square matrix, `(*,)`."""
    found = _square(shape, op)
    return None if found is None else found[0]


def slogdet(shape: MaybeShape, *, op: str = "linalg.slogdet") -> tuple[Shape, Shape] | None:
    """`slogdet(A)`: the sign and the log of the absolute value of each determinant, both `(*,)`."""
    out = det(shape, op=op)
    return None if out is None else (out, out)


def eigvals(shape: MaybeShape, *, op: str = "linalg.eigvalsh") -> MaybeShape:
    """`eigvalsh(A)` / `eigvals(A)`: `n` eigenvalues per square matrix, `(*, n)`."""
    found = _square(shape, op)
    return None if found is None else (*found[0], found[1])


def eigh(shape: MaybeShape, uplo: str | None = "L", *, op: str = "linalg.eigh") -> tuple[Shape, Shape] | None:
    """`eigh(A, UPLO)`: eigenvalues `(*, n)` and eigenvectors `(*, n, n)`; `UPLO` is "L" or "U" (None: unknown)."""
    if uplo is not None and uplo not in ("L", "U"):
        raise ShapeRuleError(f"{op}: UPLO must be 'L' or 'U', not {uplo!r}")
    values = eigvals(shape, op=op)
    if values is None or shape is None:
        return None
    return values, shape


def qr(shape: MaybeShape, mode: str = "reduced", *, op: str = "linalg.qr") -> tuple[Shape, Shape] | None:
    """`qr(A, mode)` of `(*, m, n)`, with `k = min(m, n)`: `Q (*, m, k)`, `R (*, k, n)` ("reduced");
    `Q (*, m, m)`, `R (*, m, n)` ("complete"); an empty `Q (0,)` and `R (*, k, n)` ("r")."""
    if mode not in ("reduced", "complete", "r"):
        raise ShapeRuleError(f"{op}: mode must be 'reduced', 'complete' or 'r', not {mode!r}")
    matrix = _matrix(shape, op)
    if matrix is None:
        return None
    batch, m, n = matrix
    if mode == "complete":
        return (*batch, m, m), (*batch, m, n)
    k = _min(m, n)
    q: Shape = (const(0),) if mode == "r" else (*batch, m, k)
    return q, (*batch, k, n)


def svd(shape: MaybeShape, full_matrices: bool = True, *, op: str = "linalg.svd") -> tuple[Shape, Shape, Shape] | None:
    """`svd(A, full_matrices)` of `(*, m, n)`, with `k = min(m, n)`: `U (*, m, m)`, `S (*, k)`, `Vh (*, n, n)`,
    or `U (*, m, k)`, `S (*, k)`, `Vh (*, k, n)` without full matrices."""
    matrix = _matrix(shape, op)
    if matrix is None:
        return None
    batch, m, n = matrix
    k = _min(m, n)
    if full_matrices:
        return (*batch, m, m), (*batch, k), (*batch, n, n)
    return (*batch, m, k), (*batch, k), (*batch, k, n)


def svdvals(shape: MaybeShape, *, op: str = "linalg.svdvals") -> MaybeShape:
    """`svdvals(A)` of `(*, m, n)`: `(*, min(m, n))`."""
    out = svd(shape, op=op)
    return None if out is None else out[1]


def pinv(
    shape: MaybeShape, hermitian: bool = False, tolerances: Sequence[MaybeShape] = (), *, op: str = "linalg.pinv"
) -> MaybeShape:
    """`pinv(A, hermitian=...)` of `(*, m, n)`: `(*, n, m)` (a Hermitian `A` must be square).

    `tolerances` are the shapes of tolerance tensors (`atol`, `rtol`, `rcond`; a number is
    `()`): one per matrix, so their shapes broadcast with the batch dims.  torch returns at
    once for an `A` without elements, checking neither."""
    matrix = _matrix(shape, op)
    if matrix is None or shape is None:
        return None
    batch, m, n = matrix
    count = numel(shape)
    if const_of(count) == 0:
        return (*batch, n, m)
    if not never_zero(count) and (hermitian or any(t != () for t in tolerances)):
        return None  # maybe empty: the checks and the tolerances may or may not count
    if hermitian:
        _square(shape, op)
    batch = broadcast_shapes(batch, *tolerances, op=op)
    return None if batch is None else (*batch, n, m)


# -- systems of equations -------------------------------------------------------------------------


def _never_equal(a: Size | Variadic, b: Size | Variadic) -> bool:
    """Whether two sizes differ at every size of their symbols (`B` and `B + 1`, 3 and 4; not `B` and `T`)."""
    if a is None or b is None or isinstance(a, Variadic) or isinstance(b, Variadic):
        return False
    for low in (lower_bound(a - b), lower_bound(b - a)):
        if low is not None and low >= 1:
            return True
    return False


def _is_vector_rhs(a: Shape, b: Shape) -> bool | None:
    """torch's test of whether `B` is a batch of vectors: 1-d, or the shape of `A` without its last dim
    (None where that depends on the sizes: `(N, K)` against `A (B, N, N)` is a vector when `K` is `N`)."""
    if rank(b) == 1:
        return True
    va, vb = variadic_index(a), variadic_index(b)
    if (va is None) != (vb is None) or va is not None and (va != vb or a[va] != b[vb]):
        return None  # the numbers of dims compare only through one Variadic in one place
    if len(b) != len(a) - 1 or any(_never_equal(x, y) for x, y in zip(a, b)):
        return False
    if all(x == y if isinstance(x, Variadic) else same(x, y) for x, y in zip(a, b)):  # type: ignore[arg-type]
        return True
    return None


def solve(a: MaybeShape, b: MaybeShape, left: bool = True, *, op: str = "linalg.solve") -> MaybeShape:
    """`solve(A, B, left=True)`: `X` with `A X = B` (`X A = B` when not `left`), `A` a batch of `n` by `n` matrices.

    `B` is `(*, n, k)` (`(*, k, n)` when not `left`), or a batch of vectors `(*, n)`: a 1-d
    `B`, or one whose shape is `A`'s without its last dim.  The batch dims broadcast; `X` has
    `B`'s shape with the broadcast batch.  Vectors need `left`.
    """
    found = _square(a, op)
    if b is not None and rank(b) == 0:
        raise ShapeRuleError(f"{op}: B must have at least 1 dim, not {show_shape(b)}")
    if found is None or a is None or b is None:
        return None
    vector = _is_vector_rhs(a, b)
    if vector is None:
        return None
    if vector and not left:
        raise ShapeRuleError(f"{op}: B {show_shape(b)} is a batch of vectors, which needs left=True")
    matrix = _matrix((*b, const(1)) if vector else b, op, "B")
    if matrix is None:
        return None
    batch_a, n = found
    batch_b, rows, cols = matrix
    shared, side = (rows, "rows") if left else (cols, "columns")
    if differ(shared, n):
        equation = "A X = B" if left else "X A = B"
        raise ShapeRuleError(
            f"{op}: for {equation}, B {show_shape(b)} must have {show(n)} {side}, as A {show_shape(a)} is {show(n)} by {show(n)}"
        )
    batch = broadcast_shapes(batch_a, batch_b, op=f"{op} (batch dimensions)", operands=("A", "B"))
    if batch is None:
        return None
    if left:
        rows = rows if rows is not None else n
    else:
        cols = cols if cols is not None else n
    return (*batch, rows) if vector else (*batch, rows, cols)


def lstsq(a: MaybeShape, b: MaybeShape, *, op: str = "linalg.lstsq") -> MaybeShape:
    """`lstsq(A, B).solution`: the least-squares `X` of `A X = B`, `A` a batch of `m` by `n` matrices.

    `B` has A's number of dims or one fewer.  It is a batch of vectors when 1-d or of A's
    shape without its last dim: `X` is then `(*, n)`.  Otherwise it is `(*, m, k)`, its batch
    dims broadcast with A's, and `X` is `(*, n, k)`; torch asks a `B` of one dim fewer that is
    no batch of vectors for A's `m` rows, then fails to broadcast it in ways not modelled here
    (unknown).  The other results (residuals, rank, singular values) depend on the driver and
    the values: their shapes are unknown.
    """
    found = _matrix(a, op)
    if b is None or a is None or found is None or rank(a) is None or rank(b) is None:
        return None
    if not (len(a) - 1 <= len(b) <= len(a)):
        raise ShapeRuleError(f"{op}: B {show_shape(b)} must have as many dims as A {show_shape(a)}, or one fewer")
    batch_a, m, n = found
    vector = _is_vector_rhs(a, b)
    if vector:
        if differ(sizes(b)[-1], m):
            raise ShapeRuleError(f"{op}: the vector B {show_shape(b)} must have A's {show(m)} rows, as A {show_shape(a)} is {show(m)} by {show(n)}")
        return (*batch_a, n)
    if vector is None or len(b) < 2:
        return None
    matrix = _matrix(b, op, "B")
    assert matrix is not None
    batch_b, rows, cols = matrix
    if differ(rows, m):
        raise ShapeRuleError(f"{op}: B {show_shape(b)} must have A's {show(m)} rows, as A {show_shape(a)} is {show(m)} by {show(n)}")
    if len(b) != len(a):
        return None
    batch = broadcast_shapes(batch_a, batch_b, op=f"{op} (batch dimensions)", operands=("A", "B"))
    return None if batch is None else (*batch, n, cols)


def chain_matmul(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.chain_matmul(A, B, ...)` (deprecated for `multi_dot`): the product of one or more 2-d matrices."""
    op = "chain_matmul"
    for k, shape in enumerate(shapes):
        if shape is not None and rank(shape) is not None and len(shape) != 2:
            raise ShapeRuleError(f"{op}: matrix {k} must be 2-d, got {show_shape(shape)}")
    if len(shapes) == 1:
        return shapes[0]
    return multi_dot(shapes, op=op)


def multi_dot(shapes: Sequence[MaybeShape], *, op: str = "linalg.multi_dot") -> MaybeShape:
    """`multi_dot([A, B, ..., Z])`: the matrix product of two or more matrices, the first of which may be a row
    vector and the last a column vector (1-d; their dim is dropped from the result); all others 2-d."""
    if len(shapes) < 2:
        raise ShapeRuleError(f"{op}: expected at least 2 tensors, got {len(shapes)}")
    last = len(shapes) - 1
    for k, shape in enumerate(shapes):
        r = rank(shape) if shape is not None else None
        if r is None:
            continue
        if (k == 0 or k == last) and r not in (1, 2):
            which = "first" if k == 0 else "last"
            raise ShapeRuleError(f"{op}: the {which} tensor must be 1-d or 2-d, got {show_shape(shape)}")
        if 0 < k < last and r != 2:
            raise ShapeRuleError(f"{op}: tensor {k} must be 2-d, got {show_shape(shape)}")
    known = [sizes(s) for s in shapes if s is not None and rank(s) is not None]
    if len(known) != len(shapes):
        return None
    # a 1-d first tensor is a row (1, n), a 1-d last one a column (n, 1)
    matrices = [s if len(s) == 2 else ((const(1), *s) if k == 0 else (*s, const(1))) for k, s in enumerate(known)]
    for k in range(last):
        if differ(matrices[k][1], matrices[k + 1][0]):
            raise ShapeRuleError(
                f"{op}: tensors {k} and {k + 1} of shapes {show_shape(shapes[k])} and {show_shape(shapes[k + 1])} cannot be multiplied"
            )
    rows = (matrices[0][0],) if len(known[0]) == 2 else ()
    cols = (matrices[last][1],) if len(known[last]) == 2 else ()
    return (*rows, *cols)


# -- norms -----------------------------------------------------------------------------------------


def vector_norm(
    shape: MaybeShape, ord: Order = 2, dim: Dims = None, keepdim: bool = False, *, op: str = "linalg.vector_norm"
) -> MaybeShape:
    """`vector_norm(x, ord, dim, keepdim)`: `x` reduced over `dim` (all dims when None or `()`).

    A negative or infinite `ord` has no value for nothing: an empty tensor, or a dim of size 0
    reduced, is rejected (`UNKNOWN` or a name passes)."""
    nonempty = isinstance(ord, float | int) and (ord < 0 or math.isinf(ord))
    return reduce(shape, dim, keepdim, op=op, nonempty=nonempty)


def vecdot(x: MaybeShape, y: MaybeShape, dim: int = -1) -> MaybeShape:
    """`linalg.vecdot(x, y, dim=dim)`: `x` and `y` broadcast together, then summed over `dim` (torch
    computes `(x.conj() * y).sum(dim)`, so the dim itself broadcasts too).  Two vectors go to `vdot`
    instead, which ignores `dim` and broadcasts nothing."""
    op = "linalg.vecdot"
    if x is None or y is None:
        return None
    if rank(x) == 1 and rank(y) == 1:
        return dot(x, y, op=op)
    if all(rank(s) is None and min_rank(s) <= 1 or rank(s) == 1 for s in (x, y)):
        return None  # vectors or not, the shapes do not say
    return reduce(broadcast_shapes(x, y, op=op, operands=("x", "y")), dim, op=op)


def matrix_norm(
    shape: MaybeShape,
    ord: Order = "fro",
    dim: Sequence[int] = (-2, -1),
    keepdim: bool = False,
    *,
    op: str = "linalg.matrix_norm",
) -> MaybeShape:
    """`matrix_norm(A, ord, dim, keepdim)`: `A` reduced over the two distinct dims `dim` of its matrices.

    `ord` is "fro", "nuc", 1, -1, 2, -2, inf or -inf (`UNKNOWN` passes); a negative one needs
    the dims it takes a minimum over to be non-empty."""
    if isinstance(ord, str) and ord not in ("fro", "nuc") or isinstance(ord, float | int) and abs(ord) not in (1, 2, math.inf):
        raise ShapeRuleError(f"{op}: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, not {ord!r}")
    if len(dim) != 2:
        raise ShapeRuleError(f"{op}: dim must name 2 dims, not {tuple(dim)}")
    if shape is None:
        return None
    if rank(shape) is not None and len(shape) < 2:
        raise ShapeRuleError(f"{op}: A must have at least 2 dims (a batch of matrices), not {show_shape(shape)}")
    positions = distinct_positions(shape, dim, op, scalar_as_1d=False)
    # A negative ord takes a minimum, of nothing where the dims it ranges over are empty.
    for i in {-1: (1,), -2: (0, 1), -math.inf: (0,)}.get(ord, ()) if isinstance(ord, float | int) else ():
        pos = positions[i]
        if pos is not None and const_of(shape[pos]) == 0:  # type: ignore[arg-type]
            raise ShapeRuleError(f"{op}: the {ord} norm of {show_shape(shape)} over dims {tuple(dim)} is a minimum of nothing")
    return reduce(shape, tuple(dim), keepdim, op=op)


def norm(shape: MaybeShape, ord: Order = None, dim: Dims = None, keepdim: bool = False, *, op: str = "linalg.norm") -> MaybeShape:
    """`linalg.norm(A, ord, dim, keepdim)`: a vector norm over one dim (or over all dims when neither `ord`
    nor `dim` is given), a matrix norm over two.

    `dim` names 1 or 2 dims.  Without `dim`, an `ord` needs a 1-d (vector norm) or 2-d
    (matrix norm) input; a named `ord` ("fro", "nuc") is always a matrix norm.
    """
    dims = dims_argument(dim)
    if dims is not None and len(dims) not in (1, 2):
        raise ShapeRuleError(f"{op}: dim must name 1 or 2 dims, not {dims}")
    if dims is None and ord is not None:
        if shape is None or rank(shape) is None:
            return None
        if len(shape) not in (1, 2):
            raise ShapeRuleError(f"{op}: with ord and no dim, the input must be 1-d or 2-d, not {show_shape(shape)}")
        if isinstance(ord, str) or len(shape) == 2:
            return matrix_norm(shape, ord, (0, 1), keepdim, op=op)
    elif isinstance(ord, str) or dims is not None and len(dims) == 2 and ord is not None:
        return matrix_norm(shape, ord, dims or (0, 1), keepdim, op=op)
    return vector_norm(shape, 2 if ord is None else ord, dims, keepdim, op=op)

