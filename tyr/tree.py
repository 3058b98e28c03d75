"""Operations over structures of tensors: tyr's ``TensorStruct``.

A *tree* is any nesting of the containers below, with tensors (and other
values) at the leaves:

- ``dict`` (and ``OrderedDict``/``defaultdict``), ``list``, ``tuple`` and
  named tuples;
- dataclasses (every field is a child; they are rebuilt without calling
  ``__init__``/``__post_init__``);
- ``torch.nn.Module`` (its own parameters, then its buffers, then its
  submodules — so paths read like ``model.state_dict()`` keys, e.g.
  ``"blocks.0.attn.weight"``);
- any class registered with :func:`register`.

``None`` is an empty subtree, not a leaf. Every leaf has a :class:`Role`:
a tensor that requires grad is ``TRAINABLE``, any other tensor is ``FROZEN``
and a non-tensor leaf (an int in a config, a string) is ``STATIC``. The
functions here act on tensor leaves and carry static leaves through
unchanged.

Traversal is delegated to `optree <https://github.com/metaopt/optree>`_ in
its own ``"tyr"`` namespace; ``nn.Module`` subclasses and dataclasses are
registered with it the first time they are seen.

Example::

    >>> import torch
    >>> from tyr import tree
    >>> model = torch.nn.Linear(3, 2)
    >>> [path for path, _ in tree.leaves_with_paths(model)]
    ['weight', 'bias']
    >>> zeros = tree.map(torch.zeros_like, model)   # a new Linear, all zeros
    >>> tree.count(model, role=tree.Role.TRAINABLE)
    8
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import threading
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from typing import Any, Generic, TypeVar

import optree
import torch
from torch import nn

__all__ = [
    "Role",
    "StructureMismatchError",
    "TreeDef",
    "all",
    "any",
    "count",
    "filter",
    "flatten",
    "fold",
    "leaves",
    "leaves_with_paths",
    "map",
    "map_with_path",
    "register",
    "role",
    "unflatten",
    "zip_with",
]

S = TypeVar("S")
T = TypeVar("T")
A = TypeVar("A")

_NAMESPACE = "tyr"


class Role(enum.Enum):
    """What a leaf is for. Frozen tensors must never reach an optimizer."""

    TRAINABLE = "trainable"  # a tensor with requires_grad=True
    FROZEN = "frozen"  # a tensor with requires_grad=False (buffers, frozen weights)
    STATIC = "static"  # anything that is not a tensor


class StructureMismatchError(ValueError):
    """Two trees that must have the same structure do not."""


def role(leaf: object) -> Role:
    """The :class:`Role` of one leaf."""
    if isinstance(leaf, torch.Tensor):
        return Role.TRAINABLE if leaf.requires_grad else Role.FROZEN
    return Role.STATIC


# ---------------------------------------------------------------------------
# Registration


_lock = threading.Lock()
_seen: set[type] = set()  # types already considered by _autoregister
_auto: set[type] = set()  # types registered automatically (may be overridden)


def register(
    cls: type[T],
    *,
    flatten: Callable[[T], tuple[Sequence[Any], Sequence[str], Hashable]],
    unflatten: Callable[[Hashable, Sequence[Any]], T],
) -> type[T]:
    """Make instances of ``cls`` tree nodes.

    Args:
        cls: the class (exactly this class; subclasses register separately).
        flatten: ``obj -> (children, names, aux)``. ``names`` label the
            children in paths; ``aux`` is hashable data that, with the
            children, rebuilds the object. Two objects have the same structure
            when their ``aux`` compare equal and their children do.
        unflatten: ``(aux, children) -> obj``.

    Returns ``cls``, so a class can register itself right after its
    definition. Registering a class that tyr registered automatically (a
    dataclass or module) replaces the automatic rule.

    Example::

        class Pair:
            def __init__(self, a: torch.Tensor, b: torch.Tensor) -> None:
                self.a, self.b = a, b

        tree.register(
            Pair,
            flatten=lambda p: ((p.a, p.b), ("a", "b"), None),
            unflatten=lambda _, children: Pair(*children),
        )
    """

    def flatten_func(obj: T) -> tuple[Sequence[Any], Hashable, Sequence[str]]:
        children, names, aux = flatten(obj)
        return children, aux, names

    with _lock:
        if cls in _auto:
            optree.unregister_pytree_node(cls, namespace=_NAMESPACE)
            _auto.discard(cls)
        optree.register_pytree_node(
            cls,  # type: ignore[arg-type]  # optree wants a Collection; any class works
            flatten_func,  # type: ignore[arg-type]
            unflatten,  # type: ignore[arg-type]
            namespace=_NAMESPACE,
        )
        _seen.add(cls)
    return cls


@dataclasses.dataclass(frozen=True)
class _ModuleAux:
    """Structure of one module node; ``template`` rebuilds it but is not compared."""

    cls: type[nn.Module]
    parameters: tuple[str, ...]
    buffers: tuple[str, ...]
    modules: tuple[str, ...]
    template: nn.Module = dataclasses.field(compare=False, hash=False, repr=False)


def _flatten_module(module: nn.Module) -> tuple[list[Any], _ModuleAux, list[str]]:
    aux = _ModuleAux(
        type(module),
        tuple(module._parameters),
        tuple(module._buffers),
        tuple(module._modules),
        module,
    )
    children = [*module._parameters.values(), *module._buffers.values(), *module._modules.values()]
    return children, aux, [*aux.parameters, *aux.buffers, *aux.modules]


def _unflatten_module(aux: _ModuleAux, children: Sequence[Any]) -> nn.Module:
    template = aux.template
    new = copy.copy(template)
    # Containers (hooks, non-persistent buffer names) must not be shared with the template.
    for key, value in template.__dict__.items():
        if isinstance(value, (dict, set)):
            new.__dict__[key] = copy.copy(value)
    n_param, n_buffer = len(aux.parameters), len(aux.buffers)
    parameters: dict[str, Any] = {}
    for name, value in zip(aux.parameters, children[:n_param]):
        if isinstance(value, torch.Tensor) and not isinstance(value, nn.Parameter):
            # Keep the slot's role: a parameter slot stays a parameter with the old requires_grad.
            old = template._parameters.get(name)
            requires_grad = old.requires_grad if old is not None else value.requires_grad
            value = nn.Parameter(value, requires_grad=requires_grad)
        parameters[name] = value
    new.__dict__["_parameters"] = parameters
    new.__dict__["_buffers"] = dict(zip(aux.buffers, children[n_param : n_param + n_buffer]))
    new.__dict__["_modules"] = dict(zip(aux.modules, children[n_param + n_buffer :]))
    return new


def _flatten_dataclass(obj: Any) -> tuple[list[Any], tuple[str, ...], tuple[str, ...]]:
    names = tuple(f.name for f in dataclasses.fields(obj))
    return [getattr(obj, name) for name in names], names, names


def _dataclass_unflattener(cls: type) -> Callable[[tuple[str, ...], Sequence[Any]], Any]:
    def unflatten(names: tuple[str, ...], children: Sequence[Any]) -> Any:
        obj: Any = object.__new__(cls)
        for name, value in zip(names, children):
            object.__setattr__(obj, name, value)  # works for frozen and slotted dataclasses
        return obj

    return unflatten


def _autoregister(node: object) -> bool:
    """``is_leaf`` hook for optree: registers modules and dataclasses on first sight.

    Always returns False (it never forces a leaf); optree then looks the type up
    in the registry, which by now knows it.
    """
    cls = type(node)
    if cls in _seen:
        return False
    with _lock:
        if cls in _seen:
            return False
        if isinstance(node, nn.Module):
            optree.register_pytree_node(
                cls,  # type: ignore[arg-type]
                _flatten_module,  # type: ignore[arg-type]
                _unflatten_module,  # type: ignore[arg-type]
                namespace=_NAMESPACE,
            )
            _auto.add(cls)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            optree.register_pytree_node(
                cls,  # type: ignore[arg-type]
                _flatten_dataclass,
                _dataclass_unflattener(cls),  # type: ignore[arg-type]
                namespace=_NAMESPACE,
            )
            _auto.add(cls)
        _seen.add(cls)
    return False


# ---------------------------------------------------------------------------
# Flattening


def _flatten(tree: Any) -> tuple[list[Any], optree.PyTreeSpec]:
    return optree.tree_flatten(tree, is_leaf=_autoregister, namespace=_NAMESPACE)


def _rebuild(spec: optree.PyTreeSpec, values: list[Any]) -> Any:
    return optree.tree_unflatten(spec, values)


def _entry_name(entry: optree.PyTreeEntry) -> str:
    if isinstance(entry, (optree.NamedTupleEntry, optree.StructSequenceEntry)):
        return str(entry.field)
    return str(entry.entry)


def _flatten_with_paths(tree: Any) -> tuple[list[str], list[Any], optree.PyTreeSpec]:
    accessors, values, spec = optree.tree_flatten_with_accessor(
        tree, is_leaf=_autoregister, namespace=_NAMESPACE
    )
    paths = [".".join(_entry_name(entry) for entry in accessor) for accessor in accessors]
    return paths, values, spec


class _TensorSlot:
    def __repr__(self) -> str:
        return "<tensor>"


_TENSOR_SLOT = _TensorSlot()


class TreeDef(Generic[S]):
    """The structure of a tree of type ``S`` with its tensors taken out.

    Static (non-tensor) leaves stay inside; :func:`unflatten` puts tensors back.
    """

    __slots__ = ("_spec", "_template", "num_tensors")

    def __init__(self, spec: optree.PyTreeSpec, template: tuple[object, ...]) -> None:
        self._spec = spec
        self._template = template  # every optree leaf; _TENSOR_SLOT where a tensor was
        self.num_tensors = sum(1 for value in template if value is _TENSOR_SLOT)

    def __repr__(self) -> str:
        return f"TreeDef({self._spec}, num_tensors={self.num_tensors})"


def flatten(tree: S) -> tuple[list[torch.Tensor], TreeDef[S]]:
    """Split ``tree`` into its tensor leaves (in path order) and its structure.

    Returns:
        ``(tensors, treedef)`` with ``unflatten(treedef, tensors)`` rebuilding a
        tree equal to ``tree``.
    """
    values, spec = _flatten(tree)
    tensors = [value for value in values if isinstance(value, torch.Tensor)]
    template = tuple(_TENSOR_SLOT if isinstance(value, torch.Tensor) else value for value in values)
    return tensors, TreeDef(spec, template)


def unflatten(treedef: TreeDef[S], tensors: Iterable[torch.Tensor | None]) -> S:
    """Rebuild a tree from :func:`flatten`'s structure and new tensor leaves.

    Args:
        treedef: the structure returned by :func:`flatten`.
        tensors: one value per tensor leaf, in the same order (``None`` empties a leaf).

    Raises:
        ValueError: when the number of tensors is not ``treedef.num_tensors``.
    """
    given = list(tensors)
    if len(given) != treedef.num_tensors:
        raise ValueError(
            f"tree.unflatten: the structure has {treedef.num_tensors} tensor leaves but "
            f"{len(given)} values were given; pass exactly one value per tensor of the "
            "tree that was flattened."
        )
    it = iter(given)
    values = [next(it) if value is _TENSOR_SLOT else value for value in treedef._template]
    result: S = _rebuild(treedef._spec, values)
    return result


def leaves(tree: object, *, unique: bool = False) -> list[torch.Tensor]:
    """The tensor leaves of ``tree`` in path order.

    Args:
        unique: drop repeats of the same tensor object (tied weights appear once,
            under their first path). Default False.
    """
    return [tensor for _, tensor in _tensor_leaves(tree, unique=unique, with_paths=False)]


def leaves_with_paths(tree: object, *, unique: bool = False) -> list[tuple[str, torch.Tensor]]:
    """``(path, tensor)`` for every tensor leaf, e.g. ``("blocks.0.mlp.weight", w)``.

    Paths join the keys, indices, field names and attribute names from the root
    with ``"."``; a tree that is a single tensor has the path ``""``.

    Args:
        unique: drop repeats of the same tensor object (tied weights appear once,
            under their first path). Default False.
    """
    return _tensor_leaves(tree, unique=unique, with_paths=True)


def _tensor_leaves(tree: object, *, unique: bool, with_paths: bool) -> list[tuple[str, torch.Tensor]]:
    if with_paths:
        paths, values, _ = _flatten_with_paths(tree)
    else:
        values, _ = _flatten(tree)
        paths = [""] * len(values)
    seen: set[int] = set()
    result = []
    for path, value in zip(paths, values):
        if not isinstance(value, torch.Tensor):
            continue
        if unique:
            if id(value) in seen:
                continue
            seen.add(id(value))
        result.append((path, value))
    return result


# ---------------------------------------------------------------------------
# Maps and folds


def map(fn: Callable[[torch.Tensor], torch.Tensor | None], tree: S) -> S:  # noqa: A001
    """Apply ``fn`` to every tensor leaf; static leaves are kept as they are.

    The result has the type of ``tree``: a module maps to a new module of the same
    class (parameter slots stay ``nn.Parameter`` with their old ``requires_grad``),
    a dataclass to a new instance. The input is not modified. Returning ``None``
    empties a leaf.

    Example::

        grads = tree.map(lambda p: p.grad, model)       # same class as model
        half = tree.map(lambda t: t.to(torch.bfloat16), batch)
    """
    values, spec = _flatten(tree)
    new = [fn(value) if isinstance(value, torch.Tensor) else value for value in values]
    result: S = _rebuild(spec, new)
    return result


def map_with_path(fn: Callable[[str, torch.Tensor], torch.Tensor | None], tree: S) -> S:
    """Like :func:`map`, with the leaf's path (see :func:`leaves_with_paths`) as first argument."""
    paths, values, spec = _flatten_with_paths(tree)
    new = [
        fn(path, value) if isinstance(value, torch.Tensor) else value
        for path, value in zip(paths, values)
    ]
    result: S = _rebuild(spec, new)
    return result


