"""AdamW with its state sharded across ``torch.distributed`` ranks (ZeRO stage 1).

Every rank holds the whole model but only ``1 / world_size`` of the optimizer
state. Each parameter group is laid out as one flat vector (parameters in group
order, zero-padded to a multiple of the world size) and cut into equal
contiguous shards; rank ``r`` owns shard ``r``. One step is:

1. reduce-scatter the flat gradients: rank ``r`` receives the sum over ranks of
   its shard, divided by ``world_size`` (the data-parallel mean);
2. optionally clip by the global gradient norm (one all-reduce of a scalar);
3. run AdamW on the owned shard of parameters with the owned shard of state;
4. all-gather the updated shards, so every rank has the new parameters.

This replaces the gradient all-reduce of DDP: do not also wrap the model in
``DistributedDataParallel``. Because the per-element arithmetic is exactly
:func:`tyr.optim.adamw.adamw_update_`, the result equals all-reducing the mean
gradient and stepping :class:`tyr.optim.AdamW` (bit for bit without clipping;
with clipping the norm is summed in another order). Without an initialised
process group it runs as plain AdamW on one rank.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch
import torch.distributed as dist

from tyr.optim._base import ClosureStep
from tyr.optim._params import Params, param_groups
from tyr.optim.adamw import _check_hyperparameters, adamw_update_


class ShardedAdamW(ClosureStep):
    """AdamW whose state is split over the ranks of a process group (ZeRO-1).

    Args:
        params: a module (its trainable parameters), tensors, ``(name, tensor)``
            pairs or parameter groups. Every rank must pass the same parameters in
            the same order; all tensors of one group must share dtype and device.
        lr: learning rate. Default 1e-3.
        betas: ``(beta1, beta2)``. Default (0.9, 0.999).
        eps: added to the denominator. Default 1e-8.
        weight_decay: decoupled weight decay. Default 1e-2.
        max_grad_norm: clip the mean gradient to this global L2 norm before the
            update (``None``: no clipping). The norm before clipping is kept in
            :attr:`last_grad_norm`. Default None.
        process_group: the ranks that share the work. Default: the world.

    A parameter without a gradient counts as a zero gradient (its decay and
    moments still advance), unlike :class:`AdamW`, which skips it.
    ``step()``, ``state_dict()`` and ``load_state_dict()`` are collective or
    rank-specific: call them on every rank. :attr:`is_sharded` tells checkpoints to
    save one state per rank.

    Example::

        dist.init_process_group("gloo")
        opt = ShardedAdamW(model, lr=3e-4, max_grad_norm=1.0)
        loss.backward(); opt.step(); opt.zero_grad()
    """

    is_sharded = True

    def __init__(
        self,
        params: Params,
        *,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        max_grad_norm: float | None = None,
        process_group: dist.ProcessGroup | None = None,
    ) -> None:
        _check_hyperparameters("ShardedAdamW", lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
        if max_grad_norm is not None and max_grad_norm <= 0:
            raise ValueError(f"ShardedAdamW: max_grad_norm must be > 0 or None, got {max_grad_norm}.")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay}
        super().__init__(param_groups(params, owner="ShardedAdamW"), defaults)
        self.max_grad_norm = max_grad_norm
        self.process_group = process_group
        distributed = dist.is_available() and dist.is_initialized()
        self.world_size = dist.get_world_size(process_group) if distributed else 1
        self.rank = dist.get_rank(process_group) if distributed else 0
        self.last_grad_norm: torch.Tensor | None = None
        self._shards: list[dict[str, Any]] = []
        for index, group in enumerate(self.param_groups):
            tensors = group["params"]
            kinds = {(t.dtype, t.device) for t in tensors}
            if len(kinds) > 1:
                raise ValueError(
                    f"ShardedAdamW: group {index} mixes dtypes/devices {sorted(map(str, kinds))}; "
                    "each group is one flat buffer, so split it into one group per dtype and device."
                )
            numel = sum(t.numel() for t in tensors)
            shard = -(-numel // self.world_size)  # ceil
            self._shards.append({"numel": numel, "shard_numel": shard, "step": 0})

    def _flat_grad(self, group: dict[str, Any], shard: int) -> torch.Tensor:
        first = group["params"][0]
        flat = torch.zeros(shard * self.world_size, dtype=first.dtype, device=first.device)
        offset = 0
        for param in group["params"]:
            if param.grad is not None:
                flat[offset : offset + param.numel()].copy_(param.grad.reshape(-1))
            offset += param.numel()
        return flat

    def _owned_params(self, group: dict[str, Any], shard: int) -> torch.Tensor:
        """This rank's shard of the group's flat parameter vector (a copy; zero padding)."""
        first = group["params"][0]
        owned = torch.zeros(shard, dtype=first.dtype, device=first.device)
        start, end = self.rank * shard, (self.rank + 1) * shard
        offset = 0
        for param in group["params"]:
            lo, hi = max(start, offset), min(end, offset + param.numel())
            if lo < hi:
                owned[lo - start : hi - start].copy_(param.detach().reshape(-1)[lo - offset : hi - offset])
            offset += param.numel()
        return owned

    def _update(self) -> None:
        """Reduce-scatter gradients, update the owned shard, all-gather parameters (collective)."""
        grad_shards = []
        for group, info in zip(self.param_groups, self._shards):
            flat = self._flat_grad(group, info["shard_numel"])
            if self.world_size > 1:
                owned = torch.empty(info["shard_numel"], dtype=flat.dtype, device=flat.device)
                dist.reduce_scatter_single(owned, flat, op=dist.ReduceOp.SUM, group=self.process_group)
                owned.div_(self.world_size)
            else:
                owned = flat
            grad_shards.append(owned)
        if self.max_grad_norm is not None:
            self._clip(grad_shards, self.max_grad_norm)
        for group, info, grad in zip(self.param_groups, self._shards, grad_shards):
            shard = info["shard_numel"]
            if "exp_avg" not in info:
                info["exp_avg"] = torch.zeros_like(grad)
                info["exp_avg_sq"] = torch.zeros_like(grad)
            info["step"] += 1
            owned = self._owned_params(group, shard)
            beta1, beta2 = group["betas"]
            adamw_update_(
                owned,
                grad,
                info["exp_avg"],
                info["exp_avg_sq"],
                step=info["step"],
                lr=group["lr"],
                beta1=beta1,
                beta2=beta2,
                eps=group["eps"],
                weight_decay=group["weight_decay"],
            )
            if self.world_size > 1:
                full = torch.empty(shard * self.world_size, dtype=owned.dtype, device=owned.device)
                dist.all_gather_single(full, owned, group=self.process_group)
            else:
                full = owned
            offset = 0
            for param in group["params"]:
                param.copy_(full[offset : offset + param.numel()].view_as(param))
                offset += param.numel()

    def _clip(self, grad_shards: list[torch.Tensor], max_norm: float) -> None:
        squares = torch.stack([g.float().pow(2).sum() for g in grad_shards]).sum()
        if self.world_size > 1:
            dist.all_reduce(squares, op=dist.ReduceOp.SUM, group=self.process_group)
        norm = squares.sqrt()
        self.last_grad_norm = norm
        coefficient = torch.clamp(max_norm / (norm + 1e-6), max=1.0)
        for grad in grad_shards:
            grad.mul_(coefficient.to(grad.dtype))

    def state_dict(self) -> dict[str, Any]:
        """This rank's shard of the state plus the hyperparameters (rank-specific)."""
        groups = []
        index = 0
        for group in self.param_groups:
            saved = {key: value for key, value in group.items() if key != "params"}
            saved["params"] = list(range(index, index + len(group["params"])))
            index += len(group["params"])
            groups.append(saved)
        state = {
            number: {key: info[key] for key in ("step", "exp_avg", "exp_avg_sq") if key in info}
            for number, info in enumerate(self._shards)
        }
        return {
            "state": state,
            "param_groups": groups,
            "sharding": {
                "world_size": self.world_size,
                "rank": self.rank,
                "numel": [info["numel"] for info in self._shards],
            },
        }

    def load_state_dict(self, state_dict: Mapping[str, Any]) -> None:
        """Load this rank's :meth:`state_dict`; ValueError says exactly what does not fit."""
        sharding = state_dict.get("sharding")
        if not isinstance(sharding, Mapping):
            raise ValueError(
                "ShardedAdamW.load_state_dict: the state has no 'sharding' entry; it was not "
                "written by ShardedAdamW.state_dict()."
            )
        problems = []
        if (sharding["world_size"], sharding["rank"]) != (self.world_size, self.rank):
            problems.append(
                f"it is the shard of rank {sharding['rank']} of {sharding['world_size']} ranks, but this "
                f"is rank {self.rank} of {self.world_size} (resume with the same world size)"
            )
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            problems.append(
                f"it has {len(saved_groups)} parameter groups, this optimizer has {len(self.param_groups)}"
            )
        else:
            for number, (saved, group, info, numel) in enumerate(
                zip(saved_groups, self.param_groups, self._shards, sharding["numel"])
            ):
                names, saved_names = group.get("param_names"), saved.get("param_names")
                if names is not None and saved_names is not None and list(names) != list(saved_names):
                    only_saved = [n for n in saved_names if n not in names]
                    only_here = [n for n in names if n not in saved_names]
                    problems.append(
                        f"group {number} holds different parameters (saved only: {only_saved}; here only: {only_here})"
                    )
                elif numel != info["numel"]:
                    problems.append(
                        f"group {number} has {numel} elements in the saved state but {info['numel']} here"
                    )
        if problems:
            raise ValueError(
                "ShardedAdamW.load_state_dict: the saved state does not fit this optimizer:\n  - "
                + "\n  - ".join(problems)
            )
        for group, saved in zip(self.param_groups, saved_groups):
            for key, value in saved.items():
                if key not in ("params", "param_names"):
                    group[key] = value
        for number, info in enumerate(self._shards):
            saved_state = state_dict["state"].get(number, {})
            info["step"] = int(saved_state.get("step", 0))
            for key in ("exp_avg", "exp_avg_sq"):
                if key in saved_state:
                    first = self.param_groups[number]["params"][0]
                    info[key] = saved_state[key].to(dtype=first.dtype, device=first.device).clone()
                else:
                    info.pop(key, None)
