"""Fully qualified names the plugin dispatches on."""

TENSOR = "torch._tensor.Tensor"
TENSOR_NAME = "tyr._static.Tensor"  # what `from tyr import Tensor` names for mypy; read as TENSOR
TENSOR_BASE = "torch._C.TensorBase"
SIZE = "torch._C.Size"
DIM = "tyr._static.Dim"
DIM_NAME = "tyr._static.DimName"  # what `from tyr import Dim` names for mypy; read as DIM
DIM_EXPR = "tyr._static.DimExpr"
MODULE = "torch.nn.modules.module.Module"
SEQUENTIAL = "torch.nn.modules.container.Sequential"
MODULE_LIST = "torch.nn.modules.container.ModuleList"

INT = "builtins.int"
BOOL = "builtins.bool"
FLOAT = "builtins.float"
STR = "builtins.str"
TUPLE = "builtins.tuple"
LIST = "builtins.list"
OBJECT = "builtins.object"
OBJECT_NEW = "builtins.object.__new__"
