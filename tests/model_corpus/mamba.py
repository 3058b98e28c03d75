"""A small Mamba LM (mamba_simple style): in_proj to 2*d_inner, depthwise causal conv1d, x_proj to
dt_rank + 2*d_state, dt_proj + softplus, A = -exp(A_log), a plain-torch selective scan, SiLU gating,
out_proj; stacked with RMSNorm into an LM with tied embeddings.
"""

from __future__ import annotations

import math
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import nn

from tyr import Dim, Tensor, checked

Bt = TypeVar("Bt")  # batch
L = TypeVar("L")  # sequence length
D = TypeVar("D")  # d_model
E = TypeVar("E")  # d_inner (channels of the scan)
N = TypeVar("N")  # d_state
R = TypeVar("R")  # dt_rank
X = TypeVar("X")  # expand factor
K = TypeVar("K")  # d_conv
V = TypeVar("V")  # vocab


def selective_scan_ref(
    u: Tensor[Bt, E, L],
    delta: Tensor[Bt, E, L],
    A: Tensor[E, N],
    B: Tensor[Bt, N, L],
    C: Tensor[Bt, N, L],
    D: Tensor[E],
    z: Tensor[Bt, E, L],
    delta_bias: Tensor[E],
) -> Tensor[Bt, E, L]:
    """mamba_ssm.ops.selective_scan_interface.selective_scan_ref, delta_softplus=True."""
    delta = F.softplus(delta + delta_bias[..., None])
    batch, dim, dstate = u.shape[0], A.shape[0], A.shape[1]
    x = A.new_zeros((batch, dim, dstate))
    ys = []
    deltaA = torch.exp(torch.einsum("bdl,dn->bdln", delta, A))
    deltaB_u = torch.einsum("bdl,bnl,bdl->bdln", delta, B, u)
    for i in range(u.shape[2]):
        x = deltaA[:, :, i] * x + deltaB_u[:, :, i]
        y = torch.einsum("bdn,bn->bd", x, C[:, :, i])
        ys.append(y)
    y = torch.stack(ys, dim=2)  # (batch dim L)
    out = y + u * rearrange(D, "d -> d 1")
    out = out * F.silu(z)
    return out


def selective_scan_loop(
    u: Tensor[Bt, L, E],
    delta: Tensor[Bt, L, E],
    A: Tensor[E, N],
    B: Tensor[Bt, L, N],
    C: Tensor[Bt, L, N],
    D: Tensor[E],
) -> Tensor[Bt, L, E]:
    """mamba-minimal's selective_scan: (b, l, d_in) layout, discretise then loop over L."""
    b, l, d_in = u.shape
    n = A.shape[1]
    deltaA = torch.exp(torch.einsum("b l d, d n -> b l d n", delta, A))
    deltaB_u = torch.einsum("b l d, b l n, b l d -> b l d n", delta, B, u)
    x = torch.zeros((b, d_in, n), device=deltaA.device)
    ys = []
    for i in range(l):
        x = deltaA[:, i] * x + deltaB_u[:, i]
        y = torch.einsum("b d n, b n -> b d", x, C[:, i, :])
        ys.append(y)
    y = torch.stack(ys, dim=1)  # (b, l, d_in)
    y = y + u * D
    return y


