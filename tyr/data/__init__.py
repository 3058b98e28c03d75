"""tyr.data: Parquet datasets, tokenizers and a streaming, resumable loader.

Prepare a corpus once, then stream batches from it::

    python -m tyr.data prepare tinyshakespeare.txt --out data/shakespeare_char
    python -m tyr.data inspect data/shakespeare_char --verify

    from tyr.data import TokenLoader
    loader = TokenLoader("data/shakespeare_char", batch_size=12, seq_len=256)
    inputs, targets = next(loader)          # (12, 256) int64 each
    state = loader.state_dict()             # JSON-able; store it in the checkpoint

Modules: `prepare` (corpus -> shards), `tokenizers` (char and byte-level BPE),
`manifest` (the dataset's JSON description), `shards` (checked reading of row groups),
`packing` (documents -> rows), `schedule` (who reads what, resume state), `loader`
(the iterator, with background prefetch), `errors` (every error and its message).
"""

from tyr.data.errors import (
    CorruptShardError,
    DataError,
    InputError,
    ManifestError,
    MissingShardError,
    SchemaError,
    ShardError,
    StateError,
    TokenizerError,
    TokenRangeError,
)
from tyr.data.loader import Batch, TokenLoader
from tyr.data.manifest import Manifest, load_manifest
from tyr.data.prepare import prepare, split_documents
from tyr.data.shards import SplitReader
from tyr.data.tokenizers import (
    BOS_TEXT,
    BPETokenizer,
    CharTokenizer,
    Tokenizer,
    decode_documents,
    load_tokenizer,
    save_tokenizer,
)

__all__ = [
    "BOS_TEXT",
    "BPETokenizer",
    "Batch",
    "CharTokenizer",
    "CorruptShardError",
    "DataError",
    "InputError",
    "Manifest",
    "ManifestError",
    "MissingShardError",
    "SchemaError",
    "ShardError",
    "SplitReader",
    "StateError",
    "TokenLoader",
    "TokenRangeError",
    "Tokenizer",
    "TokenizerError",
    "decode_documents",
    "load_manifest",
    "load_tokenizer",
    "prepare",
    "save_tokenizer",
    "split_documents",
]