def zip_with(fn: Callable[..., torch.Tensor | None], tree: S, *others: S) -> S:
    """Apply ``fn`` to the matching tensor leaves of several trees of the same structure.

    ``fn`` receives one tensor per tree: ``fn(leaf, other_leaf, ...)``. Static
    leaves are taken from ``tree``.

    Raises:
        StructureMismatchError: when a tree's structure differs from ``tree``'s;
            the message names the first differing path and what differs there.

    Example::

        updated = tree.zip_with(lambda p, g: p - lr * g, params, grads)
    """
    paths, values, spec = _flatten_with_paths(tree)
    columns = []
    for position, other in enumerate(others, start=2):
        other_values, other_spec = _flatten(other)
        if other_spec != spec:
            where, what = _first_difference(spec, other_spec, ())
            raise StructureMismatchError(
                f"tree.zip_with: argument {position} does not have the structure of the first "
                f"tree: at {_show_path(where)} {what}. Trees passed to zip_with must have the "
                "same containers, keys and lengths everywhere."
            )
        for path, mine, theirs in zip(paths, values, other_values):
            if isinstance(mine, torch.Tensor) != isinstance(theirs, torch.Tensor):
                raise StructureMismatchError(
                    f"tree.zip_with: at {_show_path(tuple(path.split('.')))} the first tree has "
                    f"{_describe_leaf(mine)} but argument {position} has {_describe_leaf(theirs)}; "
                    "a tensor leaf must meet a tensor leaf."
                )
        columns.append(other_values)
    new = [
        fn(value, *(column[i] for column in columns)) if isinstance(value, torch.Tensor) else value
        for i, value in enumerate(values)
    ]
    result: S = _rebuild(spec, new)
    return result


