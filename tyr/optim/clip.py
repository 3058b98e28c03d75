"""Global-norm gradient clipping over any tree of parameters."""

from __future__ import annotations

import torch

from tyr import tree


def _grads(params: object) -> list[torch.Tensor]:
    """Gradients of the trainable tensors of ``params`` (tied tensors once; missing grads skipped)."""
    return [
        leaf.grad
        for leaf in tree.leaves(params, unique=True)
        if tree.role(leaf) is tree.Role.TRAINABLE and leaf.grad is not None
    ]


def grad_norm(params: object) -> torch.Tensor:
    """The L2 norm of all gradients of ``params`` taken together, as a float32 scalar tensor.

    Args:
        params: a module, a list of parameters, or any tree holding them.

    Returns 0 when no parameter has a gradient.
    """
    grads = _grads(params)
    if not grads:
        return torch.zeros(())
    norms = [torch.linalg.vector_norm(g, 2.0, dtype=torch.float32) for g in grads]
    devices = {n.device for n in norms}
    if len(devices) > 1:  # gather per-tensor norms on one device before combining
        norms = [n.to(grads[0].device) for n in norms]
    total: torch.Tensor = torch.linalg.vector_norm(torch.stack(norms), 2.0)
    return total


@torch.no_grad()
def clip_grad_norm_(params: object, max_norm: float, *, error_if_nonfinite: bool = False) -> torch.Tensor:
    """Scale all gradients of ``params`` in place so that their global L2 norm is at most ``max_norm``.

    Args:
        params: a module, a list of parameters, or any tree holding them.
        max_norm: the largest allowed global norm (> 0).
        error_if_nonfinite: raise when the norm is inf or nan instead of scaling. Default False.

    Returns the global norm *before* clipping (float32 scalar tensor). Gradients are
    multiplied by ``min(1, max_norm / (norm + 1e-6))``, as ``torch.nn.utils.clip_grad_norm_`` does.

    Example::

        loss.backward()
        norm = clip_grad_norm_(model, 1.0)
        opt.step()
    """
    if not max_norm > 0:
        raise ValueError(f"clip_grad_norm_: max_norm must be > 0, got {max_norm}.")
    norm = grad_norm(params)
    if error_if_nonfinite and not bool(torch.isfinite(norm)):
        raise RuntimeError(
            f"clip_grad_norm_: the global gradient norm is {norm.item()}; some gradient is inf or nan. "
            "Lower the learning rate, check the loss for overflow, or pass error_if_nonfinite=False."
        )
    coefficient = torch.clamp(max_norm / (norm + 1e-6), max=1.0)
    for grad in _grads(params):
        grad.mul_(coefficient.to(device=grad.device, dtype=grad.dtype))
    return norm
