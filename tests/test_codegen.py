"""The compiled fast path agrees with the reference checker on every plan and every shape."""

from typing import Any, TypeVar, TypeVarTuple, Unpack

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tyr import ShapeError, Tensor, checked
from tyr._interpret import check_arguments, check_result

A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
Batch = TypeVarTuple("Batch")

DIMS: list[Any] = [1, 2, 3, A, B, C, "A+1", "2*B", "A*B", "B//2", "C-1", Any]


def make_function(annotations: list[list[Any]], result: list[Any] | None) -> Any:
    names = [f"p{i}" for i in range(len(annotations))]
    namespace: dict[str, Any] = {}
    exec(f"def f({', '.join(names)}):\n    return _result", namespace)
    fn = namespace["f"]
    fn.__annotations__ = {n: Tensor[tuple(dims)] for n, dims in zip(names, annotations)}
    if result is not None:
        fn.__annotations__["return"] = Tensor[tuple(result)]
    return fn, namespace


def reference_verdict(fn: Any, arguments: dict[str, Any], result: Any) -> str | None:
    plan = checked(fn).__tyr_plan__
    try:
        binding = check_arguments(plan, arguments)
        check_result(binding, result)
    except ShapeError as err:
        return str(err)
    return None


shapes = st.lists(st.integers(0, 6), min_size=0, max_size=4).map(tuple)


@st.composite
def shape_annotation(draw: st.DrawFn) -> list[Any]:
    dims = draw(st.lists(st.sampled_from(DIMS), min_size=0, max_size=3))
    if draw(st.booleans()):  # a *Batch group somewhere
        dims.insert(draw(st.integers(0, len(dims))), Unpack[Batch])
    return dims


annotations = st.lists(shape_annotation(), min_size=1, max_size=3)


@settings(max_examples=400, deadline=None)
@given(
    annotations=annotations,
    result=st.none() | shape_annotation(),
    data=st.data(),
)
def test_fast_path_and_reference_agree(annotations: list[list[Any]], result: list[Any] | None, data: Any) -> None:
    fn, namespace = make_function(annotations, result)
    arguments: dict[str, Any] = {}
    for i, dims in enumerate(annotations):
        # Mostly the right rank, so that size checks (not just rank checks) are exercised.
        rank = data.draw(st.sampled_from([len(dims), len(dims), len(dims), len(dims) + 1]))
        arguments[f"p{i}"] = torch.empty(data.draw(st.lists(st.integers(0, 6), min_size=rank, max_size=rank)))
    namespace["_result"] = torch.empty(data.draw(shapes)) if result is not None else None
    expected = reference_verdict(fn, arguments, namespace["_result"])
    try:
        checked(fn)(**arguments)
        verdict = None
    except ShapeError as err:
        verdict = str(err)
    assert verdict == expected
