"""A rebinding whose call has an error in its arguments (lucidrains/DALLE-pytorch's attention:
`img_size` unpacked from an untyped `*x.shape` is one mypy "cannot determine").  mypy holds the
value's errors to report them, and still assigns the value: `ones` is the 4-d result, and `F.pad`
of it with 4 pads is fine.  tyr once took the held errors for an overload item mypy only tries,
left `ones` 1-d, and reported the pads.
"""

import torch
import torch.nn.functional as F
from einops import rearrange


def causal_mask(x, size, padding):
    b, n, img_size = *x.shape, size
    ones = torch.ones((n,))
    ones = rearrange(ones, "(h w) -> () () h w", h=img_size)
    ones = F.pad(ones, (padding, 0, padding, 0), value=0.0)
    return b, ones

