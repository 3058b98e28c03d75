"""Runtime shape checking with `@checked`: every form of SHAPES.md §2, accepted and rejected."""

import threading
from typing import Annotated, Any, Generic, Literal, TypeVar, TypeVarTuple, Unpack

import pytest
import numpy as np
import torch
from torch import nn

import tyr
from tyr import Dim, ShapeError, Tensor, checked

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
M = TypeVar("M")
N = TypeVar("N")
H = TypeVar("H")
NW = TypeVar("NW")
I = TypeVar("I")
O = TypeVar("O")
K = TypeVar("K")
S = TypeVar("S")
Batch = TypeVarTuple("Batch")


@checked
def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


def raises(match: str) -> Any:
    return pytest.raises(ShapeError, match=match)


# -- the spec's example ---------------------------------------------------------------------


def test_linear_accepts_matching_shapes() -> None:
    assert linear(torch.randn(32, 768), torch.randn(512, 768)).shape == (32, 512)


def test_linear_rejects_mismatched_dimension_naming_everything() -> None:
    with pytest.raises(ShapeError) as info:
        linear(torch.randn(32, 768), torch.randn(768, 512))
    message = str(info.value)
    assert "linear()" in message
    assert "argument 'w'" in message
    assert "dimension 1 (M) has size 512" in message
    assert "M = 768 was bound by argument 'x' dimension 1" in message
    assert "(768, 512)" in message and "Tensor[N, M]" in message


def test_wrong_return_shape_is_reported_as_return_value() -> None:
    @checked
    def bad(x: Tensor[B, M]) -> Tensor[M, B]:
        return x

    assert bad(torch.zeros(3, 3)).shape == (3, 3)
    with raises(r"bad\(\) return value: dimension 0 \(M\) has size 2, but M = 5 was bound by argument 'x'"):
        bad(torch.zeros(2, 5))


def test_non_tensor_is_rejected_clearly() -> None:
    with raises(r"argument 'x': expected a torch.Tensor \(Tensor\[B, M\]\), got list"):
        linear([[1.0]], torch.zeros(1, 1))  # type: ignore[arg-type]


def test_wrong_rank_is_rejected() -> None:
    with raises(r"argument 'x': expected 2 dimensions, got 3"):
        linear(torch.zeros(1, 2, 3), torch.zeros(4, 3))


# -- shape forms ----------------------------------------------------------------------------


def test_fixed_sizes() -> None:
    @checked
    def f(x: Tensor[2, 3]) -> Tensor[3]:
        return x[0]

    assert f(torch.zeros(2, 3)).shape == (3,)
    with raises(r"argument 'x': dimension 1 has size 4, expected 3"):
        f(torch.zeros(2, 4))


def test_literal_sizes_are_fixed_sizes() -> None:
    @checked
    def f(x: Tensor[Literal[2], Literal[3]]) -> None:
        pass

    f(torch.zeros(2, 3))
    with raises("dimension 0 has size 5, expected 2"):
        f(torch.zeros(5, 3))


def test_string_expressions_check_and_solve() -> None:
    @checked
    def concat(x: Tensor[B, N], y: Tensor[B, M]) -> Tensor[B, "N+M"]:
        return torch.cat([x, y], dim=1)

    assert concat(torch.zeros(2, 3), torch.zeros(2, 4)).shape == (2, 7)

    @checked
    def quarter(x: Tensor[B, D], y: Tensor[B, "D//4"]) -> None:
        pass

    quarter(torch.zeros(1, 16), torch.zeros(1, 4))
    with raises(r"argument 'y' dimension 1 \(D//4\) has size 5, but D//4 = 4 with D = 16"):
        quarter(torch.zeros(1, 16), torch.zeros(1, 5))

    @checked
    def flat(x: Tensor[B, T, D]) -> Tensor["B*T", D]:
        return x.reshape(-1, x.shape[-1])

    assert flat(torch.zeros(2, 3, 4)).shape == (6, 4)


