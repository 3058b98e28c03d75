"""Shape rules: the output shape of each torch op, computed from its arguments' shapes.

One pure function per op (or family of ops), shared by the mypy plugin and proven
against LibTorch by property tests (`tests/test_shape_rules_*.py`).  Sizes are
`tyr._symbolic.Expr` (None when unknown); a shape is a tuple of sizes that may hold
one `Variadic`, or None when nothing is known.  A rule returns the result's shape
(a tuple of shapes for ops that return several tensors) and raises `ShapeRuleError`
only when the arguments are provably invalid; see `tyr.shape_rules.core` for the
exact promise.

    >>> from tyr._symbolic import parse
    >>> from tyr.shape_rules import matmul, view
    >>> matmul((parse("B"), parse("D")), (parse("D"), parse("E")))
    (Expr(B), Expr(E))
    >>> view((parse("B*12"),), [-1, 3, 4])
    (Expr(B), Expr(3), Expr(4))
"""

from tyr.shape_rules.broadcast import broadcast_shapes, broadcast_sizes, broadcasts_to, expand, masked_fill, where
from tyr.shape_rules.concat import (
    atleast,
    cat,
    cat_repeated,
    chunk,
    column_stack,
    directional_split,
    dstack,
    hstack,
    piece,
    split,
    stack,
    stack_repeated,
    tensor_split,
    unbind,
    vstack,
)
from tyr.shape_rules.conv import (
    IntOrTuple,
    Stride,
    adaptive_pool_nd,
    affine_grid,
    conv_nd,
    conv_output_size,
    conv_transpose_nd,
    fold_patches,
    grid_sample,
    interpolate,
    pad,
    pool_nd,
    pool_nd_unknown,
    pool_output_size,
    unfold_patches,
)
from tyr.shape_rules.core import (
    UNKNOWN,
    Dims,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Unknown,
    Variadic,
    show,
    show_shape,
)
from tyr.shape_rules.creation import arange, eye, from_sizes, linspace, meshgrid, tri_indices
from tyr.shape_rules.gather import gather, index_add, index_copy, index_fill, index_select, scatter, take_along_dim
from tyr.shape_rules.index import Bound, IndexItem, TensorIndex, index, slice_length
from tyr.shape_rules.matmul import (
    T,
    addbmm,
    addmm,
    addmv,
    addr,
    baddbmm,
    bmm,
    cdist,
    cross,
    dot,
    einsum,
    kron,
    linear,
    matmul,
    mm,
    mT,
    mv,
    outer,
    permute,
    t,
    tensordot,
    transpose,
)
from tyr.shape_rules.nn_functional import (
    Reduction,
    batch_norm,
    cosine_similarity,
    cross_entropy,
    dropout,
    elementwise_loss,
    embedding,
    glu,
    group_norm,
    layer_norm,
    one_hot,
    pairwise_distance,
    rms_norm,
    scaled_dot_product_attention,
    tril,
)
from tyr.shape_rules.reorder import (
    diag,
    diag_embed,
    diagflat,
    diagonal,
    diff,
    flip,
    flip_lr,
    movedim,
    narrow,
    select,
    pixel_shuffle,
    repeat_interleave,
    roll,
    rot90,
    tile,
    unfold,
    view_as_complex,
    view_as_real,
)
from tyr.shape_rules.reduce import aminmax, along_dim, argmax, kthvalue, max_along, multinomial, quantile, reduce, topk
from tyr.shape_rules.selection import masked_select, nonzero, nonzero_tuple
from tyr.shape_rules.spectral import fft, fftfreq, fftn, fftshift
from tyr.shape_rules.view import flatten, infer_sizes, repeat, reshape, squeeze, unflatten, unsqueeze, view

# Ops that had no rule before (their own block, kept apart for merging).
from tyr.shape_rules.combinatorics import block_diag, cartesian_prod, combinations
from tyr.shape_rules.gather import take
from tyr.shape_rules.integration import cumulative_trapezoid, trapezoid
from tyr.shape_rules.matmul import bilinear, inner, trace
from tyr.shape_rules.recurrent import recurrent, recurrent_cell
from tyr.shape_rules.reduce import bucketize, searchsorted
from tyr.shape_rules.reorder import channel_shuffle
from tyr.shape_rules.selection import unique

__all__ = [
    # core
    "UNKNOWN",
    "Bound",
    "Dims",
    "IndexItem",
    "IntOrTuple",
    "Stride",
    "MaybeShape",
    "Reduction",
    "Shape",
    "ShapeRuleError",
    "Size",
    "SizeArg",
    "TensorIndex",
    "Unknown",
    "Variadic",
    "show",
    "show_shape",
    # broadcasting
    "broadcast_shapes",
    "broadcast_sizes",
    "broadcasts_to",
    "expand",
    "masked_fill",
    "where",
    # products and reorderings
    "T",
    "addbmm",
    "addmm",
    "addmv",
    "addr",
    "baddbmm",
    "bmm",
    "cdist",
    "cross",
    "dot",
    "einsum",
    "kron",
    "linear",
    "matmul",
    "mm",
    "mT",
    "mv",
    "outer",
    "permute",
    "t",
    "tensordot",
    "transpose",
    # views
    "flatten",
    "infer_sizes",
    "repeat",
    "reshape",
    "squeeze",
    "unflatten",
    "unsqueeze",
    "view",
    # moving elements and dims
    "diag",
    "diag_embed",
    "diagflat",
    "diagonal",
    "diff",
    "flip",
    "flip_lr",
    "movedim",
    "narrow",
    "select",
    "pixel_shuffle",
    "repeat_interleave",
    "roll",
    "rot90",
    "tile",
    "unfold",
    "view_as_complex",
    "view_as_real",
    # joining and splitting
    "atleast",
    "cat",
    "cat_repeated",
    "chunk",
    "column_stack",
    "dstack",
    "hstack",
    "piece",
    "split",
    "stack",
    "stack_repeated",
    "tensor_split",
    "directional_split",
    "unbind",
    "vstack",
    # reductions
    "aminmax",
    "along_dim",
    "argmax",
    "kthvalue",
    "max_along",
    "multinomial",
    "quantile",
    "reduce",
    "topk",
    # sizes that depend on values
    "masked_select",
    "nonzero",
    "nonzero_tuple",
    # Fourier transforms
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    # indexing
    "gather",
    "index",
    "index_add",
    "index_copy",
    "index_fill",
    "index_select",
    "scatter",
    "take_along_dim",
    "slice_length",
    # spatial
    "adaptive_pool_nd",
    "affine_grid",
    "conv_nd",
    "conv_output_size",
    "conv_transpose_nd",
    "fold_patches",
    "grid_sample",
    "interpolate",
    "pad",
    "pool_nd",
    "pool_nd_unknown",
    "pool_output_size",
    "unfold_patches",
    # nn.functional
    "batch_norm",
    "cosine_similarity",
    "cross_entropy",
    "dropout",
    "elementwise_loss",
    "embedding",
    "glu",
    "group_norm",
    "layer_norm",
    "one_hot",
    "pairwise_distance",
    "rms_norm",
    "scaled_dot_product_attention",
    "tril",
    # creation
    "arange",
    "eye",
    "from_sizes",
    "linspace",
    "meshgrid",
    "tri_indices",
    # ops that had no rule before
    "bilinear",
    "block_diag",
    "bucketize",
    "cartesian_prod",
    "channel_shuffle",
    "combinations",
    "cumulative_trapezoid",
    "inner",
    "recurrent",
    "recurrent_cell",
    "searchsorted",
    "take",
    "trace",
    "trapezoid",
    "unique",
]
