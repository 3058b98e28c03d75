"""A created tensor assigned to an annotation of another shape."""

import torch

from tyr import Tensor

x: Tensor[32, 768] = torch.randn(32, 512)  # E: Incompatible types in assignment (expression has type "Tensor[Literal[32], Literal[512]]", variable has type "Tensor[Literal[32], Literal[768]]")  [assignment]
