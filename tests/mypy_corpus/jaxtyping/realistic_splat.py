"""Gaussian splatting helpers in the style gsplat's reference code reads: cameras `C`, Gaussians `N`, einsums.

Written for this corpus against gsplat's public style (quaternions to rotations,
covariances, world-to-camera, perspective projection, spherical harmonics, alpha
compositing); it must check with no error.
"""

from typing import Optional, Tuple

import torch
import torch.nn.functional as F
from beartype import beartype
from jaxtyping import Float, Int, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def quat_to_rotmat(quats: Float[Tensor, "*batch 4"]) -> Float[Tensor, "*batch 3 3"]:
    quats = F.normalize(quats, p=2, dim=-1)
    w, x, y, z = torch.unbind(quats, dim=-1)
    R = torch.stack(
        [
            1 - 2 * (y**2 + z**2),
            2 * (x * y - w * z),
            2 * (x * z + w * y),
            2 * (x * y + w * z),
            1 - 2 * (x**2 + z**2),
            2 * (y * z - w * x),
            2 * (x * z - w * y),
            2 * (y * z + w * x),
            1 - 2 * (x**2 + y**2),
        ],
        dim=-1,
    )
    return R.reshape(quats.shape[:-1] + (3, 3))


@jaxtyped(typechecker=beartype)
def quat_scale_to_covar(quats: Float[Tensor, "N 4"], scales: Float[Tensor, "N 3"]) -> Float[Tensor, "N 3 3"]:
    R = quat_to_rotmat(quats)
    M = R * scales[..., None, :]
    return torch.bmm(M, M.transpose(-1, -2))


@jaxtyped(typechecker=beartype)
def world_to_cam(
    means: Float[Tensor, "N 3"], covars: Float[Tensor, "N 3 3"], viewmats: Float[Tensor, "C 4 4"]
) -> Tuple[Float[Tensor, "C N 3"], Float[Tensor, "C N 3 3"]]:
    R = viewmats[:, :3, :3]  # [C, 3, 3]
    t = viewmats[:, :3, 3]  # [C, 3]
    means_c = torch.einsum("cij,nj->cni", R, means) + t[:, None, :]
    covars_c = torch.einsum("cij,njk,clk->cnil", R, covars, R)
    return means_c, covars_c


@jaxtyped(typechecker=beartype)
def persp_proj(
    means: Float[Tensor, "C N 3"],
    covars: Float[Tensor, "C N 3 3"],
    Ks: Float[Tensor, "C 3 3"],
    width: int,
    height: int,
) -> Tuple[Float[Tensor, "C N 2"], Float[Tensor, "C N 2 2"]]:
    C, N, _ = means.shape
    tx, ty, tz = torch.unbind(means, dim=-1)  # [C, N]
    tz2 = tz**2
    fx = Ks[..., 0, 0, None]  # [C, 1]
    fy = Ks[..., 1, 1, None]
    cx = Ks[..., 0, 2, None]
    cy = Ks[..., 1, 2, None]
    tan_fovx = 0.5 * width / fx
    tan_fovy = 0.5 * height / fy
    lim_x = (width - cx) / fx + 0.3 * tan_fovx
    lim_y = (height - cy) / fy + 0.3 * tan_fovy
    tx = tz * torch.clamp(tx / tz, min=-lim_x, max=lim_x)
    ty = tz * torch.clamp(ty / tz, min=-lim_y, max=lim_y)
    O = torch.zeros((C, N), device=means.device, dtype=means.dtype)
    J = torch.stack([fx / tz, O, -fx * tx / tz2, O, fy / tz, -fy * ty / tz2], dim=-1).reshape(C, N, 2, 3)
    cov2d = torch.einsum("...ij,...jk,...kl->...il", J, covars, J.transpose(-1, -2))
    means2d = torch.einsum("cij,cnj->cni", Ks[:, :2, :3], means)  # [C, N, 2]
    means2d = means2d / tz[..., None]
    return means2d, cov2d


@jaxtyped(typechecker=beartype)
def eval_sh_degree_1(dirs: Float[Tensor, "*batch 3"], coeffs: Float[Tensor, "*batch K 3"]) -> Float[Tensor, "*batch 3"]:
    x, y, z = dirs.unbind(-1)
    c0 = 0.2820947917738781
    c1 = 0.4886025119029199
    result = c0 * coeffs[..., 0, :]
    result = result - c1 * y[..., None] * coeffs[..., 1, :]
    result = result + c1 * z[..., None] * coeffs[..., 2, :]
    result = result - c1 * x[..., None] * coeffs[..., 3, :]
    return result + 0.5


