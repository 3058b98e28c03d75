"""The program generator: chains of torch ops over symbolic sizes, each step run as it is written.

The generator keeps a model of every live value: a tensor's shape as sizes in normal form
(`tyr._symbolic.Expr` over the program's symbols), a `Dim`'s size.  An op from the menu
(`scripts.fuzz.menu`) looks at the model to write a call that is usually valid, and the step
is run at once on concrete tensors (the program's symbol values): a step that fails is
dropped, and each output's shape is read back from torch.  Where the op's model of an output
disagrees with torch (or has none), that size becomes an opaque size, equal only to itself,
which later steps can still name by reading it from the tensor (`v3.shape[1]`).  So the model
can be incomplete without making a program wrong.

A deliberate mistake is an op written twice, a correct and a wrong variant: it is kept only
when the correct one runs and the wrong one raises, so torch fails on its line because of
the mistake.  A program has at most one, as its last step.

Sizes obey SHAPES.md §6: a size is only ever divided (`d // 2`, a stride-2 convolution,
`x[::2]`) when every symbol in it is a multiple of the divisor at the program's values, and
distinct symbols have distinct values, none 1 and none a literal size the generator writes.
"""

from __future__ import annotations

import math
import random
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import einops
import torch
import torch.nn.functional as F
from torch import nn

from scripts.fuzz.program import SYMBOLS, Param, Program, Step
from tyr._symbolic import Expr, FloorDiv, const, sym

LITERALS = (2, 3, 4, 5, 6, 7, 8)  # literal sizes the generator writes (and 1)
VALUES = (9, 10, 11, 12, 14, 15, 16, 18, 20, 21, 22, 24, 27, 28, 30)  # symbol values: above every literal
MAX_NUMEL = 250_000  # the largest tensor a step may make (keeps programs fast)


BUGS: Counter[str] = Counter()  # exceptions the menu's ops raised while writing steps (fuzzer bugs)


class Skip(Exception):
    """The op cannot be written for the current values: try another."""


@dataclass
class TVal:
    """A live tensor: its name in the source, modelled shape, concrete value, and producing step (-1: a parameter)."""

    name: str
    shape: tuple[Expr, ...]
    value: torch.Tensor
    step: int
    below: Expr | None = None  # an integer tensor whose values are known to lie in [0, below)
    tainted: bool = False  # computed from a plain int (a config field): mypy cannot know its sizes

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def floating(self) -> bool:
        return self.value.is_floating_point()

    @property
    def integer(self) -> bool:
        return self.value.dtype in (torch.int64, torch.int32)

    @property
    def boolean(self) -> bool:
        return self.value.dtype == torch.bool


@dataclass
class DVal:
    """A live `Dim`: a local int whose value is a size."""

    name: str
    size: Expr
    step: int
    tainted: bool = False


@dataclass
class Out:
    """One value an op produces: a tensor (`shape`: the op's model, None where it has none) or a Dim (`size`)."""

    name: str
    shape: Sequence[Expr | None] | None = None
    size: Expr | None = None
    below: Expr | None = None
    dim: bool = False
    volatile: bool = False  # a shape that depends on the data: revealed, never used again (the data differ in the run)


@dataclass
class Emit:
    """An op's statements and outputs; for a mistake, `control` is the same step written correctly."""

    lines: list[str]
    outputs: list[Out]
    control: list[str] | None = None
    detail: str = ""
    replaces: str | None = None  # an existing name the step rebinds


OpFn = Callable[["Gen", bool], Emit]


@dataclass
class Op:
    """A menu entry: `fn(gen, mistake)` writes the step (raising `Skip` when it cannot)."""

    name: str
    family: str
    fn: OpFn
    weight: float = 1.0
    mistakes: bool = True


