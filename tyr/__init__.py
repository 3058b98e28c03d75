"""tyr: shape-typed deep learning for PyTorch.

One annotation, `Tensor[B, T, 768]`, is checked by mypy (with `tyr.mypy_plugin`)
and at call boundaries at runtime (`@checked`, or `install_import_hook`).
"""

from typing import TYPE_CHECKING

from tyr._annotations import Bool, Complex, DTypeRule, Float, Integer
from tyr._checked import checked
from tyr._config import checking, checking_enabled, set_checking
from tyr._errors import AnnotationError, ShapeError
from tyr._import_hook import install_import_hook

if TYPE_CHECKING:
    from tyr._static import Dim as Dim
    from tyr._static import Tensor as Tensor
else:
    from tyr._annotations import Dim, Tensor

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
