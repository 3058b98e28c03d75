"""Hooks for `torch.fft` (declared by tyr's stub `torch-stubs/fft`): the transforms, `fftshift` / `ifftshift`,
`fftfreq` / `rfftfreq`; the rules are `tyr.shape_rules.spectral`'s.

`FUNCTIONS` is merged into `_functions.FUNCTIONS`.  torch spells a dim `dim` or, as NumPy
does, `axis`.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.types import Type

from tyr import shape_rules as rules
from tyr.mypy_plugin._args import Call, NotKnown, is_int_like
from tyr.shape_rules import MaybeShape, Size
from tyr.shape_rules.spectral import Kind

FunctionHandler = Callable[[Call], Type]


def _lengths(call: Call, name: str) -> list[Size] | None:
    """`n=` / `s=`: the lengths asked for (None in the list for one of unknown value), None when not given."""
    actuals = call.actuals(name)
    if not actuals or call.is_none(actuals[0]):
        return None
    listed = call.sequence_of(actuals[0])
    if listed is not None:
        return listed
    size = call.size_of(actuals[0])
    if size is None and not is_int_like(actuals[0].type):
        raise NotKnown  # a list of unknown length
    return [size]


def _dims(call: Call, default: list[int] | None) -> list[int] | None:
    dim = call.dims_arg("dim", "axis", default=default)
    return [dim] if isinstance(dim, int) else None if dim is None else list(dim)  # type: ignore[call-overload]


def _one_dim(kind: Kind) -> FunctionHandler:
    """`fft(x, n, dim)` and its kin: one transformed dim."""

    def handler(call: Call) -> Type:
        dim = call.int_arg("dim", "axis", default=-1)
        if not isinstance(dim, int):
            raise NotKnown
        out = rules.fftn(call.tensor_arg("input"), _lengths(call, "n"), [dim], kind=kind, op=call.op)
        return call.tensor(out)

    return handler


def _n_dims(kind: Kind, default: list[int] | None) -> FunctionHandler:
    """`fftn(x, s, dim)` (`dim` defaults to None) and `fft2(x, s, dim)` (to the last two dims)."""

    def handler(call: Call) -> Type:
        out = rules.fftn(call.tensor_arg("input"), _lengths(call, "s"), _dims(call, default), kind=kind, op=call.op)
        return call.tensor(out)

    return handler


def _shift(call: Call) -> Type:
    dim = call.dims_arg("dim", "axis", default=None)
    return call.tensor(rules.fftshift(call.tensor_arg("input"), dim, op=call.op))  # type: ignore[arg-type]


def _frequencies(call: Call) -> Type:
    actuals = call.actuals("n")
    if not actuals:
        raise NotKnown
    return call.tensor(rules.fftfreq(call.size_of(actuals[0]), real=call.op == "rfftfreq", op=call.op))


_KINDS: dict[str, Kind] = {
    "fft": "complex",
    "ifft": "complex",
    "rfft": "real_input",
    "ihfft": "real_input",
    "irfft": "real_output",
    "hfft": "real_output",
}

def _stft(call: Call, shape: MaybeShape) -> Type:
    """`x.stft(n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided, return_complex)`."""
    sizes = {}
    for name in ("n_fft", "hop_length", "win_length"):
        actuals = call.actuals(name)
        sizes[name] = None if not actuals or call.is_none(actuals[0]) else call.size_of(actuals[0])
    window = call.actuals("window")
    pad_mode = call.str_arg("pad_mode") if call.actuals("pad_mode") else "reflect"
    out = rules.stft(
        shape,
        sizes["n_fft"],
        sizes["hop_length"],
        sizes["win_length"],
        call.shape_of(window[0]) if window and not call.is_none(window[0]) else None,
        center=bool(_flag(call, "center", True)),
        pad_mode=pad_mode if pad_mode in ("reflect", "constant") else None,
        onesided=_flag(call, "onesided", None),
        # not given, a real signal is an error and a complex one gives a complex result
        return_complex=bool(_flag(call, "return_complex", True)),
        align_to_window=_flag(call, "align_to_window", None),
        op="stft",
    )
    return call.tensor(out)


def _flag(call: Call, name: str, absent: bool | None) -> bool | None:
    """A bool argument: its value, `absent` where it is not given (or None); NotKnown where its value is unknown."""
    actuals = call.actuals(name)
    if not actuals or call.is_none(actuals[0]):
        return absent
    value = call.bool_of(actuals[0])
    if value is None:
        raise NotKnown
    return value


METHODS: dict[str, Callable[[Call, MaybeShape], Type]] = {"stft": _stft}

FUNCTIONS: dict[str, FunctionHandler] = {"torch.fft.fftshift": _shift, "torch.fft.ifftshift": _shift}
FUNCTIONS["torch.fft.fftfreq"] = FUNCTIONS["torch.fft.rfftfreq"] = _frequencies
for _name, _kind in _KINDS.items():
    FUNCTIONS[f"torch.fft.{_name}"] = _one_dim(_kind)
    FUNCTIONS[f"torch.fft.{_name}2"] = _n_dims(_kind, [-2, -1])
    FUNCTIONS[f"torch.fft.{_name}n"] = _n_dims(_kind, None)
