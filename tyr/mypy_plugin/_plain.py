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
from dataclasses import dataclass

from mypy.checker import TypeChecker
from mypy.join import join_types
from mypy.literals import literal, literal_hash
from mypy.nodes import LITERAL_TYPE
from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    AssignmentStmt,
    CallExpr,
    Context,
    Expression,
    IndexExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    RefExpr,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.subtypes import is_proper_subtype
from mypy.plugin import AttributeContext, FunctionContext, FunctionSigContext, MethodContext, MethodSigContext
from mypy.type_visitor import TypeTranslator
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
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
from tyr.mypy_plugin._rebinding import Assignments, Body, hold_on_skipped_paths
from tyr.mypy_plugin._types import Lookup, Scope, is_int_literal, mentions_shapes

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


def assigned_attribute_hook(ctx: AttributeContext, lookup: Lookup, assignments: Assignments, reassigned: bool) -> Type:
    """An attribute whose type mypy inferred, as the target of an assignment: any module of its class fits.

    mypy reads the target too (`m.fc` in `m.fc = nn.Linear(512, 10)`) and narrows it to the
    value only where the value fits what it read: read as torch types it, `m.fc` is the new
    `Linear[512, 10]` from there on, not the old one's sizes.  An attribute its class assigns
    more than once (`self.shortcut = nn.Sequential()`, then `nn.Sequential(conv, norm)` where the
    stride is not 1) holds any of those values wherever it is read: torch's type, sizes unknown.
    """
    if reassigned or ctx.is_lvalue or assignments.assigns(ctx.api, ctx.context):
        return loosen(ctx.default_attr_type, Scope(lookup))
    return ctx.default_attr_type


def new_submodule_hook(ctx: AttributeContext, lookup: Lookup, assignments: Assignments) -> Type:
    """`seq.proj = nn.Conv2d(8, 4, 1)`: assigning a module a submodule torch does not declare registers it, and
    on an `nn.Sequential` it is a new last layer, as `add_module` adds: its layers are unknown from then on."""
    receiver = get_proper_type(ctx.type)
    if (
        isinstance(receiver, Instance)
        and receiver.type.has_base(_names.SEQUENTIAL)
        and has_sizes(receiver)
        and assignments.assigns(ctx.api, ctx.context)
    ):
        _retype(ctx, _any_layers(receiver, Scope(lookup)))
    return ctx.default_attr_type


def _any_layers(sequential: Instance, scope: Scope) -> Instance:
    """An `nn.Sequential` whose layers are unknown (`Sequential[*tuple[Any, ...]]`)."""
    return sequential.copy_modified(args=[_any_argument(v, scope) for v in sequential.type.defn.type_vars])


_CONTAINER = "torch.nn.modules.container."


@dataclass(frozen=True)
class _Mutation:
    """How a mutating method puts elements in its receiver."""

    element: int  # the receiver's type argument that is the element type
    argument: int  # the call argument that holds the new element(s)
    kind: str  # "one" element, "many" (an iterable of them), or a "mapping" of them


CONTAINER_MUTATORS: dict[str, _Mutation] = {
    **{f"builtins.list.{m}": _Mutation(0, 0, "one") for m in ("append",)},
    **{f"builtins.list.{m}": _Mutation(0, 1, "one") for m in ("insert", "__setitem__")},
    **{f"builtins.list.{m}": _Mutation(0, 0, "many") for m in ("extend", "__iadd__")},
    **{f"builtins.dict.{m}": _Mutation(1, 1, "one") for m in ("__setitem__", "setdefault")},
    "builtins.dict.update": _Mutation(1, 0, "mapping"),
    "builtins.set.add": _Mutation(0, 0, "one"),
    "builtins.set.update": _Mutation(0, 0, "many"),
    **{f"{_CONTAINER}ModuleList.{m}": _Mutation(0, 0, "one") for m in ("append",)},
    **{f"{_CONTAINER}ModuleList.{m}": _Mutation(0, 1, "one") for m in ("insert", "__setitem__")},
    **{f"{_CONTAINER}ModuleList.{m}": _Mutation(0, 0, "many") for m in ("extend", "__iadd__")},
}
"""Methods that put elements into a container whose type mypy inferred from its first elements."""

SEQUENTIAL_MUTATORS = frozenset(
    {"append", "insert", "extend", "pop", "__setitem__", "__delitem__", "__iadd__", "__imul__", "add_module", "register_module"}
)
"""Methods that change the layers of an `nn.Sequential`."""


