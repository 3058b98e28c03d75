"""Drawing the next token from a language model's last logits, shared by the models' `generate`."""

from __future__ import annotations

from typing import Annotated, TypeVar

import torch
import torch.nn.functional as F

from tyr import Integer, Tensor, checked

B = TypeVar("B")
V = TypeVar("V")


@checked
def next_token(
    logits: Tensor[B, V],
    temperature: float = 1.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
) -> Annotated[Tensor[B, 1], Integer]:
    """One token id per row, drawn from `logits` (the scores of the next token).

    Args:
        logits: `Tensor[B, V]`, unnormalised scores.
        temperature: the logits are divided by it before the softmax; 0 takes the
            likeliest token (greedy, no randomness). Default 1.
        top_k: draw only among the `top_k` likeliest tokens (default: all).
        generator: the randomness (default torch's).

    Returns `Tensor[B, 1]`, int64 ids.
    """
    if temperature == 0:
        greedy: Tensor[B, 1] = logits.argmax(dim=-1, keepdim=True)
        return greedy
    logits = logits / temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.size(-1))).values[:, [-1]]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = F.softmax(logits, dim=-1)
    drawn: Tensor[B, 1] = torch.multinomial(probs, num_samples=1, generator=generator)
    return drawn
