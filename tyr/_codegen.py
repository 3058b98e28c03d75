"""Compile a `Plan` into a wrapper with the function's own signature and straight-line checks.

The generated wrapper binds each size to a local variable, so bindings are per
call (and per thread) by construction, and a matching call costs a handful of
attribute reads and integer comparisons.  On any mismatch it hands the same
arguments to the reference checker (`tyr._interpret`), which raises the error
with the full explanation.  Plans the compiler does not unroll (a size first
bound inside an optional argument and used later, a solve whose coefficient
is symbolic) run on the reference checker instead.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

import torch

from tyr._annotations import (
    Computed,
    DimHint,
    Evaluated,
    Fixed,
    Hint,
    Named,
    OptionalHint,
    TensorHint,
    TupleHint,
    Variadic,
)
from tyr._config import SWITCH
from tyr._errors import ShapeError
from tyr._interpret import check_arguments, check_result, integral, record_class_dims
from tyr._jaxtyping import expression_names, python_expression
from tyr._plan import Plan
from tyr._symbolic import Expr, const, divides_as_written, division_facts, sym


class Unsupported(Exception):
    """This plan is left to the reference checker."""


@dataclass
class _Emitter:
    plan: Plan
    lines: list[str] = field(default_factory=list)
    names: dict[str, Any] = field(default_factory=dict)  # globals of the generated code
    bound: set[str] = field(default_factory=set)
    groups: set[str] = field(default_factory=set)
    maybe: set[str] = field(default_factory=set)  # bound only on some paths (inside an optional)
    pending: list[tuple[Computed, str]] = field(default_factory=list)
    evaluations: list[tuple[Evaluated, str]] = field(default_factory=list)  # jaxtyping's expression dims
    counter: int = 0
    depth: int = 1
    fail: str = ""  # the expression raised on a mismatch

    def temp(self) -> str:
        self.counter += 1
        return f"_v{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def constant(self, value: object) -> str:
        name = f"_k{len(self.names)}"
        self.names[name] = value
        return name

    def var(self, name: str) -> str:
        if name in self.maybe:
            raise Unsupported(f"{name} is bound only when an optional argument is given")
        return f"d_{name}"

    # -- sizes --------------------------------------------------------------------------

    def bind_or_compare(self, name: str, value: str, conditions: list[str]) -> None:
        if name in self.bound:
            conditions.append(f"{value} != {self.var(name)}")
        else:
            self.emit(f"d_{name} = {value}")
            self.bound.add(name)

    def check_evaluations(self) -> None:
        """jaxtyping's expression dims (`"n+1"`), as Python over the sizes bound so far."""
        for dim, value in self.evaluations:
            names = expression_names(dim.text)
            if "{" in dim.text or not names <= self.bound or names & self.maybe:
                raise Unsupported(f"the dimension {dim.text!r} needs the reference checker")
            expression = python_expression(dim.text, {n: self.var(n) for n in names})
            condition = f"{value} != ({expression})"
            if dim.broadcast:
                condition = f"{value} != 1 and {condition}"
            self.emit(f"if {condition}: raise {self.fail}")
        self.evaluations.clear()

    def resolve_pending(self, final: bool) -> None:
        self.check_evaluations()
        progress = True
        while progress and self.pending:
            progress = False
            for item in list(self.pending):
                dim, value = item
                unknown = dim.expr.symbols - self.bound
                if not unknown:
                    self.pending.remove(item)
                    progress = True
                    self.emit(f"if {' or '.join(self._computed_differs(dim, value))}: raise {self.fail}")
                    continue
                solution = _linear_split(dim.expr, unknown)
                if solution is None:
                    continue
                name, coefficient, rest = solution
                self.pending.remove(item)
                progress = True
                quotient, remainder = self.temp(), self.temp()
                offset = "" if rest.const_value == 0 else f" - {rest.to_python(self._py_names(rest))}"
                self.emit(f"{quotient}, {remainder} = divmod({value}{offset}, {coefficient})")
                self.emit(f"if {remainder} or {quotient} < 0: raise {self.fail}")
                self.emit(f"d_{name} = {quotient}")
                self.bound.add(name)
        if final and self.pending:
            # Whether these resolve depends on the values (0*B is 0 for any B): leave them to the reference.
            raise Unsupported("a computed size that no argument determines")

    def _computed_differs(self, dim: Computed, value: str) -> list[str]:
        """Conditions under which a computed size, every symbol bound, is not `value`.  A text that
        divides a symbol as written (`"D//4"`) states that the division is exact (§6): checked too.
        Any other (`"(H+2-K)//S+1"`) is computed as Python divides, as `as_written` does."""
        names = expression_names(dim.text)
        if not divides_as_written(dim.text) and names <= self.bound:
            return [f"{value} != ({python_expression(dim.text, {n: self.var(n) for n in names})})"]
        conditions = [f"{value} != {dim.expr.to_python(self._py_names(dim.expr))}"]
        for name, divisor in division_facts(dim.expr):  # §6: a divided size is a multiple
            by = divisor.to_python(self._py_names(divisor))
            conditions.append(f"({by}) > 0 and {self.var(name)} % ({by})")
        return conditions

    def _py_names(self, expr: Expr) -> dict[str, str]:
        return {n: self.var(n) for n in expr.symbols}

    # -- values -------------------------------------------------------------------------

    def check(self, access: str, hint: Hint) -> None:
        if isinstance(hint, OptionalHint):
            before = set(self.bound)
            pending_before = len(self.pending)
            self.emit(f"if {access} is not None:")
            self.depth += 1
            self.check(access, hint.inner)
            self.depth -= 1
            if len(self.pending) != pending_before:
                raise Unsupported("a computed size inside an optional argument")
            self.maybe |= self.bound - before
        elif isinstance(hint, TupleHint):
            value = self.temp()
            self.emit(f"{value} = {access}")
            self.emit(f"if not isinstance({value}, tuple) or len({value}) != {len(hint.items)}: raise {self.fail}")
            for i, item in enumerate(hint.items):
                if item is not None:
                    self.check(f"{value}[{i}]", item)
        elif isinstance(hint, DimHint):
            self.check_dim(access, hint)
        else:
            self.check_tensor(access, hint)

    def check_dim(self, access: str, hint: DimHint) -> None:
        self.emit(f"if {access}.__class__ is not int and not _integral({access}): raise {self.fail}")
        conditions: list[str] = []
        dim = hint.dim
        if isinstance(dim, Fixed):
            conditions.append(f"{access} != {dim.size}")
        elif isinstance(dim, Named):
            self.bind_or_compare(dim.name, access, conditions)
        else:
            self.pending.append((dim, access))
        if conditions:
            self.emit(f"if {' or '.join(conditions)}: raise {self.fail}")

    def check_tensor(self, access: str, hint: TensorHint) -> None:
        value = access if access.isidentifier() else self.temp()
        if value != access:
            self.emit(f"{value} = {access}")
        self.emit(f"if not isinstance({value}, _Tensor): raise {self.fail}")
        if hint.dtype is not None:
            self.emit(f"if {value}.dtype not in {self.constant(hint.dtype.dtypes)}: raise {self.fail}")
        if self.plan.same_device:
            self.emit(f"if _device is None: _device = {value}.device")
            self.emit(f"elif {value}.device != _device: raise {self.fail}")
        if hint.shape is None:
            return
        dims = hint.shape.dims
        star = hint.shape.variadic_index
        shape = self.temp()
        self.emit(f"{shape} = {value}.shape")
        if star is None:
            self.emit(f"if len({shape}) != {len(dims)}: raise {self.fail}")
            axes = [(str(i), d) for i, d in enumerate(dims)]
        else:
            after = len(dims) - star - 1
            self.emit(f"if len({shape}) < {len(dims) - 1}: raise {self.fail}")
            axes = [(str(i), d) for i, d in enumerate(dims[:star])]
            axes += [(str(i - after), d) for i, d in enumerate(dims[star + 1 :])]
        conditions: list[str] = []
        if star is not None and dims[star] != Variadic(None):
            group = dims[star]
            assert isinstance(group, Variadic) and group.name is not None
            if group.broadcast:
                raise Unsupported("a broadcastable group of dims (*#name)")
            stop = f"len({shape}) - {len(dims) - star - 1}"
            sizes = f"tuple({shape}[{star}:{stop}])"
            if group.name in self.groups:
                conditions.append(f"{sizes} != g_{group.name}")
            else:
                self.emit(f"g_{group.name} = {sizes}")
                self.groups.add(group.name)
        for axis, dim in axes:
            item = f"{shape}[{axis}]"
            if isinstance(dim, Fixed):
                broadcast = f" and {item} != 1" if dim.broadcast else ""
                conditions.append(f"({item} != {dim.size}{broadcast})")
            elif isinstance(dim, Named) and dim.broadcast:
                if dim.name not in self.bound:
                    raise Unsupported(f"#{dim.name} is bound only when its size is not 1")
                conditions.append(f"({item} != {self.var(dim.name)} and {item} != 1)")
            elif isinstance(dim, Named):
                self.bind_or_compare(dim.name, item, conditions)
            elif isinstance(dim, (Computed, Evaluated)):
                size = self.temp()
                self.emit(f"{size} = {item}")
                if isinstance(dim, Computed):
                    self.pending.append((dim, size))
                else:
                    self.evaluations.append((dim, size))
        if conditions:
            self.emit(f"if {' or '.join(conditions)}: raise {self.fail}")


