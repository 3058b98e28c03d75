"""tyr.tree over every supported container, its roles, and its errors."""

from __future__ import annotations

import collections
import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from tyr import tree
from tyr.tree import Role, StructureMismatchError

REPO = Path(__file__).resolve().parents[1]


class Point(NamedTuple):
    x: torch.Tensor
    y: torch.Tensor


@dataclasses.dataclass
class Batch:
    tokens: torch.Tensor
    targets: torch.Tensor
    name: str = "train"


@dataclasses.dataclass(frozen=True, slots=True)
class Frozen:
    weight: torch.Tensor
    scale: float

    def __post_init__(self) -> None:
        if self.scale <= 0:
            raise ValueError("scale must be positive")


class Pair:
    """A user class that registers itself."""

    def __init__(self, first: torch.Tensor, second: torch.Tensor, label: str) -> None:
        self.first, self.second, self.label = first, second, label


tree.register(
    Pair,
    flatten=lambda p: ((p.first, p.second), ("first", "second"), p.label),
    unflatten=lambda label, children: Pair(children[0], children[1], str(label)),
)


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.proj = nn.Linear(4, 4, bias=False)
        self.register_buffer("mask", torch.ones(4))


class TinyLM(nn.Module):
    def __init__(self, tied: bool = True) -> None:
        super().__init__()
        self.wte = nn.Embedding(10, 4)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.lm_head = nn.Linear(4, 10, bias=False)
        if tied:
            self.lm_head.weight = self.wte.weight
        self.gain = nn.Parameter(torch.ones(4), requires_grad=False)  # frozen

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        x = self.wte(idx)
        for block in self.blocks:
            x = x + block.proj(block.norm(x)) * block.mask
        return self.lm_head(x * self.gain)


def t(*shape: int, value: float = 1.0) -> torch.Tensor:
    return torch.full(shape, value)


# ---------------------------------------------------------------------------
# Leaves and paths over every container


CONTAINERS: dict[str, tuple[Any, list[str]]] = {
    "tensor": (t(2), [""]),
    "dict": ({"b": t(1), "a": t(2)}, ["a", "b"]),  # dict keys in sorted order
    "list": ([t(1), t(2)], ["0", "1"]),
    "tuple": ((t(1), t(2)), ["0", "1"]),
    "namedtuple": (Point(t(1), t(2)), ["x", "y"]),
    "ordereddict": (collections.OrderedDict([("z", t(1)), ("a", t(1))]), ["z", "a"]),
    "dataclass": (Batch(t(2, 3), t(2, 3)), ["tokens", "targets"]),
    "frozen slotted dataclass": (Frozen(t(3), 2.0), ["weight"]),
    "registered class": (Pair(t(1), t(2), "p"), ["first", "second"]),
    "module": (nn.Linear(3, 2), ["weight", "bias"]),
    "nested": (
        {"batch": Batch(t(1), t(1)), "points": [Point(t(1), t(1))], "none": None},
        ["batch.tokens", "batch.targets", "points.0.x", "points.0.y"],
    ),
}


@pytest.mark.parametrize("kind", list(CONTAINERS))
def test_leaves_with_paths_over_every_container(kind: str) -> None:
    value, paths = CONTAINERS[kind]
    found = tree.leaves_with_paths(value)
    assert [path for path, _ in found] == paths
    assert all(isinstance(leaf, torch.Tensor) for _, leaf in found)
    assert [id(leaf) for leaf in tree.leaves(value)] == [id(leaf) for _, leaf in found]


@pytest.mark.parametrize("kind", list(CONTAINERS))
def test_map_keeps_the_container_type_and_static_leaves(kind: str) -> None:
    value, paths = CONTAINERS[kind]
    before = [leaf.detach().clone() for leaf in tree.leaves(value)]
    doubled = tree.map(lambda x: x * 2, value)
    assert type(doubled) is type(value)
    assert all(torch.equal(new, old * 2) for new, old in zip(tree.leaves(doubled), before))
    assert all(torch.equal(now, old) for now, old in zip(tree.leaves(value), before))  # input untouched
    assert len(tree.leaves(doubled)) == len(paths)


@pytest.mark.parametrize("kind", list(CONTAINERS))
def test_flatten_unflatten_round_trip(kind: str) -> None:
    value, _ = CONTAINERS[kind]
    tensors, treedef = tree.flatten(value)
    assert treedef.num_tensors == len(tensors)
    rebuilt = tree.unflatten(treedef, [x + 1 for x in tensors])
    assert type(rebuilt) is type(value)
    assert all(torch.equal(a, b + 1) for a, b in zip(tree.leaves(rebuilt), tensors))


