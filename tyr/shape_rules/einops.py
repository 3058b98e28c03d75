"""einops: `rearrange`, `reduce`, `repeat`, `einsum`, `pack` and `unpack`, for a literal pattern.

A pattern names the input's dims on the left of `->` and the result's on the right:

* an axis is a name (`b`, `head_dim`); `(h d)` is one dim made of the axes `h` and `d`
  (row-major: its size is `h*d`); `()` and `1` are a dim of size 1;
* a number other than 1 is an anonymous axis of that length (each occurrence its own axis);
* `...` stands for the dims the other axes leave over (at most one per side).

Axis lengths come from the input's dims and from keyword arguments (`h=8`).  A dim
made of several axes, all but one of them with known lengths, gives the remaining
axis its size by division: `(h d)` with `h=8` on a dim of size `D` gives `d = D//8`
(SHAPES.md §6: division in sizes is exact, since einops rejects a `D` that 8 does
not divide, so `h*d` composes back to `D`).  Each rule follows einops 0.8 exactly:

* `rearrange`: every axis on one side appears on the other; no anonymous axes;
* `reduce`: axes missing on the right are reduced (`min`, `max`, `sum`, `mean`,
  `prod`, `any`, `all`; `min`/`max` reject reducing a dim of size 0); an ellipsis
  missing on the right reduces its dims too;
* `repeat`: new axes on the right need a length (a keyword or a number);
* `einsum`: one name per dim, the tensors' patterns separated by commas; the shapes
  are then those of `torch.einsum` (`tyr.shape_rules.matmul.einsum`);
* `pack(tensors, "b * d")` flattens the dims at `*` of each tensor and concatenates
  them; `unpack(x, packed_shapes, "b * d")` splits them back;
* `parse_shape(x, "b _ h w")` names the sizes of `x`'s dims.

A pattern einops rejects (an unknown character, a duplicate axis, unbalanced
parentheses, an axis only on one side, a keyword length for an axis the pattern
does not use, two unknown axes in one dim), a tensor with the wrong number of dims
or a dim that does not fit its axes' known lengths raises `ShapeRuleError`, as does
everything else einops rejects.  Where a result depends on what is not known (an
unknown length, a `Variadic` where named axes are), its sizes or the whole shape are
None; a negative length gives an unknown shape (einops' behaviour with one is not a
shape rule).  The layers `einops.layers.torch.Rearrange` / `Reduce` run the same
rules (`layer=True`: a layer's ellipsis covers at most 7 dims, and it cannot reduce
with `any`/`all`); they check their pattern when built (`check_layer`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

from tyr._symbolic import Expr, const
from tyr.shape_rules.concat import cat
from tyr.shape_rules.core import (
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Variadic,
    as_size,
    const_of,
    differ,
    lower_bound,
    min_rank,
    never_zero,
    product,
    show,
    show_shape,
    variadic_index,
)
from tyr.shape_rules.matmul import einsum as torch_einsum
from tyr.shape_rules.view import infer_sizes

REDUCTIONS = ("min", "max", "sum", "mean", "prod", "any", "all")
"""The reductions einops knows by name; `reduce` also takes "rearrange" and "repeat"."""

Lengths = Mapping[str, SizeArg]
"""Axis lengths given as keywords: a size, or None for a length that is given but not known."""

ELLIPSIS = "…"  # `...` once parsed: one character, so that it cannot clash with an axis name
LAYER_ELLIPSIS_DIMS = 8  # a layer prepares its recipes for an ellipsis of 0 to 7 dims


@dataclass(frozen=True, eq=False)
class _Anonymous:
    """An axis written as a number (`2`): each occurrence is a distinct axis (compared by identity)."""

    value: int


Axis = Union[str, _Anonymous]
Group = tuple[Axis, ...]


@dataclass
class _Side:
    """One side of a pattern: its dims in order (a group of axes each, or the ellipsis)."""

    dims: list[Group | None] = field(default_factory=list)  # None: the ellipsis, outside parentheses
    identifiers: set[Axis] = field(default_factory=set)  # names, anonymous axes, ELLIPSIS
    ellipsis: bool = False
    ellipsis_grouped: bool = False  # the ellipsis is inside parentheses
    anonymous: bool = False  # has an anonymous axis longer than 1

    def axes(self) -> list[Axis]:
        return [a for dim in self.dims if dim is not None for a in dim]

    def names(self) -> set[str]:
        return {a for a in self.identifiers if isinstance(a, str) and a != ELLIPSIS}


class _Unreadable(Exception):
    """A pattern the rules do not read (one with a literal `…`): the result is unknown."""


def _valid_name(name: str, allow_underscore: bool = False) -> bool:
    """An axis name: a Python identifier that neither starts nor ends with `_` (`_` alone where allowed)."""
    if not name.isidentifier():
        return False
    if name[0] == "_" or name[-1] == "_":
        return allow_underscore and name == "_"
    return True


def _parse_side(text: str, op: str, *, allow_underscore: bool = False, allow_duplicates: bool = False) -> _Side:
    side = _Side()
    if ELLIPSIS in text:
        raise _Unreadable
    if "." in text:
        if "..." not in text:
            raise ShapeRuleError(f"{op}: {text.strip()!r} has a '.' outside an ellipsis '...'")
        if text.count("...") != 1 or text.count(".") != 3:
            raise ShapeRuleError(f"{op}: {text.strip()!r} may have only one ellipsis '...' and no other dots")
        text = text.replace("...", ELLIPSIS)
        side.ellipsis = True
    group: list[Axis] | None = None

    def add(token: str) -> None:
        if token in side.identifiers and not (allow_underscore and token == "_") and not allow_duplicates:
            raise ShapeRuleError(f"{op}: axis {token!r} appears twice in {text.strip()!r}")
        if token == ELLIPSIS:
            side.identifiers.add(ELLIPSIS)
            side.ellipsis_grouped = group is not None
            if group is None:
                side.dims.append(None)
            else:
                group.append(ELLIPSIS)
            return
        number = token.isdecimal()
        if number and int(token) == 1:
            if group is None:
                side.dims.append(())
            return
        if not number and not _valid_name(token, allow_underscore):
            raise ShapeRuleError(
                f"{op}: {token!r} is not a valid axis name (a Python identifier that does not start or end with '_')"
            )
        axis: Axis = token
        if number:
            if int(token) < 1:
                raise ShapeRuleError(f"{op}: an anonymous axis must have a positive length, not {token}")
            axis = _Anonymous(int(token))
            side.anonymous = True
        side.identifiers.add(axis)
        if group is None:
            side.dims.append((axis,))
        else:
            group.append(axis)

    token: str | None = None
    for char in text:
        if char in "() ":
            if token is not None:
                add(token)
            token = None
            if char == "(":
                if group is not None:
                    raise ShapeRuleError(f"{op}: parentheses cannot nest, in {text.strip()!r}")
                group = []
            elif char == ")":
                if group is None:
                    raise ShapeRuleError(f"{op}: unbalanced parentheses in {text.strip()!r}")
                side.dims.append(tuple(group))
                group = None
        elif char.isalnum() or char in ("_", ELLIPSIS):
            token = char if token is None else token + char
        else:
            raise ShapeRuleError(f"{op}: unexpected character {char!r} in {text.strip()!r}")
    if group is not None:
        raise ShapeRuleError(f"{op}: unbalanced parentheses in {text.strip()!r}")
    if token is not None:
        add(token)
    return side


def _show_axes(axes: Iterable[Axis]) -> str:
    return ", ".join(sorted("..." if a == ELLIPSIS else str(a.value) if isinstance(a, _Anonymous) else a for a in axes))


@dataclass(frozen=True)
class _Recipe:
    op: str
    pattern: str
    left: _Side
    right: _Side
    operation: str | None  # "rearrange", "repeat", a reduction, or None for a reduction not known statically


def _recipe(op: str, pattern: str, operation: str | None, names: Sequence[str]) -> _Recipe:
    """Everything einops checks of a pattern before it sees a tensor."""
    sides = pattern.split("->")
    if len(sides) != 2:
        raise ShapeRuleError(f"{op}: the pattern {pattern!r} needs exactly one '->'")
    left, right = _parse_side(sides[0], op), _parse_side(sides[1], op)
    if right.ellipsis and not left.ellipsis:
        raise ShapeRuleError(f"{op}: {pattern!r} has an ellipsis on the right but not on the left")
    if left.ellipsis and left.ellipsis_grouped:
        raise ShapeRuleError(f"{op}: {pattern!r} has an ellipsis inside parentheses on the left")
    if operation == "rearrange":
        if left.anonymous or right.anonymous:
            raise ShapeRuleError(f"{op}: {pattern!r} has a number other than 1 as an axis; rearrange takes none")
        only_one_side = left.identifiers ^ right.identifiers
        if only_one_side:
            raise ShapeRuleError(
                f"{op}: {pattern!r}: axes {_show_axes(only_one_side)} appear on one side only; "
                "rearrange needs each on both sides"
            )
    elif operation == "repeat":
        dropped = left.identifiers - right.identifiers
        if dropped:
            raise ShapeRuleError(
                f"{op}: {pattern!r}: axes {_show_axes(dropped)} on the left are missing on the right "
                "(repeat keeps every axis)"
            )
        unsized = {a for a in right.identifiers if isinstance(a, str)} - left.identifiers - set(names)
        if unsized:
            raise ShapeRuleError(f"{op}: {pattern!r}: give the lengths of the new axes {_show_axes(unsized)}")
    elif operation is None or operation in REDUCTIONS:
        added = right.identifiers - left.identifiers
        if added:
            raise ShapeRuleError(
                f"{op}: {pattern!r}: axes {_show_axes(added)} on the right are not on the left "
                "(a reduction cannot add axes)"
            )
    else:
        raise ShapeRuleError(f"{op}: unknown reduction {operation!r}; expected one of {', '.join(REDUCTIONS)}")
    used = left.names() | right.names()
    for name in names:
        if not _valid_name(name):
            raise ShapeRuleError(f"{op}: {name!r} is not a valid axis name")
        if name not in used:
            raise ShapeRuleError(f"{op}: the length of axis {name!r} is given but {pattern!r} does not use it")
    for dim in left.dims:
        open_axes = [a for a in dim or () if isinstance(a, str) and a not in names]
        if len(open_axes) > 1:
            raise ShapeRuleError(
                f"{op}: in {pattern!r}, the lengths of {' and '.join(open_axes)} cannot both be inferred "
                f"from one dim; give all but one of them"
            )
    return _Recipe(op, pattern, left, right, operation)


def check_layer(op: str, pattern: str, operation: str | None, names: Sequence[str]) -> None:
    """What `Rearrange(pattern, **lengths)` / `Reduce(pattern, reduction, **lengths)` check when built."""
    try:
        _recipe(op, pattern, operation, names)
    except _Unreadable:
        pass


def rearrange(shape: MaybeShape, pattern: str, lengths: Lengths, *, layer: bool = False) -> MaybeShape:
    """`einops.rearrange(x, pattern, **lengths)`: `x`'s elements in the dims the pattern's right side names.

    `rearrange(Tensor[B, N, D], "b n (h d) -> b h n d", h=8)` is `(B, 8, N, D//8)`.
    """
    return _transform("rearrange", shape, pattern, "rearrange", lengths, layer)


def reduce(
    shape: MaybeShape, pattern: str, reduction: str | None, lengths: Lengths, *, layer: bool = False
) -> MaybeShape:
    """`einops.reduce(x, pattern, reduction, **lengths)`: the axes missing on the right reduced.

    `reduction` is one of `REDUCTIONS`, or "rearrange"/"repeat" (which einops accepts too);
    None stands for a callable, whose result shape is its own: the rule then only checks
    the pattern.  `reduce(Tensor[B, C, H, W], "b c (h 2) (w 2) -> b c h w", "max")` is
    `(B, C, H//2, W//2)`.
    """
    return _transform("reduce", shape, pattern, reduction, lengths, layer)


def repeat(shape: MaybeShape, pattern: str, lengths: Lengths, *, layer: bool = False) -> MaybeShape:
    """`einops.repeat(x, pattern, **lengths)`: new axes on the right repeat the elements.

    `repeat(Tensor[1, 1, D], "1 1 d -> b 1 d", b=B)` is `(B, 1, D)`.
    """
    return _transform("repeat", shape, pattern, "repeat", lengths, layer)


def _transform(
    op: str, shape: MaybeShape, pattern: str, operation: str | None, lengths: Lengths, layer: bool
) -> MaybeShape:
    try:
        recipe = _recipe(op, pattern, operation, list(lengths))
    except _Unreadable:
        return None
    given = {name: as_size(value) for name, value in lengths.items()}
    dims, ellipsis = _match(recipe, shape, layer)
    if any((const_of(v) or 0) < 0 for v in given.values()):
        return None  # einops does not check lengths: a negative one gives shapes no rule describes
    anonymous = [a for a in recipe.left.identifiers | recipe.right.identifiers if isinstance(a, _Anonymous)]
    sizes: dict[Axis, Size] = {a: const(a.value) for a in anonymous}
    sizes.update(given)  # the axes whose lengths are known before the input is read
    groups = [dim for dim in recipe.left.dims if dim is not None]
    for group, length in zip(groups, dims if dims is not None else [None] * len(groups)):
        _infer(recipe, group, length, sizes)
    if operation is None:
        return None  # a callable reduction: its result's shape is its own
    if operation in REDUCTIONS:
        _check_reduction(recipe, sizes, ellipsis, layer)
    out: list[Size | Variadic] = []
    for dim in recipe.right.dims:
        if dim is None:
            if ellipsis is None:
                return None
            out.extend(ellipsis)
            continue
        parts: list[Size] = []
        for axis in dim:
            if axis == ELLIPSIS:
                if ellipsis is None or any(isinstance(s, Variadic) for s in ellipsis):
                    parts.append(None)
                else:
                    parts.extend(s for s in ellipsis if not isinstance(s, Variadic))
            else:
                parts.append(sizes.get(axis))
        out.append(product(parts))
    return tuple(out)


def _match(recipe: _Recipe, shape: MaybeShape, layer: bool) -> tuple[list[Size] | None, Shape | None]:
    """The input's sizes for the left side's groups, and the dims its ellipsis stands for (None: unknown)."""
    op, left = recipe.op, recipe.left
    n_named = len(left.dims) - left.ellipsis
    if shape is None:
        return None, None
    v = variadic_index(shape)
    if not left.ellipsis:
        if v is None and len(shape) != n_named or v is not None and min_rank(shape) > n_named:
            raise ShapeRuleError(
                f"{op}: the pattern {recipe.pattern!r} expects {n_named} dims but the tensor {show_shape(shape)} "
                f"has {len(shape) if v is None else 'more'}"
            )
        if v is None:
            return [_plain(s) for s in shape], ()
        # einops accepts the tensor only when the Variadic fills the missing dims: they have unknown sizes
        filled = [None] * (n_named - min_rank(shape))
        return [_plain(s) for s in shape[:v]] + filled + [_plain(s) for s in shape[v + 1 :]], ()
    at = left.dims.index(None)
    after = len(left.dims) - at - 1
    if v is None:
        if len(shape) < n_named:
            raise ShapeRuleError(
                f"{op}: the pattern {recipe.pattern!r} expects at least {n_named} dims but the tensor "
                f"{show_shape(shape)} has {len(shape)}"
            )
        ellipsis = shape[at : len(shape) - after]
        if layer and len(ellipsis) >= LAYER_ELLIPSIS_DIMS:
            raise ShapeRuleError(
                f"{op}: a layer's ellipsis covers at most {LAYER_ELLIPSIS_DIMS - 1} dims; the tensor "
                f"{show_shape(shape)} leaves {len(ellipsis)} to '...' in {recipe.pattern!r}"
            )
    elif at > v or after > len(shape) - v - 1:
        return None, None  # named axes fall on dims of the Variadic
    else:
        ellipsis = shape[at : len(shape) - after]
    named = [*shape[:at], *shape[len(shape) - after :]]
    return [_plain(s) for s in named], ellipsis


def _plain(item: Size | Variadic) -> Size:
    assert not isinstance(item, Variadic)
    return item


def _infer(recipe: _Recipe, group: Group, length: Size, sizes: dict[Axis, Size]) -> None:
    """Check one input dim against its axes' known lengths, and infer the one unknown axis, if any."""
    known = [a for a in group if a in sizes]
    unknown = [a for a in group if a not in sizes]
    if not known and len(unknown) == 1:
        sizes[unknown[0]] = length
        return
    known_product = product([sizes[a] for a in known])
    where = f"dim ({' '.join(_axis_text(a) for a in group)}) of {recipe.pattern!r}"
    if not unknown:
        if differ(length, known_product):
            raise ShapeRuleError(
                f"{recipe.op}: {where} has size {show(length)}, but its axes' lengths multiply to {show(known_product)}"
            )
        return
    (axis,) = unknown
    if const_of(known_product) == 0:
        raise ShapeRuleError(f"{recipe.op}: {where}: cannot infer {_axis_text(axis)} when the other lengths are 0")
    if length is None or known_product is None:
        sizes[axis] = None
        return
    if _indivisible(length, known_product):
        raise ShapeRuleError(
            f"{recipe.op}: {where} has size {show(length)}, which is not a multiple of {show(known_product)}"
        )
    sizes[axis] = length // known_product


