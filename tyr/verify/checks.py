"""`python -m tyr verify`: is distributed training of this model doing what it should?

Each check trains the user's model (family, preset and any trainer flag) twice in two
ways that must agree, and compares the parameters:

- DDP on N processes == one process accumulating N times as many micro-batches;
- ShardedAdamW on N processes == AdamW (DDP) on N processes;
- DiLoCo with H = 1, outer SGD lr 1, no momentum == DDP (inner SGD, no clipping: the
  equality needs an inner step linear in the gradient);
- `torch.autograd.gradcheck` of every tyr module in the model (in float64, on the
  inputs it receives in a real forward pass);
- resume: k steps, a checkpoint, k more in a fresh trainer == 2k steps, bit for bit.

The multi-process runs are one torchrun launch (`tyr.verify.worker`, gloo on CPU) on
loopback. Prints a table and exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import safetensors.torch
import torch
from torch import nn

from tyr.train import Trainer
from tyr.verify.harness import build, fixed_batch, relative_difference, train_fixed, trainer_module
from tyr.verify.runs import DISTRIBUTED_RUNS

TOLERANCE = 1e-5
"""Largest parameter difference, relative to the largest parameter, for runs that sum in another order."""


@dataclasses.dataclass
class Result:
    check: str
    held: bool
    detail: str
    seconds: float


def _quietly(function: Callable[[], Any]) -> Any:
    """Call `function` with its prints and progress bars kept off the table."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return function()


def _close(name: str, got: dict[str, torch.Tensor], want: dict[str, torch.Tensor], started: float) -> Result:
    difference = relative_difference(got, want)
    return Result(name, difference <= TOLERANCE, f"max |diff| / max |param| = {difference:.1e} (<= {TOLERANCE:.0e})",
                  time.perf_counter() - started)  # fmt: skip


def launch_workers(family: str, argv: Sequence[str], out: Path, procs: int, steps: int, timeout: float) -> None:
    """The distributed runs, in one torchrun launch on loopback; raises with their output if it fails."""
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", str(procs),
               "--master_addr", "127.0.0.1", "--master_port", str(free_port()),
               "-m", "tyr.verify.worker", str(out), family, str(steps), *argv]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"the {procs}-process runs failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")


