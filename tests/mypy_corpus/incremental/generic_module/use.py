import torch

from generic_module.model import Block

block = Block(32)
