"""Optimizers for tyr trainers.

- :class:`AdamW` — bit-identical to ``torch.optim.AdamW(foreach=False)``.
- :class:`Muon` — Newton–Schulz-orthogonalised momentum for hidden matrices, AdamW
  for embeddings, head and gains; the split is decided by parameter role
  (:func:`role_param_groups`: a learning rate per role), the momentum can warm up.
- :class:`DiLoCo` — H local steps of an inner optimizer, then the averaged weight change applied
  by outer Nesterov SGD (one all-reduce per round; streaming fragments optional).
- :class:`ShardedAdamW` — AdamW with state sharded over ``torch.distributed`` ranks (ZeRO-1).
- :func:`clip_grad_norm_` / :func:`grad_norm` — global-norm gradient clipping.

All accept a module directly (its trainable parameters, tied ones once) and
reject frozen tensors; :func:`weight_decay_groups` splits a module so that only
matrices are decayed.
"""

from tyr.optim._params import Params, weight_decay_groups
from tyr.optim.adamw import AdamW, adamw_update_
from tyr.optim.diloco import DiLoCo, all_reduce_mean
from tyr.optim.clip import clip_grad_norm_, grad_norm
from tyr.optim.muon import (
    CUBIC,
    QUINTIC,
    Muon,
    Role,
    is_embedding_or_head,
    muon_param_groups,
    orthogonalize,
    role_param_groups,
)
from tyr.optim.sharded import ShardedAdamW

__all__ = [
    "CUBIC",
    "QUINTIC",
    "AdamW",
    "DiLoCo",
    "Muon",
    "Params",
    "Role",
    "ShardedAdamW",
    "adamw_update_",
    "all_reduce_mean",
    "clip_grad_norm_",
    "grad_norm",
    "is_embedding_or_head",
    "muon_param_groups",
    "orthogonalize",
    "role_param_groups",
    "weight_decay_groups",
]