@jaxtyped(typechecker=beartype)
def accumulate(
    means2d: Float[Tensor, "C N 2"],
    conics: Float[Tensor, "C N 3"],
    opacities: Float[Tensor, "C N"],
    colors: Float[Tensor, "C N channels"],
    gaussian_ids: Int[Tensor, "M"],
    pixel_ids: Int[Tensor, "M"],
    camera_ids: Int[Tensor, "M"],
    image_width: int,
    image_height: int,
) -> Tuple[Float[Tensor, "C image_height image_width channels"], Float[Tensor, "C image_height image_width 1"]]:
    C, N = means2d.shape[:2]
    channels = colors.shape[-1]
    pixel_ids_x = pixel_ids % image_width
    pixel_ids_y = pixel_ids // image_width
    pixel_coords = torch.stack([pixel_ids_x, pixel_ids_y], dim=-1) + 0.5  # [M, 2]
    deltas = pixel_coords - means2d[camera_ids, gaussian_ids]  # [M, 2]
    c = conics[camera_ids, gaussian_ids]  # [M, 3]
    sigmas = 0.5 * (c[:, 0] * deltas[:, 0] ** 2 + c[:, 2] * deltas[:, 1] ** 2) + c[:, 1] * deltas[:, 0] * deltas[:, 1]
    alphas = torch.clamp_max(opacities[camera_ids, gaussian_ids] * torch.exp(-sigmas), 0.999)
    indices = camera_ids * image_height * image_width + pixel_ids
    weights = alphas  # (front-to-back transmittance left out: one Gaussian per pixel here)
    renders = torch.zeros(C * image_height * image_width, channels, device=means2d.device)
    renders.index_add_(0, indices, weights[:, None] * colors[camera_ids, gaussian_ids])
    alpha_map = torch.zeros(C * image_height * image_width, 1, device=means2d.device)
    alpha_map.index_add_(0, indices, weights[:, None])
    return renders.reshape(C, image_height, image_width, channels), alpha_map.reshape(C, image_height, image_width, 1)


@jaxtyped(typechecker=beartype)
def rasterize(
    means: Float[Tensor, "N 3"],
    quats: Float[Tensor, "N 4"],
    scales: Float[Tensor, "N 3"],
    opacities: Float[Tensor, "N"],
    colors: Float[Tensor, "N 3"],
    viewmats: Float[Tensor, "C 4 4"],
    Ks: Float[Tensor, "C 3 3"],
    width: int,
    height: int,
    backgrounds: Optional[Float[Tensor, "C 3"]] = None,
) -> Float[Tensor, "C H W 3"]:
    covars = quat_scale_to_covar(quats, scales)
    means_c, covars_c = world_to_cam(means, covars, viewmats)
    means2d, covars2d = persp_proj(means_c, covars_c, Ks, width, height)
    det = covars2d[..., 0, 0] * covars2d[..., 1, 1] - covars2d[..., 0, 1] ** 2
    conics = torch.stack([covars2d[..., 1, 1] / det, -covars2d[..., 0, 1] / det, covars2d[..., 0, 0] / det], dim=-1)
    C, N = means2d.shape[:2]
    pixels = (means2d[..., 1].clamp(0, height - 1).long() * width + means2d[..., 0].clamp(0, width - 1).long()).flatten()
    camera_ids = torch.arange(C)[:, None].expand(C, N).flatten()
    gaussian_ids = torch.arange(N)[None, :].expand(C, N).flatten()
    rgb, alpha = accumulate(
        means2d, conics, opacities.expand(C, N), colors.expand(C, N, 3), gaussian_ids, pixels, camera_ids, width, height
    )
    if backgrounds is not None:
        rgb = rgb + backgrounds[:, None, None, :] * (1.0 - alpha)
    return rgb


N_GAUSSIANS = 20
viewmats = torch.eye(4).expand(2, 4, 4).clone()
viewmats[:, 2, 3] = 4.0
Ks = torch.tensor([[30.0, 0.0, 16.0], [0.0, 30.0, 12.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3)
image = rasterize(
    torch.randn(N_GAUSSIANS, 3),
    torch.randn(N_GAUSSIANS, 4),
    torch.rand(N_GAUSSIANS, 3) * 0.1,
    torch.rand(N_GAUSSIANS),
    torch.rand(N_GAUSSIANS, 3),
    viewmats,
    Ks,
    32,
    24,
    backgrounds=torch.ones(2, 3),
)
colors = eval_sh_degree_1(F.normalize(torch.randn(N_GAUSSIANS, 3), dim=-1), torch.randn(N_GAUSSIANS, 4, 3))
