import torch

from alias_and_dims.shapes import Hidden, make