@checked
class Mamba(nn.Module, Generic[D, N, X, R, K]):
    def __init__(self, d_model: Dim[D], d_state: Dim[N], expand: Dim[X], dt_rank: Dim[R], d_conv: Dim[K]) -> None:
        super().__init__()
        self.d_model = d_model
        self.d_state = d_state
        self.d_conv = d_conv
        self.d_inner = expand * d_model
        self.dt_rank = dt_rank

        self.in_proj = nn.Linear(self.d_model, self.d_inner * 2, bias=False)
        self.conv1d = nn.Conv1d(
            in_channels=self.d_inner,
            out_channels=self.d_inner,
            bias=True,
            kernel_size=d_conv,
            groups=self.d_inner,
            padding=d_conv - 1,
        )
        self.act = nn.SiLU()
        self.x_proj = nn.Linear(self.d_inner, self.dt_rank + self.d_state * 2, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, self.d_inner, bias=True)

        # dt bias: inverse of softplus of dt sampled in [dt_min, dt_max]
        dt = torch.exp(torch.rand(self.d_inner) * (math.log(0.1) - math.log(0.001)) + math.log(0.001)).clamp(min=1e-4)
        inv_dt = dt + torch.log(-torch.expm1(-dt))
        with torch.no_grad():
            self.dt_proj.bias.copy_(inv_dt)

        # S4D real initialization
        A = repeat(torch.arange(1, self.d_state + 1, dtype=torch.float32), "n -> d n", d=self.d_inner).contiguous()
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.d_inner))
        self.out_proj = nn.Linear(self.d_inner, self.d_model, bias=False)

    def forward(self, hidden_states: Tensor[Bt, L, D]) -> Tensor[Bt, L, D]:
        batch, seqlen, dim = hidden_states.shape
        # the reference does the in_proj as one matmul in (d, b*l) layout
        xz = rearrange(
            self.in_proj.weight @ rearrange(hidden_states, "b l d -> d (b l)"),
            "d (b l) -> b d l",
            l=seqlen,
        )
        A = -torch.exp(self.A_log.float())  # (d_inner, d_state)

        x, z = xz.chunk(2, dim=1)
        x = self.act(self.conv1d(x)[..., :seqlen])

        x_dbl = self.x_proj(rearrange(x, "b d l -> (b l) d"))  # (bl d)
        dt, B, C = torch.split(x_dbl, [self.dt_rank, self.d_state, self.d_state], dim=-1)
        dt = self.dt_proj.weight @ dt.t()
        dt = rearrange(dt, "d (b l) -> b d l", l=seqlen)
        B = rearrange(B, "(b l) dstate -> b dstate l", l=seqlen).contiguous()
        C = rearrange(C, "(b l) dstate -> b dstate l", l=seqlen).contiguous()
        y = selective_scan_ref(x, dt, A, B, C, self.D.float(), z, self.dt_proj.bias.float())
        y = rearrange(y, "b d l -> b l d")
        out = self.out_proj(y)
        return out

    def step(
        self, hidden_states: Tensor[Bt, 1, D], conv_state: Tensor[Bt, "X*D", K], ssm_state: Tensor[Bt, "X*D", N]
    ) -> tuple[Tensor[Bt, 1, D], Tensor[Bt, "X*D", K], Tensor[Bt, "X*D", N]]:
        """mamba_simple.Mamba.step: one token, conv_state and ssm_state updated in place."""
        dtype = hidden_states.dtype
        xz = self.in_proj(hidden_states.squeeze(1))  # (B 2D)
        x, z = xz.chunk(2, dim=-1)  # (B D)
        # Conv step
        conv_state.copy_(torch.roll(conv_state, shifts=-1, dims=-1))  # Update state (B D W)
        conv_state[:, :, -1] = x
        w = rearrange(self.conv1d.weight, "d 1 w -> d w")
        x = torch.sum(conv_state * w, dim=-1)  # (B D)
        if self.conv1d.bias is not None:
            x = x + self.conv1d.bias
        x = self.act(x).to(dtype=dtype)

        x_db = self.x_proj(x)  # (B dt_rank+2*d_state)
        dt, B, C = torch.split(x_db, [self.dt_rank, self.d_state, self.d_state], dim=-1)
        # Don't add dt_bias here
        dt = F.linear(dt, self.dt_proj.weight)  # (B d_inner)
        A = -torch.exp(self.A_log.float())  # (d_inner, d_state)

        # SSM step
        dt = F.softplus(dt + self.dt_proj.bias.to(dtype=dt.dtype))
        dA = torch.exp(torch.einsum("bd,dn->bdn", dt, A))
        dB = torch.einsum("bd,bn->bdn", dt, B)
        ssm_state.copy_(ssm_state * dA + rearrange(x, "b d -> b d 1") * dB)
        y = torch.einsum("bdn,bn->bd", ssm_state.to(dtype), C)
        y = y + self.D.to(dtype) * x
        y = y * self.act(z)  # (B D)

        out = self.out_proj(y)
        return out.unsqueeze(1), conv_state, ssm_state

    def forward_minimal(self, x: Tensor[Bt, L, D]) -> Tensor[Bt, L, D]:
        """mamba-minimal's MambaBlock.forward: (b, l, d) layout throughout."""
        (b, l, d) = x.shape
        x_and_res = self.in_proj(x)  # shape (b, l, 2 * d_in)
        (x, res) = x_and_res.split(split_size=[self.d_inner, self.d_inner], dim=-1)
        x = rearrange(x, "b l d_in -> b d_in l")
        x = self.conv1d(x)[:, :, :l]
        x = rearrange(x, "b d_in l -> b l d_in")
        x = F.silu(x)
        y = self.ssm(x)
        y = y * F.silu(res)
        output = self.out_proj(y)
        return output

    def ssm(self, x: Tensor[Bt, L, "X*D"]) -> Tensor[Bt, L, "X*D"]:
        (d_in, n) = self.A_log.shape
        A = -torch.exp(self.A_log.float())  # shape (d_in, n)
        D = self.D.float()
        x_dbl = self.x_proj(x)  # (b, l, dt_rank + 2*n)
        (delta, B, C) = x_dbl.split(split_size=[self.dt_rank, n, n], dim=-1)
        delta = F.softplus(self.dt_proj(delta))  # (b, l, d_in)
        return selective_scan_loop(x, delta, A, B, C, D)


