"""Checks the models share."""

from __future__ import annotations

from typing import Protocol


class SizedConfig(Protocol):
    @property
    def vocab_size(self) -> int: ...

    @property
    def n_embd(self) -> int: ...


def check_sizes(config: SizedConfig, vocab_size: int, n_embd: int) -> None:
    """Raise ValueError when a model's `Dim` arguments disagree with its config."""
    if (vocab_size, n_embd) != (config.vocab_size, config.n_embd):
        raise ValueError(
            f"sizes disagree with the config: vocab_size {vocab_size} vs {config.vocab_size}, "
            f"n_embd {n_embd} vs {config.n_embd}"
        )
