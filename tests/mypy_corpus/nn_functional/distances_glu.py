"""`F.glu` halves a dim; `cosine_similarity`/`pairwise_distance` reduce one; `cdist` pairs rows; `multinomial` samples."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
S = TypeVar("S")
D = TypeVar("D")
V = TypeVar("V")
H = TypeVar("H")
W = TypeVar("W")


def compare(x: Tensor[B, T, "2*D"], a: Tensor[B, T, D], b: Tensor[B, S, D], probs: Tensor[B, V], h: Dim[H], w: Dim[W]) -> None:
    reveal_type(F.glu(x))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(F.cosine_similarity(a, a, dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(F.pairwise_distance(a, a, keepdim=True))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[1]]"
    reveal_type(torch.cdist(a, b))  # N: Revealed type is "torch._tensor.Tensor[B, T, S]"
    reveal_type(torch.multinomial(probs, num_samples=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1]]"
    gy, gx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    reveal_type(gy)  # N: Revealed type is "torch._tensor.Tensor[H, W]"
    reveal_type(torch.triu_indices(4, 4, 1))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[6]]"
    F.glu(torch.zeros(3, 5))  # E: glu: dimension -1 must have an even size to halve, not 5  [tyr-shape]
    torch.cdist(a, x)  # E: cdist: dimension 2 of x1 (D) does not match dimension 2 of x2 (2*D)  [tyr-shape]
    torch.multinomial(torch.ones(4), 5)  # E: multinomial: 5 samples without replacement from 4 categories  [tyr-shape]
