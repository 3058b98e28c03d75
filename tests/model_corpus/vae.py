"""A convolutional VAE on 32x32 images: strided conv encoder, reparameterisation, transposed-conv decoder.

The latent width is a type parameter (`VAE[Z]`); the conv stack is written out in `nn.Sequential`.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
Z = TypeVar("Z")  # latent width


@checked
class Encoder(nn.Module, Generic[Z]):
    def __init__(self, latent: Dim[Z]) -> None:
        super().__init__()
        self.convs = nn.Sequential(
            nn.Conv2d(3, 32, kernel_size=4, stride=2, padding=1),  # 32 -> 16
            nn.ReLU(),
            nn.Conv2d(32, 64, kernel_size=4, stride=2, padding=1),  # 16 -> 8
            nn.ReLU(),
            nn.Conv2d(64, 128, kernel_size=4, stride=2, padding=1),  # 8 -> 4
            nn.ReLU(),
        )
        self.fc_mu = nn.Linear(128 * 4 * 4, latent)
        self.fc_logvar = nn.Linear(128 * 4 * 4, latent)

    def forward(self, x: Tensor[B, 3, 32, 32]) -> tuple[Tensor[B, Z], Tensor[B, Z]]:
        h = self.convs(x).flatten(1)  # (B, 2048)
        return self.fc_mu(h), self.fc_logvar(h)


@checked
class Decoder(nn.Module, Generic[Z]):
    def __init__(self, latent: Dim[Z]) -> None:
        super().__init__()
        self.fc = nn.Linear(latent, 128 * 4 * 4)
        self.deconvs = nn.Sequential(
            nn.ConvTranspose2d(128, 64, kernel_size=4, stride=2, padding=1),  # 4 -> 8
            nn.ReLU(),
            nn.ConvTranspose2d(64, 32, kernel_size=4, stride=2, padding=1),  # 8 -> 16
            nn.ReLU(),
            nn.ConvTranspose2d(32, 3, kernel_size=4, stride=2, padding=1),  # 16 -> 32
        )

    def forward(self, z: Tensor[B, Z]) -> Tensor[B, 3, 32, 32]:
        h = self.fc(z).view(-1, 128, 4, 4)
        return torch.sigmoid(self.deconvs(h))


def reparameterize(mu: Tensor[B, Z], logvar: Tensor[B, Z]) -> Tensor[B, Z]:
    std = torch.exp(0.5 * logvar)
    eps = torch.randn_like(std)
    return mu + eps * std


@checked
class VAE(nn.Module, Generic[Z]):
    def __init__(self, latent: Dim[Z]) -> None:
        super().__init__()
        self.encoder = Encoder(latent)
        self.decoder = Decoder(latent)

    def forward(self, x: Tensor[B, 3, 32, 32]) -> tuple[Tensor[B, 3, 32, 32], Tensor[B, Z], Tensor[B, Z]]:
        mu, logvar = self.encoder(x)
        z = reparameterize(mu, logvar)
        return self.decoder(z), mu, logvar

    def loss(self, x: Tensor[B, 3, 32, 32], beta: float = 1.0) -> Tensor[()]:
        recon, mu, logvar = self(x)
        rec = F.binary_cross_entropy(recon, x, reduction="sum") / x.shape[0]
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1).mean()
        return rec + beta * kl

    @torch.no_grad()
    def sample(self, n: int) -> Tensor[Any, 3, 32, 32]:
        z = torch.randn(n, self.decoder.fc.in_features)
        return self.decoder(z)


def demo() -> None:
    model = VAE(latent=8)
    x = torch.rand(4, 3, 32, 32)
    model.loss(x).backward()
    assert model.sample(2).shape == (2, 3, 32, 32)