def fold(fn: Callable[[A, torch.Tensor], A], tree: object, init: A) -> A:
    """Left fold over the tensor leaves in path order: ``fn(...fn(fn(init, t0), t1)..., tn)``.

    Example::

        total_sq = tree.fold(lambda acc, t: acc + t.pow(2).sum(), grads, torch.tensor(0.0))
    """
    acc = init
    for tensor in leaves(tree):
        acc = fn(acc, tensor)
    return acc


def all(pred: Callable[[torch.Tensor], bool], tree: object) -> bool:  # noqa: A001
    """True when ``pred`` holds for every tensor leaf (and for a tree without tensors)."""
    for tensor in leaves(tree):
        if not pred(tensor):
            return False
    return True


def any(pred: Callable[[torch.Tensor], bool], tree: object) -> bool:  # noqa: A001
    """True when ``pred`` holds for at least one tensor leaf."""
    for tensor in leaves(tree):
        if pred(tensor):
            return True
    return False


def filter(  # noqa: A001
    tree: S, where: Role | Collection[Role] | Callable[[str, object], bool]
) -> S:
    """Keep the leaves selected by ``where`` and empty (set to ``None``) all others.

    Args:
        tree: any tree.
        where: a :class:`Role`, a collection of roles, or a predicate
            ``(path, leaf) -> bool`` over every leaf, static ones included.

    Returns a tree of the same type; use :func:`leaves` on it to list what was kept.

    Example::

        trainable = tree.leaves(tree.filter(model, tree.Role.TRAINABLE), unique=True)
        no_bias = tree.filter(model, lambda path, leaf: not path.endswith("bias"))
    """
    if isinstance(where, Role):
        roles: Collection[Role] = (where,)
    elif isinstance(where, Collection):
        roles = where
    else:
        predicate = where
        paths, values, spec = _flatten_with_paths(tree)
        kept = [value if predicate(path, value) else None for path, value in zip(paths, values)]
        result: S = _rebuild(spec, kept)
        return result
    values, spec = _flatten(tree)
    kept = [value if role(value) in roles else None for value in values]
    result = _rebuild(spec, kept)
    return result


