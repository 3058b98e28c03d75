"""Soundness of the nn module rules (`tyr.shape_rules.nn_modules`) against LibTorch (spec §7)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shapes_from
from torch import nn

from tyr._symbolic import Expr, const
from tyr.shape_rules import ShapeRuleError
from tyr.shape_rules.nn_functional import elementwise_loss
from tyr.shape_rules.nn_modules import (
    batch_norm_nd,
    instance_norm_nd,
    multihead_attention,
    transformer,
    transformer_decoder_layer,
    transformer_encoder_layer,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_batch_norm_nd(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    n = data.draw(st.sampled_from([1, 2, 3]))
    features = data.draw(st.integers(1, 4))
    if data.draw(st.integers(0, 2)):  # mostly the module's own rank, with its channels or others
        rank = data.draw(st.sampled_from([2, 3] if n == 1 else [n + 2]))
        channels = data.draw(st.sampled_from([const(features), *sizes]))
        rest = data.draw(shapes_from(sizes, rank - 2, rank - 2))
        x = (data.draw(st.sampled_from(sizes)), channels, *rest)
    else:
        x = data.draw(shapes_from(sizes, min_rank=1, max_rank=5))
    module = {1: nn.BatchNorm1d, 2: nn.BatchNorm2d, 3: nn.BatchNorm3d}[n](features)
    module.eval()  # running statistics: no "more than one value per channel" rule in play
    check(lambda x: batch_norm_nd(x, const(features), n), lambda x: module(torch.zeros(x)), x, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_instance_norm_nd(symbolic: bool, data: st.DataObject) -> None:
    """With affine weights torch checks the channels; the rule is then given `num_features`."""
    sizes, values = draw_case(data, symbolic)
    n = data.draw(st.sampled_from([1, 2, 3]))
    features = data.draw(st.integers(1, 4))
    if data.draw(st.integers(0, 2)):  # mostly a rank the module takes, with its channels or others
        rank = data.draw(st.sampled_from([n + 1, n + 2]))
        channels = data.draw(st.sampled_from([const(features), *sizes]))
        x = (*data.draw(shapes_from(sizes, rank - n - 1, rank - n - 1)), channels, *data.draw(shapes_from(sizes, n, n)))
    else:
        x = data.draw(shapes_from(sizes, min_rank=1, max_rank=5))
    # an empty batch fails in torch's running statistics (repeated per sample), which the rule cannot see
    assume(len(x) != n + 2 or x[0] is None or x[0].const_value != 0)
    norm = {1: nn.InstanceNorm1d, 2: nn.InstanceNorm2d, 3: nn.InstanceNorm3d}[n]
    module = norm(features, affine=True, track_running_stats=True)
    module.eval()  # running statistics: no "more than 1 spatial element" rule in play
    check(lambda x: instance_norm_nd(x, const(features), n), lambda x: module(torch.zeros(x)), x, values=values)


def _mha_case(data: st.DataObject) -> dict[str, Any]:
    heads = data.draw(st.integers(1, 3))
    embed = heads * data.draw(st.integers(1, 3))
    return {
        "embed": embed,
        "heads": heads,
        "kdim": data.draw(st.sampled_from([None, embed, embed + 1])),
        "vdim": data.draw(st.sampled_from([None, embed, 2])),
        "batch_first": data.draw(st.booleans()),
        "bias_kv": data.draw(st.booleans()),
        "zero_attn": data.draw(st.booleans()),
        "need_weights": data.draw(st.booleans()),
        "average": data.draw(st.booleans()),
        "is_causal": data.draw(st.booleans()) and data.draw(st.booleans()),
    }


@SYMBOLIC
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_multihead_attention(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    case = _mha_case(data)
    embed, heads = case["embed"], case["heads"]
    kdim = case["kdim"] if case["kdim"] is not None else embed
    vdim = case["vdim"] if case["vdim"] is not None else embed
    features = [const(embed), const(kdim), const(vdim)]
    pool = [*sizes, *features]
    batched = data.draw(st.booleans())

    length, source, batch = (data.draw(st.sampled_from(sizes)) for _ in range(3))

    def operand(seq: Expr, last: int) -> tuple[Expr, ...]:
        """Mostly a well-formed operand (the drawn lengths and batch, the right features); now and then any."""
        if data.draw(st.integers(0, 5)):
            if not batched:
                return (seq, const(last))
            return (batch, seq, const(last)) if case["batch_first"] else (seq, batch, const(last))
        return data.draw(shapes_from(pool, min_rank=1, max_rank=4))

    query, key, value = operand(length, embed), operand(source, kdim), operand(source, vdim)
    if data.draw(st.booleans()):
        value = key  # the same shape, as self-attention and packed projections have
    kpm: tuple[Expr, ...] | None = None
    if data.draw(st.integers(0, 2)) == 0:
        kpm = ((batch, source) if batched else (source,)) if data.draw(st.booleans()) else data.draw(
            shapes_from(sizes, 1, 3))
    mask: tuple[Expr, ...] | None = None
    if case["is_causal"] or data.draw(st.integers(0, 2)) == 0:
        mask = data.draw(st.sampled_from([
            (length, source),
            (batch * const(heads), length, source) if batched else (const(heads), length, source),
        ])) if data.draw(st.integers(0, 3)) else data.draw(shapes_from(pool, 1, 4))
    module = nn.MultiheadAttention(
        embed, heads, kdim=case["kdim"], vdim=case["vdim"], batch_first=case["batch_first"],
        add_bias_kv=case["bias_kv"], add_zero_attn=case["zero_attn"],
    )
    module.train()  # the general path (the inference fast path has its own conditions)

    def run(q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...], p: Any, m: Any) -> Any:
        out, weights = module(
            torch.zeros(q), torch.zeros(k), torch.zeros(v),
            key_padding_mask=None if p is None else torch.zeros(p, dtype=torch.bool),
            attn_mask=None if m is None else torch.zeros(m, dtype=torch.bool),
            need_weights=case["need_weights"], average_attn_weights=case["average"], is_causal=case["is_causal"],
        )
        return (out, weights) if case["need_weights"] else out

    def rule(q: Any, k: Any, v: Any, p: Any, m: Any) -> Any:
        out, weights = multihead_attention(
            q, k, v, embed_dim=const(embed), num_heads=const(heads), kdim=const(kdim), vdim=const(vdim),
            batch_first=case["batch_first"], add_bias_kv=case["bias_kv"], add_zero_attn=case["zero_attn"],
            key_padding_mask=p, attn_mask=m, need_weights=case["need_weights"],
            average_attn_weights=case["average"], is_causal=case["is_causal"],
        )
        if not case["need_weights"]:
            return out
        return None if out is None or weights is None else (out, weights)

    check(rule, run, query, key, value, kpm, mask, values=values,
          warns=("Support for mismatched key_padding_mask and attn_mask is deprecated",))


def test_multihead_attention_messages() -> None:
    """The errors name what does not fit."""
    e = const(8)
    with pytest.raises(ShapeRuleError, match="the query has 6 features"):
        multihead_attention((const(3), const(2), const(6)), None, None, embed_dim=e, num_heads=const(2), kdim=e,
                            vdim=e)
    with pytest.raises(ShapeRuleError, match="embed_dim 8 must be a positive multiple of num_heads 3"):
        multihead_attention(None, None, None, embed_dim=e, num_heads=const(3), kdim=e, vdim=e)


_TRANSFORMER_KINDS = ["encoder_layer", "decoder_layer", "encoder", "decoder", "transformer"]


@SYMBOLIC
@pytest.mark.parametrize("kind", _TRANSFORMER_KINDS)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_transformer_layers(symbolic: bool, kind: str, data: st.DataObject) -> None:
    """torch's transformer layers, their stacks and `nn.Transformer`, in training and in inference (where
    torch may take a fused fast path)."""
    sizes, values = draw_case(data, symbolic)
    heads = data.draw(st.integers(1, 2))
    d_model = heads * data.draw(st.integers(1, 3))
    batch_first, batched = data.draw(st.booleans()), data.draw(st.booleans())
    batch = data.draw(st.sampled_from(sizes))

    def operand() -> tuple[Expr, ...]:
        """Mostly well formed (the drawn batch, d_model features); now and then any shape."""
        if data.draw(st.integers(0, 4)):
            length, features = data.draw(st.sampled_from(sizes)), data.draw(st.sampled_from([d_model, d_model + 1]))
            if not batched:
                return (length, const(features))
            return (batch, length, const(features)) if batch_first else (length, batch, const(features))
        return data.draw(shapes_from([*sizes, const(d_model)], min_rank=1, max_rank=4))

    first, second = operand(), operand()
    layer_args = dict(dim_feedforward=4, dropout=0.0, batch_first=batch_first)
    module: nn.Module
    if kind in ("encoder_layer", "encoder"):
        module = nn.TransformerEncoderLayer(d_model, heads, **layer_args)
        if kind == "encoder":
            module = nn.TransformerEncoder(module, num_layers=2, enable_nested_tensor=False)
    elif kind in ("decoder_layer", "decoder"):
        module = nn.TransformerDecoderLayer(d_model, heads, **layer_args)
        if kind == "decoder":
            module = nn.TransformerDecoder(module, num_layers=2)
    else:
        with warnings.catch_warnings():  # that its encoder will not nest tensors (without batch_first)
            warnings.simplefilter("ignore")
            module = nn.Transformer(d_model, heads, 1, 1, **layer_args)
    inference = data.draw(st.booleans())
    module.train(not inference)
    takes_two = kind not in ("encoder_layer", "encoder")
    settings_ = dict(d_model=const(d_model), nhead=const(heads), batch_first=batch_first)

    def run(a: tuple[int, ...], b: tuple[int, ...]) -> Any:
        with torch.inference_mode(inference):
            inputs = (torch.zeros(a), torch.zeros(b)) if takes_two else (torch.zeros(a),)
            return module(*inputs)

    def rule(a: Any, b: Any) -> Any:
        if kind == "transformer":
            return transformer(a, b, **settings_)
        if takes_two:
            return transformer_decoder_layer(a, b, **settings_)
        return transformer_encoder_layer(a, **settings_)

    # torch's fused inference path returns an empty src as it is, checking nothing; training checks it
    fused = kind in ("encoder_layer", "encoder") and batch_first and heads % 2 == 0 and len(first) == 3
    empty = fused and any(size.evaluate(values or {}) == 0 for size in first)
    check(rule, run, first, second, values=values, told_less=empty)


def test_transformer_messages() -> None:
    """The errors name the input and the width it should have."""
    e, h = const(8), const(2)
    with pytest.raises(ShapeRuleError, match=r"src \(3, 2, 6\) has 6 features \(last dim\) but d_model is 8"):
        transformer_encoder_layer((const(3), const(2), const(6)), d_model=e, nhead=h, batch_first=False)
    with pytest.raises(ShapeRuleError, match="the batch of src"):
        transformer((const(3), const(2), e), (const(4), const(5), e), d_model=e, nhead=h, batch_first=False)


_ELEMENTWISE_LOSSES = {
    nn.MSELoss: ("mse_loss", False),
    nn.L1Loss: ("l1_loss", False),
    nn.SmoothL1Loss: ("smooth_l1_loss", False),
    nn.HuberLoss: ("huber_loss", False),
    nn.HingeEmbeddingLoss: ("hinge_embedding_loss", False),
    nn.PoissonNLLLoss: ("poisson_nll_loss", False),
    nn.BCELoss: ("binary_cross_entropy", True),
    nn.BCEWithLogitsLoss: ("binary_cross_entropy_with_logits", True),
}


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_loss_modules_are_their_functional_form(symbolic: bool, data: st.DataObject) -> None:
    """A loss module called is its functional form with the module's reduction (the plugin's `_LOSSES`
    route `nn.MSELoss(reduction=r)(x, t)` to `F.mse_loss`'s rule with `r`); `nn.KLDivLoss`'s "batchmean"
    is a sum's shape."""
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    t = x if data.draw(st.booleans()) else data.draw(shapes_from(sizes, max_rank=3))
    reduction = data.draw(st.sampled_from(["none", "mean", "sum"]))
    cls = data.draw(st.sampled_from(sorted(_ELEMENTWISE_LOSSES, key=lambda c: c.__name__)))
    op, same_shape = _ELEMENTWISE_LOSSES[cls]
    module = cls(reduction=reduction)
    check(lambda x, t: elementwise_loss(x, t, reduction, same_shape=same_shape, op=op),
          lambda x, t: module(torch.rand(x), torch.rand(t)), x, t, values=values,
          warns=("Using a target size", "Using a non-full backward hook"))
    kl_reduction = data.draw(st.sampled_from(["none", "mean", "sum", "batchmean"]))
    kl = nn.KLDivLoss(reduction=kl_reduction)
    check(lambda x, t: elementwise_loss(x, t, "none" if kl_reduction == "none" else "sum", op="kl_div"),
          lambda x, t: kl(torch.rand(x), torch.rand(t)), x, t, values=values,
          warns=("Using a target size", "reduction: 'mean' divides the total loss"))
