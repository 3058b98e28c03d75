"""Global-norm gradient clipping over any tree of parameters."""

from __future__ import annotations

import torch

from tyr import tree


def _with_grads(params: object) -> list[torch.Tensor]:
    """The trainable tensors of ``params`` that have a gradient (tied tensors once)."""
    return [
        leaf
        for leaf in tree.leaves(params, unique=True)
        if tree.role(leaf) is tree.Role.TRAINABLE and leaf.grad is not None
    ]


def _grads(params: list[torch.Tensor]) -> list[torch.Tensor]:
    return [param.grad for param in params if param.grad is not None]


def grad_norm(params: object) -> torch.Tensor:
    """The L2 norm of all gradients of ``params`` taken together, as a float32 scalar tensor.

    Args:
        params: a module, a list of parameters, or any tree holding them.

    Returns 0 when no parameter has a gradient.
    """
    grads = _grads(_with_grads(params))
    if not grads:
        return torch.zeros(())
    return torch.nn.utils.get_total_norm(grads, 2.0).float()


@torch.no_grad()
def clip_grad_norm_(params: object, max_norm: float, *, error_if_nonfinite: bool = False) -> torch.Tensor:
    """Scale all gradients of ``params`` in place so that their global L2 norm is at most ``max_norm``.

    Args:
        params: a module, a list of parameters, or any tree holding them.
        max_norm: the largest allowed global norm (> 0).
        error_if_nonfinite: raise when the norm is inf or nan instead of scaling. Default False.

    Returns the global norm *before* clipping (float32 scalar tensor). Gradients are
    multiplied by ``min(1, max_norm / (norm + 1e-6))``, as ``torch.nn.utils.clip_grad_norm_`` does
    (with torch's multi-tensor kernels: the norms and the scaling take a few calls, not one per tensor).

    Example::

        loss.backward()
        norm = clip_grad_norm_(model, 1.0)
        opt.step()
    """
    if not max_norm > 0:
        raise ValueError(f"clip_grad_norm_: max_norm must be > 0, got {max_norm}.")
    selected = _with_grads(params)
    grads = _grads(selected)
    if not grads:
        return torch.zeros(())
    norm = torch.nn.utils.get_total_norm(grads, 2.0)
    if error_if_nonfinite and not bool(torch.isfinite(norm)):
        raise RuntimeError(
            f"clip_grad_norm_: the global gradient norm is {norm.item()}; some gradient is inf or nan. "
            "Lower the learning rate, check the loss for overflow, or pass error_if_nonfinite=False."
        )
    torch.nn.utils.clip_grads_with_norm_(selected, max_norm, norm)
    return norm.float()
