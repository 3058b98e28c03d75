"""`torch.nn` modules whose forward has shape rules of its own: `nn.MultiheadAttention`, the transformer
layers built on it, the batch norms.

Most modules are their functional op with weights of known shape (`nn.Linear` is
`linear(x, (Out, In))`); these two are not: `nn.MultiheadAttention` projects,
splits heads and checks its masks, and `nn.BatchNorm1d/2d/3d` accept inputs of
particular ranks only.  The rules follow `nn.MultiheadAttention.forward` through
`F.multi_head_attention_forward` (torch 2.13) on its general path.
"""

from __future__ import annotations

from tyr._symbolic import const
from tyr.shape_rules.core import (
    MaybeShape,
    ShapeRuleError,
    Size,
    const_of,
    differ,
    never_zero,
    rank,
    same,
    show,
    show_shape,
    sizes,
    variadic_index,
)
from tyr.shape_rules.nn_functional import batch_norm



def _fixed(shape: MaybeShape) -> tuple[Size, ...] | None:
    """The sizes of a shape whose number of dims is known, else None."""
    if shape is None or variadic_index(shape) is not None:
        return None
    return sizes(shape)


def _check_rank(op: str, input: MaybeShape, wanted: tuple[int, ...]) -> int | None:
    """The input's rank, one of those a module takes (None where it is open)."""
    r = rank(input) if input is not None else None
    if r is not None and r not in wanted:
        expected = " or ".join(f"{w}D" for w in wanted)
        raise ShapeRuleError(f"{op}: expected a {expected} input, got {show_shape(input)}")
    return r


def batch_norm_nd(input: MaybeShape, num_features: Size, n: int) -> MaybeShape:
    """`nn.BatchNorm{n}d(num_features)(input)`: `(N, C)` or `(N, C, L)` for n = 1, `(N, C, *n dims)` otherwise.

    The module checks the rank before the functional op checks the channels (`batch_norm`).
    """
    _check_rank(f"batch_norm{n}d", input, (2, 3) if n == 1 else (n + 2,))
    return batch_norm(input, (num_features,))


def instance_norm_nd(input: MaybeShape, num_features: Size, n: int) -> MaybeShape:
    """`nn.InstanceNorm{n}d(num_features)(input)`: `(C, *n dims)` or `(N, C, *n dims)`, the input's shape.

    `num_features` is the channel count torch checks (None where it does not: without `affine`).
    """
    r = _check_rank(f"instance_norm{n}d", input, (n + 1, n + 2))
    if input is None or r is None:
        return input
    channels = sizes(input)[r - n - 1]
    if differ(channels, num_features):
        raise ShapeRuleError(
            f"instance_norm{n}d: dimension {r - n - 1} of the input {show_shape(input)} is {show(channels)} "
            f"channels, but num_features is {show(num_features)}"
        )
    return input


