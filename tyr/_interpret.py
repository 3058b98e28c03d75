"""The reference checker: walks a `Plan` over real values, binding sizes and explaining mismatches.

This is the meaning of a checked call.  The compiled fast path (`tyr._codegen`)
does the same work with the plan unrolled into straight-line code and, when it
sees anything wrong, calls back here so the error message comes from one place.
"""

from __future__ import annotations

import operator
from contextlib import suppress
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
    ShapeSpec,
    TensorHint,
    TupleHint,
    Variadic,
    Wildcard,
)
from tyr._errors import ShapeError
from tyr._jaxtyping import evaluate, evaluate_text
from tyr._plan import Plan
from tyr._symbolic import NO_SOLUTION, Expr, const, divides_as_written, division_facts, solve_for


def integral(value: object) -> bool:
    """Whether a value is a size: an int, or an integer torch takes as one through `__index__` (`np.int64(5)`,
    `labels.max() + 1` of a NumPy array); not a bool."""
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


@dataclass
class _Pending:
    """A computed dim (`"D//4"`) waiting until its symbols are bound."""

    dim: Computed
    size: int
    place: str  # "argument 'x' dimension 2"


@dataclass
class _Evaluation:
    """A jaxtyping expression dim (`"n+1"`), checked once the argument (or the return value) is read."""

    dim: Evaluated
    size: int
    place: str


