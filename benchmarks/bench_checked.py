"""Per-call overhead of runtime shape checking: plain vs `@tyr.checked` vs jaxtyping + beartype.

Run: `python benchmarks/bench_checked.py` (add `--calls N` for more precision).
The same two-tensor function is timed three ways in one run; overheads are
per call over the plain function, and the last line is the ratio of
jaxtyping's overhead to tyr's.
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable
from typing import Any, TypeVar

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped

from tyr import Tensor, checked

B = TypeVar("B")
M = TypeVar("M")
N = TypeVar("N")


def plain(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x


@checked
def tyr_checked(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, M]:
    return x


@jaxtyped(typechecker=beartype)
def jaxtyping_beartype(x: Float[torch.Tensor, "b m"], w: Float[torch.Tensor, "n m"]) -> Float[torch.Tensor, "b m"]:
    return x


def per_call_us(fn: Callable[..., Any], args: tuple[Any, ...], calls: int, repeats: int) -> float:
    """Best of `repeats` timings, in microseconds per call."""
    timer = timeit.Timer(lambda: fn(*args))
    return min(timer.repeat(repeat=repeats, number=calls)) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=7)
    options = parser.parse_args()
    args = (torch.randn(8, 16), torch.randn(4, 16))
    for fn in (plain, tyr_checked, jaxtyping_beartype):  # warm up (and compile lazily built checkers)
        fn(*args)
    base = per_call_us(plain, args, options.calls, options.repeats)
    tyr_us = per_call_us(tyr_checked, args, options.calls, options.repeats)
    jax_us = per_call_us(jaxtyping_beartype, args, max(options.calls // 10, 1000), options.repeats)
    print(f"plain call               {base:8.3f} us")
    print(f"tyr @checked             {tyr_us:8.3f} us  (overhead {tyr_us - base:7.3f} us)")
    print(f"jaxtyping + beartype     {jax_us:8.3f} us  (overhead {jax_us - base:7.3f} us)")
    print(f"overhead ratio jaxtyping/tyr: {(jax_us - base) / (tyr_us - base):.1f}x")


if __name__ == "__main__":
    main()
