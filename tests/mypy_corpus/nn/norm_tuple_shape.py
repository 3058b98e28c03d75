"""`nn.LayerNorm` / `nn.RMSNorm` over several trailing dims, given as a tuple or a list: the type carries them all."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")


def normalise(x: Tensor[B, 3, H, W], h: Dim[H], w: Dim[W]) -> None:
    ln = nn.LayerNorm((h, w))
    reveal_type(ln)  # N: Revealed type is "torch.nn.modules.normalization.LayerNorm[H, W]"
    reveal_type(ln(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], H, W]"
    reveal_type(nn.LayerNorm([3, h, w]))  # N: Revealed type is "torch.nn.modules.normalization.LayerNorm[Literal[3], H, W]"
    rms = nn.RMSNorm((h, w), eps=1e-6)
    reveal_type(rms(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], H, W]"
    reveal_type(nn.LayerNorm(x.shape[2:]))  # N: Revealed type is "torch.nn.modules.normalization.LayerNorm[H, W]"
    nn.LayerNorm((w, h))(x)  # E: layer_norm  [tyr-shape]
    nn.RMSNorm((4, 4))(x)  # E: rms_norm  [tyr-shape]
