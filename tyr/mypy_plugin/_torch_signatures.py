"""Arguments torch accepts but its own annotations refuse.

tyr checks these calls' shapes with rules that take the argument (`shape_rules.conv`'s adaptive
pools keep a dim whose output size is None, as torch does); refused by the annotation, correct
code would still be an error.  The signature is widened for that argument alone.
"""

from __future__ import annotations

from mypy.plugin import FunctionSigContext
from mypy.types import FunctionLike, NoneType, Type, UnionType

WIDENED: dict[str, str] = {
    f"torch.nn.functional.{name}": "output_size"
    for name in (
        "adaptive_max_pool1d",
        "adaptive_max_pool2d",
        "adaptive_max_pool3d",
        "adaptive_max_pool1d_with_indices",
        "adaptive_max_pool2d_with_indices",
        "adaptive_max_pool3d_with_indices",
    )
}
"""For each function, the output size argument that takes `int | None | Sequence[int | None]`
(None keeps the input's size)."""


def widened_signature(ctx: FunctionSigContext, fullname: str) -> FunctionLike:
    """The call's signature (an item of an overload: mypy asks for each) with `WIDENED`'s argument."""
    signature = ctx.default_signature
    wanted = WIDENED[fullname]
    types = [_optional_sizes(ctx) if name == wanted else t for name, t in zip(signature.arg_names, signature.arg_types)]
    return signature.copy_modified(arg_types=types)


def _optional_sizes(ctx: FunctionSigContext) -> Type:
    size = ctx.api.named_generic_type("builtins.int", [])
    optional = UnionType([size, NoneType()])
    return UnionType([size, NoneType(), ctx.api.named_generic_type("typing.Sequence", [optional])])
