"""A negative size is rejected, as torch rejects it."""

import torch

torch.zeros(3, -2)  # E: zeros: size -2 at index 1 is negative  [tyr-shape]
torch.arange(5, 1)  # E: arange: the step 1 points away from end  [tyr-shape]