def free_port() -> int:
    """A loopback port that was free a moment ago (torchrun's agent binds it next)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def distributed_checks(family: str, argv: Sequence[str], procs: int, steps: int, work: Path) -> list[Result]:
    module = trainer_module(family)
    started = time.perf_counter()
    launch_workers(family, argv, work, procs, steps, timeout=600)
    runs = {name: torch.load(work / f"{name}.pt") for name in DISTRIBUTED_RUNS}
    launched = time.perf_counter() - started

    started = time.perf_counter()
    task, config = build(module, argv, out=str(work / "single"), **DISTRIBUTED_RUNS["ddp"])
    accumulated = dataclasses.replace(config, grad_accum=config.grad_accum * procs)
    single = _quietly(lambda: train_fixed(task, accumulated, steps))
    results = [_close(f"DDP on {procs} processes == 1 process, {procs}x accumulation", runs["ddp"], single, started)]
    results[0].seconds += launched  # the launch trained every distributed run; charge it once
    started = time.perf_counter()
    results.append(_close(f"ShardedAdamW == AdamW ({procs} processes)", runs["sharded"], runs["ddp"], started))
    results.append(_close("DiLoCo H=1, outer SGD lr 1, no momentum == DDP", runs["diloco"], runs["ddp_sgd"], started))
    return results


def gradcheck_modules(model: nn.Module, inputs: torch.Tensor) -> Result:
    """gradcheck every tyr-defined submodule (one per class) on the inputs a real forward gives it."""
    started = time.perf_counter()
    captured: dict[type, tuple[nn.Module, tuple[Any, ...]]] = {}

    def capture(module: nn.Module, args: tuple[Any, ...]) -> None:
        captured.setdefault(type(module), (module, args))

    hooks = [m.register_forward_pre_hook(capture) for m in model.modules()
             if type(m).__module__.startswith("tyr.") and m is not model]  # fmt: skip
    model.eval()
    with torch.no_grad():
        model(inputs)
    for hook in hooks:
        hook.remove()
    passed: list[str] = []
    failed: list[str] = []
    for cls, (module, args) in captured.items():
        double = copy.deepcopy(module).double()
        tensors = tuple(a[:1].detach().double().requires_grad_() if a.is_floating_point() else a
                        for a in args if isinstance(a, torch.Tensor))  # fmt: skip
        try:
            ok = torch.autograd.gradcheck(lambda *xs: double(*xs), tensors, eps=1e-6, atol=1e-5, fast_mode=True)
        except RuntimeError:  # torch.autograd.GradcheckError, with the mismatching Jacobians
            ok = False
        (passed if ok else failed).append(cls.__name__)
    model.train()
    detail = f"{len(passed)} modules pass ({', '.join(passed)})" + (f"; FAIL: {', '.join(failed)}" if failed else "")
    return Result("gradcheck of tyr's modules (float64)", bool(passed) and not failed, detail,
                  time.perf_counter() - started)  # fmt: skip


def resume_check(family: str, argv: Sequence[str], steps: int, work: Path) -> Result:
    """`steps` steps, a checkpoint, `steps` more in a fresh trainer == 2 * `steps` steps in one go."""
    started = time.perf_counter()
    module = trainer_module(family)
    quiet = {"eval_interval": 10**9, "sample_tokens": 0, "keep_checkpoints": 3, "checkpoint_interval": steps,
             "max_steps": 2 * steps}  # fmt: skip
    task, config = build(module, argv, out=str(work / "full"), **quiet)
    _quietly(lambda: Trainer(task, config).run())
    resumed = work / "resumed"
    resumed.mkdir()
    shutil.copytree(work / "full" / f"step_{steps:08d}", resumed / f"step_{steps:08d}")
    task, config = build(module, argv, out=str(resumed), **quiet)
    _quietly(lambda: Trainer(task, config).run())
    last = f"step_{2 * steps:08d}/model.safetensors"
    want, got = (safetensors.torch.load_file(str(run / last)) for run in (work / "full", resumed))
    equal = want.keys() == got.keys() and all(torch.equal(want[k], got[k]) for k in want)
    detail = "parameters bit-equal" if equal else "parameters DIFFER"
    return Result(f"resume after {steps} of {2 * steps} steps is bit-exact", equal, detail,
                  time.perf_counter() - started)  # fmt: skip


def model_check(family: str, argv: Sequence[str], work: Path) -> Result:
    module = trainer_module(family)
    task, config = build(module, argv, out=str(work / "gradcheck"))
    trainer = _quietly(lambda: Trainer(task, config))
    try:
        batch = fixed_batch(0, 0, config, trainer.train_loader.vocab_size)
        return gradcheck_modules(trainer.model, batch.inputs[:1])
    finally:
        trainer.close()


def table(results: Sequence[Result]) -> str:
    width = max(len(r.check) for r in results)
    lines = [f"{'check':<{width}}  result  {'seconds':>7}  detail", "-" * (width + 40)]
    for r in results:
        lines.append(f"{r.check:<{width}}  {'held' if r.held else 'FAILED':<6}  {r.seconds:7.1f}  {r.detail}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tyr verify", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Any other flag goes to the trainer, e.g. --preset cpu --n-layer 2 --data data/shakespeare_char.")  # fmt: skip
    parser.add_argument("--family", default="gpt", help="gpt, diffusion, or a trainer module (default: gpt)")
    parser.add_argument("--procs", type=int, default=2, help="processes of the distributed runs (default: 2)")
    parser.add_argument("--steps", type=int, default=3, help="optimizer steps per compared run (default: 3)")
    args, trainer_argv = parser.parse_known_args(argv)
    if args.procs < 2 or args.steps < 1:
        parser.error(f"need --procs >= 2 and --steps >= 1, got {args.procs}, {args.steps}")
    trainer_argv = [*trainer_argv, "--threads", "1"]  # N processes share the machine's cores
    trainer_module(args.family).parse_args(trainer_argv)  # a bad flag fails here, with the trainer's usage
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="tyr-verify-") as tmp:
        work = Path(tmp)
        results += distributed_checks(args.family, trainer_argv, args.procs, args.steps, work)
        results.append(model_check(args.family, trainer_argv, work))
        results.append(resume_check(args.family, trainer_argv, args.steps, work))
    print(table(results), flush=True)
    return 0 if all(r.held for r in results) else 1
