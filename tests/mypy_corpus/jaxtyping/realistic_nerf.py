"""A radiance-field pipeline in the style nerfstudio writes jaxtyping: `*bs` batches, sample axes, renderers.

Written for this corpus against nerfstudio's public style (ray bundles, ray samples,
a positional encoding, a field, volume rendering); it must check with no error.
"""

import math
from dataclasses import dataclass
from typing import Literal, Optional, Tuple, Union

import torch
from beartype import beartype
from jaxtyping import Float, Int, Shaped, jaxtyped
from torch import Tensor, nn

BackgroundColor = Union[Literal["random", "last_sample", "black", "white"], Float[Tensor, "3"]]


@dataclass
class Frustums:
    """Sections of rays between `starts` and `ends` along `directions`."""

    origins: Float[Tensor, "*bs 3"]
    directions: Float[Tensor, "*bs 3"]
    starts: Float[Tensor, "*bs 1"]
    ends: Float[Tensor, "*bs 1"]
    pixel_area: Float[Tensor, "*bs 1"]

    def get_positions(self) -> Float[Tensor, "*bs 3"]:
        return self.origins + self.directions * (self.starts + self.ends) / 2


@dataclass
class RaySamples:
    frustums: Frustums
    camera_indices: Optional[Int[Tensor, "*bs 1"]] = None
    deltas: Optional[Float[Tensor, "*bs 1"]] = None

    @jaxtyped(typechecker=beartype)
    def get_weights(self, densities: Float[Tensor, "*batch num_samples 1"]) -> Float[Tensor, "*batch num_samples 1"]:
        assert self.deltas is not None
        delta_density = self.deltas * densities
        alphas = 1 - torch.exp(-delta_density)
        transmittance = torch.cumsum(delta_density[..., :-1, :], dim=-2)
        transmittance = torch.cat(
            [torch.zeros((*transmittance.shape[:1], 1, 1), device=densities.device), transmittance], dim=-2
        )
        transmittance = torch.exp(-transmittance)
        weights = alphas * transmittance
        return torch.nan_to_num(weights)


