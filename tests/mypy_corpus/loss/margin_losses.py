"""The other losses of `torch.nn.functional`: embedding, ranking and margin losses, Poisson and Gaussian NLL,
triplet losses.  `reduction="none"` keeps the per-item shape each loss has; the legacy `reduce` / `size_average`
flags count as for the other losses."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

N = TypeVar("N")
D = TypeVar("D")
C = TypeVar("C")


def pairs(x: Tensor[N, D], y: Tensor[N, D], t: Tensor[N], v: Tensor[D], s: Tensor[()]) -> None:
    reveal_type(F.cosine_embedding_loss(x, y, t, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.cosine_embedding_loss(v, v, s, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.cosine_embedding_loss(x, y, t))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.margin_ranking_loss(t, t, t, margin=0.5, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.margin_ranking_loss(x, y, x, reduce=False))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.hinge_embedding_loss(x, v, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.soft_margin_loss(x, v, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.poisson_nll_loss(x, y, log_input=False, full=True, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.poisson_nll_loss(x, y))  # N: Revealed type is "torch._tensor.Tensor[()]"
    F.cosine_embedding_loss(x, y, s)  # E: cosine_embedding_loss: input1 must be 1-d for a target (), not (N, D)  [tyr-shape]
    F.margin_ranking_loss(t, t, x)  # E: margin_ranking_loss: the tensors must have the same number of dims, got input1 1-d, input2 1-d, the target 2-d  [tyr-shape]
    F.soft_margin_loss(v, x)  # E: soft_margin_loss: shape (N, D) has more dimensions than the target (D,)  [tyr-shape]


def classes(x: Tensor[N, C], labels: Tensor[N], multi: Tensor[N, C], w: Tensor[C], one: Tensor[C]) -> None:
    reveal_type(F.multi_margin_loss(x, labels.long(), reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.multi_margin_loss(x, labels.long(), p=2, weight=w))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.multilabel_margin_loss(x, multi.long(), reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.multilabel_margin_loss(one, one.long(), reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.multilabel_soft_margin_loss(x, multi, weight=w, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    F.multi_margin_loss(x, multi.long())  # E: multi_margin_loss: the target must be 0-d or 1-d, not (N, C)  [tyr-shape]
    F.multi_margin_loss(x, labels.long(), p=3)  # E: multi_margin_loss: p must be 1 or 2, got 3  [tyr-shape]
    F.multilabel_margin_loss(x, labels.long())  # E: multilabel_margin_loss: the target must have shape (N, C), got (N,)  [tyr-shape]
    F.multilabel_soft_margin_loss(w[0], w[0])  # E: multilabel_soft_margin_loss: the input must have a class dim (its last), not a 0-d tensor  [tyr-shape]


def gaussian(mu: Tensor[N, D], target: Tensor[N, D], var: Tensor[N, D], per_row: Tensor[N], shared: Tensor[N, 1]) -> None:
    reveal_type(F.gaussian_nll_loss(mu, target, var, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.gaussian_nll_loss(mu, target, per_row, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.gaussian_nll_loss(mu, target, shared, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.gaussian_nll_loss(mu, target, 0.1, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N, D]"
    reveal_type(F.gaussian_nll_loss(mu, target, var))  # N: Revealed type is "torch._tensor.Tensor[()]"
    F.gaussian_nll_loss(mu, target, var[0])  # E: gaussian_nll_loss: var (D,) must have the input's shape (N, D), that without its last dim, or the input's with one dim of size 1  [tyr-shape]


def triplets(a: Tensor[N, D], p: Tensor[N, D], n: Tensor[N, D], v: Tensor[D]) -> None:
    reveal_type(F.triplet_margin_loss(a, p, n, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.triplet_margin_loss(a, p, n, swap=True))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.triplet_margin_with_distance_loss(a, p, n, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.triplet_margin_with_distance_loss(a, p, n, distance_function=F.cosine_similarity, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(F.triplet_margin_with_distance_loss(a, p, n, distance_function=F.cosine_similarity))  # N: Revealed type is "torch._tensor.Tensor[()]"
    F.triplet_margin_loss(a, p, v)  # E: triplet_margin_loss: the tensors must have the same number of dims, got the anchor 2-d, the positive 2-d, the negative 1-d  [tyr-shape]
    F.triplet_margin_loss(a, p, n, margin=0.0)  # E: triplet_margin_loss: the margin must be greater than 0, got 0.0  [tyr-shape]
