"""A BERT-style encoder (HF-transformers style): word + position + token-type embeddings,
extended additive attention mask, hand-written attention with transpose_for_scores, pooler on
[:, 0], MLM head with tied decoder weights, cross-entropy with ignore_index=-100.
"""

from __future__ import annotations

import math
from typing import Generic, Optional, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")  # hidden size
H = TypeVar("H")  # heads
I = TypeVar("I")  # intermediate size
V = TypeVar("V")  # vocab
P = TypeVar("P")  # max positions


class BertConfig:
    def __init__(
        self,
        vocab_size: int = 100,
        hidden_size: int = 32,
        num_hidden_layers: int = 2,
        num_attention_heads: int = 4,
        intermediate_size: int = 64,
        max_position_embeddings: int = 16,
        type_vocab_size: int = 2,
        layer_norm_eps: float = 1e-12,
        hidden_dropout_prob: float = 0.1,
        attention_probs_dropout_prob: float = 0.1,
    ) -> None:
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.intermediate_size = intermediate_size
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size
        self.layer_norm_eps = layer_norm_eps
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob


@checked
class BertEmbeddings(nn.Module, Generic[V, D, P]):
    position_ids: Tensor[1, P]

    def __init__(self, vocab: Dim[V], hidden: Dim[D], max_pos: Dim[P], type_vocab: int, eps: float, p: float) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.token_type_embeddings = nn.Embedding(type_vocab, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=eps)
        self.dropout = nn.Dropout(p)
        self.register_buffer("position_ids", torch.arange(max_pos).expand((1, -1)), persistent=False)

    def forward(self, input_ids: Tensor[B, T], token_type_ids: Optional[Tensor[B, T]] = None) -> Tensor[B, T, D]:
        input_shape = input_ids.size()
        seq_length = input_shape[1]
        position_ids = self.position_ids[:, :seq_length]
        if token_type_ids is None:
            token_type_ids = torch.zeros(input_shape, dtype=torch.long, device=input_ids.device)
        inputs_embeds = self.word_embeddings(input_ids)
        token_type_embeddings = self.token_type_embeddings(token_type_ids)
        embeddings = inputs_embeds + token_type_embeddings
        position_embeddings = self.position_embeddings(position_ids)
        embeddings = embeddings + position_embeddings
        embeddings = self.LayerNorm(embeddings)
        embeddings = self.dropout(embeddings)
        return embeddings


@checked
class BertSelfAttention(nn.Module, Generic[D, H]):
    def __init__(self, hidden: Dim[D], heads: Dim[H], p: float) -> None:
        super().__init__()
        self.num_attention_heads = heads
        self.attention_head_size = hidden // heads
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(hidden, self.all_head_size)
        self.key = nn.Linear(hidden, self.all_head_size)
        self.value = nn.Linear(hidden, self.all_head_size)
        self.dropout = nn.Dropout(p)

    def transpose_for_scores(self, x: Tensor[B, T, D]) -> Tensor[B, H, T, "D//H"]:
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(new_x_shape)
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden_states: Tensor[B, T, D], attention_mask: Optional[Tensor[B, 1, 1, T]] = None) -> Tensor[B, T, D]:
        mixed_query_layer = self.query(hidden_states)
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        query_layer = self.transpose_for_scores(mixed_query_layer)

        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            attention_scores = attention_scores + attention_mask
        attention_probs = nn.functional.softmax(attention_scores, dim=-1)
        attention_probs = self.dropout(attention_probs)

        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        new_context_layer_shape = context_layer.size()[:-2] + (self.all_head_size,)
        context_layer = context_layer.view(new_context_layer_shape)
        return context_layer


@checked
class BertSdpaSelfAttention(nn.Module, Generic[D, H]):
    """Same, but with F.scaled_dot_product_attention and a boolean mask."""

    def __init__(self, hidden: Dim[D], heads: Dim[H], p: float) -> None:
        super().__init__()
        self.num_heads = heads
        self.head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.p = p

    def transpose_for_scores(self, x: Tensor[B, T, D]) -> Tensor[B, H, T, "D//H"]:
        new_x_shape = x.size()[:-1] + (self.num_heads, self.head_size)
        return x.view(new_x_shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states: Tensor[B, T, D], attention_mask: Tensor[B, T]) -> Tensor[B, T, D]:
        bsz, tgt_len, _ = hidden_states.size()
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        bool_mask = attention_mask[:, None, None, :].bool()
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask, dropout_p=self.p if self.training else 0.0)
        out = out.transpose(1, 2)
        out = out.reshape(bsz, tgt_len, self.num_heads * self.head_size)
        return out


