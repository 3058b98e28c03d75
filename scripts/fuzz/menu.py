"""The menu of ops the generator draws from: one function per op family, listed in `MENU`.

Each function `op(g, bad)` looks at the live values of the program being generated (`g`, a
`scripts.fuzz.generate.Gen`), writes one step that is usually valid and returns it with a
model of its outputs' shapes (None for a size it does not model: torch's answer is used).
With `bad=True` it writes a deliberate mistake instead, and the correct variant as `control`.
A function raises `Skip` when the live values give it nothing to do.

A mistake must be one the checker can prove from what it is told: a size that differs from
the one required as a polynomial (`d + 1` for `d`, `E` for `D`, `5` for `8`), a dim out of
range, a wrong rank, never a size only a plain int or data could reveal.

To extend the menu, write a function and add an `Op(name, family, fn, weight)` row.
"""

from __future__ import annotations

from collections.abc import Sequence

from scripts.fuzz.generate import Emit, Gen, Op, Out, Skip, TVal
from tyr._symbolic import Expr, const, sym

ONE = const(1)


# -- shape arithmetic the ops share -------------------------------------------------------------


def broadcast(a: Sequence[Expr], b: Sequence[Expr]) -> tuple[Expr, ...] | None:
    out: list[Expr] = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else ONE
        y = b[-i] if i <= len(b) else ONE
        if x == y or y == ONE:
            out.append(x)
        elif x == ONE:
            out.append(y)
        else:
            return None
    return tuple(reversed(out))


def matmul_shape(a: Sequence[Expr], b: Sequence[Expr]) -> tuple[Expr, ...] | None:
    if not a or not b:
        return None
    a2 = list(a) if len(a) > 1 else [ONE, a[0]]
    b2 = list(b) if len(b) > 1 else [b[0], ONE]
    if a2[-1] != b2[-2]:
        return None
    batch = broadcast(a2[:-2], b2[:-2])
    if batch is None:
        return None
    out = [*batch, a2[-2], b2[-1]]
    if len(a) == 1:
        out.pop(-2)
    if len(b) == 1:
        out.pop(-1)
    return tuple(out)


def prod(sizes: Sequence[Expr]) -> Expr:
    total = ONE
    for s in sizes:
        total = total * s
    return total


def replace(shape: Sequence[Expr], i: int, size: Expr) -> tuple[Expr, ...]:
    out = list(shape)
    out[i] = size
    return tuple(out)


def known(g: Gen, *sizes: Expr) -> bool:
    """Sizes the checker can know: no opaque part (a mistake about them is provable)."""
    return all(not s.startswith("_") for e in sizes for s in e.symbols)


def pick_dim(g: Gen, t: TVal, where: object = None) -> int:
    dims = list(range(t.rank))
    if callable(where):
        dims = [i for i in dims if where(i)]
    if not dims:
        raise Skip("no dim")
    return g.rng.choice(dims)


def call(g: Gen, fn: str, x: str, args: str, method: float = 0.6) -> str:
    """`x.fn(args)` or `torch.fn(x, args)`."""
    if g.rng.random() < method:
        return f"{x}.{fn}({args})"
    return f"torch.{fn}({x}{', ' if args else ''}{args})"


def emit1(g: Gen, x: TVal | None, expr: str, shape: Sequence[Expr | None] | None, **kw: object) -> Emit:
    volatile = bool(kw.pop("volatile", False))
    name, replaces = g.output(x) if x is not None and not volatile else (g.fresh(), None)
    below = kw.pop("below", None)
    assert below is None or isinstance(below, Expr)
    out = Out(name, shape, below=below, volatile=volatile)
    return Emit([f"{name} = {expr}"], [out], replaces=replaces, detail=str(kw.get("detail", "")))


def mistake(g: Gen, good: str, bad: str, detail: str) -> Emit:
    name = g.fresh()
    return Emit([f"{name} = {bad}"], [], control=[f"{name} = {good}"], detail=detail)


def out_of_range(g: Gen, rank: int) -> str:
    return str(g.rng.choice([rank, rank + 1, -rank - 1]))


# -- elementwise ---------------------------------------------------------------------------------

ARITH = ["+", "-", "*", "/", "torch.add", "torch.mul", "torch.sub", "torch.maximum", ".add", ".mul"]
COMPARE = ["<", ">", "==", ">=", "!=", "torch.eq", "torch.gt", ".lt"]


def apply_binary(op: str, a: str, b: str) -> str:
    if op.startswith("torch."):
        return f"{op}({a}, {b})"
    if op.startswith("."):
        return f"{a}{op}({b})"
    return f"{a} {op} {b}"


def partner_shape(g: Gen, shape: tuple[Expr, ...]) -> tuple[Expr, ...]:
    """A shape that broadcasts with `shape`: the same, a suffix, some dims 1, extra leading dims."""
    r = g.rng.random()
    out = list(shape)
    if r < 0.3:
        return shape
    if r < 0.55 and out:
        out = out[g.rng.randrange(len(out)) :]
    elif r < 0.85:
        for i in range(len(out)):
            if g.rng.random() < 0.4:
                out[i] = ONE
    elif len(out) < 4:
        out.insert(0, g.new_size())
    return tuple(out)


def binary_operand(g: Gen, x: TVal) -> tuple[str, tuple[Expr, ...]]:
    others = [t for t in g.tensors if t.floating and broadcast(x.shape, t.shape) is not None]
    if others and g.rng.random() < 0.5:
        t = g.rng.choice(others)
        return t.name, t.shape
    shape = partner_shape(g, x.shape)
    return g.operand(shape), shape


def bad_operand(g: Gen, x: TVal) -> str:
    """A tensor whose shape cannot broadcast with x's, provably."""
    others = [
        t
        for t in g.tensors
        if t.floating and broadcast(x.shape, t.shape) is None and known(g, *t.shape, *x.shape)
    ]
    if others and g.rng.random() < 0.4:
        return g.rng.choice(others).name
    shape = list(partner_shape(g, x.shape))
    offset = len(x.shape) - len(shape)
    spots = [i for i in range(len(shape)) if i + offset >= 0 and x.shape[i + offset] != ONE and known(g, x.shape[i + offset])]
    if not spots:
        raise Skip("nothing to break")
    i = g.rng.choice(spots)
    wrong = g.wrong(x.shape[i + offset])
    if wrong == ONE:
        raise Skip("1 broadcasts")
    shape[i] = wrong
    return g.randn(shape)


def binary(g: Gen, bad: bool, ops: list[str] = ARITH) -> Emit:
    x = g.tensor()
    op = g.rng.choice(ops)
    if bad:
        other, _ = binary_operand(g, x)
        wrong = bad_operand(g, x)
        swap = g.rng.random() < 0.3
        good = apply_binary(op, other, x.name) if swap else apply_binary(op, x.name, other)
        worse = apply_binary(op, wrong, x.name) if swap else apply_binary(op, x.name, wrong)
        return mistake(g, good, worse, f"{op} with a shape that does not broadcast")
    if g.rng.random() < 0.25 and not op.startswith("torch.maximum"):
        scalar = g.rng.choice(["2", "0.5", "1.0", "3"])
        if g.rng.random() < 0.5 and not op.startswith("."):
            expr = apply_binary(op, scalar, x.name) if not op.startswith("torch.") else f"{op}({x.name}, {scalar})"
        else:
            expr = apply_binary(op, x.name, scalar)
        return emit1(g, x, expr, x.shape, detail=f"{op} scalar")
    other, shape = binary_operand(g, x)
    out = broadcast(x.shape, shape)
    assert out is not None
    swap = g.rng.random() < 0.3
    expr = apply_binary(op, other, x.name) if swap else apply_binary(op, x.name, other)
    return emit1(g, x, expr, out, detail=f"{op} broadcast")


def compare(g: Gen, bad: bool) -> Emit:
    return binary(g, bad, COMPARE)


UNARY = [
    "F.relu({})",
    "F.gelu({})",
    "F.silu({})",
    "torch.tanh({})",
    "{}.exp()",
    "-{}",
    "{}.abs()",
    "F.dropout({}, 0.1)",
    "{}.contiguous()",
    "{}.float()",
    "{}.to(torch.float64)",
    "{}.clone()",
    "{}.sigmoid()",
    "torch.sqrt({}.abs())",
    "{}.detach()",
    "{} ** 2",
    "F.normalize({}, dim=-1)",
    "torch.angle({})",
    "{}.resolve_conj()",
    "F.leaky_relu_({}.clone(), 0.1)",
    "torch.logaddexp({0}, {0})",
    "{0}.isclose({0})",
]


def unary(g: Gen, bad: bool) -> Emit:
    x = g.tensor()
    form = g.rng.choice(UNARY)
    if "normalize" in form and x.rank == 0:
        raise Skip("normalize needs a dim")
    return emit1(g, x, form.format(x.name), x.shape, detail=form.format("x"))


def bool_mask(g: Gen, shape: tuple[Expr, ...]) -> tuple[str, tuple[Expr, ...]]:
    """A boolean tensor that broadcasts to `shape` (and does not grow it)."""
    masks = [t for t in g.tensors if t.boolean and broadcast(shape, t.shape) == shape]
    if masks and g.rng.random() < 0.5:
        m = g.rng.choice(masks)
        return m.name, m.shape
    same = [t for t in g.tensors if t.floating and broadcast(shape, t.shape) == shape]
    if same and g.rng.random() < 0.6:
        t = g.rng.choice(same)
        return f"{t.name} > 0", t.shape
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        n = g.size(shape[-1])
        return f"torch.ones({n}, {n}, dtype=torch.bool).tril()", shape[-2:]
    part = tuple(s if g.rng.random() < 0.6 else ONE for s in shape[g.rng.randrange(len(shape) + 1) :])
    return f"torch.rand({g.shape_args(part)}) > 0.5" if part else "torch.tensor(True)", part


def where(g: Gen, bad: bool) -> Emit:
    x = g.tensor()
    mask, mshape = bool_mask(g, x.shape)
    other = g.rng.choice(["0.0", "-x", "other"])
    if other == "other":
        o, oshape = binary_operand(g, x)
        out = broadcast(x.shape, oshape)
    else:
        o, out = ("0.0" if other == "0.0" else f"-{x.name}"), x.shape
    assert out is not None
    full = broadcast(out, mshape)
    if bad:
        wrong = bad_operand(g, x)
        return mistake(
            g,
            f"torch.where({mask}, {x.name}, {o})",
            f"torch.where({mask}, {x.name}, {wrong})",
            "where with operands that do not broadcast",
        )
    return emit1(g, x, f"torch.where({mask}, {x.name}, {o})", full, detail="where")


