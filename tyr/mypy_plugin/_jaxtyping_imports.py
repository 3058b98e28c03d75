"""Which names are jaxtyping's dtype classes (`Float`, `jt.Int`, a project's re-export of `Bool`).

To mypy they are `typing.Annotated`, so only the import says whose they are: a name
the module imported from jaxtyping (under any name, or through a module of the
project that re-exports it), or an attribute of jaxtyping imported as a module.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Import, ImportAll, ImportFrom, MypyFile
from mypy.plugin import AnalyzeTypeContext
from mypy.semanal import SemanticAnalyzer
from mypy.typeanal import TypeAnalyser
from mypy.util import correct_relative_import

DTYPES = frozenset(
    {
        "AbstractDtype",
        "BFloat16",
        "Bool",
        "Complex",
        "Complex64",
        "Complex128",
        "Float",
        "Float4e2m1fn",
        "Float8e4m3b11fnuz",
        "Float8e4m3fn",
        "Float8e4m3fnuz",
        "Float8e5m2",
        "Float8e5m2fnuz",
        "Float16",
        "Float32",
        "Float64",
        "Inexact",
        "Int",
        "Int2",
        "Int4",
        "Int8",
        "Int16",
        "Int32",
        "Int64",
        "Integer",
        "Key",
        "Num",
        "Real",
        "Shaped",
        "UInt",
        "UInt2",
        "UInt4",
        "UInt8",
        "UInt16",
        "UInt32",
        "UInt64",
    }
)
"""jaxtyping's dtype classes: `Float[array, shape]` and its kin."""

STATIC = "tyr._static"
"""What mypy must load in a module annotated with jaxtyping: the types tyr writes sizes with."""


class Imports:
    """Which names of a module are jaxtyping's dtype classes, followed through re-exports (once per name)."""

    def __init__(self, module: Callable[[str], MypyFile | None]) -> None:
        self._module = module
        self._known: dict[tuple[str, str], str | None] = {}

    def clear(self) -> None:
        self._known.clear()

    def dtype_of(self, ctx: AnalyzeTypeContext) -> str | None:
        """The jaxtyping dtype class (`"Float"`) the annotation's name refers to, or None."""
        api = ctx.api
        if not (isinstance(api, TypeAnalyser) and isinstance(api.api, SemanticAnalyzer)):
            return None
        name = ctx.type.name
        head, _, last = name.rpartition(".")
        if last == "Annotated":
            return None
        if head:
            node = api.lookup_qualified(head, ctx.context, suppress_errors=True)
            return last if node is not None and _is_jaxtyping_module(node.node) and last in DTYPES else None
        return self._imported(api.api.cur_mod_node, name, 0)

    def dtype_named(self, module: MypyFile, name: str) -> str | None:
        """The same for a name written in `module` at its top level (`Bool`, `jt.Bool`)."""
        head, _, last = name.rpartition(".")
        if head:
            node = module.names.get(head)
            return last if node is not None and _is_jaxtyping_module(node.node) and last in DTYPES else None
        return self._imported(module, name, 0)

    def _imported(self, module: MypyFile, name: str, depth: int) -> str | None:
        key = (module.fullname, name)
        if key not in self._known:
            self._known[key] = None  # (an import cycle ends here)
            self._known[key] = self._find(module, name, depth)
        return self._known[key]

    def _find(self, module: MypyFile, name: str, depth: int) -> str | None:
        for imported in module.imports:
            if not isinstance(imported, (ImportFrom, ImportAll)):
                continue
            source, _ = correct_relative_import(
                module.fullname, imported.relative, imported.id, module.path.endswith("__init__.py")
            )
            if isinstance(imported, ImportAll):
                if _is_jaxtyping(source) and name in DTYPES:
                    return name
                continue
            for original, alias in imported.names:
                if (alias or original) != name:
                    continue
                if _is_jaxtyping(source):
                    return original if original in DTYPES else None
                other = self._module(source) if depth < 4 else None
                if other is not None:
                    return self._imported(other, original, depth + 1)
        return None


def imports_jaxtyping(file: MypyFile) -> bool:
    return _imports(file, _is_jaxtyping)


def imports_shapes(file: MypyFile) -> bool:
    """Whether a file imports what writes shapes: tyr or jaxtyping."""
    return imports_jaxtyping(file) or imports_tyr(file)


def imports_tyr(file: MypyFile) -> bool:
    return _imports(file, lambda module: module == "tyr" or module.startswith("tyr."))


def _imports(file: MypyFile, wanted: Callable[[str], bool]) -> bool:
    for imported in file.imports:
        if isinstance(imported, (ImportFrom, ImportAll)) and wanted(imported.id):
            return True
        if isinstance(imported, Import) and any(wanted(name) for name, _ in imported.ids):
            return True
    return False


def _is_jaxtyping_module(node: object) -> bool:
    return isinstance(node, MypyFile) and _is_jaxtyping(node.fullname)


def _is_jaxtyping(module: str) -> bool:
    return module == "jaxtyping" or module.startswith("jaxtyping.")
