"""tyr: shape-typed deep learning for PyTorch.

One annotation, `Tensor[B, T, 768]`, is checked by mypy (with `tyr.mypy_plugin`)
and at call boundaries at runtime (`@checked`, or `install_import_hook`).

The public names are loaded on first use, so that mypy, loading the plugin
(`tyr.mypy_plugin`), does not import torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tyr._annotations import Bool as Bool
    from tyr._annotations import Complex as Complex
    from tyr._annotations import DTypeRule as DTypeRule
    from tyr._annotations import Float as Float
    from tyr._annotations import Integer as Integer
    from tyr._checked import checked as checked
    from tyr._config import checking as checking
    from tyr._config import checking_enabled as checking_enabled
    from tyr._config import set_checking as set_checking
    from tyr._errors import AnnotationError as AnnotationError
    from tyr._errors import ShapeError as ShapeError
    from tyr._import_hook import install_import_hook as install_import_hook
    from tyr._static import DimName as Dim
    from tyr._static import Tensor as Tensor

_HOMES = {
    "AnnotationError": "tyr._errors",
    "Bool": "tyr._annotations",
    "Complex": "tyr._annotations",
    "DTypeRule": "tyr._annotations",
    "Dim": "tyr._annotations",
    "Float": "tyr._annotations",
    "Integer": "tyr._annotations",
    "ShapeError": "tyr._errors",
    "Tensor": "tyr._annotations",
    "checked": "tyr._checked",
    "checking": "tyr._config",
    "checking_enabled": "tyr._config",
    "install_import_hook": "tyr._import_hook",
    "set_checking": "tyr._config",
}

__all__ = [
    "AnnotationError",
    "Bool",
    "Complex",
    "DTypeRule",
    "Dim",
    "Float",
    "Integer",
    "ShapeError",
    "Tensor",
    "checked",
    "checking",
    "checking_enabled",
    "install_import_hook",
    "set_checking",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        try:  # a submodule: `tyr.tree`, `tyr.data`, ...
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'tyr' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
