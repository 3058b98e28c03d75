import torch

from partials.makers import conv3, emb8