def count(tree: object, *, role: Role | None = None) -> int:
    """Number of scalar elements in the tree's tensors, each tensor object counted once.

    Args:
        role: count only tensors of this role (``Role.TRAINABLE`` gives the number of
            trainable parameters of a model). Default: every tensor.
    """
    selected = leaves(tree if role is None else filter(tree, role), unique=True)
    return sum(tensor.numel() for tensor in selected)


# ---------------------------------------------------------------------------
# Error messages


def _show_path(path: tuple[str, ...]) -> str:
    joined = ".".join(part for part in path if part != "")
    return f"path '{joined}'" if joined else "the root"


def _describe_leaf(value: object) -> str:
    if isinstance(value, torch.Tensor):
        return f"a tensor of shape {tuple(value.shape)}"
    return f"a static {type(value).__name__} leaf ({value!r})"


def _child_names(spec: optree.PyTreeSpec) -> list[str]:
    if spec.kind == optree.PyTreeKind.NAMEDTUPLE:
        return list(optree.namedtuple_fields(spec.type))  # type: ignore[arg-type]
    if spec.kind == optree.PyTreeKind.STRUCTSEQUENCE:
        return list(optree.structseq_fields(spec.type))  # type: ignore[arg-type]
    return [str(entry) for entry in spec.entries()]


