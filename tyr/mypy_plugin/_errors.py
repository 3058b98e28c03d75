"""tyr's error codes and the messages the plugin reports.

Every shape error carries the `tyr-shape` code, so a project can silence or
ignore it like any mypy code (`# type: ignore[tyr-shape]`,
`disable_error_code = tyr-shape`); malformed annotations carry `tyr-annotation`.
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode

SHAPE = ErrorCode("tyr-shape", "Tensor shapes or sizes that provably do not fit", "tyr")
ANNOTATION = ErrorCode("tyr-annotation", "A shape annotation tyr cannot read", "tyr")
INTERNAL_CODE = ErrorCode("tyr-internal", "A bug in tyr's mypy plugin (please report it)", "tyr")

INTERNAL = "tyr: internal error in the shape checker ({error}); this is a bug in tyr, please report it"

# -- annotations ----------------------------------------------------------------------------------

BAD_DIM = 'Invalid dimension {arg} in "{type}": expected an int literal, a TypeVar, a string expression such as "D//4", or *Batch'
BAD_DIM_STRING = 'Invalid dimension "{text}" in "{type}": {why}'
DIM_NOT_TYPEVAR = 'Name "{name}" in dimension "{text}" is not a TypeVar in scope'
NEGATIVE_DIM = 'Invalid dimension {value} in "{type}": sizes are not negative'
BAD_JAXTYPING = 'Invalid jaxtyping shape "{text}": {why}'
TWO_VARIADICS = 'At most one *TypeVarTuple may appear in "{type}"'
DIM_ARGS = '"Dim" takes exactly one size: Dim[768], Dim[D] or Dim["4*D"]'
STUBS_MISSING = (
    "tyr: torch.Tensor is not generic here, so shapes cannot be checked: mypy does not see tyr's torch "
    "stubs (install tyr, which puts them in site-packages as torch-stubs; in tyr's repository run "
    "scripts/setup.sh, or run mypy without file arguments)"
)

PARAMETER_REBOUND = (
    'tyr: parameter "{name}" keeps its annotated shape when rebound; '
    "`allow_redefinition = True` in the mypy config lets it take the new one"
)

# -- calls ----------------------------------------------------------------------------------------

BOUND_TWICE = 'Dimension {dim} of "{callee}": bound to {first} by {first_where}, but {second_where} has {second}'
SIZE_MISMATCH = 'Dimension {pos} of {where} to "{callee}": expected {expected}, got {actual}'
VALUE_MISMATCH = '{where} to "{callee}": expected the size {expected}, got {actual}'
RANK_MISMATCH = '{where} to "{callee}" has {actual_rank} dimensions {actual}, but {expected_rank} are expected {expected}'
