"""Train NanoChat, the GPT of nanochat and modded-nanogpt, on a dataset from `python -m tyr.data prepare`.

A byte-level BPE dataset of tinyshakespeare (documents are paragraphs):
    python -m tyr.data prepare ../shared/data/tinyshakespeare.txt --out data/shakespeare_bpe --tokenizer bpe \\
        --vocab-size 1024

One process (CPU, or one GPU):
    python -m scripts.train_nanochat --data data/shakespeare_bpe --preset cpu --out runs/nanochat

Data parallel on N processes (DDP over gloo on CPU, NCCL on GPU):
    torchrun --nproc_per_node 2 -m scripts.train_nanochat --data data/shakespeare_bpe --preset cpu --out runs/nanochat2

nanochat's d20 on 8 GPUs (`scripts/nanochat_d20.sh`; `python -m scripts.nanochat_d20` sizes it):
    torchrun --nproc_per_node 8 -m scripts.train_nanochat --data data/fineweb_bpe --preset d20 --out runs/d20

Write from a run's newest checkpoint (with the KV cache):
    python -m scripts.chat_sample --run runs/nanochat --prompt "ROMEO:"

The model (`tyr.models.nanochat`) takes its sizes from `--depth`: width = depth x
`--aspect-ratio` rounded up to a multiple of `--head-dim`, heads = width / head_dim, and
`--n-kv-head` key/value heads (0: one per query head); the run prints what it derived.
`--n-layer`, `--n-head` and `--n-embd` are derived, not set. The optimizer is Muon for the
hidden matrices and AdamW (betas 0.8, 0.95) for the embedding, the head and the scalars, each
with its own rate, under a warmup-stable-decay schedule, Muon's momentum warming up from 0.85
to 0.95. Rows start at a document's BOS, packed best-fit (`--align bos`). Validation reports
bits per byte (`val_bpb`), comparable across tokenizers.

Presets: `tiny` (seconds; tests), `cpu` (the CPU benchmark, `benchmarks/bench_nanochat.py`;
`scripts/nanochat_cpu.sh` runs it end to end), `d20` (nanochat's speedrun model; wants 8 GPUs).
Each preset sets the AdamW rates for its width (`adam_rates`); another `--depth` or
`--aspect-ratio` keeps them unless `--embedding-lr`, `--head-lr` and `--scalar-lr` are given.
Run the same command again to resume; Ctrl-C stops with a checkpoint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Integer, Tensor, distributed
from tyr.data import Batch, Manifest, Tokenizer, decode_documents
from tyr.models.nanochat import NanoChat, NanoChatConfig
from tyr.train import TrainConfig, parse_config, train
from tyr.train.config import Activation, Align, Optimizer, Schedule
from tyr.distributed import run_worker

B = TypeVar("B")
T = TypeVar("T")


def adam_rates(width: int, embedding: float = 0.2, head: float = 0.004, scalar: float = 0.02) -> dict[str, float]:
    """nanochat's AdamW rates, tuned at width 768, scaled by (768 / width) ** 0.5 for another width.

    nanochat gives its residual scalars 0.005 and its x0 scalars 0.5; here they share one
    group, at 0.02 (0.5 made the CPU run's validation loss jump about).
    """
    scale = (768 / width) ** 0.5
    return {"embedding_lr": embedding * scale, "head_lr": head * scale, "scalar_lr": scalar * scale}


@dataclass(frozen=True, kw_only=True)
class NanoChatTrainConfig(TrainConfig):
    depth: int = 4  # the size knob: layers, and through aspect_ratio the width
    aspect_ratio: int = 64  # width per layer of depth
    head_dim: int = 128
    n_kv_head: int = 0  # key/value heads (0: one per query head)
    softcap: float = 15.0  # logits are squashed into (-softcap, softcap)
    top_k: int = 0  # the sample draws from the k likeliest tokens (0: all)
    temperature: float = 0.8
    # derived from depth (0: derive; a value given must agree)
    n_layer: int = 0
    n_head: int = 0
    n_embd: int = 0
    # nanochat's recipe as defaults
    activation: Activation = "relu2"
    align: Align = "bos"
    optimizer: Optimizer = "muon"
    beta1: float = 0.8
    beta2: float = 0.95
    weight_decay: float = 0.0
    grad_clip: float = 0.0
    schedule: Schedule = "wsd"
    warmup_steps: int = 0
    min_lr_ratio: float = 0.0
    muon_momentum_warmup: int = 300

    def __post_init__(self) -> None:
        model = self.model_config(vocab_size=1)  # checks the sizes; the vocabulary comes with the data
        for name in ("n_layer", "n_head", "n_embd"):
            given, derived = getattr(self, name), getattr(model, name)
            if given and given != derived:
                raise ValueError(
                    f"--{name.replace('_', '-')} {given} disagrees with {derived}, derived from --depth: "
                    f"{model.derivation()}. Set --depth, --aspect-ratio and --head-dim instead."
                )
            object.__setattr__(self, name, derived)  # frozen: derived once, here
        if self.dropout or self.activation != "relu2":
            raise ValueError(f"NanoChat has no dropout and a ReLU² MLP; got --dropout {self.dropout}, "
                             f"--activation {self.activation}")  # fmt: skip
        super().__post_init__()

    def model_config(self, vocab_size: int) -> NanoChatConfig:
        return NanoChatConfig(vocab_size=vocab_size, depth=self.depth, aspect_ratio=self.aspect_ratio,
                              head_dim=self.head_dim, n_kv_head=self.n_kv_head, sequence_len=self.block_size,
                              softcap=self.softcap)  # fmt: skip


PRESETS: dict[str, dict[str, Any]] = {
    # a real run in seconds, for tests and for trying the command line: width 32, 2 heads sharing 1 key/value head
    "tiny": dict(depth=2, aspect_ratio=16, head_dim=16, n_kv_head=1, block_size=32, batch_size=8, max_steps=40,
                 muon_lr=0.02, lr=3e-3, **adam_rates(32), muon_momentum_warmup=20, eval_interval=20,
                 eval_batches=4, log_interval=5, checkpoint_interval=20, sample_tokens=100),
    # the CPU benchmark against nanoGPT's CPU GPT (benchmarks/bench_nanochat.py)
    # (a context of 256: best-fit rows of 64 would crop 40% of tinyshakespeare's paragraphs away, of 256 only 9%)
    "cpu": dict(depth=4, aspect_ratio=32, head_dim=32, block_size=256, batch_size=8, max_steps=300,
                muon_lr=0.02, lr=3e-3, **adam_rates(128), muon_momentum_warmup=100, decay_fraction=0.4,
                eval_interval=50, eval_batches=20, checkpoint_interval=150),
    # nanochat's d20 speedrun model: 20 layers 1280 wide, 10 heads of 128, context 2048; 8 GPUs x 32 rows x 2048
    # tokens = 524,288 tokens per step, 21,400 steps = 11.2B tokens (20 per parameter); see scripts/nanochat_d20.sh
    "d20": dict(depth=20, aspect_ratio=64, head_dim=128, block_size=2048, batch_size=32, max_steps=21_400,
                muon_lr=0.02, lr=3e-3, **adam_rates(1280), muon_momentum_warmup=300, decay_fraction=0.2,
                compile=True, eval_interval=250, eval_batches=80, log_interval=10, checkpoint_interval=2000,
                sample_tokens=200),
}  # fmt: skip


class NanoChatTask:
    """NanoChat trained to predict the next token."""

    name = "nanochat"

    def __init__(self, config: NanoChatTrainConfig) -> None:
        self.config = config

    def check(self, dataset: Manifest) -> None:
        pass

    def build_model(self, vocab_size: int) -> nn.Module:
        model_config = self.config.model_config(vocab_size)
        if distributed.is_main():
            print(f"nanochat: {model_config.describe()}", flush=True)
        return NanoChat.from_config(model_config)

    def loss(self, model: nn.Module, batch: Batch[Any, Any]) -> Tensor[()]:
        logits = model(batch.inputs)
        loss: Tensor[()] = F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten())
        return loss

    def eval_nats(
        self, model: nn.Module, batch: Batch[B, T], generator: torch.Generator
    ) -> tuple[Tensor[B, T], Annotated[Tensor[B, T], Integer]]:
        assert isinstance(model, NanoChat)
        return model.nats(batch.inputs, batch.targets), batch.targets

    def metrics(self, val: Mapping[str, float]) -> dict[str, float]:
        return {}

    def sample(self, model: nn.Module, tokenizer: Tokenizer, generator: torch.Generator) -> str:
        config = self.config
        assert isinstance(model, NanoChat)
        prompt = torch.full((1, 1), tokenizer.bos_id, device=model.lm_head.weight.device)
        ids = model.generate(prompt, config.sample_tokens, temperature=config.temperature, top_k=config.top_k or None,
                             generator=generator)  # fmt: skip
        return "\n\n".join(decode_documents(tokenizer, ids[0].tolist()))


def parse_args(argv: Sequence[str] | None = None) -> NanoChatTrainConfig:
    return parse_config(NanoChatTrainConfig, PRESETS, argv, description=__doc__ or "")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    config = parse_args(argv)
    return train(NanoChatTask(config), config)


if __name__ == "__main__":
    run_worker(main)
