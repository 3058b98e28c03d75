"""A BLIP-2 Q-Former, written the way salesforce/LAVIS + HF's BERT write it (scaled down): learned query
tokens expanded over the batch, self-attention over [queries; text] (HF `transpose_for_scores` with
`x.size()[:-1] + (heads, head_size)`), cross-attention from the queries only into frozen image
features of another width (every `cross_attention_freq` layers), padding masks built from lengths
(`arange(n) < lengths[:, None]`) and applied with `masked_fill(-inf)`, separate FFNs for queries and
text, masked-mean pooling, and the ITC similarity `matmul(image_feats.unsqueeze(1), text_feat.unsqueeze(-1))`.
Plus open_clip's AttentionalPooler: nn.MultiheadAttention(kdim=, vdim=) with a key_padding_mask.
"""

from __future__ import annotations

import math
from typing import Any, Generic, Optional, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
Q = TypeVar("Q")  # query tokens
T = TypeVar("T")  # text tokens
L = TypeVar("L")  # sequence length in attention (queries, or queries + text)
M = TypeVar("M")  # image patches
D = TypeVar("D")  # Q-Former width
E = TypeVar("E")  # frozen encoder width
P = TypeVar("P")  # projection width
V = TypeVar("V")  # vocabulary
Pd = TypeVar("Pd")  # raw patch feature size


def lengths_to_mask(lengths: Tensor[B], max_len: Dim[T]) -> Tensor[B, T]:
    """True where the position holds a token, False on padding."""
    return torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]


def masked_mean(x: Tensor[B, T, D], mask: Tensor[B, T]) -> Tensor[B, D]:
    m = mask.unsqueeze(-1).to(x.dtype)
    return (x * m).sum(dim=1) / m.sum(dim=1).clamp(min=1.0)


