"""Masked discrete diffusion language model: a bidirectional transformer that fills in masked tokens.

The forward process hides each token of a sequence behind a MASK token; at masking
rate t a fraction t of the tokens is hidden. The model sees the partly masked
sequence (no causal mask: every position attends to every other) and predicts the
original token at each position. It never predicts MASK itself: its output covers
the tokenizer's `V` ids, its input table `V + 1` (MASK is id `V`).

Training minimises the negative evidence lower bound (NELBO) of the sequence's
log-likelihood. For the linear schedule (a token is masked with probability t) it is

    NELBO(x) = E_{t ~ U(0, 1]} [ (1 / t) * sum over masked positions i of -log p(x_i | x_t) ]

which is also sum_{k=1..T} (1/k) E_{|M| = k} [sum_{i in M} -log p(x_i | x without M)]: the
expected loss of filling in the tokens in a random order, one at a time, an upper bound
on -log p(x) in nats. `nelbo` estimates it per sequence (see there); `sample` writes text
by unmasking step by step. Shapes: `B` batch, `T` positions, `C` width, `V` vocabulary
(without MASK), `H` heads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Float, Integer, Tensor, checked
from tyr.models.gpt import Activation
from tyr.models._common import check_sizes
from tyr.models.rotary import Rotary

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
V = TypeVar("V")

Estimator = Literal["count", "rate"]
Order = Literal["random", "confidence"]


@dataclass(frozen=True, kw_only=True)
class DiffusionConfig:
    vocab_size: int = 66  # the tokenizer's ids; the model adds MASK as id vocab_size
    block_size: int = 64  # longest sequence (the rotary table's length)
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    dropout: float = 0.0
    bias: bool = False
    activation: Activation = "gelu"  # the MLP's: GELU or ReLU squared
    tie_embeddings: bool = False  # score the output with the token table (its rows but MASK's) instead of a head
    qk_norm: bool = False  # RMS-normalise queries and keys per head (attention learns sharper patterns sooner)
    qk_gain: bool = False  # with qk_norm: learned gains on the normalised queries and keys (their temperature)

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "n_layer", "n_head", "n_embd"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.n_embd % self.n_head or (self.n_embd // self.n_head) % 2:
            raise ValueError(
                f"n_embd must split into heads of even size (rotary turns pairs): n_embd / n_head = "
                f"{self.n_embd} / {self.n_head} = {self.n_embd / self.n_head}"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")


@checked
class SelfAttention(nn.Module, Generic[C]):
    """Multi-head attention over the whole sequence (bidirectional), rotary positions on queries and keys."""

    def __init__(
        self,
        n_embd: Dim[C],
        n_head: int,
        block_size: int,
        dropout: float,
        bias: bool,
        qk_norm: bool = False,
        qk_gain: bool = False,
    ) -> None:
        super().__init__()
        self.n_head = n_head
        self.qk_norm = qk_norm
        self.q_gain = nn.Parameter(torch.ones(n_embd // n_head)) if qk_gain else None
        self.k_gain = nn.Parameter(torch.ones(n_embd // n_head)) if qk_gain else None
        self.dropout = dropout
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=bias)  # q, k, v for all heads at once
        self.c_proj = nn.Linear(n_embd, n_embd, bias=bias)
        self.rotary = Rotary(n_embd // n_head, block_size)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        b, t, c = x.size()
        h = self.n_head
        q, k, v = self.c_attn(x).split(c, dim=2)
        q = q.view(b, t, h, c // h).transpose(1, 2)  # (b, h, t, c/h)
        k = k.view(b, t, h, c // h).transpose(1, 2)
        if self.qk_norm:
            q, k = F.rms_norm(q, (c // h,), self.q_gain), F.rms_norm(k, (c // h,), self.k_gain)
        q, k = self.rotary(q), self.rotary(k)
        v = v.view(b, t, h, c // h).transpose(1, 2)
        dropout = self.dropout if self.training else 0.0
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout)  # no causal mask
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        out: Tensor[B, T, C] = self.c_proj(y)
        return out


@checked
class MLP(nn.Module, Generic[C]):
    def __init__(self, n_embd: Dim[C], bias: bool, activation: Activation) -> None:
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd, bias=bias)
        self.c_proj = nn.Linear(4 * n_embd, n_embd, bias=bias)
        self.relu2 = activation == "relu2"

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        h = self.c_fc(x)
        h = F.relu(h).square() if self.relu2 else F.gelu(h)
        out: Tensor[B, T, C] = self.c_proj(h)
        return out


@checked
class Block(nn.Module, Generic[C]):
    def __init__(
        self,
        n_embd: Dim[C],
        n_head: int,
        block_size: int,
        dropout: float,
        bias: bool,
        activation: Activation,
        qk_norm: bool = False,
        qk_gain: bool = False,
    ) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, bias=bias)
        self.attn = SelfAttention(n_embd, n_head, block_size, dropout, bias, qk_norm, qk_gain)
        self.ln_2 = nn.LayerNorm(n_embd, bias=bias)
        self.mlp = MLP(n_embd, bias, activation)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        x = x + self.drop(self.attn(self.ln_1(x)))
        x = x + self.drop(self.mlp(self.ln_2(x)))
        return x


@checked
class MaskedDiffusionLM(nn.Module, Generic[V, C]):
    """A bidirectional transformer that predicts the token behind every position.

    Arguments:
        config: sizes and regularisation (see `DiffusionConfig`).
        vocab_size: the tokenizer's vocabulary `V` (as config.vocab_size); MASK is id `V`.
        n_embd: the width `C` (as config.n_embd).

    `model(idx)` takes token ids `idx: Tensor[B, T]` (int64, MASK allowed, `T <= block_size`)
    and returns logits `Tensor[B, T, V]` over the tokenizer's ids.
    """

    def __init__(self, config: DiffusionConfig, vocab_size: Dim[V], n_embd: Dim[C]) -> None:
        super().__init__()
        check_sizes(config, vocab_size, n_embd)
        self.config = config
        self.mask_id = vocab_size
        self.wte = nn.Embedding(vocab_size + 1, n_embd)  # the tokenizer's ids and MASK
        self.drop = nn.Dropout(config.dropout)
        self.blocks = nn.ModuleList(
            [
                Block(n_embd, config.n_head, config.block_size, config.dropout, config.bias, config.activation,
                      config.qk_norm, config.qk_gain)  # fmt: skip
                for _ in range(config.n_layer)
            ]
        )
        self.ln_f = nn.LayerNorm(n_embd, bias=config.bias)
        self.lm_head = None if config.tie_embeddings else nn.Linear(n_embd, vocab_size, bias=False)
        for name, param in self.named_parameters():
            if param.dim() == 2:
                std = 0.02 / math.sqrt(2 * config.n_layer) if name.endswith("c_proj.weight") else 0.02
                nn.init.normal_(param, mean=0.0, std=std)

    @classmethod
    def from_config(cls, config: DiffusionConfig) -> MaskedDiffusionLM[Any, Any]:
        """Build from a config alone (the sizes come from it)."""
        return MaskedDiffusionLM(config, config.vocab_size, config.n_embd)  # named, not cls: see GPT.from_config

    def forward(self, idx: Annotated[Tensor[B, T], Integer]) -> Tensor[B, T, V]:
        t = idx.size(1)
        if t > self.config.block_size:
            raise ValueError(f"Cannot forward sequence of length {t}, block size is only {self.config.block_size}")
        x = self.drop(self.wte(idx))
        for block in self.blocks:
            x = block(x)
        x = self.ln_f(x)
        if self.lm_head is None:
            tied: Tensor[B, T, V] = F.linear(x, self.wte.weight[: self.mask_id])
            return tied
        logits: Tensor[B, T, V] = self.lm_head(x)
        return logits


def masking_rates(batch: int, generator: torch.Generator | None = None, device: torch.device | None = None) -> Tensor:
    """`batch` masking rates in (0, 1], low-discrepancy: one uniform offset, then evenly spaced.

    Rate i is ``1 - ((u + i / batch) mod 1)`` for one ``u ~ U[0, 1)``: each rate is uniform,
    and together they cover (0, 1] evenly (antithetic sampling), which makes the batch's
    NELBO estimate far less noisy than independent draws.
    """
    u = torch.rand((), generator=generator, device=device)
    return 1 - torch.remainder(u + torch.arange(batch, device=device) / batch, 1.0)


def nelbo(
    model: nn.Module,
    x: Annotated[Tensor[B, T], Integer],
    *,
    mask_id: int,
    generator: torch.Generator | None = None,
    estimator: Estimator = "count",
    skew: float = 0.0,
) -> Annotated[Tensor[B], Float]:
    """An unbiased estimate of each sequence's NELBO in nats: `nelbo_terms` summed over the positions."""
    per_sequence: Tensor[B] = nelbo_terms(model, x, mask_id=mask_id, generator=generator, estimator=estimator,
                                          skew=skew).sum(dim=1)  # fmt: skip
    return per_sequence


