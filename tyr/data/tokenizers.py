"""Tokenizers: character-level and byte-level BPE, behind one protocol.

Both tokenizers append one special token, BOS (beginning of sequence), after their
ordinary vocabulary, so `bos_id == vocab_size - 1`. BOS is never produced by encoding
text: the literal string ``"<|bos|>"`` inside a document is encoded as ordinary text,
so a document cannot forge a document boundary. `decode` renders BOS as ``"<|bos|>"``.

Round trips are exact: ``tok.decode(tok.encode(text)) == text`` for every text a
character tokenizer knows all characters of, and for every text with BPE.

A tokenizer is saved as one JSON file (``tokenizer.json`` next to a dataset's shards)::

    {"format": "tyr.tokenizer/1", "kind": "char", "bos": "<|bos|>", "chars": "\\n !...z"}
    {"format": "tyr.tokenizer/1", "kind": "bpe",  "bos": "<|bos|>", "hf": {...}}

where ``hf`` is the `tokenizers` library's own serialisation of the BPE model.

Example:
    >>> tok = CharTokenizer.train(["hello world"])
    >>> tok.vocab_size, tok.bos_id
    (9, 8)
    >>> tok.decode(tok.encode("hello", bos=True))
    '<|bos|>hello'
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers, trainers

from tyr.data.errors import BAD_TOKENIZER, UNKNOWN_CHARS, TokenizerError

BOS_TEXT = "<|bos|>"
TOKENIZER_FILE = "tokenizer.json"
FORMAT = "tyr.tokenizer/1"

IntArray = npt.NDArray[np.int64]


@runtime_checkable
class Tokenizer(Protocol):
    """What loaders, `prepare` and trainers need from a tokenizer."""

    @property
    def kind(self) -> str:
        """Short name saved in the manifest: ``"char"`` or ``"bpe"``."""
        ...

    @property
    def vocab_size(self) -> int:
        """Number of token ids, BOS included; ids are ``0 .. vocab_size - 1``."""
        ...

    @property
    def bos_id(self) -> int:
        """Id of the BOS token, always ``vocab_size - 1``."""
        ...

    def encode(self, text: str, *, bos: bool = False) -> list[int]:
        """Token ids of `text`, preceded by BOS if `bos` (default False)."""
        ...

    def encode_flat(self, texts: Sequence[str]) -> tuple[IntArray, IntArray]:
        """Encode many texts at once: ``(ids, lengths)``.

        ``ids`` has shape (sum(lengths),): the texts' tokens one after the other, no BOS.
        ``lengths`` has shape (len(texts),): how many tokens each text has.
        """
        ...

    def decode(self, ids: Sequence[int] | IntArray) -> str:
        """Text of token ids (shape (N,)); BOS is rendered as ``"<|bos|>"``."""
        ...

    def token_bytes(self) -> IntArray:
        """Shape (vocab_size,): the UTF-8 bytes of text each id stands for; 0 for BOS, which is no text.

        Bits per byte divide a loss by these (``sum(token_bytes[ids])`` is the length in bytes
        of the text of `ids`), so that models with different tokenizers compare.
        """
        ...

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict from which `tokenizer_from_json` rebuilds this tokenizer."""
        ...


