"""jaxtyping over numpy arrays, and a `Float` of the user's own, annotate parameters that are not
tensors: tyr leaves them as they are, even when the body rebinds them.

Found on lucidrains/e2-tts-pytorch and in numpy preprocessing code next to torch models.
"""

import jaxtyping
import numpy as np
from jaxtyping import Float, Int
from torch import Tensor


def normalize(x: Float[np.ndarray, "b n"], idx: Int[np.ndarray, " b"]) -> np.ndarray:
    x = x - x.mean(axis=0)
    idx = idx + 1
    return x[idx]


class TorchTyping:
    def __init__(self, abstract_dtype: object) -> None:
        self.abstract_dtype = abstract_dtype

    def __getitem__(self, shapes: str) -> object:
        return self.abstract_dtype[Tensor, shapes]  # type: ignore[index]


OwnFloat = TorchTyping(jaxtyping.Float)


def masked_mean(t: OwnFloat["b n d"]) -> Tensor:  # type: ignore[valid-type]
    t = t * 2
    return t.mean(dim=1)


def mypy_own_error(x: Float[np.ndarray, "b n"]) -> int:
    x = x * 2
    return x.shape
