import torch

from einops_layers.embed import patchify, pool
