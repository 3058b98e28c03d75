"""Shape rules: the output shape of each torch op, computed from its arguments' shapes.

One pure function per op (or family of ops), shared by the mypy plugin and proven
against LibTorch by property tests (`tests/test_shape_rules_*.py`).  Sizes are
`tyr._symbolic.Expr` (or None when unknown); see `tyr.shape_rules.core` for what a
rule promises.
"""

from tyr.shape_rules.broadcast import broadcast_shapes, broadcast_sizes, broadcasts_to, expand, masked_fill, where
from tyr.shape_rules.matmul import T, einsum, linear, matmul, mT, outer, permute, t, transpose
from tyr.shape_rules.view import flatten, infer_sizes, repeat, reshape, squeeze, unflatten, unsqueeze, view
from tyr.shape_rules.concat import cat, cat_repeated, chunk, split, stack, stack_repeated, unbind
from tyr.shape_rules.reduce import along_dim, argmax, max_along, reduce, topk
from tyr.shape_rules.index import UNKNOWN, Bound, IndexItem, Unknown, index, slice_length
from tyr.shape_rules.core import Dims, MaybeShape, Shape, ShapeRuleError, Size, SizeArg, Variadic

__all__ = [
    "Dims",
    "MaybeShape",
    "Shape",
    "ShapeRuleError",
    "Size",
    "SizeArg",
    "Variadic",
    "broadcast_shapes",
    "broadcast_sizes",
    "broadcasts_to",
    "expand",
    "masked_fill",
    "where",
    "T",
    "einsum",
    "linear",
    "matmul",
    "mT",
    "outer",
    "permute",
    "t",
    "transpose",
    "flatten",
    "infer_sizes",
    "repeat",
    "reshape",
    "squeeze",
    "unflatten",
    "unsqueeze",
    "view",
    "cat",
    "cat_repeated",
    "chunk",
    "split",
    "stack",
    "stack_repeated",
    "unbind",
    "along_dim",
    "argmax",
    "max_along",
    "reduce",
    "topk",
    "UNKNOWN",
    "Bound",
    "IndexItem",
    "Unknown",
    "index",
    "slice_length",
]
