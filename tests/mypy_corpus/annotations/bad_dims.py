"""Annotations tyr cannot read are errors of their own code, tyr-annotation."""

from typing import TypeVar

from tyr import Tensor

D = TypeVar("D")


def negative(x: Tensor[-1]) -> None: ...  # E: Invalid dimension -1 in "Tensor": sizes are not negative  [tyr-annotation]
def syntax(x: Tensor["D+"]) -> None: ...  # E: Invalid dimension "D+" in "Tensor": cannot parse dimension  [tyr-annotation]
def not_a_size(x: Tensor[float]) -> None: ...  # E: Invalid dimension "float" in "Tensor"  [tyr-annotation]
def division(x: Tensor["D/2"]) -> None: ...  # E: may only use names, int literals, + - * // and parentheses  [tyr-annotation]
