"""Queries of the wrong width, keys without values' length, heads that do not divide the width."""

import torch
from torch import nn

attn = nn.MultiheadAttention(64, 4)
attn(torch.zeros(5, 2, 32), torch.zeros(5, 2, 32), torch.zeros(5, 2, 32))  # E: multi_head_attention: the query has 32 features (last dim) but embed_dim is 64  [tyr-shape]
attn(torch.zeros(5, 2, 64), torch.zeros(7, 2, 64), torch.zeros(6, 2, 64))  # E: multi_head_attention: the key (7, 2, 64) and the value (6, 2, 64) must have one shape  [tyr-shape]
attn(torch.zeros(5, 2, 64), torch.zeros(5, 2, 64), torch.zeros(5, 2, 64), attn_mask=torch.zeros(5, 6, dtype=torch.bool))  # E: attn_mask (5, 6) must have shape (5, 5)  [tyr-shape]
nn.MultiheadAttention(30, 4)(torch.zeros(5, 30), torch.zeros(5, 30), torch.zeros(5, 30))  # E: embed_dim 30 must be a positive multiple of num_heads 4  [tyr-shape]