def mutation_kind(owner: TypeInfo | None, method: str, fullname: str) -> str | None:
    """Which mutation `fullname` is, for `mutation_hook`: "sequential", "container", or None."""
    if owner is not None and owner.has_base(_names.SEQUENTIAL) and method in SEQUENTIAL_MUTATORS:
        return "sequential"
    if fullname in CONTAINER_MUTATORS:
        return "container"
    if owner is not None and owner.has_base(_names.MODULE_LIST):
        return "container" if f"{_names.MODULE_LIST}.{method}" in CONTAINER_MUTATORS else None
    return None


def _sized(t: Type) -> bool:
    """An element type whose sizes mypy would hold against other elements: a sized torch class
    (`Linear[4, 8]`, `Tensor[3]`), a user's generic module (`Block[4]`), a `Dim`, or a container of them."""
    if has_sizes(t):
        return True
    p = get_proper_type(t)
    if is_int_literal(p):  # `dims = [y.shape[0]]`: a size, which mypy would not widen as it does `[2]`
        return True
    if isinstance(p, Instance):
        if p.type.type_vars and p.type.has_base(_names.MODULE) and not all(map(_is_any, p.args)):
            return True
        return any(_sized(a) for a in p.args if not isinstance(a, UnpackType))
    return False


def container_mutation_hook(ctx: MethodSigContext, lookup: Lookup) -> CallableType:
    """`outs.append(x)` on a `list[Tensor[3]]` accepts a tensor of any shape, `blocks.append(m)` any module.

    mypy types a container by its first elements (`outs = [torch.zeros(3)]`), and code
    puts tensors of other shapes (modules of other sizes) in later; that is no error.
    (`mutation_hook` then widens the container's own type to take them.)
    """
    receiver = get_proper_type(ctx.type)
    signature = ctx.default_signature
    if not (isinstance(receiver, Instance) and any(_sized(arg) for arg in receiver.args)):
        return signature
    return signature.copy_modified(arg_types=[t.accept(_AnySizes(Scope(lookup))) for t in signature.arg_types])


class _AnySizes(TypeTranslator):
    """Every generic instance with `Any` type arguments: a module or tensor of any sizes."""

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def visit_literal_type(self, t: LiteralType, /) -> Type:
        return self.scope.instance(_names.INT) if is_int_literal(t) else t

    def visit_instance(self, t: Instance, /) -> Type:
        if t.last_known_value is not None:  # `7`: an `int` known to be `Literal[7]`, which is any int here
            return t.copy_modified(last_known_value=None)
        if t.type.fullname == _names.DIM:
            return self.scope.instance(_names.INT)
        if t.type.type_vars and t.type.fullname not in (_names.LIST, _names.TUPLE, "builtins.dict", "builtins.set"):
            return t.copy_modified(args=[_any_argument(v, self.scope) for v in t.type.defn.type_vars])
        return super().visit_instance(t)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        if t.is_recursive:
            return t
        return get_proper_type(t).accept(self)


def mutation_hook(ctx: MethodContext, kind: str, method: str, lookup: Lookup, assignments: Assignments) -> Type:
    """After `blocks.append(nn.Linear(8, 2))` on a `list[Linear[4, 8]]`, the list is a
    `list[Linear[Any, Any]]`: its elements' types join to unknown sizes (SHAPES.md §6).

    mypy keeps a container's inferred type when code adds elements of other sizes (the
    signature accepts them, `container_mutation_hook`); an element read back would have
    the first one's sizes, a wrong shape.  So the variable (or attribute) holding the
    container is retyped: its element type joined with the new one's, class by class
    (sizes that differ are `Any`).  An `nn.Sequential` whose layers change (`append`,
    `add_module`, ...) has layers of unknown sizes from then on: calling it no longer
    passes its input through as if it were still empty.
    """
    receiver = get_proper_type(ctx.type)
    if not isinstance(receiver, Instance):
        return ctx.default_return_type
    scope = Scope(lookup)
    if kind == "sequential":
        if not has_sizes(receiver):
            return ctx.default_return_type
        changed = _any_layers(receiver, scope)
    else:
        base = _names.MODULE_LIST if receiver.type.has_base(_names.MODULE_LIST) else receiver.type.mro[0].fullname
        mutation = CONTAINER_MUTATORS.get(f"{base}.{method}") or CONTAINER_MUTATORS.get(f"builtins.{receiver.type.name}.{method}")
        if mutation is None or len(receiver.args) <= mutation.element or not _sized(receiver.args[mutation.element]):
            return ctx.default_return_type
        element = receiver.args[mutation.element]
        joined = element
        kind = "many" if method == "__setitem__" and _is_slice(ctx) else mutation.kind  # `shape[1:] = [1] * n`
        if mutation.argument < len(ctx.arg_types):
            for actual, expr in zip(ctx.arg_types[mutation.argument], ctx.args[mutation.argument]):
                for item in _elements(ctx, actual, expr, kind):
                    joined = _join_sizes(joined, item, scope)
        if joined is element:
            return ctx.default_return_type
        args = list(receiver.args)
        args[mutation.element] = joined
        changed = receiver.copy_modified(args=args)
    _retype(ctx, changed, assignments)
    if method == "__iadd__":
        # `outs += [y]`: mypy holds the result against the name's type as it was before the call
        # (`_retype` has given the name the joined type already)
        return ctx.default_return_type
    default = get_proper_type(ctx.default_return_type)
    return changed if isinstance(default, Instance) and default.type == receiver.type else ctx.default_return_type


