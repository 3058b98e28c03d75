# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/loss.py (torch 2.13): the losses carry their reduction, and the
# class-weighted ones their weight.
#
# `MSELoss[Reduction]` (a str literal type: `Literal["mean"]`, the default, `"sum"`, `"none"`;
# unknown where the legacy `size_average` / `reduce` are given), `CrossEntropyLoss[Reduction,
# Weight]` and `NLLLoss[Reduction, Weight]` (the weight's tensor type, `None` without one),
# `MultiLabelSoftMarginLoss[Reduction, Weight]`, `MultiMarginLoss[Reduction, Weight, P]`,
# `TripletMarginLoss[Reduction, Swap]` are bound by the tyr mypy plugin from the constructor's
# arguments; `loss(input, target)` goes to the shape rule of the functional form (`F.mse_loss`,
# `F.cross_entropy`, ...) with them.

from collections.abc import Callable
from typing import Any, Generic

from typing_extensions import TypeVar, deprecated

from torch import Tensor

from .linear import Linear
from .linear_cross_entropy_options import LinearCrossEntropyOptions
from .module import Module

__all__ = [
    "L1Loss",
    "NLLLoss",
    "NLLLoss2d",
    "PoissonNLLLoss",
    "GaussianNLLLoss",
    "KLDivLoss",
    "MSELoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "HingeEmbeddingLoss",
    "MultiLabelMarginLoss",
    "SmoothL1Loss",
    "HuberLoss",
    "SoftMarginLoss",
    "CrossEntropyLoss",
    "LinearCrossEntropyLoss",
    "MultiLabelSoftMarginLoss",
    "CosineEmbeddingLoss",
    "MarginRankingLoss",
    "MultiMarginLoss",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
    "CTCLoss",
]

_Reduction = TypeVar("_Reduction", covariant=True, default=Any)
_Weight = TypeVar("_Weight", covariant=True, default=Any)
_P = TypeVar("_P", covariant=True, default=Any)
_Swap = TypeVar("_Swap", covariant=True, default=Any)

class _Loss(Module, Generic[_Reduction]):
    reduction: str
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None: ...

class _WeightedLoss(_Loss[_Reduction]):
    weight: Tensor | None
    def __init__(
        self, weight: Tensor | None = None, size_average=None, reduce=None, reduction: str = "mean"
    ) -> None: ...

class L1Loss(_Loss[_Reduction]):
    __constants__: list[str]
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class NLLLoss(_WeightedLoss[_Reduction], Generic[_Reduction, _Weight]):
    __constants__: list[str]
    ignore_index: int
    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
    ) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

@deprecated(
    "`NLLLoss2d` has been deprecated. "
    "Please use `NLLLoss` instead as a drop-in replacement and see "
    "https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.",
    category=FutureWarning,
)
class NLLLoss2d(NLLLoss[_Reduction, _Weight]):
    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
    ) -> None: ...

class PoissonNLLLoss(_Loss[_Reduction]):
    __constants__: list[str]
    log_input: bool
    full: bool
    eps: float
    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        size_average=None,
        eps: float = 1e-08,
        reduce=None,
        reduction: str = "mean",
    ) -> None: ...
    def forward(self, log_input: Tensor, target: Tensor) -> Tensor: ...

class GaussianNLLLoss(_Loss[_Reduction]):
    __constants__: list[str]
    full: bool
    eps: float
    def __init__(self, *, full: bool = False, eps: float = 1e-06, reduction: str = "mean") -> None: ...
    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor: ...

class KLDivLoss(_Loss[_Reduction]):
    __constants__: list[str]
    log_target: bool
    def __init__(
        self, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False
    ) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class MSELoss(_Loss[_Reduction]):
    __constants__: list[str]
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class BCELoss(_WeightedLoss[_Reduction]):
    __constants__: list[str]
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class BCEWithLogitsLoss(_Loss[_Reduction]):
    weight: Tensor | None
    pos_weight: Tensor | None
    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class HingeEmbeddingLoss(_Loss[_Reduction]):
    __constants__: list[str]
    margin: float
    def __init__(self, margin: float = 1.0, size_average=None, reduce=None, reduction: str = "mean") -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class MultiLabelMarginLoss(_Loss[_Reduction]):
    __constants__: list[str]
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class SmoothL1Loss(_Loss[_Reduction]):
    __constants__: list[str]
    beta: float
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class HuberLoss(_Loss[_Reduction]):
    __constants__: list[str]
    delta: float
    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class SoftMarginLoss(_Loss[_Reduction]):
    __constants__: list[str]
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class CrossEntropyLoss(_WeightedLoss[_Reduction], Generic[_Reduction, _Weight]):
    __constants__: list[str]
    ignore_index: int
    label_smoothing: float
    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class LinearCrossEntropyLoss(_WeightedLoss[_Reduction]):
    __constants__: list[str]
    num_classes: int
    out_features: tuple[int, ...]
    ignore_index: int | None
    label_smoothing: float
    linear: Linear
    options: LinearCrossEntropyOptions | None
    def __init__(
        self,
        in_features: int,
        num_classes: int,
        *,
        out_features: tuple[int, ...] = (),
        bias: bool = False,
        device=None,
        dtype=None,
        reduction: str = "mean",
        weight: Tensor | None = None,
        ignore_index: int | None = None,
        label_smoothing: float = 0.0,
        options: LinearCrossEntropyOptions | None = None,
    ) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class MultiLabelSoftMarginLoss(_WeightedLoss[_Reduction], Generic[_Reduction, _Weight]):
    __constants__: list[str]
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class CosineEmbeddingLoss(_Loss[_Reduction]):
    __constants__: list[str]
    margin: float
    def __init__(self, margin: float = 0.0, size_average=None, reduce=None, reduction: str = "mean") -> None: ...
    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor: ...

class MarginRankingLoss(_Loss[_Reduction]):
    __constants__: list[str]
    margin: float
    def __init__(self, margin: float = 0.0, size_average=None, reduce=None, reduction: str = "mean") -> None: ...
    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor: ...

class MultiMarginLoss(_WeightedLoss[_Reduction], Generic[_Reduction, _Weight, _P]):
    __constants__: list[str]
    margin: float
    p: int
    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight: Tensor | None = None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None: ...
    def forward(self, input: Tensor, target: Tensor) -> Tensor: ...

class TripletMarginLoss(_Loss[_Reduction], Generic[_Reduction, _Swap]):
    __constants__: list[str]
    margin: float
    p: float
    eps: float
    swap: bool
    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        eps: float = 1e-06,
        swap: bool = False,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None: ...
    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor: ...

class TripletMarginWithDistanceLoss(_Loss[_Reduction]):
    __constants__: list[str]
    distance_function: Callable[[Tensor, Tensor], Tensor] | None
    margin: float
    swap: bool
    def __init__(
        self,
        *,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
    ) -> None: ...
    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor: ...

class CTCLoss(_Loss[_Reduction]):
    __constants__: list[str]
    blank: int
    zero_infinity: bool
    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None: ...
    def forward(
        self, log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor
    ) -> Tensor: ...
