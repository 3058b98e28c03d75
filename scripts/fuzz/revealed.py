"""Reading mypy's revealed types as shapes, and comparing them with what torch computed.

mypy prints a shaped tensor as `torch._tensor.Tensor[B, Literal[8], Any]`, a computed size as
`tyr._static.DimExpr[Literal['D//2'], D]`, a tensor of unknown shape as
`torch._tensor.Tensor[*tuple[Any, ...]]`, a size as a value as `tyr._static.Dim[B]`,
`Literal[16]` or `builtins.int`, and either of two as `A | B`.  `parse` turns such text into a
`Revealed`; `judge` evaluates it at the program's sizes and says whether torch agrees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tyr._symbolic import Expr, ExprSyntaxError, const, parse as parse_size, sym

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|(?P<num>-?\d+)|(?P<ell>\.\.\.)"
    r"|(?P<name>[A-Za-z_][\w.`]*\??)|(?P<punct>[\[\],*|()=]))"
)


@dataclass
class Node:
    """One parsed type: `name[args]` (args None when not subscripted), a literal, `*inner`, or a union."""

    name: str
    args: list[Node] | None = None
    star: bool = False
    union: list[Node] | None = None


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens: list[str] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                raise ValueError(f"cannot read type {text!r} at {pos}")
            self.tokens.append(match.group(match.lastgroup or 0))
            pos = match.end()
        self.i = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or expected is not None and token != expected:
            raise ValueError(f"expected {expected!r}, found {token!r}")
        self.i += 1
        return token

    def union(self) -> Node:
        items = [self.item()]
        while self.peek() == "|":
            self.take("|")
            items.append(self.item())
        return items[0] if len(items) == 1 else Node("|", union=items)

    def item(self) -> Node:
        if self.peek() == "*":
            self.take("*")
            inner = self.item()
            return Node(inner.name, inner.args, star=True)
        if self.peek() == "(":
            self.take("(")
            self.take(")")
            return Node("()")
        token = self.take()
        node = Node(token)
        if self.peek() == "[":
            self.take("[")
            node.args = []
            while self.peek() != "]":
                if self.i + 1 < len(self.tokens) and self.tokens[self.i + 1] == "=":
                    self.take()  # `fallback=...`: not a shape
                    self.take("=")
                    self.union()
                else:
                    node.args.append(self.union())
                if self.peek() == ",":
                    self.take(",")
            self.take("]")
        return node


def parse_type(text: str) -> Node:
    parser = _Parser(text)
    node = parser.union()
    if parser.peek() is not None:
        raise ValueError(f"trailing text in type {text!r}")
    return node


# -- shapes ------------------------------------------------------------------------------------


@dataclass
class Revealed:
    """A revealed type read as a shape or a size.

    kind: "tensor" (`head` dims, then any number of unknown dims if `variadic`, then `tail`),
    "int" (`size`), "any", "union" (`items`), or "other" (`text`).  A size is an `Expr` over
    the type variables' names, or None where it is unknown.
    """

    kind: str
    text: str
    head: list[Expr | None] = field(default_factory=list)
    variadic: bool = False
    tail: list[Expr | None] = field(default_factory=list)
    size: Expr | None = None
    items: list[Revealed] = field(default_factory=list)
    each: list[Expr | None] | None = None  # `*tuple[B | 8, ...]`: what every one of the unknown many dims is


def _clean(name: str) -> str:
    return name.split("`")[0].rstrip("?").split(".")[-1]


def _dim(node: Node) -> Expr | None:
    """A size from a type argument: `Literal[8]`, `B`, `DimExpr[Literal['D//2'], D]`, `Any` (None)."""
    short = _clean(node.name)
    if short == "Literal" and node.args and len(node.args) == 1:
        value = node.args[0].name
        if re.fullmatch(r"-?\d+", value):
            return const(int(value))
        return None
    if short == "DimExpr" and node.args:
        template = node.args[0]
        if _clean(template.name) == "Literal" and template.args:
            text = template.args[0].name.strip("'\"")
            try:
                return parse_size(text)
            except (ExprSyntaxError, ZeroDivisionError):
                return None
        return None
    if short == "Dim" and node.args and len(node.args) == 1:
        return _dim(node.args[0])
    if short in ("Any", "int", "object") or node.args is not None:
        return None
    if re.fullmatch(r"[A-Za-z_]\w*", short):
        return sym(short)
    return None


_TENSORS = ("Tensor", "TensorBase", "Parameter")


def read(node: Node, text: str = "") -> Revealed:
    text = text or _unparse(node)
    if node.union is not None:
        return Revealed("union", text, items=[read(item) for item in node.union])
    short = _clean(node.name)
    if short == "Any":
        return Revealed("any", text)
    if short in _TENSORS:
        if node.args is None:
            return Revealed("tensor", text, variadic=True)
        head: list[Expr | None] = []
        tail: list[Expr | None] = []
        variadic = False
        each: list[Expr | None] | None = None
        for arg in node.args:
            if arg.name == "()" and not arg.star:
                continue  # `Tensor[()]`: a scalar
            if arg.star:
                inner = arg.args or []
                if any(a.name == "..." for a in inner):
                    variadic = True
                    item = inner[0]
                    if _clean(item.name) != "Any":
                        each = [_dim(n) for n in (item.union or [item])]
                    continue
                dims = [_dim(a) for a in inner]
                (tail if variadic else head).extend(dims)
                continue
            (tail if variadic else head).append(_dim(arg))
        return Revealed("tensor", text, head, variadic, tail, each=each)
    if short in ("int", "Dim", "Literal"):
        return Revealed("int", text, size=_dim(node) if short != "int" else None)
    return Revealed("other", text)


def parse(text: str) -> Revealed:
    """`text` as printed by `reveal_type`; a type that does not parse is "other" (never a shape)."""
    try:
        return read(parse_type(text), text)
    except ValueError:
        return Revealed("other", text)


def _unparse(node: Node) -> str:
    if node.union is not None:
        return " | ".join(_unparse(n) for n in node.union)
    body = node.name if node.args is None else f"{node.name}[{', '.join(_unparse(a) for a in node.args)}]"
    return f"*{body}" if node.star else body


# -- judging -----------------------------------------------------------------------------------


def value_of(size: Expr | None, values: dict[str, int]) -> int | None:
    if size is None:
        return None
    return size.evaluate(values)


def judge(revealed: Revealed, actual: tuple[int, ...] | int | str, values: dict[str, int]) -> str | None:
    """Why the revealed type contradicts torch's value, or None when it does not."""
    if revealed.kind == "any":
        return None
    if revealed.kind == "union":
        # A generated program is straight-line code (its conditional values agree in shape): every
        # member of a union is a shape the name may have, so each must fit.  A member that does not
        # is a shape narrowing made up (an old shape met with a new one), which mypy holds against
        # later code.
        for item in revealed.items:
            reason = judge(item, actual, values)
            if reason is not None:
                return f"a member of the union does not fit: {reason}"
        return None
    if isinstance(actual, str):
        return None  # torch gave something that is neither a tensor nor an int
    if isinstance(actual, tuple):
        if revealed.kind != "tensor":
            return f"revealed {revealed.text} for a tensor of shape {actual}"
        return _judge_shape(revealed, actual, values)
    if revealed.kind == "int":
        v = value_of(revealed.size, values)
        return None if v is None or v == actual else f"size {revealed.size} is {v}, torch has {actual}"
    if revealed.kind == "tensor":
        return f"revealed a tensor for the int {actual}"
    return None


