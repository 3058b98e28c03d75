"""`self.register_buffer("pe", value)` in a class that declares `pe: Tensor[T, D]`.

A buffer is an attribute that `register_buffer` assigns: the class declares its type for
the reads (`self.pe[:t]`), the call gives its value.  Written as `self.pe = value`, mypy
would check the value against the declaration; through `register_buffer` it is a `str`
and a `Tensor` to mypy.  So a value that provably does not fit what the class declares
is the assignment's error, reported on the call.  An attribute the class does not
declare, a name that is no string constant, a declaration without a tensor (an inferred
`self.pe = None` before the call) or `None` given as the value: nothing to check.
"""

from __future__ import annotations

from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.messages import format_type
from mypy.nodes import StrExpr, Var
from mypy.plugin import MethodContext
from mypy.types import Instance, Type, get_proper_type

from tyr.mypy_plugin import _errors, _names
from tyr.mypy_plugin._args import one_argument
from tyr.mypy_plugin._trials import fail_call
from tyr.mypy_plugin._types import Lookup, Scope
from tyr.shape_rules.core import same_shape


def register_buffer_hook(ctx: MethodContext, lookup: Lookup) -> Type:
    name, value = one_argument(ctx, "name"), one_argument(ctx, "tensor")
    receiver = get_proper_type(ctx.type)
    if name is None or value is None or not isinstance(name[0], StrExpr) or not isinstance(receiver, Instance):
        return ctx.default_return_type
    node = receiver.type.get(name[0].value)
    var = node.node if node is not None else None
    if not isinstance(var, Var) or var.type is None or var.is_inferred or var.info is None:
        return ctx.default_return_type
    declared = get_proper_type(expand_type_by_instance(var.type, map_instance_to_supertype(receiver, var.info)))
    given = get_proper_type(value[1])
    if not (isinstance(declared, Instance) and declared.type.has_base(_names.TENSOR)):
        return ctx.default_return_type
    if not (isinstance(given, Instance) and given.type.has_base(_names.TENSOR)) or not _differ(given, declared, lookup):
        return ctx.default_return_type
    options = ctx.api.options
    fail_call(
        ctx.api,
        f'register_buffer: the buffer "{name[0].value}" is declared {format_type(declared, options)}, '
        f"but the tensor given is {format_type(given, options)}",
        ctx.context,
        _errors.SHAPE,
    )
    return ctx.default_return_type


def _differ(given: Type, declared: Type, lookup: Lookup) -> bool:
    """Whether two tensor types' shapes provably differ: a rank, or a size (compared as sizes are, SHAPES.md §6:
    `(D//H + 1)//2` of `arange(0, d // h, 2)` is the `D//(2*H)` declared)."""
    scope = Scope(lookup)
    a, b = scope.tensor_shape(given), scope.tensor_shape(declared)
    return a is not None and b is not None and same_shape(a, b) is False