class CharTokenizer:
    """One token per Unicode character, with the exact vocabulary of a corpus.

    As nanoGPT's shakespeare-char: ids are the corpus's distinct characters in code-point
    order (``"\\n" -> 0, " " -> 1, ...``), then BOS. Encoding is vectorised with numpy.

    Args:
        chars: the vocabulary, distinct characters in any order (sorted on construction).
    """

    kind = "char"

    def __init__(self, chars: str) -> None:
        ordered = sorted(set(chars))
        if len(ordered) != len(chars):
            raise TokenizerError(f"CharTokenizer vocabulary repeats characters: {chars!r}")
        if not ordered:
            raise TokenizerError("CharTokenizer needs at least one character")
        self.chars = "".join(ordered)
        self._codes = np.array([ord(c) for c in ordered], dtype=np.uint32)
        self._table = np.array(list(ordered) + [BOS_TEXT], dtype=object)

    @classmethod
    def train(cls, texts: Iterable[str]) -> CharTokenizer:
        """The tokenizer whose vocabulary is every character occurring in `texts`."""
        seen: set[str] = set()
        for text in texts:
            seen.update(text)
        return cls("".join(seen))

    @property
    def vocab_size(self) -> int:
        return len(self.chars) + 1

    @property
    def bos_id(self) -> int:
        return len(self.chars)

    def encode(self, text: str, *, bos: bool = False) -> list[int]:
        ids, _ = self.encode_flat([text])
        prefix = [self.bos_id] if bos else []
        return prefix + [int(i) for i in ids]

    def encode_flat(self, texts: Sequence[str]) -> tuple[IntArray, IntArray]:
        lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
        codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype="<u4")
        ids = np.searchsorted(self._codes, codes).astype(np.int64)
        known = self._codes[np.minimum(ids, len(self._codes) - 1)] == codes
        if not known.all():
            bad = np.flatnonzero(~known)
            raise TokenizerError(
                UNKNOWN_CHARS.format(count=len(bad), first=chr(int(codes[bad[0]])), index=int(bad[0]))
            )
        return ids, lengths

    def decode(self, ids: Sequence[int] | IntArray) -> str:
        array = np.asarray(ids, dtype=np.int64)
        _check_ids(array, self.vocab_size)
        return "".join(self._table[array].tolist())

    def token_bytes(self) -> IntArray:
        return np.array([len(c.encode("utf-8")) for c in self.chars] + [0], dtype=np.int64)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "kind": self.kind, "bos": BOS_TEXT, "chars": self.chars}


class BPETokenizer:
    """Byte-level BPE (GPT-2 style) trained on a corpus, using HuggingFace `tokenizers`.

    Text is split with the GPT-2 pre-tokenizer regex and encoded as bytes, so any text
    encodes (no unknown tokens) and decodes back exactly. No normaliser is applied.

    Args:
        model: a trained `tokenizers.Tokenizer` with a byte-level BPE model and decoder
            and no added tokens; BOS is appended after its vocabulary.
    """

    kind = "bpe"

    def __init__(self, model: HFTokenizer) -> None:
        self._model = model

    @classmethod
    def train(cls, texts: Iterable[str], vocab_size: int = 4096, *, length: int | None = None) -> BPETokenizer:
        """Learn merges from `texts` until there are `vocab_size` ids (BOS included).

        Args:
            texts: the training corpus, one document per item.
            vocab_size: total number of ids, BOS included (default 4096); at least 258
                (256 byte tokens, one merge, BOS).
            length: number of items in `texts`, only used for progress reporting.
        """
        if vocab_size < 258:
            raise TokenizerError(f"BPE vocab_size must be at least 258 (256 bytes + 1 merge + BOS), got {vocab_size}")
        model = HFTokenizer(models.BPE())
        model.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        model.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size - 1,
            special_tokens=[],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        )
        model.train_from_iterator(texts, trainer, length=length)
        return cls(model)

    @property
    def vocab_size(self) -> int:
        return int(self._model.get_vocab_size()) + 1

    @property
    def bos_id(self) -> int:
        return self.vocab_size - 1

    def encode(self, text: str, *, bos: bool = False) -> list[int]:
        prefix = [self.bos_id] if bos else []
        return prefix + list(self._model.encode(text).ids)

    def encode_flat(self, texts: Sequence[str]) -> tuple[IntArray, IntArray]:
        lists = [e.ids for e in self._model.encode_batch_fast(list(texts))]  # no character offsets
        lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        ids = np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64, count=int(lengths.sum()))
        return ids, lengths

    def decode(self, ids: Sequence[int] | IntArray) -> str:
        array = np.asarray(ids, dtype=np.int64)
        _check_ids(array, self.vocab_size)
        cuts = np.flatnonzero(array == self.bos_id)
        pieces = np.split(array, cuts)
        texts = [self._model.decode(pieces[0].tolist(), skip_special_tokens=False)]
        texts += [self._model.decode(p[1:].tolist(), skip_special_tokens=False) for p in pieces[1:]]
        return BOS_TEXT.join(texts)

    def token_bytes(self) -> IntArray:
        # A byte-level token is spelled with one character per byte (GPT-2's byte alphabet).
        spelled = (self._model.id_to_token(i) for i in range(self.vocab_size - 1))
        return np.array([len(token or "") for token in spelled] + [0], dtype=np.int64)

    def to_json(self) -> dict[str, Any]:
        hf: dict[str, Any] = json.loads(self._model.to_str())
        return {"format": FORMAT, "kind": self.kind, "bos": BOS_TEXT, "hf": hf}


