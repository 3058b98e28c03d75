"""Where tyr's types differ from torch's in kind, not in shape, unannotated code checks as it did.

Found on timm and x-transformers.  tests/test_adoption.py checks this project with plain mypy and
with tyr, each with and without `allow_redefinition`: tyr may reword mypy's errors (`Tensor` is
`Tensor[*tuple[Any, ...]]` to it) but add none.
"""

import torch
import torch.nn.functional as F
from einops import unpack
from torch import nn


def _value(x):
    return x.item() if isinstance(x, torch.Tensor) else x


def decay_schedule(step_t: torch.Tensor, offset: int) -> object:
    """`max` returns its own type variable: a tensor declared by the other branch is no context for it
    (torch's `Tensor` is not generic, so mypy infers `T` from the arguments alone)."""
    step = _value(step_t)
    if torch.is_tensor(step):
        decay = (step - offset).clamp(min=1) if offset else step
    else:
        decay = max(step - offset, 1)
    return decay


class BlurPool(nn.Module):
    """A buffer is `Tensor | Module` to mypy (`nn.Module.__getattr__`): a method called on it is called on
    each member, and the value assigned is their union, not the tensor member's result alone."""

    def __init__(self, channels: int | None) -> None:
        super().__init__()
        self.channels = channels
        self.register_buffer("filt", torch.ones(1, 1, 3, 3) / 9, persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.channels is None:
            channels = x.shape[1]
            weight = self.filt.expand(channels, 1, 3, 3)
        else:
            channels = self.channels
            weight = self.filt
        return F.conv2d(x, weight, padding=1, groups=channels)


def patches(x: torch.Tensor | dict[str, torch.Tensor], flat: bool) -> torch.Tensor:
    """A parameter that is a tensor or a dict, rebound in branches: a tensor after them, never the dict."""
    if isinstance(x, dict):
        x = x["patches"]
    if flat:
        x = x.flatten(2)
    x = 2 * (x - 0.5)
    return x


def lengths(pieces: list[torch.Tensor], shapes: list[tuple[int, ...] | list[int]]) -> list[torch.Tensor]:
    """einops' `unpack` returns a list of its argument's type, whatever that is (here a list)."""
    (unpacked,) = unpack(pieces, shapes, "* n")
    return unpacked


def z_loss(logits: list[torch.Tensor]) -> torch.Tensor:
    """`lse` is a float to mypy and a tensor once the loop has run: torch's types report the square
    of a float (an argument error), and tyr adds no shape of its own to it."""
    lse = 0.0
    for t in logits:
        lse = lse + t.logsumexp(dim=-1)
    return torch.square(lse).mean()


def kernel(fuse: nn.Module, k: int) -> torch.Tensor:
    """`kernel = 0` then a tensor: mypy reports the rebinding and keeps `int`; tyr adds no shape of
    its own to the padded int (a parameter declared a tensor takes no number as a 0-d tensor)."""
    kernel = 0
    if k:
        kernel, _bias = torch.zeros(1, 1, 1, 1), torch.zeros(1)
        kernel = F.pad(kernel, [k, k, k, k])
    return torch.as_tensor(kernel)


def _predict(x, self_cond=None, kw: dict = {}):
    return x, x


def ddim_sample(shape: tuple[int, ...], steps: int):
    """A tensor name rebound in a loop makes mypy check the loop twice (its shape changes there, where
    torch's `Tensor` does not), and the second pass infers `self_cond`, partial `None` in the first:
    no "Need type annotation" for it (denoising-diffusion-pytorch)."""
    img = torch.randn(shape)
    x_start = None
    for _ in range(steps):
        self_cond = x_start if steps > 1 else None
        _, x_start = _predict(img, self_cond)
        img = x_start
    return img