@dataclass
class RayBundle:
    origins: Float[Tensor, "*batch 3"]
    directions: Float[Tensor, "*batch 3"]
    pixel_area: Float[Tensor, "*batch 1"]
    camera_indices: Optional[Int[Tensor, "*batch 1"]] = None
    nears: Optional[Float[Tensor, "*batch 1"]] = None
    fars: Optional[Float[Tensor, "*batch 1"]] = None

    def __len__(self) -> int:
        return int(torch.numel(self.origins) // 3)

    @jaxtyped(typechecker=beartype)
    def get_ray_samples(
        self,
        bin_starts: Float[Tensor, "*bs num_samples 1"],
        bin_ends: Float[Tensor, "*bs num_samples 1"],
    ) -> RaySamples:
        deltas = bin_ends - bin_starts
        camera_indices = self.camera_indices[..., None] if self.camera_indices is not None else None
        frustums = Frustums(
            origins=self.origins[..., None, :],
            directions=self.directions[..., None, :],
            starts=bin_starts,
            ends=bin_ends,
            pixel_area=self.pixel_area[..., None, :],
        )
        return RaySamples(frustums=frustums, camera_indices=camera_indices, deltas=deltas)


class NeRFEncoding(nn.Module):
    """Sines and cosines of the input at `num_frequencies` octaves."""

    def __init__(self, in_dim: int, num_frequencies: int, min_freq_exp: float, max_freq_exp: float) -> None:
        super().__init__()
        self.in_dim = in_dim
        self.num_frequencies = num_frequencies
        self.min_freq = min_freq_exp
        self.max_freq = max_freq_exp

    def get_out_dim(self) -> int:
        return self.in_dim * self.num_frequencies * 2

    @jaxtyped(typechecker=beartype)
    def forward(self, in_tensor: Float[Tensor, "*bs input_dim"]) -> Float[Tensor, "*bs output_dim"]:
        scaled_in_tensor = 2 * math.pi * in_tensor
        freqs = 2 ** torch.linspace(self.min_freq, self.max_freq, self.num_frequencies, device=in_tensor.device)
        scaled_inputs = scaled_in_tensor[..., None] * freqs  # [..., "input_dim", "num_scales"]
        scaled_inputs = scaled_inputs.view(*scaled_inputs.shape[:-2], -1)  # [..., "input_dim" * "num_scales"]
        return torch.sin(torch.cat([scaled_inputs, scaled_inputs + torch.pi / 2.0], dim=-1))


class MLP(nn.Module):
    def __init__(self, in_dim: int, num_layers: int, layer_width: int, out_dim: int) -> None:
        super().__init__()
        dims = [in_dim] + [layer_width] * (num_layers - 1) + [out_dim]
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.activation = nn.ReLU()

    @jaxtyped(typechecker=beartype)
    def forward(self, in_tensor: Float[Tensor, "*bs in_dim"]) -> Float[Tensor, "*bs out_dim"]:
        x = in_tensor
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = self.activation(x)
        return x


class Field(nn.Module):
    def get_density(self, ray_samples: RaySamples) -> Tuple[Shaped[Tensor, "*batch 1"], Float[Tensor, "*batch num_features"]]:
        raise NotImplementedError

    def get_rgb(self, ray_samples: RaySamples, embedding: Float[Tensor, "*batch num_features"]) -> Float[Tensor, "*batch 3"]:
        raise NotImplementedError


class VanillaField(Field):
    def __init__(self, hidden: int = 32) -> None:
        super().__init__()
        self.position_encoding = NeRFEncoding(3, 4, 0.0, 3.0)
        self.direction_encoding = NeRFEncoding(3, 2, 0.0, 1.0)
        self.base = MLP(self.position_encoding.get_out_dim(), 2, hidden, hidden)
        self.density_head = nn.Linear(hidden, 1)
        self.rgb_head = MLP(hidden + self.direction_encoding.get_out_dim(), 2, hidden, 3)

    @jaxtyped(typechecker=beartype)
    def get_density(self, ray_samples: RaySamples) -> Tuple[Shaped[Tensor, "*batch 1"], Float[Tensor, "*batch num_features"]]:
        positions = ray_samples.frustums.get_positions()
        embedding = self.base(self.position_encoding(positions))
        density = torch.relu(self.density_head(embedding))
        return density, embedding

    @jaxtyped(typechecker=beartype)
    def get_rgb(self, ray_samples: RaySamples, embedding: Float[Tensor, "*batch num_features"]) -> Float[Tensor, "*batch 3"]:
        directions = ray_samples.frustums.directions.expand(*embedding.shape[:-1], 3)
        encoded = self.direction_encoding(directions)
        return torch.sigmoid(self.rgb_head(torch.cat([embedding, encoded], dim=-1)))


class RGBRenderer(nn.Module):
    def __init__(self, background_color: BackgroundColor = "random") -> None:
        super().__init__()
        self.background_color: BackgroundColor = background_color

    @classmethod
    @jaxtyped(typechecker=beartype)
    def combine_rgb(
        cls,
        rgb: Float[Tensor, "*bs num_samples 3"],
        weights: Float[Tensor, "*bs num_samples 1"],
        background_color: Float[Tensor, "3"],
    ) -> Float[Tensor, "*bs 3"]:
        comp_rgb = torch.sum(weights * rgb, dim=-2)
        accumulated_weight = torch.sum(weights, dim=-2)
        return comp_rgb + background_color * (1.0 - accumulated_weight)

    @jaxtyped(typechecker=beartype)
    def forward(self, rgb: Float[Tensor, "*bs num_samples 3"], weights: Float[Tensor, "*bs num_samples 1"]) -> Float[Tensor, "*bs 3"]:
        if isinstance(self.background_color, str):
            background = torch.rand(3) if self.background_color == "random" else torch.ones(3)
        else:
            background = self.background_color
        rgb = self.combine_rgb(rgb, weights, background)
        if not self.training:
            torch.clamp_(rgb, min=0.0, max=1.0)
        return rgb


class DepthRenderer(nn.Module):
    @jaxtyped(typechecker=beartype)
    def forward(self, weights: Float[Tensor, "*batch num_samples 1"], ray_samples: RaySamples) -> Float[Tensor, "*batch 1"]:
        eps = 1e-10
        steps = (ray_samples.frustums.starts + ray_samples.frustums.ends) / 2
        depth = torch.sum(weights * steps, dim=-2) / (torch.sum(weights, -2) + eps)
        return torch.clip(depth, steps.min(), steps.max())


@jaxtyped(typechecker=beartype)
def uniform_bins(
    nears: Float[Tensor, "*bs 1"], fars: Float[Tensor, "*bs 1"], num_samples: int
) -> Tuple[Float[Tensor, "*bs num_samples 1"], Float[Tensor, "*bs num_samples 1"]]:
    bins = torch.linspace(0.0, 1.0, num_samples + 1)[..., None]  # [num_samples+1, 1]
    edges = nears[..., None, :] + (fars - nears)[..., None, :] * bins
    return edges[..., :-1, :], edges[..., 1:, :]


@jaxtyped(typechecker=beartype)
def distortion_loss(weights: Float[Tensor, "*bs num_samples 1"], starts: Float[Tensor, "*bs num_samples 1"], ends: Float[Tensor, "*bs num_samples 1"]) -> Float[Tensor, "*bs 1"]:
    midpoints = (starts + ends) / 2.0
    intervals = ends - starts
    pairwise = weights * weights[..., None, :, 0] * torch.abs(midpoints - midpoints[..., None, :, 0])
    loss = torch.sum(pairwise, dim=(-1, -2))[..., None]
    return loss + 1 / 3 * torch.sum(weights**2 * intervals, dim=-2)


rays = RayBundle(origins=torch.zeros(8, 3), directions=torch.nn.functional.normalize(torch.randn(8, 3), dim=-1), pixel_area=torch.ones(8, 1))
starts, ends = uniform_bins(torch.full((8, 1), 0.1), torch.full((8, 1), 4.0), 16)
samples = rays.get_ray_samples(starts, ends)
field = VanillaField()
density, embedding = field.get_density(samples)
weights = samples.get_weights(density)
rgb = RGBRenderer(torch.ones(3))(field.get_rgb(samples, embedding), weights)
depth = DepthRenderer()(weights, samples)
loss = distortion_loss(weights, starts, ends).mean() + rgb.mean() + depth.mean()
