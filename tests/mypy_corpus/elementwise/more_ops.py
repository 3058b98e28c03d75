"""Binary ops that broadcast (`logaddexp`, `gcd`, `igamma`, `isclose`, ...), ops that keep the shape (`angle`,
`resolve_conj`, `renorm`, the in-place activations of `F`)."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def binary(x: Tensor[B, D], y: Tensor[D], z: Tensor[B, 1], n: Tensor[B, D], w: Tensor[B, 3]) -> None:
    reveal_type(torch.logaddexp(x, y))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.logaddexp2(z))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.gcd(n.long(), y.long()))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(n.long().lcm_(y.long()))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.igamma(z, y))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.igammac(y))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.isclose(x, z, rtol=1e-3))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    torch.logaddexp(x, w)  # E: logaddexp: dimension 1 of the left operand (D) does not broadcast with dimension 1 of the right operand (3); shapes (B, D) and (B, 3)  [tyr-shape]
    w.isclose(y)  # E: isclose: dimension 1 of the left operand (3) does not broadcast
    z.igamma_(x)  # E: igamma_: dimension 1 of the operand (D) cannot broadcast to the target's size 1; shapes (B, D) and (B, 1)  [tyr-shape]


def same_shape(x: Tensor[B, D], v: Tensor[D]) -> None:
    reveal_type(torch.angle(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.resolve_conj().resolve_neg().conj_physical())  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.renorm(2, 0, 1.0))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.renorm(x, p=1, dim=-1, maxnorm=5.0))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    v.renorm(2, 0, 1.0)  # E: renorm: the input must have at least 2 dims, not (D,)  [tyr-shape]
    x.renorm(2, 2, 1.0)  # E: renorm: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]
    reveal_type(F.relu_(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.leaky_relu_(x, 0.1))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.elu_(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.celu_(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.selu_(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.rrelu_(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.hardtanh_(x, -2.0, 2.0))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.threshold_(x, 0.1, 0.0))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
