"""jaxtyping's annotations on torch tensors (`Float[torch.Tensor, "b c"]`), read as tyr's runtime hints.

`tyr.checked` checks them with jaxtyping's meaning: the dims of one call's
arguments and return value share their names, a dtype class (`Float`, `Int`,
`Shaped`, `UInt8`, ...) accepts the dtypes whose names jaxtyping lists for it,
and a dim that is an expression (`"n+1"`, `"min(a,b)"`) is evaluated the way
jaxtyping evaluates it (`evaluate`).  jaxtyping is never imported here: an
annotation can only be one of its arrays if the program imported it.  Arrays of
other libraries (numpy, jax) are left to beartype, as every hint tyr does not read.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys
from collections.abc import Mapping
from functools import lru_cache
from types import CodeType
from typing import Any

import torch

from tyr._annotations import (
    DimSpec,
    DTypeRule,
    Evaluated,
    Fixed,
    Named,
    ShapeSpec,
    TensorHint,
    Variadic,
    Wildcard,
)
from tyr._errors import AnnotationError
from tyr._jaxtyping_dims import (
    AnonymousDim,
    FixedDim,
    JaxDim,
    JaxShapeError,
    NamedDim,
    SymbolicDim,
    VariadicDim,
    parse_dims,
)


def read_jaxtyping(hint: object) -> TensorHint | None:
    """The hint for a jaxtyping array of torch tensors; None for anything else."""
    jaxtyping = sys.modules.get("jaxtyping")
    if jaxtyping is None or not isinstance(hint, type) or not issubclass(hint, jaxtyping.AbstractArray):
        return None
    array_type = getattr(hint, "array_type", None)
    if not (isinstance(array_type, type) and issubclass(array_type, torch.Tensor)):
        return None
    return _read(hint)


@lru_cache(maxsize=None)
def _read(hint: Any) -> TensorHint:
    try:
        dims = tuple(_dim_spec(d) for d in parse_dims(hint.dim_str))
    except JaxShapeError as err:
        raise AnnotationError(f"{hint.__name__}: {err}") from None
    return TensorHint(ShapeSpec(dims), _dtype_rule(hint.dtype.__name__, hint.dtypes))


def _dim_spec(dim: JaxDim) -> DimSpec:
    if isinstance(dim, NamedDim):
        return Named(dim.name, dim.broadcast)
    if isinstance(dim, FixedDim):
        return Fixed(dim.size, dim.broadcast)
    if isinstance(dim, SymbolicDim):
        return Evaluated(dim.text, dim.broadcast)
    if isinstance(dim, VariadicDim):
        return Variadic(dim.name, dim.broadcast)
    assert isinstance(dim, AnonymousDim)
    return Wildcard()


# -- dtypes ---------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _torch_dtypes() -> dict[str, torch.dtype]:
    """Every torch dtype by the name jaxtyping compares (`float32` for `torch.float32`)."""
    found = (getattr(torch, name, None) for name in dir(torch))
    return {repr(d).rsplit(".", 1)[-1]: d for d in found if isinstance(d, torch.dtype)}


def _dtype_rule(name: str, dtypes: object) -> DTypeRule | None:
    """The torch dtypes a jaxtyping dtype class accepts (None for `Shaped`: any dtype)."""
    if not isinstance(dtypes, (tuple, list)):
        return None
    accepted = frozenset(
        dtype
        for dtype_name, dtype in _torch_dtypes().items()
        if any(_dtype_matches(pattern, dtype_name) for pattern in dtypes)
    )
    return DTypeRule(name, accepted)


def _dtype_matches(pattern: object, dtype_name: str) -> bool:
    """jaxtyping's test: a string names the dtype exactly, a regex matches its start."""
    if isinstance(pattern, str):
        return pattern == dtype_name
    return isinstance(pattern, re.Pattern) and pattern.match(dtype_name) is not None


# -- expressions ----------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def expression_names(text: str) -> frozenset[str]:
    """The names an expression dim reads that are not Python's builtins (the sizes it needs)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return frozenset()
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return frozenset(n for n in names if not hasattr(builtins, n))


@lru_cache(maxsize=1024)
def _compiled(text: str) -> CodeType:
    return compile(text.strip(), f"<jaxtyping dim {text!r}>", "eval")


def evaluate_text(text: str, sizes: Mapping[str, int]) -> Any:
    """A dimension's text evaluated over the sizes as Python computes it (`(7 + 1)//2` is 4)."""
    return eval(_compiled(text), dict(sizes))  # noqa: S307 - the annotation's expression, as jaxtyping runs it


def evaluate(dim: Evaluated, sizes: Mapping[str, int], arguments: Mapping[str, Any]) -> Any:
    """An expression dim's value: `{arg}` replaced by the argument's value, then evaluated over the sizes."""
    text = dim.text
    if "{" in text:
        text = eval("f" + repr(text), dict(arguments))  # noqa: S307 - jaxtyping's own f-string dims
    try:
        return evaluate_text(text, sizes)
    except NameError as err:
        raise AnnotationError(
            f'cannot evaluate the dimension "{dim.text}": {err}; its names must be bound by other dimensions'
        ) from None


class _Rename(ast.NodeTransformer):
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.names.get(node.id, node.id), node.ctx)


def python_expression(text: str, names: Mapping[str, str]) -> str:
    """An expression dim as Python source, its size names renamed (for the compiled checker)."""
    tree = ast.parse(text.strip(), mode="eval")
    return ast.unparse(_Rename(names).visit(tree))