def _axis_text(axis: Axis) -> str:
    return str(axis.value) if isinstance(axis, _Anonymous) else "..." if axis == ELLIPSIS else axis


def _indivisible(n: Expr, d: Expr) -> bool:
    """`n / d` is provably not an integer: both constants, or one monomial with a fractional ratio (`3*B` by `2*B`)."""
    a, b = n.const_value, d.const_value
    if a is not None and b is not None:
        return a % b != 0
    if len(n.terms) != 1 or len(d.terms) != 1:
        return False
    (mono_n, coeff_n), (mono_d, coeff_d) = n.terms[0], d.terms[0]
    return mono_n == mono_d and coeff_n % coeff_d != 0


def _check_reduction(recipe: _Recipe, sizes: dict[Axis, Size], ellipsis: Shape | None, layer: bool) -> None:
    """`min`/`max` cannot reduce a dim of size 0; a layer reduces with `min`/`max`/`sum`/`mean`/`prod` only."""
    reduced: list[Size | Variadic] = [sizes.get(a) for a in recipe.left.axes() if a not in recipe.right.identifiers]
    if recipe.left.ellipsis and not recipe.right.ellipsis:
        reduced.extend(ellipsis if ellipsis is not None else [Variadic("...")])
    fixed = [s for s in reduced if not isinstance(s, Variadic)]
    if recipe.operation in ("min", "max") and any(const_of(s) == 0 for s in fixed):
        raise ShapeRuleError(
            f"{recipe.op}: {recipe.pattern!r} takes the {recipe.operation} over a dim of size 0, which has none"
        )
    if layer and recipe.operation in ("any", "all") and fixed:
        raise ShapeRuleError(f"{recipe.op}: the Reduce layer cannot reduce with {recipe.operation!r}")