def _linear_split(expr: Expr, unknown: AbstractSet[str]) -> tuple[str, int, Expr] | None:
    """`expr == coefficient*name + rest` with a constant coefficient and `rest` free of `name`."""
    if len(unknown) != 1:
        return None
    (name,) = unknown
    coefficient = 0
    for mono, coeff in expr.terms:
        if mono == (name,):
            coefficient = coeff
        elif name in (Expr(((mono, 1),)).symbols):
            return None
    if coefficient == 0:
        return None
    return name, coefficient, expr - const(coefficient) * sym(name)


# -- signatures -----------------------------------------------------------------------------


def _signature_source(signature: inspect.Signature, names: dict[str, Any]) -> tuple[str, str, str]:
    """(parameter list, call arguments, dict of arguments) as source, defaults stored in `names`."""
    params: list[str] = []
    call: list[str] = []
    star_added = False
    positional_only_done = False
    kinds = [p.kind for p in signature.parameters.values()]
    for param in signature.parameters.values():
        kind = param.kind
        if kind is param.POSITIONAL_ONLY:
            pass
        elif not positional_only_done and inspect.Parameter.POSITIONAL_ONLY in kinds:
            params.append("/")
            positional_only_done = True
        text = param.name
        if param.default is not param.empty:
            default = f"_default_{param.name}"
            names[default] = param.default
            text += f"={default}"
        if kind is param.VAR_POSITIONAL:
            params.append(f"*{param.name}")
            call.append(f"*{param.name}")
            star_added = True
        elif kind is param.VAR_KEYWORD:
            params.append(f"**{param.name}")
            call.append(f"**{param.name}")
        elif kind is param.KEYWORD_ONLY:
            if not star_added:
                params.append("*")
                star_added = True
            params.append(text)
            call.append(f"{param.name}={param.name}")
        else:
            params.append(text)
            call.append(param.name)
    if not positional_only_done and kinds and all(k is inspect.Parameter.POSITIONAL_ONLY for k in kinds):
        params.append("/")
    arguments = "{" + ", ".join(f"{p!r}: {p}" for p in signature.parameters) + "}"
    return ", ".join(params), ", ".join(call), arguments


