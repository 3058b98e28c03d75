"""`nn.RNNCell`, `nn.GRUCell` and `nn.LSTMCell` take one step: `(N, input_size)` (or unbatched
`(input_size,)`) to the next hidden state `(N, hidden_size)`, an LSTM cell's `(h, c)`."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
E = TypeVar("E")
H = TypeVar("H")


class Decoder(nn.Module, Generic[E, H]):
    def __init__(self, embed: Dim[E], hidden: Dim[H]) -> None:
        super().__init__()
        self.gru = nn.GRUCell(2 * embed, hidden)
        self.lstm = nn.LSTMCell(embed, hidden)

    def forward(self, x: Tensor[B, E], h: Tensor[B, H]) -> None:
        reveal_type(self.gru(torch.cat([x, x], 1), h))  # N: Revealed type is "torch._tensor.Tensor[B, H]"
        hy, cy = self.lstm(x, (h, h))
        reveal_type(cy)  # N: Revealed type is "torch._tensor.Tensor[B, H]"
        reveal_type(self.lstm(x[0])[0])  # N: Revealed type is "torch._tensor.Tensor[H]"
        self.gru(x, h)  # E: GRUCell: the input (B, E) has E features (its last dim) but the cell's input_size is 2*E (in GRUCell[2*E, H])  [tyr-shape]
        self.lstm(x, (h[0], h[0]))  # E: LSTMCell: hx (H,) must have the input's 2 dims, like (B, H) (in LSTMCell[E, H])  [tyr-shape]
