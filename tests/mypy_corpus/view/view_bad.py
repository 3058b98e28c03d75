"""A view must keep the number of elements; only one dim can be -1."""

import torch

x = torch.zeros(4, 6)
x.view(5, 5)  # E: view: shape [5, 5] has 25 elements but the tensor (4, 6) has 24  [tyr-shape]
x.view(-1, -1)  # E: view: only one dimension can be inferred (-1)  [tyr-shape]
x.view(-1, 5)  # E: view  [tyr-shape]
