"""Train a masked discrete diffusion language model on a dataset from `python -m tyr.data prepare`.

One process (CPU, or one GPU):
    python -m scripts.train_diffusion --data data/shakespeare_char --preset cpu --out runs/diffusion

Data parallel on N processes (DDP over gloo on CPU, NCCL on GPU):
    torchrun --nproc_per_node 2 -m scripts.train_diffusion --data data/shakespeare_char --preset cpu --out runs/diffusion2

The model (`tyr.models.diffusion`) is a bidirectional transformer with rotary positions. Each
training sequence is masked at its own rate t (rates spread evenly over the batch) and the loss
is the cross-entropy on the masked positions weighted by 1/t: the negative ELBO, an upper bound
on the negative log-likelihood. Validation reports it per token (`val_loss`), per byte
(`val_bpb`, bits) and per character (`val_nelbo`, nats), comparable with an autoregressive
GPT's loss on the same split. The sample at the end is written by iterative unmasking.

Presets: `tiny` (seconds; tests), `cpu` (nanoGPT's CPU budget: 4 layers, 4 heads, 128 wide,
context 64, batch 12, 2000 steps). Run the same command again to resume; Ctrl-C stops with a checkpoint.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import torch
from torch import nn

from tyr import Integer, Tensor
from tyr.data import Batch, Manifest, Tokenizer
from tyr.models.diffusion import DiffusionConfig, Estimator, MaskedDiffusionLM, Order, nelbo, nelbo_terms, sample
from tyr.train import TrainConfig, parse_config, train
from tyr.distributed import run_worker

B = TypeVar("B")
T = TypeVar("T")

TOKEN_IDS = {"uint16": 1 << 16, "uint32": 1 << 32}
"""How many ids a dataset's token column can hold, by its type."""


@dataclass(frozen=True, kw_only=True)
class DiffusionTrainConfig(TrainConfig):
    estimator: Estimator = "count"  # "count": exactly ceil(t T) masks, weight T/k; "rate": Bernoulli(t), 1/t
    skew: float = 0.0  # "count": draw k masks with probability ~ k^-skew (reweighted, still unbiased)
    tie_embeddings: bool = False  # the output is scored with the token table
    qk_norm: bool = False  # RMS-normalised queries and keys
    qk_gain: bool = False  # with qk_norm: learned gains (temperature) on them
    eval_samples: int = 2  # masking draws per validation sequence (the NELBO is an expectation)
    sampler: Order = "random"  # unmask in random order (the reverse process), or the most confident first
    sample_steps: int = 64  # unmasking rounds per sampled sequence
    temperature: float = 0.8
    top_k: int = 0  # 0: the whole distribution

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.eval_samples < 1 or self.sample_steps < 1:
            raise ValueError(
                f"eval_samples and sample_steps must be >= 1, got {self.eval_samples}, {self.sample_steps}"
            )


PRESETS: dict[str, dict[str, Any]] = {
    "tiny": dict(n_layer=2, n_head=2, n_embd=32, block_size=32, batch_size=8, max_steps=40, lr=3e-3,
                 warmup_steps=5, eval_interval=20, eval_batches=4, log_interval=5, checkpoint_interval=20,
                 sample_tokens=64, sample_steps=16, eval_samples=1),
    # nanoGPT's CPU budget (4 layers, 4 heads, 128 wide, context 64, batch 12, 2000 steps) with tyr's recipe:
    # Muon, normalised queries and keys, ReLU^2, a tied output, mask counts drawn ~ k^-0.5 (reweighted)
    "cpu": dict(optimizer="muon", muon_lr=0.02, lr=3e-3, activation="relu2", qk_norm=True, tie_embeddings=True,
                skew=0.5),
}  # fmt: skip


class DiffusionTask:
    """Masked diffusion: fill in masked tokens; the loss is the NELBO."""

    name = "diffusion"

    def __init__(self, config: DiffusionTrainConfig) -> None:
        self.config = config
        self.mask_id = -1  # the tokenizer's vocabulary size, known once build_model is called

    def check(self, dataset: Manifest) -> None:
        vocab, room = dataset.tokenizer.vocab_size, TOKEN_IDS.get(dataset.token_dtype, 1 << 32)
        if vocab >= room:
            raise ValueError(
                f"no room for MASK: masked diffusion adds MASK as id {vocab}, one past the tokenizer's last, "
                f"but this dataset stores token ids as {dataset.token_dtype}, which holds {room:,} ids "
                f"(0..{room - 1}), and its tokenizer already uses all {vocab:,}. Prepare the dataset with "
                f"`python -m tyr.data prepare ... --vocab-size {room - 1}` (or fewer)."
            )

    def build_model(self, vocab_size: int) -> nn.Module:
        config, self.mask_id = self.config, vocab_size
        model_config = DiffusionConfig(vocab_size=vocab_size, block_size=config.block_size, n_layer=config.n_layer,
                                       n_head=config.n_head, n_embd=config.n_embd, dropout=config.dropout,
                                       activation=config.activation, tie_embeddings=config.tie_embeddings,
                                       qk_norm=config.qk_norm, qk_gain=config.qk_gain)  # fmt: skip
        return MaskedDiffusionLM.from_config(model_config)

    def loss(self, model: nn.Module, batch: Batch[Any, Any]) -> Tensor[()]:
        x = batch.inputs
        per_sequence = nelbo(model, x, mask_id=self.mask_id, estimator=self.config.estimator, skew=self.config.skew)
        mean: Tensor[()] = per_sequence.sum() / x.numel()  # nats per token
        return mean

    def eval_nats(
        self, model: nn.Module, batch: Batch[B, T], generator: torch.Generator
    ) -> tuple[Tensor[B, T], Annotated[Tensor[B, T], Integer]]:
        x = batch.inputs
        total = torch.zeros(x.shape, device=x.device)
        for _ in range(self.config.eval_samples):
            total += nelbo_terms(model, x, mask_id=self.mask_id, generator=generator, estimator=self.config.estimator)
        mean: Tensor[B, T] = total / self.config.eval_samples
        return mean, x

    def metrics(self, val: Mapping[str, float]) -> dict[str, float]:
        per_char = val["val_nats_per_char"]
        return {"val_nelbo": per_char, "val_bits_per_char": per_char / math.log(2)}

    def sample(self, model: nn.Module, tokenizer: Tokenizer, generator: torch.Generator) -> str:
        config = self.config
        device = next(model.parameters()).device
        rows = max(1, math.ceil(config.sample_tokens / config.block_size))
        prompt = torch.full((rows, config.block_size), self.mask_id, device=device)
        prompt[:, 0] = tokenizer.bos_id  # start at the beginning of a paragraph
        ids = sample(model, prompt, mask_id=self.mask_id, steps=config.sample_steps, order=config.sampler,
                     temperature=config.temperature, top_k=config.top_k or None, generator=generator)  # fmt: skip
        texts = [tokenizer.decode(row[1:]).replace("<|bos|>", "\n\n") for row in ids.tolist()]
        return "\n[...]\n".join(texts)


TASK = DiffusionTask
"""The task this trainer runs (`python -m tyr verify` finds it here)."""


def parse_args(argv: Sequence[str] | None = None) -> DiffusionTrainConfig:
    return parse_config(DiffusionTrainConfig, PRESETS, argv, description=__doc__ or "")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    config = parse_args(argv)
    return train(DiffusionTask(config), config)


if __name__ == "__main__":
    run_worker(main)
