"""torch.utils.data stays as typed as before."""

import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(10, 3), torch.randn(10))
loader = DataLoader(dataset, batch_size=4, shuffle=True)
for features, labels in loader:
    out = features.sum() + labels.mean()
