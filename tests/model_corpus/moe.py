"""A mixture-of-experts feed-forward layer (Mixtral / DeepSeek style) inside a small transformer block.

A linear router, softmax then top-k, tokens dispatched to each expert with `torch.where` and
`index_select`, combined back with `index_add_`; a shared expert; the load-balancing loss.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
T = TypeVar("T")
N = TypeVar("N")  # tokens
D = TypeVar("D")
E = TypeVar("E")  # experts
Hf = TypeVar("Hf")  # expert hidden width
Kt = TypeVar("Kt")  # experts per token (top-k)


@checked
class Expert(nn.Module, Generic[D, Hf]):
    """A SwiGLU feed-forward network."""

    def __init__(self, dim: Dim[D], hidden: Dim[Hf]) -> None:
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x: Tensor[N, D]) -> Tensor[N, D]:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


def load_balancing_loss(probs: Tensor[N, E], indices: Tensor[N, Kt], num_experts: Dim[E]) -> Tensor[()]:
    """Switch-style auxiliary loss: fraction of tokens routed to each expert times its mean probability."""
    routed = F.one_hot(indices, num_experts).sum(dim=1).float()  # (N, E)
    fraction = routed.mean(dim=0)
    return num_experts * (fraction * probs.mean(dim=0)).sum()


@checked
class MoE(nn.Module, Generic[D, E]):
    def __init__(self, dim: Dim[D], hidden: int, num_experts: Dim[E], top_k: int) -> None:
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])
        self.shared_expert = Expert(dim, hidden)

    def forward(self, x: Tensor[B, T, D]) -> tuple[Tensor[B, T, D], Tensor[()]]:
        b, t, d = x.shape
        tokens = x.reshape(-1, d)  # (B*T, D)
        probs = self.router(tokens).softmax(dim=-1)  # (B*T, E)
        weights, indices = torch.topk(probs, self.top_k, dim=-1)  # (B*T, k)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            token_idx, slot = torch.where(indices == e)
            if token_idx.numel() == 0:
                continue
            expert_in = tokens.index_select(0, token_idx)
            expert_out = expert(expert_in) * weights[token_idx, slot, None]
            out.index_add_(0, token_idx, expert_out)
        out = out + self.shared_expert(tokens)
        aux = load_balancing_loss(probs, indices, self.num_experts)
        return out.view(b, t, d), aux


@checked
class MoEBlock(nn.Module, Generic[D, E]):
    def __init__(self, dim: Dim[D], heads: int, num_experts: Dim[E]) -> None:
        super().__init__()
        self.norm1 = nn.RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.RMSNorm(dim)
        self.moe = MoE(dim, 2 * dim, num_experts, top_k=2)

    def forward(self, x: Tensor[B, T, D]) -> tuple[Tensor[B, T, D], Tensor[()]]:
        h = self.norm1(x)
        causal = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool).triu(1)
        attn_out, _ = self.attn(h, h, h, attn_mask=causal, need_weights=False)
        x = x + attn_out
        moe_out, aux = self.moe(self.norm2(x))
        return x + moe_out, aux


def demo() -> None:
    block = MoEBlock(dim=16, heads=2, num_experts=4)
    x = torch.randn(2, 5, 16)
    y, aux = block(x)
    assert y.shape == x.shape
    (y.square().mean() + 0.01 * aux).backward()
