"""In a file that imports tyr, a module's result is a tensor in every function, shapes in its
signature or not: a script's `main` that builds its tensors from literal sizes is checked through
its layers.  (A file that does not import tyr sees torch's `Any`, as without tyr:
`tests/adoption/module_results_in_plain_code.py`.)"""

from typing import reveal_type

import torch
from torch import nn

import tyr


def main() -> None:
    t = torch.randn(2, 4, 5)
    u = nn.Linear(5, 3)(t)
    reveal_type(u)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[4], Literal[3]]"
    g = nn.GELU()(u)
    reveal_type(g)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[4], Literal[3]]"
    g.view(7)  # E: view: shape [7] has 7 elements but the tensor (2, 4, 3) has 24  [tyr-shape]


def rebound() -> None:
    y = nn.Linear(5, 3)(torch.randn(2, 5))
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
    y = y.numpy()  # torch types the call `Any`: the name takes any value, as without tyr (mypy's defaults too)


assert tyr
