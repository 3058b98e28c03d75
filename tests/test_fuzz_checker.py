"""The checker's differential fuzzer (scripts/fuzz) and the fixed-seed slice CI runs.

`test_slice_*` generate a few hundred random programs, check them with mypy while torch runs
them, and hold the checker to its targets: no false alarm, no wrong shape, no internal error,
and at least 95% of torch's failures caught on their line.  The other tests check the fuzzer
itself on hand-made programs and types, so that it cannot pass by missing what it should see:
a program with a known false alarm is scored as one, a wrong revealed shape as a wrong shape.

All programs, the slice's and the hand-made ones, are checked in one mypy run shared by the
pytest workers.  To see everything the slice finds, with reproductions:

    python -m scripts.fuzz_checker --seed 2024 --programs 300
"""

from __future__ import annotations

import pickle
import random
import uuid
from pathlib import Path

import pytest
from filelock import FileLock

from scripts.fuzz.generate import LITERALS, Options, generate
from scripts.fuzz.program import Param, Placed, Program, Step, render_module
from scripts.fuzz.revealed import fully_known, judge, parse
from scripts.fuzz.run import Outcome, check, generate_programs
from scripts.fuzz.score import Scored, Totals, catalogue, score_program, summary
from scripts.fuzz.truth import MypyReport, TorchResult
from tyr._symbolic import parse as parse_size

SEED = 2024
PROGRAMS = 300


# -- hand-made programs with known verdicts ------------------------------------------------------

X = Param("x", "tensor", "Tensor[B, 8]", ("B", "8"))
CFG = Param("cfg", "cfg", "Config")
VALUES = {"B": 9, "D": 12}


def hand(name: str, *steps: Step, params: tuple[Param, ...] = (X,)) -> Program:
    return Program(name, list(params), list(steps), dict(VALUES))


HAND = [
    # An annotation mypy rejects on a line torch runs: a false alarm.
    hand("false_alarm", Step("annotated", ["v1: Tensor[B, 9] = x"], ["v1"])),
    # A revealed shape that contradicts torch: a wrong size, then a wrong rank.
    hand("wrong_size", Step("cast", ["v1 = cast(Tensor[B, 5], x)"], ["v1"])),
    hand("wrong_rank", Step("cast", ["v1 = cast(Tensor[B], x)"], ["v1"])),
    hand("wrong_dim_value", Step("cast", ["n1 = cast(Dim[D], x.shape[0])"], ["n1"]), params=(X, Param("d", "dim", "Dim[D]"))),
    # torch raises where mypy reports: caught; lines after it are not scored.
    hand(
        "caught",
        Step("matmul", ["v1 = x @ torch.randn(7, 4)"], ["v1"], mistake=True),
        Step("annotated", ["v2: Tensor[B, 3] = x"], ["v2"]),
    ),
    # torch raises where mypy cannot know (a plain int): missed.
    hand("missed", Step("view", ["v1 = x.view(cfg.b + 1, 8)"], ["v1"], mistake=True), params=(X, CFG)),
    # A shape mypy cannot know is not an error, only less coverage.
    hand("unknown", Step("view", ["v1 = x.view(cfg.b, 8)"], ["v1"]), Step("sum", ["v2 = v1.sum(0)"], ["v2"]), params=(X, CFG)),
    # Correct code, correct shapes: nothing to report.
    hand("clean", Step("transpose", ["v1 = x.transpose(0, 1)"], ["v1"]), Step("size", ["n2 = v1.size(1)"], ["n2"])),
]


