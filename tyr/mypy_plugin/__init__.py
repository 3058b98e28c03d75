"""tyr's mypy plugin: tensor shapes checked statically.

Enable it in `mypy.ini` (or `[tool.mypy]`)::

    [mypy]
    plugins = tyr.mypy_plugin

(shape-annotated models may add `allow_redefinition = True`: see the README).  It works
with tyr's torch stubs (`typed_stubs/torch-stubs`, installed with tyr as a PEP 561
partial stub package), which make `torch.Tensor` and the sized `torch.nn` modules
generic.  This module only dispatches on full names; each concern lives in its own module:

* `_annotations`: `Tensor[...]` and `Dim[...]` in annotations,
* `_jaxtyping`: jaxtyping's `Float[torch.Tensor, "b c"]` and its kin in annotations
  (`_jaxtyping_imports`: which names are jaxtyping's; `_jaxtyping_names`: the size
  variables a function's names stand for),
* `_types`: shapes and sizes as mypy types and back,
* `_calls`: calls to functions, methods and classes whose signatures have shapes,
* `_tensors`: `torch.Tensor` methods, operators and attributes,
* `_functions`: `torch.*` and `torch.nn.functional.*` (`_more_ops`: the less common ops;
  `_fft`, `_linalg`: `torch.fft.*` and `torch.linalg.*`, which tyr's stubs declare),
* `_modules`: `torch.nn` modules, `nn.Sequential`, and `module(x)` routed to `forward`,
* `_einops`: einops' functions and layers, for a literal pattern,
* `_dims`: arithmetic on `Dim`s,
* `_partial_calls`: `functools.partial` of a callee with sizes, called as the direct call,
* `_errors`: the error codes and messages.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from mypy.nodes import (
    Decorator,
    FuncBase,
    FuncDef,
    MypyFile,
    OverloadedFuncDef,
    PlaceholderNode,
    SymbolNode,
    TypeAlias,
    TypeInfo,
    Var,
)
from mypy.options import Options
from mypy.plugins.functools import partial_call_callback, partial_new_callback
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
    CallableType,
    FunctionLike,
    Instance,
    Type,
    TypeOfAny,
    TypeVarTupleType,
    get_proper_type,
)

from tyr.mypy_plugin import (
    _annotations,
    _buffers,
    _builtins,
    _calls,
    _context,
    _declared,
    _dim_defaults,
    _dims,
    _dtypes,
    _einops,
    _errors,
    _evaluation_order,
    _expected,
    _functions,
    _jaxtyping,
    _jaxtyping_imports,
    _jaxtyping_names,
    _module_sizes,
    _modules,
    _names,
    _partial_calls,
    _plain,
    _rebinding,
    _remainders,
    _renaming,
    _stated_facts,
    _tensors,
    _torch_signatures,
    _trials,
    _types,
)
from tyr._symbolic import SizeTooLarge
from tyr.mypy_plugin._args import NotKnown
from tyr.mypy_plugin._statements import assigned_again
from tyr.mypy_plugin._types import mentions_shapes

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


_MODULE_LIST_ITEMS = frozenset({f"{_names.MODULE_LIST}.__getitem__", f"{_names.MODULE_LIST}.pop"})

_TENSOR_ATTRIBUTES = frozenset({"shape", "T", "mT", "H", "mH", "data", "real", "imag", "grad", "ndim"})


class TyrPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._infos: dict[str, TypeInfo] = {}
        self._pending = _calls.PendingCalls()
        self._tensor_classes: dict[str, bool] = {_names.TENSOR: True, _names.TENSOR_BASE: True}
        self._module_classes: dict[str, bool] = {}
        self._attributes: dict[str, str | None] = {}
        self._sized_aliases: dict[str, bool] = {}
        self._sized_types: dict[int, tuple[Type, bool]] = {}  # `_type_has_sizes` by the identity of a callee's type
        self._assignments = _rebinding.Assignments()
        self._jaxtyping = _jaxtyping_imports.Imports(self._module)
        self._listing = _jaxtyping_names.Listing(on_pending=self._dispatch)
        # Each get_*_hook's answer by full name: mypy asks at every call site and every name in an
        # annotation, and most answers are None.
        self._hooks = {kind: _Decisions(partial(getattr(type(self), _getter(kind)), self)) for kind in _HOOK_KINDS}
        self._final = True  # cleared by a decision that must wait for mypy to analyse more
        self._dispatch(pending=False)

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        return _DIGEST

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        # Called once a module is parsed, before its names are bound: the one moment to rename.
        if not file.is_stub and _top_level(file.fullname) not in _NO_SHAPES:
            _evaluation_order.read_displays_first(file)
            if _jaxtyping_imports.imports_tyr(file):
                _dim_defaults.read_dim_defaults_as_any(file)
        if not (self.options.allow_redefinition or self.options.allow_redefinition_old):
            _renaming.rename_rebound_parameters(file)
        # A module annotated with jaxtyping gets sizes such as `n+1` (tyr's `DimExpr`) without importing tyr.
        return [(10, _jaxtyping_imports.STATIC, -1)] if _jaxtyping_imports.imports_jaxtyping(file) else []

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        super().set_modules(modules)
        self._infos.clear()
        self._attributes.clear()
        self._sized_aliases.clear()
        self._sized_types.clear()
        self._assignments.clear()
        _dtypes.HAS_WALRUS.clear()
        _REMAINDERS.clear()
        _rebinding.forget_code_with_shapes()
        _STATED_FACTS.clear()
        self._module_classes.clear()
        self._jaxtyping.clear()
        for hooks in self._hooks.values():
            hooks.clear()

    def lookup_info(self, fullname: str) -> TypeInfo | None:
        """A class of the current build by full name."""
        info = self._infos.get(fullname)
        if info is None:
            node = self.lookup_fully_qualified(fullname)
            if node is None or not isinstance(node.node, TypeInfo):
                return None
            info = self._infos[fullname] = node.node
        return info

    def _module(self, fullname: str) -> MypyFile | None:
        return self._modules.get(fullname) if self._modules is not None else None

    # -- dispatch -------------------------------------------------------------------------------

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        return self._cached("type_analyze", fullname, self._type_analyze_hook)

    def get_function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        return self._cached("function_signature", fullname, self._function_signature_hook)

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._cached("function", fullname, self._function_hook)

    def get_method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        return self._cached("method_signature", fullname, self._method_signature_hook)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._cached("method", fullname, self._method_hook)

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        return self._cached("attribute", fullname, self._attribute_hook)

    def _dispatch(self, pending: bool) -> None:
        """Where mypy's get_*_hook calls go: straight to the answers decided (a dict lookup in C, which
        sends a name not decided yet on to the method), or, while `_listing` waits for a sweep, to the
        methods, which run it first (`_cached`)."""
        for kind, hooks in self._hooks.items():
            if pending and kind != "type_analyze":
                vars(self).pop(_getter(kind), None)
            else:
                setattr(self, _getter(kind), hooks.__getitem__)

    def _cached(
        self, kind: str, fullname: str, decide: Callable[[str], Callable[[Any], Any] | None]
    ) -> Callable[[Any], Any] | None:
        """`decide(fullname)`, remembered unless it had to wait for mypy (it cleared `_final`)."""
        if self._listing.pending and kind != "type_analyze" and self._modules is not None:
            self._listing.sweep(self._modules)  # mypy is type checking: semantic analysis is over
        hooks = self._hooks[kind]
        if fullname in hooks:
            return hooks[fullname]
        self._final = True
        hook = decide(fullname)
        if self._final:
            hooks[fullname] = hook
        return hook

    def _later(self) -> None:
        """The decision being made depends on something mypy has not analysed yet: do not remember it."""
        self._final = False

    # -- annotations ----------------------------------------------------------------------------

    def _type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if self._is_sized_alias(fullname):
            return _guarded(_annotations.analyze_sized_alias, _analyzed, fullname=fullname, lookup=self.lookup_info, plugin=self)
        if fullname in (_names.TENSOR, _names.TENSOR_NAME):
            return _guarded(_annotations.analyze_tensor, _analyzed, lookup=self.lookup_info)
        if fullname in (_names.DIM, _names.DIM_NAME):
            return _guarded(_annotations.analyze_dim, _analyzed, lookup=self.lookup_info)
        sized = self._sized_class(fullname)
        if sized is not None:
            return _guarded(_annotations.analyze_sized_class, _analyzed, info=sized, lookup=self.lookup_info)
        if fullname in _jaxtyping.ANNOTATED:
            return _guarded(
                _jaxtyping.annotated_hook,
                _analyzed,
                fullname=fullname,
                lookup=self.lookup_info,
                imports=self._jaxtyping,
                listing=self._listing,
            )
        return None

    # -- calls ----------------------------------------------------------------------------------

    def _function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        if fullname in _einops.SIGNATURES:
            return _guarded(_einops.signature_hook, _signature)
        if fullname == _names.SEQUENTIAL:
            return _guarded(_plain.sequential_signature_hook, _signature, lookup=self.lookup_info)
        if fullname in _modules.CONSTRUCTORS:
            return _guarded(_modules.constructor_signature_hook, _signature)
        if fullname in _context.TENSOR_CLASSES:
            return _guarded(_context.without_union_any_context, _signature)
        if fullname in _context.CLASS_TAKERS:
            return _guarded(_context.without_any_context, _signature)
        if fullname in _torch_signatures.WIDENED:
            return _guarded(_torch_signatures.widened_signature, _signature, fullname=fullname)
        if _top_level(fullname) in _NO_SHAPES or not self._function_has_sizes(fullname):
            return self._context_hook(self._callee(fullname) if not fullname.startswith("<") else None)
        return _guarded(_calls.function_signature_hook, _signature, pending=self._pending, lookup=self.lookup_info)

    @staticmethod
    def _context_hook(callee: SymbolNode | None) -> Callable[[Any], FunctionLike] | None:
        """For a callee that returns a type variable of its own (`max`, `copy.copy`): no tensor context."""
        if isinstance(callee, Decorator):
            declared = callee.var.type
        elif isinstance(callee, (FuncDef, OverloadedFuncDef, Var)):
            declared = callee.type
        else:
            return None
        return _guarded(_context.without_tensor_context, _signature) if _context.returns_type_variable(declared) else None

    def _function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in _functions.FUNCTIONS:
            return self._settled(_guarded(_TORCH_FUNCTION_HOOK, _returned, fullname=fullname, lookup=self.lookup_info))
        if fullname in _einops.FUNCTIONS:
            unknown = partial(_einops.unknown, fullname=fullname, lookup=self.lookup_info)
            return self._settled(_guarded(_einops.function_hook, unknown, fullname=fullname, lookup=self.lookup_info))
        if fullname in _einops.CONSTRUCTORS:
            return self._declared(_guarded(_einops.constructor_hook, _returned, fullname=fullname, lookup=self.lookup_info))
        if fullname in _modules.CONSTRUCTORS:
            return self._declared(_guarded(_modules.constructor_hook, _returned, fullname=fullname, lookup=self.lookup_info))
        if fullname in _dims.MIN_MAX:  # (`k = max(n, 1)` then `k = 3`: declared as the `int` builtins give)
            return self._declared(_guarded(_dims.min_max_hook, _returned, fullname=fullname, lookup=self.lookup_info))
        if fullname == _partial_calls.PARTIAL:  # `partial(nn.Conv2d, padding=1)`: its call is the direct call
            hook = partial(_partial_calls.partial_hook, pending=self._pending, lookup=self.lookup_info, sized=_type_has_sizes)
            return _guarded(hook, partial_new_callback)
        if fullname == "builtins.sum":
            return self._settled(_guarded(_builtins.sum_hook, _returned))
        if fullname == _names.SEQUENTIAL:
            return self._declared(_guarded(_plain.sequential_hook, _returned))
        if fullname == _names.MODULE_LIST:
            hook = _guarded(_plain.module_list_hook, _returned, lookup=self.lookup_info, shaped_call=self._shaped_call)
            return self._declared(hook)
        if fullname in _calls.MAPPED:
            return _guarded(_calls.mapped_function_hook, _returned, lookup=self.lookup_info)
        if _top_level(fullname) == "torch":
            return self._unknown_result(self._callee(fullname))  # no shape rule: a tensor result is of unknown shape
        if _top_level(fullname) in _NO_SHAPES or fullname.startswith("<"):  # `<list>`: a display gives no tensor
            return None
        if not self._function_has_sizes(fullname):
            return self._unknown_result(self._callee(fullname))  # `x = helper(x)`: a tensor of unknown shape, rebinding `x`
        return self._settled(_guarded(_calls.call_hook, _returned, pending=self._pending, lookup=self.lookup_info))

    def _container_read(self) -> Callable[[MethodContext], Type]:
        """A read of a builtin container: settled (`_settled`) where the item holds a tensor, and only there
        (most reads are of other things, and pay one check)."""
        settled: Callable[[MethodContext], Type] = self._settled(_returned)

        def run(ctx: MethodContext) -> Type:
            return settled(ctx) if _rebinding.holds_tensor(ctx.default_return_type) else ctx.default_return_type

        return run

    def _declared(self, hook: Callable[[_Settled], Type]) -> Callable[[_Settled], Type]:
        """`hook`, then: a local first assigned its result, and assigned again, is declared as torch types
        the result (`_declared`)."""
        assignments, lookup = self._assignments, self.lookup_info

        def run(ctx: _Settled) -> Type:
            result = hook(ctx)
            try:
                return _declared.declare_value(ctx, result, assignments, lookup)
            except Exception as err:  # reported as `_guarded` does; the hook's result stands
                _internal_error(ctx, err)
                return result

        return run

    def _loop_index(self, ctx: MethodContext) -> Type:
        """`__next__` of a `for` loop's iterator: the item, which declares (`_declared`) or rebinds
        (`_rebinding`) the loop's index."""
        item = _declared.declare_loop_index(ctx, ctx.default_return_type, self._assignments, self.lookup_info)
        return _rebinding.settle_iteration(ctx, item, self._assignments)

    def _unknown_result(self, callee: SymbolNode | None) -> Callable[[Any], Type] | None:
        """A call without shape rule: its result rebinds a name (`_settled`), unless its declared type rules
        out a tensor (a function declared `-> int`, a module's constructor), when the call is mypy's alone."""
        return self._settled(_returned) if _rebinding.may_rebind(callee) else None

    def _settled(self, hook: Callable[[_Settled], Type]) -> Callable[[_Settled], Type]:
        """`hook`, then: a name rebound to its result forgets the shapes the result overlaps (`_rebinding`)."""
        assignments = self._assignments

        def run(ctx: _Settled) -> Type:
            # Known before the hook reports errors of its own (a shape error is no failed attempt).
            attempt = _trials.failed_attempt(ctx.api)
            result = hook(ctx)
            if attempt:
                return result
            try:
                return _rebinding.settle(ctx, result, assignments)
            except Exception as err:  # reported as `_guarded` does; the hook's result stands
                _internal_error(ctx, err)
                return result

        return run

    def _method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        owner, _, method = fullname.rpartition(".")
        call = self._module_call(owner) if method == "__call__" and self._is_module_class(owner) else "own"
        if call != "own":
            if call != "forward":
                return None  # torch's `(...) -> Any`, as without tyr
            return _guarded(_modules.call_signature_hook, _signature, pending=self._pending, lookup=self.lookup_info)
        if _plain.mutation_kind(self.lookup_info(owner) if " " not in owner else None, method, fullname) == "container":
            return _guarded(_plain.container_mutation_hook, _signature, lookup=self.lookup_info)
        if _top_level(fullname) in _NO_SHAPES or not self._method_has_sizes(owner, method):
            return self._context_hook(self._method(owner, method))
        return _guarded(_calls.method_signature_hook, _signature, pending=self._pending, lookup=self.lookup_info)

    def _method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        hook = self._named_method_hook(fullname)
        method = _tensors.unbound_method(fullname)
        if method is None:
            return hook
        # `amax of TensorBase`: `torch.Tensor.amax(x, dim=1)` where the class called on is a tensor class
        unbound = self._settled(_guarded(_UNBOUND_METHOD_HOOK, _returned, method=method, lookup=self.lookup_info))
        return partial(_unbound_or, unbound, hook)

    def _named_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        owner, _, method = fullname.rpartition(".")
        if fullname == _partial_calls.PARTIAL_CALL:
            return _guarded(_partial_calls.call_hook, partial_call_callback)
        if method == "register_buffer" and self._is_module_class(owner):  # `self.register_buffer("pe", pe)`, `pe: Tensor[T, D]`
            return _guarded(_buffers.register_buffer_hook, _returned, lookup=self.lookup_info)
        if method == "__next__":  # `for t in ts`: the item rebinds the loop's index
            return _guarded(self._loop_index, _returned)
        if fullname in _MODULE_LIST_ITEMS:  # `block = self.blocks[0]`
            return self._declared(_returned)
        if fullname in _rebinding.CONTAINER_READS:  # `x = outs[-1]`: a tensor item rebinds `x`
            return self._container_read()
        call = self._module_call(owner) if method == "__call__" and self._is_module_class(owner) else "own"
        if method == "forward" and self._is_module_class(owner) and self._module_call(owner) == "rule":
            call = "rule"  # `self.proj.forward(x)`: a torch module's rule, as for `self.proj(x)`
        if call != "own":
            tensor = self._forward_returns_tensor(owner)
            if call is None:  # torch's `Any` (in code with shapes, forward's `Tensor`): `x = layer(x)` rebinds `x`
                return self._settled(partial(_modules.declared_forward_result, returns_tensor=tensor, lookup=self.lookup_info))
            hook = _guarded(_modules.call_hook, _returned, returns_tensor=tensor, pending=self._pending, lookup=self.lookup_info)
            return self._settled(hook)
        if self._is_tensor_class(owner):
            if method in _tensors.METHODS:
                return self._settled(_guarded(_TENSOR_METHOD_HOOK, _returned, method=method, lookup=self.lookup_info))
            return self._unknown_result(self._method(owner, method))  # no shape rule: a tensor result is of unknown shape
        if fullname in _tensors.SCALAR_COMPARISONS:
            return _guarded(_tensors.scalar_comparison_hook, _returned, lookup=self.lookup_info)
        if fullname in _dims.FLOAT_POWERS:
            hook = partial(_dims.float_power_hook, assignments=self._assignments)
            return _guarded(hook, _returned, method=method, lookup=self.lookup_info)
        if owner in (_names.INT, _names.DIM) and method in _dims.OPERATORS:
            hook = self._settled(_guarded(_dims.arithmetic_hook, _returned, method=method, lookup=self.lookup_info))
            return partial(_on_size, hook)
        mutation = _plain.mutation_kind(self.lookup_info(owner) if " " not in owner else None, method, fullname)
        if mutation is not None:
            hook = partial(_plain.mutation_hook, assignments=self._assignments)
            return _guarded(hook, _returned, kind=mutation, method=method, lookup=self.lookup_info)
        if _top_level(fullname) in _NO_SHAPES:
            return None
        if not self._method_has_sizes(owner, method):
            return self._unknown_result(self._method(owner, method))
        return self._settled(_guarded(_calls.call_hook, _returned, pending=self._pending, lookup=self.lookup_info))

    # -- which callees can involve sizes --------------------------------------------------------

    def _function_has_sizes(self, fullname: str) -> bool:
        """Whether a function (or a class, called) has sizes in its signature; only those need tyr's call hooks.

        Any other call is mypy's alone: its result cannot hold a size tyr would have to
        bind or put in normal form.  mypy also asks about list, dict and set displays and
        comprehensions (`<list>`), which never need tyr, and callees it knows by a short
        name only (a local function, `__init__ of Block`), which keep the hooks.
        """
        if fullname.startswith("<"):
            return False
        return self._callee_has_sizes(self._callee(fullname))

    def _method_has_sizes(self, owner: str, method: str) -> bool:
        return self._callee_has_sizes(self._method(owner, method))

    def _callee(self, fullname: str) -> SymbolNode | None:
        """What a call's full name names; None for a name mypy gives only locally (`__init__ of Block`)."""
        symbol = self.lookup_fully_qualified(fullname) if "." in fullname and " " not in fullname else None
        return symbol.node if symbol is not None else None

    def _method(self, owner: str, method: str) -> SymbolNode | None:
        info = self.lookup_info(owner) if owner and " " not in owner else None
        symbol = info.get(method) if info is not None else None
        return symbol.node if symbol is not None else None

    def _callee_has_sizes(self, node: SymbolNode | None) -> bool:
        if isinstance(node, (FuncDef, OverloadedFuncDef)):
            return node.type is not None and self._cached_type_has_sizes(node.type)
        if isinstance(node, Decorator):
            decorated = node.var.type or node.func.type
            return decorated is not None and self._cached_type_has_sizes(decorated)
        if isinstance(node, TypeInfo):
            if node.type_vars:
                return True  # a generic class: its type arguments may be sizes
            constructors = [node.get(name) for name in ("__init__", "__new__")]
            return any(self._callee_has_sizes(sym.node) for sym in constructors if sym is not None)
        if isinstance(node, Var) and node.type is not None:
            return self._cached_type_has_sizes(node.type)
        if isinstance(node, (Var, PlaceholderNode)):
            self._later()  # not analysed yet: hooks, this time
        return True

    def _cached_type_has_sizes(self, t: Type) -> bool:
        """`_type_has_sizes(t)`, once per type: a callee's signature hook and its call hook both ask, and
        so do the constructors of every class that inherits them."""
        known = self._sized_types.get(id(t))
        if known is None or known[0] is not t:
            known = self._sized_types[id(t)] = (t, _type_has_sizes(t))
        return known[1]

    def _shaped_call(self, module: Instance) -> bool:
        """Whether calling this module can give a shape (a torch module's rule, a user's forward with shapes)."""
        return self._is_module_class(module.type.fullname) and self._module_call(module.type.fullname) in ("rule", "forward")

    def _module_call(self, owner: str) -> str | None:
        """How tyr handles `module(...)` for a module class: "rule" (a torch module's shape rule or
        nn.Sequential's chain), "forward" (a user's forward with shapes), "own" (the class defines
        `__call__`: an ordinary method), or None (torch's `(...) -> Any`)."""
        info = self.lookup_info(owner)
        if info is None:
            self._later()
            return None
        call = info.get("__call__")
        if call is not None and isinstance(call.node, FuncBase | Decorator) and call.node.info.fullname != _names.MODULE:
            return "own"
        kind = _modules.call_kind(info)
        if kind != "forward":
            return kind
        forward = info.get("forward")
        return kind if forward is not None and self._callee_has_sizes(forward.node) else None

    def _forward_returns_tensor(self, owner: str) -> bool:
        """Whether a module class's `forward` is declared to return a torch `Tensor` (an overloaded or
        untyped one is not)."""
        info = self.lookup_info(owner)
        found = info.get("forward") if info is not None else None
        node = found.node if found is not None else None
        declared = node.var.type if isinstance(node, Decorator) else node.type if isinstance(node, FuncDef) else None
        result = get_proper_type(declared.ret_type) if isinstance(declared, CallableType) else None
        return isinstance(result, Instance) and result.type.fullname == _names.TENSOR

    # -- attributes -----------------------------------------------------------------------------

    def _attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        owner, _, attribute = fullname.rpartition(".")
        if owner == _names.TENSOR_BASE and attribute in _TENSOR_ATTRIBUTES:
            hook = _guarded(_tensors.attribute_hook, _attribute, attribute=attribute, lookup=self.lookup_info)
            return self._settled(hook)  # `x = x.mT`
        fields = _tensors.NAMED_FIELDS.get(owner, ())
        if attribute in fields:
            hook = _guarded(_tensors.named_field_hook, _attribute, index=fields.index(attribute))
            return self._settled(hook)  # `x = x.max(dim=1).values`
        if fullname in _module_sizes.SIZE_ATTRIBUTES:  # `n = fc.in_features`
            hook = _guarded(_module_sizes.size_attribute_hook, _attribute, fullname=fullname, lookup=self.lookup_info)
            return self._settled(hook)
        if owner == _names.MODULE and self._is_submodule_name(attribute):  # `seq.proj = nn.Conv2d(8, 4, 1)`
            return _guarded(_plain.new_submodule_hook, _attribute, lookup=self.lookup_info, assignments=self._assignments)
        handling = self._attribute_handling(owner, attribute)
        if handling == "unshaped":
            return _guarded(_calls.unshaped_attribute_hook, _attribute, lookup=self.lookup_info)
        if handling == "normalise":
            return _guarded(_calls.attribute_hook, _attribute, lookup=self.lookup_info)
        if handling in ("assigned", "reassigned"):
            hook = _guarded(
                _plain.assigned_attribute_hook,
                _attribute,
                lookup=self.lookup_info,
                assignments=self._assignments,
                reassigned=handling == "reassigned",
            )
            return self._declared(hook)
        if handling == "one call's names":
            return _guarded(_jaxtyping_names.attribute_hook, _attribute, lookup=self.lookup_info)
        return None

    def _is_submodule_name(self, attribute: str) -> bool:
        """Whether `Module.<attribute>` is no attribute torch declares: a submodule (or parameter) that
        `Module.__getattr__` finds, and assigning it registers one."""
        info = self.lookup_info(_names.MODULE)
        return info is not None and info.get(attribute) is None

    def _attribute_handling(self, owner: str, attribute: str) -> str | None:
        """What a user class's attribute needs, if anything.

        * "unshaped": a tensor or size attribute (`Dim`, `Literal[4]`) whose type mypy inferred from an
          assignment, when the class assigns it in more than one place (a cache
          that grows, `self.in_planes = width` and later `= planes * 4`), or when
          it holds an empty tensor (`self.cache = torch.tensor([])`, a placeholder
          that other code replaces): its shape or size is unknown (annotate it, `self.cos: Tensor[L, D] = ...`, to keep
          one).  Assigned once (`self.cls = nn.Parameter(torch.zeros(1, 1, d))`),
          it keeps what it was assigned;
        * "normalise": a generic class's sized attribute (`Linear[D, 4*D]` of a
          `Block[D]`), whose sizes mypy substitutes from the instance;
        * "one call's names": an attribute whose type mypy inferred from a value
          with jaxtyping's names (`self.means = means` in `__init__`): they are
          unknown outside that call (`_jaxtyping_names`);
        * "assigned": another attribute whose type mypy inferred with sizes in it
          (`self.stem = nn.Sequential(conv, norm)`): assigning it again takes any
          value torch's types allow (`_plain`);
        * "reassigned": such an attribute that the class assigns in more than one
          place (`self.fc = nn.Linear(c, c)`, then `nn.Linear(c, 2 * c)` in a branch):
          its sizes are unknown, as a tensor attribute's shape is.
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
                if isinstance(var, (Var, PlaceholderNode)):
                    self._later()
                    return None  # not analysed yet: decide later
                self._attributes[key] = None
                return None  # a method or property, or an attribute mypy finds elsewhere (__getattr__)
            assert info is not None
            assigned = var.is_inferred and not var.explicit_self_type
            shapes = (var.is_inferred or bool(info.type_vars)) and mentions_shapes(var.type)
            # `self.n = x.size(1)`: mypy infers no `Literal` for an attribute from a plain `int`
            size = var.is_inferred and _types.is_int_literal(var.type)
            # (`assigned_again` walks the class's methods: asked only where it decides)
            if assigned and (shapes or size) and (_types.holds_empty_tensor(var.type) or assigned_again(info, attribute)):
                handling = "unshaped"
            elif var.is_inferred and shapes and _jaxtyping_names.mentions_names(var.type):
                handling = "one call's names"
            elif info.type_vars and shapes:
                handling = "normalise"
            elif assigned and _plain.has_sizes(var.type):
                handling = "reassigned" if assigned_again(info, attribute) else "assigned"
        self._attributes[key] = handling
        return handling

    def _is_sized_alias(self, fullname: str) -> bool:
        """Whether `fullname` is a generic type alias that tyr applies: one of a shaped tensor
        (`Hidden = Tensor[B, T, 768]`) or of something that holds one (`State = tuple[Tensor[B, D],
        Tensor[B, D]]`), whose arguments may be sizes (`State[B, "T+1"]`, which mypy would read as
        a type) and whose parameters include those only a size string names."""
        known = self._sized_aliases.get(fullname)
        if known is None:
            if _top_level(fullname) in _NO_SHAPES or fullname in (_names.TENSOR, _names.TENSOR_NAME, _names.DIM, _names.DIM_NAME):
                known = False
            else:
                node = self.lookup_fully_qualified(fullname)
                alias = node.node if node is not None else None
                if not isinstance(alias, TypeAlias):
                    if alias is None or isinstance(alias, PlaceholderNode):
                        self._later()
                        return False  # not defined yet: decide later
                    known = False
                else:
                    known = _annotations.holds_a_tensor(alias.target)
                    if known:
                        params = _annotations.alias_parameters(alias)
                        known = bool(params) and not any(isinstance(v, TypeVarTupleType) for v in params)
            self._sized_aliases[fullname] = known
        return known

    def _sized_class(self, fullname: str) -> TypeInfo | None:
        """A generic class whose arguments may be sizes (`nn.Linear[784, 256]`, a user's `Block[768]`):
        torch's generic modules, and any generic class of the user's."""
        top = _top_level(fullname)
        if top in _NO_SHAPES and top != "torch":
            return None
        node = self.lookup_fully_qualified(fullname)
        info = node.node if node is not None else None
        if not isinstance(info, TypeInfo):
            if info is None or isinstance(info, PlaceholderNode):
                self._later()
            return None
        if not info.type_vars or fullname in (_names.TENSOR, _names.TENSOR_NAME) or top == "torch" and not self._is_module_class(fullname):
            return None
        return info

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
_REMAINDERS = _remainders.Remainders()
_STATED_FACTS = _stated_facts.StatedFacts()

# torch's functions and tensor methods through their shape rules; an unknown shape is torch's own result.
_TORCH_FUNCTION_HOOK = _plain.torch_when_unknown(_functions.function_hook)
_TENSOR_METHOD_HOOK = _plain.torch_when_unknown(_tensors.method_hook)
_UNBOUND_METHOD_HOOK = _plain.torch_when_unknown(_tensors.unbound_method_hook)

_HOOK_KINDS = ("type_analyze", "function_signature", "function", "method_signature", "method", "attribute")


def _getter(kind: str) -> str:
    return f"get_{kind}_hook"


class _Decisions(dict[str, Callable[[Any], Any] | None]):
    """One get_*_hook's answers by full name; a name not decided yet goes to the method (`__missing__`)."""

    def __init__(self, method: Callable[[str], Callable[[Any], Any] | None]) -> None:
        super().__init__()
        self._method = method

    def __missing__(self, fullname: str) -> Callable[[Any], Any] | None:
        return self._method(fullname)


def _unbound_or(
    unbound: Callable[[MethodContext], Type], other: Callable[[MethodContext], Type] | None, ctx: MethodContext
) -> Type:
    """`unbound` for a method called on a tensor class; for a class of another name's, what its name decided."""
    if _tensors.is_tensor_class_object(ctx.type):
        return unbound(ctx)
    return other(ctx) if other is not None else ctx.default_return_type


def _on_size(hook: Callable[[MethodContext], Type], ctx: MethodContext) -> Type:
    """`hook` for an operator called on a size; mypy's own type for the arithmetic of plain ints."""
    return hook(ctx) if _dims.on_size(ctx) else ctx.default_return_type


def _type_has_sizes(t: Type) -> bool:
    """Whether a callee's type has a size anywhere in its parameters or result (`Tensor[B, 3]`, `Linear[D, D]`, `Dim`)."""
    p = get_proper_type(t)
    if isinstance(p, FunctionLike):
        return any(
            any(_plain.has_sizes(a) or mentions_shapes(a) for a in item.arg_types)
            or _plain.has_sizes(item.ret_type)
            or mentions_shapes(item.ret_type)
            for item in p.items
        )
    return _plain.has_sizes(p) or mentions_shapes(p)

_Result = TypeVar("_Result")
_Context = TypeVar("_Context", FunctionContext, MethodContext)
_Settled = TypeVar("_Settled", FunctionContext, MethodContext, AttributeContext)


def _guarded(hook: Callable[..., _Result], fallback: Callable[[Any], _Result], **bound: Any) -> Callable[[Any], _Result]:
    """`hook` with `bound` arguments; an internal error is reported (`tyr-internal`), not a crash of mypy.
    A type it gives for a value writes its sizes with what the function's signature says of them
    (`_stated_facts`), has no size that divides what the code tests the remainder of
    (`_remainders`), and writes a size as the type expected of it does where they are the same (`_expected`)."""
    lookup = bound.get("lookup") if fallback is _returned or fallback is _attribute else None

    def run(ctx: Any) -> _Result:
        try:
            result = hook(ctx, **bound)
        except (NotKnown, SizeTooLarge):  # a value a rule needed is not known statically, or a size past writing: unknown
            return fallback(ctx)
        except Exception as err:
            _internal_error(ctx, err)
            return fallback(ctx)
        if lookup is None or not isinstance(result, Type):
            return result
        try:
            written = result
            if _remainders.divides(written):  # (most results: no size divides)
                written = _REMAINDERS.inexact(ctx.api, _STATED_FACTS.restated(ctx.api, written, lookup), lookup)
            return _expected.as_expected(ctx.api, written, lookup)
        except SizeTooLarge:
            return result
        except Exception as err:
            _internal_error(ctx, err)
            return result

    return run


def _internal_error(ctx: Any, err: Exception) -> None:
    """Report an error inside tyr's hooks on the call's line (`tyr-internal`), or raise it when asked to."""
    if os.environ.get("TYR_MYPY_PLUGIN_RAISE"):
        raise err
    ctx.api.fail(_errors.INTERNAL.format(error=f"{type(err).__name__}: {err}"), ctx.context, code=_errors.INTERNAL_CODE)


def _analyzed(ctx: AnalyzeTypeContext) -> Type:
    return AnyType(TypeOfAny.from_error)


def _returned(ctx: FunctionContext | MethodContext) -> Type:
    return ctx.default_return_type


def _signature(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    return ctx.default_signature


def _attribute(ctx: AttributeContext) -> Type:
    return ctx.default_attr_type


def _top_level(fullname: str) -> str:
    return fullname.partition(".")[0]


def plugin(version: str) -> type[Plugin]:
    return TyrPlugin