def _explainers(plan: Plan) -> dict[str, Any]:
    """Failure handlers for generated code: rerun the reference checker to build the message."""

    def explain(arguments: dict[str, Any], result: Any = None, returned: bool = False) -> ShapeError:
        try:
            binding = check_arguments(plan, arguments)
            if returned:
                check_result(binding, result)
        except ShapeError as err:
            return err
        return ShapeError(f"{plan.function}(): shape check failed (reference checker found no mismatch)")

    def fail_args(arguments: dict[str, Any]) -> ShapeError:
        return explain(arguments)

    def fail_result(arguments: dict[str, Any], result: Any) -> ShapeError:
        return explain(arguments, result, returned=True)

    return {
        "_fail_args": fail_args,
        "_fail_result": fail_result,
        "_plan": plan,
        "_check_arguments": check_arguments,
        "_check_result": check_result,
        "_record_class_dims": record_class_dims,
    }


def compile_plan(fn: Callable[..., Any], plan: Plan) -> Callable[..., Any]:
    """A wrapper for `fn` that checks `plan`: unrolled when possible, else on the reference checker."""
    names: dict[str, Any] = {
        "_fn": fn, "_SWITCH": SWITCH, "_Tensor": torch.Tensor, "_integral": integral, **_explainers(plan)
    }
    params, call, arguments = _signature_source(plan.signature, names)
    first = next(iter(plan.signature.parameters), "self")
    reference = [
        f"def _reference({params}):",
        f"    _b = _check_arguments(_plan, {arguments})",
        f"    _r = _fn({call})",
        "    _check_result(_b, _r)",
        *([f"    _record_class_dims(_b, {first})"] if plan.binds_class_dims and plan.class_dims else []),
        "    return _r",
    ]
    try:
        body = _fast_body(plan, names, call, arguments, first)
    except Unsupported:
        body = [f"    return _reference({call})"]
    source = "\n".join(
        [*reference, f"def _wrapper({params}):", "    if not _SWITCH.enabled:", f"        return _fn({call})", *body]
    )
    exec(compile(source, f"<tyr-checked {plan.function}>", "exec"), names)
    wrapper: Callable[..., Any] = names["_wrapper"]
    wrapper.__tyr_source__ = source  # type: ignore[attr-defined]
    return wrapper


