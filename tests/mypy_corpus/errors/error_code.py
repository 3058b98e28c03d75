"""Shape errors carry tyr's own code, `tyr-shape`, so they can be ignored or disabled like any other."""

import torch

a = torch.zeros(4, 3) + torch.zeros(5, 3)  # E: does not broadcast  [tyr-shape]
b = torch.zeros(4, 3) + torch.zeros(5, 3)  # type: ignore[tyr-shape]