def test_static_leaves_survive_map() -> None:
    batch = tree.map(torch.zeros_like, Batch(t(2), t(2), name="valid"))
    assert batch.name == "valid"
    frozen = tree.map(torch.zeros_like, Frozen(t(3), 2.0))
    assert frozen.scale == 2.0
    pair = tree.map(torch.zeros_like, Pair(t(1), t(1), "label"))
    assert pair.label == "label"


def test_dataclasses_are_rebuilt_without_running_post_init() -> None:
    # filter empties leaves; rebuilding must not re-run validation on the new values.
    emptied = tree.filter(Frozen(t(3), 2.0), Role.FROZEN)
    assert emptied.scale is None and torch.equal(emptied.weight, t(3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        emptied.scale = 1.0  # type: ignore[misc]


def test_none_is_an_empty_subtree() -> None:
    assert tree.leaves({"a": None, "b": [None, t(1)]}) == [t(1)]
    assert tree.map(lambda x: x + 1, {"a": None})["a"] is None


# ---------------------------------------------------------------------------
# Modules


def test_module_paths_match_state_dict_keys() -> None:
    model = TinyLM(tied=False)
    assert {path for path, _ in tree.leaves_with_paths(model)} == set(model.state_dict())


def test_module_tied_weights_appear_once_when_unique() -> None:
    model = TinyLM(tied=True)
    all_paths = [path for path, _ in tree.leaves_with_paths(model)]
    unique_paths = [path for path, _ in tree.leaves_with_paths(model, unique=True)]
    assert "lm_head.weight" in all_paths and "lm_head.weight" not in unique_paths
    assert len(all_paths) == len(unique_paths) + 1


def test_module_map_returns_a_working_copy_with_roles_kept() -> None:
    model = TinyLM()
    zeros = tree.map(torch.zeros_like, model)
    assert type(zeros) is TinyLM and zeros is not model
    assert isinstance(zeros.blocks[0].proj.weight, nn.Parameter)
    assert zeros.blocks[0].proj.weight.requires_grad  # trainable slot stays trainable
    assert not zeros.gain.requires_grad  # frozen slot stays frozen
    assert "mask" in dict(zeros.blocks[0].named_buffers())
    assert not zeros(torch.tensor([1, 2])).detach().any()
    assert model.blocks[0].proj.weight.detach().any()  # original untouched
    # Registering on the copy leaves the original alone.
    zeros.blocks[0].register_buffer("extra", torch.zeros(1))
    assert "extra" not in dict(model.blocks[0].named_buffers())


def test_module_map_of_grads() -> None:
    model = nn.Linear(3, 2)
    model(torch.ones(1, 3)).sum().backward()
    grads = tree.map(lambda p: p.grad, model)
    assert torch.equal(grads.weight, torch.ones(2, 3))
    assert torch.equal(grads.bias, torch.ones(2))


def test_registered_none_parameter_is_kept() -> None:
    model = nn.Linear(3, 2, bias=False)  # registers bias=None
    assert [path for path, _ in tree.leaves_with_paths(model)] == ["weight"]
    assert tree.map(torch.zeros_like, model).bias is None


# ---------------------------------------------------------------------------
# Roles, filter, count


def test_roles() -> None:
    assert tree.role(nn.Parameter(t(1))) is Role.TRAINABLE
    assert tree.role(t(1)) is Role.FROZEN
    assert tree.role(nn.Parameter(t(1), requires_grad=False)) is Role.FROZEN
    assert tree.role(3) is Role.STATIC and tree.role("x") is Role.STATIC


def test_filter_by_role_on_a_module() -> None:
    model = TinyLM()
    trainable = [p for p, _ in tree.leaves_with_paths(tree.filter(model, Role.TRAINABLE), unique=True)]
    frozen = [p for p, _ in tree.leaves_with_paths(tree.filter(model, Role.FROZEN))]
    assert trainable == [name for name, p in model.named_parameters() if p.requires_grad]  # same order, tied once
    assert "gain" not in trainable
    assert frozen == ["gain", "blocks.0.mask", "blocks.1.mask"]


def test_filter_static_and_by_predicate() -> None:
    batch = Batch(t(2), t(2), name="x")
    statics = tree.filter(batch, Role.STATIC)
    assert statics.name == "x" and tree.leaves(statics) == []
    only_targets = tree.filter(batch, lambda path, leaf: path == "targets")
    assert only_targets.tokens is None and only_targets.name is None
    assert torch.equal(only_targets.targets, t(2))
    both = tree.filter(batch, {Role.FROZEN, Role.STATIC})
    assert both.name == "x" and len(tree.leaves(both)) == 2


def test_count() -> None:
    model = TinyLM(tied=True)
    expected = sum(p.numel() for p in model.parameters() if p.requires_grad)  # parameters() dedups
    assert tree.count(model, role=Role.TRAINABLE) == expected
    assert tree.count(model, role=Role.FROZEN) == 4 + 4 + 4  # gain and two masks
    assert tree.count(model) == expected + 12
    assert tree.count({"a": t(2, 3), "b": [t(4)]}) == 10


def test_all_any_fold() -> None:
    value = {"a": t(2, value=1.0), "b": [t(3, value=-1.0)]}
    assert tree.all(lambda x: x.dim() == 1, value)
    assert not tree.all(lambda x: bool((x > 0).all()), value)
    assert tree.any(lambda x: bool((x < 0).all()), value)
    assert not tree.any(lambda x: x.numel() > 3, value)
    assert tree.all(lambda x: False, {}) and not tree.any(lambda x: True, {})
    assert tree.fold(lambda acc, x: acc + x.numel(), value, 0) == 5
    order = tree.fold(lambda acc, x: [*acc, float(x[0])], value, [])
    assert order == [1.0, -1.0]


def test_map_with_path() -> None:
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    seen: list[str] = []

    def record(path: str, x: torch.Tensor) -> torch.Tensor:
        seen.append(path)
        return torch.zeros_like(x) if path.endswith("bias") else x

    out = tree.map_with_path(record, model)
    assert seen == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert not out[0].bias.detach().any() and torch.equal(out[0].weight, model[0].weight)


# ---------------------------------------------------------------------------
# zip_with


def test_zip_with_combines_matching_leaves() -> None:
    a = {"w": t(2, value=1.0), "b": [t(1, value=2.0)]}
    b = {"w": t(2, value=10.0), "b": [t(1, value=20.0)]}
    c = {"w": t(2, value=100.0), "b": [t(1, value=200.0)]}
    out = tree.zip_with(lambda x, y, z: x + y + z, a, b, c)
    assert torch.equal(out["w"], t(2, value=111.0)) and torch.equal(out["b"][0], t(1, value=222.0))


def test_zip_with_two_models_of_the_same_class() -> None:
    first, second = nn.Linear(3, 2), nn.Linear(3, 2)
    diff = tree.zip_with(torch.sub, first, second)
    assert type(diff) is nn.Linear
    assert torch.equal(diff.weight, first.weight - second.weight)


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ({"a": t(1), "b": t(1)}, {"a": t(1), "c": t(1)}, "at the root the first tree has a dict with keys ['a', 'b'] but the other has a dict with keys ['a', 'c']"),
        ({"x": [t(1), t(1)]}, {"x": [t(1)]}, "at path 'x' the first tree has a list of length 2 but the other has a list of length 1"),
        ({"x": (t(1),)}, {"x": [t(1)]}, "at path 'x' the first tree has a tuple of length 1 but the other has a list of length 1"),
        ([Batch(t(1), t(1))], [Point(t(1), t(1))], "at path '0' the first tree has a Batch with children ['tokens', 'targets', 'name'] but the other has a Point"),
        ({"deep": {"er": [t(1), {"k": t(1)}]}}, {"deep": {"er": [t(1), {"k": None}]}}, "at path 'deep.er.1.k' the first tree has a leaf but the other has None"),
        (nn.Linear(2, 2), nn.Linear(2, 2, bias=False), "at path 'bias' the first tree has a leaf but the other has None"),
        (nn.Sequential(nn.Linear(2, 2)), nn.Sequential(nn.Linear(2, 2), nn.ReLU()), "children ['0'] but the other has a Sequential with children ['0', '1']"),
        (Point(t(1), t(1)), Point(t(1), "static"), "at path 'y' the first tree has a tensor of shape (1,) but argument 2 has a static str leaf ('static')"),
    ],
    ids=["dict keys", "list length", "tuple vs list", "dataclass vs namedtuple", "deep", "module param", "module children", "tensor vs static"],
)
def test_zip_with_names_the_first_differing_path(first: Any, second: Any, message: str) -> None:
    with pytest.raises(StructureMismatchError) as info:
        tree.zip_with(lambda x, y: x, first, second)
    assert message in str(info.value)


