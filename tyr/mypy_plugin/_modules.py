"""`torch.nn` modules: sizes from the constructor into the type, and `module(x)` routed to `forward`.

* Constructing a sized torch module binds its type arguments from the arguments
  (`nn.Linear(784, 256)` is `Linear[784, 256]`, `nn.Conv2d(3, 16, 3, padding=1)`
  carries its channels and geometry); `SPECS` says which argument binds which
  type argument.
* `module(x)` is routed to the module's `forward`: for torch's modules, to the
  shape rule of the matching functional op (`nn.Linear` is `F.linear` with a
  weight of shape `(Out, In)`); for a user's module, to its annotated `forward`,
  bound like any shaped call (`_calls`), its class's size variables substituted by
  the instance's type arguments; `nn.Sequential` chains its layers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from mypy.argmap import map_actuals_to_formals
from mypy.expandtype import expand_type, freshen_function_type_vars
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import ARG_POS, Context, ListExpr, NameExpr, TupleExpr, TypeInfo
from mypy.plugin import (
    CheckerPluginInterface,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
)
from mypy.subtypes import find_member
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    LiteralType,
    NoneType,
    Overloaded,
    ProperType,
    TupleType,
    Type,
    TypeOfAny,
    TypeVarTupleType,
    UnpackType,
    get_proper_type,
    has_type_vars,
)

from tyr import shape_rules as rules
from tyr._symbolic import Expr, const
from tyr.mypy_plugin import _calls, _einops, _errors, _guards, _names
from tyr.mypy_plugin._args import MISSING, Actual, Call, NotKnown, is_int_like
from tyr.mypy_plugin._jaxtyping_names import listed
from tyr.mypy_plugin._rebinding import in_code_with_shapes
from tyr.mypy_plugin._types import UNKNOWN, Lookup, NotATensor, Scope, mentions_shapes, unknown_rank, unless_none
from tyr.shape_rules import MaybeShape, ShapeRuleError, Size, Variadic, nn_modules
from tyr.shape_rules import nn_functional as nnf
from tyr.shape_rules.recurrent import CellMode, Mode

_NN = "torch.nn.modules."

# -- constructors ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """How one type argument of a module class is read from a constructor argument."""

    names: tuple[str, ...]
    # "size": a size; "sizes": an int or sequence of sizes (a TypeVarTuple); "static": a constant; "type": an
    # argument's type (a loss's class weight, the layer a transformer stack clones)
    kind: str
    default: object = MISSING
    same_as: int | None = None  # a size that defaults to an earlier one (kdim to embed_dim)
    # arguments that, all given a literal False, leave the size unchecked by torch (unknown here):
    # a `BatchNorm2d(16, affine=False, track_running_stats=False)` has no weight and no running stats
    unused_without: tuple[str, ...] = ()
    # an argument that, unless given a literal True, leaves the size unchecked by torch: an
    # `InstanceNorm2d(16)` checks its channels only with `affine=True` (it warns otherwise)
    used_with: str | None = None
    # arguments that, given (and not None), make a constant unknown: a loss's legacy `size_average` /
    # `reduce` decide its reduction instead
    unknown_with: tuple[str, ...] = ()


def _size(
    *names: str,
    default: int | None = None,
    same_as: int | None = None,
    unused_without: tuple[str, ...] = (),
    used_with: str | None = None,
) -> Param:
    return Param(
        names,
        "size",
        MISSING if default is None else default,
        same_as=same_as,
        unused_without=unused_without,
        used_with=used_with,
    )


def _sizes(*names: str) -> Param:
    return Param(names, "sizes")


def _static(*names: str, default: object = MISSING, unknown_with: tuple[str, ...] = ()) -> Param:
    return Param(names, "static", default, unknown_with=unknown_with)


def _typed(*names: str) -> Param:
    """An argument whose type the module keeps (a loss's class weight): `None` where not given."""
    return Param(names, "type")


Forward = Callable[["Module", Sequence[Type]], Type]


@dataclass(frozen=True)
class Spec:
    params: tuple[Param, ...]
    forward: Forward


@dataclass
class Module:
    """A torch module instance whose class has a `Spec`: its type arguments, read as sizes and constants."""

    instance: Instance
    info: TypeInfo
    args: list[Type]
    scope: Scope

    def size(self, index: int) -> Size:
        return self.scope.size_of(self.args[index])

    def static(self, index: int) -> object:
        """A constant type argument as a Python value: an int, a tuple of ints (or sizes), a str, a bool, None."""
        return _static_value(self.args[index], self.scope)

    def int_or_ints(self, index: int) -> int | tuple[int, ...]:
        value = self.static(index)
        if isinstance(value, bool) or not (
            isinstance(value, int) or (isinstance(value, tuple) and all(type(v) is int for v in value))
        ):
            raise NotKnown
        return value

    def strides(self, index: int) -> rules.Stride | tuple[rules.Stride, ...]:
        """A stride or groups argument: ints or sizes (`stride=p` with `p: Dim[P]`)."""
        value = self.static(index)
        items = value if isinstance(value, tuple) else (value,)
        strides: list[rules.Stride] = []
        for item in items:
            if not (type(item) is int or isinstance(item, Expr)):
                raise NotKnown
            strides.append(item)
        return tuple(strides) if isinstance(value, tuple) else strides[0]

    def sizes_per_dim(self, index: int, n: int) -> tuple[Size, ...]:
        """A kernel size (an int, a `Dim` or a tuple of them) as one size per spatial dim; an int
        of unknown value (a plain `int`) is an unknown size, of its dim or of every dim."""
        t = get_proper_type(self.args[index])
        if isinstance(t, TupleType):
            items = tuple(self.scope.size_of(i) for i in t.items)
            if len(items) != n:
                raise NotKnown
            return items
        size = self.scope.size_of(t)
        if size is None and not isinstance(t, AnyType):
            raise NotKnown
        return (size,) * n

    def strides_per_dim(self, index: int) -> rules.StrideOrTuple:
        """A stride, padding or dilation (or a pool's kernel) read item by item: an int, a size
        (`stride=p` with `p: Dim[P]`), or `rules.UNKNOWN` for an int of unknown value (a plain
        `int`), which makes only its dim unknown to the rule; `UNKNOWN` for the whole argument
        where it is a plain `int` or a sequence of unknown length."""
        t = get_proper_type(self.args[index])
        if isinstance(t, TupleType):
            return tuple(self._item(get_proper_type(i)) for i in t.items)
        return self._item(t)

    def per_dim(self, index: int) -> rules.IntOrTuple:
        """`strides_per_dim` where every item is an int: a size that is not a constant is `UNKNOWN`."""
        value = self.strides_per_dim(index)
        if isinstance(value, (int, Expr, rules.Unknown)):
            return rules.UNKNOWN if isinstance(value, Expr) else value
        return tuple(rules.UNKNOWN if isinstance(item, Expr) else item for item in value)

    def _item(self, t: ProperType) -> rules.StrideItem:
        if isinstance(t, AnyType):
            return rules.UNKNOWN
        if isinstance(t, LiteralType) and isinstance(t.value, bool):
            raise NotKnown
        size = self.scope.size_of(t)
        if size is None:
            raise NotKnown
        value = size.const_value
        return value if value is not None else size

    def display(self) -> str:
        """The module as messages show it: `Linear[784, 256]`, `Conv2d[3, 16, 3, 1, 1, 1, 1]`."""
        shown = [_show_arg(a, self.scope) for a in self.instance.args]
        name = self.instance.type.name
        return f"{name}[{', '.join(shown)}]" if shown else name


def _static_value(t: Type, scope: Scope) -> object:
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        return p.value
    if isinstance(p, NoneType):
        return None
    if isinstance(p, TupleType):
        items = [_static_value(i, scope) for i in p.items]
        return tuple(items)
    size = scope.size_of(p)
    if size is not None:
        return size
    raise NotKnown


def _show_arg(t: Type, scope: Scope) -> str:
    if isinstance(t, UnpackType):
        inner = get_proper_type(t.type)
        if isinstance(inner, TupleType):
            return ", ".join(_show_arg(i, scope) for i in inner.items)
        return "..."
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return "(" + ", ".join(_show_arg(i, scope) for i in p.items) + ")"
    if isinstance(p, LiteralType):
        return repr(p.value) if isinstance(p.value, str) else str(p.value)
    if isinstance(p, NoneType):
        return "None"
    size = scope.size_of(p)
    if size is None and isinstance(p, Instance) and p.type.has_base(_names.TENSOR):
        return rules.core.show_shape(scope.tensor_shape(p))  # a loss's class weight
    if size is None and isinstance(p, Instance) and p.type.has_base(_names.MODULE):
        shown = [_show_arg(a, scope) for a in p.args]  # the layer a transformer stack clones
        return f"{p.type.name}[{', '.join(shown)}]" if shown else p.type.name
    return str(size) if size is not None else "?"


def constructor_signature_hook(ctx: FunctionSigContext) -> CallableType:
    """`nn.Linear(784, 256)` is checked as a call of a plain function returning `Linear[Any, Any]`.

    No parameter of these constructors has the class's type variables in its type: mypy
    would infer them from the context only (the declared type of what the call is
    assigned to), typing each argument a second time, and `constructor_hook` sets every
    type argument from the arguments anyway.
    """
    signature = ctx.default_signature
    if not signature.variables or any(has_type_vars(t) for t in signature.arg_types):
        return signature
    defaults = {var.id: var.default for var in signature.variables}
    return signature.copy_modified(ret_type=expand_type(signature.ret_type, defaults), variables=[])


def constructor_hook(ctx: FunctionContext, fullname: str, lookup: Lookup) -> Type:
    """`nn.Linear(784, 256)` is `Linear[784, 256]`: each type argument read from its constructor argument."""
    spec = SPECS[fullname]
    default = get_proper_type(ctx.default_return_type)
    if not isinstance(default, Instance):
        return ctx.default_return_type
    if not any(name in ctx.callee_arg_names for param in spec.params for name in param.names):
        return ctx.default_return_type  # an overload without the parameters (`nn.RNN(*args, **kwargs)`): unknown
    scope = Scope(lookup)
    call = Call(ctx, scope, fullname.rpartition(".")[2])
    args: list[Type] = []
    for param in spec.params:
        if param.kind == "sizes":
            args.extend(_constructor_sizes(call, param))
        elif param.kind == "size":
            actuals = call.actuals(*param.names)
            if param.unused_without and all(_literal_flag(call, name) is False for name in param.unused_without):
                args.append(UNKNOWN)
            elif param.used_with is not None and _literal_flag(call, param.used_with) is not True:
                args.append(UNKNOWN)
            elif (not actuals or call.is_none(actuals[0])) and param.same_as is not None:
                args.append(args[param.same_as])
            elif actuals:
                args.append(scope.size_type(call.size_of(actuals[0])))
            elif isinstance(param.default, int):
                args.append(scope.size_type(const(param.default)))
            else:
                args.append(UNKNOWN)
        elif param.kind == "type":
            actuals = call.actuals(*param.names)
            args.append(actuals[0].type if actuals and not call.is_none(actuals[0]) else NoneType())
        elif any(call.actuals(name) and not call.is_none(call.actuals(name)[0]) for name in param.unknown_with):
            args.append(UNKNOWN)
        else:
            args.append(_constructor_static(call, param))
    if len(args) != len(default.args) and not default.type.has_type_var_tuple_type:
        return ctx.default_return_type
    return default.copy_modified(args=args)


def _literal_flag(call: Call, name: str) -> object:
    """The constant given for a flag (`True`, `False`); None where it is not given or not constant
    (a variable, `**kwargs`: it may be either)."""
    actuals = call.actuals(name)
    if not actuals:
        return None
    try:
        return _static_value(_argument_type(call, actuals[0]), call.scope)
    except NotKnown:
        return None


def _constructor_sizes(call: Call, param: Param) -> list[Type]:
    actuals = call.actuals(*param.names)
    if not actuals:
        return [unknown_rank(call.scope)]
    items = call.sequence_of(actuals[0])
    if items is None:
        size = call.size_of(actuals[0])
        if size is None and not is_int_like(actuals[0].type):
            return [unknown_rank(call.scope)]
        items = [size]  # one int: one dim (`nn.LayerNorm(width)` with a plain int width)
    return [call.scope.size_type(s) for s in items]


def _constructor_static(call: Call, param: Param) -> Type:
    actuals = call.actuals(*param.names)
    if not actuals:
        return _value_type(param.default, call.scope) if param.default is not MISSING else UNKNOWN
    return _argument_type(call, actuals[0])


def _argument_type(call: Call, actual: Actual) -> Type:
    """The precise type of a constant argument: `Literal[3]`, `tuple[Literal[3], Literal[3]]`, `Literal["same"]`."""
    if call.is_none(actual):
        return NoneType()
    flag = call.bool_of(actual)
    if flag is not None:
        return LiteralType(flag, call.scope.instance(_names.BOOL))
    text = call.str_of(actual)
    if text is not None:
        return LiteralType(text, call.scope.instance(_names.STR))
    items = call.sequence_of(actual)
    if items is not None:
        nones = _none_items(actual)
        return TupleType(
            [NoneType() if i in nones else call.scope.size_type(s) for i, s in enumerate(items)],
            call.scope.instance(_names.TUPLE, [UNKNOWN]),
        )
    return call.scope.size_type(call.size_of(actual))


def _none_items(actual: Actual) -> set[int]:
    """The positions of `None` in a tuple argument (`nn.AdaptiveAvgPool2d((2, None))`: keep that input size)."""
    t = get_proper_type(actual.type)
    if isinstance(t, TupleType):
        return {i for i, item in enumerate(t.items) if isinstance(get_proper_type(item), NoneType)}
    expr = actual.expr
    if isinstance(expr, (TupleExpr, ListExpr)):
        return {i for i, item in enumerate(expr.items) if isinstance(item, NameExpr) and item.fullname == "builtins.None"}
    return set()


def _value_type(value: object, scope: Scope) -> Type:
    if value is None:
        return NoneType()
    if isinstance(value, bool):
        return LiteralType(value, scope.instance(_names.BOOL))
    if isinstance(value, int):
        return scope.int_literal(value)
    if isinstance(value, str):
        return LiteralType(value, scope.instance(_names.STR))
    return UNKNOWN


# -- calls ----------------------------------------------------------------------------------------


def _forward_owner(info: TypeInfo) -> TypeInfo | None:
    """The class in the MRO whose `forward` a call runs."""
    for base in info.mro:
        if "forward" in base.names:
            return base
    return None


def _spec_for(info: TypeInfo) -> tuple[str, Spec] | None:
    owner = _forward_owner(info)
    if owner is None:
        return None
    if owner.fullname in SPECS:
        return owner.fullname, SPECS[owner.fullname]
    if owner.fullname in SAME_SHAPE:
        return owner.fullname, _SAME_SPEC
    return None


def call_kind(info: TypeInfo) -> str | None:
    """How `module(...)` is typed for a module class: "rule" (a torch module's shape rule, or
    nn.Sequential's chain), "forward" (a user's `forward`), None (torch's `Any`, nothing to do)."""
    owner = _forward_owner(info)
    if owner is None:
        return None
    if owner.fullname in SPECS or owner.fullname in SAME_SHAPE or owner.fullname == _names.SEQUENTIAL:
        return "rule"
    return None if owner.module_name.startswith("torch") else "forward"


def declared_forward_result(ctx: MethodContext, returns_tensor: bool, lookup: Lookup) -> Type:
    """`block(x)` where tyr knows nothing of the result's shape (a user's `forward` that writes no sizes, a
    torch module given a tensor of unknown shape): torch types the call `Any`, and so it stays in code
    without shapes (adopting tyr changes no type there).  In code with shapes it is a tensor of unknown
    shape where `forward` declares a tensor (`-> Tensor`), so that what follows is checked (`y.view(b,
    t, d)` has its sizes); the arguments stay unchecked, as torch's `__call__` leaves them."""
    return Scope(lookup).tensor_type(None) if returns_tensor and in_code_with_shapes(ctx.api) else ctx.default_return_type


def _is_users(info: TypeInfo) -> bool:
    owner = _forward_owner(info)
    return owner is not None and not owner.module_name.startswith("torch")


def call_signature_hook(ctx: MethodSigContext, pending: _calls.PendingCalls, lookup: Lookup) -> FunctionLike:
    """`module(...)` of a user's module whose `forward` has shapes is checked against that `forward`.

    Any other call keeps torch's `__call__`, `(...) -> Any`: plain mypy checks no
    argument of it, and neither does tyr (a torch module's shape rule reads the
    arguments in `call_hook`).
    """
    module = get_proper_type(ctx.type)
    if not isinstance(module, Instance) or not _is_users(module.type):
        return ctx.default_signature
    forward = _forward_signature(module)
    if not _has_shapes(forward):
        return ctx.default_signature
    if isinstance(forward, CallableType):
        return _calls.erase_signature(forward, ctx.context, pending, lookup)
    assert forward is not None
    return forward


def _has_shapes(forward: FunctionLike | None) -> bool:
    """Whether a `forward` mentions shapes (a shaped tensor or a `Dim`) in a parameter or its result."""
    if forward is None:
        return False
    return any(
        any(mentions_shapes(t) for t in item.arg_types) or mentions_shapes(item.ret_type) for item in forward.items
    )


def _forward_signature(module: Instance) -> FunctionLike | None:
    member = find_member("forward", module, module)
    member = get_proper_type(member) if member is not None else None
    if isinstance(member, CallableType):
        return freshen_function_type_vars(listed(member))
    if isinstance(member, FunctionLike):
        return member
    return None


def _forward_has_shapes(module: Instance, default: Type) -> bool:
    """Whether a user's module's `forward` has shapes: in what it returns (mypy's result for the call), or
    in its signature (`-> Output[B, T]`, a dataclass generic in sizes, whose variables mypy leaves in
    the result)."""
    if mentions_shapes(default):
        return True
    if not has_type_vars(default):
        return False  # (asked of every module call: the signature is looked up only where mypy left variables)
    forward = _forward_signature(module)
    return isinstance(forward, CallableType) and any(mentions_shapes(t) for t in forward.arg_types)


def call_hook(ctx: MethodContext, returns_tensor: bool, pending: _calls.PendingCalls, lookup: Lookup) -> Type:
    """The result of `module(...)`: from its shape rule, or its `forward`'s shapes; when they say nothing of
    the shape, what `declared_forward_result` gives (torch's `Any` in code without shapes).

    Plain mypy types every module call `Any`.  tyr gives a tensor type only in code with
    shapes (`in_code_with_shapes`), so code without shapes sees what it always saw (a
    tensor there would have mypy check what the code does with it, `y.view(1, -1,
    cfg.head_size)` with an `int | None`: an error that is not tyr's to add); the call
    itself is checked everywhere.  A user's `forward` with shapes is what mypy checks the
    call against: its result, sizes bound or unknown, is the call's (mypy's default would
    keep the size variables of `forward` it was not told to solve).
    """
    result = _call_result(ctx, pending, lookup)
    if _is_failed(result):
        return result
    module = get_proper_type(ctx.type)
    if isinstance(module, Instance) and _is_users(module.type) and _forward_has_shapes(module, ctx.default_return_type):
        return result
    if mentions_shapes(result) and in_code_with_shapes(ctx.api):
        return result
    return declared_forward_result(ctx, returns_tensor, lookup)


def _call_result(ctx: MethodContext, pending: _calls.PendingCalls, lookup: Lookup) -> Type:
    module = get_proper_type(ctx.type)
    if not isinstance(module, Instance):
        return ctx.default_return_type
    owner = _forward_owner(module.type)
    if owner is not None and owner.fullname == _names.SEQUENTIAL:
        # A subclass (`class ConvBNAct(nn.Sequential)`) passes its layers to `super().__init__`,
        # which its type does not hold: its chain is unknown.
        return sequential_hook(ctx, lookup) if module.type is owner else ctx.default_return_type
    known = _spec_for(module.type)
    if known is None:
        if _is_users(module.type):
            return _calls.call_hook(ctx, pending, lookup)
        return ctx.default_return_type
    inputs = _forward_inputs(module, ctx)
    if inputs is None:
        return ctx.default_return_type
    return run_module(module, inputs, ctx.api, ctx.context, lookup, default=ctx.default_return_type)


def _forward_inputs(module: Instance, ctx: MethodContext) -> list[Type] | None:
    """The arguments of a call to a torch module (typed `(...) -> Any`), one type per parameter of its `forward`.

    A parameter not given is `None` (as its default is); None when the call passes
    `*args` or `**kwargs`, whose parameters are unknown.
    """
    kinds = [kind for group in ctx.arg_kinds for kind in group]
    names = [name for group in ctx.arg_names for name in group]
    types = [t for group in ctx.arg_types for t in group]
    if any(kind.is_star() for kind in kinds):
        return None
    forward = _forward_signature(module)
    if isinstance(forward, Overloaded) and len({(tuple(i.arg_names), tuple(i.arg_kinds)) for i in forward.items}) == 1:
        forward = forward.items[0]  # overloads that differ in types only (`nn.LSTM`'s Tensor / PackedSequence)
    if not isinstance(forward, CallableType):
        return types if all(kind == ARG_POS for kind in kinds) else None
    mapped = map_actuals_to_formals(kinds, names, forward.arg_kinds, forward.arg_names, lambda i: types[i])
    if sum(len(actuals) for actuals in mapped) != len(types):
        return None  # an argument forward does not take: plain mypy does not check it, tyr reads nothing
    return [types[actuals[0]] if len(actuals) == 1 else NoneType() for actuals in mapped]


def run_module(
    module: Instance,
    inputs: Sequence[Type],
    api: CheckerPluginInterface,
    context: Context,
    lookup: Lookup,
    *,
    default: Type,
    prefix: str = "",
) -> Type:
    """The result of calling `module` on `inputs` (one type per parameter of `forward`), errors reported."""
    scope = Scope(lookup)
    known = _spec_for(module.type)
    if known is None:
        if _is_users(module.type):
            forward = _forward_signature(module)
            if isinstance(forward, CallableType):
                grouped = [[t] for t in inputs] + [[] for _ in range(len(forward.arg_types) - len(inputs))]
                return _calls.bind_call(
                    forward, grouped[: len(forward.arg_types)], forward.ret_type, api, context, lookup, prefix=prefix
                )
        return default
    fullname, spec = known
    info = lookup(fullname)
    assert info is not None
    if spec.params and not info.type_vars:
        return default  # torch's own (non-generic) class: tyr's stubs are not in this build
    args = list(map_instance_to_supertype(module, info).args) if info.type_vars else []
    state = Module(module, info, args, scope)
    try:
        return spec.forward(state, inputs)
    except NotKnown:
        return default
    except ShapeRuleError as err:
        guarded = _guards.retried(api, context, scope, lambda: spec.forward(state, inputs))
        if guarded is not None:
            return guarded
        api.fail(scope.render(f"{prefix}{err} (in {state.display()})"), context, code=_errors.SHAPE)
        return _failed(scope)


def _failed(scope: Scope) -> Type:
    """The result of a call whose shape error was just reported: a tensor of unknown shape (not `Any`, which
    would draw more errors in strict code), marked so that `call_hook` keeps it."""
    tensor = scope.tensor_type(None)
    if not tensor.args:
        return tensor  # torch's own Tensor, without tyr's stubs
    return tensor.copy_modified(args=[UnpackType(scope.instance(_names.TUPLE, [_FAILED]))])


_FAILED = AnyType(TypeOfAny.from_error)


def _is_failed(t: Type) -> bool:
    p = get_proper_type(t)
    if not (isinstance(p, Instance) and len(p.args) == 1 and isinstance(p.args[0], UnpackType)):
        return False
    inner = get_proper_type(p.args[0].type)
    return isinstance(inner, Instance) and len(inner.args) == 1 and inner.args[0] is _FAILED


# -- forward rules --------------------------------------------------------------------------------


def _input(module: Module, inputs: Sequence[Type], index: int = 0) -> MaybeShape:
    if index >= len(inputs):
        raise NotKnown
    try:
        return module.scope.tensor_shape(inputs[index])
    except NotATensor:
        raise NotKnown from None


def _given(inputs: Sequence[Type], index: int) -> bool:
    """Whether the call passed the forward parameter at `index` (one not passed is `None`, its default)."""
    return index < len(inputs) and not isinstance(get_proper_type(inputs[index]), NoneType)


def _same_forward(module: Module, inputs: Sequence[Type]) -> Type:
    return module.scope.tensor_type(_input(module, inputs))


def _linear_forward(module: Module, inputs: Sequence[Type]) -> Type:
    weight = (module.size(1), module.size(0))
    return module.scope.tensor_type(rules.linear(_input(module, inputs), weight))


def _bilinear_forward(module: Module, inputs: Sequence[Type]) -> Type:
    weight = (module.size(2), module.size(0), module.size(1))
    return module.scope.tensor_type(rules.bilinear(_input(module, inputs), _input(module, inputs, 1), weight))


def _embedding_forward(module: Module, inputs: Sequence[Type]) -> Type:
    weight = (module.size(0), module.size(1))
    return module.scope.tensor_type(nnf.embedding(_input(module, inputs), weight))


def _embedding_bag_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`bag(input, offsets=None, per_sample_weights=None)`."""
    mode = module.static(2)
    out = nnf.embedding_bag(
        _input(module, inputs),
        (module.size(0), module.size(1)),
        _input(module, inputs, 1) if _given(inputs, 1) else None,
        has_offsets=_given(inputs, 1),
        include_last_offset=_flag(module.static(3)),
        per_sample_weights=_input(module, inputs, 2) if _given(inputs, 2) else None,
        has_per_sample_weights=_given(inputs, 2),
        mode=mode if isinstance(mode, str) else None,
    )
    return module.scope.tensor_type(out)


def _normalized(module: Module) -> list[Size]:
    shape = module.scope.shape_of_args(module.args)
    if shape is None or any(isinstance(s, Variadic) for s in shape):
        raise NotKnown
    return [s for s in shape if not isinstance(s, Variadic)]


def _layer_norm_forward(module: Module, inputs: Sequence[Type]) -> Type:
    return module.scope.tensor_type(nnf.layer_norm(_input(module, inputs), _normalized(module)))


def _rms_norm_forward(module: Module, inputs: Sequence[Type]) -> Type:
    return module.scope.tensor_type(nnf.rms_norm(_input(module, inputs), _normalized(module)))


def _group_norm_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.GroupNorm(G, C, affine)(x)`: `F.group_norm` with a weight of `(C,)` if affine (without one, torch
    checks the input's channels against `G` only); `G` and `C` literal ints or `Dim`s.  A `G` not known
    (a plain int, `32 if c % 32 == 0 else 1`) still keeps the input's shape and checks its channels."""
    groups = _as_size(_static_or_none(module, 0))
    weight = (module.size(1),) if _static_or_none(module, 2) is True else None
    return module.scope.tensor_type(nnf.group_norm(_input(module, inputs), groups, weight))


def _spatial_dims(module: Module, ranks: dict[str, int]) -> int | None:
    """The n of a module whose class is, or derives from, one of `ranks`' n-d classes (`BatchNorm2d`: 2)."""
    for base in module.instance.type.mro:
        n = ranks.get(base.fullname)
        if n is not None:
            return n
    return None


def _batch_norm_forward(module: Module, inputs: Sequence[Type]) -> Type:
    channels = module.size(0)
    n = _spatial_dims(module, _BATCH_NORM_RANKS)
    if n is not None:
        return module.scope.tensor_type(nn_modules.batch_norm_nd(_input(module, inputs), channels, n))
    return module.scope.tensor_type(nnf.batch_norm(_input(module, inputs), (channels,)))


_BATCH_NORM_FEATURES = _size("num_features", unused_without=("affine", "track_running_stats"))
_BATCH_NORM_RANKS = {f"{_NN}batchnorm.BatchNorm{n}d": n for n in (1, 2, 3)}


def _instance_norm_forward(module: Module, inputs: Sequence[Type]) -> Type:
    n = _spatial_dims(module, _INSTANCE_NORM_RANKS)
    if n is not None:
        return module.scope.tensor_type(nn_modules.instance_norm_nd(_input(module, inputs), module.size(0), n))
    return module.scope.tensor_type(_input(module, inputs))  # a lazy instance norm: its input's shape


_INSTANCE_NORM_FEATURES = _size("num_features", used_with="affine")
_INSTANCE_NORM_RANKS = {f"{_NN}instancenorm.InstanceNorm{n}d": n for n in (1, 2, 3)}


def _multihead_attention_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`attn(query, key, value, key_padding_mask, need_weights, attn_mask, average_attn_weights, is_causal)`."""
    scope = module.scope

    def optional(index: int) -> tuple[MaybeShape, bool]:
        if not _given(inputs, index):
            return None, False
        # a mask that may be None (`pad: Tensor[B, S] | None`) is checked as what torch checks when given
        return _input(module, [unless_none(inputs[index]) or inputs[index]], 0), True

    def flag(index: int, default: bool) -> bool:
        if not _given(inputs, index):
            return default
        return _flag(_static_value(_literal_of(inputs[index]), scope))

    key_padding_mask, _ = optional(3)
    attn_mask, has_mask = optional(5)
    need_weights = flag(4, True)
    out, weights = nn_modules.multihead_attention(
        _input(module, inputs, 0),
        _input(module, inputs, 1),
        _input(module, inputs, 2),
        embed_dim=module.size(0),
        num_heads=module.size(1),
        kdim=module.size(3),
        vdim=module.size(4),
        batch_first=_flag(module.static(2)),
        add_bias_kv=_flag(module.static(5)),
        add_zero_attn=_flag(module.static(6)),
        key_padding_mask=key_padding_mask,
        attn_mask=attn_mask,
        need_weights=need_weights,
        average_attn_weights=flag(6, True),
        is_causal=flag(7, False),
        has_attn_mask=has_mask,
    )
    fallback = scope.instance(_names.TUPLE, [UNKNOWN])
    return TupleType([scope.tensor_type(out), scope.tensor_type(weights) if need_weights else NoneType()], fallback)


def _transformer_layer_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`encoder_layer(src, ...)`, `decoder_layer(tgt, memory, ...)`: the first input's shape."""
    d_model, nhead, batch_first = module.size(0), module.size(1), _flag(module.static(2))
    if module.info.name == "TransformerEncoderLayer":
        out = nn_modules.transformer_encoder_layer(_input(module, inputs), d_model=d_model, nhead=nhead, batch_first=batch_first)
    else:
        out = nn_modules.transformer_decoder_layer(
            _input(module, inputs), _input(module, inputs, 1), d_model=d_model, nhead=nhead, batch_first=batch_first
        )
    return module.scope.tensor_type(out)


def _transformer_stack_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.TransformerEncoder(layer, n)(src, ...)` runs clones of the layer it was built from: that layer's rule
    (its forward takes the stack's inputs in the stack's order), unknown for a layer with a forward of its own."""
    layer = get_proper_type(module.args[0])
    known = _spec_for(layer.type) if isinstance(layer, Instance) else None
    if not isinstance(layer, Instance) or known is None or known[1].forward is not _transformer_layer_forward:
        raise NotKnown
    info = module.scope.lookup(known[0])
    if info is None:
        raise NotKnown
    args = list(map_instance_to_supertype(layer, info).args)
    return _transformer_layer_forward(Module(layer, info, args, module.scope), inputs)


def _transformer_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.Transformer(d_model, nhead)(src, tgt, ...)`: tgt's shape."""
    out = nn_modules.transformer(
        _input(module, inputs),
        _input(module, inputs, 1),
        d_model=module.size(0),
        nhead=module.size(1),
        batch_first=_flag(module.static(2)),
    )
    return module.scope.tensor_type(out)


def _recurrent_forward(mode: Mode) -> Forward:
    """`rnn(input, h0)` / `lstm(input, (h0, c0))`: `(output, h_n)` / `(output, (h_n, c_n))`."""

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        scope = module.scope
        given = _given(inputs, 1)
        states = _states(module, inputs[1], 2 if mode == "LSTM" else 1) if given else None
        num_layers = _static_or_none(module, 2)
        proj_size = _static_or_none(module, 5) if mode == "LSTM" else 0
        out, final = rules.recurrent(
            _input(module, inputs),
            states,
            input_size=module.size(0),
            hidden_size=module.size(1),
            num_layers=_as_size(num_layers),
            batch_first=_flag(module.static(3)),
            bidirectional=_flag(module.static(4)),
            proj_size=_as_size(proj_size),
            mode=mode,
        )
        fallback = scope.instance(_names.TUPLE, [UNKNOWN])
        hidden: list[Type] = [scope.tensor_type(s) for s in final]
        second = hidden[0] if mode != "LSTM" else TupleType(hidden, fallback)
        return TupleType([scope.tensor_type(out), second], fallback)

    return forward


def _cell_forward(mode: CellMode) -> Forward:
    """`cell(input, hx)` / `lstm_cell(input, (hx, cx))`: the next `h` / `(h, c)`."""

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        given = _given(inputs, 1)
        count = 2 if mode == "LSTMCell" else 1
        states = _states(module, inputs[1], count) if given else None
        out = rules.recurrent_cell(
            _input(module, inputs), states, input_size=module.size(0), hidden_size=module.size(1), mode=mode
        )
        if count == 1:
            return module.scope.tensor_type(out[0])
        return TupleType([module.scope.tensor_type(s) for s in out], module.scope.instance(_names.TUPLE, [UNKNOWN]))

    return forward


def _states(module: Module, given: Type, count: int) -> list[MaybeShape]:
    """The initial states passed to a recurrent layer: `h0`, or an LSTM's `(h0, c0)`; unknown shapes where
    they cannot be read (the result does not depend on them where torch accepts them)."""
    if count == 1:
        items = [given]
    else:
        pair = get_proper_type(given)
        unknown: list[Type] = [AnyType(TypeOfAny.special_form)] * 2
        items = list(pair.items) if isinstance(pair, TupleType) and len(pair.items) == 2 else unknown
    shapes: list[MaybeShape] = []
    for item in items:
        try:
            shapes.append(module.scope.tensor_shape(item))
        except NotATensor:
            shapes.append(None)
    return shapes


def _static_or_none(module: Module, index: int) -> object:
    """A constant type argument, or None where it is not known (a plain `int`)."""
    try:
        return module.static(index)
    except NotKnown:
        return None


def _as_size(value: object) -> Size:
    """A constant type argument (`Literal[2]`) or a size (`Dim[L]`) as a size; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return const(value)
    return value if isinstance(value, Expr) else None


def _literal_of(t: Type) -> Type:
    """An argument's literal type (`True` is an `int`... `bool` whose last known value is `Literal[True]`)."""
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.last_known_value is not None:
        return p.last_known_value
    return p


def _conv_forward(n: int) -> Forward:
    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        in_channels, out_channels = module.size(0), module.size(1)
        try:
            groups = module.strides(6)
        except NotKnown:  # a plain int (`groups=mid`): the input's channels are not checked, the rest is
            groups, in_channels = 1, None
        if isinstance(groups, tuple):
            raise NotKnown
        per_group = in_channels // groups if in_channels is not None else None
        padding = _static_or_none(module, 4)
        try:  # an item that is a plain int leaves its dim unknown, the other dims are computed
            kernel = module.sizes_per_dim(2, n)
            mode = _padding_mode(padding)
            geometry = _Geometry(module.strides_per_dim(3), mode or module.strides_per_dim(4), module.strides_per_dim(5))
        except NotKnown:  # not ints: the spatial sizes are unknown, the rest is checked
            kernel, geometry = (None,) * n, _Geometry.unknown(padding)
        return module.scope.tensor_type(
            rules.conv_nd(
                _input(module, inputs),
                (out_channels, per_group, *kernel),
                None,
                stride=geometry.stride,
                padding=geometry.padding,
                dilation=geometry.dilation,
                groups=groups,
                n=n,
            )
        )

    return forward


def _conv_transpose_forward(n: int) -> Forward:
    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        if _given(inputs, 1):
            raise NotKnown  # an explicit output_size
        in_channels, out_channels = module.size(0), module.size(1)
        groups = module.int_or_ints(6)
        if not isinstance(groups, int):
            raise NotKnown
        per_group = out_channels // groups if out_channels is not None else None
        try:  # an item that is a plain int leaves its dim unknown, the other dims are computed
            kernel = module.sizes_per_dim(2, n)
            stride, padding = module.per_dim(3), module.per_dim(4)
            output_padding, dilation = module.per_dim(7), module.per_dim(5)
        except NotKnown:  # not ints: the spatial sizes are unknown, the rest is checked
            kernel, stride, padding, output_padding, dilation = (None,) * n, 1, 0, 0, 1
        return module.scope.tensor_type(
            rules.conv_transpose_nd(
                _input(module, inputs),
                (in_channels, per_group, *kernel),
                None,
                stride=stride,
                padding=padding,
                output_padding=output_padding,
                groups=groups,
                dilation=dilation,
                n=n,
            )
        )

    return forward


@dataclass(frozen=True)
class _Geometry:
    """A convolution's stride, padding and dilation."""

    stride: rules.StrideOrTuple
    padding: rules.StrideOrTuple | Literal["same", "valid"]
    dilation: rules.StrideOrTuple

    @staticmethod
    def unknown(padding: object) -> _Geometry:
        """Stand-ins for a geometry that is not known, with a kernel of unknown sizes: the rule then
        computes no spatial size (but keeps it under `padding="same"`) and checks the rest."""
        return _Geometry(1, _padding_mode(padding) or 0, 1)


def _padding_mode(padding: object) -> Literal["same", "valid"] | None:
    if padding == "same":
        return "same"
    if padding == "valid":
        return "valid"
    return None


_PoolArgs = tuple[rules.StrideOrTuple, rules.StrideOrTuple | None, rules.IntOrTuple, rules.IntOrTuple, bool]


def _pooled(input: MaybeShape, n: int, kind: Literal["max", "avg", "lp"], read: Callable[[], _PoolArgs]) -> MaybeShape:
    """`rules.pool_nd` with the arguments `read` gives (an item that is a plain int leaves its dim
    unknown); when one is not known otherwise, the spatial sizes of the result are unknown and the
    rest is checked."""
    try:
        kernel, stride, padding, dilation, ceil_mode = read()
    except NotKnown:
        return rules.pool_nd_unknown(input, n=n, kind=kind)
    return rules.pool_nd(input, kernel, stride, padding, dilation, ceil_mode, n=n, kind=kind)


def _pool_stride(module: Module, index: int) -> rules.StrideOrTuple | None:
    """A pool's stride: None (the kernel size) where not given."""
    if isinstance(get_proper_type(module.args[index]), NoneType):
        return None
    return module.strides_per_dim(index)


def _max_pool_forward(n: int) -> Forward:
    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        out = _pooled(
            _input(module, inputs),
            n,
            "max",
            lambda: (
                module.strides_per_dim(0),
                _pool_stride(module, 1),
                module.per_dim(2),
                module.per_dim(3),
                _flag(module.static(4)),
            ),
        )
        if _flag(module.static(5)):
            return TupleType(
                [module.scope.tensor_type(out)] * 2, module.scope.instance(_names.TUPLE, [module.scope.tensor_type(None)])
            )
        return module.scope.tensor_type(out)

    return forward


def _averaging_pool_forward(n: int, kind: Literal["avg", "lp"]) -> Forward:
    """`nn.AvgPool{n}d(kernel_size, stride, padding, ceil_mode)`, and `nn.LPPool{n}d(norm_type, kernel_size,
    stride, ceil_mode)`: an average pool without padding (its `norm_type` does not change the shape)."""
    padded = kind == "avg"
    ceil_mode = 3 if padded else 2

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        out = _pooled(
            _input(module, inputs),
            n,
            kind,
            lambda: (
                module.strides_per_dim(0),
                _pool_stride(module, 1),
                module.per_dim(2) if padded else 0,
                1,
                _flag(module.static(ceil_mode)),
            ),
        )
        return module.scope.tensor_type(out)

    return forward


def _adaptive_pool_forward(n: int, kind: str) -> Forward:
    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        output = module.static(0)
        out = rules.adaptive_pool_nd(_input(module, inputs), output, n=n, kind=kind)  # type: ignore[arg-type]
        if kind == "max" and _flag(module.static(1)):
            return TupleType(
                [module.scope.tensor_type(out)] * 2, module.scope.instance(_names.TUPLE, [module.scope.tensor_type(None)])
            )
        return module.scope.tensor_type(out)

    return forward


def _pixel_shuffle_forward(inverse: bool) -> Forward:
    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        factor = module.static(0)
        if type(factor) is not int:
            raise NotKnown
        return module.scope.tensor_type(rules.pixel_shuffle(_input(module, inputs), factor, inverse=inverse))

    return forward


def _channel_shuffle_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.ChannelShuffle(groups)(x)`: as `F.channel_shuffle`; a groups count of unknown value checks the rank only."""
    groups = _static_or_none(module, 0)
    if not (type(groups) is int or isinstance(groups, Expr)):
        groups = 1
    return module.scope.tensor_type(rules.channel_shuffle(_input(module, inputs), groups))


def _pad_forward(n: int, mode: str) -> Forward:
    """`nn.ZeroPad2d(padding)(x)` and the other padding modules: `F.pad` in the module's mode, with an
    int padding on both sides of each of the last `n` dims."""

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        padding = module.static(0)
        pads = (padding,) * (2 * n) if type(padding) is int else padding
        if not (isinstance(pads, tuple) and all(type(p) is int for p in pads)):
            raise NotKnown
        return module.scope.tensor_type(rules.pad(_input(module, inputs), pads, mode))

    return forward


def _upsample_forward(module: Module, inputs: Sequence[Type]) -> Type:
    size, scale, mode = module.static(0), module.static(1), module.static(2)
    if not isinstance(mode, str) or size is None and scale is None:
        raise NotKnown
    if scale is not None:
        if not (type(scale) is int or isinstance(scale, tuple) and all(type(f) is int for f in scale)):
            raise NotKnown
        factor = [float(f) for f in scale] if isinstance(scale, tuple) else float(scale)
        if not factor:
            raise NotKnown  # torch drops a scale factor of 0
        return module.scope.tensor_type(rules.interpolate(_input(module, inputs), None, factor, mode))
    listed = list(size) if isinstance(size, tuple) else size
    return module.scope.tensor_type(rules.interpolate(_input(module, inputs), listed, None, mode))  # type: ignore[arg-type]


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise NotKnown
    return value


def _glu_forward(module: Module, inputs: Sequence[Type]) -> Type:
    dim = module.static(0)
    if type(dim) is not int:
        raise NotKnown
    return module.scope.tensor_type(rules.glu(_input(module, inputs), dim))


def _flatten_forward(module: Module, inputs: Sequence[Type]) -> Type:
    start, end = module.static(0), module.static(1)
    if type(start) is not int or type(end) is not int:
        raise NotKnown
    return module.scope.tensor_type(rules.flatten(_input(module, inputs), start, end))


def _unflatten_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.Unflatten(dim, sizes)(x)`: `x.unflatten(dim, sizes)`, a size of unknown value (a plain int) unknown."""
    dim, sizes = module.static(0), get_proper_type(module.args[1])
    if type(dim) is not int or not isinstance(sizes, TupleType):
        raise NotKnown
    wanted = [module.scope.size_of(s) for s in sizes.items]
    return module.scope.tensor_type(rules.unflatten(_input(module, inputs), dim, wanted))


def _feature_dropout_forward(spatial: int) -> Forward:
    """`nn.Dropout1d/2d/3d()(x)`: `F.dropout1d/2d/3d` with `p` and `training` not known (the module's type does
    not hold them), so what is checked is what torch refuses whatever they are."""

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        shape = nnf.feature_dropout(_input(module, inputs), None, spatial, runs=None, op=f"dropout{spatial}d")
        return module.scope.tensor_type(shape)

    return forward


# -- losses: the functional form's rule, with the module's reduction (and weight) -------------------


def _reduction(module: Module) -> nnf.Reduction | Literal["batchmean"] | None:
    """The loss's reduction (its first type argument); None where it is not known."""
    try:
        value = module.static(0)
    except NotKnown:
        return None
    return value if value in ("none", "mean", "sum", "batchmean") else None


def _weight(module: Module, index: int, absent: MaybeShape) -> MaybeShape:
    """A loss's class weight: its shape, `absent` where none was given, None where it is not known."""
    t = get_proper_type(module.args[index])
    if isinstance(t, NoneType):
        return absent
    try:
        return module.scope.tensor_shape(t)
    except NotATensor:
        return None


def _loss_result(module: Module, compute: Callable[[nnf.Reduction], MaybeShape]) -> Type:
    """`compute(reduction)` as a tensor; a reduction not known checks the inputs (as "none": what the rules
    check does not depend on it) and gives an unknown shape."""
    reduction = _reduction(module)
    if reduction not in ("none", "mean", "sum"):
        compute("none")
        return module.scope.tensor_type(None)
    return module.scope.tensor_type(compute(reduction))


def _elementwise_loss_forward(op: str, same_shape: bool) -> Forward:
    """`nn.MSELoss()(input, target)` and the like: `F.mse_loss` (`op`) with the module's reduction."""

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        input, target = _input(module, inputs), _input(module, inputs, 1)
        return _loss_result(
            module, lambda r: nnf.elementwise_loss(input, target, r, same_shape=same_shape, op=op)
        )

    return forward


def _cross_entropy_forward(op: str) -> Forward:
    """`nn.CrossEntropyLoss(weight, reduction=...)(input, target)`, `nn.NLLLoss`: `F.cross_entropy` /
    `F.nll_loss` with the module's weight and reduction (its `ignore_index` and `label_smoothing` leave
    the shapes alone, as the functional rule reads them)."""

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        input, target, weight = _input(module, inputs), _input(module, inputs, 1), _weight(module, 1, None)
        return _loss_result(module, lambda r: nnf.cross_entropy(input, target, r, weight, op=op))

    return forward


def _loss_forward(rule: Callable[..., MaybeShape], count: int) -> Forward:
    """A loss whose rule takes its `count` inputs and the reduction (`nn.SoftMarginLoss`, `nn.CosineEmbeddingLoss`)."""

    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        shapes = [_input(module, inputs, i) for i in range(count)]
        return _loss_result(module, lambda r: rule(*shapes, r))

    return forward


def _multilabel_soft_margin_forward(module: Module, inputs: Sequence[Type]) -> Type:
    input, target, weight = _input(module, inputs), _input(module, inputs, 1), _weight(module, 1, ())
    return _loss_result(module, lambda r: nnf.multilabel_soft_margin_loss(input, target, r, weight))


def _multi_margin_forward(module: Module, inputs: Sequence[Type]) -> Type:
    input, target, weight = _input(module, inputs), _input(module, inputs, 1), _weight(module, 1, None)
    p = _static_or_none(module, 2)
    power = p if type(p) is int else None
    return _loss_result(module, lambda r: nnf.multi_margin_loss(input, target, r, weight, power))


def _gaussian_nll_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.GaussianNLLLoss()(input, target, var)`: a float `var` is one variance per element of the input."""
    input, target = _input(module, inputs), _input(module, inputs, 1)
    if len(inputs) < 3:
        raise NotKnown
    var = get_proper_type(inputs[2])
    try:
        variances = module.scope.tensor_shape(var)
    except NotATensor:
        if not (isinstance(var, Instance) and var.type.fullname == _names.FLOAT):
            raise NotKnown from None
        variances = input
    return _loss_result(module, lambda r: nnf.gaussian_nll_loss(input, target, variances, r))


def _kl_div_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.KLDivLoss(reduction=...)(input, target)`: as `F.kl_div`, the two broadcast; "batchmean" gives `()`."""
    input, target = _input(module, inputs), _input(module, inputs, 1)
    reduction = _reduction(module)
    shape = nnf.elementwise_loss(input, target, "none" if reduction in ("none", None) else "sum", op="kl_div")
    return module.scope.tensor_type(None if reduction is None else shape)


def _triplet_margin_forward(module: Module, inputs: Sequence[Type]) -> Type:
    """`nn.TripletMarginLoss(swap=...)(anchor, positive, negative)`: `F.triplet_margin_loss`; its margin is not
    in its type (unknown here)."""
    swap = _static_or_none(module, 1)
    if not isinstance(swap, bool):
        raise NotKnown
    anchor, positive, negative = (_input(module, inputs, i) for i in range(3))
    return _loss_result(
        module, lambda r: nnf.triplet_margin_loss(anchor, positive, negative, r, swap=swap, margin=None)
    )


_REDUCTION = _static("reduction", default="mean", unknown_with=("size_average", "reduce"))
_LOSSES: dict[str, Spec] = {
    "L1Loss": Spec((_REDUCTION,), _elementwise_loss_forward("l1_loss", False)),
    "MSELoss": Spec((_REDUCTION,), _elementwise_loss_forward("mse_loss", False)),
    "SmoothL1Loss": Spec((_REDUCTION,), _elementwise_loss_forward("smooth_l1_loss", False)),
    "HuberLoss": Spec((_REDUCTION,), _elementwise_loss_forward("huber_loss", False)),
    "HingeEmbeddingLoss": Spec((_REDUCTION,), _elementwise_loss_forward("hinge_embedding_loss", False)),
    "PoissonNLLLoss": Spec((_REDUCTION,), _elementwise_loss_forward("poisson_nll_loss", False)),
    "BCELoss": Spec((_REDUCTION,), _elementwise_loss_forward("binary_cross_entropy", True)),
    "BCEWithLogitsLoss": Spec((_REDUCTION,), _elementwise_loss_forward("binary_cross_entropy_with_logits", True)),
    "SoftMarginLoss": Spec((_REDUCTION,), _loss_forward(nnf.soft_margin_loss, 2)),
    "MultiLabelMarginLoss": Spec((_REDUCTION,), _loss_forward(nnf.multilabel_margin_loss, 2)),
    "CosineEmbeddingLoss": Spec((_REDUCTION,), _loss_forward(nnf.cosine_embedding_loss, 3)),
    "CTCLoss": Spec((_REDUCTION,), _loss_forward(nnf.ctc_loss, 4)),
    "MarginRankingLoss": Spec((_REDUCTION,), _loss_forward(nnf.margin_ranking_loss, 3)),
    "CrossEntropyLoss": Spec((_REDUCTION, _typed("weight")), _cross_entropy_forward("cross_entropy")),
    "NLLLoss": Spec((_REDUCTION, _typed("weight")), _cross_entropy_forward("nll_loss")),
    "NLLLoss2d": Spec((_REDUCTION, _typed("weight")), _cross_entropy_forward("nll_loss")),
    "MultiLabelSoftMarginLoss": Spec((_REDUCTION, _typed("weight")), _multilabel_soft_margin_forward),
    "MultiMarginLoss": Spec((_REDUCTION, _typed("weight"), _static("p", default=1)), _multi_margin_forward),
    "GaussianNLLLoss": Spec((_REDUCTION,), _gaussian_nll_forward),
    "KLDivLoss": Spec((_REDUCTION,), _kl_div_forward),
    "TripletMarginLoss": Spec((_REDUCTION, _static("swap", default=False)), _triplet_margin_forward),
}


_SAME_SPEC = Spec((), _same_forward)

SAME_SHAPE = frozenset(
    _NN + name
    for name in (
        "linear.Identity",
        "dropout.Dropout",
        "dropout.AlphaDropout",
        "dropout.FeatureAlphaDropout",
        *(
            "activation." + a
            for a in (
                "Threshold",
                "ReLU",
                "RReLU",
                "Hardtanh",
                "ReLU6",
                "Sigmoid",
                "Hardsigmoid",
                "Tanh",
                "SiLU",
                "Mish",
                "Hardswish",
                "ELU",
                "CELU",
                "SELU",
                "GELU",
                "Hardshrink",
                "LeakyReLU",
                "LogSigmoid",
                "Softplus",
                "Softshrink",
                "PReLU",
                "Softsign",
                "Tanhshrink",
                "Softmin",
                "Softmax",
                "Softmax2d",
                "LogSoftmax",
            )
        ),
    )
)

_CONV = (
    _size("in_channels"),
    _size("out_channels"),
    _static("kernel_size"),
    _static("stride", default=1),
    _static("padding", default=0),
    _static("dilation", default=1),
    _static("groups", default=1),
)

# d_model, nhead, batch_first (`nn.Transformer()` is 512 wide with 8 heads)
_TRANSFORMER = (_size("d_model", default=512), _size("nhead", default=8), _static("batch_first", default=False))

SPECS: dict[str, Spec] = {
    _NN + "linear.Linear": Spec((_size("in_features"), _size("out_features")), _linear_forward),
    _NN + "linear.Bilinear": Spec(
        (_size("in1_features"), _size("in2_features"), _size("out_features")), _bilinear_forward
    ),
    _NN + "sparse.Embedding": Spec((_size("num_embeddings"), _size("embedding_dim")), _embedding_forward),
    _NN + "sparse.EmbeddingBag": Spec(
        (
            _size("num_embeddings"),
            _size("embedding_dim"),
            _static("mode", default="mean"),
            _static("include_last_offset", default=False),
        ),
        _embedding_bag_forward,
    ),
    _NN + "normalization.LayerNorm": Spec((_sizes("normalized_shape"),), _layer_norm_forward),
    _NN + "normalization.RMSNorm": Spec((_sizes("normalized_shape"),), _rms_norm_forward),
    _NN + "normalization.GroupNorm": Spec(
        (_static("num_groups"), _size("num_channels"), _static("affine", default=True)), _group_norm_forward
    ),
    _NN + "batchnorm._BatchNorm": Spec((_BATCH_NORM_FEATURES,), _batch_norm_forward),
    _NN + "batchnorm.BatchNorm1d": Spec((_BATCH_NORM_FEATURES,), _batch_norm_forward),
    _NN + "batchnorm.BatchNorm2d": Spec((_BATCH_NORM_FEATURES,), _batch_norm_forward),
    _NN + "batchnorm.BatchNorm3d": Spec((_BATCH_NORM_FEATURES,), _batch_norm_forward),
    _NN + "batchnorm.SyncBatchNorm": Spec((_BATCH_NORM_FEATURES,), _batch_norm_forward),
    _NN + "instancenorm._InstanceNorm": Spec((_INSTANCE_NORM_FEATURES,), _instance_norm_forward),
    **{name: Spec((_INSTANCE_NORM_FEATURES,), _instance_norm_forward) for name in _INSTANCE_NORM_RANKS},
    _NN + "conv.Conv1d": Spec(_CONV, _conv_forward(1)),
    _NN + "conv.Conv2d": Spec(_CONV, _conv_forward(2)),
    _NN + "conv.Conv3d": Spec(_CONV, _conv_forward(3)),
    _NN + "conv.ConvTranspose1d": Spec((*_CONV, _static("output_padding", default=0)), _conv_transpose_forward(1)),
    _NN + "conv.ConvTranspose2d": Spec((*_CONV, _static("output_padding", default=0)), _conv_transpose_forward(2)),
    _NN + "conv.ConvTranspose3d": Spec((*_CONV, _static("output_padding", default=0)), _conv_transpose_forward(3)),
    _NN + "flatten.Flatten": Spec((_static("start_dim", default=1), _static("end_dim", default=-1)), _flatten_forward),
    _NN + "activation.GLU": Spec((_static("dim", default=-1),), _glu_forward),
    _NN + "flatten.Unflatten": Spec((_static("dim"), _static("unflattened_size")), _unflatten_forward),
    _NN + "activation.MultiheadAttention": Spec(
        (
            _size("embed_dim"),
            _size("num_heads"),
            _static("batch_first", default=False),
            _size("kdim", same_as=0),
            _size("vdim", same_as=0),
            _static("add_bias_kv", default=False),
            _static("add_zero_attn", default=False),
        ),
        _multihead_attention_forward,
    ),
    _NN + "transformer.TransformerEncoderLayer": Spec(_TRANSFORMER, _transformer_layer_forward),
    _NN + "transformer.TransformerDecoderLayer": Spec(_TRANSFORMER, _transformer_layer_forward),
    _NN + "transformer.TransformerEncoder": Spec((_typed("encoder_layer"),), _transformer_stack_forward),
    _NN + "transformer.TransformerDecoder": Spec((_typed("decoder_layer"),), _transformer_stack_forward),
    _NN + "transformer.Transformer": Spec(_TRANSFORMER, _transformer_forward),
}
_POOL_MAX = (
    _static("kernel_size"),
    _static("stride", default=None),
    _static("padding", default=0),
    _static("dilation", default=1),
    _static("ceil_mode", default=False),
    _static("return_indices", default=False),
)
_POOL_AVG = (
    _static("kernel_size"),
    _static("stride", default=None),
    _static("padding", default=0),
    _static("ceil_mode", default=False),
)
for _n in (1, 2, 3):
    SPECS[f"{_NN}pooling.MaxPool{_n}d"] = Spec(_POOL_MAX, _max_pool_forward(_n))
    SPECS[f"{_NN}pooling.AvgPool{_n}d"] = Spec(_POOL_AVG, _averaging_pool_forward(_n, "avg"))
_POOL_LP = (
    _static("kernel_size"),
    _static("stride", default=None),
    _static("ceil_mode", default=False),
)
for _n in (1, 2, 3):
    SPECS[f"{_NN}pooling.LPPool{_n}d"] = Spec(_POOL_LP, _averaging_pool_forward(_n, "lp"))
for _n in (1, 2):
    SPECS[f"{_NN}pooling.AdaptiveAvgPool{_n}d"] = Spec((_static("output_size"),), _adaptive_pool_forward(_n, "avg"))
    SPECS[f"{_NN}pooling.AdaptiveMaxPool{_n}d"] = Spec(
        (_static("output_size"), _static("return_indices", default=False)), _adaptive_pool_forward(_n, "max")
    )
for _n in (1, 2, 3):
    for _kind, _mode in (("Zero", "constant"), ("Constant", "constant"), ("Reflection", "reflect"),
                         ("Replication", "replicate"), ("Circular", "circular")):
        SPECS[f"{_NN}padding.{_kind}Pad{_n}d"] = Spec((_static("padding"),), _pad_forward(_n, _mode))
for _n in (1, 2, 3):
    SPECS[f"{_NN}dropout.Dropout{_n}d"] = Spec((), _feature_dropout_forward(_n))
SPECS[_NN + "pixelshuffle.PixelShuffle"] = Spec((_static("upscale_factor"),), _pixel_shuffle_forward(False))
SPECS[_NN + "pixelshuffle.PixelUnshuffle"] = Spec((_static("downscale_factor"),), _pixel_shuffle_forward(True))
SPECS[_NN + "channelshuffle.ChannelShuffle"] = Spec((_static("groups"),), _channel_shuffle_forward)
_UPSAMPLE = (_static("size", default=None), _static("scale_factor", default=None))
SPECS[_NN + "upsampling.Upsample"] = Spec((*_UPSAMPLE, _static("mode", default="nearest")), _upsample_forward)
SPECS[_NN + "upsampling.UpsamplingNearest2d"] = Spec((*_UPSAMPLE, _static("mode", default="nearest")), _upsample_forward)
SPECS[_NN + "upsampling.UpsamplingBilinear2d"] = Spec(
    (*_UPSAMPLE, _static("mode", default="bilinear")), _upsample_forward
)

_RECURRENT = (
    _size("input_size"),
    _size("hidden_size"),
    _static("num_layers", default=1),
    _static("batch_first", default=False),
    _static("bidirectional", default=False),
)
_CELL = (_size("input_size"), _size("hidden_size"))
SPECS[_NN + "rnn.RNNCell"] = Spec(_CELL, _cell_forward("RNNCell"))
SPECS[_NN + "rnn.GRUCell"] = Spec(_CELL, _cell_forward("GRUCell"))
SPECS[_NN + "rnn.LSTMCell"] = Spec(_CELL, _cell_forward("LSTMCell"))
SPECS[_NN + "rnn.RNN"] = Spec(_RECURRENT, _recurrent_forward("RNN"))
SPECS[_NN + "rnn.GRU"] = Spec(_RECURRENT, _recurrent_forward("GRU"))
SPECS[_NN + "rnn.LSTM"] = Spec((*_RECURRENT, _static("proj_size", default=0)), _recurrent_forward("LSTM"))

SPECS.update({f"{_NN}loss.{name}": spec for name, spec in _LOSSES.items()})

CONSTRUCTORS = frozenset(name for name in SPECS if not name.rpartition(".")[2].startswith("_"))

# einops' layers (`Rearrange`, `Reduce`) carry their pattern in their type; their rules live in
# `_einops`, which also builds them.  Calling one, or chaining it in `nn.Sequential`, runs its rule.
SPECS.update({name: Spec((), forward) for name, forward in _einops.LAYER_FORWARDS.items()})


# -- nn.Sequential --------------------------------------------------------------------------------


def sequential_hook(ctx: MethodContext, lookup: Lookup) -> Type:
    """`seq(x)`: the input run through each layer in turn (unknown once a layer's output is unknown)."""
    seq = get_proper_type(ctx.type)
    if not isinstance(seq, Instance) or not ctx.arg_types or not ctx.arg_types[0]:
        return ctx.default_return_type
    layers = _layers(seq)
    if layers is None:
        return ctx.default_return_type
    current = ctx.arg_types[0][0]
    scope = Scope(lookup)
    for index, layer in enumerate(layers):
        layer_type = get_proper_type(layer)
        if not isinstance(layer_type, Instance):
            return scope.tensor_type(None)
        prefix = f"layer {index} of nn.Sequential: "
        current = run_module(
            layer_type, [current], ctx.api, ctx.context, lookup, default=scope.tensor_type(None), prefix=prefix
        )
        if _is_failed(current):
            break
    return current


def _layers(seq: Instance) -> list[Type] | None:
    layers: list[Type] = []
    for arg in seq.args:
        if isinstance(arg, UnpackType):
            inner = get_proper_type(arg.type)
            if isinstance(inner, TupleType):
                layers.extend(inner.items)
                continue
            if isinstance(inner, TypeVarTupleType):
                return None
            return None
        if isinstance(get_proper_type(arg), AnyType):
            return None
        layers.append(arg)
    return layers
