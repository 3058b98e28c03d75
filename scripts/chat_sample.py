"""Write text with the newest checkpoint of a NanoChat run, the prompt and each new token read through a KV cache.

    python -m scripts.chat_sample --run runs/nanochat --prompt "ROMEO:"
    python -m scripts.chat_sample --run runs/nanochat --prompt "ROMEO:" --tokens 100 --temperature 0 --no-cache

The run's config (saved in its checkpoints) rebuilds the model; the tokenizer is the dataset's
(`--data`, default: the folder the run was trained on). The prompt follows a BOS, as documents
do in training. `--no-cache` reads the whole text again for every token (the prompt and the
new tokens must then fit in the model's context); with the same `--seed` it writes the same text.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from scripts.train_nanochat import NanoChatTask, NanoChatTrainConfig
from tyr.checkpoint import latest_checkpoint, load_checkpoint, read_extra
from tyr.data import Tokenizer, decode_documents, load_tokenizer
from tyr.models.nanochat import NanoChat


def load_run(run: str | Path, data: str | None = None) -> tuple[NanoChat[Any, Any], Tokenizer]:
    """The model of a run's newest checkpoint (in eval mode) and its tokenizer."""
    checkpoint = latest_checkpoint(run)
    if checkpoint is None:
        raise SystemExit(f"error: {run} holds no checkpoint; train first: python -m scripts.train_nanochat --out {run} ...")
    saved = read_extra(checkpoint)["config"]
    known = {field.name for field in dataclasses.fields(NanoChatTrainConfig)}
    config = NanoChatTrainConfig(**{**{k: v for k, v in saved.items() if k in known}, "data": data or saved["data"]})
    tokenizer = load_tokenizer(config.data)
    model = NanoChatTask(config).build_model(tokenizer.vocab_size)
    assert isinstance(model, NanoChat)
    load_checkpoint(checkpoint, model=model, restore_rng=False)
    return model.eval(), tokenizer


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", required=True, help="the run directory (--out of train_nanochat)")
    parser.add_argument("--prompt", default="", help="text to continue (default: none, a new document)")
    parser.add_argument("--tokens", type=int, default=200, help="tokens to write (default 200)")
    parser.add_argument("--temperature", type=float, default=0.8, help="0: the likeliest token (default 0.8)")
    parser.add_argument("--top-k", type=int, default=50, help="draw among the k likeliest tokens (0: all; default 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-cache", action="store_true", help="read the whole text again for every token")
    parser.add_argument("--data", default=None, help="the dataset whose tokenizer to use (default: the run's)")
    args = parser.parse_args(argv)

    model, tokenizer = load_run(args.run, args.data)
    prompt = torch.tensor([tokenizer.encode(args.prompt, bos=True)])
    ids = model.generate(prompt, args.tokens, temperature=args.temperature, top_k=args.top_k or None,
                         generator=torch.Generator().manual_seed(args.seed), use_cache=not args.no_cache)  # fmt: skip
    text = "\n\n".join(decode_documents(tokenizer, ids[0].tolist()))
    print(text, flush=True)
    return text


if __name__ == "__main__":
    main()
