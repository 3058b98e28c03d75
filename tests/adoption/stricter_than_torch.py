"""Where tyr's stubs or rules were stricter than torch's own types, found on public code tyr had not seen.

Each function has plain mypy's own error (so the comparison in tests/test_adoption.py compares
something); tyr must report it on the same line and add none.
"""

from typing import Any

import torch
from einops import rearrange, repeat
from torch import Tensor, nn


def image_sizes(image: Tensor, flag: bool) -> Tensor:
    """A tensor name rebound to what is no tensor: mypy reports that assignment, not its later use
    (torchvision models/detection/transform.py)."""
    if flag:
        im_shape = torch.tensor(image.shape[-2:])
    else:
        im_shape = image.shape[-2:]
    return torch.min(im_shape)


class Positions(nn.Module):
    """A buffer is `Tensor | Module` to mypy: assigned to a name first bound to a tensor, the error is
    on that line (diffusers models/embeddings.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("pos", torch.zeros(3))

    def make(self, n: int) -> Tensor:
        return torch.zeros(n)

    def forward(self, x: Tensor, n: int) -> Tensor:
        if n != 3:
            pos = self.make(n)
        else:
            pos = self.pos
        pos = pos.to(dtype=x.dtype)
        return x + pos


def compute(state: Tensor, flag: bool) -> tuple[Tensor, Tensor] | tuple[list[Tensor], list[Tensor]]:
    """An ignored assignment keeps the name a tensor, as torch's types declare it (torchmetrics roc.py)."""
    if flag:
        a = state.flip(0).T
        b = state.flip(0)
    else:
        a, b = [], []  # type: ignore[assignment]
        a.append(state)
        b.append(state)
    return a, b


def rotate(w: nn.Parameter) -> Tensor:
    """einops gives back the type it is given: a `Parameter` stays one (rotary-embedding-torch)."""
    x = w
    x = rearrange(x, "n -> n 1")
    y = w
    y = repeat(y, "n -> n r", r=2)
    return x + y + w.missing  # plain mypy's error: Parameter has no "missing"


def norms(num_features: int | None, attention: nn.Module) -> list[nn.Module]:
    """`normalized_shape` takes what torch's own (unreadable) `_shape_t` lets through: anything
    (diffusers normalization.py, torchaudio wav2vec2)."""
    return [nn.LayerNorm(num_features), nn.RMSNorm(num_features), nn.LayerNorm(attention.embed_dim), nn.Nope()]


def attentions(dim: int, heads: int, cfg: dict[str, float], p: float | None) -> list[nn.Module]:
    """torch's `MultiheadAttention.__init__` is untyped: every argument is accepted."""
    return [
        nn.MultiheadAttention(dim * 1.0, heads),
        nn.MultiheadAttention(dim, heads, dropout=p),
        nn.MultiheadAttention(dim, heads, batch_first=cfg["bf"]),
        nn.MultiheadAttention(int(cfg["d"]), int(cfg["h"]), kdim=cfg["k"]),
        nn.Nope(),
    ]


def cat_scalars(a: float, t: Tensor, extra: Any) -> Tensor:
    """A float in `torch.cat`'s list is mypy's error alone, not also a 0-d tensor that cannot be
    concatenated (torchaudio functional/filtering.py)."""
    return torch.cat([a, t])


def grid_positions(sizes: list[tuple[int, int]]) -> list[Tensor]:
    """A call with a mistake of its own (meshgrid's tuple) rebinds nothing; the name's next value of
    another rank is no error of tyr's (vit-pytorch na_vit_nested_tensor.py)."""
    positions = []
    for ph, pw in sizes:
        hw_indices = torch.stack(torch.meshgrid((torch.arange(ph), torch.arange(pw)), indexing="ij"), dim=-1)
        hw_indices = rearrange(hw_indices, "h w c -> (h w) c")
        positions.append(hw_indices)
    return positions
