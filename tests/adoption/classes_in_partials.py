"""A `partial` of a module class where the other branch of a conditional is `Any`
(state-spaces/s4's timm ConvNeXt: `norm_layer if conv_mlp else partial(nn.LayerNorm, eps=1e-6)`).
tyr's stubs make `nn.LayerNorm` generic in a `TypeVarTuple`, and mypy 2.4 crashed unifying its
constructor against that context; plain mypy reports only the unrelated error below."""

from functools import partial
from typing import Any

import torch.nn as nn


def norm_factory(norm_layer: Any, conv_mlp: bool) -> Any:
    layer = norm_layer if conv_mlp else partial(nn.LayerNorm, eps=1e-6)
    return layer(8, no_such_argument=1) + undefined_name  # noqa: F821  (plain mypy's error)
