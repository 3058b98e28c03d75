"""Errors raised by `tyr.data`, and the messages they carry.

Every message says what was found, why it is a problem, and what to do about it.
The messages are named constants so that tests and readers can find them.

All errors derive from `DataError`, so `except DataError` catches every problem with
a dataset; the subclasses let a caller tell a bad input from a damaged shard.
"""

from __future__ import annotations

from pathlib import Path


class DataError(Exception):
    """Base class of every error raised by `tyr.data`."""


class InputError(DataError):
    """A corpus handed to `prepare` cannot be used (missing, empty, not UTF-8, ...)."""


class ManifestError(DataError):
    """A dataset's `manifest.json` is missing, unreadable or inconsistent."""


class TokenizerError(DataError):
    """A tokenizer file is missing or invalid, or text cannot be encoded with it."""


class ShardError(DataError):
    """A Parquet shard is missing, damaged, or does not match the manifest.

    Attributes:
        path: the shard file at fault.
    """

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class MissingShardError(ShardError):
    """A shard listed in the manifest is not on disk."""


class CorruptShardError(ShardError):
    """A shard's bytes are damaged: wrong size or checksum, unreadable, or inconsistent."""


class SchemaError(ShardError):
    """A shard lacks a column the manifest promises, or the column has the wrong type."""


class TokenRangeError(ShardError):
    """A shard holds a token id outside the tokenizer's vocabulary."""


class StateError(DataError):
    """A loader state cannot be restored into this loader (different data or settings)."""


# --- prepare: inputs -------------------------------------------------------------------

MISSING_INPUT = "Input {source!r} does not exist. Pass a text file, a folder of text files, or a URL."
EMPTY_INPUT = (
    "Input {source!r} is empty ({detail}): there is nothing to prepare. "
    "Check the path, or pass --glob to choose which files of a folder to read."
)
NOT_UTF8 = (
    "Input {source!r} is not valid UTF-8 (byte {offset}: {reason}). "
    "Convert it first, e.g. `iconv -f latin1 -t utf-8 in.txt > out.txt`."
)
DOWNLOAD_FAILED = "Could not download {url!r}: {reason}. Download it by hand and pass the local file instead."
TOO_FEW_DOCUMENTS = (
    "The corpus splits into {count} document(s) with documents={documents!r}, but a "
    "train/validation split with val_fraction={val_fraction} needs at least 2. "
    "Use documents='paragraph' or 'line' to cut the text into more documents, or val_fraction=0."
)
OUTPUT_EXISTS = (
    "Output folder {out!r} already holds a dataset. Pass overwrite=True (--overwrite) to "
    "replace it; the old dataset is only removed once the new one is complete."
)

# --- manifest --------------------------------------------------------------------------

MISSING_MANIFEST = (
    "{path} does not exist: {folder!r} is not a prepared dataset. "
    "Create one with `python -m tyr.data prepare CORPUS --out {folder}`."
)
BAD_MANIFEST = "{path} is not a valid tyr.data manifest ({reason}). Re-run `python -m tyr.data prepare`."
UNKNOWN_SPLIT = "Dataset {folder!r} has no split {split!r}; it has {available}."

# --- tokenizers ------------------------------------------------------------------------

BAD_TOKENIZER = "{path} is not a valid tyr.data tokenizer file ({reason})."
TOKENIZER_CHANGED = (
    "{path} does not match the manifest (sha256 {actual} != {expected}): the shards were "
    "written with another tokenizer. Restore the file or re-run `python -m tyr.data prepare`."
)
UNKNOWN_CHARS = (
    "Cannot encode {count} character(s) missing from the character vocabulary, first {first!r} "
    "at index {index}. A character tokenizer only knows the characters of the corpus it was "
    "built from; build it from a corpus that includes this text, or use the BPE tokenizer."
)

# --- shards ----------------------------------------------------------------------------

MISSING_SHARDS = (
    "{count} shard(s) of split {split!r} are missing: {files}. Restore them, or re-run "
    "`python -m tyr.data prepare` to rebuild the dataset in {folder!r}."
)
SHARD_SIZE_CHANGED = (
    "Shard {path} is {actual} bytes but the manifest says {expected}: the file is truncated "
    "or was replaced. Restore it, or re-run `python -m tyr.data prepare`."
)
SHARD_CHECKSUM = (
    "Shard {path} is corrupt: its sha256 is {actual}, the manifest says {expected}. "
    "Restore it, or re-run `python -m tyr.data prepare`."
)
CORRUPT_SHARD = (
    "Shard {path} is corrupt ({reason}). Restore it, or re-run `python -m tyr.data prepare`; "
    "`python -m tyr.data inspect {folder} --verify` checks every shard."
)
SHARD_LAYOUT = (
    "Shard {path} does not match the manifest ({detail}): it was modified or belongs to "
    "another dataset. Restore it, or re-run `python -m tyr.data prepare`."
)
WRONG_COLUMN = (
    "Shard {path} has columns {found} but the manifest promises {expected}. Shards must be "
    "written by `python -m tyr.data prepare`, which stores either `text` or `tokens`, "
    "always with `num_tokens`."
)
TOKEN_OUT_OF_RANGE = (
    "Shard {path}, row group {row_group}, document {row}: token id {token} is outside the "
    "tokenizer's vocabulary [0, {vocab_size}). The shard was written with another tokenizer "
    "or is damaged; re-run `python -m tyr.data prepare`."
)
LENGTH_MISMATCH = (
    "Shard {path}, row group {row_group}, document {row}: {actual} tokens but `num_tokens` "
    "says {expected}. {hint}"
)

# --- loader ----------------------------------------------------------------------------

TOO_FEW_DOCUMENTS_FOR_STREAMS = (
    "Split {split!r} has {documents} document(s) but the loader deals documents to "
    "{streams} streams, and every stream needs at least one. Use fewer streams (and ranks), "
    "or prepare the data with a larger --val-fraction."
)
TOO_FEW_STREAMS = (
    "world_size={world_size} is larger than streams={streams}: each rank reads whole "
    "streams, so a rank would get nothing. Use streams >= world_size (a multiple of every "
    "world size you will run with lets a checkpoint resume on any of them)."
)
NO_COMPLETE_ROWS = (
    "Stream {stream} of split {split!r} holds no complete row of seq_len+1={row_len} tokens "
    "in epoch {epoch}: its row groups are too small for align={align!r}. Use a smaller "
    "seq_len, align='none', or prepare the data with a larger --row-group-size."
)
STATE_MISMATCH = (
    "Cannot restore this loader state: {field} was {saved!r} when it was saved but is "
    "{current!r} now. Resuming exactly needs the same dataset, split, seq_len, align, order, "
    "seed and streams; batch_size and world size may change."
)
BAD_STATE = "Not a tyr.data loader state ({reason}); pass what `TokenLoader.state_dict()` returned."
