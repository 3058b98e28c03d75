"""`install_import_hook("mypkg")`: check every function and class of a package as it is imported.

A meta-path finder wraps the normal source loader and adds `@tyr.checked` to
each function and class in the module's syntax tree before it is compiled,
as if the author had written the decorator everywhere.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

_DECORATOR = "__tyr_checked__"


class _AddDecorators(ast.NodeTransformer):
    """Decorate top-level and nested functions and every class; methods are covered by their class."""

    def __init__(self) -> None:
        self.in_class = 0

    def _decorate(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        node.decorator_list.append(ast.Name(_DECORATOR, ast.Load()))

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        self.in_class += 1
        self.generic_visit(node)
        self.in_class -= 1
        self._decorate(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        in_class, self.in_class = self.in_class, 0
        self.generic_visit(node)
        self.in_class = in_class
        if not in_class:
            self._decorate(node)
        return node


class _CheckingLoader(importlib.machinery.SourceFileLoader):
    def source_to_code(self, data: Any, path: Any, *, _optimize: int = -1) -> Any:  # type: ignore[override]
        tree = ast.parse(data, filename=path)
        tree = _AddDecorators().visit(tree)
        # Import the decorator under a private name after any `from __future__` imports.
        body_start = 0
        for i, stmt in enumerate(tree.body):
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                body_start = i + 1
            elif i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                body_start = 1
        tree.body.insert(
            body_start, ast.ImportFrom("tyr._checked", [ast.alias("checked", _DECORATOR)], level=0)
        )
        ast.fix_missing_locations(tree)
        return compile(tree, path, "exec", dont_inherit=True, optimize=_optimize)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, packages: Sequence[str]) -> None:
        self.packages = tuple(packages)

    def _covers(self, name: str) -> bool:
        return any(name == p or name.startswith(p + ".") for p in self.packages)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not self._covers(fullname):
            return None
        for finder in sys.meta_path:
            if finder is self or isinstance(finder, _Finder):
                continue
            spec = finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None:
                if isinstance(spec.loader, importlib.machinery.SourceFileLoader) and spec.origin:
                    spec.loader = _CheckingLoader(fullname, spec.origin)
                return spec
        return None


class ImportHook:
    """The installed hook; `uninstall()` removes it (also usable as a context manager)."""

    def __init__(self, finder: _Finder) -> None:
        self._finder = finder

    def uninstall(self) -> None:
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)

    def __enter__(self) -> ImportHook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()


def install_import_hook(packages: str | Iterable[str]) -> ImportHook:
    """Check every function and class of `packages` (and their submodules) imported from now on.

    Arguments:
        packages: a package name such as `"mymodels"`, or several.

    Modules imported before the call are not affected.  Returns a handle whose
    `uninstall()` stops checking new imports.
    """
    names = [packages] if isinstance(packages, str) else list(packages)
    finder = _Finder(names)
    sys.meta_path.insert(0, finder)
    return ImportHook(finder)