def test_zip_with_mismatch_names_the_argument_position() -> None:
    with pytest.raises(StructureMismatchError, match="argument 3 does not have the structure"):
        tree.zip_with(lambda *xs: xs[0], [t(1)], [t(1)], [t(1), t(1)])


# ---------------------------------------------------------------------------
# Registration and flatten errors


def test_register_replaces_the_automatic_dataclass_rule() -> None:
    @dataclasses.dataclass
    class Cache:
        keys: torch.Tensor
        values: torch.Tensor

    cache = Cache(t(1), t(2))
    assert [p for p, _ in tree.leaves_with_paths(cache)] == ["keys", "values"]  # automatic
    tree.register(
        Cache,
        flatten=lambda c: ((c.values,), ("v",), None),  # keys become invisible
        unflatten=lambda _, children: Cache(t(0), children[0]),
    )
    assert [p for p, _ in tree.leaves_with_paths(cache)] == ["v"]
    assert tree.map(lambda x: x * 3, cache).values.tolist() == [3.0, 3.0]


def test_unflatten_checks_the_number_of_tensors() -> None:
    _, treedef = tree.flatten({"a": t(1), "b": t(1), "n": 3})
    with pytest.raises(ValueError, match="has 2 tensor leaves but 1 values were given"):
        tree.unflatten(treedef, [t(1)])