def _is_slice(ctx: MethodContext) -> bool:
    """Whether an item assignment's index is a slice, whose value is an iterable of elements."""
    index = ctx.arg_types[0] if ctx.arg_types else []
    return any(isinstance(p := get_proper_type(t), Instance) and p.type.fullname == "builtins.slice" for t in index)


def _elements(ctx: MethodContext, t: Type, expr: Expression, kind: str) -> list[Type]:
    """The elements an argument adds: itself, or the items of an iterable (the values of a mapping).

    A literal list or tuple is read item by item: its own type was inferred in the context of
    the (loosened) parameter, which says nothing of the items' sizes.
    """
    if kind == "one":
        return [t]
    api = ctx.api
    if kind == "many" and isinstance(expr, (ListExpr, TupleExpr)) and isinstance(api, TypeChecker):
        types = [api.lookup_type_or_none(item) for item in expr.items]
        if all(item is not None for item in types):
            return [item for item in types if item is not None]
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return list(p.items)
    if isinstance(p, Instance) and p.args:
        return [p.args[1 if kind == "mapping" and len(p.args) > 1 else 0]]
    return []


def _join_sizes(element: Type, new: Type, scope: Scope) -> Type:
    """`element`, or where `new` does not fit it, the two joined: same class with the type arguments
    that differ `Any` (`Linear[4, 8]` and `Linear[8, 2]` give `Linear[Any, Any]`), else mypy's join
    of the two with every size unknown (mypy's own join of `Tensor[3, 0]` and `Tensor[4]` would
    claim a tensor whose sizes are all 0, 3 or 4)."""
    if is_proper_subtype(new, element):
        return element
    e, n = get_proper_type(element), get_proper_type(new)
    if isinstance(e, Instance) and isinstance(n, Instance) and e.type == n.type and len(e.args) == len(n.args):
        args = [a if a == b else _any_like(a) for a, b in zip(e.args, n.args)]
        return e.copy_modified(args=args)
    any_sizes = _AnySizes(scope)
    return join_types(element.accept(any_sizes), new.accept(any_sizes))


def _any_like(arg: Type) -> Type:
    if isinstance(arg, UnpackType):
        inner = get_proper_type(arg.type)
        if isinstance(inner, Instance) and inner.type.fullname == _names.TUPLE:
            return UnpackType(inner.copy_modified(args=[_ANY]))
        if isinstance(inner, TupleType):
            return UnpackType(inner.partial_fallback.copy_modified(args=[_ANY]))
    return _ANY


def _retype(ctx: MethodContext | AttributeContext, changed: Instance, assignments: Assignments | None = None) -> None:
    """Give the variable or attribute the mutated container is read from the type `changed`, and the locals
    that hold the same container (`alias = seq`, or `seq = alias`, in the same body: `assignments`)."""
    api = ctx.api
    receiver = _receiver_expr(ctx.context)
    if not isinstance(api, TypeChecker) or not isinstance(receiver, RefExpr):
        return
    var = receiver.node
    if isinstance(receiver, MemberExpr) and not isinstance(var, Var):  # `self.blocks`: the class's attribute
        owner = get_proper_type(api.lookup_type_or_none(receiver.expr))
        found = owner.type.get(receiver.name) if isinstance(owner, Instance) else None
        var = found.node if found is not None else None
    _put(api, receiver, var, changed)
    if assignments is not None and isinstance(receiver, NameExpr) and isinstance(var, Var):
        for alias in _aliases(assignments.body(api), var):
            name = NameExpr(alias.name)
            name.node = alias
            _put(api, name, alias, changed)


def _aliases(body: Body, var: Var) -> list[Var]:
    """The locals a body assigns `var` to, or assigns to `var`, and theirs in turn (`a = seq; b = a`)."""
    found: dict[int, Var] = {}
    todo = [var]
    while todo:
        current = todo.pop()
        linked = [n.node for n in body.aliases.get(id(current), []) if isinstance(n.node, Var)]
        for other in [*linked, *body.sources.get(id(current), [])]:
            if other is not var and id(other) not in found:
                found[id(other)] = other
                todo.append(other)
    return list(found.values())


