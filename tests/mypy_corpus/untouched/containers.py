"""Containers of tensors take tensors of other shapes later (mypy typed them by their first elements)."""

import torch


def collect() -> list[torch.Tensor]:
    outs = []
    outs.append(torch.zeros(3))
    outs.append(torch.zeros(4))
    xs = [torch.zeros(3)]
    xs.append(torch.zeros(4))
    xs.extend([torch.zeros(5)])
    xs[0] = torch.zeros(6)
    xs += [torch.zeros(7)]
    named = {"a": torch.zeros(3)}
    named["b"] = torch.zeros(5)
    named.update({"c": torch.zeros(1, 1)})
    return outs + xs + list(named.values())
