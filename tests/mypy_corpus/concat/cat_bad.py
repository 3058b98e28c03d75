"""Every dim but `dim` must match in `cat`; all shapes must be equal in `stack`."""

import torch

a = torch.zeros(2, 3)
b = torch.zeros(2, 4)
torch.cat([a, b], dim=1)
torch.cat([a, b], dim=0)  # E: cat: sizes must match except in dimension 0: dimension 1 is 3 in the tensor at position 0 but 4 at position 1  [tyr-shape]
torch.stack([a, b])  # E: stack  [tyr-shape]