class RMSNorm(nn.Module):
    def __init__(self, d_model: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model))

    def forward(self, x: Tensor[Bt, L, D]) -> Tensor[Bt, L, D]:
        output = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight
        return output


@checked
class ResidualBlock(nn.Module, Generic[D, N, X, R]):
    def __init__(self, d_model: Dim[D], d_state: Dim[N], expand: Dim[X], dt_rank: Dim[R], minimal: bool) -> None:
        super().__init__()
        self.mixer = Mamba(d_model, d_state, expand, dt_rank, 4)
        self.norm = RMSNorm(d_model)
        self.minimal = minimal

    def forward(self, x: Tensor[Bt, L, D]) -> Tensor[Bt, L, D]:
        if self.minimal:
            return self.mixer.forward_minimal(self.norm(x)) + x
        return self.mixer(self.norm(x)) + x


@checked
class MambaLM(nn.Module, Generic[V, D, N, X, R]):
    def __init__(
        self, vocab_size: Dim[V], d_model: Dim[D], n_layer: int, d_state: Dim[N], expand: Dim[X], dt_rank: Dim[R]
    ) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.layers = nn.ModuleList(
            [ResidualBlock(d_model, d_state, expand, dt_rank, minimal=i % 2 == 1) for i in range(n_layer)]
        )
        self.norm_f = RMSNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)
        self.lm_head.weight = self.embedding.weight  # tied embeddings

    def forward(self, input_ids: Tensor[Bt, L]) -> Tensor[Bt, L, V]:
        x = self.embedding(input_ids)
        for layer in self.layers:
            x = layer(x)
        x = self.norm_f(x)
        logits = self.lm_head(x)
        return logits


def demo() -> None:
    model = MambaLM(vocab_size=50, d_model=16, n_layer=2, d_state=4, expand=2, dt_rank=3)
    ids = torch.randint(0, 50, (2, 9))
    logits = model(ids[:, :-1])
    assert logits.shape == (2, 8, 50)
    F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten()).backward()
    # shapes of intermediates
    m = model.layers[0].mixer
    h = torch.randn(2, 8, 16)
    assert m(h).shape == (2, 8, 16)
    assert m.forward_minimal(h).shape == (2, 8, 16)
    with torch.no_grad():
        full = m(h)
        conv_state = torch.zeros(2, 32, 4)
        ssm_state = torch.zeros(2, 32, 4)
        outs = []
        for t in range(8):
            o, conv_state, ssm_state = m.step(h[:, t : t + 1], conv_state, ssm_state)
            outs.append(o)
        assert torch.allclose(full, torch.cat(outs, dim=1), atol=1e-5)
    print("ok")


if __name__ == "__main__":
    import builtins

    builtins.reveal_type = lambda x: x  # type: ignore[attr-defined]
    demo()
