"""Too many indices, or an index past the end of a dim."""

import torch

x = torch.zeros(2, 3)
x[0, 0, 0]  # E: index: 3 indices for the 2-d tensor (2, 3): too many  [tyr-shape]
x[:, 5]  # E: index  [tyr-shape]
