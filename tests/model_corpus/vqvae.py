"""VQ-VAE (van den Oord et al. 2017), the way the common PyTorch ports write it (zalandoresearch / rosinality /
taming-transformers): conv encoder with residual stack, vector quantizer (flatten to (B*H*W, D), squared
distances by the expanded formula with matmul or by torch.cdist, argmin, embedding lookup, view back, permute,
straight-through estimator, commitment loss, perplexity), transposed-conv decoder.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")
C = TypeVar("C")  # hidden channels
R = TypeVar("R")  # residual hidden channels
D = TypeVar("D")  # embedding (code) width
K = TypeVar("K")  # codebook size


@checked
class Residual(nn.Module, Generic[C, R]):
    def __init__(self, channels: Dim[C], res_channels: Dim[R]) -> None:
        super().__init__()
        self.block = nn.Sequential(
            nn.ReLU(True),
            nn.Conv2d(channels, res_channels, kernel_size=3, stride=1, padding=1, bias=False),
            nn.ReLU(True),
            nn.Conv2d(res_channels, channels, kernel_size=1, stride=1, bias=False),
        )

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, C, H, W]:
        return x + self.block(x)


@checked
class ResidualStack(nn.Module, Generic[C]):
    def __init__(self, channels: Dim[C], num_layers: int, res_channels: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList([Residual(channels, res_channels) for _ in range(num_layers)])

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, C, H, W]:
        for layer in self.layers:
            x = layer(x)
        return F.relu(x)


@checked
class Encoder(nn.Module, Generic[C]):
    def __init__(self, in_channels: int, hidden: Dim[C], num_res_layers: int, res_hidden: int) -> None:
        super().__init__()
        self.conv_1 = nn.Conv2d(in_channels, hidden // 2, kernel_size=4, stride=2, padding=1)
        self.conv_2 = nn.Conv2d(hidden // 2, hidden, kernel_size=4, stride=2, padding=1)
        self.conv_3 = nn.Conv2d(hidden, hidden, kernel_size=3, stride=1, padding=1)
        self.res = ResidualStack(hidden, num_res_layers, res_hidden)

    def forward(self, x: Tensor[B, 3, H, W]) -> Tensor[B, C, "H//4", "W//4"]:
        x = F.relu(self.conv_1(x))
        x = F.relu(self.conv_2(x))
        x = self.conv_3(x)
        return self.res(x)


@checked
class Decoder(nn.Module, Generic[D, C]):
    def __init__(self, in_channels: Dim[D], hidden: Dim[C], num_res_layers: int, res_hidden: int) -> None:
        super().__init__()
        self.conv_1 = nn.Conv2d(in_channels, hidden, kernel_size=3, stride=1, padding=1)
        self.res = ResidualStack(hidden, num_res_layers, res_hidden)
        self.conv_trans_1 = nn.ConvTranspose2d(hidden, hidden // 2, kernel_size=4, stride=2, padding=1)
        self.conv_trans_2 = nn.ConvTranspose2d(hidden // 2, 3, kernel_size=4, stride=2, padding=1)

    def forward(self, z: Tensor[B, D, H, W]) -> Tensor[B, 3, "4*H", "4*W"]:
        x = self.conv_1(z)
        x = self.res(x)
        x = F.relu(self.conv_trans_1(x))
        x = self.conv_trans_2(x)
        return x


@checked
class VectorQuantizer(nn.Module, Generic[K, D]):
    """Expanded squared distance ||x||^2 + ||e||^2 - 2 x.e, one-hot encodings, quantized = encodings @ codebook."""

    def __init__(self, num_embeddings: Dim[K], embedding_dim: Dim[D], commitment_cost: float) -> None:
        super().__init__()
        self._embedding_dim = embedding_dim
        self._num_embeddings = num_embeddings
        self._embedding = nn.Embedding(num_embeddings, embedding_dim)
        self._embedding.weight.data.uniform_(-1 / num_embeddings, 1 / num_embeddings)
        self._commitment_cost = commitment_cost

    def forward(self, inputs: Tensor[B, D, H, W]) -> tuple[Tensor[()], Tensor[B, D, H, W], Tensor[()],
                                                           Tensor["B*H*W", K]]:
        # convert inputs from BCHW -> BHWC
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        # flatten input
        flat_input = inputs.view(-1, self._embedding_dim)
        # calculate distances
        distances = (torch.sum(flat_input**2, dim=1, keepdim=True)
                     + torch.sum(self._embedding.weight**2, dim=1)
                     - 2 * torch.matmul(flat_input, self._embedding.weight.t()))
        # encoding
        encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self._num_embeddings, device=inputs.device)
        encodings.scatter_(1, encoding_indices, 1)
        # quantize and unflatten
        quantized = torch.matmul(encodings, self._embedding.weight).view(input_shape)
        # loss
        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        q_latent_loss = F.mse_loss(quantized, inputs.detach())
        loss = q_latent_loss + self._commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        avg_probs = torch.mean(encodings, dim=0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        # convert quantized from BHWC -> BCHW
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity, encodings


@checked
class VectorQuantizerCdist(nn.Module, Generic[K, D]):
    """taming-style: einops in and out, torch.cdist, argmin, embedding lookup, beta-weighted commitment."""

    def __init__(self, n_e: Dim[K], e_dim: Dim[D], beta: float = 0.25) -> None:
        super().__init__()
        self.n_e = n_e
        self.e_dim = e_dim
        self.beta = beta
        self.embedding = nn.Embedding(n_e, e_dim)
        self.embedding.weight.data.uniform_(-1.0 / n_e, 1.0 / n_e)

    def forward(self, z: Tensor[B, D, H, W]) -> tuple[Tensor[B, D, H, W], Tensor[()], Tensor[B, H, W]]:
        b, _, h, w = z.shape
        z = rearrange(z, "b c h w -> b h w c").contiguous()
        z_flattened = z.view(-1, self.e_dim)
        d = torch.cdist(z_flattened, self.embedding.weight)
        min_encoding_indices = torch.argmin(d, dim=1)
        z_q = self.embedding(min_encoding_indices).view(z.shape)
        loss = torch.mean((z_q.detach() - z) ** 2) + self.beta * torch.mean((z_q - z.detach()) ** 2)
        z_q = z + (z_q - z).detach()
        z_q = rearrange(z_q, "b h w c -> b c h w").contiguous()
        indices = min_encoding_indices.view(b, h, w)
        return z_q, loss, indices

    def get_codebook_entry(self, indices: Tensor[B, H, W]) -> Tensor[B, D, H, W]:
        z_q = self.embedding(indices)
        return z_q.permute(0, 3, 1, 2).contiguous()


@checked
class VQVAE(nn.Module, Generic[C, K, D]):
    def __init__(self, hidden: Dim[C], num_embeddings: Dim[K], embedding_dim: Dim[D], num_res_layers: int = 2,
                 res_hidden: int = 8, commitment_cost: float = 0.25, use_cdist: bool = False) -> None:
        super().__init__()
        self.encoder = Encoder(3, hidden, num_res_layers, res_hidden)
        self.pre_vq_conv = nn.Conv2d(hidden, embedding_dim, kernel_size=1, stride=1)
        self.vq = VectorQuantizer(num_embeddings, embedding_dim, commitment_cost)
        self.vq2 = VectorQuantizerCdist(num_embeddings, embedding_dim, commitment_cost)
        self.use_cdist = use_cdist
        self.decoder = Decoder(embedding_dim, hidden, num_res_layers, res_hidden)

    def forward(self, x: Tensor[B, 3, H, W]) -> tuple[Tensor[()], Tensor[B, 3, H, W], Tensor[()]]:
        z = self.encoder(x)
        z = self.pre_vq_conv(z)
        if self.use_cdist:
            quantized, loss, _ = self.vq2(z)
            perplexity = torch.tensor(0.0)
        else:
            loss, quantized, perplexity, _ = self.vq(z)
        x_recon = self.decoder(quantized)
        return loss, x_recon, perplexity


def train_step(model: VQVAE[C, K, D], x: Tensor[B, 3, H, W], data_variance: float) -> Tensor[()]:
    vq_loss, data_recon, perplexity = model(x)
    recon_error = F.mse_loss(data_recon, x) / data_variance
    loss = recon_error + vq_loss
    return loss


def demo() -> None:
    torch.manual_seed(0)
    for use_cdist in (False, True):
        model = VQVAE(hidden=16, num_embeddings=32, embedding_dim=8, use_cdist=use_cdist)
        x = torch.randn(3, 3, 16, 24)
        loss = train_step(model, x, data_variance=1.0)
        loss.backward()
        print("vqvae loss", use_cdist, loss.item())
        _, recon, _ = model(x)
        assert recon.shape == x.shape
    z = model.pre_vq_conv(model.encoder(x))
    print("z", z.shape)
    zq, _, idx = model.vq2(z)
    print("idx", idx.shape)
    print("codebook", model.vq2.get_codebook_entry(idx).shape)
    assert torch.allclose(model.vq2.get_codebook_entry(idx), zq, atol=1e-6)


if __name__ == "__main__":
    demo()