def nelbo_terms(
    model: nn.Module,
    x: Annotated[Tensor[B, T], Integer],
    *,
    mask_id: int,
    generator: torch.Generator | None = None,
    estimator: Estimator = "count",
    skew: float = 0.0,
) -> Annotated[Tensor[B, T], Float]:
    """An unbiased estimate of each sequence's NELBO in nats, position by position (its sum is `nelbo`).

    Arguments:
        model: maps ids `Tensor[B, T]` (MASK = `mask_id`) to logits `Tensor[B, T, V]`.
        x: the clean sequences, `Tensor[B, T]` int64.
        mask_id: the MASK id.
        generator: the randomness (masking rates and positions); default torch's.
        estimator: how rate t becomes a mask, both exact in expectation:
            ``"count"`` (default) masks exactly k = ceil(t T) positions and weights the
            cross-entropy by T / k; k is then uniform on 1..T, the ELBO's sum over k
            term by term, with no noise from how many tokens happen to be masked.
            ``"rate"`` masks each position with probability t and weights by 1 / t, the
            textbook continuous-time form (noisier: few masks at small t weigh 1 / t).
        skew: with ``"count"``, draw k with probability proportional to k ** -skew instead
            of uniformly, and weight by 1 / (k q(k)) so the estimate stays unbiased; 1
            gives every masked token the same weight. Default 0 (uniform).

    Returns `Tensor[B, T]`: weight * cross-entropy at masked positions, 0 elsewhere. Position
    i's term estimates what token i adds to the bound, so the terms of some positions (BOS)
    can be left out of a sum.
    """
    b, t = x.size()
    rates = masking_rates(b, generator, x.device)
    noise = torch.rand(b, t, generator=generator, device=x.device)
    if estimator == "count":
        ks = torch.arange(1, t + 1, device=x.device, dtype=torch.float32)
        proposal = ks**-skew / (ks**-skew).sum()  # q(k); uniform for skew 0
        index = torch.searchsorted(proposal.cumsum(0), 1 - rates).clamp(max=t - 1)  # inverse CDF of the rates
        counts = ks[index]  # masked positions per sequence
        ranks = noise.argsort(dim=1).argsort(dim=1)  # a random order of the positions
        masked = ranks < counts[:, None]
        weights = 1 / (counts * proposal[index])
    else:
        rates = rates.clamp_min(1e-3)  # 1/t explodes at 0; the bias is below 1e-3 of the total
        masked = noise < rates[:, None]
        weights = 1 / rates
    logits = model(torch.where(masked, mask_id, x))
    losses = F.cross_entropy(logits.transpose(1, 2), x, reduction="none")  # (b, t)
    terms: Tensor[B, T] = losses * masked * weights[:, None]
    return terms


