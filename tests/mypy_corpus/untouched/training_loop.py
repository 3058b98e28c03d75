"""An ordinary training loop: optimizer, no_grad, item, state_dict, devices. Nothing new to complain about."""

import torch
import torch.nn.functional as F
from torch import nn


def train(model: nn.Module, data: list[tuple[torch.Tensor, torch.Tensor]], device: torch.device) -> float:
    model.to(device)
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
    total = 0.0
    for x, y in data:
        x, y = x.to(device, non_blocking=True), y.to(device)
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item()
    with torch.no_grad():
        model.eval()
    state = model.state_dict()
    torch.save(state, "/tmp/model.pt")
    return total / max(len(data), 1)
