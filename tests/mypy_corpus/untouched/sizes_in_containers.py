"""Sizes of tensors of known shape are `Literal`s (`y.shape[0]` is `Literal[2]`), which mypy does not
widen as it widens `2`: a list or dict first filled with such sizes still takes other ints, as it
does without tyr."""

import torch


def collect() -> None:
    y = torch.randn(2, 3, 4)
    dims = [y.shape[0]]
    dims.append(7)
    dims.insert(0, 1)
    dims += [5]
    by_name = {"batch": y.shape[0]}
    by_name["batch"] = 11
    seen = {y.shape[1]}
    seen.add(9)
    print(dims, by_name, seen)
