"""MAE: a masked autoencoder.  Random masking by argsort of noise and `gather`, an encoder on the
visible patches, a light decoder that puts mask tokens back in place, a loss on the masked patches.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import torch
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
N = TypeVar("N")
L = TypeVar("L")  # patches
D = TypeVar("D")  # encoder width
Dd = TypeVar("Dd")  # decoder width
I = TypeVar("I")  # noqa: E741 - image side
P = TypeVar("P")  # patch side


def random_masking(x: Tensor[B, L, D], mask_ratio: float) -> tuple[Tensor[B, Any, D], Tensor[B, L], Tensor[B, L]]:
    """Keep a random (1 - mask_ratio) of the patches; `mask` is 1 where a patch was removed."""
    n, l, d = x.shape
    len_keep = int(l * (1 - mask_ratio))
    noise = torch.rand(n, l, device=x.device)
    ids_shuffle = torch.argsort(noise, dim=1)  # ascend: small is keep, large is remove
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    x_masked = torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, d))
    mask = torch.ones([n, l], device=x.device)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, dim=1, index=ids_restore)
    return x_masked, mask, ids_restore


@checked
class Block(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], heads: int) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


@checked
class MAE(nn.Module, Generic[I, P, D, Dd]):
    def __init__(self, img_size: Dim[I], patch_size: Dim[P], dim: Dim[D], depth: int, decoder_dim: Dim[Dd],
                 decoder_depth: int, heads: int = 4) -> None:
        super().__init__()
        self.patch_size = patch_size
        num_patches = (img_size // patch_size) * (img_size // patch_size)
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, dim) * 0.02)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.decoder_embed = nn.Linear(dim, decoder_dim)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, decoder_dim))
        self.decoder_pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, decoder_dim) * 0.02)
        self.decoder_blocks = nn.ModuleList([Block(decoder_dim, heads) for _ in range(decoder_depth)])
        self.decoder_norm = nn.LayerNorm(decoder_dim)
        self.decoder_pred = nn.Linear(decoder_dim, patch_size * patch_size * 3)

    def patchify(self, imgs: Tensor[B, 3, I, I]) -> Tensor[B, "(I//P)*(I//P)", "P*P*3"]:
        p = self.patch_size
        h = w = imgs.shape[2] // p
        x = imgs.reshape(imgs.shape[0], 3, h, p, w, p)
        x = torch.einsum("nchpwq->nhwpqc", x)
        return x.reshape(imgs.shape[0], h * w, p * p * 3)

    def forward_encoder(self, imgs: Tensor[B, 3, I, I], mask_ratio: float) -> tuple[
        Tensor[B, Any, D], Tensor[B, "(I//P)*(I//P)"], Tensor[B, "(I//P)*(I//P)"]
    ]:
        x = self.patch_embed(imgs).flatten(2).transpose(1, 2)  # (B, L, D)
        x = x + self.pos_embed[:, 1:, :]
        x, mask, ids_restore = random_masking(x, mask_ratio)
        cls_token = self.cls_token + self.pos_embed[:, :1, :]
        x = torch.cat((cls_token.expand(x.shape[0], -1, -1), x), dim=1)
        for block in self.blocks:
            x = block(x)
        return self.norm(x), mask, ids_restore

    def forward_decoder(
        self, x: Tensor[B, N, D], ids_restore: Tensor[B, "(I//P)*(I//P)"]
    ) -> Tensor[B, "(I//P)*(I//P)", "P*P*3"]:
        x = self.decoder_embed(x)
        mask_tokens = self.mask_token.repeat(x.shape[0], ids_restore.shape[1] + 1 - x.shape[1], 1)
        x_ = torch.cat([x[:, 1:, :], mask_tokens], dim=1)  # no cls token
        x_ = torch.gather(x_, dim=1, index=ids_restore.unsqueeze(-1).repeat(1, 1, x.shape[2]))  # unshuffle
        x = torch.cat([x[:, :1, :], x_], dim=1)  # append the cls token
        x = x + self.decoder_pos_embed
        for block in self.decoder_blocks:
            x = block(x)
        x = self.decoder_pred(self.decoder_norm(x))
        return x[:, 1:, :]

    def forward(self, imgs: Tensor[B, 3, I, I], mask_ratio: float = 0.75) -> Tensor[()]:
        latent, mask, ids_restore = self.forward_encoder(imgs, mask_ratio)
        pred = self.forward_decoder(latent, ids_restore)
        target = self.patchify(imgs)
        loss = (pred - target) ** 2
        loss = loss.mean(dim=-1)  # mean loss per patch
        return (loss * mask).sum() / mask.sum()  # only the removed patches count


def demo() -> None:
    model = MAE(img_size=16, patch_size=4, dim=32, depth=2, decoder_dim=16, decoder_depth=1)
    loss = model(torch.randn(2, 3, 16, 16))
    loss.backward()
