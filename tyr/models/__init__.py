"""Models written with shape annotations."""

from tyr.models.gpt import GPT, GPTConfig

__all__ = ["GPT", "GPTConfig"]
