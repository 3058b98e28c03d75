"""`nn.Sequential(...)` takes its arguments as torch types them (`*args: Module`, or an `OrderedDict`).

A layer built by a callable that may be None is the one error torch's types give
there (mypy's inference of the stub's variadic layers added "Too many arguments"), and
layers passed with a star or by name are none; tyr still records the layers it can read.  Called
in a file without shapes, the chain is torch's `Any`, as without tyr.
"""

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Optional, reveal_type

import torch
from torch import nn


class Down(nn.Module):
    def __init__(self, cin: int, cout: int, norm_layer: Optional[Callable[..., Any]], blocks: list[nn.Module]) -> None:
        super().__init__()
        self.down = nn.Sequential(norm_layer(cin), nn.Conv2d(cin, cout, 2, stride=2))  # E: "None" not callable  [misc]
        self.blocks = nn.Sequential(*blocks)
        self.named = nn.Sequential(OrderedDict([("fc", nn.Linear(cout, cout))]))


seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
reveal_type(seq(torch.zeros(2, 3)))  # N: Revealed type is "Any"
