"""How many CPU threads each training process gives torch.

Small models on a CPU are a poor fit for many threads: each operator is split over
all of them and every thread waits for the slowest at the end. When two processes
share two cores, or anything else runs on the machine, a thread that loses its core
stalls the others, and a step can take 10-50 times longer (an AdamW step on a
0.8M-parameter GPT took 20-250 ms with 2 threads on a busy 2-core machine and 5 ms
with 1; a whole tiny run took 81 s with 2 threads and 8.5 s with 1 at load 8).

So each process gets the cores it can have to itself: the cores this process may run
on, divided by the training processes on this machine, and no more than the cores the
rest of the machine leaves idle (by the 1-minute load average), at least one. Too few
threads costs at most the parallel speed-up; too many can cost ten times that.
"""

from __future__ import annotations

import os

import torch


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity, which containers restrict)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def local_processes() -> int:
    """Training processes on this machine: torchrun's LOCAL_WORLD_SIZE, else 1."""
    return max(1, int(os.environ.get("LOCAL_WORLD_SIZE", "1")))


def load_average() -> float:
    """Runnable processes on the machine, averaged over the last minute (0 where unknown)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0


def choose_threads(requested: int = 0) -> tuple[int, str]:
    """Set torch's thread count for this process and say why.

    Args:
        requested: the count to use; 0 (default) chooses: cores / local processes,
            lowered to the idle cores' share when the machine is busy.

    Returns the count set and a one-line explanation for the log.
    """
    if requested:
        threads, why = requested, "as asked by --threads"
    else:
        cores, processes, load = usable_cores(), local_processes(), load_average()
        share = max(1, cores // processes)
        idle_share = int((cores - load) / processes + 0.5)
        threads = max(1, min(share, idle_share))
        why = f"{cores} cores / {processes} process{'es' * (processes != 1)}"
        if threads < share:
            why += f", but load average {load:.1f} leaves {max(0.0, cores - load):.1f} idle"
        why += "; --threads N overrides"
    torch.set_num_threads(threads)
    return threads, f"{threads} torch thread{'s' * (threads != 1)} per process ({why})"