def _put(api: TypeChecker, receiver: RefExpr, var: object, changed: Instance) -> None:
    """Declare `var` (the variable `receiver` reads, if inferred) and narrow `receiver` to `changed`."""
    if isinstance(var, Var) and var.is_inferred and not var.is_final and var.type is not None:
        if isinstance(get_proper_type(var.type), Instance):
            var.type = changed
    key = literal_hash(receiver)
    if literal(receiver) == LITERAL_TYPE and key is not None:
        api.binder.put(receiver, changed)
        if key in api.binder.declarations:
            api.binder.declarations[key] = changed
        hold_on_skipped_paths(api, key, changed)


def _receiver_expr(context: Context) -> Expression | None:
    """The container a mutating call acts on: `blocks` in `blocks.append(m)`, `blocks[i] = m`, `blocks += ms`,
    `seq.proj = m`."""
    if isinstance(context, CallExpr) and isinstance(context.callee, MemberExpr):
        return context.callee.expr
    if isinstance(context, IndexExpr):
        return context.base
    if isinstance(context, MemberExpr):
        return context.expr
    if isinstance(context, OpExpr):
        return context.left
    if isinstance(context, OperatorAssignmentStmt):
        return context.lvalue
    if isinstance(context, AssignmentStmt) and len(context.lvalues) == 1 and isinstance(context.lvalues[0], IndexExpr):
        return context.lvalues[0].base
    return None


def module_list_hook(ctx: FunctionContext, lookup: Lookup, shaped_call: Callable[[Instance], bool]) -> Type:
    """`nn.ModuleList(blocks)`: `ModuleList[Block]` if calling a `Block` can give a shape, else `ModuleList[Module]`."""
    result = get_proper_type(ctx.default_return_type)
    if not (isinstance(result, Instance) and len(result.args) == 1):
        return ctx.default_return_type
    scope = Scope(lookup)
    module = scope.instance(_names.MODULE)
    joined = _joined_items(ctx, scope)
    if joined is not None:  # `[nn.Linear(16, 32), nn.Linear(32, 8)]`: `Linear[Any, Any]`, not mypy's `Module`
        result = result.copy_modified(args=[joined])
    element = get_proper_type(result.args[0])
    if isinstance(element, Instance) and _is_container(element):
        # a container to unpack (`for attn, ff in layers`), which torch's stubs refuse already (its
        # elements are `Module`s): where its own elements say no more than that, they are `Any`,
        # so that the refusal does not turn into later errors (`layer.step(x)` in `for layer in block`)
        if element.args and all(get_proper_type(a) == module for a in element.args):
            return result.copy_modified(args=[element.copy_modified(args=[_ANY for _ in element.args])])
        return result
    if isinstance(element, Instance) and shaped_call(element):
        return result  # a shape to keep
    if _mixes_in_containers(ctx, element):
        # `ModuleList([ModuleList([lin, act]), nn.Identity()])`: code unpacks the items that are
        # containers, which a `Module` element would refuse; torch's stubs refuse the outer list's
        # unpacking already, so an element that says less must not turn that into later errors
        return result.copy_modified(args=[_ANY])
    return result.copy_modified(args=[module])


def _is_container(t: ProperType) -> bool:
    return isinstance(t, Instance) and t.type.has_readable_member("__iter__")


def _mixes_in_containers(ctx: FunctionContext, element: ProperType) -> bool:
    """Whether some module given to a container is itself a container, where mypy joined the items
    to something that is not (`ModuleList | None`, or `Module` for `[ModuleList(...), Identity()]`)."""
    items = [*(element.items if isinstance(element, UnionType) else [element]), *(_literal_items(ctx) or [])]
    return any(t is not None and _is_container(get_proper_type(t)) for t in items)


def _joined_items(ctx: FunctionContext, scope: Scope) -> Type | None:
    """The modules of a literal list or tuple argument joined class by class (sizes that differ are
    unknown), where they are all of one class; None otherwise."""
    literal = _literal_items(ctx)
    if literal is None:
        return None
    items = [get_proper_type(item) for item in literal]
    first = items[0] if items else None
    if not isinstance(first, Instance) or not all(isinstance(i, Instance) and i.type == first.type for i in items):
        return None
    joined: Type = first
    for item in items[1:]:
        assert item is not None
        joined = _join_sizes(joined, item, scope)
    return joined


def _literal_items(ctx: FunctionContext) -> list[Type | None] | None:
    """The types of the items of a literal list or tuple given as the one argument (`ModuleList([a, b])`),
    None for an item mypy has not typed; None for any other argument."""
    if len(ctx.args) != 1 or len(ctx.args[0]) != 1 or not isinstance(ctx.args[0][0], (ListExpr, TupleExpr)):
        return None
    api = ctx.api
    if not isinstance(api, TypeChecker):
        return None
    return [api.lookup_type_or_none(item) for item in ctx.args[0][0].items]


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