def parse_shape(shape: MaybeShape, pattern: str) -> dict[str, Size] | None:
    """`einops.parse_shape(x, pattern)`: the sizes of the dims the pattern names (`_` skips a dim).

    `parse_shape(Tensor[B, C, H, W], "b _ h w")` is `{"b": B, "h": H, "w": W}`.  Each name
    stands for one dim (no compositions); `1` or `()` is a dim of size 1, a number a dim of
    that size, and `...` any number of dims.  None when a `Variadic` hides a named dim's place.
    """
    op = "parse_shape"
    try:
        side = _parse_side(pattern, op, allow_underscore=True)
    except _Unreadable:
        return None
    if any(dim is not None and len(dim) > 1 for dim in side.dims):
        raise ShapeRuleError(f"{op}: {pattern!r} has a composed dim; parse_shape takes one axis per dim")
    if side.ellipsis_grouped:
        raise ShapeRuleError(f"{op}: {pattern!r} has an ellipsis inside parentheses")
    if shape is None:
        return None
    n_named = len(side.dims) - side.ellipsis
    v = variadic_index(shape)
    if v is None and (len(shape) < n_named or len(shape) > n_named and not side.ellipsis):
        raise ShapeRuleError(f"{op}: {pattern!r} does not fit the {len(shape)} dims of the tensor {show_shape(shape)}")
    if v is not None and min_rank(shape) > n_named and not side.ellipsis:
        raise ShapeRuleError(f"{op}: {pattern!r} names {n_named} dims but the tensor {show_shape(shape)} has more")
    dims: list[Size] | None = None
    if not side.ellipsis:
        if v is None:
            dims = [_plain(s) for s in shape]
        else:
            filled: list[Size] = [None] * (n_named - min_rank(shape))
            dims = [*(_plain(s) for s in shape[:v]), *filled, *(_plain(s) for s in shape[v + 1 :])]
        named = list(zip(side.dims, dims))
    else:
        at = side.dims.index(None)
        after = len(side.dims) - at - 1
        if v is not None and (at > v or after > len(shape) - v - 1):
            return None  # named dims fall on dims of the Variadic
        tail = shape[len(shape) - after :] if after else ()
        named = list(zip(side.dims[:at], map(_plain, shape[:at]))) + list(zip(side.dims[at + 1 :], map(_plain, tail)))
    out: dict[str, Size] = {}
    for dim, size in named:
        assert dim is not None
        if not dim:
            if differ(size, const(1)):
                raise ShapeRuleError(f"{op}: {pattern!r} has a dim of size 1 where the tensor has {show(size)}")
            continue
        (axis,) = dim
        if isinstance(axis, _Anonymous):
            if differ(size, const(axis.value)):
                raise ShapeRuleError(f"{op}: {pattern!r} has a dim of size {axis.value} where the tensor has {show(size)}")
        elif axis != "_":
            out[axis] = size
    return out