# ---------------------------------------------------------------------------
# Property: random nestings round-trip


def _nested(depth: int) -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        st.integers(1, 3).map(lambda n: torch.arange(float(n))),
        st.sampled_from([None, 7, "s"]),
    )
    return st.recursive(
        leaf,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.lists(children, max_size=3).map(tuple),
            st.dictionaries(st.sampled_from(["a", "b", "c"]), children, max_size=3),
            st.tuples(children, children).map(lambda xy: Point(*xy)),
        ),
        max_leaves=depth,
    )


@settings(max_examples=60, deadline=None)
@given(_nested(12))
def test_random_nestings_round_trip(value: Any) -> None:
    tensors, treedef = tree.flatten(value)
    rebuilt = tree.unflatten(treedef, tensors)
    assert repr(rebuilt) == repr(value)
    assert len(tree.leaves(value)) == len(tensors) == treedef.num_tensors
    assert tree.count(value) == sum(x.numel() for x in {id(x): x for x in tensors}.values())
    assert repr(tree.zip_with(lambda x, y: x + y, value, value)) == repr(tree.map(lambda x: x * 2, value))


# ---------------------------------------------------------------------------
# Static typing: map over a typed struct keeps its type


def test_mypy_sees_the_struct_type_through_map(tmp_path: Path) -> None:
    snippet = tmp_path / "typed_struct.py"
    snippet.write_text(
        textwrap.dedent(
            """
            import dataclasses
            import torch
            from torch import nn
            from tyr import tree

            @dataclasses.dataclass
            class Batch:
                tokens: torch.Tensor
                targets: torch.Tensor

            class Net(nn.Module):
                def __init__(self) -> None:
                    super().__init__()
                    self.lin = nn.Linear(2, 2)

            batch = Batch(torch.zeros(2), torch.zeros(2))
            reveal_type(tree.map(torch.zeros_like, batch))
            reveal_type(tree.zip_with(torch.add, batch, batch))
            reveal_type(tree.map(lambda p: p.grad, Net()))
            reveal_type(tree.filter(Net(), tree.Role.TRAINABLE))
            tensors, treedef = tree.flatten({"a": torch.zeros(1)})
            reveal_type(tree.unflatten(treedef, tensors))
            tree.map(lambda p: p.shape, batch)
            """
        )
    )
    # Run from the repository so the warm .mypy_cache (written by the CI's mypy step) is reused.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--config-file", "mypy.ini", str(snippet)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [line.split(": ", 1)[1] for line in result.stdout.splitlines()]
    assert lines[:5] == [
        'note: Revealed type is "typed_struct.Batch"',
        'note: Revealed type is "typed_struct.Batch"',
        'note: Revealed type is "typed_struct.Net"',
        'note: Revealed type is "typed_struct.Net"',
        'note: Revealed type is "dict[str, torch._tensor.Tensor[Literal[1]]]"',  # shapes survive too
    ], result.stdout + result.stderr
    # A function that does not return a tensor is rejected.
    errors = lines[5:]
    assert errors and all(line.startswith("error:") for line in errors), result.stdout
    assert 'Argument 1 to "map" has incompatible type' in errors[0], result.stdout
