"""`nn.RNN`, `nn.LSTM`, `nn.GRU`: sizes from the constructor; batched, batch-first and unbatched inputs; the
initial states checked against what the module expects."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
H = TypeVar("H")


def layers(x: Tensor[B, T, D], m: Tensor[T, 4]) -> None:
    reveal_type(nn.RNN(x.size(2), 3, bidirectional=True, batch_first=True)(x))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, T, Literal[6]], torch._tensor.Tensor[Literal[2], B, Literal[3]]]"
    reveal_type(nn.GRU(4, 3, num_layers=2)(m))  # N: Revealed type is "tuple[torch._tensor.Tensor[T, Literal[3]], torch._tensor.Tensor[Literal[2], Literal[3]]]"
    out, (h, c) = nn.LSTM(x.size(2), 8, num_layers=2, proj_size=3)(x)
    reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[3]]"
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], T, Literal[3]]"
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], T, Literal[8]]"
    nn.GRU(4, 3)(x)  # E: GRU: the input (B, T, D) has D features (its last dim) but the module's input_size is 4 (in GRU[4, 3, 1, False, False])  [tyr-shape]
    nn.RNN(4, 3)(m, torch.zeros(1, 2, 3))  # E: RNN: for an unbatched 2-d input, h0 must be 2-d, not (1, 2, 3) (in RNN[4, 3, 1, False, False])  [tyr-shape]


class Encoder(nn.Module, Generic[D, H]):
    def __init__(self, d: Dim[D], h: Dim[H]) -> None:
        super().__init__()
        self.lstm = nn.LSTM(d, h, batch_first=True, bidirectional=True)

    def forward(self, x: Tensor[B, T, D], h0: Tensor[2, B, H], c0: Tensor[2, B, H]) -> Tensor[B, T, "2*H"]:
        out, (h, c) = self.lstm(x, (h0, c0))
        return out

    def wrong_state(self, x: Tensor[B, T, D], h0: Tensor[1, B, H]) -> None:
        self.lstm(x, (h0, h0))  # E: LSTM: dim 0 of h0 (1, B, H) is 1, expected 2 (the expected shape is (2, B, H)) (in LSTM[D, H, 1, True, True, 0])  [tyr-shape]