def multihead_attention(
    query: MaybeShape,
    key: MaybeShape,
    value: MaybeShape,
    *,
    embed_dim: Size,
    num_heads: Size,
    kdim: Size,
    vdim: Size,
    batch_first: bool = False,
    add_bias_kv: bool = False,
    add_zero_attn: bool = False,
    key_padding_mask: MaybeShape = None,
    attn_mask: MaybeShape = None,
    need_weights: bool = True,
    average_attn_weights: bool = True,
    is_causal: bool = False,
    has_attn_mask: bool = False,
) -> tuple[MaybeShape, MaybeShape]:
    """`nn.MultiheadAttention(embed_dim, num_heads, kdim=kdim, vdim=vdim, ...)(query, key, value, ...)`.

    Batched inputs are `query (L, N, E)`, `key (S, N, kdim)`, `value (S, N, vdim)`
    (`(N, L, E)` etc. with `batch_first`); unbatched ones drop `N`.  Returns
    `(output, weights)`: the output has the query's shape with `embed_dim` features;
    the weights (whose shape is None when not `need_weights`: torch returns None) are `(N, L, S')`, or `(N, num_heads, L, S')`
    without `average_attn_weights`, where `S'` is `S` plus one for `add_bias_kv`
    and one for `add_zero_attn`.  `key_padding_mask` is `(N, S)` (`(S,)` unbatched);
    `attn_mask` is `(L, S)` or `(N * num_heads, L, S)` (`(num_heads, L, S)` unbatched).
    With `kdim == vdim == embed_dim` torch needs `key` and `value` of one shape.
    """
    op = "multi_head_attention"
    e, h = const_of(embed_dim), const_of(num_heads)
    if e is not None and h is not None and (e <= 0 or h <= 0 or e % h):
        raise ShapeRuleError(f"{op}: embed_dim {e} must be a positive multiple of num_heads {h}")
    q, k, v = _fixed(query), _fixed(key), _fixed(value)
    if q is not None and len(q) not in (2, 3):
        raise ShapeRuleError(f"{op}: the query must be 2-D (unbatched) or 3-D (batched), got {show_shape(query)}")
    if q is not None:
        for name, other in (("key", k), ("value", v)):
            if other is not None and len(other) != len(q):
                raise ShapeRuleError(
                    f"{op}: the {name} {show_shape(other)} must have the query's {len(q)} dims {show_shape(query)}"
                )
    batched = len(q) == 3 if q is not None else (len(k) == 3 if k is not None else (len(v) == 3 if v is not None else None))
    kpm = _fixed(key_padding_mask)
    mask = _fixed(attn_mask)
    if batched is not None and kpm is not None and len(kpm) != (2 if batched else 1):
        raise ShapeRuleError(
            f"{op}: key_padding_mask must be {'2' if batched else '1'}-D, got {show_shape(key_padding_mask)}"
        )
    if mask is not None and len(mask) not in (2, 3):
        raise ShapeRuleError(f"{op}: attn_mask must be 2-D or 3-D, got {show_shape(attn_mask)}")
    if is_causal and attn_mask is None and not has_attn_mask:
        raise ShapeRuleError(f"{op}: is_causal needs an attn_mask as well")
    if batched is None:
        return None, None

    # (L, N, E) views of the inputs, N = 1 when unbatched
    def lne(s: tuple[Size, ...] | None) -> tuple[Size, Size, Size] | None:
        if s is None:
            return None
        if not batched:
            return s[0], None, s[1]
        return (s[1], s[0], s[2]) if batch_first else (s[0], s[1], s[2])

    ql, kl, vl = lne(q), lne(k), lne(v)
    length = ql[0] if ql is not None else None
    batch = ql[1] if ql is not None else None
    source = kl[0] if kl is not None else (vl[0] if vl is not None else None)
    if ql is not None and differ(ql[2], embed_dim):
        raise ShapeRuleError(f"{op}: the query has {show(ql[2])} features (last dim) but embed_dim is {show(embed_dim)}")
    # torch projects key and value with one weight (and so needs them of one shape) only where
    # kdim and vdim are embed_dim; with sizes not known to be, the key and value may differ
    same_dims = same(kdim, embed_dim) and same(vdim, embed_dim)
    if k is not None and v is not None:
        if same_dims and (len(k) != len(v) or any(map(differ, k, v))):
            raise ShapeRuleError(f"{op}: the key {show_shape(key)} and the value {show_shape(value)} must have one shape")
        if kl is not None and vl is not None and (differ(kl[0], vl[0]) or differ(kl[1], vl[1])):
            raise ShapeRuleError(
                f"{op}: the key {show_shape(key)} and the value {show_shape(value)} must have the same length and batch"
            )
    if kl is not None and differ(kl[2], kdim):
        raise ShapeRuleError(f"{op}: the key has {show(kl[2])} features (last dim) but kdim is {show(kdim)}")
    if vl is not None and differ(vl[2], vdim):
        raise ShapeRuleError(f"{op}: the value has {show(vl[2])} features (last dim) but vdim is {show(vdim)}")
    if batched:
        for name, s in (("key", kl), ("value", vl)):
            # torch finds it in a view of the projected input to (length, batch*heads, head_dim), which
            # an empty input passes whatever its batch, unless its bias (of the query's batch) is joined first
            if s is None or not differ(s[1], batch):
                continue
            if not add_bias_kv and not (never_zero(s[0]) and never_zero(embed_dim)):
                continue
            raise ShapeRuleError(f"{op}: the {name}'s batch {show(s[1])} is not the query's {show(batch)}")
    # An unbatched 3-D mask is checked with the inputs; otherwise the mask is checked where it is used,
    # which it is not for a causal attention without a key padding mask whose weights are not needed.
    unbatched_3d = mask is not None and not batched and len(mask) == 3
    if mask is not None and (unbatched_3d or not (is_causal and key_padding_mask is None and not need_weights)):
        if len(mask) == 2:
            expected: tuple[Size, ...] = (length, source)
        elif batched:
            heads_batch = batch * num_heads if batch is not None and num_heads is not None else None
            expected = (heads_batch, length, source)
        else:
            expected = (num_heads, length, source)
        if any(map(differ, mask, expected)):
            raise ShapeRuleError(
                f"{op}: attn_mask {show_shape(attn_mask)} must have shape ({', '.join(map(show, expected))})"
            )
    if kpm is not None:
        expected = (batch, source) if batched else (source,)
        if any(map(differ, kpm, expected)):
            raise ShapeRuleError(
                f"{op}: key_padding_mask {show_shape(key_padding_mask)} must have shape ({', '.join(map(show, expected))})"
            )

    keys = source + int(add_bias_kv) + int(add_zero_attn) if source is not None else None
    if not need_weights:
        _check_empty_mask_view(op, batched, batch, keys, num_heads, mask, kpm, is_causal)

    # torch takes only a query of embed_dim features: an embed_dim not known is the query's
    features = embed_dim if embed_dim is not None or ql is None else ql[2]
    if batched:
        output: MaybeShape = (batch, length, features) if batch_first else (length, batch, features)
    else:
        output = (length, features)
    if not need_weights:
        return output, None
    per_head = (num_heads, length, keys)
    weights = (length, keys) if average_attn_weights else per_head
    return output, ((batch, *weights) if batched else weights)