@checked
class BertSelfOutput(nn.Module, Generic[D]):
    def __init__(self, hidden: Dim[D], eps: float, p: float) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=eps)
        self.dropout = nn.Dropout(p)

    def forward(self, hidden_states: Tensor[B, T, D], input_tensor: Tensor[B, T, D]) -> Tensor[B, T, D]:
        hidden_states = self.dense(hidden_states)
        hidden_states = self.dropout(hidden_states)
        return self.LayerNorm(hidden_states + input_tensor)


@checked
class BertAttention(nn.Module, Generic[D, H]):
    def __init__(self, hidden: Dim[D], heads: Dim[H], eps: float, p: float) -> None:
        super().__init__()
        self.self = BertSelfAttention(hidden, heads, p)
        self.output = BertSelfOutput(hidden, eps, p)

    def forward(self, hidden_states: Tensor[B, T, D], attention_mask: Optional[Tensor[B, 1, 1, T]] = None) -> Tensor[B, T, D]:
        self_outputs = self.self(hidden_states, attention_mask)
        return self.output(self_outputs, hidden_states)


@checked
class BertIntermediate(nn.Module, Generic[D, I]):
    def __init__(self, hidden: Dim[D], inter: Dim[I]) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden, inter)

    def forward(self, hidden_states: Tensor[B, T, D]) -> Tensor[B, T, I]:
        return F.gelu(self.dense(hidden_states))


@checked
class BertOutput(nn.Module, Generic[D, I]):
    def __init__(self, hidden: Dim[D], inter: Dim[I], eps: float, p: float) -> None:
        super().__init__()
        self.dense = nn.Linear(inter, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=eps)
        self.dropout = nn.Dropout(p)

    def forward(self, hidden_states: Tensor[B, T, I], input_tensor: Tensor[B, T, D]) -> Tensor[B, T, D]:
        hidden_states = self.dense(hidden_states)
        hidden_states = self.dropout(hidden_states)
        return self.LayerNorm(hidden_states + input_tensor)


@checked
class BertLayer(nn.Module, Generic[D, H, I]):
    def __init__(self, hidden: Dim[D], heads: Dim[H], inter: Dim[I], eps: float, p: float) -> None:
        super().__init__()
        self.attention = BertAttention(hidden, heads, eps, p)
        self.intermediate = BertIntermediate(hidden, inter)
        self.output = BertOutput(hidden, inter, eps, p)

    def forward(self, hidden_states: Tensor[B, T, D], attention_mask: Optional[Tensor[B, 1, 1, T]] = None) -> Tensor[B, T, D]:
        attention_output = self.attention(hidden_states, attention_mask)
        intermediate_output = self.intermediate(attention_output)
        return self.output(intermediate_output, attention_output)


@checked
class BertPooler(nn.Module, Generic[D]):
    def __init__(self, hidden: Dim[D]) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.activation = nn.Tanh()

    def forward(self, hidden_states: Tensor[B, T, D]) -> Tensor[B, D]:
        first_token_tensor = hidden_states[:, 0]
        pooled_output = self.dense(first_token_tensor)
        return self.activation(pooled_output)


@checked
class BertModel(nn.Module, Generic[V, D, H, I, P]):
    def __init__(self, config: BertConfig, vocab: Dim[V], hidden: Dim[D], heads: Dim[H], inter: Dim[I], max_pos: Dim[P]) -> None:
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(
            vocab, hidden, max_pos, config.type_vocab_size, config.layer_norm_eps, config.hidden_dropout_prob
        )
        self.layer = nn.ModuleList(
            [
                BertLayer(hidden, heads, inter, config.layer_norm_eps, config.hidden_dropout_prob)
                for _ in range(config.num_hidden_layers)
            ]
        )
        self.pooler = BertPooler(hidden)

    def get_extended_attention_mask(self, attention_mask: Tensor[B, T], dtype: torch.dtype) -> Tensor[B, 1, 1, T]:
        extended_attention_mask = attention_mask[:, None, None, :]
        extended_attention_mask = extended_attention_mask.to(dtype=dtype)
        extended_attention_mask = (1.0 - extended_attention_mask) * torch.finfo(dtype).min
        return extended_attention_mask

    def forward(
        self,
        input_ids: Tensor[B, T],
        attention_mask: Optional[Tensor[B, T]] = None,
        token_type_ids: Optional[Tensor[B, T]] = None,
    ) -> tuple[Tensor[B, T, D], Tensor[B, D]]:
        batch_size, seq_length = input_ids.size()
        if attention_mask is None:
            attention_mask = torch.ones((batch_size, seq_length), device=input_ids.device)
        extended_attention_mask = (1.0 - attention_mask[:, None, None, :]) * -10000.0
        embedding_output = self.embeddings(input_ids, token_type_ids)
        hidden_states = embedding_output
        for layer_module in self.layer:
            hidden_states = layer_module(hidden_states, extended_attention_mask)
        sequence_output = hidden_states
        pooled_output = self.pooler(sequence_output)
        return sequence_output, pooled_output


