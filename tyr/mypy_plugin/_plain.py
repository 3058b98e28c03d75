"""What code without shapes sees: torch's own types wherever an inferred size would be an expected type.

tyr's stubs make `Tensor` and the sized `torch.nn` modules generic, and the plugin
gives sizes to code that never wrote one: `self.init_conv = nn.Conv2d(3, 64, 7,
padding=3)` is a `Conv2d[3, 64, 7, 1, 3, 1, 1]`.  Reading such a type is what tyr is
for.  But mypy also uses a type it inferred as the type *expected* of later values,
and there torch's classes accept what the generic ones refuse:

    self.init_conv = nn.Conv2d(channels, dim, patch_size, stride=patch_size)
    self.stem = nn.Sequential(conv, norm)   # after `self.stem = nn.Sequential(conv, norm, act)`
    blocks.append(nn.Sequential(*layers))   # `blocks` a list of other Sequentials

`loosen` gives such a type torch's view back: every tensor of unknown shape, every
sized module and container with `Any` type arguments (`Conv2d[Any, ...]`, which any
`Conv2d` is), a `Dim` an `int`.  The plugin applies it where a type is expected and
code has no shapes of its own: an attribute assigned again (its inferred type as the
target of an assignment) and the arguments of `list.append` & co.

`nn.ModuleList` is generic in its element type too, which is more than torch says:
iterating gives `Block` where torch gives `Module`.  tyr needs it only to call the
elements, so an `nn.ModuleList` keeps it only for elements whose call can give a shape
(`module_list_hook`); any other is torch's `ModuleList[Module]`.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import ARG_POS, ARG_STAR
from mypy.plugin import AttributeContext, FunctionContext, FunctionSigContext, MethodContext, MethodSigContext
from mypy.type_visitor import TypeTranslator
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeVarTupleType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from tyr.mypy_plugin import _names
from tyr.mypy_plugin._types import Lookup, Scope, mentions_shapes

# The torch modules whose classes tyr's stubs make generic (typed_stubs/torch-stubs); torch's
# own generic classes elsewhere (`DataLoader[T]`) keep their type arguments.
SIZED_MODULES = frozenset(
    {
        "torch._tensor",
        *(
            f"torch.nn.modules.{name}"
            for name in (
                "activation",
                "batchnorm",
                "container",
                "conv",
                "flatten",
                "linear",
                "normalization",
                "pooling",
                "sparse",
            )
        ),
    }
)

_ANY = AnyType(TypeOfAny.special_form)


def _is_sized_class(t: ProperType) -> bool:
    return isinstance(t, Instance) and bool(t.type.type_vars) and t.type.module_name in SIZED_MODULES


class _Loosener(TypeTranslator):
    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def visit_instance(self, t: Instance, /) -> Type:
        if _is_sized_class(t):
            return t.copy_modified(args=[_any_argument(v, self.scope) for v in t.type.defn.type_vars])
        if t.type.fullname == _names.DIM:
            return self.scope.instance(_names.INT)
        return super().visit_instance(t)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        if t.is_recursive:
            return t
        return get_proper_type(t).accept(self)


def _any_argument(var: object, scope: Scope) -> Type:
    if isinstance(var, TypeVarTupleType):
        return UnpackType(scope.instance(_names.TUPLE, [_ANY]))
    return _ANY


def loosen(typ: Type, scope: Scope) -> Type:
    """`typ` as torch types it: sized classes with `Any` type arguments, `Dim`s as `int`."""
    return typ.accept(_Loosener(scope))


def has_sizes(typ: Type, depth: int = 0) -> bool:
    """Whether `loosen` would change `typ`: it holds a sized class with a type argument other than `Any`."""
    if depth > 8:
        return False
    t = get_proper_type(typ)
    if isinstance(t, Instance):
        if _is_sized_class(t):
            return _has_specific_arguments(t)
        if t.type.fullname == _names.DIM:
            return True
        return any(has_sizes(arg, depth + 1) for arg in t.args)
    if isinstance(t, (UnionType, TupleType)):
        return any(has_sizes(item, depth + 1) for item in t.items)
    return False


def _has_specific_arguments(t: Instance) -> bool:
    """Whether a sized class has a type argument other than `Any` (`Sequential[()]`, no layers, has)."""
    variables = t.type.defn.type_vars
    if len(t.args) != len(variables):
        return True
    for arg, var in zip(t.args, variables):
        if isinstance(var, TypeVarTupleType):
            inner = get_proper_type(arg.type) if isinstance(arg, UnpackType) else None
            if not (isinstance(inner, Instance) and inner.type.fullname == _names.TUPLE and _is_any(inner.args[0])):
                return True
        elif not _is_any(arg):
            return True
    return False


def _is_any(t: Type) -> bool:
    return isinstance(get_proper_type(t), AnyType)


def assigned_attribute_hook(ctx: AttributeContext, lookup: Lookup) -> Type:
    """An attribute whose type mypy inferred, as the target of an assignment: any module of its class fits."""
    if not ctx.is_lvalue:
        return ctx.default_attr_type
    return loosen(ctx.default_attr_type, Scope(lookup))


CONTAINER_MUTATORS = frozenset(
    f"builtins.{name}"
    for name in (
        "list.append",
        "list.extend",
        "list.insert",
        "list.__setitem__",
        "list.__iadd__",
        "dict.__setitem__",
        "dict.update",
        "dict.setdefault",
        "set.add",
        "set.update",
    )
)


def container_mutation_hook(ctx: MethodSigContext, lookup: Lookup) -> CallableType:
    """`outs.append(x)` on a `list[Tensor[3]]` accepts a tensor of any shape, `blocks.append(m)` any module.

    mypy types a container by its first elements (`outs = [torch.zeros(3)]`), and code
    puts tensors of other shapes (modules of other sizes) in later; that is no error.
    """
    receiver = get_proper_type(ctx.type)
    signature = ctx.default_signature
    if not (isinstance(receiver, Instance) and any(has_sizes(arg) for arg in receiver.args)):
        return signature
    scope = Scope(lookup)
    return signature.copy_modified(arg_types=[loosen(t, scope) for t in signature.arg_types])


def module_list_hook(ctx: FunctionContext, lookup: Lookup, shaped_call: Callable[[Instance], bool]) -> Type:
    """`nn.ModuleList(blocks)`: `ModuleList[Block]` if calling a `Block` can give a shape, else `ModuleList[Module]`."""
    result = get_proper_type(ctx.default_return_type)
    if not (isinstance(result, Instance) and len(result.args) == 1):
        return ctx.default_return_type
    element = get_proper_type(result.args[0])
    if isinstance(element, Instance) and (shaped_call(element) or element.type.has_readable_member("__iter__")):
        return ctx.default_return_type  # a shape to keep, or a container to unpack (`for attn, ff in layers`)
    return result.copy_modified(args=[Scope(lookup).instance(_names.MODULE)])


def torch_when_unknown(hook: Callable[..., Type]) -> Callable[..., Type]:
    """`hook` (a method or function hook), except that where torch's result is `Any` (an untyped
    torch method, `x.split(...)`) and tyr's holds no shape, the result is torch's `Any`."""

    def run(ctx: FunctionContext | MethodContext, **bound: object) -> Type:
        result = hook(ctx, **bound)
        if isinstance(get_proper_type(ctx.default_return_type), AnyType) and not mentions_shapes(result):
            return ctx.default_return_type
        return result

    run.__name__ = hook.__name__
    return run


def sequential_signature_hook(ctx: FunctionSigContext, lookup: Lookup) -> CallableType:
    """`nn.Sequential(...)` is checked against torch's signature: `*args: Module` (or an `OrderedDict`).

    The stub's `*args: *Layers` would let mypy infer the layers, and mypy's inference of
    a variadic type gets an argument of an erroneous type wrong (`Too many arguments for
    "Sequential"` where torch's types say nothing); `sequential_hook` records the layers.
    """
    signature = ctx.default_signature
    scope = Scope(lookup)
    module = scope.instance(_names.MODULE)
    arg_types = [
        module if kind == ARG_STAR and isinstance(t, UnpackType) else t
        for t, kind in zip(signature.arg_types, signature.arg_kinds)
    ]
    return signature.copy_modified(arg_types=arg_types, ret_type=loosen(signature.ret_type, scope), variables=[])


def sequential_hook(ctx: FunctionContext) -> Type:
    """`nn.Sequential(a, b)` is `Sequential[A, B]`: its layers' types (unknown for `*layers` or an `OrderedDict`)."""
    result = get_proper_type(ctx.default_return_type)
    if not (isinstance(result, Instance) and ctx.callee_arg_names == ["args"] and ctx.arg_types):
        return ctx.default_return_type
    if any(kind != ARG_POS for kind in ctx.arg_kinds[0]):
        return ctx.default_return_type
    return result.copy_modified(args=list(ctx.arg_types[0]))
