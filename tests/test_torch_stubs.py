"""tyr's stubs for `torch.fft` and `torch.linalg` against torch itself: every function and class torch has there
is declared, and every keyword a declaration takes is one torch's binding takes.  (A name or a keyword the
stub lacks would be an error mypy never gave without tyr, where torch typed these modules `Any`.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import ModuleType

import pytest
import torch

STUBS = Path(__file__).resolve().parent.parent / "typed_stubs" / "torch-stubs"
MODULES = {"fft": torch.fft, "linalg": torch.linalg}
NUMPY_SPELLINGS = {"axis", "keepdims"}  # of `dim` and `keepdim`, which torch's binding takes too


def _declarations(name: str) -> dict[str, ast.stmt]:
    tree = ast.parse((STUBS / name / "__init__.pyi").read_text())
    found: dict[str, ast.stmt] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            found[stmt.name] = stmt
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            found[stmt.target.id] = stmt
        elif isinstance(stmt, ast.ImportFrom):
            found.update({alias.asname: stmt for alias in stmt.names if alias.asname == alias.name})
    return found


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_function_and_class_is_declared(name: str) -> None:
    module: ModuleType = MODULES[name]
    public = {n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))}
    assert public - set(_declarations(name)) == set()
    if hasattr(module, "__all__"):
        stub_all = next(
            s.value for s in ast.parse((STUBS / name / "__init__.pyi").read_text()).body
            if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in s.targets)
        )
        assert ast.literal_eval(stub_all) == module.__all__


class _Sentinel:
    """A value of no type torch takes: torch's error then names the keyword, or says it knows none such."""


def _required(arg: ast.arg) -> object:
    annotation = ast.unparse(arg.annotation) if arg.annotation is not None else ""
    if annotation.startswith("Sequence"):
        return [torch.eye(3), torch.eye(3)]
    if annotation == "Tensor":
        return torch.eye(3)
    return True if annotation == "bool" else 2


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_declared_keyword_is_torchs(name: str) -> None:
    module = MODULES[name]
    for function in (s for s in _declarations(name).values() if isinstance(s, ast.FunctionDef)):
        if function.name == "__getattr__":
            continue
        args = function.args
        positional = args.posonlyargs + args.args
        required = [_required(a) for a in positional[: len(positional) - len(args.defaults)]]
        keyword_required = {a.arg: _required(a) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None}
        keywords = [a.arg for a in positional[len(required) :] + args.kwonlyargs if a.arg not in NUMPY_SPELLINGS]
        for keyword in keywords:
            given = {**keyword_required, keyword: _Sentinel()}
            try:
                getattr(module, function.name)(*required, **given)
            except TypeError as err:
                message = str(err)
                assert "unexpected keyword" not in message, f"{name}.{function.name}: {message}"
                if "invalid combination" in message:  # overloads: the keyword must be in one of them
                    assert re.search(rf"\b{keyword}\b", message.partition("expected one of")[2]), message
            except (RuntimeError, ValueError, IndexError):
                pass


def test_the_recurrent_stub_declares_what_torch_defines() -> None:
    """`torch-stubs/nn/modules/rnn.pyi` replaces torch's own source for mypy: each class there, and each method
    and class-level attribute torch's class defines, must be declared (else an error mypy never gave)."""
    from torch.nn.modules import rnn

    tree = ast.parse((STUBS / "nn" / "modules" / "rnn.pyi").read_text())
    stub_classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}
    stub_functions = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)}
    assert set(rnn.__all__) <= set(stub_classes)
    assert {"apply_permutation", "_apply_permutation"} <= stub_functions
    for name, stub in stub_classes.items():
        declared = {
            target.id if isinstance(target, ast.Name) else ""
            for s in stub.body
            for target in ([s.target] if isinstance(s, ast.AnnAssign) else [])
        } | {s.name for s in stub.body if isinstance(s, ast.FunctionDef)}
        own = {n for n in vars(getattr(rnn, name)) if not (n.startswith("__") and n.endswith("__"))}
        own |= set(getattr(getattr(rnn, name), "__annotations__", {}))
        assert own - declared - {"_abc_impl"} == set(), name
