"""torch's transformer layers check their inputs' width against d_model (a stack, through the layer it
clones), a decoder's memory against its target's batch, `nn.Transformer` its two inputs' batch."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")
S = TypeVar("S")

layer = nn.TransformerEncoderLayer(d_model=16, nhead=4, batch_first=True)
layer(torch.zeros(2, 5, 12))  # E: transformer_encoder_layer: src (2, 5, 12) has 12 features (last dim) but d_model is 16 (in TransformerEncoderLayer[16, 4, True])  [tyr-shape]
encoder = nn.TransformerEncoder(layer, num_layers=3)
encoder(torch.zeros(2, 5, 8))  # E: transformer_encoder_layer: src (2, 5, 8) has 8 features (last dim) but d_model is 16 (in TransformerEncoder[TransformerEncoderLayer[16, 4, True]])  [tyr-shape]
decoder = nn.TransformerDecoderLayer(16, 4)
decoder(torch.zeros(5, 2, 16), torch.zeros(7, 3, 16))  # E: transformer_decoder_layer: multi_head_attention: the key's batch 3 is not the query's 2 (in TransformerDecoderLayer[16, 4, False])  [tyr-shape]
decoder(torch.zeros(5, 2, 16), torch.zeros(7, 16))  # E: transformer_decoder_layer: multi_head_attention: the key (7, 16) must have the query's 3 dims (5, 2, 16) (in TransformerDecoderLayer[16, 4, False])  [tyr-shape]
nn.Transformer()(torch.zeros(5, 2, 16), torch.zeros(7, 2, 16))  # E: transformer: src (5, 2, 16) has 16 features (last dim) but d_model is 512 (in Transformer[512, 8, False])  [tyr-shape]
model = nn.Transformer(d_model=16, nhead=4, num_encoder_layers=1, num_decoder_layers=1)
model(torch.zeros(5, 2, 16), torch.zeros(7, 3, 16))  # E: transformer: the batch of src (5, 2, 16) and tgt (7, 3, 16) must be equal (in Transformer[16, 4, False])  [tyr-shape]


def translate(src: Tensor[S, B, 16], tgt: Tensor[S, B, 16]) -> None:
    reveal_type(model(src, tgt))  # N: Revealed type is "torch._tensor.Tensor[S, B, Literal[16]]"
    reveal_type(nn.TransformerDecoder(decoder, 2)(tgt, src))  # N: Revealed type is "torch._tensor.Tensor[S, B, Literal[16]]"