def _shared_outcome(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The slice and the hand-made programs checked once per test session, by whichever worker comes first."""
    try:
        run_id = str(request.getfixturevalue("testrun_uid"))
    except pytest.FixtureLookupError:
        run_id = uuid.uuid4().hex
    shared = tmp_path_factory.getbasetemp().parent / f"tyr-fuzz-{run_id}"
    shared.mkdir(exist_ok=True)
    with FileLock(str(shared / "lock")):
        stored = shared / "outcome.pickle"
        if not stored.exists():
            programs = generate_programs(SEED, PROGRAMS, Options(seed=SEED))
            outcome = check([*programs, *HAND], shared / "programs")
            stored.write_bytes(pickle.dumps(outcome))
        loaded: Outcome = pickle.loads(stored.read_bytes())
        return loaded


@pytest.fixture(scope="module")
def outcome(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    return _shared_outcome(request, tmp_path_factory)


def slice_findings(outcome: Outcome, kind: str) -> str:
    generated = [f for f in outcome.scored.findings if f.kind == kind and f.program.name.startswith("p")]
    return catalogue(generated)[:12000]


def slice_totals(outcome: Outcome) -> str:
    totals = Totals()
    for name, scored in outcome.by_program.items():
        if name.startswith("p"):
            totals.add(scored.totals)
    return summary(totals)


# -- the slice: the checker's targets ---------------------------------------------------------------


def _slice(outcome: Outcome) -> list[str]:
    return [name for name in outcome.by_program if name.startswith("p")]


def test_slice_has_no_false_alarms(outcome: Outcome) -> None:
    count = sum(outcome.by_program[n].totals.false_alarms for n in _slice(outcome))
    assert count == 0, f"{count} false alarms\n{slice_totals(outcome)}\n{slice_findings(outcome, 'false alarm')}"


def test_slice_has_no_wrong_shapes(outcome: Outcome) -> None:
    count = sum(outcome.by_program[n].totals.wrong_shapes for n in _slice(outcome))
    assert count == 0, f"{count} wrong shapes\n{slice_totals(outcome)}\n{slice_findings(outcome, 'wrong shape')}"


def test_slice_catches_torch_failures(outcome: Outcome) -> None:
    raised = sum(outcome.by_program[n].totals.raised for n in _slice(outcome))
    caught = sum(outcome.by_program[n].totals.caught for n in _slice(outcome))
    assert raised and caught >= 0.95 * raised, (
        f"caught {caught} of {raised}\n{slice_totals(outcome)}\n{slice_findings(outcome, 'missed')}"
    )


def test_slice_has_no_internal_errors(outcome: Outcome) -> None:
    internal = sum(outcome.by_program[n].totals.internal + outcome.by_program[n].totals.crashed for n in _slice(outcome))
    assert internal == 0, f"{internal} internal errors\n{slice_findings(outcome, 'internal error')}"


def test_slice_is_a_real_test(outcome: Outcome) -> None:
    """The slice exercises what it claims: long programs, torch failing in a good share of them."""
    names = _slice(outcome)
    assert len(names) == PROGRAMS
    steps = sum(outcome.by_program[n].totals.steps for n in names)
    raised = sum(outcome.by_program[n].totals.raised for n in names)
    tensors = sum(outcome.by_program[n].totals.tensors for n in names)
    assert steps >= 6 * PROGRAMS
    assert 0.15 * PROGRAMS <= raised <= 0.5 * PROGRAMS
    assert tensors >= 5 * PROGRAMS  # reveals torch reached, compared


# -- the fuzzer scores hand-made programs as it should ------------------------------------------------


def test_a_known_false_alarm_is_scored_as_one(outcome: Outcome) -> None:
    t = outcome.by_program["false_alarm"].totals
    assert (t.false_alarms, t.ran, t.raised) == (1, 1, 0)
    (finding,) = [f for f in outcome.by_program["false_alarm"].findings if f.kind == "false alarm"]
    assert "Incompatible types in assignment" in finding.mypy and finding.op == "annotated"


@pytest.mark.parametrize("name", ["wrong_size", "wrong_rank", "wrong_dim_value"])
def test_a_wrong_revealed_shape_is_scored_as_one(outcome: Outcome, name: str) -> None:
    scored = outcome.by_program[name]
    assert scored.totals.wrong_shapes == 1 and scored.totals.false_alarms == 0
    (finding,) = scored.findings
    assert finding.kind == "wrong shape"
    assert finding.reason.startswith({"wrong_size": "dim 1", "wrong_rank": "rank 1", "wrong_dim_value": "size D"}[name])


def test_a_failure_on_a_reported_line_is_caught_and_later_lines_are_not_scored(outcome: Outcome) -> None:
    t = outcome.by_program["caught"].totals
    assert (t.raised, t.caught, t.missed, t.false_alarms) == (1, 1, 0, 0)


def test_a_failure_mypy_cannot_see_is_missed(outcome: Outcome) -> None:
    scored = outcome.by_program["missed"]
    assert (scored.totals.raised, scored.totals.caught, scored.totals.missed) == (1, 0, 1)
    (finding,) = scored.findings
    assert finding.kind == "missed" and "RuntimeError" in finding.torch and "cfg.b + 1" in finding.repro


def test_unknown_shapes_count_against_coverage_only(outcome: Outcome) -> None:
    scored = outcome.by_program["unknown"]
    assert scored.findings == []
    assert (scored.totals.tensors, scored.totals.tensors_known) == (2, 1)  # Tensor[Any, 8], then Tensor[8]


def test_correct_code_gives_nothing_to_report(outcome: Outcome) -> None:
    scored = outcome.by_program["clean"]
    assert scored.findings == []
    assert (scored.totals.tensors, scored.totals.tensors_known, scored.totals.sizes, scored.totals.sizes_known) == (1, 1, 1, 1)


# -- scoring without mypy: internal errors, crashes ------------------------------------------------


def _scored_by_hand(errors: dict[int, list[str]], revealed: dict[int, str], ran: TorchResult) -> tuple[Placed, Scored]:
    program = hand("by_hand", Step("transpose", ["v1 = x.transpose(0, 1)"], ["v1"]))
    _, (place,) = render_module([program])
    shift = place.def_line
    report = MypyReport(
        errors={"m.py": {shift + k: v for k, v in errors.items()}},
        revealed={"m.py": {shift + k: v for k, v in revealed.items()}},
    )
    ran.seen = {shift + k: v for k, v in ran.seen.items()}
    return place, score_program(place, ran, report, "m.py")


def test_internal_errors_are_counted_not_taken_for_catches() -> None:
    ran = TorchResult(seen={2: (8, 9)})
    _, scored = _scored_by_hand({1: ["index: ... KeyError: 3  [tyr-internal]"]}, {2: "torch._tensor.Tensor[Literal[8], B]"}, ran)
    assert scored.totals.internal == 1 and scored.totals.false_alarms == 0


def test_an_error_on_the_failing_line_is_a_catch_and_none_is_a_miss() -> None:
    failing = TorchResult(seen={}, failed_line=None, error="RuntimeError: boom")
    place, _ = _scored_by_hand({}, {}, TorchResult())
    failing.failed_line = place.def_line + 1
    report_caught = MypyReport(errors={"m.py": {place.def_line + 1: ["@: mismatch  [tyr-shape]"]}})
    assert score_program(place, failing, report_caught, "m.py").totals.caught == 1
    assert score_program(place, failing, MypyReport(), "m.py").totals.missed == 1


def test_a_mypy_crash_is_an_internal_error() -> None:
    place, _ = _scored_by_hand({}, {}, TorchResult())
    report = MypyReport(crashed=[("m.py", place.def_line + 1, "Traceback ...\nKeyError: 3")])
    scored = score_program(place, TorchResult(), report, "m.py")
    assert scored.totals.crashed == 1 and [f.kind for f in scored.findings] == ["internal error"]


# -- reading revealed types ------------------------------------------------------------------------


def test_revealed_tensor_shapes_are_read() -> None:
    values = {"B": 3, "D": 10}
    shape = parse("torch._tensor.Tensor[B, Literal[8], tyr._static.DimExpr[Literal['D//2'], D], Any]")
    assert shape.kind == "tensor" and not shape.variadic
    assert [s.evaluate(values) if s is not None else None for s in shape.head] == [3, 8, 5, None]
    assert judge(shape, (3, 8, 5, 7), values) is None
    assert judge(shape, (3, 8, 6, 7), values) == "dim 2 is D//2 = 5, torch has 6 (shape (3, 8, 6, 7))"
    assert judge(shape, (3, 8, 5), values) is not None and not fully_known(shape, values)
    assert fully_known(parse("torch._tensor.Tensor[B, Literal[8]]"), values)


def test_unknown_and_partly_known_shapes() -> None:
    bare = parse("torch._tensor.Tensor[*tuple[Any, ...]]")
    assert bare.kind == "tensor" and bare.variadic and judge(bare, (1, 2, 3), {}) is None
    tail = parse("torch._tensor.Tensor[B, *tuple[Any, ...], Literal[4]]")
    assert judge(tail, (2, 9, 9, 4), {"B": 2}) is None
    assert judge(tail, (2, 9, 9, 5), {"B": 2}) is not None
    assert judge(tail, (2,), {"B": 2}) is not None  # at least two dims
    joined = parse("torch._tensor.Tensor[*tuple[B | Literal[8], ...]]")  # what mypy's join of shapes gives
    assert judge(joined, (2, 8, 2), {"B": 2}) is None and not fully_known(joined, {"B": 2})
    assert judge(joined, (2, 16), {"B": 2}) == "dim 1 must be one of B | 8 = [2, 8], torch has 16 (shape (2, 16))"
    scalar = parse("torch._tensor.Tensor[()]")
    assert judge(scalar, (), {}) is None and judge(scalar, (1,), {}) is not None and fully_known(scalar, {})
    assert parse("Any").kind == "any" and judge(parse("Any"), (5,), {}) is None


def test_revealed_sizes_are_read() -> None:
    values = {"B": 3, "D": 10}
    assert judge(parse("tyr._static.Dim[B]"), 3, values) is None
    assert judge(parse("tyr._static.Dim[B]"), 4, values) == "size B is 3, torch has 4"
    assert judge(parse("tyr._static.Dim[tyr._static.DimExpr[Literal['2*D + 1'], D]]"), 21, values) is None
    assert judge(parse("Literal[16]"), 15, values) is not None
    assert judge(parse("builtins.int"), 15, values) is None and not fully_known(parse("builtins.int"), values)
    assert judge(parse("builtins.int"), (2, 3), values) is not None  # an int revealed for a tensor


def test_unions_and_other_types() -> None:
    union = parse("torch._tensor.Tensor[Literal[8], B] | torch._tensor.Tensor[Any, B]")
    assert union.kind == "union" and judge(union, (8, 3), {"B": 3}) is None
    assert judge(union, (3, 8), {"B": 3}) is not None  # straight-line code: every member must fit
    assert judge(union, (3, 9), {"B": 3}) is not None and not fully_known(union, {"B": 3})
    named = parse("tuple[torch._tensor.Tensor[B, D], torch._tensor.Tensor[B, D], fallback=torch.return_types.max]")
    assert named.kind == "other"
    assert judge(parse("builtins.bool"), (2, 2), {}) is not None  # a bool where torch has a tensor
    assert parse("def (x: builtins.int) -> builtins.int").kind == "other"  # unreadable: never a shape


def test_renamed_type_variables_are_their_user_names() -> None:
    shape = parse("torch._tensor.Tensor[B`1, Literal[2]]")
    assert shape.head[0] == parse_size("B")


# -- the generator -----------------------------------------------------------------------------------


def test_programs_are_reproducible_and_sizes_follow_the_contract() -> None:
    options = Options(seed=7)
    first = [generate(7, i, options) for i in range(40)]
    again = [generate(7, i, options) for i in range(40)]
    assert render_module(first)[0] == render_module(again)[0]
    for program in first:
        values = list(program.values.values())
        assert len(set(values)) == len(values)  # distinct symbols, distinct sizes
        assert all(v > max(LITERALS) for v in values)  # never 1, never a literal size
        source = "\n".join(line for step in program.steps for line in step.lines)
        compile(source, program.name, "exec")
    mistakes = sum(any(s.mistake for s in p.steps) for p in first)
    assert 4 <= mistakes <= 25


def test_a_mistake_is_always_the_last_step() -> None:
    options = Options(seed=3, mistake_rate=1.0)
    for i in range(20):
        program = generate(3, i, options)
        flags = [s.mistake for s in program.steps]
        assert not any(flags[:-1])


def test_divisions_are_exact_at_the_programs_sizes() -> None:
    """Every `// k` the generator writes divides the sizes of the symbols it divides (SHAPES.md §6)."""
    rng = random.Random(0)
    options = Options(seed=11)
    for i in rng.sample(range(1000), 40):
        program = generate(11, i, options)
        for step in program.steps:
            for line in step.lines:
                for divisor in ("// 2", "// 3", "// 4"):
                    if divisor in line:
                        k = int(divisor[-1])
                        names = [p.name for p in program.params if p.kind == "dim" and f"{p.name} {divisor}" in line]
                        assert all(program.values[n.upper()] % k == 0 for n in names), (line, program.values)


def test_the_slice_programs_can_be_kept(tmp_path: Path) -> None:
    """`--keep` writes modules that are the programs mypy and torch saw."""
    programs = generate_programs(5, 3, Options(seed=5))
    source, placed = render_module(programs)
    assert all(p.program.name in source for p in placed)
    assert source.count("\ndef p") == 3


def test_the_menu_can_be_narrowed_by_op_or_family() -> None:
    """`--only` keeps the named ops and families, `--skip` leaves them out; a name not in the menu is refused."""
    from scripts.fuzz.menu import MENU, select

    op, family = MENU[0].name, MENU[-1].family
    assert {o.name for o in select(MENU, only=[op])} == {op}
    assert {o.family for o in select(MENU, only=[family])} == {family}
    assert op not in {o.name for o in select(MENU, skip=[op])}
    assert {o.name for o in select(MENU, only=[family], skip=[op])} == {o.name for o in MENU if o.family == family} - {op}
    with pytest.raises(ValueError, match="no op or family"):
        select(MENU, only=["no such op"])
