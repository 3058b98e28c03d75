"""flip/roll keep the shape; movedim, narrow, select, unfold, repeat_interleave, pixel_shuffle, view_as_complex move sizes."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
H = TypeVar("H")
D = TypeVar("D")
C = TypeVar("C")


def rearrange(x: Tensor[B, T, H, D], img: Tensor[B, "4*C", H, D], pairs: Tensor[T, D, 2]) -> None:
    reveal_type(torch.flip(x, dims=(1,)))  # N: Revealed type is "torch._tensor.Tensor[B, T, H, D]"
    reveal_type(x.roll(1, dims=1))  # N: Revealed type is "torch._tensor.Tensor[B, T, H, D]"
    reveal_type(x.movedim(1, 2))  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    reveal_type(x.narrow(1, 0, 4))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], H, D]"
    reveal_type(x.select(1, 0))  # N: Revealed type is "torch._tensor.Tensor[B, H, D]"
    reveal_type(torch.select(pairs, -1, 1))  # N: Revealed type is "torch._tensor.Tensor[T, D]"
    pairs.select(2, 2)  # E: select: index 2 is out of range for dimension 2 of size 2  [tyr-shape]
    reveal_type(x.unfold(1, 4, 4))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T//4'], T], H, D, Literal[4]]"
    reveal_type(x.repeat_interleave(2, dim=2))  # N: Revealed type is "torch._tensor.Tensor[B, T, tyr._static.DimExpr[Literal['2*H'], H], D]"
    reveal_type(F.pixel_shuffle(img, 2))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['2*H'], H], tyr._static.DimExpr[Literal['2*D'], D]]"
    reveal_type(torch.view_as_complex(pairs))  # N: Revealed type is "torch._tensor.Tensor[T, D]"
    reveal_type(torch.view_as_real(torch.view_as_complex(pairs)))  # N: Revealed type is "torch._tensor.Tensor[T, D, Literal[2]]"
    x.flip(4)  # E: flip: dimension 4 is out of range for a 4-d tensor  [tyr-shape]
    torch.view_as_complex(x)  # E: view_as_complex: the last dim must have size 2 (real, imaginary), not D  [tyr-shape]
    x.movedim((0, 1), (1, 1))  # E: movedim: a dim repeats in the destination  [tyr-shape]
    F.pixel_shuffle(torch.zeros(2, 6, 4, 4), 2)  # E: pixel_shuffle: the channel count 6 must be divisible by 4  [tyr-shape]


def shifted_windows(x: Tensor[B, H, D, C], shift: int, shifts: tuple[int, int], many: tuple[int, ...]) -> None:
    """Swin's cyclic shift: shifts of unknown value keep the shape; only their number is checked."""
    reveal_type(torch.roll(x, shifts=(-shift, -shift), dims=(1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B, H, D, C]"
    reveal_type(x.roll(shift, 1))  # N: Revealed type is "torch._tensor.Tensor[B, H, D, C]"
    reveal_type(x.roll(shifts, (1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B, H, D, C]"
    reveal_type(x.roll(many, (1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B, H, D, C]"
    reveal_type(x.roll(shift))  # N: Revealed type is "torch._tensor.Tensor[B, H, D, C]"
    x.roll(shift, 4)  # E: roll: dimension 4 is out of range for a 4-d tensor (expected -4 to 3)  [tyr-shape]
    x.roll(shifts, 1)  # E: roll: 2 shifts for 1 dims; give one shift per dim  [tyr-shape]
    x.roll(shifts)  # E: roll: 2 shifts for a flattened tensor, which takes one  [tyr-shape]


def repeats_per_element(x: Tensor[B, T, H], counts: Tensor[T], n: int) -> None:
    """A tensor of counts: one per element along the dim (or one for all); the repeated size is their sum."""
    reveal_type(x.repeat_interleave(counts, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Any, H]"
    reveal_type(torch.repeat_interleave(x, counts, dim=1, output_size=n))  # N: Revealed type is "torch._tensor.Tensor[B, Any, H]"
    x.repeat_interleave(torch.tensor([2]), dim=2)
    x.repeat_interleave(counts, dim=2)  # E: repeat_interleave: T repeats for dimension 2's H elements (one each, or one for all)  [tyr-shape]
