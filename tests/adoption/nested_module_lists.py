"""Module lists inside module lists, some of them optional, and einops over annotations mypy
refuses: plain mypy already errs at the outer `for` (torch's `ModuleList` yields `Module`) and
reads the refused annotation as nothing; tyr must not move those errors further down.

Found on lucidrains/e2-tts-pytorch (layers of `ModuleList([speech_modules, text_modules])`).
"""

from __future__ import annotations

import jaxtyping
import torch
from einops import pack, rearrange
from torch import Tensor, nn
from torch.nn import ModuleList


class TorchTyping:
    def __init__(self, abstract_dtype):
        self.abstract_dtype = abstract_dtype

    def __getitem__(self, shapes: str):
        return self.abstract_dtype[Tensor, shapes]


Float = TorchTyping(jaxtyping.Float)


class Blocks(nn.Module):
    def __init__(self, depth: int, has_text: bool) -> None:
        super().__init__()
        layers = []
        for _ in range(depth):
            speech = ModuleList([nn.Linear(4, 4), nn.ReLU()])
            text = None
            if has_text:
                text = ModuleList([nn.Linear(4, 4), nn.GELU()])
            layers.append(ModuleList([speech, text]))
        self.layers = ModuleList(layers)
        self.nested = nn.ModuleList(
            [nn.ModuleList([nn.ModuleList([nn.Linear(4, 4), nn.ReLU()]), nn.Identity()]) for _ in range(depth)]
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for speech, text in self.layers:
            lin, act = speech
            x = act(lin(x))
            if text is not None:
                lin2, act2 = text
                x = act2(lin2(x))
        for mods, extra in self.nested:
            lin, act = mods
            x = extra(act(lin(x)))
        return x


class Joint(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.mel = nn.Identity()

    def forward(self, x: Float["b n d"] | Float["b nw"], text: Float["b n dt"]):
        if x.ndim == 2:
            x = self.mel(x)
            x = rearrange(x, "b d n -> b n d")
            assert x.shape[-1] == 4
        joint, _ = pack((x, text), "b n *")
        return joint.sum(-1)
