"""`torch.nn.functional` ops with shape rules of their own: embeddings, normalisation, losses, attention, masks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from tyr._symbolic import Expr, const
from tyr.shape_rules.broadcast import broadcast_shapes, broadcasts_to
from tyr.shape_rules.core import (
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
    divide_size,
    has_elements,
    locate,
    min_rank,
    never_one,
    never_zero,
    numel,
    product,
    rank,
    same,
    same_shape,
    show,
    show_shape,
    sizes,
    variadic_index,
)

Reduction = Literal["none", "mean", "sum"]



def _check_exact(op: str, what: str, got: MaybeShape, expected: Shape) -> None:
    """`got` must be exactly `expected` (no broadcasting), where both are known."""
    if got is None or variadic_index(got) is not None:
        return
    if len(got) != len(expected) or any(differ(a, b) for a, b in zip(sizes(got), sizes(expected))):
        raise ShapeRuleError(f"{op}: {what} must have shape {show_shape(expected)}, got {show_shape(got)}")


def _at(shape: Shape, pos: int) -> Size:
    item = shape[pos]
    return None if isinstance(item, Variadic) else item


def embedding(indices: MaybeShape, weight: MaybeShape, padding_idx: int | None = None) -> MaybeShape:
    """`F.embedding(indices, weight)` / `nn.Embedding`: `indices.shape + (embedding_dim,)`.

    `weight` is `(num_embeddings, embedding_dim)`; `padding_idx`, if given, must index a row
    (`-num_embeddings <= padding_idx < num_embeddings`, though torch lets 0 pass for an empty
    weight).  `indices` may have any shape.
    """
    if weight is not None and rank(weight) is not None and len(weight) != 2:
        raise ShapeRuleError(f"embedding: the weight must be 2-d (num_embeddings, embedding_dim), got "
                             f"{show_shape(weight)}")
    if weight is None or variadic_index(weight) is not None:
        return None
    rows, dim = sizes(weight)
    n = const_of(rows)
    if padding_idx is not None and n is not None and (padding_idx > 0 and padding_idx >= n or padding_idx < -n):
        raise ShapeRuleError(f"embedding: padding_idx {padding_idx} is not a row of the weight {show_shape(weight)}")
    if indices is None:
        return None
    return (*indices, dim)


def embedding_bag(
    input: MaybeShape,
    weight: MaybeShape,
    offsets: MaybeShape = None,
    *,
    has_offsets: bool = False,
    include_last_offset: bool = False,
    per_sample_weights: MaybeShape = None,
    has_per_sample_weights: bool = False,
    mode: str | None = "mean",
) -> MaybeShape:
    """`F.embedding_bag(input, weight, offsets)` / `nn.EmbeddingBag`: one pooled row per bag, `(bags, D)`.

    A 2-d input `(B, N)` is B bags of N indices (no offsets; N must not be 0); a 1-d input is
    one sequence that the 1-d `offsets (K,)` cut into K bags (K - 1 with `include_last_offset`,
    which needs K >= 1).  `weight` is `(num_embeddings, D)`; `per_sample_weights` (mode "sum"
    only; `mode` None where not known) has the input's shape.
    """
    op = "embedding_bag"
    r = rank(input) if input is not None else None
    if r is not None and r not in (1, 2):
        raise ShapeRuleError(f"{op}: the input must be 1-d (with offsets) or 2-d (bags of one length), got {show_shape(input)}")
    if weight is not None and rank(weight) is not None and len(weight) != 2:
        raise ShapeRuleError(f"{op}: the weight must be 2-d (num_embeddings, embedding_dim), got {show_shape(weight)}")
    if r == 2 and has_offsets:
        raise ShapeRuleError(f"{op}: a 2-d input {show_shape(input)} is bags of one length and takes no offsets")
    if r == 1 and not has_offsets:
        raise ShapeRuleError(f"{op}: a 1-d input {show_shape(input)} needs offsets, the start of each bag")
    if offsets is not None and rank(offsets) is not None and len(offsets) != 1:
        raise ShapeRuleError(f"{op}: offsets must be 1-d, got {show_shape(offsets)}")
    if has_per_sample_weights and mode is not None and mode != "sum":
        raise ShapeRuleError(f"{op}: per_sample_weights are only taken in mode 'sum', not {mode!r}")
    if has_per_sample_weights and input is not None and variadic_index(input) is None:
        _check_exact(op, "per_sample_weights", per_sample_weights, input)
    if r is None or weight is None or variadic_index(weight) is not None:
        return None
    dim = sizes(weight)[1]
    assert input is not None
    if r == 2:
        batch, length = sizes(input)
        if const_of(length) == 0:
            raise ShapeRuleError(f"{op}: the bags of the 2-d input {show_shape(input)} must not be empty")
        return (batch, dim)
    if offsets is None or variadic_index(offsets) is not None:
        return (None, dim)
    (count,) = sizes(offsets)
    if not include_last_offset:
        return (count, dim)
    if const_of(count) == 0:
        raise ShapeRuleError(f"{op}: with include_last_offset the offsets need at least one entry, got {show_shape(offsets)}")
    return (count - 1 if count is not None else None, dim)


def local_response_norm(input: MaybeShape) -> MaybeShape:
    """`F.local_response_norm(input, size)`: normalised across channels, `(N, C, *)` with at least one more dim."""
    if input is not None and rank(input) is not None and len(input) < 3:
        raise ShapeRuleError(f"local_response_norm: expected a 3-d or larger input (N, C, *), got {show_shape(input)}")
    return input


def instance_norm(input: MaybeShape, stats: Sequence[tuple[str, MaybeShape]] = (), use_input_stats: bool = True) -> MaybeShape:
    """`F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats)`: `(N, C, *)`, its shape.

    With the input's statistics (the default) there must be more than one spatial element;
    the running statistics, weight and bias are 1-d of `C` values (torch repeats
    them per sample and checks nothing for an input without elements).  `stats` names those given.
    """
    op = "instance_norm"
    if input is None or variadic_index(input) is not None:
        return input
    dims = sizes(input)
    if len(dims) < 2:
        raise ShapeRuleError(f"{op}: expected an input (N, C, *), got {show_shape(input)}")
    if use_input_stats and const_of(product(dims[2:])) == 1:
        raise ShapeRuleError(f"{op}: with the input's statistics there must be more than one spatial element, got {show_shape(input)}")
    if not has_elements(input):
        return input  # torch checks nothing of an input without elements
    for name, stat in stats:
        if stat is None or rank(stat) is None:
            continue
        values = sizes(stat)
        # torch repeats it once per sample, which takes 1-d (or 0-d: one channel's value)
        held = values[0] if len(values) == 1 else (const(1) if not values else None)
        if held is None or differ(held, dims[1]):
            raise ShapeRuleError(f"{op}: {name} {show_shape(stat)} must be 1-d, of the input's {show(dims[1])} channels")
    return input


def one_hot(shape: MaybeShape, num_classes: int = -1) -> MaybeShape:
    """`F.one_hot(tensor, num_classes)`: `tensor.shape + (num_classes,)`.

    With `num_classes=-1` torch counts the classes from the values (unknown here) and
    rejects an empty tensor; a non-positive `num_classes` otherwise leaves no room for the
    (non-negative) class values.
    """
    if shape is None:
        return None
    count = numel(shape)
    empty = count is not None and count.const_value == 0
    if num_classes == -1:
        if empty:
            raise ShapeRuleError("one_hot: cannot count the classes of an empty tensor; pass num_classes")
        return (*shape, None)
    if num_classes <= 0:
        raise ShapeRuleError(f"one_hot: num_classes must be positive (or -1), got {num_classes}")
    return (*shape, const(num_classes))


def _normalized(op: str, input: MaybeShape, normalized_shape: Sequence[SizeArg]) -> Shape:
    norm = tuple(as_size(s) for s in normalized_shape)
    if not norm:
        raise ShapeRuleError(f"{op}: normalized_shape must name at least one dim")
    if input is None:
        return norm
    v = variadic_index(input)
    fixed = len(input) if v is None else len(input) - v - 1
    if v is None and len(input) < len(norm):
        raise ShapeRuleError(
            f"{op}: normalized_shape {show_shape(norm)} has more dims than the input {show_shape(input)}"
        )
    for i in range(1, min(len(norm), fixed) + 1):
        have, want = _at(input, len(input) - i), norm[-i]
        if differ(have, want):
            raise ShapeRuleError(
                f"{op}: dimension {describe_dim(input, len(input) - i)} of the input ({show(have)}) does not match "
                f"normalized_shape {show_shape(norm)}; expected an input of shape (*, {', '.join(map(show, norm))})"
            )
    return norm


def layer_norm(
    input: MaybeShape, normalized_shape: Sequence[SizeArg], weight: MaybeShape = None, bias: MaybeShape = None
) -> MaybeShape:
    """`F.layer_norm(input, normalized_shape, weight, bias)` / `nn.LayerNorm`: the input's shape.

    The input's last dims must be `normalized_shape` (which is not empty); `weight` and `bias`
    must have exactly that shape.
    """
    norm = _normalized("layer_norm", input, normalized_shape)
    _check_exact("layer_norm", "the weight", weight, norm)
    _check_exact("layer_norm", "the bias", bias, norm)
    return _with_normalized(input, norm)


def rms_norm(input: MaybeShape, normalized_shape: Sequence[SizeArg], weight: MaybeShape = None) -> MaybeShape:
    """`F.rms_norm(input, normalized_shape, weight)` / `nn.RMSNorm`: as `layer_norm`, without a bias."""
    norm = _normalized("rms_norm", input, normalized_shape)
    _check_exact("rms_norm", "the weight", weight, norm)
    return _with_normalized(input, norm)


def _with_normalized(input: MaybeShape, norm: Shape) -> MaybeShape:
    """The input's shape, its last dims known to be `norm` (torch accepts no other): `(B, ?)` becomes `(B, D)`."""
    if input is None:
        return None
    v = variadic_index(input)
    fixed = len(input) if v is None else len(input) - v - 1
    out = list(input)
    for i in range(1, min(len(norm), fixed) + 1):
        if out[-i] is None:
            out[-i] = norm[-i]
    return tuple(out)


