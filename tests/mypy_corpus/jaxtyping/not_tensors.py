"""jaxtyping annotations of other arrays, and `Annotated` that is not jaxtyping's, are left alone."""

from typing import Annotated, reveal_type

import numpy as np
import torch
from jaxtyping import Float
from torch import Tensor


def mean(x: Float[np.ndarray, "n d"]) -> Float[np.ndarray, "d"]:
    return np.asarray(x.sum(axis=0), dtype=np.float64)


def documented(x: Annotated[Tensor, "batch features"]) -> Annotated[Tensor, "the batch"]:
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    return x


mean(np.zeros((3, 2)))
documented(torch.randn(2, 2, 2))
