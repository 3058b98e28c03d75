"""Per-call cost of checking jaxtyping annotations: `jaxtyped(typechecker=beartype)` vs `tyr.checked`.

Run: `python -m benchmarks.bench_jaxtyping` (add `--calls N` for more precision).
The same jaxtyping-annotated functions (unchanged source, one with named dims and
a dtype, one with a `*batch` group and an `n+1` dim) are timed plain, under
jaxtyping's own checker with beartype, and under `tyr.checked`, in one run; each
line gives the overhead per call over the plain function, and the last lines the
ratio of jaxtyping's overhead to tyr's.
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable
from typing import Any

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor

from tyr import checked


def linear(x: Float[Tensor, "b m"], w: Float[Tensor, "n m"]) -> Float[Tensor, "b m"]:
    return x


def pad_points(points: Float[Tensor, "*batch n 3"], extra: Float[Tensor, "*batch n+1 3"]) -> Float[Tensor, "*batch n"]:
    return points[..., 0]


CASES: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("linear  (b m), (n m) -> (b m)", linear, (torch.randn(8, 16), torch.randn(4, 16))),
    ("points  (*batch n 3), (*batch n+1 3)", pad_points, (torch.randn(2, 5, 7, 3), torch.randn(2, 5, 8, 3))),
]


def per_call_us(fn: Callable[..., Any], args: tuple[Any, ...], calls: int, repeats: int) -> float:
    """Best of `repeats` timings, in microseconds per call."""
    timer = timeit.Timer(lambda: fn(*args))
    return min(timer.repeat(repeat=repeats, number=calls)) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    ratios = []
    for label, fn, args in CASES:
        jax_fn = jaxtyped(typechecker=beartype)(fn)
        tyr_fn = checked(fn)
        for f in (fn, jax_fn, tyr_fn):  # warm up (and check that the arguments pass)
            f(*args)
        base = per_call_us(fn, args, options.calls, options.repeats)
        tyr_us = per_call_us(tyr_fn, args, options.calls, options.repeats)
        jax_us = per_call_us(jax_fn, args, max(options.calls // 10, 1000), options.repeats)
        ratio = (jax_us - base) / (tyr_us - base)
        ratios.append(ratio)
        print(label)
        print(f"  plain call                     {base:8.3f} us")
        print(f"  jaxtyped(typechecker=beartype) {jax_us:8.3f} us  (overhead {jax_us - base:7.3f} us)")
        print(f"  tyr.checked                    {tyr_us:8.3f} us  (overhead {tyr_us - base:7.3f} us)")
        print(f"  overhead ratio jaxtyping/tyr: {ratio:.1f}x")
    print(f"overhead ratio jaxtyping/tyr, all cases: {min(ratios):.1f}x to {max(ratios):.1f}x")


if __name__ == "__main__":
    main()
