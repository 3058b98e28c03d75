"""The jaxtyping corpus run twice: under jaxtyping's own checker and under `tyr.checked`, with the same verdicts.

The programs in `tests/mypy_corpus/jaxtyping/` are checked by mypy in the mypy corpus
run (`test_mypy_corpus.py`: every bug flagged on its line, nothing else).  Here each
is executed one top-level statement at a time, as written (`@jaxtyped(typechecker=
beartype)`), and again with `jaxtyped(...)` standing for `tyr.checked`.  A statement
marked `# raises` must raise in both runs, and no other statement may raise.
"""

from __future__ import annotations

import ast
import tokenize
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tyr

CORPUS = Path(__file__).resolve().parent / "mypy_corpus" / "jaxtyping"
PROGRAMS = sorted(CORPUS.glob("*.py"))


def marked_lines(path: Path) -> set[int]:
    """The lines whose comment says `# raises`."""
    with path.open("rb") as source:
        return {t.start[0] for t in tokenize.tokenize(source.readline) if t.type == tokenize.COMMENT and "# raises" in t.string}


def _as_tyr(fn: Any = None, *, typechecker: object = None) -> Any:
    """`jaxtyped` as tyr: `@jaxtyped(typechecker=beartype)` becomes `@tyr.checked`."""
    return tyr.checked if fn is None else tyr.checked(fn)


def raising_lines(path: Path, decorate: Callable[..., Any] | None) -> dict[int, str]:
    """Run the program statement by statement; the first lines of those that raised, with the error.

    `decorate`: what the program's `jaxtyped` is replaced by (None: jaxtyping's own).
    """
    tree = ast.parse(path.read_text(), str(path))
    namespace: dict[str, Any] = {"__name__": f"jaxtyping_corpus.{path.stem}"}
    raised: dict[int, str] = {}
    for statement in tree.body:
        code = compile(ast.Module([statement], type_ignores=[]), str(path), "exec", dont_inherit=True)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (beartype's deprecation notes on `typing.Tuple` are no verdict)
                exec(code, namespace)
        except Exception as err:
            raised[statement.lineno] = f"{type(err).__name__}: {str(err)[:200]}"
        if decorate is not None and "jaxtyped" in namespace:
            namespace["jaxtyped"] = decorate
    return raised


def test_corpus_size() -> None:
    """At least 30 programs; 10 of them correct through and through, and 25 bugs marked in the others."""
    clean = [p for p in PROGRAMS if "# E:" not in p.read_text() and not marked_lines(p)]
    bugs = sum(p.read_text().count("# E:") + len(marked_lines(p)) for p in PROGRAMS)
    assert len(PROGRAMS) >= 30 and len(clean) >= 10 and bugs >= 25


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_same_verdicts(program: Path) -> None:
    expected = marked_lines(program)
    jaxtyping = raising_lines(program, None)
    checked = raising_lines(program, _as_tyr)
    assert jaxtyping.keys() == expected, f"jaxtyping raised {jaxtyping}; marked: {sorted(expected)}"
    assert checked.keys() == expected, f"tyr.checked raised {checked}; marked: {sorted(expected)}"
