"""`tyr.checked` on jaxtyping annotations gives jaxtyping's own verdicts, on shapes drawn at random.

Each signature is written once with jaxtyping's annotations; the same calls go to
`jaxtyped(typechecker=beartype)`, to tyr's compiled checker and to its reference
checker (`tyr._interpret`), and all three must accept or reject each call alike.
Shapes are drawn to fit the annotations, then one in three is spoiled (a size, a
rank or a dtype changed), so both verdicts are common.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import torch
from beartype import beartype
from jaxtyping import Float, Int, Shaped, jaxtyped
from torch import Tensor

import tyr
from tyr._interpret import check_arguments, check_result
from tyr._jaxtyping_dims import AnonymousDim, FixedDim, NamedDim, SymbolicDim, VariadicDim, parse_dims

SIGNATURES: list[tuple[list[str], str]] = [
    (["b c", "c"], "b"),
    (["*batch 3", "*batch 3"], "*batch"),
    (["n", "n+1", "#n"], "2*n"),
    (["n ... 3", "_ 2"], "min(n,3)"),
    (["*#b", "*#b", "*b"], ""),
    (["#n d", "n #d"], "n d"),
    (["rows=3 c", "c"], "3"),
    (["n", "n//2"], "n-1"),
    (["a b", "b a"], "a a"),
    (["*b n", "n"], "*b"),
    (["#3 n", "#n"], "n"),
    (["n m", "{k}"], "m"),
]


def _function(arguments: list[str], result: str) -> Callable[..., Any]:
    """`def f(x0: Float[Tensor, ...], ..., out: Tensor, k: int) -> Float[Tensor, result]: return out`."""
    annotations: dict[str, Any] = {f"x{i}": Float[Tensor, dims] for i, dims in enumerate(arguments)}
    namespace: dict[str, Any] = {}
    exec(f"def f({', '.join(annotations)}, out, k):\n    return out", namespace)  # a real signature
    function: Callable[..., Any] = namespace["f"]
    function.__annotations__ = {**annotations, "out": Tensor, "k": int, "return": Shaped[Tensor, result]}
    return function


def _draw(dims: str, sizes: dict[str, int], groups: dict[str, tuple[int, ...]], rng: random.Random) -> list[int]:
    shape: list[int] = []
    for dim in parse_dims(dims):
        if isinstance(dim, VariadicDim):
            if dim.name is None:
                shape += [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
            else:
                group = groups.setdefault(dim.name, tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2))))
                shape += [1 if dim.broadcast and rng.random() < 0.3 else s for s in group]
        elif isinstance(dim, NamedDim):
            size = sizes.setdefault(dim.name, rng.randint(1, 4))
            shape.append(1 if dim.broadcast and rng.random() < 0.3 else size)
        elif isinstance(dim, FixedDim):
            shape.append(1 if dim.broadcast and rng.random() < 0.3 else dim.size)
        elif isinstance(dim, SymbolicDim):
            text = dim.text.replace("{k}", str(sizes.setdefault("k", rng.randint(1, 4))))
            shape.append(int(eval(text, dict(sizes))))  # noqa: S307 - the test's own expressions
        else:
            assert isinstance(dim, AnonymousDim)
            shape.append(rng.randint(1, 4))
    return shape


def _spoil(shapes: list[list[int]], rng: random.Random) -> None:
    victim = shapes[rng.randrange(len(shapes))]
    if victim and rng.random() < 0.7:
        i = rng.randrange(len(victim))
        victim[i] = victim[i] % 4 + 1
    elif victim and rng.random() < 0.5:
        victim.pop()
    else:
        victim.append(2)


def _verdict(call: Callable[[], Any]) -> bool:
    try:
        call()
    except Exception:
        return False
    return True


@pytest.mark.parametrize(("arguments", "result"), SIGNATURES, ids=[" ".join(a) + " -> " + r for a, r in SIGNATURES])
def test_same_verdicts_as_jaxtyping(arguments: list[str], result: str) -> None:
    rng = random.Random(" ".join(arguments))
    function = _function(arguments, result)
    theirs = jaxtyped(typechecker=beartype)(function)
    ours = tyr.checked(function)
    plan = ours.__tyr_plan__
    agreed = {True: 0, False: 0}
    for _ in range(80):
        sizes: dict[str, int] = {}
        groups: dict[str, tuple[int, ...]] = {}
        shapes = [_draw(dims, sizes, groups, rng) for dims in [*arguments, result]]
        if rng.random() < 0.35:
            _spoil(shapes, rng)
        dtype = torch.int32 if rng.random() < 0.05 else torch.float32
        tensors = [torch.zeros(s, dtype=dtype) for s in shapes]
        args = (*tensors[:-1], tensors[-1], sizes.get("k", 1))
        expected = _verdict(lambda: theirs(*args))
        assert _verdict(lambda: ours(*args)) == expected, (shapes, expected)
        bound = dict(zip(plan.signature.parameters, args))
        assert _verdict(lambda: check_result(check_arguments(plan, bound), tensors[-1])) == expected, shapes
        agreed[expected] += 1
    assert agreed[True] >= 10 and agreed[False] >= 10, agreed


def test_dtype_classes() -> None:
    """jaxtyping's dtype classes accept the torch dtypes whose names they list."""

    def f(x: Float[Tensor, "n"], i: Int[Tensor, "n"]) -> None:
        pass

    theirs, ours = jaxtyped(typechecker=beartype)(f), tyr.checked(f)
    for x_dtype in (torch.float16, torch.bfloat16, torch.float64, torch.int64, torch.bool):
        for i_dtype in (torch.int8, torch.int32, torch.uint8, torch.float32, torch.bool):
            args = (torch.zeros(2, dtype=x_dtype), torch.zeros(2, dtype=i_dtype))
            assert _verdict(lambda: ours(*args)) == _verdict(lambda: theirs(*args)), (x_dtype, i_dtype)


def test_compiled_where_it_can_be() -> None:
    """Named, fixed, variadic, `...` and expression dims run compiled; a first `#n` and `*#b` on the reference."""

    def fast(x: Float[Tensor, "*b n 3"], y: Float[Tensor, "... n+1"], z: Float[Tensor, "#n"]) -> Float[Tensor, "*b"]:
        return x[..., 0, 0]

    def slow(x: Float[Tensor, "#n"], y: Float[Tensor, "n"]) -> None:
        pass

    assert "_reference(" not in tyr.checked(fast).__tyr_source__.split("def _wrapper", 1)[1]
    assert "return _reference(" in tyr.checked(slow).__tyr_source__


def test_modules_and_dataclasses() -> None:
    """`tyr.checked` on a class checks its methods, a dataclass's fields through its `__init__`, as jaxtyped does."""
    from dataclasses import dataclass

    from torch import nn

    @tyr.checked
    class Head(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = nn.Linear(8, 3)

        def forward(self, x: Float[Tensor, "*batch 8"]) -> Float[Tensor, "*batch 3"]:
            return self.proj(x)

    @tyr.checked
    @dataclass
    class Rays:
        origins: Float[Tensor, "*batch 3"]
        directions: Float[Tensor, "*batch 3"]

    head = Head()
    head(torch.randn(2, 5, 8))
    with pytest.raises(tyr.ShapeError, match="Head.forward"):
        head(torch.randn(2, 5, 7))
    Rays(torch.zeros(4, 3), torch.ones(4, 3))
    with pytest.raises(tyr.ShapeError, match="directions"):
        Rays(torch.zeros(4, 3), torch.ones(5, 3))
