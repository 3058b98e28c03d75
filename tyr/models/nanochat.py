"""NanoChat: the GPT that nanochat and modded-nanogpt share, with its shapes as annotations.

What sets it apart from nanoGPT's GPT (`tyr.models.gpt`):

* rotary positions (no position table) and QK-norm: queries and keys are RMS-normalised
  per head, without a gain, before attention;
* grouped-query attention: `n_kv_head` key/value heads shared by `n_head` query heads;
* a ReLU² MLP, no biases anywhere, RMSNorm without gains (after the embedding, before
  each sub-block and before the head);
* an input embedding and an output head that are separate matrices (untied);
* per-layer scalars: before layer i the residual stream is ``resid_lambdas[i] * x +
  x0_lambdas[i] * x0``, x0 being the normalised embedding (modded-nanogpt's skip to x0);
* output projections initialised to zero, so every block starts as the identity;
* soft-capped logits, ``cap * tanh(logits / cap)``;
* a KV cache for generation (`KVCache`), which gives the same tokens as recomputing
  the whole context at each step (`generate(..., use_cache=False)`).

Sizes come from one knob, `depth`, as nanochat derives them (`NanoChatConfig`).
Shapes: `B` batch, `T` time, `C` width, `V` vocabulary, `H` query heads, `KV`
key/value heads, `Hd` head size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Annotated, Any, Generic, TypeVar, TypeVarTuple

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Integer, Tensor, checked
from tyr.models._common import check_sizes
from tyr.models.gpt import MLP
from tyr.models.rotary import Rotary
from tyr.models.sampling import next_token

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
V = TypeVar("V")
H = TypeVar("H")
KV = TypeVar("KV")
Hd = TypeVar("Hd")
D = TypeVar("D")
Lead = TypeVarTuple("Lead")

ROTARY_SPAN = 10
"""The rotary tables cover this many times the training context, so that generation can
run past it (as nanochat does); the model was trained on `sequence_len` positions only."""


@dataclass(frozen=True, kw_only=True)
class NanoChatConfig:
    """A NanoChat model's sizes, derived from `depth`; checked on construction.

    Derived (as nanochat's `base_train` does):
        n_layer = depth
        n_embd = depth * aspect_ratio, rounded up to a multiple of head_dim
        n_head = n_embd / head_dim
        n_kv_head = the given count, or n_head when 0; it must divide n_head

    `describe()` says what was derived and why; `num_params()` and `flops_per_token()`
    need no model, so a large configuration can be sized on any machine.
    """

    vocab_size: int
    depth: int = 20
    aspect_ratio: int = 64  # width per layer of depth
    head_dim: int = 128  # even: rotary turns pairs of channels
    n_kv_head: int = 0  # key/value heads (grouped-query attention); 0: one per query head
    sequence_len: int = 2048  # the training context
    softcap: float = 15.0  # logits are squashed into (-softcap, softcap)
    rotary_base: float = 10_000.0
    n_layer: int = field(init=False)
    n_embd: int = field(init=False)
    n_head: int = field(init=False)

    def __post_init__(self) -> None:
        for name in ("vocab_size", "depth", "aspect_ratio", "head_dim", "sequence_len"):
            if getattr(self, name) < 1:
                raise ValueError(f"NanoChatConfig: {name} must be at least 1, got {getattr(self, name)}")
        if self.head_dim % 2:
            raise ValueError(f"NanoChatConfig: head_dim must be even (rotary turns pairs), got {self.head_dim}")
        if self.softcap <= 0 or self.rotary_base <= 1:
            raise ValueError(f"NanoChatConfig: need softcap > 0 and rotary_base > 1, got {self.softcap}, "
                             f"{self.rotary_base}")  # fmt: skip
        n_embd = -(-self.depth * self.aspect_ratio // self.head_dim) * self.head_dim
        n_head = n_embd // self.head_dim
        n_kv_head = self.n_kv_head or n_head
        if n_kv_head < 0 or n_kv_head > n_head or n_head % n_kv_head:
            raise ValueError(
                f"NanoChatConfig: n_kv_head must divide the {n_head} query heads (depth {self.depth} x aspect_ratio "
                f"{self.aspect_ratio} = width {n_embd} = {n_head} heads of {self.head_dim}), got n_kv_head "
                f"{self.n_kv_head}: {n_head} % {n_kv_head} = {n_head % n_kv_head if n_kv_head > 0 else 'undefined'}"
            )
        for name, value in (("n_layer", self.depth), ("n_embd", n_embd), ("n_head", n_head), ("n_kv_head", n_kv_head)):
            object.__setattr__(self, name, value)  # frozen: derived once, here

    @property
    def rotary_len(self) -> int:
        """Positions the rotary tables cover (`ROTARY_SPAN` contexts): the longest generation."""
        return ROTARY_SPAN * self.sequence_len

    def derivation(self) -> str:
        """How the sizes follow from `depth`, in words."""
        width = self.depth * self.aspect_ratio
        rounded = f" rounded up to {self.n_embd}" if width != self.n_embd else ""
        return (
            f"depth {self.depth}: {self.n_layer} layers, width {self.depth} x {self.aspect_ratio} = {width}{rounded}, "
            f"{self.n_head} heads of {self.head_dim} and {self.n_kv_head} key/value heads "
            f"({self.n_head // self.n_kv_head} query heads each), MLP {4 * self.n_embd}"
        )

    def describe(self) -> str:
        """What was derived from what, and what it costs, in one line."""
        return (
            f"{self.derivation()}, context {self.sequence_len}, vocabulary {self.vocab_size:,}: "
            f"{self.num_params():,} parameters, {self.flops_per_token():.3g} training FLOPs per token"
        )

    def num_params(self) -> int:
        """Every parameter: embedding, head, the layers' matrices and their two scalars."""
        return 2 * self.vocab_size * self.n_embd + self.n_layer * (self._layer_matrices() + 2)

    def flops_per_token(self) -> int:
        """Training FLOPs per token (forward and backward), nanochat's estimate.

        6 per weight of every matrix product (the head included, the embedding lookup not)
        plus 12 * n_head * head_dim * sequence_len per layer for the attention scores and
        their weighted sum (PaLM's count, a causal mask not discounted).
        """
        matmul = self.n_layer * self._layer_matrices() + self.vocab_size * self.n_embd
        return 6 * matmul + 12 * self.n_layer * self.n_head * self.head_dim * self.sequence_len

    def _layer_matrices(self) -> int:
        c, kv = self.n_embd, self.n_kv_head * self.head_dim
        return 2 * c * c + 2 * c * kv + 8 * c * c  # q and proj, k and v, MLP in and out


def norm(x: Tensor[*Lead, D]) -> Tensor[*Lead, D]:
    """RMSNorm without a gain: each vector divided by its root mean square."""
    return F.rms_norm(x, (x.size(-1),))


@checked
class KVCache(Generic[KV, Hd]):
    """The keys and values every layer has computed, for `batch` rows of up to `max_len` positions.

    Arguments:
        n_layer, batch: layers and rows.
        n_kv_head: the key/value heads `KV`; head_dim: the head size `Hd`.
        max_len: positions it can hold (prompt and generated tokens together).

    `length` positions are filled; the model calls `advance(t)` once all its layers have
    stored the `t` positions of a forward.
    """

    def __init__(
        self,
        n_layer: int,
        batch: int,
        n_kv_head: Dim[KV],
        head_dim: Dim[Hd],
        max_len: int,
        device: torch.device | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        self.keys = torch.zeros(n_layer, batch, n_kv_head, max_len, head_dim, device=device, dtype=dtype)
        self.values = torch.zeros(n_layer, batch, n_kv_head, max_len, head_dim, device=device, dtype=dtype)
        self.max_len = max_len
        self.length = 0

    def store(
        self, layer: int, k: Tensor[B, KV, T, Hd], v: Tensor[B, KV, T, Hd]
    ) -> tuple[Tensor[B, KV, Any, Hd], Tensor[B, KV, Any, Hd]]:
        """Write this forward's keys and values of `layer`; returns all the layer's so far."""
        end = self.length + k.size(2)
        if end > self.max_len:
            raise ValueError(f"the KV cache holds {self.max_len} positions, {end} were asked for")
        self.keys[layer, :, :, self.length : end] = k
        self.values[layer, :, :, self.length : end] = v
        keys: Tensor[B, KV, Any, Hd] = self.keys[layer, :, :, :end]
        values: Tensor[B, KV, Any, Hd] = self.values[layer, :, :, :end]
        return keys, values

    def advance(self, t: int) -> None:
        self.length += t


@checked
class Attention(nn.Module, Generic[C, H, KV, Hd]):
    """Causal self-attention with rotary positions, QK-norm and grouped key/value heads."""

    def __init__(
        self, layer: int, n_embd: Dim[C], n_head: Dim[H], n_kv_head: Dim[KV], head_dim: Dim[Hd], rotary: Rotary[Hd]
    ) -> None:
        super().__init__()
        self.layer = layer
        self.n_head, self.n_kv_head, self.head_dim = n_head, n_kv_head, head_dim
        self.c_q = nn.Linear(n_embd, n_head * head_dim, bias=False)
        self.c_k = nn.Linear(n_embd, n_kv_head * head_dim, bias=False)
        self.c_v = nn.Linear(n_embd, n_kv_head * head_dim, bias=False)
        self.c_proj = nn.Linear(n_head * head_dim, n_embd, bias=False)
        self.rotary = rotary  # one table, shared by every layer

    def forward(self, x: Tensor[B, T, C], cache: KVCache[KV, Hd] | None = None) -> Tensor[B, T, C]:
        b, t, _ = x.size()
        h, kv, hd = self.n_head, self.n_kv_head, self.head_dim
        start = 0 if cache is None else cache.length
        q = self.c_q(x).view(b, t, h, hd).transpose(1, 2)  # (b, h, t, hd)
        k = self.c_k(x).view(b, t, kv, hd).transpose(1, 2)  # (b, kv, t, hd)
        v = self.c_v(x).view(b, t, kv, hd).transpose(1, 2)
        q, k = self.rotary(norm(q), start), self.rotary(norm(k), start)  # QK-norm (a rotation keeps the norm)
        gqa = h != kv
        if cache is None:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=gqa)
        else:
            keys, values = cache.store(self.layer, k, v)
            # query i (position start + i) sees keys 0 .. start + i
            visible = torch.ones(t, start + t, dtype=torch.bool, device=x.device).tril(diagonal=start)
            y = F.scaled_dot_product_attention(q, keys, values, attn_mask=visible, enable_gqa=gqa)
        out: Tensor[B, T, C] = self.c_proj(y.transpose(1, 2).reshape(b, t, h * hd))
        return out


@checked
class Block(nn.Module, Generic[C, H, KV, Hd]):
    def __init__(
        self, layer: int, n_embd: Dim[C], n_head: Dim[H], n_kv_head: Dim[KV], head_dim: Dim[Hd], rotary: Rotary[Hd]
    ) -> None:
        super().__init__()
        self.attn = Attention(layer, n_embd, n_head, n_kv_head, head_dim, rotary)
        self.mlp = MLP(n_embd, dropout=0.0, bias=False, activation="relu2")  # nanoGPT's, with ReLU²

    def forward(self, x: Tensor[B, T, C], cache: KVCache[KV, Hd] | None = None) -> Tensor[B, T, C]:
        x = x + self.attn(norm(x), cache)
        x = x + self.mlp(norm(x))
        return x


@checked
class NanoChat(nn.Module, Generic[V, C]):
    """The NanoChat language model.

    Arguments:
        config: the sizes (see `NanoChatConfig`).
        vocab_size: the vocabulary `V` (as config.vocab_size; a `Dim` so that shapes can use it).
        n_embd: the width `C` (as config.n_embd).

    `model(idx)` takes token ids `idx: Tensor[B, T]` (int64) and returns soft-capped logits
    `Tensor[B, T, V]` in float32. With a `cache` (`new_cache`), `idx` continues the
    positions the cache holds. `nats(idx, targets)` is the cross-entropy of every position,
    `Tensor[B, T]`.
    """

    def __init__(self, config: NanoChatConfig, vocab_size: Dim[V], n_embd: Dim[C]) -> None:
        super().__init__()
        check_sizes(config, vocab_size, n_embd)
        self.config = config
        head_dim = config.head_dim
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.rotary = Rotary(head_dim, config.rotary_len, config.rotary_base)
        self.blocks = nn.ModuleList(
            [Block(i, n_embd, config.n_head, config.n_kv_head, head_dim, self.rotary) for i in range(config.n_layer)]
        )
        self.resid_lambdas = nn.Parameter(torch.ones(config.n_layer))  # weight of the residual stream per layer
        self.x0_lambdas = nn.Parameter(torch.zeros(config.n_layer))  # weight of the embedding mixed back in
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)  # not tied to wte
        self.init_weights()

    @torch.no_grad()
    def init_weights(self) -> None:
        """nanochat's initialisation.

        Embedding N(0, 1); head N(0, 0.001); the query, key, value and MLP-in matrices
        uniform with standard deviation 1/sqrt(n_embd) (uniform has no outliers); the
        attention and MLP output projections zero, so each block starts as the identity
        and the logits start near zero; residual scalars 1, x0 scalars 0.
        """
        nn.init.normal_(self.wte.weight, std=1.0)
        nn.init.normal_(self.lm_head.weight, std=0.001)
        bound = math.sqrt(3 / self.config.n_embd)
        for name, param in self.blocks.named_parameters():
            if name.endswith("c_proj.weight"):
                nn.init.zeros_(param)
            else:
                nn.init.uniform_(param, -bound, bound)
        nn.init.ones_(self.resid_lambdas)
        nn.init.zeros_(self.x0_lambdas)

    @classmethod
    def from_config(cls, config: NanoChatConfig) -> NanoChat[Any, Any]:
        """Build from a config alone (the sizes come from it)."""
        # Named, not `cls(...)`: mypy applies no plugin signature hook to a call through `cls`.
        return NanoChat(config, config.vocab_size, config.n_embd)

    def forward(
        self, idx: Annotated[Tensor[B, T], Integer], cache: KVCache[Any, Any] | None = None
    ) -> Tensor[B, T, V]:
        t = idx.size(1)
        if cache is None and t > self.config.sequence_len:
            raise ValueError(
                f"Cannot forward sequence of length {t}, the context is {self.config.sequence_len} "
                "(generate() reads longer ones through a KV cache)"
            )
        x = x0 = norm(self.wte(idx))
        for layer, block in enumerate(self.blocks):
            x = self.resid_lambdas[layer] * x + self.x0_lambdas[layer] * x0
            x = block(x, cache)
        if cache is not None:
            cache.advance(t)
        logits = self.lm_head(norm(x)).float()
        cap = self.config.softcap
        capped: Tensor[B, T, V] = cap * torch.tanh(logits / cap)
        return capped

    def nats(
        self, idx: Annotated[Tensor[B, T], Integer], targets: Annotated[Tensor[B, T], Integer]
    ) -> Tensor[B, T]:
        """The cross-entropy, in nats, of each target given the ids up to it."""
        b, t = idx.size()
        losses = F.cross_entropy(self(idx).flatten(0, 1), targets.flatten(), reduction="none")
        return losses.view(b, t)

    def new_cache(self, batch: int, max_len: int) -> KVCache[Any, Any]:
        """An empty KV cache for `batch` rows of up to `max_len` positions, on the model's device."""
        config, weight = self.config, self.lm_head.weight
        return KVCache(config.n_layer, batch, config.n_kv_head, config.head_dim, max_len, weight.device, weight.dtype)

    @torch.no_grad()
    def generate(
        self,
        idx: Annotated[Tensor[B, T], Integer],
        max_new_tokens: int,
        temperature: float = 1.0,
        top_k: int | None = None,
        generator: torch.Generator | None = None,
        use_cache: bool = True,
    ) -> Tensor:
        """`idx` followed by `max_new_tokens` drawn tokens: `Tensor[B, T + max_new_tokens]`.

        Each token is drawn by `tyr.models.sampling.next_token` (temperature 0: greedy).
        With `use_cache` (default) the prompt is read once and each new token alone
        after it, its keys and values appended to a `KVCache`; without, the whole
        sequence is read again for every token (`T + max_new_tokens` must then fit in
        the context). Both give the same tokens.
        """
        cache = self.new_cache(idx.size(0), idx.size(1) + max_new_tokens) if use_cache else None
        unread = idx  # what the model has not read yet: all of it without a cache
        for _ in range(max_new_tokens):
            logits = self(unread, cache)
            token = next_token(logits[:, -1], temperature, top_k, generator)
            idx = torch.cat((idx, token), dim=1)
            unread = token if cache is not None else idx
        return idx

