"""A GPT language model (nanoGPT-style) whose shapes are annotations, checked by mypy and at runtime.

Every tensor's shape is written where it changes, as an annotation rather than
a comment: `B` batch, `T` time, `C` embedding width, `V` vocabulary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Integer, Tensor, checked
from tyr.models._common import check_sizes
from tyr.models.rotary import Rotary
from tyr.models.sampling import next_token

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
V = TypeVar("V")

Position = Literal["learned", "rotary"]
Activation = Literal["gelu", "relu2"]


@dataclass(frozen=True, kw_only=True)
class GPTConfig:
    vocab_size: int = 65  # tinyshakespeare's character vocabulary
    block_size: int = 256  # longest context the position table covers
    n_layer: int = 6
    n_head: int = 6
    n_embd: int = 384
    dropout: float = 0.0
    bias: bool = False  # biases in Linear and LayerNorm: off is a little faster and no worse
    position: Position = "learned"  # a learned table added to the input, or rotary queries and keys
    activation: Activation = "gelu"  # the MLP's: GELU, or ReLU squared (cheaper, and learns faster here)
    qk_norm: bool = False  # RMS-normalise queries and keys per head (attention sharpens sooner)

    def __post_init__(self) -> None:
        if self.n_embd % self.n_head:
            raise ValueError(
                f"n_embd must split evenly into heads: n_embd % n_head = {self.n_embd} % {self.n_head} "
                f"= {self.n_embd % self.n_head}"
            )
        for name in ("vocab_size", "block_size", "n_layer", "n_head", "n_embd"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")
        if self.position not in ("learned", "rotary") or self.activation not in ("gelu", "relu2"):
            raise ValueError(f"position must be learned or rotary and activation gelu or relu2, got "
                             f"{self.position!r}, {self.activation!r}")  # fmt: skip
        if self.position == "rotary" and (self.n_embd // self.n_head) % 2:
            raise ValueError(f"rotary positions need an even head size, got n_embd / n_head = {self.n_embd / self.n_head}")


@checked
class CausalSelfAttention(nn.Module, Generic[C]):
    def __init__(
        self,
        n_embd: Dim[C],
        n_head: int,
        dropout: float,
        bias: bool,
        rotary_len: int | None = None,
        qk_norm: bool = False,
    ) -> None:
        super().__init__()
        self.n_head = n_head
        self.qk_norm = qk_norm
        self.dropout = dropout
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=bias)  # q, k, v for all heads at once
        self.c_proj = nn.Linear(n_embd, n_embd, bias=bias)
        self.resid_dropout = nn.Dropout(dropout)
        self.rotary = Rotary(n_embd // n_head, rotary_len) if rotary_len else None  # rotate q and k by position

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        b, t, c = x.size()
        q, k, v = self.c_attn(x).split(c, dim=2)
        h = self.n_head
        q = q.view(b, t, h, c // h).transpose(1, 2)  # (b, h, t, c/h)
        k = k.view(b, t, h, c // h).transpose(1, 2)
        v = v.view(b, t, h, c // h).transpose(1, 2)
        if self.qk_norm:
            q, k = F.rms_norm(q, (c // h,)), F.rms_norm(k, (c // h,))
        if self.rotary is not None:
            q, k = self.rotary(q), self.rotary(k)
        dropout = self.dropout if self.training else 0.0
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(b, t, c)  # heads side by side again
        out: Tensor[B, T, C] = self.resid_dropout(self.c_proj(y))
        return out


@checked
class MLP(nn.Module, Generic[C]):
    def __init__(self, n_embd: Dim[C], dropout: float, bias: bool, activation: Activation = "gelu") -> None:
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd, bias=bias)
        self.c_proj = nn.Linear(4 * n_embd, n_embd, bias=bias)
        self.dropout = nn.Dropout(dropout)
        self.relu2 = activation == "relu2"

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        h = self.c_fc(x)
        h = F.relu(h).square() if self.relu2 else F.gelu(h)
        out: Tensor[B, T, C] = self.dropout(self.c_proj(h))
        return out


@checked
class Block(nn.Module, Generic[C]):
    def __init__(
        self,
        n_embd: Dim[C],
        n_head: int,
        dropout: float,
        bias: bool,
        rotary_len: int | None = None,
        activation: Activation = "gelu",
        qk_norm: bool = False,
    ) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, bias=bias)
        self.attn = CausalSelfAttention(n_embd, n_head, dropout, bias, rotary_len, qk_norm)
        self.ln_2 = nn.LayerNorm(n_embd, bias=bias)
        self.mlp = MLP(n_embd, dropout, bias, activation)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


@checked
class GPT(nn.Module, Generic[V, C]):
    """A decoder-only transformer.

    Arguments:
        config: sizes and regularisation (see `GPTConfig`).
        vocab_size: the vocabulary size `V` (as config.vocab_size; a `Dim` so shapes can use it).
        n_embd: the embedding width `C` (as config.n_embd).

    `model(idx, targets)` takes token ids `idx: Tensor[B, T]` (int64, `T <= block_size`)
    and returns `(logits: Tensor[B, T, V], loss)`, the loss being the mean
    cross-entropy against `targets: Tensor[B, T]` when given, else None.
    """

    def __init__(self, config: GPTConfig, vocab_size: Dim[V], n_embd: Dim[C]) -> None:
        super().__init__()
        check_sizes(config, vocab_size, n_embd)
        self.config = config
        self.wte = nn.Embedding(vocab_size, n_embd)
        rotary = config.position == "rotary"
        self.wpe = None if rotary else nn.Embedding(config.block_size, n_embd)
        self.drop = nn.Dropout(config.dropout)
        rotary_len = config.block_size if rotary else None
        self.blocks = nn.ModuleList(
            [
                Block(n_embd, config.n_head, config.dropout, config.bias, rotary_len, config.activation, config.qk_norm)
                for _ in range(config.n_layer)
            ]
        )
        self.ln_f = nn.LayerNorm(n_embd, bias=config.bias)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight  # weight tying: one table for input and output
        self.apply(self._init_weights)
        for name, param in self.named_parameters():
            if name.startswith("blocks.") and param.dim() == 2:
                # The blocks' matrices N(0, 1/fan_in) (LeCun), not GPT-2's fixed 0.02, which suits widths
                # near 768 and is 4x too small at 128: nanoGPT's CPU run ends ~0.13 nats lower for it.
                std = param.size(1) ** -0.5
                if name.endswith("c_proj.weight"):  # scaled residual projections, as in GPT-2
                    std /= math.sqrt(2 * config.n_layer)
                nn.init.normal_(param, mean=0.0, std=std)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)  # the blocks' matrices are drawn again above
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    @classmethod
    def from_config(cls, config: GPTConfig) -> GPT[Any, Any]:
        """Build from a config alone (the sizes come from it)."""
        # Named, not `cls(...)`: mypy applies no plugin signature hook to a call through `cls`, so
        # plain ints would not be taken for the Dim parameters there.
        return GPT(config, config.vocab_size, config.n_embd)

    def num_params(self, non_embedding: bool = True) -> int:
        """Parameter count; position embeddings excluded by default (token ones are tied to the head)."""
        total = sum(p.numel() for p in self.parameters())
        return total - self.wpe.weight.numel() if non_embedding and self.wpe is not None else total

    def forward(
        self, idx: Annotated[Tensor[B, T], Integer], targets: Annotated[Tensor[B, T], Integer] | None = None
    ) -> tuple[Tensor[B, T, V], Tensor[()] | None]:
        b, t = idx.size()
        if t > self.config.block_size:
            raise ValueError(f"Cannot forward sequence of length {t}, block size is only {self.config.block_size}")
        x = self.wte(idx)
        if self.wpe is not None:
            x = x + self.wpe(torch.arange(t, device=idx.device))
        x = self.drop(x)
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.view(b * t, -1), targets.view(b * t))
        return logits, loss

    @torch.no_grad()
    def generate(
        self,
        idx: Annotated[Tensor[B, T], Integer],
        max_new_tokens: int,
        temperature: float = 1.0,
        top_k: int | None = None,
        generator: torch.Generator | None = None,
    ) -> Tensor:
        """Sample `max_new_tokens` more tokens after `idx`; returns `Tensor[B, T + max_new_tokens]`.

        Each token is drawn from the softmax of the last logits divided by `temperature`,
        restricted to the `top_k` likeliest when given, using `generator` (default: torch's).
        """
        for _ in range(max_new_tokens):
            context = idx[:, -self.config.block_size :]
            logits, _ = self(context)
            idx = torch.cat((idx, next_token(logits[:, -1, :], temperature, top_k, generator)), dim=1)
        return idx