def _describe_node(spec: optree.PyTreeSpec) -> str:
    if spec.is_leaf():
        return "a leaf"
    if spec.kind == optree.PyTreeKind.NONE:
        return "None"
    name = spec.type.__name__ if spec.type is not None else "node"
    kind = spec.kind
    if kind in (optree.PyTreeKind.LIST, optree.PyTreeKind.TUPLE, optree.PyTreeKind.DEQUE):
        return f"a {name} of length {spec.num_children}"
    if kind in (
        optree.PyTreeKind.DICT,
        optree.PyTreeKind.ORDEREDDICT,
        optree.PyTreeKind.DEFAULTDICT,
        optree.PyTreeKind.FROZENDICT,
    ):
        return f"a {name} with keys {_child_names(spec)}"
    return f"a {name} with children {_child_names(spec)}"


def _first_difference(
    a: optree.PyTreeSpec, b: optree.PyTreeSpec, path: tuple[str, ...]
) -> tuple[tuple[str, ...], str]:
    """The first path (depth first, in path order) where two structures differ, and how."""
    same_node = (
        not a.is_leaf()
        and not b.is_leaf()
        and a.kind == b.kind
        and a.type == b.type
        and _child_names(a) == _child_names(b)
    )
    if not same_node:
        return path, f"the first tree has {_describe_node(a)} but the other has {_describe_node(b)}"
    for name, child_a, child_b in zip(_child_names(a), a.children(), b.children()):
        if child_a != child_b:
            return _first_difference(child_a, child_b, (*path, name))
    # Same children, different node data: e.g. a module whose parameter became a buffer.
    return path, f"the node data differs ({_describe_node(a)}: {a} vs {b})"