@checked
class BertPredictionHeadTransform(nn.Module, Generic[D]):
    def __init__(self, hidden: Dim[D], eps: float) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.transform_act_fn = nn.GELU()
        self.LayerNorm = nn.LayerNorm(hidden, eps=eps)

    def forward(self, hidden_states: Tensor[B, T, D]) -> Tensor[B, T, D]:
        return self.LayerNorm(self.transform_act_fn(self.dense(hidden_states)))


@checked
class BertLMPredictionHead(nn.Module, Generic[D, V]):
    def __init__(self, hidden: Dim[D], vocab: Dim[V], eps: float) -> None:
        super().__init__()
        self.transform = BertPredictionHeadTransform(hidden, eps)
        self.decoder = nn.Linear(hidden, vocab, bias=False)
        self.bias = nn.Parameter(torch.zeros(vocab))
        self.decoder.bias = self.bias

    def forward(self, hidden_states: Tensor[B, T, D]) -> Tensor[B, T, V]:
        hidden_states = self.transform(hidden_states)
        return self.decoder(hidden_states)


@checked
class BertForMaskedLM(nn.Module, Generic[V, D, H, I, P]):
    def __init__(self, config: BertConfig, vocab: Dim[V], hidden: Dim[D], heads: Dim[H], inter: Dim[I], max_pos: Dim[P]) -> None:
        super().__init__()
        self.config = config
        self.bert = BertModel(config, vocab, hidden, heads, inter, max_pos)
        self.cls = BertLMPredictionHead(hidden, vocab, config.layer_norm_eps)
        # tie weights
        self.cls.decoder.weight = self.bert.embeddings.word_embeddings.weight

    def forward(
        self,
        input_ids: Tensor[B, T],
        attention_mask: Optional[Tensor[B, T]] = None,
        labels: Optional[Tensor[B, T]] = None,
    ) -> tuple[Optional[Tensor[()]], Tensor[B, T, V]]:
        sequence_output, _pooled = self.bert(input_ids, attention_mask)
        prediction_scores = self.cls(sequence_output)
        masked_lm_loss = None
        if labels is not None:
            masked_lm_loss = F.cross_entropy(
                prediction_scores.view(-1, self.config.vocab_size), labels.view(-1), ignore_index=-100
            )
        return masked_lm_loss, prediction_scores


def demo() -> None:
    torch.manual_seed(0)
    cfg = BertConfig()
    model = BertForMaskedLM(cfg, 100, 32, 4, 64, 16)
    input_ids = torch.randint(1, 100, (3, 10))
    attention_mask = torch.ones(3, 10, dtype=torch.long)
    attention_mask[0, 7:] = 0
    labels = torch.full((3, 10), -100, dtype=torch.long)
    labels[:, 2] = input_ids[:, 2]
    loss, scores = model(input_ids, attention_mask, labels)
    assert loss is not None
    print("scores", scores.shape, "loss", loss.shape)
    loss.backward()
    # SDPA variant with boolean mask
    sdpa = BertSdpaSelfAttention(32, 4, 0.0)
    hs = torch.randn(3, 10, 32)
    out = sdpa(hs, attention_mask)
    print("sdpa", out.shape)
    ext = model.bert.get_extended_attention_mask(attention_mask, torch.float32)
    print("ext", ext.shape)
    pooled = model.bert(input_ids)[1]
    print("pooled", pooled.shape)


if __name__ == "__main__":
    demo()
