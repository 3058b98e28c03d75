"""Muon: momentum, then Newton–Schulz orthogonalisation, for hidden weight matrices.

Muon (Keller Jordan, 2024) replaces each hidden weight matrix's update with the
nearest semi-orthogonal matrix to its momentum — ``U V^T`` from the SVD
``U S V^T`` — computed approximately by a few Newton–Schulz iterations. It is
meant only for matrices inside the network; embeddings, the output head and
1-D gains/biases keep AdamW. :class:`Muon` holds both kinds of group and decides
the split from each parameter's role and name.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal

import torch
from torch import nn

from tyr.optim._base import ClosureStep
from tyr.optim._params import Params, check_state_dict, named_trainable, param_groups
from tyr.optim.adamw import _check_hyperparameters, adamw_step_

QUINTIC = (3.4445, -4.7750, 2.0315)
"""Coefficients ``(a, b, c)`` of Muon's quintic ``a X + b (X X^T) X + c (X X^T)^2 X``:
chosen to push every singular value quickly into roughly [0.7, 1.2], not to converge."""

CUBIC = (1.5, -0.5, 0.0)
"""The classic Newton–Schulz cubic; converges to exactly 1 for singular values in (0, sqrt 3)."""

EMBEDDING_NAMES = frozenset(
    {
        "embed", "embedding", "embeddings", "embed_tokens", "tok_embeddings", "wte", "wpe",
        "tok_emb", "pos_emb", "token_embedding", "position_embedding",
    }
)  # fmt: skip
"""Module names of input embeddings (besides every ``nn.Embedding``)."""

HEAD_AND_EMBEDDING_NAMES = EMBEDDING_NAMES | {"lm_head", "head", "unembed"}
"""Module names whose parameters :func:`is_embedding_or_head` sends to AdamW."""

Role = Literal["matrix", "embedding", "head", "scalar"]
"""What a parameter is to the optimizer: a hidden matrix (Muon), an input embedding, the output
head (or another matrix left to AdamW), or a 0-D/1-D gain, bias or scalar (AdamW)."""


def orthogonalize(
    matrix: torch.Tensor,
    *,
    steps: int = 5,
    coefficients: tuple[float, float, float] = QUINTIC,
    eps: float = 1e-7,
    dtype: torch.dtype | None = None,
) -> torch.Tensor:
    """Approximately map ``matrix`` (shape ``(..., m, n)``) to ``U V^T``, its orthogonal polar factor.

    Args:
        matrix: ``(..., m, n)``; leading dimensions are a batch.
        steps: Newton–Schulz iterations. Default 5.
        coefficients: ``(a, b, c)`` of the iteration; :data:`QUINTIC` (default) or :data:`CUBIC`.
        eps: guards the initial normalisation of an all-zero matrix. Default 1e-7.
        dtype: compute dtype. Default: bfloat16 on CUDA, float32 elsewhere.

    Returns ``(..., m, n)`` in ``matrix``'s dtype, with singular values near 1 (see
    :data:`QUINTIC` for how near).
    """
    if matrix.dim() < 2:
        raise ValueError(f"orthogonalize needs a matrix (..., m, n); got shape {tuple(matrix.shape)}.")
    if dtype is None:
        dtype = torch.bfloat16 if matrix.is_cuda else torch.float32
    a, b, c = coefficients
    x = matrix.to(dtype)
    tall = x.size(-2) > x.size(-1)
    if tall:  # iterate on the smaller Gram matrix
        x = x.mT
    # Frobenius normalisation puts every singular value in [0, 1].
    x = x / (torch.linalg.matrix_norm(x, keepdim=True) + eps)
    for _ in range(steps):
        gram = x @ x.mT
        poly = b * gram + c * (gram @ gram)
        x = a * x + poly @ x
    if tall:
        x = x.mT
    result: torch.Tensor = x.to(matrix.dtype)
    return result


def is_embedding_or_head(name: str, param: torch.Tensor) -> bool:
    """Default rule for parameters that Muon must leave to AdamW besides 1-D ones.

    True when the module holding ``name`` (the part before the last ``"."``) ends in
    one of :data:`HEAD_AND_EMBEDDING_NAMES`, e.g. ``"transformer.wte.weight"`` or
    ``"lm_head.weight"``. Parameters of ``nn.Embedding`` modules are always AdamW,
    whatever the rule says.
    """
    parts = name.split(".")
    return len(parts) >= 2 and parts[-2] in HEAD_AND_EMBEDDING_NAMES


def muon_param_groups(
    model: nn.Module,
    *,
    is_adam: Callable[[str, torch.Tensor], bool] = is_embedding_or_head,
) -> list[dict[str, Any]]:
    """Split a model's trainable parameters into a Muon group and an AdamW group by role.

    Muon gets every trainable tensor with 2 or more dimensions (more than 2 are
    flattened to ``(shape[0], -1)``), except those owned by an ``nn.Embedding`` and
    those for which ``is_adam(name, param)`` is true; AdamW gets those and every
    0-D/1-D tensor (gains, biases). Frozen tensors go nowhere; tied tensors once.

    Returns up to two groups ``{"params": [(name, tensor), ...], "use_muon": bool}``,
    empty ones left out.
    """
    embedding_params = {
        id(param)
        for module in model.modules()
        if isinstance(module, (nn.Embedding, nn.EmbeddingBag))
        for param in module.parameters(recurse=False)
    }
    muon: list[tuple[str, torch.Tensor]] = []
    adam: list[tuple[str, torch.Tensor]] = []
    for name, param in named_trainable(model):
        if param.dim() >= 2 and id(param) not in embedding_params and not is_adam(name, param):
            muon.append((name, param))
        else:
            adam.append((name, param))
    groups = [{"params": muon, "use_muon": True}, {"params": adam, "use_muon": False}]
    return [group for group in groups if group["params"]]


def role_param_groups(
    model: nn.Module,
    lr: Mapping[Role, float],
    *,
    is_adam: Callable[[str, torch.Tensor], bool] = is_embedding_or_head,
) -> list[dict[str, Any]]:
    """:func:`muon_param_groups` with the AdamW side split by role, each role with its own rate.

    Args:
        model: its trainable parameters are split, tied ones once.
        lr: the peak learning rate of each role (see :data:`Role`); every role needs one.
        is_adam: as for :func:`muon_param_groups`.

    A ≥2-D AdamW parameter is an ``"embedding"`` when an ``nn.Embedding`` owns it or its
    module's name is in :data:`EMBEDDING_NAMES`, else ``"head"``; 0-D/1-D ones are
    ``"scalar"``. Returns up to four groups ``{"params": [(name, tensor), ...], "use_muon":
    bool, "role": role, "lr": lr[role]}`` in the order matrix, embedding, head, scalar,
    empty ones left out; pass them to :class:`Muon`.

    Example::

        groups = role_param_groups(model, {"matrix": 0.02, "embedding": 0.3, "head": 0.004, "scalar": 0.5})
        opt = Muon(groups, adam_betas=(0.8, 0.95))
    """
    missing = [role for role in typing.get_args(Role) if role not in lr]
    if missing:
        raise ValueError(f"role_param_groups: no learning rate for {', '.join(missing)}; give one for every role")
    embedding_params = {
        id(param)
        for module in model.modules()
        if isinstance(module, (nn.Embedding, nn.EmbeddingBag))
        for param in module.parameters(recurse=False)
    }

    def role(name: str, param: torch.Tensor) -> Role:
        if param.dim() < 2:
            return "scalar"
        parts = name.split(".")
        if id(param) in embedding_params or (len(parts) >= 2 and parts[-2] in EMBEDDING_NAMES):
            return "embedding"
        return "head"

    by_role: dict[Role, list[tuple[str, torch.Tensor]]] = {r: [] for r in typing.get_args(Role)}
    for group in muon_param_groups(model, is_adam=is_adam):
        for name, param in group["params"]:
            by_role["matrix" if group["use_muon"] else role(name, param)].append((name, param))
    return [
        {"params": params, "use_muon": r == "matrix", "role": r, "lr": lr[r]} for r, params in by_role.items() if params
    ]


class Muon(ClosureStep):
    """Muon for hidden matrices plus AdamW for everything else, in one optimizer.

    Args:
        params: a module — split with :func:`muon_param_groups` — or parameter groups,
            each with ``"use_muon": bool`` (tensors or pairs alone count as one Muon group).
        is_adam: for a module, which ≥2-D parameters are embeddings/head (AdamW).
            Default :func:`is_embedding_or_head`.
        lr: Muon learning rate. Default 0.02.
        momentum: Muon momentum (an exponential average of gradients). Default 0.95.
        nesterov: use the Nesterov look-ahead ``grad.lerp(buffer, momentum)``. Default True.
        weight_decay: decoupled weight decay for Muon groups. Default 0.
        ns_steps: Newton–Schulz iterations. Default 5.
        adam_lr: learning rate of the AdamW groups. Default 3e-4.
        adam_betas: AdamW betas. Default (0.9, 0.95).
        adam_eps: AdamW epsilon. Default 1e-8.
        adam_weight_decay: AdamW decoupled weight decay. Default 0.
        ns_dtype: the Newton–Schulz compute dtype. Default: bfloat16 on CUDA, float32
            elsewhere; bfloat16 also halves the time on CPUs with bfloat16 matrix units.
        momentum_warmup: steps over which the Muon momentum rises linearly from
            ``momentum_start`` to ``momentum`` (modded-nanogpt's and nanochat's warmup: a
            short memory while the gradients change fast). Default 0: ``momentum`` throughout.
        momentum_start: the momentum at step 0 of the warmup. Default 0.85.

    Matrices of the same shape are orthogonalised together, in one batched call.

    A Muon update of an ``(m, n)`` matrix is ``orthogonalize(momentum) *
    sqrt(max(1, m / n))``, applied with ``lr``. Group options can be set per group;
    every group's ``"lr"`` is what a schedule changes.

    Example::

        opt = Muon(model, lr=0.02, adam_lr=3e-4)     # split decided by role
        opt = Muon(model, is_adam=lambda name, p: name.startswith("classifier."))
    """

    def __init__(
        self,
        params: Params,
        *,
        is_adam: Callable[[str, torch.Tensor], bool] = is_embedding_or_head,
        lr: float = 0.02,
        momentum: float = 0.95,
        nesterov: bool = True,
        weight_decay: float = 0.0,
        ns_steps: int = 5,
        adam_lr: float = 3e-4,
        adam_betas: tuple[float, float] = (0.9, 0.95),
        adam_eps: float = 1e-8,
        adam_weight_decay: float = 0.0,
        ns_dtype: torch.dtype | None = None,
        momentum_warmup: int = 0,
        momentum_start: float = 0.85,
    ) -> None:
        if not (0.0 <= momentum < 1.0 and 0.0 <= momentum_start < 1.0):
            raise ValueError(f"Muon: momentum and momentum_start must be in [0, 1), got {momentum}, {momentum_start}.")
        if momentum_warmup < 0:
            raise ValueError(f"Muon: momentum_warmup is a number of steps, got {momentum_warmup}.")
        if ns_steps < 1:
            raise ValueError(f"Muon: ns_steps must be at least 1, got {ns_steps}.")
        _check_hyperparameters("Muon", lr=lr, betas=(0.0, 0.0), eps=0.0, weight_decay=weight_decay)
        _check_hyperparameters(
            "Muon (AdamW groups)", lr=adam_lr, betas=adam_betas, eps=adam_eps, weight_decay=adam_weight_decay
        )
        muon_defaults = {
            "lr": lr, "momentum": momentum, "nesterov": nesterov, "weight_decay": weight_decay, "ns_steps": ns_steps,
            "momentum_warmup": momentum_warmup, "momentum_start": momentum_start, "step": 0,
        }  # fmt: skip
        adam_defaults = {
            "lr": adam_lr, "betas": adam_betas, "eps": adam_eps, "weight_decay": adam_weight_decay,
        }  # fmt: skip
        raw = muon_param_groups(params, is_adam=is_adam) if isinstance(params, nn.Module) else params
        groups = param_groups(raw, owner="Muon")
        for index, group in enumerate(groups):
            use_muon = bool(group.setdefault("use_muon", True))
            for key, value in (muon_defaults if use_muon else adam_defaults).items():
                group.setdefault(key, value)
            if use_muon:
                for position, entry in enumerate(group["params"]):
                    name, tensor = entry if isinstance(entry, tuple) else (f"{position}", entry)
                    if tensor.dim() < 2:
                        raise ValueError(
                            f"Muon: parameter '{name}' of group {index} has shape {tuple(tensor.shape)}; "
                            "Muon orthogonalises matrices only. Put 0-D/1-D tensors in a group with "
                            "use_muon=False (AdamW), or pass the module and let Muon split it."
                        )
        super().__init__(groups, {})
        self.ns_dtype = ns_dtype

    def _update(self) -> None:
        """Update every parameter that has a gradient."""
        for group in self.param_groups:
            if group["use_muon"]:
                self._muon_group(group)
            else:
                self._adam_group(group)

    @staticmethod
    def momentum_at(group: Mapping[str, Any]) -> float:
        """The momentum a Muon group uses at its current step (`group["step"]`, steps taken)."""
        warmup, start, end = group["momentum_warmup"], group["momentum_start"], group["momentum"]
        done = min(1.0, group["step"] / warmup) if warmup else 1.0
        return float(start + (end - start) * done)

    def _muon_group(self, group: dict[str, Any]) -> None:
        momentum, lr = self.momentum_at(group), group["lr"]
        group["step"] += 1
        by_shape: dict[tuple[int, ...], list[tuple[torch.Tensor, torch.Tensor]]] = {}
        for param in group["params"]:
            if param.grad is None:
                continue
            state = self.state[param]
            if not state:
                state["momentum_buffer"] = torch.zeros_like(param)
            buffer = state["momentum_buffer"]
            buffer.lerp_(param.grad, 1 - momentum)
            direction = param.grad.lerp(buffer, momentum) if group["nesterov"] else buffer
            by_shape.setdefault(tuple(param.shape), []).append((param, direction))
        for items in by_shape.values():  # one batched orthogonalisation per shape: fewer, larger operations
            matrices = torch.stack([direction.reshape(direction.size(0), -1) for _, direction in items])
            updates = orthogonalize(matrices, steps=group["ns_steps"], dtype=self.ns_dtype)
            scale = max(1.0, matrices.size(1) / matrices.size(2)) ** 0.5
            for (param, _), update in zip(items, updates):
                if group["weight_decay"] != 0:
                    param.mul_(1 - lr * group["weight_decay"])
                param.add_(update.view_as(param), alpha=-lr * scale)

    def _adam_group(self, group: dict[str, Any]) -> None:
        for param in group["params"]:
            if param.grad is not None:
                adamw_step_(param, self.state[param], group)

    def load_state_dict(self, state_dict: Mapping[str, Any]) -> None:
        """Load :meth:`state_dict` output; raises ValueError saying exactly what does not fit."""
        check_state_dict(self, state_dict, "Muon")
        for number, (saved, group) in enumerate(zip(state_dict["param_groups"], self.param_groups)):
            if saved.get("use_muon") != group["use_muon"]:
                raise ValueError(
                    f"Muon.load_state_dict: group {number} is "
                    f"{'a Muon' if group['use_muon'] else 'an AdamW'} group here but was saved as "
                    f"{'a Muon' if saved.get('use_muon') else 'an AdamW'} group."
                )
        super().load_state_dict(dict(state_dict))
