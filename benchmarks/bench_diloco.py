"""Benchmark: DiLoCo against DDP on the GPT CPU configuration, 2 processes: bytes per token and validation loss.

Each run is `scripts/train_gpt.py --preset cpu` (nanoGPT's CPU model and recipe: 4 layers,
4 heads, 128 wide, context 64, batch 12 per rank, AdamW 1e-3, 2000 steps) under torchrun
with 2 processes on loopback (gloo), so every run reads the same number of tokens:

* DDP            gradients all-reduced every step;
* DiLoCo H       each rank takes H AdamW steps on its own data, then the pseudo-gradient is
                 averaged with one all-reduce and applied by outer Nesterov SGD (lr 0.7,
                 momentum 0.9), for each H in --h (default 1, 10, 50).

Printed per run: all-reduce payload per rank per training token (the bytes each rank hands
to all-reduce, over the tokens all ranks trained on; a ring all-reduce sends and receives
about 2 (N - 1) / N times that), its ratio to DDP's, the final validation loss on the
whole validation split, and its difference from DDP's. Losses are deterministic on CPU
(the same seeds, the same data order); times are not reported (the machine is shared).

Measured (2 cores shared with other work; tinyshakespeare char, 3,072,000 tokens per run):

    run            all-reduce bytes/token   vs DDP  val loss   vs DDP
    DDP                           2094.33   1.0000    1.7856  +0.0000
    DiLoCo H=1                    2094.33   1.0000    2.4950  +0.7094
    DiLoCo H=10                    209.43   0.1000    1.7928  +0.0072
    DiLoCo H=50                     41.89   0.0200    1.8478  +0.0622

(H=1 with outer Nesterov momentum 0.9 and lr 0.7 is DDP with a ~7x larger, momentum-amplified
AdamW step: DiLoCo's defaults are meant for H in the tens or hundreds.)

Run:  python benchmarks/bench_diloco.py --data data/shakespeare_char [--steps 2000] [--h 1 10 50] [--out runs/bench_diloco]
(`python -m tyr.data prepare ../shared/data/tinyshakespeare.txt --out data/shakespeare_char` makes the dataset.)
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def train(data: str, out: Path, steps: int, extra: list[str]) -> dict[str, Any]:
    """One 2-process run of the GPT trainer; returns its summary.json (reused if the run already finished)."""
    summary = out / "summary.json"
    if not summary.exists():
        command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_addr",
                   "127.0.0.1", "--master_port", str(free_port()), "-m", "scripts.train_gpt", "--preset", "cpu",
                   "--data", data, "--out", str(out), "--max-steps", str(steps), "--eval-interval", str(steps),
                   "--sample-tokens", "0", "--threads", "1", *extra]  # fmt: skip
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(summary.read_text())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="dataset folder from `python -m tyr.data prepare`")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--h", type=int, nargs="+", default=[1, 10, 50], help="DiLoCo's inner steps per round")
    parser.add_argument("--out", default="runs/bench_diloco", help="run directories (finished runs are reused)")
    args = parser.parse_args()
    out = Path(args.out)
    runs = {"DDP": train(args.data, out / "ddp", args.steps, [])}
    for h in args.h:
        runs[f"DiLoCo H={h}"] = train(args.data, out / f"diloco_h{h}", args.steps, ["--diloco-steps", str(h)])
    ddp = runs["DDP"]
    per_token = {name: run["allreduce_bytes"] / run["tokens"] for name, run in runs.items()}
    print(f"GPT --preset cpu, 2 processes, {args.steps} steps, {ddp['tokens']:,} training tokens per run")
    print(f"{'run':<14} {'all-reduce bytes/token':>22} {'vs DDP':>8} {'val loss':>9} {'vs DDP':>8}")
    for name, run in runs.items():
        print(f"{name:<14} {per_token[name]:>22.2f} {per_token[name] / per_token['DDP']:>8.4f} "
              f"{run['val_loss']:>9.4f} {run['val_loss'] - ddp['val_loss']:>+8.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
