"""`@checked`: shape-check a function's arguments and return value at its call boundary.

Sizes named by the same TypeVar (or string) are bound once per call and shared
by every parameter and the return value.  Parameters tyr has nothing to say
about (ints, configs, ...) are left to beartype, which checks them as usual.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import types
from collections.abc import Callable
from typing import Any, TypeVar, overload

from tyr._codegen import compile_plan
from tyr._config import SWITCH
from tyr._plan import Plan, has_checks, make_plan, resolve_hints

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)  # a class: its methods are checked


def _check_function(
    fn: Callable[..., Any], *, class_dims: frozenset[str], same_device: bool, localns: dict[str, Any] | None
) -> Callable[..., Any]:
    """The compiled checking wrapper for `fn` (hints must resolve now)."""
    hints = resolve_hints(fn, localns)
    plan = make_plan(fn, hints, class_dims=class_dims, same_device=same_device)
    inner = _beartyped(fn, plan) if plan.rest_hints else fn
    if not has_checks(plan):
        return inner
    wrapper = compile_plan(inner, plan)
    functools.update_wrapper(wrapper, fn)
    wrapper.__tyr_plan__ = plan  # type: ignore[attr-defined]
    return wrapper


def _beartyped(fn: Callable[..., Any], plan: Plan) -> Callable[..., Any]:
    """`fn` under beartype for the hints tyr leaves to it.

    beartype sees a copy of `fn` without the annotations tyr checks: a jaxtyping
    annotation checked on its own, outside the call's sizes, would fail on a dim
    such as `"n+1"`, and would cost a second check.
    """
    # Imported by name where it is used: every mypy run that reads tyr's torch stubs reads this
    # module too (through the `tyr` package), and would otherwise analyse beartype's 300 modules.
    beartype: Callable[[Callable[..., Any]], Callable[..., Any]] = importlib.import_module("beartype").beartype
    own = {slot.name for slot in plan.params} | ({"return"} if plan.result is not None else set())
    if not isinstance(fn, types.FunctionType) or not own:
        return beartype(fn)
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__qualname__ = fn.__qualname__
    copy.__module__ = fn.__module__
    copy.__dict__.update(fn.__dict__)
    copy.__annotations__ = {name: hint for name, hint in fn.__annotations__.items() if name not in own}
    return beartype(copy)


def _lazy(fn: Callable[..., Any], **options: Any) -> Callable[..., Any]:
    """Compile on first call: for annotations that name things defined after the function."""
    compiled: list[Callable[..., Any]] = []

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not compiled:
            compiled.append(_check_function(fn, **options))
        return compiled[0](*args, **kwargs)

    return wrapper


def _wrap_function(
    fn: Callable[..., Any],
    *,
    class_dims: frozenset[str] = frozenset(),
    same_device: bool = False,
    localns: dict[str, Any] | None = None,
) -> Callable[..., Any]:
    options: dict[str, Any] = {"class_dims": class_dims, "same_device": same_device, "localns": localns}
    try:
        return _check_function(fn, **options)
    except NameError:
        return _lazy(fn, **options)


def _wrap_class(cls: C, *, same_device: bool) -> C:
    """Check every method the class body defines; its Generic TypeVars are sizes bound per instance."""
    class_dims = frozenset(p.__name__ for p in getattr(cls, "__parameters__", ()))
    localns = {cls.__name__: cls}
    for name, member in list(vars(cls).items()):
        if isinstance(member, (staticmethod, classmethod)):
            wrapped = _wrap_function(member.__func__, same_device=same_device, localns=localns)
            setattr(cls, name, type(member)(wrapped))
        elif inspect.isfunction(member) and getattr(member, "__annotations__", None):
            setattr(cls, name, _wrap_function(member, class_dims=class_dims, same_device=same_device, localns=localns))
    return cls


@overload
def checked(target: F, /) -> F: ...
@overload
def checked(*, same_device: bool = False) -> Callable[[F], F]: ...
def checked(target: Any = None, /, *, same_device: bool = False) -> Any:
    """Check shapes at the call boundary of a function, or of every method of a class.

    Arguments:
        target: the function or class (when used as a bare `@checked`).
        same_device: also require every tensor argument and the result to be on one device.

    With `TYR_CHECKS=0` in the environment this returns `target` itself: no cost at all.
    A `ShapeError` names the function, the parameter, the dimension, its size, and
    the size it was bound to and where.

    Example:
        >>> @checked
        ... def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
        ...     return x @ w.T
    """

    def apply(obj: Any) -> Any:
        if not SWITCH.decorate:
            return obj
        if isinstance(obj, type):
            return _wrap_class(obj, same_device=same_device)
        return _wrap_function(obj, same_device=same_device)

    return apply if target is None else apply(target)
