"""Training checkpoints: one directory per step, written atomically.

A run directory holds checkpoints named ``step_00001000`` (8 digits, zero-padded)::

    run_dir/step_00001000/
        model.safetensors      the model's state_dict (tied tensors stored once)
        meta.json              step, world size, schedule state, extra, format version
        rank00000.safetensors  this rank's tensors: RNG states, optimizer state, loader tensors
        rank00000.json         this rank's data-loader state, Python/NumPy RNG states, the
                               optimizer state's non-tensor part (tensors are references)
        rank00001.* ...        one pair per rank

The optimizer state is written by rank 0 only, unless the optimizer says it is
sharded (attribute ``is_sharded = True``, as :class:`tyr.optim.ShardedAdamW`
does); then every rank writes its own shard.

**Atomicity.** Everything is written into ``run_dir/.tmp-step_00001000``, each
file is fsynced, and the directory is renamed to its final name only when
complete (then the run directory is fsynced). A crash at any point leaves the
earlier checkpoints untouched and at most a ``.tmp-*`` directory, which the next
save removes. :func:`latest_checkpoint` sees only complete checkpoints. All
ranks must call :func:`save_checkpoint` together and see the same file system;
only one run may write to a run directory at a time.

**Exact resume.** With the same seed and world size, training N steps equals
training k steps, saving, loading into fresh objects and training N - k steps,
bit for bit on CPU: parameters, optimizer state (including step counts), the
schedule position, the data loader's state and every RNG state (torch CPU,
CUDA when available, Python ``random``, NumPy's global generator) come back.

Example::

    save_checkpoint(run_dir, step=step, model=model, optimizer=opt,
                    schedule_state=scheduler.state_dict(), loader_state=loader.state_dict())
    ...
    path = latest_checkpoint(run_dir)
    if path is not None:
        ckpt = load_checkpoint(path, model=model, optimizer=opt)
        scheduler.load_state_dict(ckpt.schedule_state)
        loader.load_state_dict(ckpt.loader_state)
        start = ckpt.step
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import safetensors.torch
import torch
from torch import nn

from tyr import distributed

__all__ = [
    "Checkpoint",
    "CheckpointMismatchError",
    "Stateful",
    "latest_checkpoint",
    "list_checkpoints",
    "load_checkpoint",
    "read_extra",
    "save_checkpoint",
]

FORMAT = "tyr-checkpoint"
VERSION = 1
_NAME = re.compile(r"^step_(\d{8,})$")
_TMP_PREFIX = ".tmp-"
_OLD_PREFIX = ".old-"


class Stateful(Protocol):
    """Anything with ``state_dict()`` / ``load_state_dict()``, e.g. a torch optimizer."""

    def state_dict(self) -> Mapping[str, Any]: ...

    def load_state_dict(self, state_dict: dict[str, Any], /) -> None: ...


class CheckpointMismatchError(ValueError):
    """A checkpoint does not fit the model, optimizer or run it is loaded into."""


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """What :func:`load_checkpoint` read besides the tensors it loaded in place."""

    path: Path
    step: int  # the step passed to save_checkpoint
    world_size: int  # number of ranks that wrote it
    schedule_state: Any  # as passed to save_checkpoint (None if not given)
    loader_state: Any  # this rank's loader state (None if not given, or no such rank)
    extra: Any  # as passed to save_checkpoint (None if not given)


# ---------------------------------------------------------------------------
# Naming


def checkpoint_name(step: int) -> str:
    """``step_00001000`` for step 1000."""
    return f"step_{step:08d}"


def list_checkpoints(run_dir: str | os.PathLike[str]) -> list[Path]:
    """Complete checkpoints in ``run_dir``, oldest step first (empty if there are none)."""
    root = Path(run_dir)
    if not root.is_dir():
        return []
    found = []
    for child in root.iterdir():
        match = _NAME.match(child.name)
        if match and (child / "meta.json").is_file():
            found.append((int(match.group(1)), child))
    return [path for _, path in sorted(found)]


def latest_checkpoint(run_dir: str | os.PathLike[str]) -> Path | None:
    """The complete checkpoint with the highest step in ``run_dir``, or None."""
    checkpoints = list_checkpoints(run_dir)
    return checkpoints[-1] if checkpoints else None


def read_extra(path: str | os.PathLike[str]) -> Any:
    """The ``extra`` a checkpoint was saved with (e.g. the run's config), read without loading any tensor.

    For building the model a checkpoint is to be loaded into. Raises FileNotFoundError
    when ``path`` is not a complete checkpoint.
    """
    meta_path = Path(path) / "meta.json"
    if not meta_path.is_file():
        raise FileNotFoundError(f"{path} is not a complete tyr checkpoint (no meta.json)")
    return _decode(_read_json(meta_path)["extra"], {})


# ---------------------------------------------------------------------------
# JSON with tensor references


def _encode(value: Any, path: str, tensors: dict[str, torch.Tensor] | None) -> Any:
    """Turn ``value`` into JSON data; tensors go to ``tensors`` and leave a reference.

    Tuples and dicts with non-string keys are tagged so they come back as they were.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, torch.Tensor):
        if tensors is None:
            raise TypeError(
                f"checkpoint: {path} is a tensor, but this part of a checkpoint is JSON only "
                "(schedule_state, extra). Put tensors in loader_state or convert with .tolist()."
            )
        key = path
        while key in tensors:
            key += "+"
        tensors[key] = value.detach()
        return {"__tensor__": key}
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v, f"{path}.{i}", tensors) for i, v in enumerate(value)]}
    if isinstance(value, list):
        return [_encode(v, f"{path}.{i}", tensors) for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        if all(isinstance(k, str) and not k.startswith("__") for k in value):
            return {k: _encode(v, f"{path}.{k}", tensors) for k, v in value.items()}
        return {
            "__items__": [
                [_encode(k, f"{path}.<key>", None), _encode(v, f"{path}.{k}", tensors)]
                for k, v in value.items()
            ]
        }
    raise TypeError(
        f"checkpoint: {path} is a {type(value).__module__}.{type(value).__qualname__}; a checkpoint "
        "stores tensors, None, bools, numbers, strings, lists, tuples and dicts. Convert it "
        "(e.g. a dataclass with dataclasses.asdict) before saving."
    )


def _decode(value: Any, tensors: Mapping[str, torch.Tensor]) -> Any:
    if isinstance(value, list):
        return [_decode(v, tensors) for v in value]
    if isinstance(value, dict):
        if set(value) == {"__tensor__"}:
            return tensors[value["__tensor__"]]
        if set(value) == {"__tuple__"}:
            return tuple(_decode(v, tensors) for v in value["__tuple__"])
        if set(value) == {"__items__"}:
            return {_decode(k, tensors): _decode(v, tensors) for k, v in value["__items__"]}
        return {k: _decode(v, tensors) for k, v in value.items()}
    return value


# ---------------------------------------------------------------------------
# RNG states


def _rng_state(tensors: dict[str, torch.Tensor]) -> dict[str, Any]:
    tensors["rng.torch"] = torch.get_rng_state()
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else []
    for index, state in enumerate(cuda):
        tensors[f"rng.cuda.{index}"] = state
    numpy_state = np.random.get_state(legacy=False)
    assert isinstance(numpy_state, dict)
    numpy_state["state"]["key"] = numpy_state["state"]["key"].tolist()
    return {"python": _encode(random.getstate(), "rng.python", None), "numpy": numpy_state, "cuda_devices": len(cuda)}


def _restore_rng(state: Mapping[str, Any], tensors: Mapping[str, torch.Tensor]) -> None:
    torch.set_rng_state(tensors["rng.torch"])
    if state["cuda_devices"]:
        if not torch.cuda.is_available() or torch.cuda.device_count() != state["cuda_devices"]:
            here = torch.cuda.device_count() if torch.cuda.is_available() else 0
            raise CheckpointMismatchError(
                f"the checkpoint holds RNG states for {state['cuda_devices']} CUDA devices, this process "
                f"sees {here}; pass restore_rng=False to load without them."
            )
        torch.cuda.set_rng_state_all([tensors[f"rng.cuda.{i}"] for i in range(state["cuda_devices"])])
    random.setstate(_decode(state["python"], {}))
    numpy_state = dict(state["numpy"])
    numpy_state["state"] = {**numpy_state["state"], "key": np.array(numpy_state["state"]["key"], dtype=np.uint32)}
    np.random.set_state(numpy_state)


# ---------------------------------------------------------------------------
# Files


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_json(path: Path, data: Any) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.flush()
        os.fsync(f.fileno())


def _read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _storable(tensors: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """CPU, contiguous tensors of which no two share memory (safetensors' requirements)."""
    out: dict[str, torch.Tensor] = {}
    storages: set[tuple[str, int]] = set()
    for key, tensor in tensors.items():
        tensor = tensor.detach().cpu()
        storage = (str(tensor.device), tensor.untyped_storage().data_ptr())
        if tensor.numel() == 0 or storage in storages or not tensor.is_contiguous():
            tensor = tensor.clone(memory_format=torch.contiguous_format)
        else:
            storages.add(storage)
        out[key] = tensor
    return out


def _write_tensors(path: Path, tensors: Mapping[str, torch.Tensor]) -> None:
    safetensors.torch.save_file(_storable(tensors), str(path))
    with open(path, "rb") as f:
        os.fsync(f.fileno())


def _rank_file(directory: Path, rank: int, suffix: str) -> Path:
    return directory / f"rank{rank:05d}{suffix}"


def _read_rank(directory: Path, rank: int) -> tuple[dict[str, Any], dict[str, torch.Tensor]] | None:
    """A rank's JSON data and tensors, or None when that rank wrote nothing."""
    data_path = _rank_file(directory, rank, ".json")
    if not data_path.is_file():
        return None
    tensors = safetensors.torch.load_file(str(_rank_file(directory, rank, ".safetensors")))
    return _read_json(data_path), tensors


def _recover(root: Path) -> None:
    """Tidy up after a crashed save: drop partial directories, restore a replaced checkpoint."""
    for stale in root.iterdir():
        if stale.name.startswith(_TMP_PREFIX):
            shutil.rmtree(stale)
        elif stale.name.startswith(_OLD_PREFIX):
            final = root / stale.name[len(_OLD_PREFIX) :]
            if final.exists():
                shutil.rmtree(stale)
            else:  # the crash came between moving the old copy aside and renaming the new one in
                os.rename(stale, final)


def _unwrap(model: nn.Module) -> nn.Module:
    """The module itself from inside DistributedDataParallel and torch.compile wrappers."""
    while True:
        inner = model.module if isinstance(model, nn.parallel.DistributedDataParallel) else getattr(model, "_orig_mod", None)
        if not isinstance(inner, nn.Module):
            return model
        model = inner


def _model_tensors(model: nn.Module) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    """The state dict with tied tensors once: ``(tensors, {alias: stored name})``."""
    tensors: dict[str, torch.Tensor] = {}
    aliases: dict[str, str] = {}
    seen: dict[tuple[Any, ...], str] = {}
    for name, tensor in _unwrap(model).state_dict().items():
        identity = (
            tensor.device,
            tensor.untyped_storage().data_ptr(),
            tensor.storage_offset(),
            tuple(tensor.shape),
            tensor.stride(),
            tensor.dtype,
        )
        if tensor.numel() > 0 and identity in seen:
            aliases[name] = seen[identity]
        else:
            seen[identity] = name
            tensors[name] = tensor
    return tensors, aliases


# ---------------------------------------------------------------------------
# Save


def save_checkpoint(
    run_dir: str | os.PathLike[str],
    *,
    step: int,
    model: nn.Module,
    optimizer: Stateful | None = None,
    schedule_state: Any = None,
    loader_state: Any = None,
    extra: Any = None,
    keep_last: int | None = 3,
) -> Path:
    """Write a checkpoint for ``step`` into ``run_dir`` atomically; every rank must call it.

    Args:
        run_dir: the run's directory (created if missing).
        step: the training step reached (an int >= 0); names the checkpoint.
        model: the model (DDP / torch.compile wrappers are looked through).
        optimizer: anything with ``state_dict()``; None to skip.
        schedule_state: JSON-able schedule position, e.g. ``LRScheduler.state_dict()``.
        loader_state: this rank's data-loader state: JSON-able values and tensors.
        extra: anything else JSON-able (run config, metrics) — written by rank 0.
        keep_last: after writing, delete all but the newest ``keep_last`` checkpoints
            (None keeps all). Default 3.

    Returns the checkpoint's directory. Re-saving an existing step replaces it.

    Raises:
        TypeError: a state holds something that cannot be stored (before anything is written).
    """
    if step < 0:
        raise ValueError(f"save_checkpoint: step must be >= 0, got {step}.")
    if keep_last is not None and keep_last < 1:
        raise ValueError(f"save_checkpoint: keep_last must be >= 1 or None, got {keep_last}.")
    rank, world_size = distributed.rank(), distributed.world_size()
    root = Path(run_dir)
    name = checkpoint_name(step)
    final, tmp = root / name, root / f"{_TMP_PREFIX}{name}"
    sharded = bool(getattr(optimizer, "is_sharded", False))

    # Encode everything first, so an unstorable value fails before the disk is touched.
    rank_tensors: dict[str, torch.Tensor] = {}
    rank_data: dict[str, Any] = {
        "loader_state": _encode(loader_state, "loader_state", rank_tensors),
        "rng": _rng_state(rank_tensors),
        "optimizer": None,
    }
    if optimizer is not None and (sharded or rank == 0):
        rank_data["optimizer"] = _encode(optimizer.state_dict(), "optimizer", rank_tensors)
    if rank == 0:
        model_tensors, aliases = _model_tensors(model)
        meta = {
            "format": FORMAT,
            "version": VERSION,
            "step": step,
            "world_size": world_size,
            "optimizer": None if optimizer is None else {"sharded": sharded, "class": type(optimizer).__name__},
            "model_aliases": aliases,
            "schedule_state": _encode(schedule_state, "schedule_state", None),
            "extra": _encode(extra, "extra", None),
        }
        root.mkdir(parents=True, exist_ok=True)
        _recover(root)
        tmp.mkdir()
    distributed.barrier()

    _write_tensors(_rank_file(tmp, rank, ".safetensors"), rank_tensors)
    _write_json(_rank_file(tmp, rank, ".json"), rank_data)
    if rank == 0:
        _write_tensors(tmp / "model.safetensors", model_tensors)
    distributed.barrier()

    if rank == 0:
        _write_json(tmp / "meta.json", meta)  # last file: marks the directory complete
        _fsync_dir(tmp)
        old = root / f"{_OLD_PREFIX}{name}"
        if final.exists():
            os.rename(final, old)
        os.rename(tmp, final)
        _fsync_dir(root)
        if old.exists():
            shutil.rmtree(old)
        if keep_last is not None:
            for path in list_checkpoints(root)[:-keep_last]:
                if path != final:
                    shutil.rmtree(path)
    distributed.barrier()
    return final


# ---------------------------------------------------------------------------
# Load


def _limited(items: list[str], limit: int = 20) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... and {len(items) - limit} more" if len(items) > limit else "")


def _check_model(path: Path, model: nn.Module, stored: Mapping[str, torch.Tensor]) -> None:
    expected = model.state_dict()
    missing = [k for k in expected if k not in stored]
    unexpected = [k for k in stored if k not in expected]
    shapes = [
        f"{k}: checkpoint {tuple(stored[k].shape)}, model {tuple(v.shape)}"
        for k, v in expected.items()
        if k in stored and stored[k].shape != v.shape
    ]
    dtypes = [
        f"{k}: checkpoint {stored[k].dtype}, model {v.dtype}"
        for k, v in expected.items()
        if k in stored and stored[k].shape == v.shape and stored[k].dtype != v.dtype
    ]
    lines = []
    if missing:
        lines.append(f"in the model but not the checkpoint ({len(missing)}): {_limited(missing)}")
    if unexpected:
        lines.append(f"in the checkpoint but not the model ({len(unexpected)}): {_limited(unexpected)}")
    if shapes:
        lines.append(f"shapes differ ({len(shapes)}): {_limited(shapes)}")
    if dtypes:
        lines.append(f"dtypes differ ({len(dtypes)}): {_limited(dtypes)}")
    if lines:
        raise CheckpointMismatchError(
            f"checkpoint {path} does not fit {type(model).__name__}:\n  - "
            + "\n  - ".join(lines)
            + "\nBuild the model with the configuration the checkpoint was trained with."
        )


def load_checkpoint(
    path: str | os.PathLike[str],
    *,
    model: nn.Module,
    optimizer: Stateful | None = None,
    restore_rng: bool = True,
) -> Checkpoint:
    """Load a checkpoint into ``model`` (and ``optimizer``) in place; every rank calls it.

    Args:
        path: a checkpoint directory, e.g. ``latest_checkpoint(run_dir)``.
        model: the model to fill; names, shapes and dtypes must match exactly.
        optimizer: the optimizer to fill (its ``load_state_dict`` checks the rest). None to skip.
        restore_rng: set this rank's torch, CUDA, Python and NumPy RNG states. Default True.

    Returns a :class:`Checkpoint` with the step, schedule state, this rank's loader
    state and ``extra``.

    Raises:
        CheckpointMismatchError: the model's names/shapes/dtypes differ (every
            difference is listed), an optimizer is given but none was saved (or the
            sharding differs), or per-rank state is needed and the world size changed.
        FileNotFoundError: ``path`` is not a complete checkpoint.
    """
    directory = Path(path)
    meta_path = directory / "meta.json"
    if not meta_path.is_file():
        raise FileNotFoundError(
            f"{directory} is not a complete tyr checkpoint (no meta.json); use latest_checkpoint(run_dir) "
            "to find the newest complete one."
        )
    meta = _read_json(meta_path)
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise CheckpointMismatchError(
            f"{directory}: format {meta.get('format')!r} version {meta.get('version')!r}; this tyr reads "
            f"{FORMAT!r} version {VERSION}."
        )
    rank, world_size = distributed.rank(), distributed.world_size()
    saved_optimizer = meta["optimizer"]
    sharded = bool(getattr(optimizer, "is_sharded", False))
    if optimizer is not None:
        if saved_optimizer is None:
            raise CheckpointMismatchError(f"{directory} holds no optimizer state, but an optimizer was given.")
        if saved_optimizer["sharded"] != sharded:
            raise CheckpointMismatchError(
                f"{directory} holds {'sharded' if saved_optimizer['sharded'] else 'unsharded'} optimizer "
                f"state ({saved_optimizer['class']}), but {type(optimizer).__name__} is "
                f"{'sharded' if sharded else 'unsharded'}."
            )
    needs_own_rank = restore_rng or (optimizer is not None and sharded)
    if needs_own_rank and meta["world_size"] != world_size:
        raise CheckpointMismatchError(
            f"{directory} was written by {meta['world_size']} ranks; this run has {world_size}. RNG "
            "states and sharded optimizer state are per rank, so resuming exactly needs the same world "
            "size. To load the weights anyway pass restore_rng=False (and no sharded optimizer)."
        )

    target = _unwrap(model)
    stored = safetensors.torch.load_file(str(directory / "model.safetensors"))
    for alias, name in meta["model_aliases"].items():
        stored[alias] = stored[name]
    _check_model(directory, target, stored)
    target.load_state_dict(stored, strict=True)

    own = _read_rank(directory, rank)
    loader_state = None
    if own is not None:
        loader_state = _decode(own[0]["loader_state"], own[1])
        if restore_rng:
            _restore_rng(own[0]["rng"], own[1])
    if optimizer is not None:
        source = _read_rank(directory, rank if sharded else 0)
        if source is None or source[0]["optimizer"] is None:
            raise CheckpointMismatchError(f"{directory}: the optimizer state of rank {rank} is missing.")
        optimizer.load_state_dict(_decode(source[0]["optimizer"], source[1]))
    return Checkpoint(
        path=directory,
        step=int(meta["step"]),
        world_size=int(meta["world_size"]),
        schedule_state=_decode(meta["schedule_state"], {}),
        loader_state=loader_state,
        extra=_decode(meta["extra"], {}),
    )
