"""A tensor built where a union with `Any` is expected (karpathy/llama2.c's export: for a layer of a
`ModuleList`, `layer.attention_norm.weight = nn.Parameter(w)`: `Module.__getattr__` gives `Tensor |
Module`, and the failed attribute `Any`).  mypy 2.4 crashed inferring tyr's `Tensor[*Shape]` against
that; plain mypy only reports the union's attribute (its error, on the same line, with tyr too).
"""

from typing import Any, Union

import torch
from torch import nn


def load(model: nn.Module, weights: dict[str, torch.Tensor]) -> None:
    for i, layer in enumerate(model.layers):
        layer.attention_norm.weight = nn.Parameter(weights[f"layers.{i}.attention_norm.weight"])  # plain mypy's error


def expected_union(t: torch.Tensor) -> None:
    x: Union[torch.Tensor, Any] = nn.Parameter(t)
    y: Union[torch.Tensor, Any] = torch.Tensor(t)
    z: Union[torch.Tensor, Any] = nn.Buffer(t)
    print(x, y, z)