@torch.no_grad()
def sample(
    model: nn.Module,
    prompt: Annotated[Tensor[B, T], Integer],
    *,
    mask_id: int,
    steps: int,
    order: Order = "confidence",
    temperature: float = 1.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
) -> Annotated[Tensor[B, T], Integer]:
    """Fill in every MASK of `prompt` in `steps` rounds; returns ids without any MASK.

    Arguments:
        model: maps ids `Tensor[B, T]` to logits `Tensor[B, T, V]` (V excludes MASK).
        prompt: `Tensor[B, T]` int64, MASK (`mask_id`) where text is to be written, e.g. all MASK.
        steps: unmasking rounds, at least 1; each reveals an equal share of the masked positions
            (the reverse of the linear schedule, run from t = 1 to 0 in equal steps).
        order: which masked positions a round reveals: ``"random"`` (the reverse process as
            trained) or ``"confidence"`` (default: those whose drawn token has the highest
            probability, so the easiest are written first and condition the rest).
        temperature, top_k: how each token is drawn from the model's distribution.
        generator: the randomness; default torch's.
    """
    if steps < 1:
        raise ValueError(f"steps must be at least 1, got {steps}")
    x = prompt.clone()
    hidden = x == mask_id
    total = hidden.sum(dim=1)  # masked positions per row at the start
    for step in range(steps):
        logits = model(x).float() / temperature
        if top_k is not None:
            kth = torch.topk(logits, min(top_k, logits.size(-1))).values[..., -1:]
            logits = logits.masked_fill(logits < kth, float("-inf"))
        probs = F.softmax(logits, dim=-1)
        drawn = torch.multinomial(probs.flatten(0, 1), 1, generator=generator).view_as(x)
        # reveal so that after this round `total * (steps - step - 1) / steps` stay hidden
        keep_hidden = torch.div(total * (steps - step - 1), steps, rounding_mode="floor")
        reveal = hidden.sum(dim=1) - keep_hidden
        if order == "confidence":
            score = probs.gather(-1, drawn[..., None])[..., 0]
        else:
            score = torch.rand(x.shape, generator=generator, device=x.device)
        score = score.masked_fill(~hidden, -1.0)  # only hidden positions compete
        ranks = score.argsort(dim=1, descending=True).argsort(dim=1)
        chosen = hidden & (ranks < reveal[:, None])
        x = torch.where(chosen, drawn, x)
        hidden = hidden & ~chosen
    return x