@dataclass
class Binding:
    """The sizes bound so far in one call; lives on the stack of that call only."""

    plan: Plan
    sizes: dict[str, int] = field(default_factory=dict)
    groups: dict[str, tuple[int, ...]] = field(default_factory=dict)  # TypeVarTuple -> sizes
    origins: dict[str, str] = field(default_factory=dict)  # name -> where it was bound
    pending: list[_Pending] = field(default_factory=list)
    device: tuple[torch.device, str] | None = None
    arguments: dict[str, Any] = field(default_factory=dict)  # for jaxtyping's `{arg}` dims
    broadcast_groups: set[str] = field(default_factory=set)  # groups last bound by a `*#name`
    evaluations: list[_Evaluation] = field(default_factory=list)

    # -- reporting ----------------------------------------------------------------------

    def fail(self, label: str, message: str, shape: tuple[int, ...] | None = None, spec: object = None) -> ShapeError:
        detail = f"\n  {label} has shape {shape}; expected {spec}" if shape is not None else ""
        return ShapeError(f"{self.plan.function}() {label}: {message}{detail}")

    # -- sizes --------------------------------------------------------------------------

    def bind(self, name: str, size: int, label: str, what: str, shape: tuple[int, ...] | None, spec: object) -> None:
        """Bind `name` to `size` (seen at `what` of `label`), or check it against its earlier binding."""
        bound = self.sizes.get(name)
        if bound is None:
            self.sizes[name] = size
            self.origins[name] = f"{label} {what}".rstrip()
        elif bound != size:
            found = f"{what} ({name}) has size {size}" if what else f"{name} = {size}"
            raise self.fail(label, f"{found}, but {name} = {bound} was bound by {self.origins[name]}", shape, spec)

    def _describe_values(self, dim: Computed) -> str:
        parts = [f"{n} = {self.sizes[n]} (from {self.origins[n]})" for n in sorted(dim.expr.symbols) if n in self.sizes]
        return ", ".join(parts)

    def resolve_pending(self, final: bool) -> None:
        """Check computed dims whose symbols are known; solve those with one unknown.

        A symbol is solved where one value is forced, under the division rule (SHAPES.md §6):
        `"2*D"` of size 10 binds D = 5, `"D//4"` of size 3 binds D = 12.  A computed dim whose
        symbols nothing binds (`"B*NW"` alone) is left unchecked at the end, except against
        the same computed dim elsewhere in the call, which must have the same size.
        """
        self.check_evaluations()
        progress = True
        while progress and self.pending:
            progress = False
            for item in list(self.pending):
                value = item.dim.expr.evaluate(self.sizes)
                if value is not None:
                    self.pending.remove(item)
                    progress = True
                    self._check_divisible(item)
                    # Concrete sizes divide exactly as Python does (§6): `(H+2-K)//S+1` with an odd
                    # kernel is the size torch computes, not the normal form's.  (A name the normal
                    # form cancelled, `"0*B"`, may be unbound: the normal form's value stands.)
                    with suppress(NameError):
                        value = evaluate_text(item.dim.text, self.sizes)
                    if value != item.size:
                        raise ShapeError(
                            f"{self.plan.function}() {item.place} ({item.dim.text}) has size {item.size}, "
                            f"but {item.dim.text} = {value} with {self._describe_values(item.dim)}"
                        )
                    continue
                rest = item.dim.expr.substitute(self.sizes)
                if len(rest.symbols) != 1:
                    continue  # e.g. B*NW with both unknown: wait for another argument to bind one
                (name,) = rest.symbols
                solved = solve_for(rest, name, const(item.size))
                if solved is NO_SOLUTION or isinstance(solved, Expr) and (solved.const_value or 0) < 0:
                    raise ShapeError(
                        f"{self.plan.function}() {item.place} ({item.dim.text}) has size {item.size}, "
                        f"but no size {name} makes {item.dim.text} = {item.size}"
                    )
                if not isinstance(solved, Expr) or solved.const_value is None:
                    continue  # not forced (D*D): another argument may bind it
                self.pending.remove(item)
                progress = True
                self.sizes[name] = solved.const_value
                self.origins[name] = f'solving "{item.dim.text}" = {item.size} at {item.place}'
        if final and self.pending:
            first: dict[Expr, _Pending] = {}
            for item in self.pending:
                seen = first.setdefault(item.dim.expr, item)
                if seen.size != item.size:
                    raise ShapeError(
                        f"{self.plan.function}() {item.place} ({item.dim.text}) has size {item.size}, "
                        f"but {seen.dim.text} has size {seen.size} at {seen.place}"
                    )
            self.pending.clear()

    def _check_divisible(self, item: _Pending) -> None:
        """A computed dim is exact only where each symbol it divides is a multiple of the divisor (§6).
        Checked where a symbol is divided as written (`"D//4"`, `"(B*T)//W"`): a dividend with an
        offset (`"(H+2-K)//S+1"`, a strided convolution's length) is computed as Python divides."""
        if not divides_as_written(item.dim.text):
            return
        for name, divisor in division_facts(item.dim.expr):
            by = divisor.evaluate(self.sizes)
            size = self.sizes.get(name)
            if by is not None and by > 0 and size is not None and size % by:
                shown = str(by) if divisor.const_value is not None else f"{divisor} = {by}"
                raise ShapeError(
                    f"{self.plan.function}() {item.place} ({item.dim.text}): {name} = {size} (from "
                    f"{self.origins[name]}) is not a multiple of {shown}, and division in sizes is exact "
                    f"({item.dim.text} would drop a remainder)"
                )

    def check_evaluations(self) -> None:
        """jaxtyping's expression dims, over the sizes bound so far (they never bind one)."""
        for item in self.evaluations:
            value = evaluate(item.dim, self.sizes, self.arguments)
            if value != item.size and not (item.dim.broadcast and item.size == 1):
                raise ShapeError(
                    f"{self.plan.function}() {item.place} ({item.dim.text}) has size {item.size}, "
                    f"but {item.dim.text} = {value}"
                )
        self.evaluations.clear()

    # -- values -------------------------------------------------------------------------

    def check(self, label: str, hint: Hint, value: Any) -> None:
        if isinstance(hint, OptionalHint):
            if value is not None:
                self.check(label, hint.inner, value)
        elif isinstance(hint, TupleHint):
            if not isinstance(value, tuple) or len(value) != len(hint.items):
                got = f"a tuple of length {len(value)}" if isinstance(value, tuple) else type(value).__name__
                raise self.fail(label, f"expected a tuple of {len(hint.items)} items, got {got}")
            for i, (item_hint, item) in enumerate(zip(hint.items, value)):
                if item_hint is not None:
                    self.check(f"{label}[{i}]", item_hint, item)
        elif isinstance(hint, DimHint):
            self.check_dim(label, hint, value)
        else:
            self.check_tensor(label, hint, value)

    def check_dim(self, label: str, hint: DimHint, value: Any) -> None:
        value = self._integer(label, hint, value)
        dim = hint.dim
        if isinstance(dim, Fixed):
            if value != dim.size:
                raise self.fail(label, f"expected Dim[{dim.size}], got {value}")
        elif isinstance(dim, Named):
            self.bind(dim.name, value, label, "", None, None)
        else:
            self.pending.append(_Pending(dim, value, label))

    def _integer(self, label: str, hint: DimHint, value: Any) -> int:
        if not integral(value):
            raise self.fail(label, f"expected an int size Dim[{hint.dim}], got {type(value).__name__}")
        return operator.index(value)

    def check_tensor(self, label: str, hint: TensorHint, value: Any) -> None:
        spec = hint.shape if hint.shape is not None else "Tensor"
        if not isinstance(value, torch.Tensor):
            raise self.fail(label, f"expected a torch.Tensor ({spec}), got {type(value).__name__}")
        if hint.dtype is not None and value.dtype not in hint.dtype.dtypes:
            raise self.fail(label, f"expected dtype {hint.dtype}, got {value.dtype}")
        if self.plan.same_device:
            if self.device is None:
                self.device = (value.device, label)
            elif value.device != self.device[0]:
                raise self.fail(label, f"is on {value.device}, but {self.device[1]} is on {self.device[0]}")
        if hint.shape is not None:
            self.check_shape(label, hint.shape, tuple(value.shape))

    def check_shape(self, label: str, spec: ShapeSpec, shape: tuple[int, ...]) -> None:
        dims = spec.dims
        star = spec.variadic_index
        if star is None:
            if len(shape) != len(dims):
                raise self.fail(label, f"expected {len(dims)} dimensions, got {len(shape)}", shape, spec)
            axes = list(enumerate(dims))
        else:
            after = len(dims) - star - 1
            if len(shape) < len(dims) - 1:
                raise self.fail(label, f"expected at least {len(dims) - 1} dimensions, got {len(shape)}", shape, spec)
            axes = list(enumerate(dims[:star])) + [(len(shape) - after + i, d) for i, d in enumerate(dims[star + 1 :])]
            group_dim = dims[star]
            assert isinstance(group_dim, Variadic)
            if group_dim.name is not None:
                group = shape[star : len(shape) - after]
                self.bind_group(label, group_dim, group, star, shape, spec)
        for axis, dim in axes:
            size = shape[axis]
            if isinstance(dim, Fixed):
                if size != dim.size and not (dim.broadcast and size == 1):
                    raise self.fail(label, f"dimension {axis} has size {size}, expected {dim.size}", shape, spec)
            elif isinstance(dim, Named):
                if not (dim.broadcast and size == 1):
                    self.bind(dim.name, size, label, f"dimension {axis}", shape, spec)
            elif isinstance(dim, Computed):
                self.pending.append(_Pending(dim, size, f"{label} dimension {axis}"))
            elif isinstance(dim, Evaluated):
                self.evaluations.append(_Evaluation(dim, size, f"{label} dimension {axis}"))
            else:
                assert isinstance(dim, Wildcard)

    def bind_group(
        self, label: str, dim: Variadic, sizes: tuple[int, ...], start: int, shape: tuple[int, ...], spec: ShapeSpec
    ) -> None:
        name = dim.name
        assert name is not None
        bound = self.groups.get(name)
        if bound is None:
            self.groups[name] = sizes
            self.origins["*" + name] = f"{label} dimensions {start}..{start + len(sizes) - 1}"
            if dim.broadcast:
                self.broadcast_groups.add(name)
        elif dim.broadcast or name in self.broadcast_groups:
            self._broadcast_group(label, dim, name, sizes, bound, shape, spec)
        elif bound != sizes:
            raise self.fail(
                label,
                f"dimensions {start}..{start + len(sizes) - 1} (*{name}) are {sizes}, "
                f"but *{name} = {bound} was bound by {self.origins['*' + name]}",
                shape,
                spec,
            )


    def _broadcast_group(
        self,
        label: str,
        dim: Variadic,
        name: str,
        sizes: tuple[int, ...],
        bound: tuple[int, ...],
        shape: tuple[int, ...],
        spec: ShapeSpec,
    ) -> None:
        """jaxtyping's rule for `*#name`: the dims must broadcast with the earlier binding.

        After a broadcastable binding, the broadcast result is the new binding, and a
        plain `*name` must be that result; after a plain binding, a `*#name` must
        broadcast to it.
        """
        joined = broadcast_sizes(sizes, bound)
        ok = joined is not None
        if name in self.broadcast_groups:
            ok = ok and (dim.broadcast or joined == sizes)
            if ok:
                assert joined is not None
                self.groups[name] = joined
                if not dim.broadcast:
                    self.broadcast_groups.discard(name)
        else:
            ok = ok and joined == bound
        if not ok:
            raise self.fail(
                label,
                f"dimensions *{name} are {sizes}, which do not broadcast with *{name} = {bound} "
                f"bound by {self.origins['*' + name]}",
                shape,
                spec,
            )


