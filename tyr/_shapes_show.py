"""The shape report, shown: text per function, JSON for tools, or the source with nanoGPT-style comments.

`commented(source, bindings)` appends `# (B, T, C)` to the last line of each
statement that binds a tensor (`# q: (B, T, C), k: ...` when it binds several).
Only comments are added, and only where a line may end in one (not inside a
string, not after a backslash), so the result parses to the same program.
"""

from __future__ import annotations

import io
import json
import tokenize
from collections.abc import Iterable

from tyr._shapes_collect import Binding, Report


def coverage(report: Report) -> tuple[int, int]:
    """(assignments with a fully known tensor shape, tensor-valued assignments)."""
    bindings = list(report.assignments())
    return sum(b.known for b in bindings), len(bindings)


def coverage_line(report: Report) -> str:
    known, total = coverage(report)
    share = f"{100 * known / total:.0f}%" if total else "n/a"
    return f"coverage: {known} of {total} tensor assignments have a fully known shape ({share})"


def text(report: Report) -> str:
    out: list[str] = []
    for file in report.files:
        out.append(f"{file.path}")
        for function in file.functions:
            if not function.bindings:
                continue
            out.append(f"  {function.name} (line {function.line})")
            width = max(len(b.name) for b in function.bindings)
            for b in function.bindings:
                role = "  (parameter)" if b.parameter else ""
                out.append(f"    {b.line:5}  {b.name:<{width}}  {b.shape}{role}")
    out.append(coverage_line(report))
    return "\n".join(out)


def as_json(report: Report) -> str:
    known, total = coverage(report)
    data = {
        "files": [
            {
                "path": str(file.path),
                "module": file.module,
                "functions": [
                    {
                        "name": function.name,
                        "line": function.line,
                        "bindings": [
                            {
                                "line": b.line,
                                "name": b.name,
                                "shape": b.shape,
                                "known": b.known,
                                "parameter": b.parameter,
                            }
                            for b in function.bindings
                        ],
                    }
                    for function in file.functions
                ],
            }
            for file in report.files
        ],
        "coverage": {"known": known, "assignments": total},
        "mypy_errors": len(report.errors),
    }
    return json.dumps(data, indent=2)


def commented(source: str, bindings: Iterable[Binding]) -> str:
    """`source` with each assignment's shapes as a comment at the end of its statement."""
    by_line: dict[int, list[Binding]] = {}
    for b in bindings:
        if not b.parameter:
            by_line.setdefault(b.end_line, []).append(b)
    lines = source.splitlines(keepends=True)
    open_ended = _lines_ending_a_line(source)
    for line_number, found in sorted(by_line.items()):
        if line_number not in open_ended or not 1 <= line_number <= len(lines):
            continue
        shapes = dict.fromkeys(f"{b.name}: {b.shape}" for b in found)
        note = found[0].shape if len(shapes) == 1 and len(found) == 1 else ", ".join(shapes)
        line = lines[line_number - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        lines[line_number - 1] = f"{body}  # {note}{ending}"
    return "".join(lines)


def _lines_ending_a_line(source: str) -> set[int]:
    """The lines whose end is the end of a line of code (a comment may follow there)."""
    ends = (tokenize.NEWLINE, tokenize.NL)
    return {t.start[0] for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type in ends}
