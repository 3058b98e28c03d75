"""Command line: ``python -m tyr.data {prepare,inspect} ...``.

Examples::

    # nanoGPT's shakespeare-char: character vocabulary, pre-tokenized shards
    python -m tyr.data prepare ../shared/data/tinyshakespeare.txt --out data/shakespeare_char

    # byte-level BPE with 4096 ids, raw text column tokenized by the loader
    python -m tyr.data prepare corpus/ --out data/corpus_bpe --tokenizer bpe --column text

    # summary, every shard's checksum and token range checked, a decoded sample
    python -m tyr.data inspect data/shakespeare_char --verify --sample 200
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tyr.data.errors import DataError
from tyr.data.manifest import load_manifest
from tyr.data.packing import with_bos
from tyr.data.prepare import prepare
from tyr.data.shards import SplitReader, verify_checksum


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on a data error)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "prepare":
            return _prepare(args)
        return _inspect(args)
    except DataError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tyr.data", description="Prepare and inspect tyr datasets.")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("prepare", help="turn text files, folders or URLs into Parquet shards")
    p.add_argument("sources", nargs="+", help="text files, folders of text files, or http(s):// / file:// URLs")
    p.add_argument("--out", required=True, help="dataset folder to create")
    p.add_argument("--tokenizer", choices=["char", "bpe"], default="char", help="default: char")
    p.add_argument("--vocab-size", type=int, default=4096, help="BPE ids including BOS (default: 4096)")
    p.add_argument("--column", choices=["tokens", "text"], default="tokens",
                   help="store tokens or text (default: tokens)")
    p.add_argument("--documents", choices=["file", "paragraph", "line"], default="paragraph",
                   help="document boundaries: a whole file, blank lines, or lines (default: paragraph)")
    p.add_argument("--val-fraction", type=float, default=0.1,
                   help="fraction of documents, from the end, for val (default: 0.1)")
    p.add_argument("--shard-size", type=int, default=100_000, help="documents per shard (default: 100000)")
    p.add_argument("--row-group-size", type=int, default=1024, help="documents per row group (default: 1024)")
    p.add_argument("--glob", default="*.txt", help="files to read from folders (default: *.txt)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing dataset in --out")
    p.add_argument("--quiet", action="store_true", help="no progress bars")

    i = commands.add_parser("inspect", help="summarise a dataset and optionally verify it")
    i.add_argument("folder", help="dataset folder")
    i.add_argument("--verify", action="store_true", help="check every shard's sha256, schema and token ids")
    i.add_argument("--sample", type=int, default=0, metavar="N", help="decode the first N tokens of train")
    return parser


def _prepare(args: argparse.Namespace) -> int:
    manifest = prepare(
        args.sources,
        args.out,
        tokenizer=args.tokenizer,
        vocab_size=args.vocab_size,
        column=args.column,
        documents=args.documents,
        val_fraction=args.val_fraction,
        shard_size=args.shard_size,
        row_group_size=args.row_group_size,
        glob=args.glob,
        overwrite=args.overwrite,
        progress=not args.quiet,
    )
    for name, split in manifest.splits.items():
        print(f"{name}: {split.documents:,} documents, {split.tokens:,} tokens in {len(split.shards)} shard(s)")
    print(f"wrote {args.out} ({manifest.tokenizer.kind} tokenizer, {manifest.tokenizer.vocab_size} ids)")
    return 0


def _inspect(args: argparse.Namespace) -> int:
    manifest = load_manifest(args.folder)
    tok = manifest.tokenizer
    print(f"dataset   {args.folder}  (from {', '.join(manifest.sources)})")
    print(f"tokenizer {tok.kind}, {tok.vocab_size} ids, BOS = {tok.bos_id}")
    dtype = f" ({manifest.token_dtype})" if manifest.column == "tokens" else ""
    print(f"column    {manifest.column}{dtype}, documents by {manifest.documents}")
    for name, split in manifest.splits.items():
        groups = sum(len(s.row_groups) for s in split.shards)
        print(
            f"{name:9} {split.documents:,} documents, {split.chars:,} chars, {split.tokens:,} tokens, "
            f"{len(split.shards)} shard(s), {groups} row group(s)"
        )
        if args.verify:
            reader = SplitReader(args.folder, name)
            for path, shard in zip(reader.paths, reader.info.shards, strict=True):
                verify_checksum(path, shard)
            for index in range(len(reader.units)):
                reader.read(index)
            reader.close()
            print(f"{'':9} verified: checksums, schema, lengths and token ids")
    if args.sample:
        reader = SplitReader(args.folder, "train")
        docs = reader.read(0)
        stream, _ = with_bos(docs.ids, docs.lengths, reader.tokenizer.bos_id)
        print("sample   ", repr(reader.tokenizer.decode(stream[: args.sample].astype("int64"))))
        reader.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