def broadcast_sizes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    """The broadcast of two shapes (NumPy's rule), or None when they do not broadcast."""
    out: list[int] = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


def start_binding(plan: Plan, instance: object) -> Binding:
    binding = Binding(plan)
    if plan.class_dims and not plan.binds_class_dims:
        known = getattr(instance, "__tyr_dims__", None) or {}
        for name in plan.class_dims & known.keys():
            binding.sizes[name] = known[name]
            binding.origins[name] = f"the {type(instance).__name__} instance's constructor"
    return binding


def check_arguments(plan: Plan, arguments: dict[str, Any]) -> Binding:
    """Check every parameter; return the binding the return value is checked against."""
    first = next(iter(plan.signature.parameters), None)
    binding = start_binding(plan, arguments.get(first) if first is not None else None)
    binding.arguments = arguments
    for slot in plan.params:
        assert slot.name is not None
        binding.check(slot.label, slot.hint, arguments[slot.name])
    binding.resolve_pending(final=plan.result is None)
    return binding


def check_result(binding: Binding, result: Any) -> None:
    plan = binding.plan
    if plan.result is not None:
        binding.check(plan.result.label, plan.result.hint, result)
        binding.resolve_pending(final=True)


def record_class_dims(binding: Binding, instance: object) -> None:
    """After a checked constructor: remember the class dims it bound on the instance."""
    dims = {n: binding.sizes[n] for n in binding.plan.class_dims if n in binding.sizes}
    if dims:
        instance.__dict__["__tyr_dims__"] = dims
