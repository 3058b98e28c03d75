"""Turning what users pass to an optimizer into checked parameter groups."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

import torch
from torch import nn

from tyr import tree

Params: TypeAlias = (
    nn.Module
    | Iterable[torch.Tensor]
    | Iterable[tuple[str, torch.Tensor]]
    | Iterable[Mapping[str, Any]]
)
"""What optimizers accept: a module (its trainable parameters, named, tied ones
once), tensors, ``(name, tensor)`` pairs (e.g. ``model.named_parameters()``), or
parameter groups (dicts with a ``"params"`` entry of either kind plus options)."""


def named_trainable(module: nn.Module) -> list[tuple[str, torch.Tensor]]:
    """``(path, parameter)`` for every trainable tensor of ``module``, tied tensors once."""
    return [
        (path, leaf)
        for path, leaf in tree.leaves_with_paths(module, unique=True)
        if tree.role(leaf) is tree.Role.TRAINABLE
    ]


def param_groups(params: Params, *, owner: str) -> list[dict[str, Any]]:
    """Normalise ``params`` into parameter groups and check them.

    Every group's ``"params"`` becomes a list of tensors, or of ``(name, tensor)``
    pairs when names are known (torch then keeps them as ``"param_names"``).
    A tensor repeated within a group is kept once.

    Raises:
        ValueError: no parameters, or a frozen tensor (``requires_grad=False``):
            frozen leaves must never reach an optimizer.
        TypeError: something that is not a tensor.
    """
    if isinstance(params, nn.Module):
        named = named_trainable(params)
        if not named:
            raise ValueError(
                f"{owner}: the module {type(params).__name__} has no trainable parameters "
                "(none with requires_grad=True), so there is nothing to optimize."
            )
        raw_groups: list[dict[str, Any]] = [{"params": named}]
    else:
        items = list(params)
        if not items:
            raise ValueError(f"{owner}: got an empty list of parameters; pass a module or its parameters.")
        if all(isinstance(item, Mapping) for item in items):
            raw_groups = [dict(item) for item in items]  # type: ignore[call-overload]
        else:
            raw_groups = [{"params": items}]
    return [_check_group(group, index, owner) for index, group in enumerate(raw_groups)]


def _check_group(group: dict[str, Any], index: int, owner: str) -> dict[str, Any]:
    if "params" not in group:
        raise ValueError(f"{owner}: parameter group {index} has no 'params' entry: {sorted(group)}")
    entries = group["params"]
    entries = [entries] if isinstance(entries, torch.Tensor) else list(entries)
    seen: set[int] = set()
    kept: list[Any] = []
    for position, entry in enumerate(entries):
        name, tensor = entry if isinstance(entry, tuple) else (None, entry)
        where = f"'{name}'" if name is not None else f"{position} of group {index}"
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f"{owner}: parameter {where} is a {type(tensor).__name__}, not a tensor.")
        if not tensor.requires_grad:
            raise ValueError(
                f"{owner}: parameter {where} (shape {tuple(tensor.shape)}) is frozen "
                "(requires_grad=False); frozen tensors must not reach an optimizer. Pass the "
                "module itself, or tree.leaves(tree.filter(model, tree.Role.TRAINABLE), unique=True)."
            )
        if id(tensor) in seen:
            continue
        seen.add(id(tensor))
        kept.append(entry)
    if not kept:
        raise ValueError(f"{owner}: parameter group {index} is empty.")
    group["params"] = kept
    return group


def check_state_dict(optimizer: torch.optim.Optimizer, state_dict: Mapping[str, Any], owner: str) -> None:
    """Raise ValueError naming exactly how a torch-style optimizer state dict does not fit.

    Compares group count, group sizes, parameter names (when both sides have them)
    and the shapes of per-parameter state tensors against the parameters.
    """
    saved_groups = state_dict.get("param_groups")
    if not isinstance(saved_groups, list) or "state" not in state_dict:
        raise ValueError(f"{owner}.load_state_dict: expected a dict with 'state' and 'param_groups'.")
    groups = optimizer.param_groups
    if len(saved_groups) != len(groups):
        raise ValueError(
            f"{owner}.load_state_dict: the saved state has {len(saved_groups)} parameter groups, "
            f"this optimizer has {len(groups)}."
        )
    problems: list[str] = []
    index_to_param: dict[int, tuple[str, torch.Tensor]] = {}
    for number, (saved, group) in enumerate(zip(saved_groups, groups)):
        names = group.get("param_names")
        saved_names = saved.get("param_names")
        if names is not None and saved_names is not None and list(names) != list(saved_names):
            missing = [n for n in saved_names if n not in names]
            extra = [n for n in names if n not in saved_names]
            detail = f"saved only: {missing}; here only: {extra}" if missing or extra else "same names, other order"
            problems.append(f"group {number} holds different parameters ({detail})")
            continue
        if len(saved["params"]) != len(group["params"]):
            problems.append(
                f"group {number} has {len(saved['params'])} parameters in the saved state "
                f"but {len(group['params'])} here"
            )
            continue
        for position, (index, param) in enumerate(zip(saved["params"], group["params"])):
            label = names[position] if names is not None else f"{position} of group {number}"
            index_to_param[index] = (label, param)
    for index, values in state_dict["state"].items():
        if index not in index_to_param or not isinstance(values, Mapping):
            continue
        label, param = index_to_param[index]
        for key, value in values.items():
            if isinstance(value, torch.Tensor) and value.dim() > 0 and value.shape != param.shape:
                problems.append(
                    f"state '{key}' of parameter '{label}' has shape {tuple(value.shape)} "
                    f"but the parameter has shape {tuple(param.shape)}"
                )
    if problems:
        raise ValueError(f"{owner}.load_state_dict: the saved state does not fit this optimizer:\n  - " + "\n  - ".join(problems))


def weight_decay_groups(module: nn.Module, *, weight_decay: float) -> list[dict[str, Any]]:
    """Two parameter groups: matrices (2+ dimensions) decayed, gains/biases/scalars not.

    Args:
        module: the model; its trainable parameters are split, tied ones once.
        weight_decay: the decay of the first group; the second gets 0.

    Returns ``[{"params": [(name, p), ...], "weight_decay": weight_decay},
    {"params": [...], "weight_decay": 0.0}]``, empty groups left out. Pass it to
    :class:`AdamW` or :class:`ShardedAdamW` instead of the module.

    Example::

        opt = AdamW(weight_decay_groups(model, weight_decay=0.1), lr=3e-4)
    """
    named = named_trainable(module)
    groups = [
        {"params": [(n, p) for n, p in named if p.dim() >= 2], "weight_decay": weight_decay},
        {"params": [(n, p) for n, p in named if p.dim() < 2], "weight_decay": 0.0},
    ]
    return [group for group in groups if group["params"]]
