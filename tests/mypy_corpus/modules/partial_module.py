"""functools.partial of a torch module: the bound arguments count, as in the direct call.

`partial(nn.Conv2d, padding=1)(8, 8, 3)` builds `nn.Conv2d(8, 8, 3, padding=1)` (torch: padding 1,
so a (2, 8, 16, 16) input keeps its size); read from the call's arguments alone it would be typed
with the default padding 0, a shape torch never gives.
"""

from functools import partial
from typing import reveal_type

import torch
from torch import nn

from tyr import Tensor

x: Tensor[2, 8, 16, 16] = torch.randn(2, 8, 16, 16)

conv3 = partial(nn.Conv2d, padding=1)
c = conv3(8, 8, 3)
reveal_type(c)  # N: Revealed type is "torch.nn.modules.conv.Conv2d[Literal[8], Literal[8], Literal[3], Literal[1], Literal[1], Literal[1], Literal[1]]"
y = c(x)
reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[16], Literal[16]]"
out = x + y

down = partial(nn.Conv2d, stride=2)
reveal_type(down(8, 8, 2)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[8], Literal[8]]"

same = partial(nn.Conv2d, padding="same")
reveal_type(same(8, 4, 5)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[4], Literal[16], Literal[16]]"

dilated = partial(nn.Conv2d, kernel_size=3, dilation=2)
reveal_type(dilated(8, 8)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[12], Literal[12]]"

pool = partial(nn.MaxPool2d, stride=1)
reveal_type(pool(3)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[14], Literal[14]]"

up = partial(nn.ConvTranspose2d, stride=2)
reveal_type(up(8, 8, 2)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[32], Literal[32]]"

# positional arguments bound, the rest at the call; a keyword given again replaces the bound one
first = partial(nn.Conv2d, 8, 4)
reveal_type(first(3, padding=1)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[4], Literal[16], Literal[16]]"
reveal_type(conv3(8, 8, 3, padding=0)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[14], Literal[14]]"

# a size the partial does not know is unknown, never a default's
def build(p: int) -> None:
    padded = partial(nn.Conv2d, padding=p)
    reveal_type(padded(8, 8, 3)(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Any, Any]"
