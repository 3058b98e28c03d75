"""What mypy sees for `tyr.Tensor` and `tyr.Dim` (the runtime objects live in `tyr._annotations`).

Placeholder until the mypy plugin lands: the plugin and `typed_stubs/` give these their meaning.
"""

from typing import Generic, TypeVar

import torch

Tensor = torch.Tensor

_N = TypeVar("_N")


class Dim(int, Generic[_N]):
    """An int whose value is the type-level size `_N`."""
