"""Instance norms and torch's transformer layers and stacks give their input's shape (`src`'s for an
encoder, `tgt`'s for a decoder)."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")
S = TypeVar("S")
T = TypeVar("T")


def layers(x: Tensor[B, 6, 8], src: Tensor[B, S, 8], tgt: Tensor[B, T, 8]) -> None:
    reveal_type(nn.InstanceNorm1d(6)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], Literal[8]]"
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, batch_first=True), num_layers=2)
    memory = encoder(src)
    reveal_type(memory)  # N: Revealed type is "torch._tensor.Tensor[B, S, Literal[8]]"
    decoder = nn.TransformerDecoderLayer(8, 2, batch_first=True)
    reveal_type(decoder(tgt, memory))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[8]]"
