"""A plain-PyTorch VAE (chunk, reparameterisation, losses) checks as without tyr."""

import torch
import torch.nn.functional as F
from torch import nn


class VAE(nn.Module):
    def __init__(self, dim: int = 784, latent: int = 16) -> None:
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(dim, 256), nn.ReLU(), nn.Linear(256, 2 * latent))
        self.dec = nn.Sequential(nn.Linear(latent, 256), nn.ReLU(), nn.Linear(256, dim), nn.Sigmoid())

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def loss_fn(recon: torch.Tensor, x: torch.Tensor, mu: torch.Tensor, logvar: torch.Tensor) -> torch.Tensor:
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


vae = VAE()
x = torch.rand(8, 784)
recon, mu, logvar = vae(x)
total = loss_fn(recon, x, mu, logvar)
total.backward()
