"""`tril` needs at least two dims."""

import torch

torch.tril(torch.ones(5))  # E: tril: the input must have at least 2 dims, got (5,)  [tyr-shape]
torch.ones(3).triu()  # E: triu  [tyr-shape]