def masked_fill(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    mask, _ = bool_mask(g, x.shape)
    fill = g.rng.choice(["0.0", "float('-inf')", "-1e9"])
    if bad:
        shape = list(x.shape)
        spots = [i for i, s in enumerate(shape) if s != ONE and known(g, s)]
        if not spots:
            raise Skip("no spot")
        i = g.rng.choice(spots)
        shape[i] = g.wrong(shape[i])
        if shape[i] == ONE:
            raise Skip("1 broadcasts")
        wrong = f"torch.rand({g.shape_args(shape)}) > 0.5"
        return mistake(
            g, f"{x.name}.masked_fill({mask}, {fill})", f"{x.name}.masked_fill({wrong}, {fill})", "masked_fill mask"
        )
    return emit1(g, x, f"{x.name}.masked_fill({mask}, {fill})", x.shape, detail="masked_fill")


def tril(g: Gen, bad: bool) -> Emit:
    fn = g.rng.choice(["tril", "triu"])
    diagonal = g.rng.choice(["", "1", "-1", "diagonal=1"])
    if bad:
        x = g.tensor(max_rank=1)
        return mistake(g, f"torch.{fn}({x.name}.unsqueeze(0), {diagonal})", f"torch.{fn}({x.name}, {diagonal})", f"{fn} of 1-d")
    x = g.tensor(min_rank=2)
    return emit1(g, x, call(g, fn, x.name, diagonal), x.shape, detail=fn)


# -- matmul family ---------------------------------------------------------------------------


def right_operand(g: Gen, k: Expr, batch: tuple[Expr, ...]) -> tuple[str, tuple[Expr, ...]]:
    """A right operand with `k` rows: 1-d, 2-d (often a live weight, maybe `w.T`) or batched."""
    r = g.rng.random()
    if r < 0.15:
        return g.operand((k,)), (k,)
    if r < 0.75 or not batch:
        weights = [t for t in g.tensors if t.rank == 2 and t.floating and t.shape[0] == k]
        transposed = [t for t in g.tensors if t.rank == 2 and t.floating and t.shape[1] == k]
        if weights and g.rng.random() < 0.5:
            w = g.rng.choice(weights)
            return w.name, w.shape
        if transposed and g.rng.random() < 0.5:
            w = g.rng.choice(transposed)
            return f"{w.name}{g.rng.choice(['.T', '.mT', '.t()'])}", (w.shape[1], w.shape[0])
        shape: tuple[Expr, ...] = (k, g.new_size())
        return g.operand(shape), shape
    lead = tuple(s if g.rng.random() < 0.8 else ONE for s in batch[g.rng.randrange(len(batch)) :])
    shape = (*lead, k, g.new_size())
    return g.operand(shape), shape


def matmul(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    form = g.rng.choice(["@", "@", "torch.matmul", ".matmul"])

    def write(a: str, b: str) -> str:
        return f"{a} @ {b}" if form == "@" else f"torch.matmul({a}, {b})" if form == "torch.matmul" else f"{a}.matmul({b})"

    left = x.rank >= 2 and g.rng.random() < 0.2  # x on the right: `w @ x`
    if left:
        k = x.shape[-2]
        m = g.new_size()
        shape: tuple[Expr, ...] = (m, k)
        w = g.operand(shape)
        if bad:
            if not known(g, k):
                raise Skip("opaque")
            w_bad = g.randn((m, g.wrong(k)))
            return mistake(g, write(w, x.name), write(w_bad, x.name), "matmul inner size (left operand)")
        return emit1(g, x, write(w, x.name), matmul_shape(shape, x.shape), detail="w @ x")
    k = x.shape[-1]
    batch = x.shape[:-2]
    w, wshape = right_operand(g, k, batch)
    if bad:
        if not known(g, k):
            raise Skip("opaque")
        wrong = list(wshape)
        wrong[0 if len(wrong) == 1 else -2] = g.wrong(k)
        return mistake(g, write(x.name, w), write(x.name, g.randn(wrong)), "matmul inner size")
    out = matmul_shape(x.shape, wshape)
    if out is None:
        raise Skip("no matmul")
    return emit1(g, x, write(x.name, w), out, detail=f"{x.rank}-d @ {len(wshape)}-d")


def mm(g: Gen, bad: bool) -> Emit:
    if g.rng.random() < 0.5:
        x = g.tensor(min_rank=2, max_rank=2)
        k, n = x.shape[1], g.new_size()
        w = g.operand((k, n))
        expr = g.rng.choice(["torch.mm({}, {})", "{}.mm({})"])
        if bad:
            if not known(g, k):
                raise Skip("opaque")
            return mistake(g, expr.format(x.name, w), expr.format(x.name, g.randn((g.wrong(k), n))), "mm inner size")
        return emit1(g, x, expr.format(x.name, w), (x.shape[0], n), detail="mm")
    x = g.tensor(min_rank=3, max_rank=3)
    b, k, n = x.shape[0], x.shape[2], g.new_size()
    w = g.operand((b, k, n))
    if bad:
        if not known(g, b, k):
            raise Skip("opaque")
        which = g.rng.choice([0, 1])
        wrong = (g.wrong(b), k, n) if which == 0 else (b, g.wrong(k), n)
        return mistake(g, f"torch.bmm({x.name}, {w})", f"torch.bmm({x.name}, {g.randn(wrong)})", "bmm sizes")
    return emit1(g, x, f"torch.bmm({x.name}, {w})", (b, x.shape[1], n), detail="bmm")


def multi_dot(g: Gen, bad: bool) -> Emit:
    """`torch.linalg.multi_dot([x, B, C])`: a chain of 2-d products, `x` 2-d or a row vector."""
    x = g.tensor(min_rank=1, max_rank=2)
    chain = [x.shape[-1], g.new_size(), g.new_size()]
    links = [g.operand((chain[i], chain[i + 1])) for i in range(g.rng.choice([1, 2]))]
    expr = f"torch.linalg.multi_dot([{x.name}, {', '.join(links)}])"
    if bad:
        if not known(g, chain[0]):
            raise Skip("opaque")
        wrong = g.randn((g.wrong(chain[0]), chain[1]))
        return mistake(g, expr, f"torch.linalg.multi_dot([{x.name}, {wrong}])", "multi_dot inner size")
    return emit1(g, x, expr, (*x.shape[:-1], chain[len(links)]), detail="linalg.multi_dot")


def lstsq(g: Gen, bad: bool) -> Emit:
    """`torch.linalg.lstsq(A, B).solution`: `(*, n, k)` for `A (*, m, n)`, `B (*, m, k)`."""
    a = g.tensor(min_rank=2, max_rank=3)
    m, n, k = a.shape[-2], a.shape[-1], g.new_size()
    b = g.operand((*a.shape[:-2], m, k))
    if bad:
        if not known(g, m):
            raise Skip("opaque")
        wrong = g.randn((*a.shape[:-2], g.wrong(m), k))
        return mistake(g, f"torch.linalg.lstsq({a.name}, {b}).solution", f"torch.linalg.lstsq({a.name}, {wrong}).solution",
                       "lstsq rows")
    return emit1(g, a, f"torch.linalg.lstsq({a.name}, {b}).solution", (*a.shape[:-2], n, k), detail="linalg.lstsq")


def outer(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1, max_rank=1)
    n = g.new_size()
    other = g.operand((n,))
    fn = "torch.outer"
    if bad:
        return mistake(g, f"{fn}({x.name}, {other})", f"{fn}({x.name}, {g.randn((n, n))})", "outer of a 2-d tensor")
    return emit1(g, x, f"{fn}({x.name}, {other})", (x.shape[0], n), detail="outer")


def vecdot(g: Gen, bad: bool) -> Emit:
    """`torch.linalg.vecdot(x, y)`: `x` and `y` broadcast, then summed over the last dim."""
    x = g.tensor(min_rank=2)
    if bad:
        return mistake(g, f"torch.linalg.vecdot({x.name}, {x.name})", f"torch.linalg.vecdot({x.name}, {bad_operand(g, x)})",
                       "vecdot of shapes that do not broadcast")
    other, shape = binary_operand(g, x)
    out = broadcast(x.shape, shape)
    if out is None:
        raise Skip("no broadcast")
    return emit1(g, x, f"torch.linalg.vecdot({x.name}, {other})", out[:-1], detail="linalg.vecdot")


def linear(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    k, n = x.shape[-1], g.new_size()
    weights = [t for t in g.tensors if t.rank == 2 and t.floating and t.shape[1] == k]
    w = g.rng.choice(weights).name if weights and g.rng.random() < 0.5 else g.randn((n, k))
    if weights and not w.startswith("torch."):
        n = next(t.shape[0] for t in weights if t.name == w)
    bias = g.rng.random() < 0.5
    b = f", {g.operand((n,))}" if bias else ""
    if bad:
        if not known(g, k):
            raise Skip("opaque")
        if bias and g.rng.random() < 0.5 and known(g, n):
            return mistake(g, f"F.linear({x.name}, {w}{b})", f"F.linear({x.name}, {w}, {g.randn((g.wrong(n),))})", "linear bias size")
        return mistake(g, f"F.linear({x.name}, {w}{b})", f"F.linear({x.name}, {g.randn((n, g.wrong(k)))}{b})", "linear in-features")
    return emit1(g, x, f"F.linear({x.name}, {w}{b})", (*x.shape[:-1], n), detail="F.linear")


LETTERS = "abcdefghijklmnopqrstuvwxyz"


def einsum(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1, max_rank=4)
    letters = list(LETTERS)
    g.rng.shuffle(letters)
    xs = letters[: x.rank]
    sizes = dict(zip(xs, x.shape))
    single = g.rng.random() < 0.3
    ys: list[str] = []
    if not single:
        shared = [a for a in xs if g.rng.random() < 0.6]
        new = letters[x.rank : x.rank + g.rng.choice([0, 1, 1, 2])]
        for a in new:
            sizes[a] = g.new_size()
        ys = shared + new
        g.rng.shuffle(ys)
        if not ys:
            raise Skip("empty operand")
    counts = {a: xs.count(a) + ys.count(a) for a in sizes}
    pool = [a for a in sizes if counts[a] == 1 or g.rng.random() < 0.5]
    g.rng.shuffle(pool)
    implicit = not single and g.rng.random() < 0.15
    if implicit:
        outs = sorted(a for a in sizes if counts[a] == 1)
    else:
        outs = pool
    operands = [x.name]
    y_shape = tuple(sizes[a] for a in ys)
    y = g.operand(y_shape) if ys else ""
    if ys:
        operands.append(y)
    inputs = "".join(xs) + ("," + "".join(ys) if ys else "")
    equation = inputs if implicit else f"{inputs}->{''.join(outs)}"
    expr = f"torch.einsum({equation!r}, {', '.join(operands)})"
    if bad:
        shared = [i for i, a in enumerate(ys) if a in xs and sizes[a] != ONE and known(g, sizes[a])]
        if not shared:
            raise Skip("nothing shared")
        i = g.rng.choice(shared)
        wrong = list(y_shape)
        wrong[i] = g.wrong(wrong[i])
        if wrong[i] == ONE:
            raise Skip("1 broadcasts")
        return mistake(g, expr, f"torch.einsum({equation!r}, {x.name}, {g.randn(wrong)})", "einsum size of a shared letter")
    return emit1(g, x, expr, tuple(sizes[a] for a in outs), detail=f"einsum {equation}")


# -- shape ops -----------------------------------------------------------------------------------


def factor(g: Gen, s: Expr) -> tuple[Expr, Expr] | None:
    """Split a size into two factors (`8` into `2, 4`; `D` into `2, D//2` or `H, D//H`)."""
    options: list[tuple[Expr, Expr]] = []
    value = g.val(s)
    if s.is_const:
        options += [(const(f), const(value // f)) for f in (2, 3, 4) if value % f == 0 and value > f]
    elif known(g, s):
        options += [(const(f), g.div(s, f)) for f in (2, 3, 4) if g.divisible(s, f)]
        options += [(sym(h), g.div(s, sym(h))) for h in g.symbols if sym(h) != s and g.divisible(s, sym(h))]
    if not options:
        return None
    a, b = g.rng.choice(options)
    return (a, b) if g.rng.random() < 0.7 else (b, a)


def reshape_target(g: Gen, shape: tuple[Expr, ...]) -> tuple[Expr, ...]:
    out = list(shape)
    for _ in range(g.rng.choice([1, 1, 2])):
        r = g.rng.random()
        if r < 0.35 and len(out) >= 2:
            i = g.rng.randrange(len(out) - 1)
            j = g.rng.randrange(i + 2, len(out) + 1)
            out[i:j] = [prod(out[i:j])]
        elif r < 0.7 and out and len(out) < 5:
            i = g.rng.randrange(len(out))
            parts = factor(g, out[i])
            if parts is not None:
                out[i : i + 1] = list(parts)
        elif r < 0.8:
            out = [prod(out)]
        elif r < 0.9 and len(out) < 5:
            out.insert(g.rng.randrange(len(out) + 1), ONE)
        elif ONE in out:
            out.remove(ONE)
    return tuple(out)


def reshape_args(g: Gen, x: TVal, target: tuple[Expr, ...], minus_one: bool) -> str:
    k = 0
    while k < min(len(target), x.rank) and target[k] == x.shape[k]:
        k += 1
    texts: list[str] = []
    start = 0
    if k and "star" not in g.options.avoid and g.rng.random() < 0.3:
        texts.append(f"*{x.name}.shape[:{k}]" if k < x.rank else f"*{x.name}.shape")
        start = k
    rest = [g.size(s) for s in target[start:]]
    if minus_one and rest:
        rest[g.rng.randrange(len(rest))] = "-1"
    texts += rest
    if not texts:
        return "()"
    if g.rng.random() < 0.25 and not texts[0].startswith("*"):
        return "(" + ", ".join(texts) + ("," if len(texts) == 1 else "") + ")"
    return ", ".join(texts)


def view(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1)
    fn = "view" if x.value.is_contiguous() and g.rng.random() < 0.6 else "reshape"
    target = reshape_target(g, x.shape)
    if bad:
        spots = [i for i, s in enumerate(target) if known(g, s)]
        if not spots or not known(g, *x.shape):
            raise Skip("opaque")
        good = f"{x.name}.{fn}({reshape_args(g, x, target, minus_one=False)})"
        if g.rng.random() < 0.2 and len(target) >= 2:
            texts = [g.size(s) for s in target]
            i, j = g.rng.sample(range(len(texts)), 2)
            texts[i] = texts[j] = "-1"
            return mistake(g, good, f"{x.name}.{fn}({', '.join(texts)})", f"{fn} with two -1")
        i = g.rng.choice(spots)
        wrong = replace(target, i, g.wrong(target[i]))
        return mistake(g, good, f"{x.name}.{fn}({reshape_args(g, x, wrong, minus_one=False)})", f"{fn} to another size")
    minus = g.rng.random() < 0.45
    if g.rng.random() < 0.1:
        same = [t for t in g.tensors if t is not x and prod(t.shape) == prod(x.shape) and known(g, *t.shape)]
        if same:
            t = g.rng.choice(same)
            form = g.rng.choice([f"{x.name}.view_as({t.name})", f"{x.name}.reshape({t.name}.shape)"])
            return emit1(g, x, form.replace(".view_as", ".reshape_as") if fn == "reshape" else form, t.shape)
    expr = f"{x.name}.{fn}({reshape_args(g, x, target, minus)})"
    if g.rng.random() < 0.15:
        expr = f"torch.reshape({x.name}, ({reshape_args(g, x, target, minus).strip('()')},))"
    return emit1(g, x, expr, target, detail=f"{fn}{' -1' if minus else ''}")


def flatten(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1)
    r = x.rank
    start = g.rng.randrange(r)
    end = g.rng.randrange(start, r)
    form = g.rng.choice(["method", "torch", "start"])
    if bad:
        good = f"{x.name}.flatten({start}, {end})"
        return mistake(g, good, f"{x.name}.flatten({start}, {out_of_range(g, r)})", "flatten dim out of range")
    if form == "start":
        end = r - 1
        args = g.axis(x, start) if start else ""
        expr = f"{x.name}.flatten({args})" if g.rng.random() < 0.5 else f"torch.flatten({x.name}{', ' + args if args else ''})"
    else:
        args = f"{g.axis(x, start)}, {g.axis(x, end)}"
        expr = f"{x.name}.flatten({args})" if form == "method" else f"torch.flatten({x.name}, {args})"
    out = (*x.shape[:start], prod(x.shape[start : end + 1]), *x.shape[end + 1 :])
    return emit1(g, x, expr, out, detail="flatten")


def unflatten(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1)
    i = g.rng.randrange(x.rank)
    parts = factor(g, x.shape[i])
    if parts is None:
        raise Skip("no factors")
    texts = [g.size(p) for p in parts]
    if g.rng.random() < 0.4:
        texts[g.rng.randrange(2)] = "-1"
    good = f"{x.name}.unflatten({g.axis(x, i)}, ({', '.join(texts)}))"
    if bad:
        if not known(g, x.shape[i]):
            raise Skip("opaque")
        wrong = [g.size(parts[0]), g.size(g.wrong(parts[1]))]
        return mistake(g, good, f"{x.name}.unflatten({i}, ({', '.join(wrong)}))", "unflatten sizes")
    return emit1(g, x, good, (*x.shape[:i], *parts, *x.shape[i + 1 :]), detail="unflatten")


def transpose(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1)
    r = x.rank
    form = g.rng.choice(["transpose", "transpose", "permute", "permute", "T", "mT", "movedim", "swapaxes", "t"])
    if bad:
        if form in ("T", "t") or r < 2:
            form = "mT" if r < 2 else "transpose"
        if form == "mT":
            m = g.rng.choice(["mT", "adjoint()"])
            return mistake(g, f"{x.name}.unsqueeze(0).{m}", f"{x.name}.{m}", f".{m} of a 1-d tensor")
        if form == "permute":
            perm = list(range(r))
            g.rng.shuffle(perm)
            bad_perm = perm[:-1] if g.rng.random() < 0.5 else [*perm, r]
            return mistake(g, f"{x.name}.permute({', '.join(map(str, perm))})", f"{x.name}.permute({', '.join(map(str, bad_perm))})", "permute of the wrong length")
        return mistake(g, f"{x.name}.transpose(0, {r - 1})", f"{x.name}.transpose(0, {out_of_range(g, r)})", "transpose dim out of range")
    if form in ("T", "t"):
        if r > 2:
            form = "mT"
        else:
            out = tuple(reversed(x.shape))
            return emit1(g, x, f"{x.name}.T" if form == "T" else f"{x.name}.t()", out, detail=f".{form}")
    if form == "mT":
        if r < 2:
            raise Skip("mT needs 2 dims")
        m = g.rng.choice(["mT", "mT", "adjoint()"])
        return emit1(g, x, f"{x.name}.{m}", (*x.shape[:-2], x.shape[-1], x.shape[-2]), detail=f".{m}")
    if form == "permute":
        perm = list(range(r))
        g.rng.shuffle(perm)
        texts = [g.axis(x, p) for p in perm]
        args = ", ".join(texts) if g.rng.random() < 0.6 else "(" + ", ".join(texts) + ("," if r == 1 else "") + ")"
        expr = f"{x.name}.permute({args})" if g.rng.random() < 0.8 else f"torch.permute({x.name}, ({', '.join(texts)},))"
        return emit1(g, x, expr, tuple(x.shape[p] for p in perm), detail="permute")
    i, j = g.rng.randrange(r), g.rng.randrange(r)
    if form == "movedim":
        out = list(x.shape)
        out.insert(j, out.pop(i))
        return emit1(g, x, f"{x.name}.movedim({g.axis(x, i)}, {g.axis(x, j)})", out, detail="movedim")
    out = list(x.shape)
    out[i], out[j] = out[j], out[i]
    expr = call(g, form, x.name, f"{g.axis(x, i)}, {g.axis(x, j)}")
    return emit1(g, x, expr, out, detail=form)


def squeeze(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any")
    r = x.rank
    if bad:
        if g.rng.random() < 0.5 or r == 0:
            return mistake(g, f"{x.name}.unsqueeze({r})", f"{x.name}.unsqueeze({g.rng.choice([r + 1, -r - 2])})", "unsqueeze dim out of range")
        return mistake(g, f"{x.name}.squeeze({r - 1})", f"{x.name}.squeeze({out_of_range(g, r)})", "squeeze dim out of range")
    if g.rng.random() < 0.55 or r == 0:
        i = g.rng.randrange(r + 1)
        index = str(i - r - 1) if g.rng.random() < 0.3 else str(i)
        out = list(x.shape)
        out.insert(i, ONE)
        return emit1(g, x, call(g, "unsqueeze", x.name, index), out, detail="unsqueeze")
    ones = [i for i, s in enumerate(x.shape) if s == ONE]
    r2 = g.rng.random()
    # A symbolic size may be 1 (nothing says B is not): squeezing it leaves a rank nobody can know.
    if r2 < 0.25:
        out = [s for s in x.shape if s != ONE] if all(s.is_const for s in x.shape) else None
        return emit1(g, x, call(g, "squeeze", x.name, ""), out, detail="squeeze()")
    if ones and r2 < 0.8:
        i = g.rng.choice(ones)
        return emit1(g, x, call(g, "squeeze", x.name, g.axis(x, i)), [s for k, s in enumerate(x.shape) if k != i], detail="squeeze(dim of 1)")
    if r2 < 0.9 and len(ones) >= 1:
        dims = sorted(set(g.rng.sample(range(r), min(2, r))) | {ones[0]})
        kept = [s for k, s in enumerate(x.shape) if not (k in dims and s == ONE)]
        out = kept if all(x.shape[d].is_const for d in dims) else None
        return emit1(g, x, f"{x.name}.squeeze(({', '.join(g.axis(x, d) for d in dims)},))", out, detail="squeeze(tuple)")
    i = g.rng.randrange(r)
    if x.shape[i] != ONE and g.val(x.shape[i]) == 1:
        raise Skip("opaque 1")
    out = [s for k, s in enumerate(x.shape) if k != i or s != ONE] if x.shape[i].is_const else None
    return emit1(g, x, call(g, "squeeze", x.name, g.axis(x, i)), out, detail="squeeze(dim not 1)")


def expand(g: Gen, bad: bool) -> Emit:
    x = g.tensor(lambda t: ONE in t.shape, kind="any", max_rank=4)
    target = [g.new_size() if s == ONE and g.rng.random() < 0.8 else s for s in x.shape]
    lead = [g.new_size()] if g.rng.random() < 0.2 and x.rank < 4 else []
    full = (*lead, *target)
    texts = [*(g.size(s) for s in lead), *("-1" if s == t and g.rng.random() < 0.4 else g.size(t) for s, t in zip(x.shape, target))]
    if bad:
        spots = [i for i, s in enumerate(x.shape) if s != ONE and known(g, s)]
        if not spots:
            raise Skip("nothing to break")
        i = g.rng.choice(spots)
        wrong = list(texts)
        wrong[len(lead) + i] = g.size(g.wrong(x.shape[i]))
        return mistake(g, f"{x.name}.expand({', '.join(texts)})", f"{x.name}.expand({', '.join(wrong)})", "expand a dim that is not 1")
    others = [t for t in g.tensors if t is not x and broadcast(x.shape, t.shape) == t.shape]
    if others and g.rng.random() < 0.3:
        t = g.rng.choice(others)
        form = g.rng.choice([f"{x.name}.expand_as({t.name})", f"{x.name}.expand({t.name}.shape)", f"torch.broadcast_to({x.name}, {t.name}.shape)"])
        return emit1(g, x, form, t.shape, detail="expand_as")
    if g.rng.random() < 0.25:
        return emit1(g, x, f"{x.name}.expand(({', '.join(texts)},))", full, detail="expand(tuple)")
    return emit1(g, x, f"{x.name}.expand({', '.join(texts)})", full, detail="expand")


def repeat(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1, max_rank=3)
    if g.rng.random() < 0.3:
        i = g.rng.randrange(x.rank)
        k = g.rng.choice([2, 3])
        if bad:
            return mistake(g, f"{x.name}.repeat_interleave({k}, dim={i})", f"{x.name}.repeat_interleave({k}, dim={out_of_range(g, x.rank)})", "repeat_interleave dim out of range")
        return emit1(g, x, f"{x.name}.repeat_interleave({k}, dim={g.axis(x, i)})", replace(x.shape, i, x.shape[i] * k), detail="repeat_interleave")
    extra = g.rng.choice([0, 0, 1])
    reps = [g.rng.choice([1, 1, 2, 3]) for _ in range(x.rank + extra)]
    if bad:
        good = ", ".join(map(str, reps))
        return mistake(g, f"{x.name}.repeat({good})", f"{x.name}.repeat({', '.join(map(str, reps[extra + 1:]))})" if x.rank > 1 else f"{x.name}.repeat()", "repeat with fewer sizes than dims")
    shape = [ONE] * extra + list(x.shape)
    out = [s * k for s, k in zip(shape, reps)]
    return emit1(g, x, f"{x.name}.repeat({', '.join(map(str, reps))})", out, detail="repeat")


# -- reductions ----------------------------------------------------------------------------------

REDUCE = ["sum", "mean", "amax", "amin", "std", "var", "norm", "logsumexp", "prod", "nansum"]


def reduce(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    fn = g.rng.choice(REDUCE)
    r = x.rank
    keep = g.rng.random() < 0.4
    multi = fn in ("sum", "mean", "amax", "amin", "std", "var", "norm", "logsumexp", "nansum") and r >= 2 and g.rng.random() < 0.3
    dims = sorted(g.rng.sample(range(r), 2)) if multi else [g.rng.randrange(r)]
    dim_text = f"({', '.join(g.axis(x, d) for d in dims)})" if multi else g.axis(x, dims[0])
    keep_text = ", keepdim=True" if keep else ""
    kw = "dim=" if g.rng.random() < 0.5 or fn == "norm" else ""
    if bad:
        good = f"{x.name}.{fn}({kw}{dim_text}{keep_text})"
        return mistake(g, good, f"{x.name}.{fn}({kw}{out_of_range(g, r)}{keep_text})", f"{fn} dim out of range")
    if g.rng.random() < 0.12 and fn in ("sum", "mean", "amax", "std", "norm", "prod"):
        return emit1(g, x, f"{x.name}.{fn}()", (), detail=f"{fn}()")
    if keep:
        out = [ONE if i in dims else s for i, s in enumerate(x.shape)]
    else:
        out = [s for i, s in enumerate(x.shape) if i not in dims]
    method = fn not in ("logsumexp",) and g.rng.random() < 0.7
    expr = f"{x.name}.{fn}({kw}{dim_text}{keep_text})" if method else f"torch.{fn}({x.name}, {kw}{dim_text}{keep_text})"
    return emit1(g, x, expr, out, detail=f"{fn}{' keepdim' if keep else ''}")


def maxmin(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    fn = g.rng.choice(["max", "min", "median"])
    r = x.rank
    i = g.rng.randrange(r)
    keep = g.rng.random() < 0.35
    keep_text = ", keepdim=True" if keep else ""
    if bad:
        return mistake(g, f"{x.name}.{fn}(dim={i})", f"{x.name}.{fn}(dim={out_of_range(g, r)})", f"{fn} dim out of range")
    if g.rng.random() < 0.15:
        return emit1(g, x, f"{x.name}.{fn}()", (), detail=f"{fn}()")
    out = [ONE if k == i else s for k, s in enumerate(x.shape)] if keep else [s for k, s in enumerate(x.shape) if k != i]
    values, indices = g.fresh(), g.fresh()
    expr = f"{x.name}.{fn}({g.axis(x, i)}{keep_text})" if g.rng.random() < 0.5 else f"torch.{fn}({x.name}, dim={g.axis(x, i)}{keep_text})"
    if g.rng.random() < 0.3:
        return Emit([f"{values} = {expr}.values"], [Out(values, out)], detail=f"{fn}(dim).values")
    return Emit([f"{values}, {indices} = {expr}"], [Out(values, out), Out(indices, out, below=x.shape[i])], detail=f"{fn}(dim)")


def argmax(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    fn = g.rng.choice(["argmax", "argmin"])
    r = x.rank
    i = g.rng.randrange(r)
    keep = g.rng.random() < 0.3
    if bad:
        return mistake(g, f"{x.name}.{fn}(dim={i})", f"{x.name}.{fn}(dim={out_of_range(g, r)})", f"{fn} dim out of range")
    if g.rng.random() < 0.15:
        return emit1(g, x, f"{x.name}.{fn}()", (), detail=f"{fn}()")
    out = [ONE if k == i else s for k, s in enumerate(x.shape)] if keep else [s for k, s in enumerate(x.shape) if k != i]
    keep_text = ", keepdim=True" if keep else ""
    return emit1(g, x, call(g, fn, x.name, f"{'dim=' if g.rng.random() < 0.5 else ''}{g.axis(x, i)}{keep_text}"), out, below=x.shape[i], detail=fn)


def softmax(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    form = g.rng.choice(["{}.softmax({})", "F.softmax({}, dim={})", "F.log_softmax({}, dim={})", "torch.cumsum({}, {})", "{}.cumsum(dim={})", "{}.log_softmax({})"])
    i = g.rng.randrange(x.rank)
    if bad:
        return mistake(g, form.format(x.name, i), form.format(x.name, out_of_range(g, x.rank)), "softmax/cumsum dim out of range")
    return emit1(g, x, form.format(x.name, g.axis(x, i)), x.shape, detail=form.format("x", "d"))


# -- splitting -----------------------------------------------------------------------------------


def pieces_of(g: Gen, s: Expr, k: int) -> list[Expr] | None:
    """`s` in `k` equal pieces when that division is allowed; literal sizes split like torch."""
    if s.is_const:
        n = g.val(s)
        size = -(-n // k)
        count = -(-n // size)
        return [const(size)] * (count - 1) + [const(n - size * (count - 1))]
    if g.divisible(s, k):
        return [s // k] * k
    return None


def split(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1)
    i = g.rng.randrange(x.rank)
    s = x.shape[i]
    form = g.rng.choice(["chunk", "split", "split_list", "torch.split"])
    dim = g.axis(x, i)
    dim_text = f"dim={dim}" if g.rng.random() < 0.5 else dim
    if form == "chunk":
        k = g.rng.choice([2, 3, 4])
        pieces = pieces_of(g, s, k)
        expr = f"{x.name}.chunk({k}, {dim_text})" if g.rng.random() < 0.7 else f"torch.chunk({x.name}, {k}, {dim_text})"
    elif form == "split_list":
        if s.is_const:
            n = g.val(s)
            if n < 2:
                raise Skip("too small")
            cut = g.rng.randrange(1, n)
            pieces = [const(cut), const(n - cut)]
        elif known(g, s) and g.divisible(s, 2) and g.rng.random() < 0.5:
            pieces = [s // 2, s // 2]
        elif known(g, s):
            c = g.rng.choice([1, 2, 3])
            pieces = [const(c), s - c] if g.rng.random() < 0.5 else [s - c, const(c)]
        else:
            raise Skip("opaque")
        expr = f"{x.name}.split([{', '.join(g.size(p) for p in pieces)}], {dim_text})"
    else:
        k = g.rng.choice([2, 3, 4])
        pieces = pieces_of(g, s, k)
        if pieces is None:
            raise Skip("no split")
        size = g.size(pieces[0])
        expr = f"{x.name}.split({size}, {dim_text})" if form == "split" else f"torch.split({x.name}, {size}, {dim_text})"
    if pieces is None:
        raise Skip("no pieces")
    names = [g.fresh() for _ in pieces]
    if bad:
        if form == "split_list" and known(g, s):
            wrong = [*pieces[:-1], g.wrong(pieces[-1])]
            return Emit(
                [f"{', '.join(names)} = {x.name}.split([{', '.join(g.size(p) for p in wrong)}], {dim_text})"],
                [],
                control=[f"{', '.join(names)} = {expr}"],
                detail="split sizes that do not add up",
            )
        if not known(g, s) and not s.is_const:
            raise Skip("opaque")
        return Emit(
            [f"{', '.join([*names, g.fresh()])} = {expr}"], [], control=[f"{', '.join(names)} = {expr}"], detail=f"{form}: unpacking one too many"
        )
    if len(pieces) > 4 or g.rng.random() < 0.2:
        which = g.rng.choice([0, -1]) if len(pieces) > 1 else 0
        name, replaces = g.output(x)
        out = replace(x.shape, i, pieces[which])
        return Emit([f"{name} = {expr}[{which}]"], [Out(name, out)], replaces=replaces, detail=f"{form}[{which}]")
    outs = [Out(n, replace(x.shape, i, p)) for n, p in zip(names, pieces)]
    return Emit([f"{', '.join(names)} = {expr}"], outs, detail=form)


def unbind(g: Gen, bad: bool) -> Emit:
    x = g.tensor(lambda t: any(s.is_const and 2 <= g.val(s) <= 4 for s in t.shape), kind="any", min_rank=1)
    i = pick_dim(g, x, lambda k: x.shape[k].is_const and 2 <= g.val(x.shape[k]) <= 4)
    n = g.val(x.shape[i])
    names = [g.fresh() for _ in range(n)]
    out = [s for k, s in enumerate(x.shape) if k != i]
    expr = f"{x.name}.unbind({g.axis(x, i)})" if g.rng.random() < 0.7 else f"torch.unbind({x.name}, dim={g.axis(x, i)})"
    if bad:
        return Emit([f"{', '.join(names[:-1])}{',' if n == 2 else ''} = {expr}"], [], control=[f"{', '.join(names)} = {expr}"], detail="unbind: unpacking too few")
    return Emit([f"{', '.join(names)} = {expr}"], [Out(nm, out) for nm in names], detail="unbind")


def topk(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    i = g.rng.randrange(x.rank)
    s = x.shape[i]
    values, indices = g.fresh(), g.fresh()
    if g.rng.random() < 0.5:
        k = g.rng.randint(1, min(g.val(s), 5))
        if bad:
            if not s.is_const:
                raise Skip("symbolic k bound")
            return mistake(g, f"{x.name}.topk({k}, dim={i})[0]", f"{x.name}.topk({g.val(s) + 2}, dim={i})[0]", "topk k larger than the dim")
        largest = g.rng.choice(["", ", largest=False"])
        expr = f"{x.name}.topk({k}, dim={g.axis(x, i)}{largest})" if g.rng.random() < 0.6 else f"torch.topk({x.name}, {k}, {g.axis(x, i)})"
        out = replace(x.shape, i, const(k))
        return Emit([f"{values}, {indices} = {expr}"], [Out(values, out), Out(indices, out, below=s)], detail="topk")
    if bad:
        return mistake(g, f"{x.name}.sort(dim={i})[0]", f"{x.name}.sort(dim={out_of_range(g, x.rank)})[0]", "sort dim out of range")
    if g.rng.random() < 0.3:
        return emit1(g, x, f"torch.argsort({x.name}, dim={g.axis(x, i)})", x.shape, below=s, detail="argsort")
    desc = g.rng.choice(["", ", descending=True"])
    return Emit([f"{values}, {indices} = {x.name}.sort(dim={g.axis(x, i)}{desc})"], [Out(values, x.shape), Out(indices, x.shape, below=s)], detail="sort")


# -- indexing ------------------------------------------------------------------------------------


def slice_item(g: Gen, s: Expr) -> tuple[str, Expr | None]:
    """An index item for a dim of size `s` and the size it leaves (None: not modelled)."""
    value = g.val(s)
    r = g.rng.random()
    if r < 0.3:
        return ":", s
    # A constant bound on a symbolic size is clamped to it: `x[1:]` is `D - 1` only where D >= 1, which
    # nothing says; such sizes are left to torch (unknown to the model).
    if r < 0.45 and value >= 2:
        a = g.rng.randint(1, min(3, value - 1))
        return f"{a}:", s - a if s.is_const else None
    if r < 0.55 and value >= 2:
        a = g.rng.randint(1, min(3, value - 1))
        return f":-{a}", s - a if s.is_const else None
    if r < 0.65:
        b = g.rng.randint(1, min(6, value))
        return (f":{b}", const(b)) if s.is_const else (f":{b}", None)
    if r < 0.75:
        k = g.rng.choice([2, 3])
        if s.is_const:
            return f"::{k}", const(-(-value // k))
        if g.divisible(s, k):
            return f"::{k}", s // k
        return ":", s
    if r < 0.88 and not s.is_const and known(g, s) and g.divisible(s, 2):
        half = g.size(s // 2)
        if g.rng.random() < 0.5:
            return f":{half}", s // 2
        return f"{half}:", s - s // 2
    if r < 0.94 and value >= 2:
        b = g.rng.randint(1, min(3, value - 1))
        return f"-{b}:", const(b) if s.is_const else None
    return f":{g.size(s)}", s


def index(g: Gen, bad: bool) -> Emit:
    """Basic indexing: ints (some negative), slices (constant, with steps, with Dims), None, Ellipsis."""
    x = g.tensor(kind="any", min_rank=1)
    used = g.rng.randint(1, x.rank)
    ellipsis = used < x.rank and g.rng.random() < 0.3
    at_end = ellipsis and g.rng.random() < 0.5  # `x[..., i]`: the items index the last dims
    covered = x.shape[x.rank - used :] if at_end else x.shape[:used]
    items: list[str] = []
    out: list[Expr | None] = []
    for s in covered:
        if g.rng.random() < 0.1:
            items.append("None")
            out.append(ONE)
        value = g.val(s)
        r = g.rng.random()
        if r < 0.25:
            i = g.rng.randrange(min(value, 4))
            items.append(str(i - value) if s.is_const and g.rng.random() < 0.3 else str(i))
        elif r < 0.32:
            items.append("-1")
        else:
            item, size = slice_item(g, s)
            items.append(item)
            out.append(size)
    rest = x.shape[: x.rank - used] if at_end else x.shape[used:]
    if ellipsis:
        if at_end:
            items.insert(0, "...")
            out = [*rest, *out]
        else:
            items.append("...")
            out = [*out, *rest]
    else:
        out += rest
    if g.rng.random() < 0.1:
        items.append("None")
        out.append(ONE)
    text = ", ".join(items)
    if bad:
        spots = [k for k, s in enumerate(x.shape) if known(g, s)]
        if not spots:
            raise Skip("opaque")
        if g.rng.random() < 0.3:
            too_many = ", ".join([":"] * x.rank + ["0"])
            return mistake(g, f"{x.name}[{text}]", f"{x.name}[{too_many}]", "too many indices")
        k = g.rng.choice(spots)
        s = x.shape[k]
        past = g.size(s) if not s.is_const else g.rng.choice([str(g.val(s)), str(-g.val(s) - 1)])
        prefix = ", ".join([":"] * k + [past])
        return mistake(g, f"{x.name}[{text}]", f"{x.name}[{prefix}]", "index past the end of a dim")
    return emit1(g, x, f"{x.name}[{text}]", out, detail=f"[{text}]")


def index_tensor(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1)
    r = g.rng.random()
    if r < 0.35 or bad:
        mask_source = [t for t in g.tensors if t.boolean and 1 <= t.rank <= x.rank and t.shape == x.shape[: t.rank]]
        if mask_source and g.rng.random() < 0.5:
            m = g.rng.choice(mask_source)
            mask, k = m.name, m.rank
        else:
            k = g.rng.randint(1, x.rank)
            same = [t for t in g.tensors if t.floating and t.shape == x.shape[:k]]
            mask = f"{g.rng.choice(same).name} > 0" if same else f"torch.rand({g.shape_args(x.shape[:k])}) > 0.5"
        if bad:
            spots = [i for i in range(k) if known(g, x.shape[i])]
            if not spots:
                raise Skip("opaque")
            i = g.rng.choice(spots)
            wrong = replace(x.shape[:k], i, g.wrong(x.shape[i]))
            return mistake(g, f"{x.name}[{mask}]", f"{x.name}[torch.rand({g.shape_args(wrong)}) > 0.5]", "boolean mask of the wrong shape")
        return emit1(g, x, f"{x.name}[{mask}]", (None, *x.shape[k:]), detail="[bool mask]", volatile=True)
    i = 0 if g.rng.random() < 0.6 else g.rng.randrange(x.rank)
    s = x.shape[i]
    fits = [t for t in g.tensors if t.integer and t.below is not None and t.rank <= 2 and g.val(t.below) <= g.val(s) and known(g, *t.shape)]
    if fits and g.rng.random() < 0.6:
        idx = g.rng.choice(fits)
        idx_text, idx_shape = idx.name, idx.shape
    else:
        n = g.new_size()
        idx_text, idx_shape = f"torch.randint(0, {g.size(s)}, ({g.size(n)},))", (n,)
    prefix = ":, " * i
    return emit1(g, x, f"{x.name}[{prefix}{idx_text}]", (*x.shape[:i], *idx_shape, *x.shape[i + 1 :]), detail="[int tensor]")


def gather(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1)
    i = g.rng.randrange(x.rank)
    s = x.shape[i]
    if g.rng.random() < 0.5:
        n = g.new_size()
        fits = [t for t in g.tensors if t.integer and t.rank == 1 and t.below is not None and g.val(t.below) <= g.val(s)]
        if fits and g.rng.random() < 0.5:
            idx = g.rng.choice(fits)
            idx_text, n = idx.name, idx.shape[0]
        else:
            idx_text = g.rng.choice([f"torch.randint(0, {g.size(s)}, ({g.size(n)},))", f"torch.arange({g.size(n)})"])
            if "arange" in idx_text and g.val(n) > g.val(s):
                raise Skip("arange too long")
        good = f"{x.name}.index_select({g.axis(x, i)}, {idx_text})" if g.rng.random() < 0.7 else f"torch.index_select({x.name}, {g.axis(x, i)}, {idx_text})"
        if bad:
            return mistake(g, good, f"{x.name}.index_select({i}, {idx_text}.unsqueeze(0))", "index_select with a 2-d index")
        return emit1(g, x, good, replace(x.shape, i, n), detail="index_select")
    k = g.new_size(symbolic=0.2)
    idx_shape = replace(x.shape, i, k)
    fits = [t for t in g.tensors if t.integer and t.shape == idx_shape and t.below is not None and g.val(t.below) <= g.val(s)]
    idx_text = g.rng.choice(fits).name if fits and g.rng.random() < 0.7 else f"torch.randint(0, {g.size(s)}, ({', '.join(g.size(d) for d in idx_shape)}{',' if len(idx_shape) == 1 else ''}))"
    good = f"{x.name}.gather({g.axis(x, i)}, {idx_text})" if g.rng.random() < 0.7 else f"torch.gather({x.name}, {g.axis(x, i)}, {idx_text})"
    if bad:
        return mistake(g, good, f"{x.name}.gather({i}, {idx_text}.unsqueeze(0))", "gather with an index of another rank")
    return emit1(g, x, good, idx_shape, detail="gather")


# -- concatenation -------------------------------------------------------------------------------


def cat(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    i = g.rng.randrange(x.rank)
    count = g.rng.choice([2, 2, 3])
    parts = [x.name]
    sizes = [x.shape[i]]
    for _ in range(count - 1):
        fits = [t for t in g.tensors if t.floating and t.rank == x.rank and all(a == b for k, (a, b) in enumerate(zip(t.shape, x.shape)) if k != i)]
        if fits and g.rng.random() < 0.6:
            t = g.rng.choice(fits)
            parts.append(t.name)
            sizes.append(t.shape[i])
        else:
            n = g.new_size()
            parts.append(g.randn(replace(x.shape, i, n)))
            sizes.append(n)
    fn = g.rng.choice(["torch.cat", "torch.cat", "torch.concat"])
    brackets = "[{}]" if g.rng.random() < 0.7 else "({})"
    dim = g.axis(x, i)
    dim_text = f"dim={dim}" if g.rng.random() < 0.5 else dim
    expr = f"{fn}({brackets.format(', '.join(parts))}, {dim_text})"
    if bad:
        others = [k for k in range(x.rank) if k != i and known(g, x.shape[k])]
        if not others or g.rng.random() < 0.2:
            wrong = g.randn(x.shape[:-1]) if x.rank > 1 else g.randn((g.new_size(), g.new_size()))
            return mistake(g, expr, f"{fn}([{x.name}, {wrong}], {dim_text})", "cat of tensors of different ranks")
        k = g.rng.choice(others)
        wrong_shape = replace(x.shape, k, g.wrong(x.shape[k]))
        return mistake(g, expr, f"{fn}([{x.name}, {g.randn(wrong_shape)}], {dim_text})", "cat with another size off the cat dim")
    return emit1(g, None, expr, replace(x.shape, i, _sum(sizes)), detail="cat")


def _sum(sizes: Sequence[Expr]) -> Expr:
    total = const(0)
    for s in sizes:
        total = total + s
    return total


def stack(g: Gen, bad: bool) -> Emit:
    x = g.tensor()
    count = g.rng.choice([2, 2, 3])
    parts = [x.name] + [g.operand(x.shape) for _ in range(count - 1)]
    i = g.rng.randrange(x.rank + 1)
    dim = str(i - x.rank - 1) if g.rng.random() < 0.3 else str(i)
    expr = f"torch.stack([{', '.join(parts)}], dim={dim})"
    if bad:
        spots = [k for k in range(x.rank) if known(g, x.shape[k])]
        if not spots:
            raise Skip("opaque")
        k = g.rng.choice(spots)
        return mistake(g, expr, f"torch.stack([{x.name}, {g.randn(replace(x.shape, k, g.wrong(x.shape[k])))}], dim={dim})", "stack of different shapes")
    out = list(x.shape)
    out.insert(i, const(count))
    return emit1(g, None, expr, out, detail="stack")


# -- creation ------------------------------------------------------------------------------------


def create_shape(g: Gen) -> tuple[Expr, ...]:
    if g.tensors and g.rng.random() < 0.5:
        t = g.rng.choice(g.tensors)
        shape = list(t.shape)
        if shape and g.rng.random() < 0.4:
            shape[-1] = g.new_size()
        return tuple(shape)
    return tuple(g.new_size() for _ in range(g.rng.choice([1, 2, 2, 3])))


def create(g: Gen, bad: bool) -> Emit:
    r = g.rng.random()
    if r < 0.15:
        n = g.new_size()
        if g.rng.random() < 0.5:
            return emit1(g, None, f"torch.arange({g.size(n)}){g.rng.choice(['', '.float()'])}", (n,), below=n, detail="arange(n)")
        a = g.rng.randint(1, 3)
        return emit1(g, None, f"torch.arange({a}, {g.size(n)}).float()", (n - a,), detail="arange(a, n)")
    if r < 0.25:
        shape = create_shape(g)
        k = g.new_size()
        return emit1(g, None, f"torch.randint(0, {g.size(k)}, {g.shape_args(shape, tuple_only=True)})", shape, below=k, detail="randint")
    if r < 0.32:
        n = g.new_size()
        if g.rng.random() < 0.5:
            return emit1(g, None, f"torch.eye({g.size(n)})", (n, n), detail="eye")
        return emit1(g, None, f"torch.linspace(0, 1, {g.size(n)})", (n,), detail="linspace")
    shape = create_shape(g)
    fn = g.rng.choice(["zeros", "ones", "randn", "rand", "empty", "full"])
    if fn == "full":
        return emit1(g, None, f"torch.full({g.shape_args(shape, tuple_only=True)}, 0.5)", shape, detail="full")
    args = g.shape_args(shape)
    if g.rng.random() < 0.2:
        args += ", dtype=torch.float32"
    return emit1(g, None, f"torch.{fn}({args})", shape, detail=fn)


def like(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any")
    r = g.rng.random()
    if r < 0.5:
        fn = g.rng.choice(["zeros_like", "ones_like", "randn_like", "empty_like", "rand_like", "full_like"])
        extra = ", 2.0" if fn == "full_like" else ""
        if fn in ("randn_like", "rand_like") and not x.floating:
            fn = "zeros_like"
        return emit1(g, x, f"torch.{fn}({x.name}{extra})", x.shape, detail=fn)
    shape = create_shape(g)
    fn = g.rng.choice(["new_zeros", "new_ones", "new_empty", "new_full"])
    extra = ", 1.0" if fn == "new_full" else ""
    args = g.shape_args(shape, tuple_only=fn == "new_full")
    return emit1(g, x, f"{x.name}.{fn}({args}{extra})", shape, detail=fn)


# -- torch.nn.functional -------------------------------------------------------------------------


def conv_out(g: Gen, size: Expr, k: int, stride: int, padding: int, dilation: int) -> Expr:
    """`(size + 2*padding - dilation*(k-1) - 1) // stride + 1`, written only where the division is allowed."""
    num = size + (2 * padding - dilation * (k - 1) - 1)
    if stride == 1:
        return num + 1
    if size.is_const:
        if g.val(num) < 0:
            raise Skip("kernel too big")
        return const(g.val(num) // stride + 1)
    if not g.divisible(size, stride):
        raise Skip("inexact stride")
    return num // stride + 1


def conv(g: Gen, bad: bool) -> Emit:
    two = g.rng.random() < 0.55
    spatial = 2 if two else 1
    x = g.tensor(min_rank=spatial + 1, max_rank=spatial + 2)
    c = x.shape[-spatial - 1]
    groups = 1
    if g.rng.random() < 0.25:
        options = [k for k in (2, 3) if (c.is_const and g.val(c) % k == 0) or (not c.is_const and g.divisible(c, k))]
        if options:
            groups = g.rng.choice(options)
    o = g.new_size(symbolic=0.4) * groups if groups > 1 else g.new_size(symbolic=0.4)
    odd = [s for s in g.symbols if g.values[s] % 2 == 1 and 1 < g.values[s] <= min(g.val(e) for e in x.shape[-spatial:])]
    if not bad and groups == 1 and odd and g.rng.random() < 0.2:
        return conv_dim_kernel(g, x, spatial, o, sym(g.rng.choice(odd)))
    k = g.rng.choice([1, 3, 3, 5])
    stride = g.rng.choice([1, 1, 2])
    dilation = g.rng.choice([1, 1, 1, 2])
    same = stride == 1 and g.rng.random() < 0.15
    padding = 0 if same else g.rng.choice([0, 1, k // 2])
    outs = []
    for s in x.shape[-spatial:]:
        outs.append(s if same else conv_out(g, s, k, stride, padding, dilation))
        if g.val(outs[-1]) < 1:
            raise Skip("empty output")
    cin = c // groups if groups > 1 else c
    weight = (o, cin, *([const(k)] * spatial))
    w = g.randn(weight)
    bias = f", {g.operand((o,))}" if g.rng.random() < 0.4 else ""
    opts = []
    if stride != 1:
        opts.append(f"stride={stride}")
    if same:
        opts.append("padding='same'")
    elif padding:
        opts.append(f"padding={padding}" if g.rng.random() < 0.7 or not two else f"padding=({padding}, {padding})")
    if dilation != 1:
        opts.append(f"dilation={dilation}")
    if groups != 1:
        opts.append(f"groups={groups}")
    fn = "F.conv2d" if two else "F.conv1d"
    tail = "".join(", " + o_ for o_ in opts)
    expr = f"{fn}({x.name}, {w}{bias}{tail})"
    if bad:
        if not known(g, c):
            raise Skip("opaque")
        which = g.rng.random()
        if which < 0.6:
            wrong = (o, g.wrong(cin), *weight[2:])
            return mistake(g, expr, f"{fn}({x.name}, {g.randn(wrong)}{bias}{tail})", f"{fn} in-channels of the weight")
        if which < 0.8:
            rank_wrong = g.randn((g.new_size(), *x.shape)) if x.rank < 4 else g.randn(x.shape[1:]) + ".unsqueeze(0).unsqueeze(0)"
            return mistake(g, expr, f"{fn}({rank_wrong}, {w}{bias}{tail})", f"{fn} input of the wrong rank")
        smallest = min(x.shape[-spatial:], key=g.val)
        if not smallest.is_const:
            raise Skip("symbolic sizes fit any kernel")
        big = g.val(smallest) + 2 * padding + 3
        wbig = g.randn((o, cin, *([const(big)] * spatial)))
        return mistake(g, expr, f"{fn}({x.name}, {wbig}{bias}{tail})", f"{fn} kernel larger than the input")
    return emit1(g, x, expr, (*x.shape[:-spatial - 1], o, *outs), detail=f"{fn} {' '.join(opts)}")


def conv_dim_kernel(g: Gen, x: TVal, spatial: int, o: Expr, k: Expr) -> Emit:
    """A kernel that is a size (`k: Dim[K]`, odd where it runs) with the "same" padding `k // 2`, or a
    stride of 2: SHAPES.md §6 makes the sizes a stride divides multiples of it, never the kernel, so a
    size that would take `K` even (`H + 1`, `H//2 - K//2 + 1`) is wrong here; the model leaves the
    spatial sizes to torch."""
    c = x.shape[-spatial - 1]
    stride = g.rng.choice([1, 1, 2])
    kernel = g.size(k)
    padding = f"({kernel}) // 2" if stride == 1 or g.rng.random() < 0.5 else "0"
    extra = (", stride=2" if stride == 2 else "") + f", padding={padding}"
    n = "2d" if spatial == 2 else "1d"
    if g.rng.random() < 0.5:
        expr = f"nn.Conv{n}({g.size(c)}, {g.size(o)}, {kernel}{extra})({x.name})"
    else:
        expr = f"F.conv{n}({x.name}, {g.randn((o, c, *([k] * spatial)))}{extra})"
    return emit1(g, x, expr, (*x.shape[:-spatial - 1], o, *([None] * spatial)), detail=f"conv{n} kernel {k} stride {stride}")


def pool(g: Gen, bad: bool) -> Emit:
    two = g.rng.random() < 0.6
    spatial = 2 if two else 1
    x = g.tensor(min_rank=spatial + 1, max_rank=spatial + 2)
    kind = g.rng.choice(["max", "avg", "lp", "adaptive"])
    d = "2d" if two else "1d"
    if kind == "adaptive":
        sizes = [g.new_size(symbolic=0.2) for _ in range(spatial)]
        if spatial == 1 or g.rng.random() < 0.2:
            sizes = [sizes[0]] * spatial  # one int: every spatial dim
            arg = g.size(sizes[0])
        else:
            arg = f"({', '.join(g.size(s) for s in sizes)})"
        fn = g.rng.choice([f"F.adaptive_avg_pool{d}", f"F.adaptive_max_pool{d}"])
        if bad:
            wrong = f"({', '.join(['2'] * (spatial + 1))})"
            return mistake(g, f"{fn}({x.name}, {arg})", f"{fn}({x.name}, {wrong})", "adaptive pool output of the wrong length")
        return emit1(g, x, f"{fn}({x.name}, {arg})", (*x.shape[:-spatial], *sizes), detail=fn)
    k = g.rng.choice([2, 2, 3])
    stride = g.rng.choice([None, None, 1, 2])
    padding = 0 if kind == "lp" else g.rng.choice([0, 0, k // 2])
    s = k if stride is None else stride
    outs = [conv_out(g, size, k, s, padding, 1) for size in x.shape[-spatial:]]
    if any(g.val(o) < 1 for o in outs):
        raise Skip("empty")
    fn = f"F.{kind}_pool{d}"
    opts = "" if stride is None else f", stride={stride}"
    opts += f", padding={padding}" if padding else ""
    norm = ", 2.0" if kind == "lp" else ""  # lp_pool's norm_type comes before the kernel
    expr = f"{fn}({x.name}{norm}, {k}{opts})"
    if bad:
        if kind != "lp" and g.rng.random() < 0.5:
            return mistake(g, expr, f"{fn}({x.name}, {k}, padding={k})", f"{fn} padding over half the kernel")
        wrong_rank = f"{x.name}.unsqueeze(0).unsqueeze(0)" if x.rank == spatial + 2 else f"{x.name}[0, 0]" if x.rank > 2 else f"{x.name}[0]"
        return mistake(g, expr, f"{fn}({wrong_rank}{norm}, {k}{opts})", f"{fn} input of the wrong rank")
    return emit1(g, x, expr, (*x.shape[:-spatial], *outs), detail=f"{fn} k={k}{opts}")


def pad(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    n = g.rng.randint(1, min(2, x.rank))
    amounts = [g.rng.choice([0, 1, 2, 3]) for _ in range(2 * n)]
    out = list(x.shape)
    for j in range(n):
        out[-1 - j] = out[-1 - j] + amounts[2 * j] + amounts[2 * j + 1]
    text = f"({', '.join(map(str, amounts))})"
    mode = ", value=0.0" if g.rng.random() < 0.3 else ""
    if bad:
        if g.rng.random() < 0.5:
            return mistake(g, f"F.pad({x.name}, {text})", f"F.pad({x.name}, ({', '.join(map(str, [*amounts, 1]))}))", "pad of odd length")
        long = ", ".join(["1"] * (2 * x.rank + 2))
        return mistake(g, f"F.pad({x.name}, {text})", f"F.pad({x.name}, ({long}))", "pad longer than the rank")
    return emit1(g, x, f"F.pad({x.name}, {text}{mode})", out, detail="F.pad")


def interpolate(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=3, max_rank=4)
    spatial = x.rank - 2
    mode = g.rng.choice(["", "", f", mode={'bilinear' if spatial == 2 else 'linear'!r}"])
    if g.rng.random() < 0.5:
        sizes = [g.new_size() for _ in range(spatial)]
        arg = f"size=({', '.join(g.size(s) for s in sizes)}{',' if spatial == 1 else ''})"
        if g.rng.random() < 0.3:
            arg = f"size={g.size(sizes[0])}"
            sizes = [sizes[0]] * spatial
        outs = sizes
    else:
        factor = g.rng.choice([2, 2, 3, 0.5])
        arg = f"scale_factor={factor}"
        outs = []
        for s in x.shape[2:]:
            if factor == 0.5:
                outs.append(g.div(s, 2) if not s.is_const else const(g.val(s) // 2))
            else:
                outs.append(s * int(factor))
        if any(g.val(o) < 1 for o in outs):
            raise Skip("empty")
    expr = f"F.interpolate({x.name}, {arg}{mode})"
    if bad:
        wrong = f"size=({', '.join(['4'] * (spatial + 1))})"
        return mistake(g, expr, f"F.interpolate({x.name}, {wrong})", "interpolate size of the wrong length")
    return emit1(g, x, expr, (*x.shape[:2], *outs), detail=f"interpolate {arg.split('=')[0]}")


def norm(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1)
    kind = g.rng.choice(["layer", "layer", "rms", "group"])
    if kind == "group":
        if x.rank < 2:
            raise Skip("group_norm needs channels")
        c = x.shape[1]
        options = [k for k in (1, 2, 3, 4) if (c.is_const and g.val(c) % k == 0) or g.divisible(c, k)]
        if not options:
            raise Skip("no groups")
        groups = g.rng.choice(options)
        affine = f", {g.operand((c,))}, {g.operand((c,))}" if g.rng.random() < 0.3 else ""
        expr = f"F.group_norm({x.name}, {groups}{affine})"
        if bad:
            if not c.is_const:
                raise Skip("symbolic channels")
            bad_groups = next((k for k in (4, 5, 7, 3) if g.val(c) % k), None)
            if bad_groups is None:
                raise Skip("every group count divides")
            return mistake(g, expr, f"F.group_norm({x.name}, {bad_groups})", "group_norm groups not dividing channels")
        return emit1(g, x, expr, x.shape, detail="group_norm")
    k = 1 if x.rank == 1 or g.rng.random() < 0.7 else 2
    normalized = x.shape[-k:]
    shape_text = g.shape_args(normalized, tuple_only=True)
    if g.rng.random() < 0.2:
        shape_text = f"{x.name}.shape[-{k}:]"
    fn = "F.layer_norm" if kind == "layer" else "F.rms_norm"
    weight = f", {g.operand(normalized)}" if g.rng.random() < 0.3 else ""
    expr = f"{fn}({x.name}, {shape_text}{weight})"
    if bad:
        spots = [i for i, s in enumerate(normalized) if known(g, s)]
        if not spots:
            raise Skip("opaque")
        i = g.rng.choice(spots)
        wrong = replace(normalized, i, g.wrong(normalized[i]))
        return mistake(g, expr, f"{fn}({x.name}, {g.shape_args(wrong, tuple_only=True)})", f"{fn} normalized shape")
    return emit1(g, x, expr, x.shape, detail=fn)


def embedding(g: Gen, bad: bool) -> Emit:
    idx = g.tensor(lambda t: t.below is not None, kind="integer", max_rank=3)
    assert idx.below is not None
    v = idx.below if g.rng.random() < 0.7 else idx.below + g.rng.randint(1, 3)
    e = g.new_size()
    w = g.randn((v, e))
    weights = [t for t in g.tensors if t.floating and t.rank == 2 and g.val(t.shape[0]) >= g.val(idx.below)]
    if weights and g.rng.random() < 0.3:
        wt = g.rng.choice(weights)
        w, e = wt.name, wt.shape[1]
    expr = f"F.embedding({idx.name}, {w})"
    if bad:
        return mistake(g, expr, f"F.embedding({idx.name}, {w}.unsqueeze(0))", "embedding weight that is not 2-d")
    return emit1(g, None, expr, (*idx.shape, e), detail="F.embedding")


def embedding_bag(g: Gen, bad: bool) -> Emit:
    """`F.embedding_bag(idx, w)`: a 2-d index tensor is bags of one length, one pooled row each."""
    idx = g.tensor(lambda t: t.below is not None and g.val(t.shape[1]) > 0, kind="integer", min_rank=2, max_rank=2)
    assert idx.below is not None
    e = g.new_size()
    w = g.randn((idx.below, e))
    mode = g.rng.choice(["", ', mode="sum"', ', mode="max"'])
    expr = f"F.embedding_bag({idx.name}, {w}{mode})"
    if bad:
        offsets = f"torch.zeros({g.size(idx.shape[0])}, dtype=torch.long)"
        return mistake(g, expr, f"F.embedding_bag({idx.name}, {w}, {offsets}{mode})", "embedding_bag offsets for a 2-d input")
    return emit1(g, None, expr, (idx.shape[0], e), detail="F.embedding_bag")


def one_hot(g: Gen, bad: bool) -> Emit:
    idx = g.tensor(lambda t: t.below is not None, kind="integer", max_rank=3)
    assert idx.below is not None
    if g.rng.random() < 0.25:
        return emit1(g, None, f"F.one_hot({idx.name})", None, detail="one_hot (classes from data)", volatile=True)
    n = idx.below
    return emit1(g, None, f"F.one_hot({idx.name}, {g.size(n)})" if g.rng.random() < 0.5 else f"F.one_hot({idx.name}, num_classes={g.size(n)})", (*idx.shape, n), detail="one_hot")


def sdpa(g: Gen, bad: bool) -> Emit:
    q = g.tensor(min_rank=3, max_rank=4)
    lead, t, e = q.shape[:-2], q.shape[-2], q.shape[-1]
    s = t if g.rng.random() < 0.5 else g.new_size()
    ev = e if g.rng.random() < 0.6 else g.new_size()
    gqa = ""
    kv_lead = lead
    if q.rank == 4 and g.rng.random() < 0.3:
        h = lead[1]
        options = [k for k in (2, 3) if (h.is_const and g.val(h) % k == 0) or g.divisible(h, k)]
        if options:
            kv_lead = (lead[0], h // g.rng.choice(options))
            gqa = ", enable_gqa=True"
    k = g.operand((*kv_lead, s, e))
    v = g.operand((*kv_lead, s, ev))
    extra = ""
    r = g.rng.random()
    if r < 0.2 and s == t:
        extra = ", is_causal=True"
    elif r < 0.35:
        extra = f", attn_mask={g.randn((t, s))}"
    expr = f"F.scaled_dot_product_attention({q.name}, {k}, {v}{extra}{gqa})"
    if bad:
        if not known(g, e, s):
            raise Skip("opaque")
        if g.rng.random() < 0.5:
            wrong_k = g.randn((*kv_lead, s, g.wrong(e)))
            return mistake(g, expr, f"F.scaled_dot_product_attention({q.name}, {wrong_k}, {v}{extra}{gqa})", "sdpa key head size")
        wrong_v = g.randn((*kv_lead, g.wrong(s), ev))
        return mistake(g, expr, f"F.scaled_dot_product_attention({q.name}, {k}, {wrong_v}{extra}{gqa})", "sdpa value length")
    return emit1(g, q, expr, (*lead, t, ev), detail=f"sdpa{' gqa' if gqa else ''}{extra.split('=')[0]}")


def cross_entropy(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=2, max_rank=3)
    n, c = x.shape[0], x.shape[1]
    rest = x.shape[2:]
    target_shape = (n, *rest)
    fits = [t for t in g.tensors if t.integer and t.shape == target_shape and t.below is not None and g.val(t.below) <= g.val(c)]
    target = g.rng.choice(fits).name if fits and g.rng.random() < 0.6 else f"torch.randint(0, {g.size(c)}, {g.shape_args(target_shape, tuple_only=True)})"
    reduction = g.rng.choice(["", "", ", reduction='none'", ", reduction='sum'"])
    expr = f"F.cross_entropy({x.name}, {target}{reduction})"
    if bad:
        if not known(g, n):
            raise Skip("opaque")
        wrong = replace(target_shape, 0, g.wrong(n))
        return mistake(g, expr, f"F.cross_entropy({x.name}, torch.randint(0, 2, {g.shape_args(wrong, tuple_only=True)}){reduction})", "cross_entropy target batch size")
    out = target_shape if "none" in reduction else ()
    return emit1(g, None, expr, out, detail=f"cross_entropy{reduction}")


def mse(g: Gen, bad: bool) -> Emit:
    x = g.tensor()
    other = g.operand(x.shape)
    reduction = g.rng.choice(["", ", reduction='none'"])
    return emit1(g, None, f"F.mse_loss({x.name}, {other}{reduction})", x.shape if reduction else (), detail=f"mse_loss{reduction}")


def margin_loss(g: Gen, bad: bool) -> Emit:
    """The losses of one tensor and a target of its shape, `F.multi_margin_loss` and `F.triplet_margin_loss` (a
    negative of another last size is the mistake)."""
    r = g.rng.random()
    reduction = g.rng.choice(["", ", reduction='none'", ", reduction='sum'"])
    none = "none" in reduction
    if bad or r < 0.3:
        x = g.tensor(min_rank=1, max_rank=3)
        expr = f"F.triplet_margin_loss({x.name}, {g.operand(x.shape)}, {g.operand(x.shape)}{reduction})"
        if bad:
            if not known(g, x.shape[-1]):
                raise Skip("opaque")
            wrong = g.randn(replace(x.shape, -1, g.wrong(x.shape[-1])))
            return mistake(g, expr, f"F.triplet_margin_loss({x.name}, {x.name}, {wrong}{reduction})", "triplet last dim")
        return emit1(g, None, expr, x.shape[:-1] if none else (), detail=f"triplet_margin_loss{reduction}")
    if r < 0.45:
        x = g.tensor(min_rank=2, max_rank=2)
        n, c = x.shape
        target = f"torch.randint(0, {g.size(c)}, {g.shape_args((n,), tuple_only=True)})"
        return emit1(g, None, f"F.multi_margin_loss({x.name}, {target}{reduction})", (n,) if none else (),
                     detail=f"multi_margin_loss{reduction}")
    x = g.tensor()
    loss = g.rng.choice(["hinge_embedding_loss", "soft_margin_loss", "poisson_nll_loss"])
    expr = f"F.{loss}({x.name}, {g.operand(x.shape)}{reduction})"
    return emit1(g, None, expr, x.shape if none else (), detail=f"{loss}{reduction}")


def statistics(g: Gen, bad: bool) -> Emit:
    """`histc` and the windows: 1-d of the count given."""
    n = g.new_size()
    if g.rng.random() < 0.5:
        x = g.tensor()
        return emit1(g, None, call(g, "histc", x.name, f"bins={g.size(n)}"), (n,), detail="histc")
    window = g.rng.choice(["hann", "hamming", "blackman", "bartlett", "kaiser"])
    return emit1(g, None, f"torch.{window}_window({g.size(n)})", (n,), detail="window")


# -- nn modules ----------------------------------------------------------------------------------


def module(g: Gen, bad: bool) -> Emit:
    kind = g.rng.choice(["Linear", "Linear", "Conv2d", "Conv1d", "LayerNorm", "Embedding", "GroupNorm", "BatchNorm", "Pool", "Simple",
                         "Sequential", "RMSNorm", "Transformer"])
    m = g.fresh("m")
    name = g.fresh()
    if kind == "Embedding":
        idx = g.tensor(lambda t: t.below is not None, kind="integer", max_rank=2)
        assert idx.below is not None
        e = g.new_size()
        ctor = f"nn.Embedding({g.size(idx.below)}, {g.size(e)})"
        if bad:
            raise Skip("no embedding mistake")
        return Emit([f"{m} = {ctor}", f"{name} = {m}({idx.name})"], [Out(name, (*idx.shape, e))], detail=ctor)
    if kind in ("Linear", "Sequential"):
        x = g.tensor(min_rank=1)
        k, n = x.shape[-1], g.new_size()
        if kind == "Linear":
            ctor = f"nn.Linear({g.size(k, plain=0.3)}, {g.size(n, plain=0.3)}{g.rng.choice(['', ', bias=False'])})"
            bad_ctor = f"nn.Linear({g.size(g.wrong(k), plain=0)}, {g.size(n)})" if known(g, k) else None
        else:
            h = g.new_size()
            ctor = f"nn.Sequential(nn.Linear({g.size(k, plain=0.3)}, {g.size(h)}), nn.ReLU(), nn.Linear({g.size(h)}, {g.size(n)}))"
            bad_ctor = f"nn.Sequential(nn.Linear({g.size(k)}, {g.size(h)}), nn.ReLU(), nn.Linear({g.size(g.wrong(h), plain=0)}, {g.size(n)}))"
        out: tuple[Expr, ...] = (*x.shape[:-1], n)
    elif kind in ("Conv2d", "Conv1d"):
        spatial = 2 if kind == "Conv2d" else 1
        x = g.tensor(min_rank=spatial + 1, max_rank=spatial + 2)
        c, o = x.shape[-spatial - 1], g.new_size(symbolic=0.4)
        k = g.rng.choice([1, 3])
        stride = g.rng.choice([1, 2])
        padding = g.rng.choice([0, k // 2])
        outs = [conv_out(g, s, k, stride, padding, 1) for s in x.shape[-spatial:]]
        if any(g.val(v) < 1 for v in outs):
            raise Skip("empty")
        tail = f", {k}" + (f", stride={stride}" if stride != 1 else "") + (f", padding={padding}" if padding else "")
        ctor = f"nn.{kind}({g.size(c, plain=0.3)}, {g.size(o)}{tail})"
        bad_ctor = f"nn.{kind}({g.size(g.wrong(c), plain=0)}, {g.size(o)}{tail})" if known(g, c) else None
        out = (*x.shape[:-spatial - 1], o, *outs)
    elif kind in ("LayerNorm", "RMSNorm"):
        x = g.tensor(min_rank=1)
        d = x.shape[-1]
        ctor = f"nn.{kind}({g.size(d, plain=0.3)})"
        bad_ctor = f"nn.{kind}({g.size(g.wrong(d), plain=0)})" if known(g, d) else None
        out = x.shape
    elif kind == "Transformer":
        x = g.tensor(lambda t: all(g.val(s) > 0 for s in t.shape), min_rank=2, max_rank=3)
        d = x.shape[-1]
        layer = "TransformerEncoderLayer({}, 1, dim_feedforward=8, dropout=0.0, batch_first=True)"
        ctor = f"nn.{layer.format(g.size(d, plain=0.3))}"
        if g.rng.random() < 0.3:
            ctor = f"nn.TransformerEncoder({ctor}, 2, enable_nested_tensor=False)"
        bad_ctor = f"nn.{layer.format(g.size(g.wrong(d), plain=0))}" if known(g, d) else None
        out = x.shape
    elif kind == "GroupNorm":
        x = g.tensor(min_rank=2)
        c = x.shape[1]
        options = [k for k in (1, 2, 3) if (c.is_const and g.val(c) % k == 0) or g.divisible(c, k)]
        groups = g.rng.choice(options) if options else 1
        ctor = f"nn.GroupNorm({groups}, {g.size(c, plain=0.3)})"
        wrong = g.wrong(c)
        # built for a size the groups divide: torch would otherwise fail on this line, not the call's
        bad_ctor = f"nn.GroupNorm({groups}, {g.size(wrong, plain=0)})" if known(g, c) and g.val(wrong) % groups == 0 else None
        out = x.shape
    elif kind == "BatchNorm":
        x = g.tensor(lambda t: g.val(t.shape[0]) > 1, min_rank=2, max_rank=4)
        c = x.shape[1]
        which = "BatchNorm2d" if x.rank == 4 else "BatchNorm1d"
        ctor = f"nn.{which}({g.size(c, plain=0.3)})"
        bad_ctor = f"nn.{which}({g.size(g.wrong(c), plain=0)})" if known(g, c) else None
        out = x.shape
    elif kind == "Pool":
        x = g.tensor(min_rank=3, max_rank=4)
        k = 2
        outs = [conv_out(g, s, k, k, 0, 1) for s in x.shape[-2:]]
        which = g.rng.choice(["MaxPool2d", "AvgPool2d"])
        ctor = f"nn.{which}({k})"
        bad_ctor = None
        out = (*x.shape[:-2], *outs)
    else:
        x = g.tensor(min_rank=2)
        which = g.rng.choice(["ReLU()", "GELU()", "Dropout(0.1)", "Flatten()", "Tanh()", "Identity()", "Softmax(dim=-1)"])
        ctor = f"nn.{which}"
        bad_ctor = None
        out = (x.shape[0], prod(x.shape[1:])) if which == "Flatten()" else x.shape
    if bad:
        if bad_ctor is None:
            raise Skip("no mistake")
        return Emit([f"{m} = {bad_ctor}", f"{name} = {m}({x.name})"], [], control=[f"{m} = {ctor}", f"{name} = {m}({x.name})"], detail=f"nn.{kind} built for another size")
    name, replaces = g.output(x)
    return Emit([f"{m} = {ctor}", f"{name} = {m}({x.name})"], [Out(name, out)], replaces=replaces, detail=ctor.split("(")[0])


# -- einops --------------------------------------------------------------------------------------


def axis_names(g: Gen, t: TVal) -> list[str]:
    names: list[str] = []
    for s in t.shape:
        base = s.symbol_name.lower() if s.symbol_name and not s.symbol_name.startswith("_") else "k"
        name = base
        n = 2
        while name in names:
            name = f"{base}{n}"
            n += 1
        names.append(name)
    return names


def rearrange(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1, max_rank=4)
    names = axis_names(g, x)
    sizes = dict(zip(names, x.shape))
    left = list(names)
    kwargs = ""
    r = g.rng.random()
    right: list[str]
    out: list[Expr]
    if r < 0.3 and x.rank >= 2:
        right = list(names)
        g.rng.shuffle(right)
        out = [sizes[a] for a in right]
    elif r < 0.55 and x.rank >= 2:
        i = g.rng.randrange(x.rank - 1)
        right = [*names[:i], f"({names[i]} {names[i + 1]})", *names[i + 2 :]]
        out = [*x.shape[:i], x.shape[i] * x.shape[i + 1], *x.shape[i + 2 :]]
        if g.rng.random() < 0.4:
            right[i], right[0] = right[0], right[i]
            out[i], out[0] = out[0], out[i]
    elif r < 0.85:
        i = g.rng.randrange(x.rank)
        parts = factor(g, x.shape[i])
        if parts is None:
            raise Skip("no factor")
        a, b = f"{names[i]}a", f"{names[i]}b"
        left = [*names[:i], f"({a} {b})", *names[i + 1 :]]
        right = [*names[:i], a, b, *names[i + 1 :]]
        if g.rng.random() < 0.5:
            right[i], right[i + 1] = right[i + 1], right[i]
            out = [*x.shape[:i], parts[1], parts[0], *x.shape[i + 1 :]]
        else:
            out = [*x.shape[:i], parts[0], parts[1], *x.shape[i + 1 :]]
        kwargs = f", {a}={g.size(parts[0])}"
        if bad:
            if not known(g, x.shape[i]):
                raise Skip("opaque")
            wrong = g.wrong(parts[0])
            if g.divisible(x.shape[i], wrong) or g.val(x.shape[i]) % max(g.val(wrong), 1) == 0:
                raise Skip("wrong still divides")
            return mistake(
                g,
                f"einops.rearrange({x.name}, {' '.join(left) + ' -> ' + ' '.join(right)!r}{kwargs})",
                f"einops.rearrange({x.name}, {' '.join(left) + ' -> ' + ' '.join(right)!r}, {a}={g.size(wrong)})",
                "rearrange: an axis length that does not divide",
            )
    else:
        i = g.rng.randrange(x.rank + 1)
        right = [*names[:i], "1", *names[i:]]
        out = [*x.shape[:i], ONE, *x.shape[i:]]
    pattern = f"{' '.join(left)} -> {' '.join(right)}"
    expr = f"einops.rearrange({x.name}, {pattern!r}{kwargs})"
    if bad:
        short = " ".join(names[:-1]) + f" -> {' '.join(names[:-1])}" if x.rank > 1 else "a b -> b a"
        return mistake(g, expr, f"einops.rearrange({x.name}, {short!r})", "rearrange pattern of the wrong rank")
    return emit1(g, x, expr, out, detail=f"rearrange {pattern}")


def einops_reduce(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1, max_rank=4)
    names = axis_names(g, x)
    keep = [i for i in range(x.rank) if g.rng.random() < 0.6]
    if len(keep) == x.rank:
        keep = keep[1:]
    unit = g.rng.random() < 0.2
    right = [names[i] if i in keep else "1" for i in range(x.rank)] if unit else [names[i] for i in keep]
    out = [x.shape[i] if i in keep else ONE for i in range(x.rank)] if unit else [x.shape[i] for i in keep]
    how = g.rng.choice(["mean", "sum", "max", "min"])
    pattern = f"{' '.join(names)} -> {' '.join(right)}"
    expr = f"einops.reduce({x.name}, {pattern!r}, {how!r})"
    if bad:
        return mistake(g, expr, f"einops.reduce({x.name}, {' '.join([*names, 'extra']) + ' -> ' + ' '.join(right)!r}, {how!r})", "reduce pattern of the wrong rank")
    return emit1(g, x, expr, out, detail=f"reduce {pattern}")


def einops_repeat(g: Gen, bad: bool) -> Emit:
    x = g.tensor(kind="any", min_rank=1, max_rank=3)
    names = axis_names(g, x)
    n = g.new_size()
    i = g.rng.randrange(x.rank + 1)
    right = [*names[:i], "r", *names[i:]]
    out = [*x.shape[:i], n, *x.shape[i:]]
    if g.rng.random() < 0.3 and x.rank >= 1:
        j = g.rng.randrange(x.rank)
        right = [*names[:j], f"({names[j]} r)", *names[j + 1 :]]
        out = [*x.shape[:j], x.shape[j] * n, *x.shape[j + 1 :]]
    pattern = f"{' '.join(names)} -> {' '.join(right)}"
    expr = f"einops.repeat({x.name}, {pattern!r}, r={g.size(n)})"
    if bad:
        return mistake(g, expr, f"einops.repeat({x.name}, {pattern!r})", "repeat without the new axis length")
    return emit1(g, x, expr, out, detail=f"repeat {pattern}")


def einops_einsum(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=1, max_rank=3)
    names = axis_names(g, x)
    k = x.shape[-1]
    n = g.new_size()
    w = g.operand((k, n))
    out_names = [*names[:-1], "out"]
    pattern = f"{' '.join(names)}, {names[-1]} out -> {' '.join(out_names)}"
    expr = f"einops.einsum({x.name}, {w}, {pattern!r})"
    if bad:
        if not known(g, k):
            raise Skip("opaque")
        return mistake(g, expr, f"einops.einsum({x.name}, {g.randn((g.wrong(k), n))}, {pattern!r})", "einops.einsum shared axis size")
    return emit1(g, x, expr, (*x.shape[:-1], n), detail="einops.einsum")


def pack(g: Gen, bad: bool) -> Emit:
    x = g.tensor(min_rank=2, max_rank=3)
    first, last = x.shape[0], x.shape[-1]
    middle = x.shape[1:-1]
    y_middle = tuple(g.new_size() for _ in range(g.rng.choice([0, 1])))
    y = g.operand((first, *y_middle, last))
    packed, ps = g.fresh(), g.fresh("ps")
    lines = [f"{packed}, {ps} = einops.pack([{x.name}, {y}], 'b * d')"]
    if bad:
        if not known(g, last):
            raise Skip("opaque")
        wrong = g.randn((first, *y_middle, g.wrong(last)))
        return Emit([f"{packed}, {ps} = einops.pack([{x.name}, {wrong}], 'b * d')"], [], control=lines, detail="pack of mismatched axes")
    total = prod(middle) + prod(y_middle)
    outs = [Out(packed, (first, total, last))]
    if g.rng.random() < 0.5:
        a, b = g.fresh(), g.fresh()
        lines.append(f"{a}, {b} = einops.unpack({packed}, {ps}, 'b * d')")
        outs += [Out(a, x.shape), Out(b, (first, *y_middle, last))]
    return Emit(lines, outs, detail="pack/unpack")


# -- Dims ----------------------------------------------------------------------------------------


def dims(g: Gen, bad: bool) -> Emit:
    r = g.rng.random()
    if r < 0.35:
        x = g.tensor(kind="any", min_rank=1, max_rank=4)
        names = [g.fresh("n") for _ in range(x.rank)]
        source = f"{x.name}.shape" if g.rng.random() < 0.6 else f"{x.name}.size()"
        if bad:
            return Emit([f"{', '.join([*names, g.fresh('n')])} = {source}"], [], control=[f"{', '.join(names)}{',' if x.rank == 1 else ''} = {source}"], detail="unpacking the shape into too many names")
        return Emit([f"{', '.join(names)}{',' if x.rank == 1 else ''} = {source}"], [Out(n, size=s, dim=True) for n, s in zip(names, x.shape)], detail="unpack shape")
    if bad:
        x = g.tensor(kind="any", min_rank=1)
        return mistake(g, f"{x.name}.size(0)", f"{x.name}.size({out_of_range(g, x.rank)})", "size() dim out of range")
    name = g.fresh("n")
    if r < 0.6 or not g.dims:
        x = g.tensor(kind="any", min_rank=1)
        i = g.rng.randrange(x.rank)
        return Emit([f"{name} = {g.shape_read(x, i)}"], [Out(name, size=x.shape[i], dim=True)], detail="size read")
    d = g.rng.choice(g.dims)
    options: list[tuple[str, Expr]] = [(f"{d.name} * 2", d.size * 2), (f"2 * {d.name}", d.size * 2), (f"{d.name} + 1", d.size + 1), (f"{d.name} - 1", d.size - 1)]
    for k in (2, 3, 4):
        if g.divisible(d.size, k):
            options.append((f"{d.name} // {k}", d.size // k))
    for other in g.dims:
        if other is not d:
            options.append((f"{d.name} * {other.name}", d.size * other.size))
            if g.divisible(d.size, other.size) and g.val(other.size) > 1:
                options.append((f"{d.name} // {other.name}", d.size // other.size))
    text, size = g.rng.choice(options)
    return Emit([f"{name} = {text}"], [Out(name, size=size, dim=True)], detail="dim arithmetic")


# -- rebinding forms -------------------------------------------------------------------------------


def _reshaped(g: Gen, x: TVal) -> tuple[str, tuple[Expr, ...]]:
    """An expression of `x` of another shape (of the same rank or not), and that shape."""
    forms = ["unsqueeze", "flatten"] + (["transpose", "transpose"] if x.rank >= 2 else [])
    form = g.rng.choice(forms)
    if form == "transpose":
        return f"{x.name}.transpose(0, {x.rank - 1})", (x.shape[-1], *x.shape[1:-1], x.shape[0])
    if form == "unsqueeze":
        return f"{x.name}.unsqueeze(0)", (const(1), *x.shape)
    total = const(1)
    for size in x.shape:
        total = total * size
    return f"{x.name}.flatten()", (total,)


def rebind(g: Gen, bad: bool) -> Emit:
    """Names rebound in the forms besides `x = f(x)`: a tuple assignment, a name from another, a
    conditional value (whose branches agree here).  A wrong shape would show in the reveals."""
    r = g.rng.random()
    if r < 0.45:
        a = g.tensor(kind="any")
        b = g.tensor(lambda t: t.name != a.name, kind="any")
        text_a, shape_a = _reshaped(g, a)
        text_b, shape_b = _reshaped(g, b)
        return Emit(
            [f"{a.name}, {b.name} = {text_a}, {text_b}"],
            [Out(a.name, shape_a), Out(b.name, shape_b)],
            detail="tuple assignment",
        )
    if r < 0.6:
        a = g.tensor(kind="any")
        b = g.tensor(lambda t: t.name != a.name, kind="any")
        return Emit([f"{b.name} = {a.name}"], [Out(b.name, a.shape)], detail="name from another name")
    if r < 0.75:
        # An item read from a container: of a shaped list its shape, of a list of bare tensors unknown
        # (never the name's old shape, which mypy would meet with the item's unknown one).
        a = g.tensor(kind="any")
        b = g.tensor(lambda t: t.name != a.name, kind="any")
        read = g.rng.choice([f"[{a.name}][0]", f"[{a.name}].pop()", f'{{"k": {a.name}}}["k"]', f"list[torch.Tensor]([{a.name}])[-1]"])
        return Emit([f"{b.name} = {read}"], [Out(b.name, a.shape)], detail="item of a container")
    x = g.tensor(kind="any")
    text, shape = _reshaped(g, x)
    return Emit(
        [f"{x.name} = {text} if {x.name}.numel() >= 0 else {text}.contiguous()"], [Out(x.name, shape)],
        detail="conditional value",
    )


def rebind_in_block(g: Gen, bad: bool) -> Emit:
    """`x = x + y` in an `if` or a loop body.  With `allow_redefinition` mypy types the value of a
    parameter's assignment twice when the first try errs, so a mistake there must still be reported;
    after the block the name holds what both paths share."""
    x = g.tensor()
    if "rebind" in g.options.avoid:
        raise Skip("no rebinding")
    op = g.rng.choice(["+", "*", "-", "torch.add"])
    head = g.rng.choice([f"if {x.name}.numel() >= 0:", "for _ in range(1):"])
    other, shape = binary_operand(g, x)
    good = f"    {x.name} = {apply_binary(op, x.name, other)}"
    if bad:
        wrong = f"    {x.name} = {apply_binary(op, x.name, bad_operand(g, x))}"
        return Emit([head, wrong], [], control=[head, good], detail=f"{op} in a block, with a shape that does not broadcast")
    out = broadcast(x.shape, shape)
    assert out is not None
    return Emit([head, good], [Out(x.name, out)], replaces=x.name, detail=f"{op} in a block")


def in_place(g: Gen, bad: bool) -> Emit:
    """Reshaping in place (`y.unsqueeze_(0)`, chained, `t_()`, `transpose_`): the name holds the new shape."""
    x = g.tensor(kind="any")
    y = g.fresh()
    rank = x.rank
    forms = ["unsqueeze", "chain", "aliased"] + (["transpose"] if rank >= 2 else [])
    form = g.rng.choice(forms)
    if form == "aliased" and not bad:
        # `w = y` and `z = y.unsqueeze_(0)` name the very tensor `y` is: all three change together
        w, z = g.fresh(), g.fresh()
        lines = [f"{y} = {x.name}.clone()", f"{w} = {y}", f"{z} = {y}.unsqueeze_(0)", f"{z}.unsqueeze_(-1)"]
        shape = (ONE, *x.shape, ONE)
        return Emit(lines, [Out(y, shape), Out(w, shape), Out(z, shape)], detail="in place: aliased")
    if form == "unsqueeze":
        call, shape = "unsqueeze_(0)", (ONE, *x.shape)
    elif form == "chain":
        call, shape = "unsqueeze_(0).unsqueeze_(-1)", (ONE, *x.shape, ONE)
    else:
        call, shape = f"transpose_(0, {rank - 1})", (x.shape[-1], *x.shape[1:-1], x.shape[0])
    lines = [f"{y} = {x.name}.clone()", f"{y}.{call}"]
    if bad:
        wrong = f"{y}.unsqueeze_({g.rng.choice([rank + 2, -rank - 2])})"
        return Emit([lines[0], wrong], [], control=lines, detail="unsqueeze_: dimension out of range")
    return Emit(lines, [Out(y, shape)], detail=f"in place: {form}")


MENU: list[Op] = [
    Op("binary", "elementwise", binary, 3),
    Op("compare", "elementwise", compare, 1),
    Op("unary", "elementwise", unary, 1, mistakes=False),
    Op("where", "elementwise", where, 0.7),
    Op("masked_fill", "elementwise", masked_fill, 0.7),
    Op("tril", "elementwise", tril, 0.4),
    Op("matmul", "matmul", matmul, 2.5),
    Op("mm/bmm", "matmul", mm, 0.8),
    Op("outer", "matmul", outer, 0.4),
    Op("linalg.vecdot", "matmul", vecdot, 0.4),
    Op("linalg.multi_dot", "matmul", multi_dot, 0.3),
    Op("linalg.lstsq", "matmul", lstsq, 0.3),
    Op("F.linear", "matmul", linear, 1),
    Op("einsum", "matmul", einsum, 1.2),
    Op("view/reshape", "shape", view, 3),
    Op("flatten", "shape", flatten, 1),
    Op("unflatten", "shape", unflatten, 0.8),
    Op("transpose/permute", "shape", transpose, 2),
    Op("squeeze/unsqueeze", "shape", squeeze, 1.5),
    Op("expand", "shape", expand, 1),
    Op("repeat", "shape", repeat, 0.7),
    Op("reduce", "reduce", reduce, 2),
    Op("max/min", "reduce", maxmin, 0.8),
    Op("argmax", "reduce", argmax, 0.7),
    Op("softmax/cumsum", "reduce", softmax, 1),
    Op("split/chunk", "split", split, 1.5),
    Op("unbind", "split", unbind, 0.5),
    Op("topk/sort", "split", topk, 0.8),
    Op("index", "index", index, 2.5),
    Op("index tensor/mask", "index", index_tensor, 1),
    Op("gather/index_select", "index", gather, 0.8),
    Op("cat", "concat", cat, 1.2),
    Op("stack", "concat", stack, 0.8),
    Op("create", "creation", create, 1.2, mistakes=False),
    Op("like/new_*", "creation", like, 0.6, mistakes=False),
    Op("conv", "nn.functional", conv, 1.2),
    Op("pool", "nn.functional", pool, 0.8),
    Op("F.pad", "nn.functional", pad, 0.6),
    Op("interpolate", "nn.functional", interpolate, 0.6),
    Op("layer/rms/group_norm", "nn.functional", norm, 0.8),
    Op("F.embedding", "nn.functional", embedding, 0.6),
    Op("F.embedding_bag", "nn.functional", embedding_bag, 0.3),
    Op("F.one_hot", "nn.functional", one_hot, 0.4, mistakes=False),
    Op("sdpa", "nn.functional", sdpa, 0.8),
    Op("cross_entropy", "nn.functional", cross_entropy, 0.6),
    Op("mse_loss", "nn.functional", mse, 0.3, mistakes=False),
    Op("margin losses", "nn.functional", margin_loss, 0.4),
    Op("histc/window", "creation", statistics, 0.3, mistakes=False),
    Op("nn module", "nn", module, 2),
    Op("einops.rearrange", "einops", rearrange, 1.2),
    Op("einops.reduce", "einops", einops_reduce, 0.6),
    Op("einops.repeat", "einops", einops_repeat, 0.5),
    Op("einops.einsum", "einops", einops_einsum, 0.5),
    Op("einops.pack", "einops", pack, 0.5),
    Op("dims", "dims", dims, 1.5),
    Op("rebind", "rebind", rebind, 0.6, mistakes=False),
    Op("rebind in a block", "rebind", rebind_in_block, 0.6),
    Op("in place", "shape", in_place, 0.6),
]



def select(menu: Sequence[Op], only: Sequence[str] = (), skip: Sequence[str] = ()) -> list[Op]:
    """The menu's entries named (by op or family) in `only` (all when empty), less those in `skip`."""
    names = {op.name for op in menu} | {op.family for op in menu}
    unknown = sorted((set(only) | set(skip)) - names)
    if unknown:
        raise ValueError(f"no op or family {unknown} in the menu: {sorted(names)}")
    chosen = [op for op in menu if not only or op.name in only or op.family in only]
    chosen = [op for op in chosen if op.name not in skip and op.family not in skip]
    if not chosen:
        raise ValueError("the menu is empty")
    return chosen


__all__ = ["MENU", "broadcast", "matmul_shape", "select"]

