"""Targets of the wrong shape for the logits."""

import torch
import torch.nn.functional as F

logits = torch.randn(8, 10)
F.cross_entropy(logits, torch.randint(0, 10, (8,)))
F.cross_entropy(logits, torch.randint(0, 10, (9,)))  # E: cross_entropy: the target (9,) must hold one class index per item of the input (8, 10), that is shape (8,)  [tyr-shape]
F.cross_entropy(logits, torch.randn(8, 11))  # E: cross_entropy  [tyr-shape]
