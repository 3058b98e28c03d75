"""Tensor APIs tyr has no rule for keep torch's own types."""

from typing import reveal_type

import torch

x = torch.randn(3, 4)
reveal_type(x.item())  # N: Revealed type is "int | float"
reveal_type(x.tolist())  # N: Revealed type is "list[Any]"
reveal_type(x.element_size())  # N: Revealed type is "int"
reveal_type(x.dtype)  # N: Revealed type is "torch._C.dtype"
reveal_type(x.device)  # N: Revealed type is "torch._C.device"
reveal_type(x.requires_grad)  # N: Revealed type is "bool"
reveal_type(torch.linalg.lu_factor(x))  # N: Revealed type is "Any"
reveal_type(x.cholesky_solve(x))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
reveal_type(x.cholesky_inverse())  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
reveal_type(x.flatten().bincount())  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
reveal_type(x.grad)  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[4]] | None"
reveal_type(x.ndim)  # N: Revealed type is "Literal[2]"
y: torch.Tensor = x.numpy().sum() * torch.ones(2)
