"""tyr's mypy plugin: tensor shapes checked statically.

Enable it in `mypy.ini` (or `[tool.mypy]`)::

    [mypy]
    plugins = tyr.mypy_plugin
    allow_redefinition = True

together with tyr's torch stubs (`typed_stubs/torch-stubs`, installed with tyr as a
PEP 561 partial stub package), which make `torch.Tensor` and the sized `torch.nn`
modules generic.  This module only
dispatches on full names; each concern lives in its own module:

* `_annotations`: `Tensor[...]` and `Dim[...]` in annotations,
* `_types`: shapes and sizes as mypy types and back,
* `_calls`: calls to functions, methods and classes whose signatures have shapes,
* `_tensors`: `torch.Tensor` methods, operators and attributes,
* `_functions`: `torch.*` and `torch.nn.functional.*`,
* `_modules`: `torch.nn` modules, `nn.Sequential`, and `module(x)` routed to `forward`,
* `_dims`: arithmetic on `Dim`s,
* `_errors`: the error codes and messages.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mypy.nodes import MypyFile, PlaceholderNode, TypeAlias, TypeInfo, Var
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import (
    AnyType,
    FunctionLike,
    Instance,
    Type,
    TypeOfAny,
    TypeVarTupleType,
    UnionType,
    get_proper_type,
)

from tyr.mypy_plugin import (
    _annotations,
    _calls,
    _dims,
    _errors,
    _functions,
    _modules,
    _names,
    _plain,
    _tensors,
)
from tyr.mypy_plugin._types import is_shaped, mentions_shapes

# Callees from these packages never have shaped signatures (torch's are handled by name).
_NO_SHAPES = frozenset(sys.stdlib_module_names) | {"builtins", "typing_extensions", "mypy", "torch", "numpy", "_typeshed"}


def _source_digest() -> str:
    """A digest of the plugin's own code and the shape rules it applies.

    mypy's cache records it for every module, so cached results are thrown away when
    tyr's static checking changes (mypy only watches the plugin's entry module itself).
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([*root.glob("mypy_plugin/*.py"), *root.glob("shape_rules/*.py"), root / "_symbolic.py"]):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_TENSOR_ATTRIBUTES = frozenset({"shape", "T", "mT", "H", "mH", "data", "grad", "ndim"})


class TyrPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._infos: dict[str, TypeInfo] = {}
        self._pending = _calls.PendingCalls()
        self._tensor_classes: dict[str, bool] = {_names.TENSOR: True, _names.TENSOR_BASE: True}
        self._module_classes: dict[str, bool] = {}
        self._attributes: dict[str, str | None] = {}
        self._tensor_aliases: dict[str, bool] = {}

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        return _DIGEST

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        super().set_modules(modules)
        self._infos.clear()
        self._attributes.clear()
        self._tensor_aliases.clear()

    def lookup_info(self, fullname: str) -> TypeInfo | None:
        """A class of the current build by full name."""
        info = self._infos.get(fullname)
        if info is None:
            node = self.lookup_fully_qualified(fullname)
            if node is None or not isinstance(node.node, TypeInfo):
                return None
            info = self._infos[fullname] = node.node
        return info

    # -- annotations ----------------------------------------------------------------------------

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if self._is_tensor_alias(fullname):
            return _guarded(_annotations.analyze_tensor_alias, _analyzed, fullname=fullname, lookup=self.lookup_info, plugin=self)
        if fullname in (_names.TENSOR, _names.TENSOR_NAME):
            return _guarded(_annotations.analyze_tensor, _analyzed, lookup=self.lookup_info)
        if fullname == _names.DIM:
            return _guarded(_annotations.analyze_dim, _analyzed, lookup=self.lookup_info)
        return None

    # -- calls ----------------------------------------------------------------------------------

    def get_function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        if _top_level(fullname) in _NO_SHAPES:
            return None
        return _guarded(_calls.function_signature_hook, _signature, pending=self._pending, lookup=self.lookup_info)

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in _functions.FUNCTIONS:
            return _guarded(_functions.function_hook, _returned, fullname=fullname, lookup=self.lookup_info)
        if fullname in _modules.CONSTRUCTORS:
            return _guarded(_modules.constructor_hook, _returned, fullname=fullname, lookup=self.lookup_info)
        if _top_level(fullname) in _NO_SHAPES:
            return None
        return _guarded(_calls.call_hook, _returned, pending=self._pending, lookup=self.lookup_info)

    def get_method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        owner, _, method = fullname.rpartition(".")
        if method == "__call__" and self._is_module_class(owner):
            return _guarded(_modules.call_signature_hook, _signature, pending=self._pending, lookup=self.lookup_info)
        if fullname in _plain.CONTAINER_MUTATORS:
            return _guarded(_plain.container_mutation_hook, _signature, lookup=self.lookup_info)
        if _top_level(fullname) in _NO_SHAPES:
            return None
        return _guarded(_calls.method_signature_hook, _signature, pending=self._pending, lookup=self.lookup_info)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        owner, _, method = fullname.rpartition(".")
        if method == "__call__" and self._is_module_class(owner):
            return _guarded(_modules.call_hook, _returned, pending=self._pending, lookup=self.lookup_info)
        if self._is_tensor_class(owner):
            if method in _tensors.METHODS:
                return _guarded(_tensors.method_hook, _returned, method=method, lookup=self.lookup_info)
            return None
        if owner in (_names.INT, _names.DIM) and method in _dims.OPERATORS:
            return _guarded(_dims.arithmetic_hook, _returned, method=method, lookup=self.lookup_info)
        if _top_level(fullname) in _NO_SHAPES:
            return None
        return _guarded(_calls.call_hook, _returned, pending=self._pending, lookup=self.lookup_info)

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        owner, _, attribute = fullname.rpartition(".")
        if owner == _names.TENSOR_BASE and attribute in _TENSOR_ATTRIBUTES:
            return _guarded(_tensors.attribute_hook, _attribute, attribute=attribute, lookup=self.lookup_info)
        if owner in _tensors.RETURN_TYPES and attribute in ("values", "indices", "min", "max"):
            return _guarded(_tensors.named_field_hook, _attribute, index=0 if attribute in ("values", "min") else 1)
        handling = self._attribute_handling(owner, attribute)
        if handling == "unshaped":
            return _guarded(_calls.unshaped_attribute_hook, _attribute, lookup=self.lookup_info)
        if handling == "normalise":
            return _guarded(_calls.attribute_hook, _attribute, lookup=self.lookup_info)
        if handling == "assigned":
            return _guarded(_plain.assigned_attribute_hook, _attribute, lookup=self.lookup_info)
        return None

    def _attribute_handling(self, owner: str, attribute: str) -> str | None:
        """What a user class's attribute needs, if anything.

        * "unshaped": a tensor attribute whose type mypy inferred from an assignment
          (`self.cache = torch.zeros(2, 0, 8)`): its shape is unknown, since code
          reassigns such attributes with tensors of other shapes (annotate it,
          `self.cos: Tensor[L, D] = ...`, to keep a shape);
        * "normalise": a generic class's sized attribute (`Linear[D, 4*D]` of a
          `Block[D]`), whose sizes mypy substitutes from the instance;
        * "assigned": another attribute whose type mypy inferred with sizes in it
          (`self.stem = nn.Sequential(conv, norm)`): assigning it again takes any
          value torch's types allow (`_plain`).
        """
        key = f"{owner}.{attribute}"
        if key in self._attributes:
            return self._attributes[key]
        handling: str | None = None
        if _top_level(owner) not in _NO_SHAPES:
            info = self.lookup_info(owner)
            node = info.get(attribute) if info is not None else None
            var = node.node if node is not None else None
            if not isinstance(var, Var) or var.type is None:
                return None  # not analysed yet: decide later
            if var.is_inferred and not var.explicit_self_type and _holds_shaped_tensor(var.type):
                handling = "unshaped"
            elif info is not None and info.type_vars and mentions_shapes(var.type):
                handling = "normalise"
            elif var.is_inferred and not var.explicit_self_type and _plain.has_sizes(var.type):
                handling = "assigned"
        self._attributes[key] = handling
        return handling

    def _is_tensor_alias(self, fullname: str) -> bool:
        """Whether `fullname` is a generic type alias of a shaped tensor (`Hidden = Tensor[B, T, 768]`)."""
        known = self._tensor_aliases.get(fullname)
        if known is None:
            if _top_level(fullname) in _NO_SHAPES or fullname in (_names.TENSOR, _names.TENSOR_NAME, _names.DIM):
                known = False
            else:
                node = self.lookup_fully_qualified(fullname)
                alias = node.node if node is not None else None
                if not isinstance(alias, TypeAlias):
                    if alias is None or isinstance(alias, PlaceholderNode):
                        return False  # not defined yet: decide later
                    known = False
                else:
                    target = get_proper_type(alias.target)
                    known = (
                        isinstance(target, Instance)
                        and target.type.fullname == _names.TENSOR
                        and bool(alias.alias_tvars)
                        and not any(isinstance(v, TypeVarTupleType) for v in alias.alias_tvars)
                    )
            self._tensor_aliases[fullname] = known
        return known

    def _is_module_class(self, fullname: str) -> bool:
        known = self._module_classes.get(fullname)
        if known is None:
            info = self.lookup_info(fullname)
            known = info is not None and info.has_base(_names.MODULE)
            self._module_classes[fullname] = known
        return known

    def _is_tensor_class(self, fullname: str) -> bool:
        known = self._tensor_classes.get(fullname)
        if known is None:
            info = self.lookup_info(fullname)
            known = info is not None and info.has_base(_names.TENSOR_BASE)
            self._tensor_classes[fullname] = known
        return known


_DIGEST = _source_digest()

_Result = TypeVar("_Result")


def _guarded(hook: Callable[..., _Result], fallback: Callable[[Any], _Result], **bound: Any) -> Callable[[Any], _Result]:
    """`hook` with `bound` arguments; an internal error is reported (`tyr-internal`), not a crash of mypy."""

    def run(ctx: Any) -> _Result:
        try:
            return hook(ctx, **bound)
        except Exception as err:
            if os.environ.get("TYR_MYPY_PLUGIN_RAISE"):
                raise
            message = _errors.INTERNAL.format(error=f"{type(err).__name__}: {err}")
            ctx.api.fail(message, ctx.context, code=_errors.INTERNAL_CODE)
            return fallback(ctx)

    return run


def _analyzed(ctx: AnalyzeTypeContext) -> Type:
    return AnyType(TypeOfAny.from_error)


def _returned(ctx: FunctionContext | MethodContext) -> Type:
    return ctx.default_return_type


def _signature(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    return ctx.default_signature


def _attribute(ctx: AttributeContext) -> Type:
    return ctx.default_attr_type


def _holds_shaped_tensor(typ: Type) -> bool:
    """A tensor with a shape, possibly optional (`Tensor[2, 0, 8]`, `Tensor[3] | None`)."""
    t = get_proper_type(typ)
    items = t.items if isinstance(t, UnionType) else [t]
    return any(is_shaped(get_proper_type(item)) for item in items)


def _top_level(fullname: str) -> str:
    return fullname.partition(".")[0]


def plugin(version: str) -> type[Plugin]:
    return TyrPlugin