# -- einsum ---------------------------------------------------------------------------------------


def einsum(pattern: str, shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`einops.einsum(*tensors, pattern)`: `torch.einsum` with axes named by words.

    `einsum(Tensor[B, N, D], Tensor[B, M, D], "b n d, b m d -> b n m")` is `(B, N, M)`.
    Each dim is one name (no compositions, `()` or numbers); a name may repeat within one
    tensor's pattern (a diagonal), and `...` works as in `torch.einsum`.
    """
    op = "einsum"
    if "->" not in pattern:
        raise ShapeRuleError(f"{op}: the pattern {pattern!r} needs '->'")
    sides = pattern.split("->")
    if len(sides) != 2:
        raise ShapeRuleError(f"{op}: the pattern {pattern!r} has more than one '->'")
    try:
        lefts = [_parse_side(t, op, allow_underscore=True, allow_duplicates=True) for t in sides[0].split(",")]
        right = _parse_side(sides[1], op, allow_underscore=True)
    except _Unreadable:
        return None
    letters: dict[Axis, str] = {}

    def compact(side: _Side, output: bool) -> str:
        text = ""
        for dim in side.dims:
            if dim is None:
                text += "..."
                continue
            if not dim:
                raise ShapeRuleError(f"{op}: {pattern!r}: einsum takes no '()' or '1' dims")
            if len(dim) > 1:
                raise ShapeRuleError(f"{op}: {pattern!r}: einsum takes no composed dims such as '(a b)'")
            (axis,) = dim
            if isinstance(axis, _Anonymous):
                raise ShapeRuleError(f"{op}: {pattern!r}: einsum takes no numbers as axes")
            if axis not in letters:
                if output:
                    raise ShapeRuleError(f"{op}: {pattern!r}: axis {_axis_text(axis)} on the right is on no input")
                if len(letters) == len(string.ascii_letters):
                    raise ShapeRuleError(f"{op}: {pattern!r} has more axes than einsum can name")
                letters[axis] = string.ascii_letters[len(letters)]
            text += letters[axis]
        return text

    inputs = [compact(side, False) for side in lefts]
    equation = ",".join(inputs) + "->" + compact(right, True)
    try:
        return torch_einsum(equation, shapes)
    except ShapeRuleError as err:
        # torch's words for the compact equation, put back into the pattern's names
        names = {letter: _axis_text(axis) for axis, letter in letters.items()}
        texts = dict(zip(inputs, (t.strip() for t in sides[0].split(","))))
        message = re.sub(
            r"subscripts '([^']*)'( name\b)?",
            lambda m: f"pattern {texts.get(m[1], m[1])!r}" + (" names" if m[2] else ""),
            str(err),
        )
        message = re.sub(r"subscript ([A-Za-z])\b", lambda m: f"axis {names.get(m[1], m[1])}", message)
        raise ShapeRuleError(message) from None


# -- pack / unpack --------------------------------------------------------------------------------


def pack_axes(pattern: str, op: str) -> tuple[int, int]:
    """How many named dims come before and after the `*` of a pack pattern (`"b * d"` is (1, 1))."""
    axes = pattern.split()
    if len(axes) != len(set(axes)):
        raise ShapeRuleError(f"{op}: {pattern!r} names an axis twice")
    if "*" not in axes:
        raise ShapeRuleError(f"{op}: {pattern!r} has no '*' for the packed dims")
    for axis in axes:
        if axis != "*" and not _valid_name(axis):
            raise ShapeRuleError(f"{op}: {axis!r} in {pattern!r} is not a valid axis name")
    before = axes.index("*")
    return before, len(axes) - before - 1


def pack(shapes: Sequence[MaybeShape], pattern: str) -> tuple[MaybeShape, list[MaybeShape]]:
    """`einops.pack(tensors, pattern)`: the packed tensor's shape, and each tensor's packed dims.

    With `"b * d"`, each tensor's dims between the first and the last are flattened into
    one, and the tensors are concatenated along it: `Tensor[B, D]` and `Tensor[B, H, W, D]`
    pack into `(B, 1 + H*W, D)`, with packed shapes `()` and `(H, W)`.
    """
    op = "pack"
    before, after = pack_axes(pattern, op)
    if not shapes:
        raise ShapeRuleError(f"{op}: expected at least one tensor")
    reshaped: list[MaybeShape] = []
    packed: list[MaybeShape] = []
    for i, shape in enumerate(shapes):
        if shape is None:
            reshaped.append(None)
            packed.append(None)
            continue
        v = variadic_index(shape)
        if v is None and len(shape) < before + after:
            raise ShapeRuleError(
                f"{op}: tensor {i} {show_shape(shape)} has fewer than the {before + after} dims {pattern!r} names"
            )
        if v is not None and (v < before or len(shape) - v - 1 < after):
            reshaped.append(None)  # the named dims fall on dims of the Variadic
            packed.append(None)
            continue
        head, middle, tail = shape[:before], shape[before : len(shape) - after], shape[len(shape) - after :]
        for size in (*head, *tail):
            if const_of(_plain(size)) == 0:
                raise ShapeRuleError(
                    f"{op}: tensor {i} {show_shape(shape)} has a dim of size 0 outside '*' in {pattern!r}, "
                    "so its packed length cannot be inferred"
                )
        flat = None if v is not None else product([_plain(s) for s in middle])
        reshaped.append((*head, flat, *tail))
        packed.append(middle)
    known = [s for s in reshaped if s is not None]
    if not known:
        return None, packed
    try:
        out = cat(known, before)
    except ShapeRuleError as err:
        raise ShapeRuleError(f"{op}: {pattern!r}: " + str(err).removeprefix("cat: ")) from None
    if out is not None and len(known) < len(reshaped):
        out = (*out[:before], None, *out[before + 1 :])
    return out, packed


def unpack(shape: MaybeShape, packed_shapes: Sequence[MaybeShape] | None, pattern: str) -> list[MaybeShape] | None:
    """`einops.unpack(x, packed_shapes, pattern)`: the tensors `pack` made `x` from.

    `packed_shapes` holds each piece's shape at `*` (one of them may hold a -1); a piece
    of unknown shape is None, and None for all of them is a list of unknown length.
    `unpack(Tensor[B, 1 + N, D], [(1,), (N,)], "b * d")` is `[(B, 1, D), (B, N, D)]`.
    """
    op = "unpack"
    before, after = pack_axes(pattern, op)
    head: list[Size] | None = None
    axis: Size = None
    tail: list[Size] | None = None
    if shape is not None:
        v = variadic_index(shape)
        needed = before + 1 + after
        if v is None and len(shape) != needed or v is not None and min_rank(shape) > needed:
            raise ShapeRuleError(f"{op}: {pattern!r} expects a tensor of {needed} dims, not {show_shape(shape)}")
        if v is None:
            sizes = [_plain(s) for s in shape]
        else:  # einops accepts the tensor only when the Variadic fills the missing dims: they have unknown sizes
            filled: list[Size] = [None] * (needed - min_rank(shape))
            sizes = [*(_plain(s) for s in shape[:v]), *filled, *(_plain(s) for s in shape[v + 1 :])]
        head, axis, tail = sizes[:before], sizes[before], sizes[before + 1 :]
    if packed_shapes is None:
        return None
    pieces = [None if p is None else [_plain(s) for s in p] for p in packed_shapes]
    for p in pieces:
        for size in p or ():
            value = const_of(size)
            if value is not None and value < -1:
                raise ShapeRuleError(f"{op}: packed shape {show_shape(tuple(p or ()))} has a negative size")
        if p is not None and sum(const_of(s) == -1 for s in p) > 1:
            raise ShapeRuleError(f"{op}: packed shape {show_shape(tuple(p))} has more than one -1")
    inferred = [p is not None and any(const_of(s) == -1 for s in p) for p in pieces]
    if sum(inferred) > 1:
        raise ShapeRuleError(f"{op}: more than one packed shape has a -1, so their lengths cannot be inferred")
    if head is not None and tail is not None and all(
        p is not None and all(const_of(s) is not None for s in p) for p in pieces
    ) and all(const_of(s) is not None for s in [*head, axis, *tail]):
        return _unpack_concrete(op, head, axis, tail, pieces, pattern)
    lengths = [None if p is None or inferred[i] else product(p) for i, p in enumerate(pieces)]
    if head is not None and tail is not None and pieces and not any(inferred) and None not in lengths:
        total = sum((s for s in lengths if s is not None), const(0))
        nonzero = all(never_zero(s) for s in [*head, *tail])
        if nonzero and differ(total, axis):
            raise ShapeRuleError(
                f"{op}: the packed shapes add up to {show(total)} along '*' but the tensor has {show(axis)} "
                f"({show_shape(shape)}, {pattern!r})"
            )
    if head is None or tail is None:
        return [None] * len(pieces)
    out: list[MaybeShape] = []
    for i, p in enumerate(pieces):
        if p is None:
            out.append(None)  # its number of packed dims is not known
            continue
        dims = [_solve_piece(axis, lengths, p) if const_of(s) == -1 else s for s in p]
        out.append((*head, *dims, *tail))
    return out


def _solve_piece(axis: Size, lengths: list[Size], piece: list[Size]) -> Size:
    """The -1 of a packed shape: what the other pieces leave of the axis, over the piece's other sizes."""
    others = [s for s in lengths if s is not None]
    if axis is None or len(others) != len(lengths) - 1:
        return None
    rest = axis - sum(others, const(0))
    known = product([s for s in piece if const_of(s) != -1])
    low = lower_bound(rest)
    if known is None or low is None or low < 0 or const_of(known) == 0:
        return None
    return rest // known


def _unpack_concrete(
    op: str, head: list[Size], axis: Size, tail: list[Size], pieces: list[list[Size] | None], pattern: str
) -> list[MaybeShape]:
    """einops' unpack on constant sizes, step by step: split positions, Python slices, reshapes."""
    n = const_of(axis)
    assert n is not None
    values = [[const_of(s) for s in p or ()] for p in pieces]
    lengths = [-1 if -1 in p else _int_product(p) for p in values]
    positions = [0] * len(lengths) + [n]
    if -1 not in lengths:
        for i, length in enumerate(lengths[:-1]):
            positions[i + 1] = positions[i] + length
    else:
        u = lengths.index(-1)
        for i in range(u):
            positions[i + 1] = positions[i] + lengths[i]
        for j in range(len(lengths) - 1, u, -1):
            positions[j] = positions[j + 1] - lengths[j]
    outer = _int_product([const_of(s) for s in [*head, *tail]])
    out: list[MaybeShape] = []
    for i, p in enumerate(pieces):
        assert p is not None
        taken = len(range(n)[positions[i] : positions[i + 1]])
        try:
            dims = infer_sizes(const(taken * outer), [*head, *p, *tail], op, f"piece {i}")
        except ShapeRuleError:
            raise ShapeRuleError(
                f"{op}: cannot split the {n} along '*' of {pattern!r} into the packed shapes "
                f"{[show_shape(tuple(q or ())) for q in pieces]}"
            ) from None
        out.append(dims)
    return out


def _int_product(values: Sequence[int | None]) -> int:
    total = 1
    for v in values:
        assert v is not None
        total *= v
    return total