def _fast_body(plan: Plan, names: dict[str, Any], call: str, arguments: str, first: str) -> list[str]:
    emitter = _Emitter(plan, names=names, fail=f"_fail_args({arguments})")
    if plan.same_device:
        emitter.emit("_device = None")
    if plan.class_dims and not plan.binds_class_dims:
        # Sizes the instance was built with; an instance without them binds per call instead.
        emitter.emit("try:")
        emitter.emit(f"    _cd = {first}.__dict__['__tyr_dims__']")
        for name in sorted(plan.class_dims):
            emitter.emit(f"    d_{name} = _cd[{name!r}]")
            emitter.bound.add(name)
        emitter.emit("except (AttributeError, KeyError):")
        emitter.emit(f"    return _reference({call})")
    for slot in plan.params:
        assert slot.name is not None
        emitter.check(slot.name, slot.hint)
    emitter.resolve_pending(final=plan.result is None)
    emitter.emit(f"_r = _fn({call})")
    if plan.result is not None:
        emitter.fail = f"_fail_result({arguments}, _r)"
        emitter.check("_r", plan.result.hint)
        emitter.resolve_pending(final=True)
    if plan.binds_class_dims and plan.class_dims:
        dims = ", ".join(f"{n!r}: {emitter.var(n)}" for n in sorted(plan.class_dims & emitter.bound))
        if dims:
            emitter.emit(f"{first}.__dict__['__tyr_dims__'] = {{{dims}}}")
    emitter.emit("return _r")
    return emitter.lines
