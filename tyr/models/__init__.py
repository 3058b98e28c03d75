"""Models written with shape annotations."""

from tyr.models.gpt import GPT, GPTConfig
from tyr.models.nanochat import KVCache, NanoChat, NanoChatConfig

__all__ = ["GPT", "GPTConfig", "KVCache", "NanoChat", "NanoChatConfig"]