def decode_documents(tokenizer: Tokenizer, ids: Sequence[int]) -> list[str]:
    """The texts of the documents in `ids`, cut at each BOS; empty ones are left out.

    Example:
        >>> tok = CharTokenizer.train(["ab"])
        >>> decode_documents(tok, [tok.bos_id, 0, 1, tok.bos_id, tok.bos_id, 1])
        ['ab', 'b']
    """
    cuts = [i for i, token in enumerate(ids) if token == tokenizer.bos_id]
    pieces = [ids[start + 1 : end] for start, end in zip([-1, *cuts], [*cuts, len(ids)])]
    return [tokenizer.decode(piece) for piece in pieces if len(piece)]


def _check_ids(ids: IntArray, vocab_size: int) -> None:
    if ids.size and (ids.min() < 0 or ids.max() >= vocab_size):
        bad = ids[(ids < 0) | (ids >= vocab_size)][0]
        raise TokenizerError(f"Cannot decode token id {int(bad)}: ids must lie in [0, {vocab_size}).")


def tokenizer_from_json(data: dict[str, Any], *, source: str = "<json>") -> Tokenizer:
    """Rebuild a tokenizer from what its `to_json` returned.

    Raises:
        TokenizerError: `data` is not a tokenizer (wrong format, unknown kind, bad fields).
    """

    def fail(reason: str) -> TokenizerError:
        return TokenizerError(BAD_TOKENIZER.format(path=source, reason=reason))

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f"expected a JSON object with format {FORMAT!r}")
    if data.get("bos") != BOS_TEXT:
        raise fail(f"expected bos {BOS_TEXT!r}, got {data.get('bos')!r}")
    kind = data.get("kind")
    if kind == "char":
        chars = data.get("chars")
        if not isinstance(chars, str):
            raise fail("'chars' must be a string")
        return CharTokenizer(chars)
    if kind == "bpe":
        hf = data.get("hf")
        if not isinstance(hf, dict):
            raise fail("'hf' must be a JSON object")
        try:
            model = HFTokenizer.from_str(json.dumps(hf))
        except Exception as error:  # the Rust library raises plain Exception
            raise fail(f"the BPE model does not load: {error}") from error
        return BPETokenizer(model)
    raise fail(f"unknown kind {kind!r}; expected 'char' or 'bpe'")


def save_tokenizer(tokenizer: Tokenizer, path: str | Path) -> Path:
    """Write `tokenizer` as JSON to `path` (a file, or a folder to hold ``tokenizer.json``)."""
    target = Path(path)
    if target.is_dir():
        target = target / TOKENIZER_FILE
    target.write_text(json.dumps(tokenizer.to_json(), ensure_ascii=False), encoding="utf-8")
    return target


def load_tokenizer(path: str | Path) -> Tokenizer:
    """Read a tokenizer saved by `save_tokenizer`.

    Args:
        path: the JSON file, or a dataset folder holding ``tokenizer.json``.

    Raises:
        TokenizerError: the file is missing or is not a tokenizer.
    """
    source = Path(path)
    if source.is_dir():
        source = source / TOKENIZER_FILE
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise TokenizerError(BAD_TOKENIZER.format(path=source, reason="file not found")) from error
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise TokenizerError(BAD_TOKENIZER.format(path=source, reason=str(error))) from error
    return tokenizer_from_json(data, source=str(source))