def test_sizes_solved_from_expressions() -> None:
    @checked
    def half(x: Tensor[B, "2*D"]) -> Tensor[B, D]:
        return x[:, : x.shape[1] // 2]

    assert half(torch.zeros(3, 10)).shape == (3, 5)
    with raises(r"dimension 1 \(2\*D\) has size 9, but no size D makes 2\*D = 9"):
        half(torch.zeros(3, 9))

    @checked
    def shift(x: Tensor["T+1"]) -> Tensor[T]:
        return x[1:]

    assert shift(torch.zeros(9)).shape == (8,)


def test_division_is_exact() -> None:
    """SHAPES.md §6: a size an annotation divides is a multiple of the divisor; binding through a
    division follows (`"D//4"` of size 3 is D = 12), and a bound size it does not divide is an error."""

    @checked
    def quarter(x: Tensor[B, D], y: Tensor[B, "D//4"]) -> None:
        pass

    with raises(r"argument 'y' dimension 1 \(D//4\): D = 17 \(from argument 'x' dimension 1\) is not a multiple of 4"):
        quarter(torch.zeros(1, 17), torch.zeros(1, 4))

    @checked
    def widen(x: Tensor[B, "D//4"]) -> Tensor[B, D]:
        return x.repeat(1, 4)

    assert widen(torch.zeros(2, 3)).shape == (2, 12)

    @checked
    def heads(x: Tensor[B, "D//H"], h: Dim[H]) -> Tensor[B, D]:
        return x.repeat(1, h)

    assert heads(torch.zeros(2, 3), 4).shape == (2, 12)
    with raises(r"D = 10 \(from argument 'x' dimension 1\) is not a multiple of H = 4"):
        cast_heads(torch.zeros(2, 10), torch.zeros(2, 2), 4)

    # A dividend with an offset states no divisibility: the concrete size is computed as Python (and
    # torch) divide, so a stride-2 length of an odd input is no error, and a wrong one still is.
    @checked
    def pooled(x: Tensor[B, H], y: Tensor[B, "(H - 1)//2 + 1"]) -> None:  # a stride-2 convolution's length
        pass

    pooled(torch.zeros(1, 8), torch.zeros(1, 4))
    pooled(torch.zeros(1, 7), torch.zeros(1, 4))
    with raises(r"\(H - 1\)//2 \+ 1\) has size 3, but \(H - 1\)//2 \+ 1 = 4"):
        pooled(torch.zeros(1, 7), torch.zeros(1, 3))

    @checked
    class Down(nn.Module, Generic[I, O, K, S]):  # an odd kernel with stride 2 (K is no multiple of S)
        def __init__(self, i: Dim[I], o: Dim[O], k: Dim[K], s: Dim[S]) -> None:
            super().__init__()
            self.conv = nn.Conv1d(i, o, k, stride=s, padding=1)

        def forward(self, x: Tensor[B, I, H]) -> Tensor[B, O, "(H+2-K)//S+1"]:
            return self.conv(x)

    assert Down(4, 8, 3, 2)(torch.zeros(2, 4, 8)).shape == (2, 8, 4)
    assert Down(4, 8, 3, 2)(torch.zeros(2, 4, 7)).shape == (2, 8, 4)


@checked
def cast_heads(x: Tensor[B, D], y: Tensor[B, "D//H"], h: Dim[H]) -> None:
    pass


def test_a_computed_size_nothing_binds_is_left_unchecked() -> None:
    """`"B*NW"` with neither factor bound anywhere is no error: it is checked only against itself."""

    @checked
    def windows(x: Tensor["B*NW", 4]) -> Tensor["B*NW", 4]:
        return x

    assert windows(torch.zeros(6, 4)).shape == (6, 4)

    @checked
    def dropped(x: Tensor["B*NW", 4]) -> Tensor["B*NW", 4]:
        return x[1:]

    with raises(r"return value dimension 0 \(B\*NW\) has size 5, but B\*NW has size 6 at argument 'x' dimension 0"):
        dropped(torch.zeros(6, 4))

    @checked
    def later(x: Tensor["B*NW", 4], b: Dim[B]) -> Tensor[NW, 4]:
        return x[: x.shape[0] // b]

    assert later(torch.zeros(6, 4), 2).shape == (3, 4)
    with raises(r"B\*NW"):
        later(torch.zeros(7, 4), 2)


def test_typing_extensions_unpack() -> None:
    """`Tensor[Unpack[Batch], D]` with `typing_extensions.Unpack` (what most code imports; a form of its
    own before Python 3.12) is `Tensor[*Batch, D]`."""
    import typing_extensions

    @checked
    def norm(x: Tensor[typing_extensions.Unpack[Batch], D], scale: Tensor[D]) -> Tensor[typing_extensions.Unpack[Batch], D]:
        return x * scale

    assert norm(torch.zeros(2, 3, 4), torch.zeros(4)).shape == (2, 3, 4)
    with raises(r"argument 'scale': dimension 0 \(D\) has size 5, but D = 4"):
        norm(torch.zeros(2, 3, 4), torch.zeros(5))


def test_typevartuple_batch_dims() -> None:
    @checked
    def norm(x: Tensor[*Batch, D], scale: Tensor[D]) -> Tensor[*Batch, D]:
        return x * scale

    assert norm(torch.zeros(2, 3, 4), torch.zeros(4)).shape == (2, 3, 4)
    assert norm(torch.zeros(4), torch.zeros(4)).shape == (4,)

    @checked
    def pair(x: Tensor[Unpack[Batch], D], y: Tensor[*Batch]) -> None:
        pass

    pair(torch.zeros(2, 3, 4), torch.zeros(2, 3))
    with raises(r"argument 'y': dimensions 0..1 \(\*Batch\) are \(2, 4\), but \*Batch = \(2, 3\) was bound by argument 'x'"):
        pair(torch.zeros(2, 3, 4), torch.zeros(2, 4))
    with raises("expected at least 1 dimensions, got 0"):
        norm(torch.zeros(()), torch.zeros(4))


def test_scalar_tensor() -> None:
    @checked
    def loss(x: Tensor[B]) -> Tensor[()]:
        return x.sum()

    assert loss(torch.ones(3)).item() == 3.0

    @checked
    def not_scalar(x: Tensor[B]) -> Tensor[()]:
        return x

    with raises(r"return value: expected 0 dimensions, got 1"):
        not_scalar(torch.ones(3))


def test_bare_tensor_checks_only_that_it_is_a_tensor() -> None:
    @checked
    def f(x: Tensor, y: torch.Tensor) -> Tensor:
        return x

    f(torch.zeros(1, 2, 3), torch.zeros(()))
    with raises("expected a torch.Tensor"):
        f(3, torch.zeros(1))  # type: ignore[arg-type]


def test_any_is_a_wildcard_dimension() -> None:
    @checked
    def f(x: Tensor[Any, D], y: Tensor[Any, D]) -> None:
        pass

    f(torch.zeros(2, 3), torch.zeros(5, 3))
    with raises(r"dimension 1 \(D\) has size 4"):
        f(torch.zeros(2, 3), torch.zeros(5, 4))


def test_int_is_an_unknown_size_as_for_the_static_checker() -> None:
    @checked
    def f(x: Tensor[int, D], y: Tensor[int, D]) -> None:
        pass

    f(torch.zeros(2, 3), torch.zeros(5, 3))
    with raises(r"dimension 1 \(D\) has size 4"):
        f(torch.zeros(2, 3), torch.zeros(5, 4))


def test_type_aliases() -> None:
    Hidden = Tensor[B, T, 8]

    @checked
    def f(x: Hidden, y: Tensor[B, T]) -> Hidden:
        return x

    f(torch.zeros(2, 3, 8), torch.zeros(2, 3))
    with raises(r"argument 'y': dimension 1 \(T\) has size 4, but T = 3"):
        f(torch.zeros(2, 3, 8), torch.zeros(2, 4))



def test_type_aliases_take_sizes_as_the_static_checker_reads_them() -> None:
    Hidden = Tensor[B, T, 8]
    Half = Tensor[B, "D//2"]  # D only in a string: a parameter after B
    Pair = tuple[Tensor[B, "D//2"], Tensor[B, D]]

    @checked
    def f(x: Hidden[B, 3], y: Tensor[B, D]) -> Pair[B, D]:
        return y[:, : y.shape[1] // 2], y

    @checked
    def g(y: Tensor[B, D]) -> Half[B, D]:
        return y

    assert [tuple(t.shape) for t in f(torch.zeros(2, 3, 8), torch.zeros(2, 6))] == [(2, 3), (2, 6)]
    with raises(r"argument 'x': dimension 1 has size 4, expected 3"):
        f(torch.zeros(2, 4, 8), torch.zeros(2, 6))
    with raises(r"return value dimension 1 \(D//2\) has size 6, but D//2 = 3 with D = 6"):
        g(torch.zeros(2, 6))
    assert str(Half[4, "2*N"].__metadata__[0]) == "Tensor[4, N]"  # (2*N)//2 is N
    with pytest.raises(TypeError, match=r'Tensor\[B, "D//2"\] takes 2 sizes \(B, D\), 1 given'):
        Half[4]

def test_optional_and_tuple_results() -> None:
    @checked
    def f(x: Tensor[B, T], mask: Tensor[B, T] | None = None) -> tuple[Tensor[B, T], Tensor[()] | None]:
        return x, (x.sum() if mask is None else None)

    f(torch.zeros(2, 3))
    f(torch.zeros(2, 3), torch.zeros(2, 3))
    with raises(r"argument 'mask': dimension 1 \(T\) has size 4"):
        f(torch.zeros(2, 3), torch.zeros(2, 4))

    @checked
    def g(x: Tensor[B]) -> tuple[Tensor[B], Tensor[B]]:
        return x, x[:1]

    with raises(r"return value\[1\]: dimension 0 \(B\) has size 1, but B = 3"):
        g(torch.zeros(3))


def test_size_first_bound_inside_optional_uses_the_reference_checker() -> None:
    @checked
    def f(mask: Tensor[B] | None, x: Tensor[B]) -> Tensor[B]:
        return x

    f(None, torch.zeros(3))
    f(torch.zeros(3), torch.zeros(3))
    with raises(r"argument 'x': dimension 0 \(B\) has size 4, but B = 3"):
        f(torch.zeros(3), torch.zeros(4))


# -- Dim arguments --------------------------------------------------------------------------


def test_dim_arguments_are_checked_against_tensor_dims() -> None:
    @checked
    def split_heads(x: Tensor[B, T, D], n_head: Dim[N]) -> Tensor[B, N, T, "D//N"]:
        b, t, d = x.shape
        return x.view(b, t, n_head, d // n_head).transpose(1, 2)

    assert split_heads(torch.zeros(2, 3, 8), 4).shape == (2, 4, 3, 2)

    @checked
    def make(d: Dim[D]) -> Tensor[D]:
        return torch.zeros(d + 1)

    with raises(r"return value: dimension 0 \(D\) has size 4, but D = 3 was bound by argument 'd'"):
        make(3)

    @checked
    def same(x: Tensor[D], d: Dim[D]) -> None:
        pass

    with raises(r"argument 'd': D = 5, but D = 4 was bound by argument 'x' dimension 0"):
        same(torch.zeros(4), 5)
    with raises("expected an int size Dim"):
        same(torch.zeros(4), 4.0)  # type: ignore[arg-type]
    with raises("expected an int size Dim"):
        same(torch.zeros(1), True)
    # an integer torch takes as a size is one here too: NumPy's (`labels.max() + 1`), a 0-d integer tensor
    same(torch.zeros(4), np.int64(4))  # type: ignore[arg-type]
    same(torch.zeros(4), torch.tensor(4))  # type: ignore[arg-type]
    with raises(r"argument 'd': D = 5, but D = 4 was bound"):
        same(torch.zeros(4), np.int64(5))  # type: ignore[arg-type]
    with raises("expected an int size Dim"):
        same(torch.zeros(4), np.float64(4.0))  # type: ignore[arg-type]


def test_fixed_dim_argument() -> None:
    @checked
    def f(d: Dim[768]) -> None:
        pass

    f(768)
    with raises(r"expected Dim\[768\], got 512"):
        f(512)


# -- other parameters go to beartype ---------------------------------------------------------


def test_non_tensor_parameters_are_checked_by_beartype() -> None:
    from beartype.roar import BeartypeCallHintParamViolation

    @checked
    def scale(x: Tensor[B], factor: float, name: str = "s") -> Tensor[B]:
        return x * factor

    scale(torch.ones(2), 2.0)
    with pytest.raises(BeartypeCallHintParamViolation):
        scale(torch.ones(2), "two")  # type: ignore[arg-type]


def test_keyword_only_defaults_and_varargs_keep_working() -> None:
    @checked
    def f(x: Tensor[B], /, y: Tensor[B], *rest: int, z: Tensor[B] | None = None, **extra: int) -> int:
        return len(rest) + len(extra)

    assert f(torch.zeros(2), torch.zeros(2), 1, 2, z=torch.zeros(2), k=3) == 3
    with raises("argument 'z'"):
        f(torch.zeros(2), torch.zeros(2), z=torch.zeros(3))


# -- dtype and device ------------------------------------------------------------------------


def test_dtype_constraints() -> None:
    @checked
    def embed(idx: Annotated[Tensor[B, T], tyr.Integer], table: Annotated[Tensor[N, D], tyr.Float]) -> None:
        pass

    embed(torch.zeros(2, 3, dtype=torch.long), torch.zeros(5, 4))
    with raises(r"argument 'idx': expected dtype Integer, got torch.float32"):
        embed(torch.zeros(2, 3), torch.zeros(5, 4))

    @checked
    def exact(x: Annotated[Tensor[B], torch.bfloat16]) -> None:
        pass

    exact(torch.zeros(2, dtype=torch.bfloat16))
    with raises("expected dtype bfloat16, got torch.float16"):
        exact(torch.zeros(2, dtype=torch.float16))


def test_same_device() -> None:
    @checked(same_device=True)
    def add(x: Tensor[B], y: Tensor[B]) -> Tensor[B]:
        return x + y

    add(torch.zeros(2), torch.zeros(2))
    with raises(r"argument 'y': is on meta, but argument 'x' is on cpu"):
        add(torch.zeros(2), torch.zeros(2, device="meta"))


# -- modules ---------------------------------------------------------------------------------


@checked
class Block(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        return x + self.proj(torch.nn.functional.gelu(self.fc(x)))


def test_class_dims_bound_per_instance_from_constructor() -> None:
    small, large = Block(4), Block(8)
    assert small(torch.zeros(2, 3, 4)).shape == (2, 3, 4)
    assert large(torch.zeros(2, 3, 8)).shape == (2, 3, 8)
    with raises(r"Block.forward\(\) argument 'x': dimension 2 \(D\) has size 8, but D = 4 was bound by the Block instance's constructor"):
        small(torch.zeros(2, 3, 8))


def test_per_call_dims_of_a_method_are_not_shared_across_calls() -> None:
    block = Block(4)
    block(torch.zeros(2, 3, 4))
    assert block(torch.zeros(5, 7, 4)).shape == (5, 7, 4)


def test_class_without_dim_constructor_binds_per_call() -> None:
    @checked
    class Scale(nn.Module, Generic[D]):
        def __init__(self) -> None:
            super().__init__()

        def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
            return x * 2

    scale = Scale()
    scale(torch.zeros(2, 3))
    scale(torch.zeros(2, 5))


# -- per-call binding ------------------------------------------------------------------------


def test_bindings_do_not_leak_between_calls() -> None:
    assert linear(torch.zeros(2, 3), torch.zeros(4, 3)).shape == (2, 4)
    assert linear(torch.zeros(5, 7), torch.zeros(6, 7)).shape == (5, 6)


def test_nested_checked_calls_have_their_own_bindings() -> None:
    @checked
    def inner(x: Tensor[B]) -> Tensor[B]:
        return x

    @checked
    def outer(x: Tensor[B, D]) -> Tensor[B, D]:
        inner(torch.zeros(11))  # a different B inside
        return x

    outer(torch.zeros(2, 3))


def test_bindings_are_per_thread() -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def work(size: int) -> None:
        barrier.wait()
        try:
            for _ in range(300):
                out = linear(torch.zeros(size, 3), torch.zeros(size + 1, 3))
                assert out.shape == (size, size + 1)
                with raises("M"):
                    linear(torch.zeros(size, 3), torch.zeros(size, 4))
        except BaseException as err:  # collected and re-raised in the main thread
            errors.append(err)

    threads = [threading.Thread(target=work, args=(n,)) for n in (2, 3, 4, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


# -- switching off ---------------------------------------------------------------------------


def test_checking_can_be_turned_off_and_on() -> None:
    bad = (torch.zeros(2, 3), torch.zeros(4, 5))
    with tyr.checking(False):
        assert not tyr.checking_enabled()
        with pytest.raises(RuntimeError):  # torch's own error: no shape check ran
            linear(*bad)
    assert tyr.checking_enabled()
    with raises("M"):
        linear(*bad)
    tyr.set_checking(False)
    try:
        with pytest.raises(RuntimeError):
            linear(*bad)
    finally:
        tyr.set_checking(True)


def test_forward_references_resolve_on_first_call() -> None:
    @checked
    def f(x: "Later") -> "Later":  # noqa: F821 - defined below, resolved lazily
        return x

    globals()["Later"] = Tensor[B, 2]
    try:
        f(torch.zeros(3, 2))
        with raises("dimension 1 has size 3, expected 2"):
            f(torch.zeros(2, 3))
    finally:
        del globals()["Later"]


def test_malformed_annotations_are_reported_at_decoration() -> None:
    with pytest.raises(tyr.AnnotationError, match="may only use names"):

        @checked
        def f(x: Tensor["D**2"]) -> None:
            pass

    with pytest.raises(tyr.AnnotationError, match="at most one"):
        Tensor[*Batch, D, *Batch]  # type: ignore[misc]


def test_methods_using_some_of_the_class_dims_take_the_fast_path() -> None:
    @checked
    class Two(nn.Module, Generic[D, N]):
        def __init__(self, d: Dim[D], n: Dim[N]) -> None:
            super().__init__()

        def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
            return x

    two = Two(3, 4)
    assert two.__tyr_dims__ == {"D": 3, "N": 4}
    assert "_cd['D']" in Two.forward.__tyr_source__
    two(torch.zeros(2, 3))
    with raises("dimension 1 \\(D\\) has size 4, but D = 3 was bound by the Two instance's constructor"):
        two(torch.zeros(2, 4))


def test_a_module_annotation_python_cannot_evaluate_is_left_unchecked() -> None:
    """`nn.Linear[I, O]` is generic in tyr's stubs only (and so unevaluable at run time, as under
    `from __future__ import annotations`): that parameter goes unchecked, the others are checked."""

    @checked
    class Wrap(nn.Module, Generic[M, N]):
        def __init__(self, base: "nn.Linear[M, N]") -> None:
            super().__init__()
            self.base = base

        def forward(self, x: "Tensor[B, M]") -> "Tensor[B, N]":
            out: torch.Tensor = self.base(x)
            return out

    wrap = Wrap(nn.Linear(3, 4))
    assert wrap(torch.randn(2, 3)).shape == (2, 4)
    with pytest.raises(ShapeError):
        wrap.forward(torch.randn(2, 3, 1))
