"""Train a shape-checked GPT (next-token prediction) on a dataset from `python -m tyr.data prepare`.

One process (CPU, or one GPU):
    python -m scripts.train_gpt --data data/shakespeare_char --preset cpu --out runs/gpt

Data parallel on N processes (DDP over gloo on CPU, NCCL on GPU; `--optimizer sharded` shards AdamW's state):
    torchrun --nproc_per_node 2 -m scripts.train_gpt --data data/shakespeare_char --preset cpu --out runs/gpt2

DiLoCo (each rank takes H steps on its own, then one all-reduce of the weights' change):
    torchrun --nproc_per_node 2 -m scripts.train_gpt --data data/shakespeare_char --preset cpu --diloco-steps 50 --out runs/diloco

Surviving a lost worker: `torchrun --max-restarts 3 ...` restarts the group from the newest checkpoint;
DiLoCo replicas that go on without a lost one (torchft; see README "Distributed training"):
    python -m tyr.train.lighthouse --bind 127.0.0.1:29510 &
    torchrun --nproc_per_node 1 --max-restarts 3 --master-port 29601 -m scripts.train_gpt --data data/shakespeare_char \
        --preset cpu --diloco-steps 50 --lighthouse http://127.0.0.1:29510 --replica-id 0 --replicas 2 --out runs/ft
    (and the same with --master-port 29602 --replica-id 1)

Presets: `tiny` (seconds; tests), `cpu` (nanoGPT's CPU benchmark: 4 layers, 4 heads, 128 wide,
context 64, batch 12, AdamW 1e-3, 2000 steps), `fast` (tyr's recipe for 2 CPU cores: below 1.9
nats/char in about a minute), `small` (nanoGPT's baby GPT; wants a GPU). Any flag overrides the preset.

Run the same command again to resume from the newest checkpoint in --out; Ctrl-C or SIGTERM
stops at the next step boundary with a checkpoint. The run directory gets `metrics.jsonl`,
`curves.png`, `step_*/` checkpoints and, at the end, `summary.json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Integer, Tensor
from tyr.data import Batch, Manifest, Tokenizer, decode_documents
from tyr.models import GPT, GPTConfig
from tyr.models.gpt import Position
from tyr.train import TrainConfig, parse_config, train
from tyr.distributed import run_worker

B = TypeVar("B")
T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class GPTTrainConfig(TrainConfig):
    position: Position = "learned"  # a learned position table, or rotary queries and keys
    qk_norm: bool = False  # RMS-normalised queries and keys
    top_k: int = 10  # the sample draws from the k likeliest tokens (0: all)
    temperature: float = 0.8


PRESETS: dict[str, dict[str, Any]] = {
    # a real run in seconds, for tests and for trying the command line
    "tiny": dict(n_layer=2, n_head=2, n_embd=32, block_size=32, batch_size=8, max_steps=40, lr=3e-3,
                 warmup_steps=5, eval_interval=20, eval_batches=4, log_interval=5, checkpoint_interval=20,
                 sample_tokens=100),
    # nanoGPT's CPU configuration (the defaults of TrainConfig): validation 1.77 after 2000 steps (nanoGPT: 1.89)
    "cpu": dict(),
    # tyr's recipe on nanoGPT's CPU model: rotary positions, ReLU^2, 3x the learning rate, 800 steps
    "fast": dict(position="rotary", activation="relu2", lr=3e-3, max_steps=800, warmup_steps=50, eval_interval=200,
                 checkpoint_interval=400),
    # nanoGPT's "baby GPT" on shakespeare-char (wants a GPU)
    "small": dict(n_layer=6, n_head=6, n_embd=384, block_size=256, batch_size=64, max_steps=5000, dropout=0.2,
                  lr=1e-3, warmup_steps=100, eval_interval=250, checkpoint_interval=500),
}  # fmt: skip


class GPTTask:
    """A decoder-only transformer trained to predict the next token."""

    name = "gpt"

    def __init__(self, config: GPTTrainConfig) -> None:
        self.config = config

    def check(self, dataset: Manifest) -> None:
        pass

    def build_model(self, vocab_size: int) -> nn.Module:
        config = self.config
        model_config = GPTConfig(vocab_size=vocab_size, block_size=config.block_size, n_layer=config.n_layer,
                                 n_head=config.n_head, n_embd=config.n_embd, dropout=config.dropout,
                                 position=config.position, activation=config.activation,
                                 qk_norm=config.qk_norm)  # fmt: skip
        return GPT.from_config(model_config)

    def loss(self, model: nn.Module, batch: Batch[Any, Any]) -> Tensor[()]:
        _, loss = model(batch.inputs, batch.targets)
        mean: Tensor[()] = loss
        return mean

    def eval_nats(
        self, model: nn.Module, batch: Batch[B, T], generator: torch.Generator
    ) -> tuple[Tensor[B, T], Annotated[Tensor[B, T], Integer]]:
        logits, _ = model(batch.inputs)
        nats = F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(), reduction="none")
        return nats.view_as(batch.targets), batch.targets

    def metrics(self, val: Mapping[str, float]) -> dict[str, float]:
        return {}

    def sample(self, model: nn.Module, tokenizer: Tokenizer, generator: torch.Generator) -> str:
        config = self.config
        assert isinstance(model, GPT)
        device = next(model.parameters()).device
        prompt = torch.full((1, 1), tokenizer.bos_id, device=device)
        ids = model.generate(prompt, config.sample_tokens, temperature=config.temperature, top_k=config.top_k or None,
                             generator=generator)  # fmt: skip
        return "\n\n".join(decode_documents(tokenizer, ids[0].tolist()))


TASK = GPTTask
"""The task this trainer runs (`python -m tyr verify` finds it here)."""


def parse_args(argv: Sequence[str] | None = None) -> GPTTrainConfig:
    return parse_config(GPTTrainConfig, PRESETS, argv, description=__doc__ or "")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    config = parse_args(argv)
    return train(GPTTask(config), config)


if __name__ == "__main__":
    run_worker(main)
