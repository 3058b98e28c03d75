"""`""` is a scalar tensor; annotations outside a function have unknown names but keep their fixed sizes."""

from dataclasses import dataclass
from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@dataclass
class Camera:
    intrinsics: Float[Tensor, "3 3"]
    poses: Float[Tensor, "n 4 4"]


@jaxtyped(typechecker=beartype)
def norm(x: Float[Tensor, "d"]) -> Float[Tensor, ""]:
    return x.norm()


camera = Camera(torch.eye(3), torch.eye(4).expand(5, 4, 4))
reveal_type(camera.poses)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[4], Literal[4]]"
reveal_type(norm(camera.intrinsics[0]))  # N: Revealed type is "torch._tensor.Tensor[()]"
Camera(torch.eye(4), camera.poses)  # E: Dimension 0 of argument "intrinsics" to "Camera": expected 3, got 4  # E: Dimension 1 of argument "intrinsics"
