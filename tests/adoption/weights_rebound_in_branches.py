"""A weight of unknown rank read into a local (`w = self.weight`) that a branch rebinds to a view:
after the branch the local is of unknown rank, never the view's rank alone.

Found on pyg (rgcn_conv.py, rgat_conv.py), with `allow_redefinition`: mypy widens the local's
type to the union of the Parameter and the view's tensor, where the Parameter was dropped as a
subtype, and an einsum of the other rank failed.
"""

import torch
from torch import nn


class RelationalConv(nn.Module):
    def __init__(self, relations: int, bases: int | None, width: int) -> None:
        super().__init__()
        self.relations, self.bases, self.width = relations, bases, width
        if bases is not None:
            self.weight = nn.Parameter(torch.empty(bases, width, width))
        else:
            self.weight = nn.Parameter(torch.empty(relations, 2, width // 2, width // 2))

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        weight = self.weight
        if self.bases is not None:
            weight = weight.view(self.relations, self.width, self.width)
        return torch.einsum("abc,bcd->abd", h, weight[0])

    def message(self, x: torch.Tensor, a: torch.Tensor, edge_type: torch.Tensor) -> torch.Tensor:
        if self.bases is not None:
            w = torch.matmul(a, a)
            w = w.view(self.relations, 6, self.width)
        if self.bases is None:
            w = self.weight
            w = torch.index_select(w, 0, edge_type)
            return torch.einsum("abcd,acde->ace", x, w)
        return x
