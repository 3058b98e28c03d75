"""A transformer written the way TransformerLens-style code writes jaxtyping: `batch pos d_model`, heads, einops.

Written for this corpus against that public style (embeddings, attention with an
explicit causal mask, an MLP, the residual stream, a loss over token ids); it must
check with no error.
"""

from dataclasses import dataclass
from typing import Optional

import einops
import torch
import torch.nn.functional as F
from beartype import beartype
from jaxtyping import Bool, Float, Int, jaxtyped
from torch import Tensor, nn


@dataclass
class Config:
    d_model: int = 32
    n_heads: int = 4
    d_head: int = 8
    d_mlp: int = 64
    d_vocab: int = 50
    n_ctx: int = 16
    n_layers: int = 2


class Embed(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.W_E = nn.Parameter(torch.randn(cfg.d_vocab, cfg.d_model) * 0.02)

    @jaxtyped(typechecker=beartype)
    def forward(self, tokens: Int[Tensor, "batch pos"]) -> Float[Tensor, "batch pos d_model"]:
        return self.W_E[tokens, :]


class PosEmbed(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.W_pos = nn.Parameter(torch.randn(cfg.n_ctx, cfg.d_model) * 0.02)

    @jaxtyped(typechecker=beartype)
    def forward(self, tokens: Int[Tensor, "batch pos"]) -> Float[Tensor, "batch pos d_model"]:
        batch, pos = tokens.shape
        return einops.repeat(self.W_pos[:pos], "pos d_model -> batch pos d_model", batch=batch)


class Attention(nn.Module):
    IGNORE: Float[Tensor, ""]

    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.cfg = cfg
        self.W_Q = nn.Parameter(torch.randn(cfg.n_heads, cfg.d_model, cfg.d_head) * 0.02)
        self.W_K = nn.Parameter(torch.randn(cfg.n_heads, cfg.d_model, cfg.d_head) * 0.02)
        self.W_V = nn.Parameter(torch.randn(cfg.n_heads, cfg.d_model, cfg.d_head) * 0.02)
        self.W_O = nn.Parameter(torch.randn(cfg.n_heads, cfg.d_head, cfg.d_model) * 0.02)
        self.register_buffer("IGNORE", torch.tensor(-1e5))

    @jaxtyped(typechecker=beartype)
    def apply_causal_mask(
        self, attn_scores: Float[Tensor, "batch n_heads query_pos key_pos"]
    ) -> Float[Tensor, "batch n_heads query_pos key_pos"]:
        ones = torch.ones(attn_scores.size(-2), attn_scores.size(-1), device=attn_scores.device)
        mask: Bool[Tensor, "query_pos key_pos"] = torch.triu(ones, diagonal=1).bool()
        return attn_scores.masked_fill(mask, self.IGNORE.item())

    @jaxtyped(typechecker=beartype)
    def forward(self, normalized_resid_pre: Float[Tensor, "batch pos d_model"]) -> Float[Tensor, "batch pos d_model"]:
        q = einops.einsum(normalized_resid_pre, self.W_Q, "batch pos d_model, n_heads d_model d_head -> batch pos n_heads d_head")
        k = einops.einsum(normalized_resid_pre, self.W_K, "batch pos d_model, n_heads d_model d_head -> batch pos n_heads d_head")
        v = einops.einsum(normalized_resid_pre, self.W_V, "batch pos d_model, n_heads d_model d_head -> batch pos n_heads d_head")
        attn_scores = einops.einsum(q, k, "batch query_pos n_heads d_head, batch key_pos n_heads d_head -> batch n_heads query_pos key_pos")
        attn_scores = self.apply_causal_mask(attn_scores / self.cfg.d_head**0.5)
        pattern = attn_scores.softmax(dim=-1)
        z = einops.einsum(v, pattern, "batch key_pos n_heads d_head, batch n_heads query_pos key_pos -> batch query_pos n_heads d_head")
        return einops.einsum(z, self.W_O, "batch query_pos n_heads d_head, n_heads d_head d_model -> batch query_pos d_model")


class MLP(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.W_in = nn.Parameter(torch.randn(cfg.d_model, cfg.d_mlp) * 0.02)
        self.W_out = nn.Parameter(torch.randn(cfg.d_mlp, cfg.d_model) * 0.02)

    @jaxtyped(typechecker=beartype)
    def forward(self, normalized_resid_mid: Float[Tensor, "batch pos d_model"]) -> Float[Tensor, "batch pos d_model"]:
        pre = einops.einsum(normalized_resid_mid, self.W_in, "batch pos d_model, d_model d_mlp -> batch pos d_mlp")
        post = F.gelu(pre)
        return einops.einsum(post, self.W_out, "batch pos d_mlp, d_mlp d_model -> batch pos d_model")


class TransformerBlock(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.mlp = MLP(cfg)

    @jaxtyped(typechecker=beartype)
    def forward(self, resid_pre: Float[Tensor, "batch pos d_model"]) -> Float[Tensor, "batch pos d_model"]:
        resid_mid = self.attn(self.ln1(resid_pre)) + resid_pre
        return self.mlp(self.ln2(resid_mid)) + resid_mid


class Transformer(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.embed = Embed(cfg)
        self.pos_embed = PosEmbed(cfg)
        self.blocks = nn.ModuleList([TransformerBlock(cfg) for _ in range(cfg.n_layers)])
        self.ln_final = nn.LayerNorm(cfg.d_model)
        self.W_U = nn.Parameter(torch.randn(cfg.d_model, cfg.d_vocab) * 0.02)

    @jaxtyped(typechecker=beartype)
    def forward(self, tokens: Int[Tensor, "batch pos"]) -> Float[Tensor, "batch pos d_vocab"]:
        residual = self.embed(tokens) + self.pos_embed(tokens)
        for block in self.blocks:
            residual = block(residual)
        return torch.matmul(self.ln_final(residual), self.W_U)


@jaxtyped(typechecker=beartype)
def lm_cross_entropy_loss(
    logits: Float[Tensor, "batch pos d_vocab"], tokens: Int[Tensor, "batch pos"], mask: Optional[Bool[Tensor, "batch pos"]] = None
) -> Float[Tensor, ""]:
    log_probs = logits.log_softmax(dim=-1)
    predicted: Float[Tensor, "batch pos-1"] = log_probs[:, :-1].gather(dim=-1, index=tokens[:, 1:].unsqueeze(-1)).squeeze(-1)
    if mask is not None:
        predicted = predicted * mask[:, 1:]
    return -predicted.mean()


@jaxtyped(typechecker=beartype)
def sample_next(logits: Float[Tensor, "batch d_vocab"], k: int) -> Int[Tensor, "batch"]:
    top_values, top_indices = logits.topk(k, dim=-1)
    choice = torch.multinomial(top_values.softmax(dim=-1), num_samples=1)
    return top_indices.gather(-1, choice).squeeze(-1)


cfg = Config()
model = Transformer(cfg)
tokens = torch.randint(0, cfg.d_vocab, (2, 10))
logits = model(tokens)
loss = lm_cross_entropy_loss(logits, tokens, torch.ones(2, 10, dtype=torch.bool))
next_tokens = sample_next(logits[:, -1], 5)
