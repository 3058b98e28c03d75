# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/sparse.py (torch 2.13): `Embedding[Num, Dim]` is generic in its sizes,
# `EmbeddingBag[Num, Dim, Mode, IncludeLastOffset]` in its sizes and the options that shape its bags.
#
# The tyr mypy plugin binds them from `nn.Embedding(num_embeddings, embedding_dim)`
# and routes `embedding(idx)` to the `F.embedding` shape rule (`bag(idx, offsets)` to
# `F.embedding_bag`'s).

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor

from .module import Module

__all__ = ["Embedding", "EmbeddingBag"]

_Num = TypeVar("_Num", covariant=True, default=Any)
_Dim = TypeVar("_Dim", covariant=True, default=Any)
_Mode = TypeVar("_Mode", covariant=True, default=Any)
_IncludeLast = TypeVar("_IncludeLast", covariant=True, default=Any)

class Embedding(Module, Generic[_Num, _Dim]):
    __constants__: list[str]
    num_embeddings: int
    embedding_dim: int
    padding_idx: int | None
    max_norm: float | None
    norm_type: float
    scale_grad_by_freq: bool
    weight: Tensor[_Num, _Dim]
    freeze: bool
    sparse: bool
    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device=None,
        dtype=None,
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def _fill_padding_idx_with_zero(self) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
    @classmethod
    def from_pretrained(
        cls,
        embeddings,
        freeze=True,
        padding_idx=None,
        max_norm=None,
        norm_type=2.0,
        scale_grad_by_freq=False,
        sparse=False,
    ): ...

class EmbeddingBag(Module, Generic[_Num, _Dim, _Mode, _IncludeLast]):
    __constants__: list[str]
    num_embeddings: int
    embedding_dim: int
    max_norm: float | None
    norm_type: float
    scale_grad_by_freq: bool
    weight: Tensor[_Num, _Dim]
    mode: str
    sparse: bool
    include_last_offset: bool
    padding_idx: int | None
    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight: Tensor | None = None,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
        device=None,
        dtype=None,
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def _fill_padding_idx_with_zero(self) -> None: ...
    def forward(
        self, input: Tensor, offsets: Tensor | None = None, per_sample_weights: Tensor | None = None
    ) -> Tensor: ...
    def extra_repr(self) -> str: ...
    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
    ) -> EmbeddingBag: ...
