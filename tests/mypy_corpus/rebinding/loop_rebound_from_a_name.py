"""A name rebound in a loop both from a value no hook types (another name, an unpacked item) and from a
tensor op: each pass reads what the name was last assigned, never the previous pass's shape (audiocraft's
`_collate_joint_embeds`; the partial type of `defaultdict(list)` makes mypy check the loop body twice)."""

import typing as tp
from collections import defaultdict

import torch


def collate(items: tp.List[torch.Tensor], pairs: tp.List[tp.Tuple[torch.Tensor, int]]) -> None:
    wavs = defaultdict(list)
    for item in items:
        wav = item
        wav.size(1)
        wav = wav.flatten()
        wavs[0].append(wav)
    for pair in pairs:
        wav, length = pair
        wav.size(1)
        wav = wav.flatten()
        wavs[1].append(wav)
    for wav in items:
        wav.size(2)
        wav = wav.flatten()
        wavs[2].append(wav)