def _judge_shape(revealed: Revealed, actual: tuple[int, ...], values: dict[str, int]) -> str | None:
    fixed = len(revealed.head) + len(revealed.tail)
    if not revealed.variadic and fixed != len(actual):
        return f"rank {fixed}, torch has rank {len(actual)} {actual}"
    if revealed.variadic and fixed > len(actual):
        return f"at least {fixed} dims, torch has rank {len(actual)} {actual}"
    aligned = list(zip(range(len(revealed.head)), revealed.head))
    aligned += [(len(actual) - len(revealed.tail) + k, s) for k, s in enumerate(revealed.tail)]
    for i, size in aligned:
        v = value_of(size, values)
        if v is not None and v != actual[i]:
            return f"dim {i} is {size} = {v}, torch has {actual[i]} (shape {actual})"
    if revealed.variadic and revealed.each is not None:
        allowed = [value_of(s, values) for s in revealed.each]
        if all(v is not None for v in allowed):
            for i in range(len(revealed.head), len(actual) - len(revealed.tail)):
                if actual[i] not in allowed:
                    sizes = " | ".join(str(s) for s in revealed.each)
                    return f"dim {i} must be one of {sizes} = {allowed}, torch has {actual[i]} (shape {actual})"
    return None


def fully_known(revealed: Revealed, values: dict[str, int]) -> bool:
    """Every dim of the tensor (or the size) known: what coverage counts."""
    if revealed.kind == "tensor":
        sizes = [*revealed.head, *revealed.tail]
        return not revealed.variadic and all(value_of(s, values) is not None for s in sizes)
    if revealed.kind == "int":
        return value_of(revealed.size, values) is not None
    return False
