"""What `@checked` will check for one function: its parameters' and return's hints, read once."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tyr._annotations import Computed, DimHint, Hint, Named, OptionalHint, TupleHint, Variadic, read_hint
from tyr._errors import AnnotationError


@dataclass(frozen=True)
class Slot:
    """One checked value: a parameter (`name`) or the return value (`name` is None)."""

    name: str | None
    hint: Hint

    @property
    def label(self) -> str:
        return "return value" if self.name is None else f"argument '{self.name}'"


@dataclass(frozen=True)
class Plan:
    function: str  # qualified name, for messages
    signature: inspect.Signature
    params: tuple[Slot, ...]  # in signature order
    result: Slot | None
    class_dims: frozenset[str]  # sizes bound per instance (a @checked Generic class's TypeVars)
    binds_class_dims: bool  # this is the constructor: record the class dims it binds
    same_device: bool
    rest_hints: dict[str, Any]  # hints tyr leaves to beartype (non-tensor parameters)


def resolve_hints(fn: Callable[..., Any], localns: dict[str, Any] | None = None) -> dict[str, Any]:
    """The function's annotations as objects, `Annotated` metadata kept (raises NameError on forward refs).

    An annotation Python cannot evaluate (`nn.Linear[I, O]`: torch's modules are generic in tyr's stubs
    only, written under `from __future__ import annotations`) holds no tensor shape: it is left out,
    unchecked, and the others are checked."""
    try:
        return typing.get_type_hints(fn, localns=localns, include_extras=True)
    except TypeError:
        pass
    hints: dict[str, Any] = {}
    globalns = getattr(inspect.unwrap(fn), "__globals__", {})
    for name, annotation in getattr(fn, "__annotations__", {}).items():
        one = types.SimpleNamespace(__annotations__={name: annotation}, __globals__=globalns)
        try:
            hints.update(typing.get_type_hints(one, localns=localns, include_extras=True))
        except TypeError:
            continue
    return hints


def make_plan(
    fn: Callable[..., Any],
    hints: dict[str, Any],
    *,
    class_dims: frozenset[str] = frozenset(),
    same_device: bool = False,
) -> Plan:
    signature = inspect.signature(fn)
    params: list[Slot] = []
    rest: dict[str, Any] = {}
    for name, param in signature.parameters.items():
        if name not in hints:
            continue
        hint = read_hint(hints[name])
        if hint is None:
            rest[name] = hints[name]
        elif param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise AnnotationError(
                f"{fn.__qualname__}: *{name}/**{name} cannot carry a shape; pass a tuple[...] instead"
            )
        else:
            params.append(Slot(name, hint))
    result_hint = read_hint(hints["return"]) if "return" in hints else None
    return Plan(
        function=fn.__qualname__,
        signature=signature,
        params=tuple(params),
        result=Slot(None, result_hint) if result_hint is not None else None,
        class_dims=class_dims & names_used(params, result_hint),
        binds_class_dims=fn.__name__ == "__init__",
        same_device=same_device,
        rest_hints=rest,
    )


def _hint_names(hint: Hint | None) -> set[str]:
    if hint is None:
        return set()
    if isinstance(hint, OptionalHint):
        return _hint_names(hint.inner)
    if isinstance(hint, TupleHint):
        return set().union(*(_hint_names(h) for h in hint.items))
    dims = (hint.dim,) if isinstance(hint, DimHint) else (hint.shape.dims if hint.shape else ())
    names: set[str] = set()
    for dim in dims:
        if isinstance(dim, (Named, Variadic)) and dim.name is not None:
            names.add(dim.name)
        elif isinstance(dim, Computed):
            names |= dim.expr.symbols
    return names


def names_used(params: list[Slot], result: Hint | None) -> frozenset[str]:
    return frozenset(set().union(*(_hint_names(s.hint) for s in params), _hint_names(result)))


def has_checks(plan: Plan) -> bool:
    return bool(plan.params) or plan.result is not None