def _check_empty_mask_view(
    op: str,
    batched: bool,
    batch: Size,
    keys: Size,
    num_heads: Size,
    mask: tuple[Size, ...] | None,
    kpm: tuple[Size, ...] | None,
    is_causal: bool,
) -> None:
    """Without weights, torch views the (merged) mask as `(N, num_heads, -1, S')`, which fails when empty.

    The view is taken unless the mask has one row (a 2-D `attn_mask` alone, or an
    `N * num_heads` of 1); with `N = 0` or `S' = 0` its -1 is ambiguous.
    """
    n = batch if batched else const(1)
    if kpm is not None:
        rows = n * num_heads if n is not None and num_heads is not None else None
    elif mask is not None and not is_causal:
        rows = mask[0] if len(mask) == 3 else const(1)
    else:
        return
    empty = const_of(n) == 0 or const_of(keys) == 0
    if empty and const_of(rows) not in (1, None):
        raise ShapeRuleError(
            f"{op}: without weights torch views the attention mask as (N, num_heads, -1, S), which is ambiguous "
            f"for N = {show(n)}, S = {show(keys)}"
        )


def _attention(op: str, query: MaybeShape, source: MaybeShape, d_model: Size, nhead: Size, batch_first: bool) -> MaybeShape:
    """A transformer layer's attention block (torch's `MultiheadAttention(d_model, nhead)`, its weights not
    needed): the query's shape, `d_model` features; its errors named for the layer."""
    try:
        out, _ = multihead_attention(
            query, source, source, embed_dim=d_model, num_heads=nhead, kdim=d_model, vdim=d_model,
            batch_first=batch_first, need_weights=False,
        )
    except ShapeRuleError as err:
        raise ShapeRuleError(f"{op}: {err}") from None
    return out if out is not None else query


def _check_model_input(op: str, name: str, input: MaybeShape, d_model: Size) -> None:
    """A transformer input is `(S, E)` unbatched or `(S, N, E)` / `(N, S, E)`, with `E = d_model`."""
    s = _fixed(input)
    if s is None:
        return
    if len(s) not in (2, 3):
        raise ShapeRuleError(f"{op}: {name} must be 2-D (unbatched) or 3-D (batched), got {show_shape(input)}")
    if differ(s[-1], d_model):
        raise ShapeRuleError(f"{op}: {name} {show_shape(input)} has {show(s[-1])} features (last dim) but d_model is {show(d_model)}")


def transformer_encoder_layer(src: MaybeShape, *, d_model: Size, nhead: Size, batch_first: bool) -> MaybeShape:
    """`nn.TransformerEncoderLayer(d_model, nhead, batch_first=...)(src)`, and a `nn.TransformerEncoder` of them.

    Self-attention over `src` (`(S, N, E)`, `(N, S, E)` with `batch_first`, `(S, E)`
    unbatched; `E = d_model`), then a feed-forward block back to `d_model`: src's shape.
    """
    op = "transformer_encoder_layer"
    s = _fixed(src)
    heads = const_of(nhead)
    if s is not None and len(s) == 3 and batch_first and (heads is None or heads % 2 == 0):
        if any(const_of(size) == 0 for size in s):
            # in inference torch may take a fused path, which returns an empty src as it is, whatever its width
            return src
    _check_model_input(op, "src", src, d_model)
    return _attention(op, src, src, d_model, nhead, batch_first)


def transformer_decoder_layer(
    tgt: MaybeShape, memory: MaybeShape, *, d_model: Size, nhead: Size, batch_first: bool
) -> MaybeShape:
    """`nn.TransformerDecoderLayer(d_model, nhead, batch_first=...)(tgt, memory)`, and a `nn.TransformerDecoder`.

    Self-attention over `tgt`, then attention from it to `memory`, which needs tgt's rank
    and batch (its length is free), both with `d_model` features: tgt's shape.
    """
    op = "transformer_decoder_layer"
    _check_model_input(op, "tgt", tgt, d_model)
    _check_model_input(op, "memory", memory, d_model)
    out = _attention(op, tgt, tgt, d_model, nhead, batch_first)
    return _attention(op, out, memory, d_model, nhead, batch_first)


def transformer(src: MaybeShape, tgt: MaybeShape, *, d_model: Size, nhead: Size, batch_first: bool) -> MaybeShape:
    """`nn.Transformer(d_model, nhead, batch_first=...)(src, tgt)`: the encoder over src, the decoder over tgt
    attending to its output; tgt's shape.  torch first asks batched inputs for one batch size, then both for
    `d_model` features."""
    op = "transformer"
    s, t = _fixed(src), _fixed(tgt)
    if s is not None and len(s) == 3 and t is not None:
        batch = 0 if batch_first else 1
        if len(t) <= batch or differ(s[batch], t[batch]):
            raise ShapeRuleError(f"{op}: the batch of src {show_shape(src)} and tgt {show_shape(tgt)} must be equal")
    _check_model_input(op, "src", src, d_model)
    _check_model_input(op, "tgt", tgt, d_model)
    memory = transformer_encoder_layer(src, d_model=d_model, nhead=nhead, batch_first=batch_first)
    return transformer_decoder_layer(tgt, memory, d_model=d_model, nhead=nhead, batch_first=batch_first)