@dataclass
class Options:
    ops: int = 8  # steps per program
    mistake_rate: float = 0.3  # share of programs that end with a deliberate mistake
    rebind_rate: float = 0.12  # share of steps that rebind an input's name (`x = x.view(...)`)
    menu: Sequence[Op] | None = None  # default: scripts.fuzz.menu.MENU
    seed: int = 0
    avoid: frozenset[str] = frozenset()  # idioms not to write: "star" (`*x.shape`), "config" (plain ints), "rebind"

    def __post_init__(self) -> None:
        unknown = self.avoid - AVOIDABLE
        if unknown:
            raise ValueError(f"cannot avoid {sorted(unknown)}: the idioms are {sorted(AVOIDABLE)}")


AVOIDABLE = frozenset({"star", "config", "rebind"})


@dataclass
class Gen:
    rng: random.Random
    options: Options
    symbols: list[str]
    values: dict[str, int]
    params: list[Param] = field(default_factory=list)
    tensors: list[TVal] = field(default_factory=list)
    dims: list[DVal] = field(default_factory=list)
    dim_params: dict[str, str] = field(default_factory=dict)
    has_cfg: bool = False
    steps: list[Step] = field(default_factory=list)
    ns: dict[str, Any] = field(default_factory=dict)
    counter: int = 0
    opaque: int = 0
    proving: bool = False  # writing a deliberate mistake: only sizes mypy can know (no config ints)
    memo: dict[Expr, int] = field(default_factory=dict)  # sizes' values (symbols' values never change)

    # -- values and sizes ---------------------------------------------------------------------

    def val(self, e: Expr) -> int:
        v = self.memo.get(e)
        if v is None:
            found = e.evaluate(self.values)
            assert found is not None, e
            v = self.memo[e] = found
        return v

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def literal(self) -> int:
        return self.rng.choice(LITERALS)

    def new_size(self, symbolic: float = 0.5) -> Expr:
        """A size for a new dim: a program symbol or a literal."""
        if self.rng.random() < symbolic:
            return sym(self.rng.choice(self.symbols))
        return const(self.literal())

    def differs(self, a: Expr, b: Expr) -> bool:
        return self.val(a) != self.val(b)

    def wrong(self, e: Expr) -> Expr:
        """A size provably different from `e` whose value differs too (for a deliberate mistake)."""
        candidates = [e + 1, e + 2, e * 2] if not e.is_const else []
        candidates += [sym(s) for s in self.symbols if sym(s) != e]
        candidates += [const(n) for n in LITERALS if const(n) != e]
        candidates = [c for c in candidates if self.val(c) != self.val(e) and self.val(c) > 0]
        self.rng.shuffle(candidates)
        for c in candidates:
            if self.renderable(c):
                return c
        raise Skip("no wrong size")

    def divisible(self, e: Expr, k: Expr | int) -> bool:
        """Whether `e // k` is an exact division the program may write (SHAPES.md §6)."""
        den = self.val(k if isinstance(k, Expr) else const(k))
        if den <= 0:
            return False
        if e.is_const:
            return self.val(e) % den == 0
        if any(s.startswith("_") for s in e.symbols):
            return False  # an opaque size: the checker's normal form of it is unknown
        return self.val(e) % den == 0 and all(self.values[s] % den == 0 for s in e.symbols)

    def div(self, e: Expr, k: Expr | int) -> Expr:
        if not self.divisible(e, k):
            raise Skip("inexact division")
        return e // k

    def renderable(self, e: Expr) -> bool:
        try:
            self.size(e)
        except Skip:
            return False
        return True

    def size(self, e: Expr, plain: float = 0.08) -> str:
        """Source text for the size `e`: a literal, a Dim variable, a shape read, a config int, or arithmetic."""
        value = e.const_value
        options: list[str] = []
        for d in self.dims:
            if d.size == e and not (self.proving and d.tainted):
                options.append(d.name)
        for t in self.tensors:
            if self.proving and t.tainted:
                continue
            for i, s in enumerate(t.shape):
                if s == e:
                    options.append(self.shape_read(t, i))
        name = e.symbol_name
        if name is not None and name in self.dim_params:
            options += [self.dim_params[name]] * 3
        if self.proving or "config" in self.options.avoid:
            plain = 0.0
        if name is not None and name in self.symbols and self.has_cfg and self.rng.random() < plain:
            return f"cfg.{name.lower()}"
        if value is not None and value >= 0 and (not options or self.rng.random() < 0.85):
            return str(value)
        if options and (self.rng.random() < 0.8 or len(e.terms) == 1 and name is not None):
            return self.rng.choice(options)
        if name is not None:
            if name in self.symbols and self.has_cfg and not self.proving and "config" not in self.options.avoid:
                return f"cfg.{name.lower()}"
            raise Skip(f"no source for {e}")
        return self._arith(e)

    def shape_read(self, t: TVal, i: int) -> str:
        index = self.axis(t, i)
        return f"{t.name}.size({index})" if self.rng.random() < 0.4 else f"{t.name}.shape[{index}]"

    def _arith(self, e: Expr) -> str:
        parts: list[str] = []
        for mono, coeff in e.terms:
            factors = [str(abs(coeff))] if abs(coeff) != 1 or not mono else []
            for atom in mono:
                if isinstance(atom, FloorDiv):
                    factors.append(f"{_wrap(self.size(atom.num))} // {_wrap(self.size(atom.den))}")
                else:
                    factors.append(self.size(sym(atom)))
            if len(factors) > 1:
                factors = [_wrap(f) if " // " in f else f for f in factors]
            self.rng.shuffle(factors)
            body = " * ".join(factors)
            if not parts:
                parts.append(body if coeff > 0 else f"-{_wrap(body)}")
            else:
                parts.append(f"+ {body}" if coeff > 0 else f"- {_wrap(body)}")
        return " ".join(parts)

    def axis(self, t: TVal | int, i: int) -> str:
        """A dim index, sometimes written negative."""
        rank = t if isinstance(t, int) else t.rank
        return str(i - rank) if self.rng.random() < 0.3 else str(i)

    def shape_args(self, shape: Sequence[Expr], tuple_only: bool = False) -> str:
        """Sizes as arguments: `2, d`, `(2, d)`, `*x.shape`, `x.shape`, `*x.shape[:2], d`."""
        shape = tuple(shape)
        for t in self.rng.sample(self.tensors, len(self.tensors)):
            if "star" in self.options.avoid:
                break
            if t.shape == shape and shape and self.rng.random() < 0.35:
                return f"{t.name}.shape" if tuple_only or self.rng.random() < 0.4 else f"*{t.name}.shape"
            k = _common_prefix(t.shape, shape)
            if 0 < k < len(shape) and k < t.rank and self.rng.random() < 0.25:
                rest = ", ".join(self.size(s) for s in shape[k:])
                star = f"*{t.name}.shape[:{k}], {rest}"
                return f"({star})" if tuple_only else star
        texts = [self.size(s) for s in shape]
        if tuple_only or self.rng.random() < 0.3:
            return "(" + ", ".join(texts) + ("," if len(texts) == 1 else "") + ")"
        return ", ".join(texts)

    def randn(self, shape: Sequence[Expr]) -> str:
        if not shape:
            return "torch.randn(())"
        fn = self.rng.choice(["randn", "randn", "rand", "ones"])
        return f"torch.{fn}({self.shape_args(shape)})"

    def operand(self, shape: Sequence[Expr], fresh: float = 0.4) -> str:
        """A float tensor of exactly `shape`: a live one, or a new one."""
        same = [t for t in self.tensors if t.shape == tuple(shape) and t.floating]
        if same and self.rng.random() > fresh:
            return self.rng.choice(same).name
        return self.randn(shape)

    # -- live values ----------------------------------------------------------------------------

    def tensor(
        self,
        where: Callable[[TVal], bool] | None = None,
        *,
        kind: str = "float",
        min_rank: int = 0,
        max_rank: int = 6,
    ) -> TVal:
        """A random live tensor of the kind ("float", "integer", "bool", "any") satisfying `where`.

        For a deliberate mistake, only tensors whose every size mypy can know: the mistake must be provable.
        """
        found = [
            t
            for t in self.tensors
            if min_rank <= t.rank <= max_rank
            and not (self.proving and (t.tainted or _opaque(t.shape)))
            and (kind == "any" or getattr(t, "floating" if kind == "float" else kind))
            and (where is None or where(t))
        ]
        if not found:
            raise Skip("no tensor")
        # Later values are likelier: programs read as chains.
        weights = [1.0 + i for i in range(len(found))]
        return self.rng.choices(found, weights)[0]

    def output(self, *inputs: TVal) -> tuple[str, str | None]:
        """The name for an op's single output: fresh, or now and then an input's (`x = x.view(...)`)."""
        if inputs and "rebind" not in self.options.avoid and self.rng.random() < self.options.rebind_rate:
            return inputs[0].name, inputs[0].name
        return self.fresh(), None

    # -- running steps --------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> BaseException | None:
        try:
            exec(compile("\n".join(lines), "<fuzz step>", "exec"), self.ns)
        except Exception as err:  # noqa: BLE001 - any failure of torch is data
            return err
        return None

    def accept(self, op: Op, emit: Emit, mistake: bool) -> bool:
        """Run the step; keep it (and model its outputs) when it does what it should."""
        if mistake:
            assert emit.control is not None
            saved = dict(self.ns)
            control_failed = self.run(emit.control)
            self.ns = saved
            if control_failed is not None:
                return False
            failure = self.run(emit.lines)
            self.ns = saved
            if failure is None or isinstance(failure, (NameError, SyntaxError, AttributeError, Skip)):
                return False
            self._record(op, emit, mistake=True, outputs=[])
            return True
        saved = dict(self.ns)
        failure = self.run(emit.lines)
        if failure is not None:
            self.ns = saved
            return False
        made: list[TVal | DVal] = []
        step = len(self.steps)
        knowable = not any("cfg." in line for line in emit.lines)
        lives: list[TVal | DVal] = [*self.tensors, *self.dims]
        tainted = not knowable or any(v.tainted and _mentions(emit.lines, v.name) for v in lives)
        for out in emit.outputs:
            value = self.ns.get(out.name)
            knowable = knowable and self.knowable(out, value)
            if out.dim:
                if not isinstance(value, int):
                    self.ns = saved
                    return False
                size = out.size if out.size is not None and self.values_match(out.size, value) else None
                made.append(DVal(out.name, size if size is not None else self.opaque_size(value), step, tainted))
                continue
            if not isinstance(value, torch.Tensor) or value.numel() > MAX_NUMEL:
                self.ns = saved
                return False
            if not out.volatile:
                made.append(TVal(out.name, self.model(out.shape, value), value, step, out.below, tainted))
        self._record(op, emit, mistake=False, outputs=made)
        self.steps[-1].knowable = knowable
        return True

    def knowable(self, out: Out, value: object) -> bool:
        """Whether the op's model gives every size of the output from sizes the program names."""
        if out.volatile:
            return False
        if out.dim:
            sizes: Sequence[Expr | None] = [out.size]
            real: Sequence[int] = [value] if isinstance(value, int) else []
        else:
            sizes = out.shape or []
            real = tuple(value.shape) if isinstance(value, torch.Tensor) else ()
        return (
            len(sizes) == len(real)
            and all(s is not None and self.values_match(s, v) for s, v in zip(sizes, real))
            and not any(name.startswith("_") for s in sizes if s is not None for name in s.symbols)
        )

    def values_match(self, e: Expr, value: int) -> bool:
        return self.val(e) == value

    def model(self, shape: Sequence[Expr | None] | None, value: torch.Tensor) -> tuple[Expr, ...]:
        real = tuple(value.shape)
        if shape is None or len(shape) != len(real):
            shape = [None] * len(real)
        sizes: list[Expr] = []
        for modelled, actual in zip(shape, real):
            if modelled is not None and self.values_match(modelled, actual):
                sizes.append(modelled)
            else:
                sizes.append(self.opaque_size(actual))  # even a 1 or a 3: a value is not a fact
        return tuple(sizes)

    def opaque_size(self, value: int) -> Expr:
        self.opaque += 1
        name = f"_{self.opaque}"
        self.values[name] = value
        return sym(name)

    def _record(self, op: Op, emit: Emit, mistake: bool, outputs: list[TVal | DVal]) -> None:
        text = "\n".join(emit.lines)
        uses = set()
        lives: list[TVal | DVal] = [*self.tensors, *self.dims]
        for live in lives:
            if live.step >= 0 and re.search(rf"\b{live.name}\b", text):
                uses.add(live.step)
        reveals = [] if mistake else [o.name for o in emit.outputs]
        self.steps.append(Step(op.name, list(emit.lines), reveals, sorted(uses), mistake, emit.detail))
        names = {o.name for o in outputs}
        self.tensors = [t for t in self.tensors if t.name not in names]
        self.dims = [d for d in self.dims if d.name not in names]
        for o in outputs:
            if isinstance(o, TVal):
                self.tensors.append(o)
            else:
                self.dims.append(o)