@checked
class BertAttention(nn.Module, Generic[D, E]):
    """BertSelfAttention + BertSelfOutput; `is_cross_attention` keys/values come from width E."""

    def __init__(self, hidden_size: Dim[D], kv_width: Dim[E], num_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.num_attention_heads = num_heads
        self.attention_head_size = hidden_size // num_heads
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(hidden_size, self.all_head_size)
        self.key = nn.Linear(kv_width, self.all_head_size)
        self.value = nn.Linear(kv_width, self.all_head_size)
        self.dropout = nn.Dropout(dropout)
        self.dense = nn.Linear(hidden_size, hidden_size)
        self.LayerNorm = nn.LayerNorm(hidden_size, eps=1e-12)

    def transpose_for_scores(self, x: Tensor[B, L, D]) -> Tensor[B, Any, L, Any]:
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(*new_x_shape)
        return x.permute(0, 2, 1, 3)

    def forward(
        self, hidden_states: Tensor[B, L, D], kv_states: Tensor[B, M, E], kv_mask: Optional[Tensor[B, M]] = None
    ) -> Tensor[B, L, D]:
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(kv_states))
        value_layer = self.transpose_for_scores(self.value(kv_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        if kv_mask is not None:
            attention_scores = attention_scores.masked_fill(~kv_mask[:, None, None, :], float("-inf"))
        attention_probs = self.dropout(nn.Softmax(dim=-1)(attention_scores))
        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        new_context_layer_shape = context_layer.size()[:-2] + (self.all_head_size,)
        context_layer = context_layer.view(*new_context_layer_shape)
        return self.LayerNorm(self.dense(context_layer) + hidden_states)


@checked
class FeedForward(nn.Module, Generic[D]):
    def __init__(self, hidden_size: Dim[D], intermediate_size: int) -> None:
        super().__init__()
        self.dense_in = nn.Linear(hidden_size, intermediate_size)
        self.dense_out = nn.Linear(intermediate_size, hidden_size)
        self.LayerNorm = nn.LayerNorm(hidden_size, eps=1e-12)

    def forward(self, x: Tensor[B, L, D]) -> Tensor[B, L, D]:
        return self.LayerNorm(self.dense_out(F.gelu(self.dense_in(x))) + x)


@checked
class QFormerLayer(nn.Module, Generic[D, E]):
    def __init__(self, hidden_size: Dim[D], encoder_width: Dim[E], num_heads: int, has_cross_attention: bool) -> None:
        super().__init__()
        self.attention = BertAttention(hidden_size, hidden_size, num_heads)
        self.has_cross_attention = has_cross_attention
        if has_cross_attention:
            self.crossattention = BertAttention(hidden_size, encoder_width, num_heads)
        self.intermediate_query = FeedForward(hidden_size, 4 * hidden_size)
        self.intermediate = FeedForward(hidden_size, 4 * hidden_size)

    def forward(
        self,
        hidden_states: Tensor[B, L, D],
        attention_mask: Tensor[B, L],
        encoder_hidden_states: Tensor[B, M, E],
        encoder_attention_mask: Tensor[B, M],
        query_length: int,
    ) -> Tensor[B, L, D]:
        attention_output = self.attention(hidden_states, hidden_states, attention_mask)
        query_attention_output = attention_output[:, :query_length, :]
        if self.has_cross_attention:
            query_attention_output = self.crossattention(
                query_attention_output, encoder_hidden_states, encoder_attention_mask
            )
        layer_output = self.intermediate_query(query_attention_output)
        if attention_output.shape[1] > query_length:
            layer_output_text = self.intermediate(attention_output[:, query_length:, :])
            layer_output = torch.cat([layer_output, layer_output_text], dim=1)
        return layer_output


@checked
class QFormer(nn.Module, Generic[Q, D, E, V]):
    def __init__(
        self,
        num_query_token: Dim[Q],
        hidden_size: Dim[D],
        encoder_width: Dim[E],
        vocab_size: Dim[V],
        num_layers: int = 2,
        num_heads: int = 4,
        cross_attention_freq: int = 2,
        max_text_len: int = 32,
    ) -> None:
        super().__init__()
        self.query_tokens = nn.Parameter(torch.zeros(1, num_query_token, hidden_size))
        self.query_tokens.data.normal_(mean=0.0, std=0.02)
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.position_embeddings = nn.Embedding(max_text_len, hidden_size)
        self.embed_norm = nn.LayerNorm(hidden_size, eps=1e-12)
        self.layer = nn.ModuleList(
            [
                QFormerLayer(hidden_size, encoder_width, num_heads, has_cross_attention=(i % cross_attention_freq == 0))
                for i in range(num_layers)
            ]
        )

    def forward(
        self,
        image_embeds: Tensor[B, M, E],
        image_lengths: Tensor[B],
        input_ids: Tensor[B, T],
        text_lengths: Tensor[B],
    ) -> tuple[Tensor[B, Q, D], Tensor[B, T, D]]:
        bsz, num_patches, _ = image_embeds.shape
        seq_len = input_ids.shape[1]
        image_atts = lengths_to_mask(image_lengths, num_patches)
        text_atts = lengths_to_mask(text_lengths, seq_len)
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        position_ids = torch.arange(seq_len, device=input_ids.device)
        text_embeds = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)[None]
        hidden = self.embed_norm(torch.cat([query_tokens, text_embeds], dim=1))
        query_atts = torch.ones(query_tokens.size()[:-1], dtype=torch.bool, device=image_embeds.device)
        attention_mask = torch.cat([query_atts, text_atts], dim=1)
        query_length = query_tokens.shape[1]
        for layer_module in self.layer:
            hidden = layer_module(hidden, attention_mask, image_embeds, image_atts, query_length)
        return hidden[:, :query_length, :], hidden[:, query_length:, :]


@checked
class AttentionalPooler(nn.Module, Generic[D, E, Q]):
    """open_clip's AttentionalPooler: learned queries cross-attend into a context of width E."""

    def __init__(self, d_model: Dim[D], context_dim: Dim[E], n_head: int, n_queries: Dim[Q]) -> None:
        super().__init__()
        self.query = nn.Parameter(torch.randn(n_queries, d_model))
        self.attn = nn.MultiheadAttention(d_model, n_head, kdim=context_dim, vdim=context_dim, batch_first=True)
        self.ln_q = nn.LayerNorm(d_model)
        self.ln_k = nn.LayerNorm(context_dim)

    def forward(self, x: Tensor[B, M, E], key_padding_mask: Optional[Tensor[B, M]] = None) -> Tensor[B, Q, D]:
        N = x.shape[0]
        x = self.ln_k(x)
        q = self.ln_q(self.query)
        out = self.attn(q.unsqueeze(0).expand(N, -1, -1), x, x, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return out


@checked
class Blip2ITC(nn.Module, Generic[Pd, E, Q, D, V, P]):
    def __init__(self, patch_dim: Dim[Pd], encoder_width: Dim[E], num_query_token: Dim[Q], hidden: Dim[D],
                 vocab_size: Dim[V], embed_dim: Dim[P]) -> None:
        super().__init__()
        # stand-in for the frozen ViT: patch features -> encoder width, no gradient
        self.visual_encoder = nn.Sequential(nn.Linear(patch_dim, encoder_width), nn.GELU(), nn.Linear(encoder_width, encoder_width))
        self.ln_vision = nn.LayerNorm(encoder_width)
        self.visual_encoder.requires_grad_(False)
        self.Qformer = QFormer(num_query_token, hidden, encoder_width, vocab_size)
        self.pooler = AttentionalPooler(hidden, encoder_width, n_head=4, n_queries=num_query_token)
        self.vision_proj = nn.Linear(hidden, embed_dim)
        self.text_proj = nn.Linear(hidden, embed_dim)
        self.temp = nn.Parameter(0.07 * torch.ones([]))

    def forward(self, patches: Tensor[B, M, Pd], image_lengths: Tensor[B], input_ids: Tensor[B, T],
                text_lengths: Tensor[B]) -> tuple[Tensor[B, B], Tensor[B, P], Tensor[B, Q, D]]:
        with torch.no_grad():
            image_embeds = self.ln_vision(self.visual_encoder(patches))
        query_output, text_output = self.Qformer(image_embeds, image_lengths, input_ids, text_lengths)
        image_feats = F.normalize(self.vision_proj(query_output), dim=-1)
        text_mask = lengths_to_mask(text_lengths, input_ids.shape[1])
        text_feat = F.normalize(self.text_proj(masked_mean(text_output, text_mask)), dim=-1)
        # query-to-text similarity: (B, 1, Q, P) @ (B, P, 1) -> (B, B, Q, 1) -> max over queries
        sim_q2t = torch.matmul(image_feats.unsqueeze(1), text_feat.unsqueeze(-1)).squeeze(-1)
        sim_i2t, _ = sim_q2t.max(-1)
        sim_i2t = sim_i2t / self.temp
        pooled = self.pooler(image_embeds, key_padding_mask=~lengths_to_mask(image_lengths, patches.shape[1]))
        return sim_i2t, text_feat, pooled + query_output


def demo() -> None:
    model = Blip2ITC(patch_dim=12, encoder_width=24, num_query_token=6, hidden=16, vocab_size=50, embed_dim=8)
    patches = torch.randn(3, 10, 12)
    image_lengths = torch.tensor([10, 4, 7])
    input_ids = torch.randint(0, 50, (3, 9))
    text_lengths = torch.tensor([9, 3, 5])
    sim_i2t, text_feat, pooled = model(patches, image_lengths, input_ids, text_lengths)
    print("sim_i2t", sim_i2t.shape, "text_feat", text_feat.shape, "pooled", pooled.shape)
    assert sim_i2t.shape == (3, 3) and text_feat.shape == (3, 8) and pooled.shape == (3, 6, 16)
    targets = torch.arange(3)
    F.cross_entropy(sim_i2t, targets).backward()


def get_extended_attention_mask(
    attention_mask: Tensor[B, L], input_shape: tuple[int, int], has_query: bool, dtype: torch.dtype
) -> Tensor:
    """HF/LAVIS: a (B, 1, L, L) additive mask; causal over the text, the queries (a prefix) see each other."""
    batch_size, seq_length = input_shape
    seq_ids = torch.arange(seq_length, device=attention_mask.device)
    causal_mask = seq_ids[None, None, :].repeat(batch_size, seq_length, 1) <= seq_ids[None, :, None]
    causal_mask = causal_mask.to(attention_mask.dtype)
    if causal_mask.shape[1] < attention_mask.shape[1]:
        prefix_seq_len = attention_mask.shape[1] - causal_mask.shape[1]
        if has_query:
            causal_mask = torch.cat(
                [torch.zeros((batch_size, prefix_seq_len, seq_length), device=causal_mask.device, dtype=causal_mask.dtype),
                 causal_mask],
                dim=1,
            )
        causal_mask = torch.cat(
            [torch.ones((batch_size, causal_mask.shape[1], prefix_seq_len), device=causal_mask.device, dtype=causal_mask.dtype),
             causal_mask],
            dim=-1,
        )
    extended_attention_mask = causal_mask[:, None, :, :] * attention_mask[:, None, None, :]
    extended_attention_mask = extended_attention_mask.to(dtype=dtype)
    extended_attention_mask = (1.0 - extended_attention_mask) * torch.finfo(dtype).min
    return extended_attention_mask


def itc_sims(image_feats: Tensor[B, Q, P], text_feat: Tensor[B, P], temp: Tensor[()]) -> tuple[Tensor[B, B], Tensor[B, B]]:
    """BLIP-2 ITC with `squeeze()` as LAVIS writes it (no all_gather here)."""
    image_feats_all = image_feats
    text_feat_all = text_feat
    sim_q2t = torch.matmul(image_feats.unsqueeze(1), text_feat_all.unsqueeze(-1)).squeeze()
    sim_i2t, _ = sim_q2t.max(-1)
    sim_i2t = sim_i2t / temp
    sim_t2q = torch.matmul(text_feat.unsqueeze(1).unsqueeze(1), image_feats_all.permute(0, 2, 1)).squeeze()
    sim_t2i, _ = sim_t2q.max(-1)
    sim_t2i = sim_t2i / temp
    return sim_i2t, sim_t2i


def itg_labels(text_ids: Tensor[B, T], pad_token_id: int, bos_token_id: int) -> tuple[Tensor[B, T], Tensor[B, T]]:
    decoder_input_ids = text_ids.clone()
    decoder_input_ids[:, 0] = bos_token_id
    labels = decoder_input_ids.masked_fill(decoder_input_ids == pad_token_id, -100)
    return decoder_input_ids, labels


def hard_negatives(sim_t2i: Tensor[B, B], image_embeds: Tensor[B, M, E]) -> Tensor[B, M, E]:
    """ITM: sample one hard negative image per text from the softmaxed similarities."""
    bs = image_embeds.size(0)
    with torch.no_grad():
        weights_t2i = F.softmax(sim_t2i, dim=1) + 1e-4
        weights_t2i.fill_diagonal_(0)
    image_embeds_neg = []
    for b in range(bs):
        neg_idx = torch.multinomial(weights_t2i[b], 1).item()
        image_embeds_neg.append(image_embeds[int(neg_idx)])
    return torch.stack(image_embeds_neg, dim=0)


def demo_extras() -> None:
    bsz, q, t = 3, 4, 5
    text_atts = lengths_to_mask(torch.tensor([5, 2, 3]), t).long()
    query_atts = torch.ones((bsz, q), dtype=torch.long)
    attention_mask = torch.cat([query_atts, text_atts], dim=1)
    ext = get_extended_attention_mask(attention_mask, (bsz, t), True, torch.float32)
    print("ext", ext.shape)
    assert ext.shape == (3, 1, 9, 9)
    sim_i2t, sim_t2i = itc_sims(torch.randn(bsz, q, 8), torch.randn(bsz, 8), torch.tensor(0.07))
    assert sim_i2t.shape == (3, 3) and sim_t2i.shape == (3, 3)
    ids, labels = itg_labels(torch.randint(0, 5, (bsz, t)), 0, 1)
    neg = hard_negatives(sim_t2i, torch.randn(bsz, 7, 12))
    assert neg.shape == (3, 7, 12)


@checked
def itm_loss(model: Blip2ITC, patches: Tensor[B, M, Pd], image_lengths: Tensor[B], input_ids: Tensor[B, T],
             text_lengths: Tensor[B], itm_head: nn.Linear) -> Tensor[()]:
    """BLIP-2 image-text matching: positives, a hard negative image per text and a hard negative text per image."""
    bs = patches.size(0)
    with torch.no_grad():
        image_embeds = model.ln_vision(model.visual_encoder(patches))
    sim_i2t, text_feat, _ = model(patches, image_lengths, input_ids, text_lengths)
    sim_t2i = sim_i2t.t()
    targets = torch.linspace(0, bs - 1, bs, dtype=torch.long)
    loss_itc = (F.cross_entropy(sim_i2t, targets, label_smoothing=0.1) + F.cross_entropy(sim_t2i, targets, label_smoothing=0.1)) / 2
    with torch.no_grad():
        sim_t2i[:, 0:bs].fill_diagonal_(-10000)
        sim_i2t[:, 0:bs].fill_diagonal_(-10000)
        weights_i2t = F.softmax(sim_i2t, dim=1)
    image_embeds_neg = hard_negatives(sim_t2i, image_embeds)
    text_ids_neg_list = []
    for b in range(bs):
        neg_idx = torch.multinomial(weights_i2t[b], 1).item()
        text_ids_neg_list.append(input_ids[int(neg_idx)])
    text_ids_neg = torch.stack(text_ids_neg_list, dim=0)
    text_ids_all = torch.cat([input_ids, input_ids, text_ids_neg], dim=0)
    text_lengths_all = torch.cat([text_lengths, text_lengths, text_lengths], dim=0)
    image_embeds_all = torch.cat([image_embeds, image_embeds_neg, image_embeds], dim=0)
    image_lengths_all = torch.cat([image_lengths, image_lengths, image_lengths], dim=0)
    query_output, _ = model.Qformer(image_embeds_all, image_lengths_all, text_ids_all, text_lengths_all)
    vl_embeddings = query_output[:, : model.Qformer.query_tokens.size(1), :]
    vl_output = itm_head(vl_embeddings)
    logits = vl_output.mean(dim=1)
    itm_labels = torch.cat([torch.ones(bs, dtype=torch.long), torch.zeros(2 * bs, dtype=torch.long)], dim=0)
    loss_itm = F.cross_entropy(logits, itm_labels)
    return loss_itc + loss_itm


def demo_itm() -> None:
    model = Blip2ITC(patch_dim=12, encoder_width=24, num_query_token=6, hidden=16, vocab_size=50, embed_dim=8)
    loss = itm_loss(model, torch.randn(3, 10, 12), torch.tensor([10, 4, 7]), torch.randint(0, 50, (3, 9)),
                    torch.tensor([9, 3, 5]), nn.Linear(16, 2))
    loss.backward()


if __name__ == "__main__":
    demo()
    demo_extras()
    demo_itm()
