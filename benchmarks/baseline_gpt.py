"""The comparison point for `bench_train.py`: a GPT and its training step in plain PyTorch, without tyr.

It is the model and recipe of nanoGPT's shakespeare-char CPU run, written the way
nanoGPT writes them: pre-norm blocks, fused q/k/v projection, `scaled_dot_product_attention`
with a causal mask, GELU MLP four times wide, no biases, learned positions, the token
table tied to the output head, N(0, 0.02) weights with the residual projections scaled
by 1/sqrt(2 * layers); `torch.optim.AdamW` decaying matrices only, linear warmup and
cosine decay of the learning rate, global-norm clipping at 1. Nothing here imports tyr;
its tensors are named as `tyr.models.GPT` names them, so the benchmark can start both from
the same weights (`load_state_dict`). Those are tyr's, drawn otherwise than here: the blocks'
matrices from N(0, 1/fan_in) rather than N(0, 0.02), which ends this run ~0.13 nats lower; so
`bench_train.py` races tyr's initialisation in both codes, and this module's own (used as drawn
by `bench_nanochat.py`) stays nanoGPT's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class BaselineConfig:
    vocab_size: int = 65
    block_size: int = 64
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    # the recipe
    lr: float = 1e-3
    min_lr: float = 1e-4
    warmup_iters: int = 100
    max_iters: int = 2000
    betas: tuple[float, float] = (0.9, 0.99)
    weight_decay: float = 0.1
    grad_clip: float = 1.0


class CausalSelfAttention(nn.Module):
    def __init__(self, config: BaselineConfig) -> None:
        super().__init__()
        self.n_head = config.n_head
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=False)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        out: torch.Tensor = self.c_proj(y)
        return out


class MLP(nn.Module):
    def __init__(self, config: BaselineConfig) -> None:
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=False)
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.c_proj(F.gelu(self.c_fc(x)))
        return out


class Block(nn.Module):
    def __init__(self, config: BaselineConfig) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, bias=False)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, bias=False)
        self.mlp = MLP(config)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class BaselineGPT(nn.Module):
    def __init__(self, config: BaselineConfig) -> None:
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd, bias=False)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight  # weight tying
        for name, p in self.named_parameters():
            if p.dim() == 2:
                std = 0.02 / math.sqrt(2 * config.n_layer) if name.endswith("c_proj.weight") else 0.02
                nn.init.normal_(p, mean=0.0, std=std)

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        B, T = idx.size()
        pos = torch.arange(T, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))


class BaselineTrainer:
    """The model, its optimizer and the step: `step(x, y)` trains on one batch and returns the loss."""

    def __init__(self, config: BaselineConfig) -> None:
        self.config = config
        self.model = BaselineGPT(config)
        params = [p for p in self.model.parameters() if p.requires_grad]
        groups = [
            {"params": [p for p in params if p.dim() >= 2], "weight_decay": config.weight_decay},
            {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0},
        ]
        self.optimizer = torch.optim.AdamW(groups, lr=config.lr, betas=config.betas)
        self.iter = 0

    def lr(self, it: int) -> float:
        c = self.config
        if it < c.warmup_iters:
            return c.lr * (it + 1) / c.warmup_iters
        ratio = min(1.0, (it - c.warmup_iters) / (c.max_iters - c.warmup_iters))
        return c.min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (c.lr - c.min_lr)

    def step(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        for group in self.optimizer.param_groups:
            group["lr"] = self.lr(self.iter)
        _, loss = self.model(x, y)
        assert loss is not None
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.grad_clip)
        self.optimizer.step()
        self.iter += 1
        return loss.detach()