def _opaque(shape: Sequence[Expr]) -> bool:
    """Whether a size is one only torch could tell (data, a clamp, a model gap): mypy cannot know it."""
    return any(name.startswith("_") for s in shape for name in s.symbols)


def _mentions(lines: Sequence[str], name: str) -> bool:
    return any(re.search(rf"\b{re.escape(name)}\b", line) for line in lines)


def _wrap(text: str) -> str:
    return f"({text})" if any(op in text for op in (" + ", " - ", " * ", " // ")) else text


def _common_prefix(a: Sequence[Expr], b: Sequence[Expr]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


# -- programs -----------------------------------------------------------------------------------


def choose_values(rng: random.Random, names: list[str]) -> dict[str, int]:
    """Distinct values above every literal; sometimes one a multiple of another (so `d // h` divides)."""
    pool = list(VALUES)
    rng.shuffle(pool)
    values = {name: pool.pop() for name in names}
    if len(names) >= 2 and rng.random() < 0.5:
        big, small = rng.sample(names, 2)
        small_value = rng.choice([9, 10, 11, 12])
        if small_value not in values.values() or values[small] == small_value:
            values[small] = small_value
            multiple = small_value * rng.choice([2, 3])
            if multiple not in values.values():
                values[big] = multiple
    return values


def _numel(values: dict[str, int], shape: Sequence[str]) -> int:
    return math.prod(values[s] if s in values else int(s) for s in shape)


def _random_shape(gen: Gen, rank: int) -> list[str]:
    shape: list[str] = []
    for _ in range(rank):
        r = gen.rng.random()
        if r < 0.68:
            unused = [s for s in gen.symbols if s not in shape]
            shape.append(gen.rng.choice(unused or gen.symbols))
        elif r < 0.75:
            shape.append("1")
        else:
            shape.append(str(gen.literal()))
    return shape


def _shrink(gen: Gen, shape: list[str]) -> list[str]:
    while _numel(gen.values, shape) > MAX_NUMEL // 4:
        i = max(range(len(shape)), key=lambda j: gen.values.get(shape[j], 0) or int(shape[j]))
        shape[i] = str(gen.literal())
    return shape


def _add_tensor(gen: Gen, name: str, shape: list[str], below: str | None = None) -> None:
    annotation = "Tensor[" + ", ".join(shape) + "]" if shape else "Tensor[()]"
    gen.params.append(Param(name, "tensor", annotation, tuple(shape), below))
    sizes = tuple(sym(s) if s in gen.values else const(int(s)) for s in shape)
    concrete = [gen.val(s) for s in sizes]
    if below is None:
        value = torch.randn(concrete)
    else:
        value = torch.randint(0, gen.val(_size_expr(gen, below)), concrete)
    gen.ns[name] = value
    gen.tensors.append(TVal(name, sizes, value, -1, None if below is None else _size_expr(gen, below)))


def _size_expr(gen: Gen, text: str) -> Expr:
    return sym(text) if text in gen.values else const(int(text))


def new_program(rng: random.Random, name: str, options: Options) -> Gen:
    count = rng.choice([2, 3, 3, 4])
    symbols = rng.sample(SYMBOLS, count)
    gen = Gen(rng, options, symbols, choose_values(rng, symbols))
    gen.ns.update({"torch": torch, "F": F, "nn": nn, "einops": einops})
    x = _shrink(gen, _random_shape(gen, rng.choices([1, 2, 3, 4], [1, 3, 5, 4])[0]))
    _add_tensor(gen, "x", x)
    if rng.random() < 0.6:
        relation = rng.choice(["same", "weight", "suffix", "fresh", "fresh"])
        if relation == "same":
            y = list(x)
        elif relation == "weight" and x:
            y = [x[-1], rng.choice([*symbols, str(gen.literal())])]
            if rng.random() < 0.5:
                y.reverse()
        elif relation == "suffix" and len(x) > 1:
            y = x[rng.randrange(1, len(x)) :]
        else:
            y = _random_shape(gen, rng.choice([1, 2, 3, 4]))
        _add_tensor(gen, "y", _shrink(gen, y))
    if rng.random() < 0.3:
        idx = x[: rng.choice([1, 2])] if len(x) >= 2 and rng.random() < 0.6 else _random_shape(gen, rng.choice([1, 2]))
        below = rng.choice([*symbols, str(gen.literal())])
        _add_tensor(gen, "idx", _shrink(gen, list(idx)), below)
    for s in symbols:
        if rng.random() < 0.6:
            gen.dim_params[s] = s.lower()
            gen.params.append(Param(s.lower(), "dim", f"Dim[{s}]"))
            gen.ns[s.lower()] = gen.values[s]
    if rng.random() < 0.3:
        gen.has_cfg = True
        gen.params.append(Param("cfg", "cfg", "Config"))
        gen.ns["cfg"] = _Config(gen.values)
    return gen


class _Config:
    """The generation-time stand-in for the module's `Config` (its fields are the symbols' values)."""

    def __init__(self, values: dict[str, int]) -> None:
        for s in SYMBOLS:
            setattr(self, s.lower(), values.get(s, 0))


def generate(seed: int, index: int, options: Options) -> Program:
    """Program number `index` of the run with this seed (the same program every time)."""
    from scripts.fuzz.menu import MENU

    rng = random.Random(f"{seed}:{index}")
    menu = list(options.menu or MENU)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.default_generator.manual_seed(rng.randrange(2**31))  # (torch.manual_seed also seeds CUDA: slow)
        gen = new_program(rng, f"p{index}", options)
        mistake = rng.random() < options.mistake_rate
        for _ in range(options.ops * 6):
            if len(gen.steps) >= options.ops:
                break
            _try_op(gen, menu, mistake=False)
        if mistake:
            bad = [op for op in menu if op.mistakes]
            for _ in range(40):
                if _try_op(gen, bad, mistake=True):
                    break
    values = {s: v for s, v in gen.values.items() if not s.startswith("_")}
    return Program(f"p{index}", gen.params, gen.steps, values)


def _try_op(gen: Gen, menu: Sequence[Op], mistake: bool) -> bool:
    op = gen.rng.choices(menu, [o.weight for o in menu])[0]
    counter, opaque = gen.counter, gen.opaque
    gen.proving = mistake
    try:
        emit = op.fn(gen, mistake)
    except Skip:
        gen.counter, gen.opaque = counter, opaque
        return False
    except Exception as err:  # noqa: BLE001 - a bug in an op of the menu: counted, never fatal
        gen.counter, gen.opaque = counter, opaque
        BUGS[f"{op.name}: {type(err).__name__}: {err}"] += 1
        return False
    finally:
        gen.proving = False
    if mistake and emit.control is None:
        return False
    return gen.accept(op, emit, mistake)
