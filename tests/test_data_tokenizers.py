"""Tokenizers: exact round trips, BOS, save/load, and errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tyr.data import (
    BOS_TEXT,
    BPETokenizer,
    CharTokenizer,
    TokenizerError,
    decode_documents,
    load_tokenizer,
    save_tokenizer,
)
from tests.conftest import CORPUS

SMALL = "First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak. 🤖 héllo\r\n"


@pytest.fixture(scope="module")
def bpe() -> BPETokenizer:
    texts = [SMALL * 3, "the quick brown fox jumps over the lazy dog " * 20, "ünïcödé ✓ 漢字 " * 10]
    return BPETokenizer.train(texts, vocab_size=300)


def test_char_vocabulary_is_the_corpus_characters_then_bos() -> None:
    text = CORPUS.read_text(encoding="utf-8")
    tok = CharTokenizer.train([text])
    assert tok.chars == "".join(sorted(set(text)))
    assert (tok.vocab_size, tok.bos_id) == (66, 65)  # 65 characters, as nanoGPT's shakespeare-char
    assert tok.encode("\n !") == [0, 1, 2]
    assert tok.decode(tok.encode(text)) == text


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=SMALL, max_size=200))
def test_char_round_trip(text: str) -> None:
    tok = CharTokenizer.train([SMALL])
    ids = tok.encode(text)
    assert tok.decode(ids) == text
    assert tok.decode(tok.encode(text, bos=True)) == BOS_TEXT + text


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_bpe_round_trips_any_text(bpe: BPETokenizer, text: str) -> None:
    ids = bpe.encode(text)
    assert all(0 <= i < bpe.bos_id for i in ids)
    assert bpe.decode(ids) == text


def test_bos_is_never_produced_by_text(bpe: BPETokenizer) -> None:
    char = CharTokenizer.train([SMALL + BOS_TEXT])
    for tok in (char, bpe):
        ids = tok.encode(f"a{BOS_TEXT}b")
        assert tok.bos_id not in ids
        assert tok.decode(ids) == f"a{BOS_TEXT}b"
        two_docs = tok.encode("ab", bos=True) + tok.encode("cd", bos=True)
        assert two_docs.count(tok.bos_id) == 2
        assert tok.decode(two_docs) == f"{BOS_TEXT}ab{BOS_TEXT}cd"
        assert tok.bos_id == tok.vocab_size - 1


def test_bpe_compresses_and_has_the_requested_size(bpe: BPETokenizer) -> None:
    assert bpe.vocab_size == 300
    text = "the quick brown fox jumps over the lazy dog"
    assert len(bpe.encode(text)) < len(text.encode("utf-8")) / 2


def test_encode_flat_matches_encode(bpe: BPETokenizer) -> None:
    texts = ["hello", "", "Speak, speak.", "🤖"]
    char = CharTokenizer.train(texts)
    for tok in (char, bpe):
        ids, lengths = tok.encode_flat(texts)
        assert ids.dtype == np.int64 and lengths.tolist() == [len(tok.encode(t)) for t in texts]
        assert ids.tolist() == [i for t in texts for i in tok.encode(t)]


def test_save_and_load_round_trip(tmp_path: Path, bpe: BPETokenizer) -> None:
    char = CharTokenizer.train([SMALL])
    for name, tok in (("char.json", char), ("bpe.json", bpe)):
        path = save_tokenizer(tok, tmp_path / name)
        loaded = load_tokenizer(path)
        assert type(loaded) is type(tok) and loaded.vocab_size == tok.vocab_size
        assert loaded.encode(SMALL, bos=True) == tok.encode(SMALL, bos=True)
    save_tokenizer(char, tmp_path)  # a folder gets tokenizer.json
    assert load_tokenizer(tmp_path).encode("hear") == char.encode("hear")


def test_unknown_character_is_a_clear_error() -> None:
    tok = CharTokenizer.train(["abc"])
    with pytest.raises(TokenizerError, match=r"1 character\(s\) missing .* first 'z' at index 2"):
        tok.encode("abz")


def test_decode_rejects_ids_outside_the_vocabulary(bpe: BPETokenizer) -> None:
    for tok in (CharTokenizer.train(["abc"]), bpe):
        message = rf"token id {tok.vocab_size}: ids must lie in \[0, {tok.vocab_size}\)"
        with pytest.raises(TokenizerError, match=message):
            tok.decode([0, tok.vocab_size])


def test_bad_tokenizer_files(tmp_path: Path) -> None:
    with pytest.raises(TokenizerError, match="file not found"):
        load_tokenizer(tmp_path / "missing.json")
    (tmp_path / "garbage.json").write_text("{not json")
    with pytest.raises(TokenizerError, match="not a valid tyr.data tokenizer"):
        load_tokenizer(tmp_path / "garbage.json")
    wordpiece = {"format": "tyr.tokenizer/1", "bos": BOS_TEXT, "kind": "wordpiece"}
    (tmp_path / "kind.json").write_text(json.dumps(wordpiece))
    with pytest.raises(TokenizerError, match="unknown kind 'wordpiece'"):
        load_tokenizer(tmp_path / "kind.json")
    with pytest.raises(TokenizerError, match="at least 258"):
        BPETokenizer.train(["abc"], vocab_size=100)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_token_bytes_add_up_to_the_text_in_utf8(bpe: BPETokenizer, text: str) -> None:
    table = bpe.token_bytes()
    assert table.shape == (bpe.vocab_size,) and table[bpe.bos_id] == 0 and (table[:-1] > 0).all()
    assert int(table[bpe.encode(text, bos=True)].sum()) == len(text.encode("utf-8"))  # BOS is no text


def test_char_token_bytes_count_multibyte_characters() -> None:
    tok = CharTokenizer.train([SMALL])
    table = tok.token_bytes()
    assert table[tok.encode("a🤖é")].tolist() == [1, 4, 2] and table[tok.bos_id] == 0


def test_decode_documents_cuts_at_bos(bpe: BPETokenizer) -> None:
    ids = bpe.encode("ab", bos=True) + bpe.encode("", bos=True) + bpe.encode("cd é", bos=True)
    assert decode_documents(bpe, ids) == ["ab", "cd é"]
    assert decode_documents(bpe, bpe.encode("no boundary")) == ["no boundary"]
