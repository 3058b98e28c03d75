"""A submodule assigned to an `nn.Sequential` (`seq.proj = m`) is a new last layer: its layers are unknown.

torch registers it as `add_module` does, so calling the chain runs it last.  A module that is no
chain keeps its type, and so does a chain given an attribute torch declares (`training`).
"""

from typing import reveal_type

import torch
from torch import nn

from tyr import Tensor


def grown(x: Tensor[2, 3, 8, 8]) -> None:
    s = nn.Sequential(nn.Conv2d(3, 8, 1))
    reveal_type(s(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[8], Literal[8]]"
    s.proj = nn.Conv2d(8, 4, 1)
    reveal_type(s)  # N: Revealed type is "torch.nn.modules.container.Sequential[*tuple[Any, ...]]"
    c = nn.Conv2d(3, 8, 1)
    c.extra = nn.ReLU()
    reveal_type(c(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[8], Literal[8]]"
    t = nn.Sequential(nn.Conv2d(3, 8, 1))
    t.training = False
    reveal_type(t(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[8], Literal[8]]"


if __name__ == "__main__":
    s = nn.Sequential(nn.Conv2d(3, 8, 1))
    s.proj = nn.Conv2d(8, 4, 1)
    print(s(torch.randn(2, 3, 8, 8)).shape)  # torch.Size([2, 4, 8, 8])