def _channels(op: str, input: MaybeShape) -> Size:
    if input is None:
        return None
    if min_rank(input) < 2 and rank(input) is not None:
        raise ShapeRuleError(f"{op}: expects an input of at least 2 dims (N, C, ...), got {show_shape(input)}")
    return _at(input, 1) if variadic_index(input) != 0 and variadic_index(input) != 1 else None


def group_norm(
    input: MaybeShape, num_groups: int | Expr | None, weight: MaybeShape = None, bias: MaybeShape = None
) -> MaybeShape:
    """`F.group_norm(input, num_groups, weight, bias)` / `nn.GroupNorm`: the input's shape.

    `input` is `(N, C, *)` with `C` divisible by `num_groups` (checked where both are constants: a
    symbolic count is taken as a multiple, SHAPES.md §6); `weight` and `bias` are `(C,)`.  A group
    must hold more than one value (`N * C/num_groups * prod(*) != 1`).  A count not known
    (`num_groups` None: a plain int) checks the rest.
    """
    channels = _channels("group_norm", input)
    groups = None if num_groups is None else num_groups if isinstance(num_groups, Expr) else const(num_groups)
    c, g = const_of(channels), groups.const_value if groups is not None else None
    if g is not None and (g <= 0 or c is not None and c % g):
        raise ShapeRuleError(
            f"group_norm: the input's {show(channels)} channels do not split into num_groups={show(groups)} groups"
        )
    if input is not None and variadic_index(input) is None and channels is not None and groups is not None:
        # torch (in Python) wants more than one value per group to normalise
        per_group = numel((input[0], channels // groups, *input[2:]))
        if const_of(per_group) == 1:
            raise ShapeRuleError(f"group_norm: each group of {show_shape(input)} holds a single value")
    if channels is not None:
        _check_exact("group_norm", "the weight", weight, (channels,))
        _check_exact("group_norm", "the bias", bias, (channels,))
    return input


def batch_norm(
    input: MaybeShape,
    running_mean: MaybeShape = None,
    running_var: MaybeShape = None,
    weight: MaybeShape = None,
    bias: MaybeShape = None,
    training: bool = False,
    *,
    has_running_stats: bool | None = None,
) -> MaybeShape:
    """`F.batch_norm(input, running_mean, running_var, weight, bias, training)` / `nn.BatchNorm1d/2d`.

    `input` is `(N, C, *)`; the running statistics are `(C,)`; `weight` and `bias` hold `C`
    values each (torch compares element counts, so `(1, C)` passes too).  Evaluation needs running statistics
    (`has_running_stats` says whether they are given when their shapes are unknown), and
    training more than one value per channel (`N * prod(*) != 1`).  An input with no
    elements skips the other checks and gives `input * weight[0] + bias[0]` (broadcasting).
    """
    op = "batch_norm"
    channels = _channels(op, input)
    count = None if input is None else numel(input)
    empty = count is not None and count.const_value == 0
    given = has_running_stats if has_running_stats is not None else running_mean is not None
    if not training and not given and never_zero(count):
        raise ShapeRuleError(f"{op}: evaluation mode needs running_mean and running_var")
    if training and input is not None and variadic_index(input) is None:
        per_channel = const_of(numel((input[0], *input[2:])))
        if per_channel == 1:
            raise ShapeRuleError(
                f"{op}: training needs more than one value per channel, got an input of {show_shape(input)}"
            )
    if empty:
        # torch returns `input * weight[0] + bias[0]`, broadcasting
        out: MaybeShape = input
        for what, shape in (("the weight", weight), ("the bias", bias)):
            if shape is None:
                continue
            first = None if not shape or isinstance(shape[0], Variadic) else shape[0]
            if rank(shape) == 0 or const_of(first) == 0:
                raise ShapeRuleError(f"{op}: {what} {show_shape(shape)} has no first element")
            out = broadcast_shapes(out, shape[1:] if variadic_index(shape) != 0 else None, op=op,
                                   operands=("the input", f"{what}[0]"))
        return out
    for what, shape in (("running_mean", running_mean), ("running_var", running_var), ("the weight", weight),
                        ("the bias", bias)):
        if shape is None:
            continue
        values = numel(shape)
        if never_zero(count):
            if differ(values, channels):
                raise ShapeRuleError(
                    f"{op}: {what} {show_shape(shape)} must hold one value per channel ({show(channels)})"
                )
            if what.startswith("running") and rank(shape) is not None and len(shape) != 1:
                raise ShapeRuleError(f"{op}: {what} must be 1-d, got {show_shape(shape)}")
    return input


# -- losses ----------------------------------------------------------------------------------------------


def _reduced(shape: MaybeShape, reduction: Reduction) -> MaybeShape:
    return shape if reduction == "none" else ()


def cross_entropy(
    input: MaybeShape, target: MaybeShape, reduction: Reduction = "mean", weight: MaybeShape = None,
    *, probabilities: bool | None = None, op: str = "cross_entropy",
) -> MaybeShape:
    """`F.cross_entropy(input, target, weight, reduction=...)` (and `F.nll_loss` with `op="nll_loss"`).

    `input` is `(C,)`, `(N, C)` or `(N, C, d1, ...)`.  torch reads `target` as class
    probabilities when it has the input's shape, and otherwise as class indices of the
    input's shape without `C`: `()` (or `(1,)`), `(N,)` or `(N, d1, ...)` (`nll_loss` takes
    indices only).
    With `reduction="none"` the result is the input's shape without `C`; otherwise `()`.
    `weight` (per class) is `(C,)`.  `probabilities` overrides the choice when it is known.
    """
    if input is not None and rank(input) == 0:
        raise ShapeRuleError(f"{op}: the input must have a class dim (C,), (N, C) or (N, C, ...), got a 0-d tensor")
    if input is None or variadic_index(input) is not None:
        return None if reduction == "none" else ()
    dims = sizes(input)
    class_pos = 0 if len(dims) == 1 else 1
    classes = dims[class_pos]
    per_item = dims[:class_pos] + dims[class_pos + 1 :]
    if weight is not None:
        _check_exact(op, "the class weight", weight, (classes,))
    if target is None or variadic_index(target) is not None:
        return _reduced(per_item if target is not None or probabilities is not None else None, reduction)
    t = sizes(target)
    if len(dims) == 1 and len(t) == 1 and (probabilities is not None or t[0] is None or const_of(t[0]) == 1):
        # one unbatched item: a target of shape (1,) is its class index (or its probability if C is 1)
        return _reduced((), reduction)
    if probabilities is None:
        # torch reads probabilities exactly when the shapes are equal; other shapes of the input's
        # number of dims would be read as indices of the wrong shape, an error either way
        probabilities = op == "cross_entropy" and len(t) == len(dims)
    if probabilities:
        _check_exact(op, "a target of class probabilities", target, dims)
        return _reduced(per_item, reduction)
    if len(t) != len(per_item) or any(map(differ, t, per_item)):
        raise ShapeRuleError(
            f"{op}: the target {show_shape(target)} must hold one class index per item of the input "
            f"{show_shape(input)}, that is shape {show_shape(per_item)}"
        )
    if len(dims) == 3 and const_of(classes) == 0 and has_elements(per_item):
        # torch folds (N, C, d) into 4 dims by dividing by C
        raise ShapeRuleError(f"{op}: an input of shape {show_shape(input)} has no classes to pick from")
    return _reduced(tuple(a if a is not None else b for a, b in zip(per_item, t)), reduction)


def elementwise_loss(
    input: MaybeShape, target: MaybeShape, reduction: Reduction = "mean", *, same_shape: bool = False,
    op: str = "mse_loss",
) -> MaybeShape:
    """`F.mse_loss`, `F.l1_loss`, `F.smooth_l1_loss`, `F.huber_loss` (`same_shape=False`: the two broadcast,
    with a warning from torch when they differ) and `F.binary_cross_entropy(_with_logits)`
    (`same_shape=True`: the shapes must be equal).  `reduction="none"` keeps the
    elementwise shape; otherwise the result is `()`.
    """
    if same_shape:
        if input is not None and target is not None and variadic_index(input) is None:
            _check_exact(op, "the target", target, input)
        return _reduced(input if input is not None else target, reduction)
    out = broadcast_shapes(input, target, op=op, operands=("the input", "the target"))
    return _reduced(out, reduction)


def soft_margin_loss(input: MaybeShape, target: MaybeShape, reduction: Reduction = "mean") -> MaybeShape:
    """`F.soft_margin_loss(input, target)`: the loss is computed in place in a tensor of the input's shape, so the
    target must broadcast to the input without growing it."""
    return _reduced(broadcasts_to(target, input, op="soft_margin_loss"), reduction)


def _same_rank(op: str, shapes: Sequence[MaybeShape], names: Sequence[str]) -> None:
    """torch's check that the tensors have one number of dims, where it is known."""
    ranks = [(name, rank(s)) for s, name in zip(shapes, names) if s is not None and rank(s) is not None]
    if len({n for _, n in ranks}) > 1:
        listed = ", ".join(f"{name} {n}-d" for name, n in ranks)
        raise ShapeRuleError(f"{op}: the tensors must have the same number of dims, got {listed}")


def margin_ranking_loss(
    input1: MaybeShape, input2: MaybeShape, target: MaybeShape, reduction: Reduction = "mean"
) -> MaybeShape:
    """`F.margin_ranking_loss(x1, x2, y)`: the three have one number of dims and broadcast."""
    op, names = "margin_ranking_loss", ("input1", "input2", "the target")
    _same_rank(op, (input1, input2, target), names)
    return _reduced(broadcast_shapes(input1, input2, target, op=op, operands=names), reduction)


def cosine_embedding_loss(
    input1: MaybeShape, input2: MaybeShape, target: MaybeShape, reduction: Reduction = "mean"
) -> MaybeShape:
    """`F.cosine_embedding_loss(x1, x2, y)`: a 1-d target `(N,)` takes 2-d inputs `(N, D)`, a 0-d one 1-d inputs
    `(D,)`; the inputs broadcast, and their cosine along the last dim broadcasts with the target."""
    op = "cosine_embedding_loss"
    if target is not None and min_rank(target) > 1:
        raise ShapeRuleError(f"{op}: the target must be 0-d or 1-d, not {show_shape(target)}")
    wanted = None if target is None else rank(target)
    for name, x in (("input1", input1), ("input2", input2)):
        if x is None:
            continue
        n = rank(x)
        if (wanted is not None and n is not None and n != wanted + 1) or min_rank(x) > 2 or n == 0:
            expected = "1-d or 2-d" if wanted is None else f"{wanted + 1}-d"
            raise ShapeRuleError(
                f"{op}: {name} must be {expected} for a target {show_shape(target)}, not {show_shape(x)}"
            )
    _same_rank(op, (input1, input2), ("input1", "input2"))
    cosine = pairwise_distance(input1, input2, op=op)
    return _reduced(broadcast_shapes(cosine, target, op=op, operands=("the cosine", "the target")), reduction)


def _classes(op: str, input: MaybeShape) -> tuple[Size, Size] | None:
    """The number of items and of classes of a multi-margin loss's input: `()` (one item of one class),
    `(C,)` or `(N, C)`, `C` not 0; None where the number of dims is unknown."""
    if input is None:
        return None
    n = rank(input)
    if min_rank(input) > 2 or (n is not None and n > 0 and const_of(_at(input, -1)) == 0):
        raise ShapeRuleError(f"{op}: the input must be (C,) or (N, C) with C not 0, or 0-d, not {show_shape(input)}")
    if n is None:
        return None
    if n == 2:
        return _at(input, 0), _at(input, 1)
    return const(1), const(1) if n == 0 else _at(input, 0)


def _check_numel(op: str, what: str, got: MaybeShape, expected: Size) -> None:
    """`got` holds `expected` elements (it may be 0-d or 1-d)."""
    if got is None:
        return
    if min_rank(got) > 1:
        raise ShapeRuleError(f"{op}: {what} must be 0-d or 1-d, not {show_shape(got)}")
    if rank(got) is not None and differ(numel(got), expected):
        raise ShapeRuleError(f"{op}: {what} {show_shape(got)} must hold {show(expected)} elements")


def multilabel_margin_loss(input: MaybeShape, target: MaybeShape, reduction: Reduction = "mean") -> MaybeShape:
    """`F.multilabel_margin_loss(input, target)`: a target of class indices of the input's shape (`(N, C)`, or
    `C` elements for a `(C,)` or 0-d input); `reduction="none"` gives `(N,)`, or `()` unbatched."""
    op = "multilabel_margin_loss"
    known = _classes(op, input)
    if known is None or input is None:
        return None if reduction == "none" else ()
    if len(input) == 2:
        _check_exact(op, "the target", target, input)
        return _reduced((known[0],), reduction)
    _check_numel(op, "the target", target, known[1])
    return ()


def multi_margin_loss(
    input: MaybeShape, target: MaybeShape, reduction: Reduction = "mean", weight: MaybeShape = None,
    p: int | None = 1,
) -> MaybeShape:
    """`F.multi_margin_loss(input, target, p, weight=...)`: one class index per item, `(N,)` for an `(N, C)` input
    (or one index, 0-d or `(1,)`, unbatched); `weight` is 1-d, one per class.  `reduction="none"` gives the
    target's shape.  `p` (None: unknown) is 1 or 2."""
    op = "multi_margin_loss"
    if p is not None and p not in (1, 2):
        raise ShapeRuleError(f"{op}: p must be 1 or 2, got {p}")
    if weight is not None and rank(weight) is not None and len(weight) != 1:
        raise ShapeRuleError(f"{op}: the weight must be 1-d, not {show_shape(weight)}")
    known = _classes(op, input)
    if known is None:
        return None if reduction == "none" else ()
    items, classes = known
    _check_numel(op, "the target", target, items)
    _check_numel(op, "the weight", weight, classes)
    return _reduced(target, reduction)


def multilabel_soft_margin_loss(
    input: MaybeShape, target: MaybeShape, reduction: Reduction = "mean", weight: MaybeShape = ()
) -> MaybeShape:
    """`F.multilabel_soft_margin_loss(input, target, weight)` (no weight: `()`, an unknown one: None): the three
    broadcast, then the dim the input's last dim is at (counted from the front) is averaged away; a 0-d
    input has no class dim."""
    op = "multilabel_soft_margin_loss"
    if input is not None and rank(input) == 0:
        raise ShapeRuleError(f"{op}: the input must have a class dim (its last), not a 0-d tensor")
    joint = broadcast_shapes(input, target, weight, op=op, operands=("the input", "the target", "the weight"))
    if input is None or joint is None or rank(input) is None:
        return _reduced(None, reduction)
    pos = len(input) - 1
    if variadic_index(joint) is not None and (variadic_index(joint) or 0) <= pos:
        return _reduced(None, reduction)
    return _reduced((*joint[:pos], *joint[pos + 1 :]), reduction)


def ctc_loss(
    log_probs: MaybeShape, targets: MaybeShape, input_lengths: MaybeShape, target_lengths: MaybeShape,
    reduction: Reduction = "mean",
) -> MaybeShape:
    """`F.ctc_loss(log_probs, targets, input_lengths, target_lengths)`: `log_probs` is `(T, N, C)`, or `(T, C)`
    for one unbatched item (`N` is 1), and not empty; `targets` are `(N, S)` padded or 1-d concatenated; each
    lengths tensor (a sequence of ints here is its 1-d tensor) holds `N` values, in any shape.
    `reduction="none"` gives `(N,)`, or `()` unbatched; otherwise `()`."""
    op = "ctc_loss"
    n = None if log_probs is None else rank(log_probs)
    if log_probs is not None and (min_rank(log_probs) > 3 or (n is not None and n < 2)):
        raise ShapeRuleError(f"{op}: log_probs must be (T, N, C), or (T, C) unbatched, not {show_shape(log_probs)}")
    if n is not None and log_probs is not None and any(const_of(s) == 0 for s in sizes(log_probs)):
        raise ShapeRuleError(f"{op}: log_probs {show_shape(log_probs)} must not be empty")
    items: Size = None
    if n is not None and log_probs is not None:
        items = _at(log_probs, 1) if n == 3 else const(1)
    if targets is not None and (min_rank(targets) > 2 or rank(targets) == 0):
        raise ShapeRuleError(f"{op}: targets must be (N, S) padded or 1-d concatenated, not {show_shape(targets)}")
    if targets is not None and rank(targets) == 2 and differ(_at(targets, 0), items):
        raise ShapeRuleError(
            f"{op}: padded targets {show_shape(targets)} must have one row per item, {show(items)} "
            f"(the batch of log_probs {show_shape(log_probs)})"
        )
    for name, lengths in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if lengths is not None and rank(lengths) is not None and differ(numel(lengths), items):
            raise ShapeRuleError(
                f"{op}: {name} {show_shape(lengths)} must hold one length per item, {show(items)} "
                f"(the batch of log_probs {show_shape(log_probs)})"
            )
    if reduction != "none":
        return ()
    return None if n is None else (items,) if n == 3 else ()


def _one_dim_of_one(input: Shape, var: Shape) -> bool | None:
    """torch's test that `var` broadcasts to `input` along one dim: as many dims, and var's sizes where the two
    differ sum to 1.  None where that depends on the sizes."""
    if variadic_index(input) is not None or variadic_index(var) is not None:
        return None
    if len(input) != len(var):
        return False
    total = 0
    for a, v in zip(sizes(input), sizes(var)):
        if same(a, v):
            continue
        value = const_of(v)
        if not differ(a, v) or value is None:
            return None
        total += value
    return total == 1


def gaussian_nll_loss(
    input: MaybeShape, target: MaybeShape, var: MaybeShape, reduction: Reduction = "mean"
) -> MaybeShape:
    """`F.gaussian_nll_loss(input, target, var)` (a float `var` is the input's shape): `var` is the input's
    shape, or that without its last dim (one variance per row), or the input's with one dim of size 1;
    the three broadcast.  Where the sizes leave torch's choice open the shape is unknown."""
    op = "gaussian_nll_loss"
    if input is None or var is None:
        return _reduced(None, reduction)
    fits = same_shape(var, input)
    if fits is False:
        fits = same_shape(var, input[:-1])
        if fits:
            var = (*var, const(1))
        elif fits is False:
            fits = _one_dim_of_one(input, var)
            if fits is False:
                raise ShapeRuleError(
                    f"{op}: var {show_shape(var)} must have the input's shape {show_shape(input)}, that without "
                    "its last dim, or the input's with one dim of size 1"
                )
    if fits is None:
        return _reduced(None, reduction)
    out = broadcast_shapes(input, target, var, op=op, operands=("the input", "the target", "var"))
    return _reduced(out, reduction)


def triplet_margin_loss(
    anchor: MaybeShape, positive: MaybeShape, negative: MaybeShape, reduction: Reduction = "mean",
    *, swap: bool = False, margin: float | None = 1.0, distance: bool = True, op: str = "triplet_margin_loss",
) -> MaybeShape:
    """`F.triplet_margin_loss(anchor, positive, negative, margin, swap=...)` and
    `F.triplet_margin_with_distance_loss`: the three have one number of dims; the pairwise distances
    of anchor to positive and to negative (and with `swap`, positive to negative) broadcast.  A
    distance function of the user's (`distance=False`) gives an unknown shape.  `margin` (None:
    unknown) must be positive."""
    if margin is not None and margin <= 0:
        raise ShapeRuleError(f"{op}: the margin must be greater than 0, got {margin}")
    _same_rank(op, (anchor, positive, negative), ("the anchor", "the positive", "the negative"))
    if not distance:
        return _reduced(None, reduction)
    pairs = [(anchor, positive), (anchor, negative)] + ([(positive, negative)] if swap else [])
    distances = [pairwise_distance(a, b, op=op) for a, b in pairs]
    return _reduced(broadcast_shapes(*distances, op=op, operands=("d(a, p)", "d(a, n)", "d(p, n)")[: len(pairs)]), reduction)


# -- attention, masks, dropout -------------------------------------------------------------------------


def scaled_dot_product_attention(
    q: MaybeShape,
    k: MaybeShape,
    v: MaybeShape,
    attn_mask: MaybeShape = None,
    is_causal: bool = False,
    enable_gqa: bool = False,
    *,
    has_mask: bool = False,
) -> MaybeShape:
    """`F.scaled_dot_product_attention(q, k, v, attn_mask, is_causal, enable_gqa=...)`.

    `q` is `(*, L, E)`, `k` is `(*, S, E)`, `v` is `(*, S, Ev)`; the result is `(*, L, Ev)`, its
    batch dims `*` broadcast from the three.  `attn_mask` must broadcast to `(*, L, S)`
    (without growing it), and cannot be combined with `is_causal`.

    These are the rules of torch's reference ("math") kernel.  For some shapes torch runs a
    fused CPU kernel instead, which checks less: it accepts a mask with `is_causal`, and keys
    and values of different lengths (computing with part of the values).  The rule reports
    those as errors; they are mistakes even where torch runs.  A mask of fewer than 2 dims
    is broadcast by the reference kernel and refused by the fused one: the result is then
    unknown.  With `enable_gqa`, dim -3
    (heads) of `k` and `v` must divide that of `q`.  Pass `has_mask=True` for a mask of
    unknown shape.  When any size is 0 torch skips some checks (which ones depends on
    where the 0 is), so the result is then unknown.
    """
    op = "scaled_dot_product_attention"
    for name, shape in (("query", q), ("key", k), ("value", v)):
        if shape is not None and rank(shape) is not None and len(shape) < 2:
            raise ShapeRuleError(f"{op}: the {name} must have at least 2 dims (*, length, features), got "
                                 f"{show_shape(shape)}")
    if q is None or k is None or v is None:
        return None
    if any(const_of(s) == 0 for shape in (q, k, v, attn_mask or ()) for s in shape if not isinstance(s, Variadic)):
        return None  # torch skips some of its checks, in ways that vary, when a size is 0
    if is_causal and (attn_mask is not None or has_mask):
        raise ShapeRuleError(f"{op}: an explicit attn_mask cannot be combined with is_causal=True")
    if attn_mask is not None and rank(attn_mask) is not None and len(attn_mask) < 2:
        return None  # the reference kernel broadcasts such a mask, the fused one refuses it
    fixed = [len(s) if variadic_index(s) is None else len(s) - (variadic_index(s) or 0) - 1 for s in (q, k, v)]
    if min(fixed) < 2:
        return None
    e_q, e_k, s_k, s_v = _at(q, -1), _at(k, -1), _at(k, -2), _at(v, -2)
    if differ(e_q, e_k):
        raise ShapeRuleError(f"{op}: the query has {show(e_q)} features (last dim) but the key has {show(e_k)}")
    if differ(s_k, s_v):
        raise ShapeRuleError(f"{op}: the key has length {show(s_k)} (dim -2) but the value has {show(s_v)}")
    q_batch, k_batch, v_batch = q[:-2], k[:-2], v[:-2]
    if enable_gqa:
        heads = [(_at(s, -3) if f >= 3 else None) for s, f in zip((q, k, v), fixed)]
        hq, hk, hv = (const_of(h) for h in heads)
        if hq is not None and any(h is not None and (h == 0 or hq % h) for h in (hk, hv)):
            raise ShapeRuleError(
                f"{op}: with enable_gqa the key's and value's heads ({show(heads[1])}, {show(heads[2])}) must "
                f"divide the query's ({show(heads[0])})"
            )
        if heads[0] is None or not all(f >= 3 for f in fixed):
            return None
        k_batch = (*k_batch[:-1], heads[0])
        v_batch = (*v_batch[:-1], heads[0])
    batch = broadcast_shapes(q_batch, k_batch, v_batch, op=f"{op} (batch dimensions)",
                             operands=("the query", "the key", "the value"))
    if batch is None:
        return None
    if attn_mask is not None:
        broadcasts_to(attn_mask, (*batch, q[-2], k[-2]), op=f"{op} (attn_mask)")
    return (*batch, q[-2], v[-1])


def tril(shape: MaybeShape, op: str = "tril") -> MaybeShape:
    """`torch.tril(x, diagonal)` / `triu`: the same shape; `x` must have at least 2 dims."""
    if shape is not None and min_rank(shape) < 2 and rank(shape) is not None:
        raise ShapeRuleError(f"{op}: the input must have at least 2 dims, got {show_shape(shape)}")
    return shape


def dropout(shape: MaybeShape, p: float = 0.5, op: str = "dropout") -> MaybeShape:
    """`F.dropout(x, p)` and friends: the same shape; `p` must lie in [0, 1]."""
    if not 0.0 <= p <= 1.0:
        raise ShapeRuleError(f"{op}: the probability p must be between 0 and 1, got {p}")
    return shape


def feature_dropout(
    shape: MaybeShape, p: float | None = 0.5, spatial: int = 2, *, runs: bool | None = True, op: str = "dropout2d"
) -> MaybeShape:
    """`F.dropout1d` / `dropout2d` / `dropout3d(x, p, training)` (`spatial` 1, 2, 3): the same shape, whole
    channels zeroed.  `p` (None: unknown) must lie in [0, 1].

    `dropout1d` takes `(C, L)` or `(N, C, L)` only.  The others take any number of dims (torch warns
    outside `(C, *spatial)` / `(N, C, *spatial)`), but torch's feature dropout needs at least 2, which
    `dropout3d` makes by adding a batch dim to all but 5-d inputs: so `dropout2d` of a 0-d or 1-d
    tensor and `dropout3d` of a 0-d one fail where the mask is drawn: in training (`runs`, None:
    unknown), with a `p` strictly between 0 and 1 (torch zeroes all at 1), on an input with elements.
    """
    if p is not None:
        dropout(shape, p, op=op)
    if shape is None:
        return None
    n = rank(shape)
    if spatial == 1:
        if (n is not None and n not in (2, 3)) or min_rank(shape) > 3:
            raise ShapeRuleError(f"{op}: the input must be (C, L) or (N, C, L), not {show_shape(shape)}")
        return shape
    least = 1 if spatial == 3 else 2
    if runs and p is not None and 0.0 < p < 1.0 and n is not None and n < least and has_elements(shape):
        needed = "2 dims" if least == 2 else "1 dim"
        raise ShapeRuleError(f"{op}: the input must have at least {needed} (channels), not {show_shape(shape)}")
    return shape


def prelu(shape: MaybeShape, weight: MaybeShape) -> MaybeShape:
    """`F.prelu(x, weight)`: the same shape.  `weight` is 0-d or 1-d: one slope for all, or one per
    channel (dim 1 of `x`; a 1-d `x` counts as one channel, a 0-d one takes one slope only)."""
    if weight is None:
        return shape
    if min_rank(weight) > 1:
        raise ShapeRuleError(f"prelu: the weight must be 0-d or 1-d, not {show_shape(weight)}")
    if rank(weight) != 1 or shape is None:
        return shape
    slopes = _at(weight, 0)
    if slopes is None or not never_one(slopes):
        return shape
    n = rank(shape)
    if n == 0:
        raise ShapeRuleError(f"prelu: a 0-d input takes one slope, not a weight {show_shape(weight)}")
    if n is None and (variadic_index(shape) or 0) <= 1:
        return shape  # dim 1 is not known
    channels = const(1) if n == 1 else _at(shape, 1)
    if differ(channels, slopes):
        where = "a 1-d input is one channel" if n == 1 else "dim 1 of the input"
        raise ShapeRuleError(
            f"prelu: the weight {show_shape(weight)} must hold 1 slope or one per channel, "
            f"{show(channels)} ({where} {show_shape(shape)})"
        )
    return shape


def glu(shape: MaybeShape, dim: int = -1) -> MaybeShape:
    """`F.glu(input, dim)` / `nn.GLU(dim)`: dim `dim` (of even size) halved; the first half gates the second.

    A size that is odd at every value of its symbols (`5`, `2*D + 1`) is an error.  Any other is
    halved as `chunk(2)` cuts it, `(size + 1)//2` (SHAPES.md §6): `D//2` of `D`, `D//2 + 1` of
    `D + 1`, each exact at every even size, the only sizes torch halves.
    """
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError("glu: a 0-d tensor has no dimension to halve")
    pos = locate(shape, dim, "glu")
    if pos is None:
        return None
    size = shape[pos]
    assert not isinstance(size, Variadic)
    if size is not None and _always_odd(size):
        raise ShapeRuleError(f"glu: dimension {dim} must have an even size to halve, not {show(size)}")
    return (*shape[:pos], None if size is None else divide_size(size, 1, 2), *shape[pos + 1 :])


def _always_odd(size: Expr) -> bool:
    """Whether a size is odd at every value of its symbols: its constant term odd, every other
    coefficient even (each monomial, of symbols and floor divisions, is an integer)."""
    constant = sum(coeff for mono, coeff in size.terms if not mono)
    return constant % 2 == 1 and all(coeff % 2 == 0 for mono, coeff in size.terms if mono)


def cosine_similarity(a: MaybeShape, b: MaybeShape, dim: int = 1, *, op: str = "cosine_similarity") -> MaybeShape:
    """`F.cosine_similarity(a, b, dim)`: `a` and `b` broadcast, then dim `dim` is reduced.

    The dim is counted in the broadcast shape; a 0-d result takes dims 0 and -1.
    """
    joint = broadcast_shapes(a, b, op=op, operands=("x1", "x2"))
    if joint is None:
        return None
    pos = locate(joint, dim, op)
    if pos is None:
        return None
    return (*joint[:pos], *joint[pos + 1 :]) if joint else ()


def pairwise_distance(
    a: MaybeShape, b: MaybeShape, keepdim: bool = False, *, op: str = "pairwise_distance"
) -> MaybeShape:
    """`F.pairwise_distance(a, b, keepdim=False)`: `a` and `b` broadcast, then the last dim is reduced (a 0-d
    result stays 0-d)."""
    joint = broadcast_shapes(a, b, op=op, operands=("x1", "x2"))
    if joint is None or not joint:
        return joint
    if variadic_index(joint) == len(joint) - 1:
        return None
    return (*joint[:-1], const(1)) if keepdim else joint[:-1]
