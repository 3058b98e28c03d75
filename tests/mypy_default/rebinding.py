"""Rebinding tensor names under mypy's defaults (the plugin alone, no `allow_redefinition`).

Each read gives the shape last assigned; nothing here is an error.  Marks as in tests/mypy_corpus.
"""

from typing import TypeVar, reveal_type

from einops import pack
import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
N = TypeVar("N")


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(16, 32)
        self.blocks = nn.ModuleList([nn.Linear(32, 32) for _ in range(3)])
        self.head = nn.Linear(32, 4)

    def forward(self, x: Tensor[B, T, 16]) -> Tensor[B, T, 4]:
        """A parameter rebound to other shapes, at the top and in a loop."""
        x = self.fc(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[32]]"
        for block in self.blocks:
            x = block(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[32]]"
        return self.head(x)


def locals_(x: Tensor[B, 4, 8]) -> Tensor[B, 4, 8]:
    y = x.view(-1)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['32*B'], B]]"
    y = y.view(-1, 4, 8)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], Literal[8]]"
    z = x.sum((0, 1, 2))
    z = z.unsqueeze(0)
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[Literal[1]]"
    return y


def tuples(cls: Tensor[B, 512], patches: Tensor[B, N, 512]) -> None:
    x, ps = pack([cls, patches], "b * d")
    x = x.sum(-1)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['N + 1'], N]]"
    q, k = cls.chunk(2, -1)
    q = q.sum(-1)
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B]"


def branches(x: Tensor[B, 4, 8], layers: nn.ModuleList, flag: bool) -> None:
    """Where paths meet, the name has the shape a path gives, or what it shares with the others (here
    nothing: the ranks differ): never a stale shape that a later check fails on."""
    h = x.transpose(1, 2)
    if flag:
        h = h.reshape(-1)
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['32*B'], B]] | torch._tensor.Tensor[*tuple[Any, ...]]"
    alias = x
    if flag:
        alias = alias.flatten()
    reveal_type(alias)  # N: Revealed type is "Any"
    for layer in layers:
        x = layer(x)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]] | Any"


def union_parameter(x: torch.Tensor | dict[str, torch.Tensor], flag: bool) -> torch.Tensor:
    """A parameter that is a tensor or a dict, rebound in a branch: the paths that skip it keep a tensor."""
    if isinstance(x, dict):
        x = x["patches"]
    if flag:
        x = x.permute(0, 2, 1)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    x = 2 * (x - 0.5)
    return x


def unshaped_in_loop(x: torch.Tensor, blocks: nn.Sequential, last: int) -> torch.Tensor:
    """A name torch's types declare a plain tensor, rebound in a loop to an unknown value: the paths that
    skip the rebinding keep that type (as mypy's binder gives it), so the name is a tensor after the loop."""
    tap = x
    for i, block in enumerate(blocks):
        if i < last:
            tap = block(tap)
    reveal_type(tap)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    return tap


def copy_of_a_parameter(w: Tensor[B, B]) -> None:
    """`h = w` (no hook runs for a bare name), then `h` rebound to other shapes."""
    h = w
    h = torch.cat([h, h[..., :1]], dim=-1)
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['B + 1'], B]]"
    for _ in range(2):
        h = h[:, 1:]
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, Any]"


def pieces_unpacked_then_rebound(x: Tensor[B, N, T]) -> None:
    """`k, v = x.split(2, -1)` of a size that is a symbol (a tuple of any length), then rebound."""
    k, v = x.split(2, dim=-1)
    reveal_type(k)  # N: Revealed type is "torch._tensor.Tensor[B, N, Any]"
    k, v = map(lambda t: t.flatten(0, 1), (k, v))
    reveal_type(k)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*N'], B, N], Any]"


def rotate(v, theta):  # unannotated: its result is `Any`
    return torch.randn([theta.shape[0], 4, 4])


def rebound_to_any_through_an_operator(theta: torch.Tensor, images: Tensor[B, 3, 8], p: float) -> None:
    """`m = eye` (no hook), then `m = rotate(...) @ m`: the value is `Any` with no hook on it (the `@`
    of an `Any`), and where the paths meet `m` is unknown, not the identity's (4, 4) again."""
    eye = torch.eye(4)
    m = eye
    if p > 0:
        m = rotate(None, theta) @ m
    reveal_type(m)  # N: Revealed type is "Any"
    m[:, :3, :3] @ images
    n = eye
    if p > 0:
        n = -rotate(None, theta).float()[0]
    reveal_type(n)  # N: Revealed type is "Any"


def decode(idx: Tensor[B, T], steps: int) -> Tensor:
    """A local first assigned a name (`cur = idx`), later another name of another shape (`cur = idx_next`):
    no hook runs for either, and torch's types would take both."""
    cur = idx
    for _ in range(steps):
        probs = torch.softmax(cur.float(), dim=-1)
        idx_next = torch.multinomial(probs, num_samples=1)
        idx = torch.cat((idx, idx_next), dim=1)
        cur = idx_next
    return cur
