"""Small helpers for ``torch.distributed`` runs launched with ``torchrun``.

Every helper also works in a plain single-process run (rank 0 of 1), so trainer
code needs no ``if distributed`` branches::

    info = distributed.init_from_env()      # reads RANK / WORLD_SIZE / LOCAL_RANK
    ...
    if distributed.is_main():
        print(loss)
    distributed.barrier()
    distributed.destroy()

Launch: ``python -m torch.distributed.run --standalone --nproc_per_node 2 train.py``.

**Restarts.** Under ``torchrun --max-restarts N`` a failed worker makes torchrun stop the
whole group and start it again; every attempt joins its process group in a namespace of
its own in torchrun's store (see `rendezvous_store`), so the new processes never read
the addresses that the dead ones left there.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import os
import sys
from collections.abc import Callable

import torch
import torch.distributed as dist
from torch._C._distributed_c10d import PrefixStore, Store, TCPStore


@dataclasses.dataclass(frozen=True)
class DistInfo:
    """Where this process stands in the run."""

    rank: int  # global rank, 0 .. world_size - 1
    world_size: int  # number of processes
    local_rank: int  # rank on this machine; selects the GPU
    device: torch.device  # cuda:local_rank when CUDA is available, else cpu


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"environment variable {name}={value!r} is not an integer") from None


UNREACHABLE = """\
rank {rank} of {world_size} could not join the process group at {address} within {seconds:g} s: {error}
The rendezvous is MASTER_ADDR:MASTER_PORT (torchrun sets them from --master-addr / --master-port or
--rdzv-endpoint). Check that rank 0's launcher is running, that the address and port are the same
on every node and reachable from this one, and that WORLD_SIZE counts only processes that were
started; a slow start needs a longer timeout (--dist-timeout)."""


def rendezvous_store(timeout: datetime.timedelta) -> Store | None:
    """torchrun's store under a prefix for this restart attempt, or None outside torchrun's agent.

    torchrun's default (static) rendezvous keeps one store for the whole job, and its
    agent tells the workers to use it (``TORCHELASTIC_USE_AGENT_STORE``), while torch's
    ``env://`` initialisation assumes a fresh store per attempt and adds no prefix. So
    after a restart the keys of the dead attempt are still there: a new rank reads the
    old rank 0's gloo address, gets "connection refused" in ``connectFullMesh``, and the
    group never forms. ``TORCHELASTIC_RESTART_COUNT`` names the attempt.
    """
    if os.environ.get("TORCHELASTIC_USE_AGENT_STORE") != "True":
        return None
    address, port = os.environ["MASTER_ADDR"], _env_int("MASTER_PORT", 0)
    attempt = _env_int("TORCHELASTIC_RESTART_COUNT", 0)
    store = TCPStore(address, port, is_master=False, timeout=timeout)
    return PrefixStore(f"tyr/attempt_{attempt}", store)


def init_from_env(backend: str | None = None, *, timeout: float = 600.0) -> DistInfo:
    """Join the process group described by torchrun's environment variables.

    Args:
        backend: ``"nccl"``, ``"gloo"``, ... Default: nccl when CUDA is available, else gloo.
        timeout: seconds to wait for the other ranks, when joining and in every collective
            afterwards, before failing (default 600; torch's own is 30 minutes).

    Without ``WORLD_SIZE`` (or with ``WORLD_SIZE=1``) nothing is initialised and rank 0
    of 1 is returned. With CUDA, the current device is set to ``cuda:LOCAL_RANK``.
    Calling it again after the group exists returns the same information.

    Raises:
        ConnectionError: the rendezvous (``MASTER_ADDR:MASTER_PORT``) could not be reached,
            or not every rank arrived, within ``timeout``.
    """
    world_size = _env_int("WORLD_SIZE", 1)
    rank = _env_int("RANK", 0)
    local_rank = _env_int("LOCAL_RANK", 0)
    if not 0 <= rank < world_size:
        raise ValueError(f"RANK={rank} is not in [0, WORLD_SIZE={world_size}); check the launcher's environment.")
    if torch.cuda.is_available():
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    if world_size > 1 and not is_initialized():
        if backend is None:
            backend = "nccl" if device.type == "cuda" else "gloo"
        wait = datetime.timedelta(seconds=timeout)
        try:
            store = rendezvous_store(wait)
            dist.init_process_group(backend=backend, rank=rank, world_size=world_size, timeout=wait, store=store)
        except dist.DistError as error:
            address = f"{os.environ.get('MASTER_ADDR', '?')}:{os.environ.get('MASTER_PORT', '?')}"
            message = UNREACHABLE.format(rank=rank, world_size=world_size, address=address, seconds=timeout,
                                         error=str(error).splitlines()[0])  # fmt: skip
            raise ConnectionError(message) from None
    return DistInfo(rank=rank, world_size=world_size, local_rank=local_rank, device=device)


def is_initialized() -> bool:
    """True inside an initialised process group."""
    return dist.is_available() and dist.is_initialized()


def rank() -> int:
    """Global rank; 0 outside a process group."""
    return dist.get_rank() if is_initialized() else 0


def world_size() -> int:
    """Number of processes; 1 outside a process group."""
    return dist.get_world_size() if is_initialized() else 1


def is_main() -> bool:
    """True on rank 0 (the process that logs and writes shared files)."""
    return rank() == 0


def barrier() -> None:
    """Wait for every rank; does nothing outside a process group."""
    if is_initialized():
        dist.barrier()


def every_rank(flag: bool) -> bool:
    """True when `flag` is true on every rank (a collective); `flag` itself outside a process group."""
    if not is_initialized():
        return flag
    agreed = torch.tensor(float(flag))
    dist.all_reduce(agreed, op=dist.ReduceOp.MIN)
    return bool(agreed.item())


def destroy(*, wait: bool = True) -> None:
    """Leave the process group, if any; with `wait`, once every rank is ready to.

    Without the barrier a rank that finishes first tears down its gloo connections
    while a peer still uses them, and the peer can abort at exit.  Pass
    ``wait=False`` when leaving because of an error: a dead peer would never arrive.
    """
    if is_initialized():
        if wait:
            dist.barrier()
        dist.destroy_process_group()


def run_worker(main: Callable[[], object]) -> None:
    """Run a torchrun worker's `main`, then end the process without the interpreter's shutdown.

    After the process group is gone, gloo's threads can still abort the interpreter's
    finalization ("terminate called without an active exception", SIGABRT: see
    pytorch/pytorch#179291), which torchrun reports as a failed worker, and under
    ``--max-restarts`` restarts the finished run. Everything a run writes is closed by
    the time `main` returns, so the worker flushes its streams and exits. Outside
    torchrun (no ``WORLD_SIZE`` > 1) it is a plain call.
    """
    main()
    if _env_int("WORLD_SIZE", 1) > 1:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
