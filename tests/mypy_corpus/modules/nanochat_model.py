"""tyr's NanoChat as a user sees it: sizes flow from the constructor to the logits, a KV cache keeps its heads."""

from typing import reveal_type

import torch

from tyr.models.nanochat import NanoChat, NanoChatConfig

config = NanoChatConfig(vocab_size=100, depth=2, aspect_ratio=16, head_dim=8, n_kv_head=2, sequence_len=16)
model = NanoChat(config, 100, 32)
idx = torch.zeros(3, 7, dtype=torch.long)
reveal_type(model(idx))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[7], Literal[100]]"
reveal_type(model.nats(idx, idx))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[7]]"
model.nats(idx, idx[:, 1:])  # E: Dimension T of "NanoChat.nats": bound to 7 by argument "idx", but argument "targets" has 6
block = model.blocks[0]
block(torch.zeros(3, 7, 31))  # E: Dimension 2 of argument "x" to "Block.forward": expected 32, got 31
