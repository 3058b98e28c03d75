"""Scoring mypy's answers against torch's, per program and in total, and the failure catalogue.

* false alarm: an error (other than `[tyr-internal]`) on a line torch ran without raising,
  that is any line before the one that raised, or any line of a program that ran through;
* wrong shape: a revealed type, on a line torch reached, that contradicts the value torch
  had there (a wrong rank, or a known size with another value);
* caught / missed: torch raised on line k, and mypy did / did not report an error on line k;
* internal error: a `[tyr-internal]` error anywhere (a shape rule raised), or mypy crashing on
  the program;
* coverage: the share of revealed tensor shapes on lines torch reached that are fully known.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from scripts.fuzz.program import Placed, Program, render_program
from scripts.fuzz.revealed import fully_known, judge, parse
from scripts.fuzz.truth import MypyReport, TorchResult

INTERNAL = "[tyr-internal]"
KINDS = ("false alarm", "wrong shape", "missed", "internal error", "unknown")
# "unknown" is no failure: a revealed shape left unknown although the program's sizes determine it
# (and mypy knew the inputs); listed so that precision can be seen to improve.


@dataclass
class Finding:
    kind: str
    program: Program
    step: int | None  # None: not inside a step (the `def` line)
    line: int
    op: str
    detail: str
    mypy: str
    torch: str
    repro: str = ""
    reason: str = ""  # wrong shape: how the revealed type contradicts torch
    after: str = ""  # why this may follow from an earlier finding ("" for a root finding)

    @property
    def signature(self) -> str:
        """What makes two findings the same pattern: the kind, the op and the message's shape."""
        if self.kind == "wrong shape":
            text = f"{self.detail.split(' ')[0]}: {_category(self.reason)}"
        elif self.kind == "unknown":
            text = f"{self.detail} -> {pretty(self.mypy)}"
        elif self.kind == "missed":
            text = self.detail
        else:
            text = self.mypy
        return f"{self.kind} | {self.op} | {_normalise(text)}"


def _category(reason: str) -> str:
    for start, name in (("rank", "wrong rank"), ("at least", "wrong rank"), ("dim", "wrong size"),
                        ("size", "wrong Dim value"), ("revealed", "not a tensor / not a size"),
                        ("no member", "no member of the union fits")):
        if reason.startswith(start):
            return name
    return reason


@dataclass
class Totals:
    programs: int = 0
    ran: int = 0  # programs torch ran through
    raised: int = 0  # programs torch raised in
    caught: int = 0
    missed: int = 0
    false_alarms: int = 0  # lines
    false_alarm_programs: int = 0
    wrong_shapes: int = 0
    wrong_shape_programs: int = 0
    internal: int = 0
    crashed: int = 0
    tensors: int = 0  # revealed tensor shapes on lines torch reached
    tensors_known: int = 0
    sizes: int = 0  # revealed Dims on lines torch reached
    sizes_known: int = 0
    steps: int = 0
    gaps: int = 0  # revealed sizes left unknown that the program's sizes determine

    @property
    def caught_share(self) -> float:
        return self.caught / self.raised if self.raised else 1.0

    @property
    def coverage(self) -> float:
        return self.tensors_known / self.tensors if self.tensors else 1.0

    def add(self, other: Totals) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Scored:
    totals: Totals = field(default_factory=Totals)
    findings: list[Finding] = field(default_factory=list)


def score_program(place: Placed, ran: TorchResult, report: MypyReport, path: str) -> Scored:
    program = place.program
    out = Scored()
    t = out.totals
    t.programs = 1
    t.steps = len(program.steps)
    errors = {
        line: messages
        for line, messages in report.errors.get(path, {}).items()
        if place.first_line <= line <= place.last_line
    }
    revealed = report.revealed.get(path, {})
    if any(path == p and place.first_line <= line <= place.last_line for p, line, _ in report.crashed):
        t.crashed = 1
        crash = next(c for c in report.crashed if c[0] == path and place.first_line <= c[1] <= place.last_line)
        out.findings.append(_finding("internal error", place, crash[1], f"mypy crashed: {crash[2].strip().splitlines()[-1:]}", "", ran))
        return out
    failed = ran.failed_line
    if failed is None:
        t.ran = 1
    else:
        t.raised = 1

    wrong_steps: set[int] = set()
    alarm_steps: set[int] = set()
    unknown_steps: set[int] = set()
    partial_steps: set[int] = set()

    def reached(line: int) -> bool:
        return failed is None or line < failed

    for line, messages in sorted(errors.items()):
        internal = [m for m in messages if INTERNAL in m]
        real = [m for m in messages if INTERNAL not in m]
        for message in internal:
            t.internal += 1
            out.findings.append(_finding("internal error", place, line, message, _torch_at(ran, line), ran))
        if real and reached(line):
            t.false_alarms += 1
            if line in place.step_of:
                alarm_steps.add(place.step_of[line])
            out.findings.append(_finding("false alarm", place, line, "; ".join(real), _torch_at(ran, line), ran))
    t.false_alarm_programs = int(t.false_alarms > 0)
    for line, (step, name) in sorted(place.reveal_of.items()):
        if line not in ran.seen:
            continue
        actual = ran.seen[line]
        text = revealed.get(line)
        if text is None:
            continue  # mypy thought the line unreachable; an error elsewhere says so
        shape = parse(text)
        if isinstance(actual, tuple):
            t.tensors += 1
            t.tensors_known += fully_known(shape, program.values)
        elif isinstance(actual, int):
            t.sizes += 1
            t.sizes_known += fully_known(shape, program.values)
        uses = program.steps[step].uses
        if not fully_known(shape, program.values) and program.steps[step].knowable:
            if not any(i in unknown_steps or i in partial_steps for i in uses) and judge(shape, actual, program.values) is None:
                t.gaps += 1
                out.findings.append(_finding("unknown", place, line, text, f"{actual}", ran))
        if shape.kind in ("any", "other") or shape.kind == "tensor" and shape.variadic or shape.kind == "union":
            unknown_steps.add(step)  # nothing (or nothing certain) known about the value
        elif not fully_known(shape, program.values):
            partial_steps.add(step)
        reason = judge(shape, actual, program.values)
        if reason is not None:
            t.wrong_shapes += 1
            wrong_steps.add(step)
            finding = _finding("wrong shape", place, line, text, f"{actual}", ran)
            finding.reason = reason
            out.findings.append(finding)
    t.wrong_shape_programs = int(t.wrong_shapes > 0)
    if failed is not None:
        real = [m for m in errors.get(failed, []) if INTERNAL not in m]
        if real:
            t.caught = 1
        else:
            t.missed = 1
            out.findings.append(_finding("missed", place, failed, "(no error)", ran.error or "", ran))
    for f in out.findings:
        if f.step is None:
            continue
        upstream = sorted(_needed(program, f.step) - {f.step})
        wrong = [i for i in upstream if i in wrong_steps]
        alarmed = [i for i in upstream if i in alarm_steps]
        if wrong:
            f.after = f"after a wrong shape from {program.steps[wrong[0]].op}"
        elif alarmed:
            f.after = f"after a false alarm at {program.steps[alarmed[0]].op}"
        elif f.kind == "missed":
            unknown = [i for i in program.steps[f.step].uses if i in unknown_steps]
            partial = [i for i in program.steps[f.step].uses if i in partial_steps]
            lost = unknown_steps | partial_steps
            if unknown:
                f.after = f"an input of unknown shape (lost at {program.steps[_origin(program, unknown[0], lost)].op})"
            elif partial:
                f.after = f"an input with sizes unknown to mypy (lost at {program.steps[_origin(program, partial[0], lost)].op})"
    return out


def _origin(program: Program, step: int, lost: set[int]) -> int:
    """The first step of the chain to `step` whose revealed shape mypy did not know, its own inputs known."""
    while True:
        earlier = [i for i in program.steps[step].uses if i in lost]
        if not earlier:
            return step
        step = earlier[0]


def _torch_at(ran: TorchResult, line: int) -> str:
    if ran.failed_line == line:
        return f"raised {ran.error}"
    if ran.failed_line is not None and line > ran.failed_line:
        return "not reached"
    return "ran fine" if line not in ran.seen else f"ran fine, value {ran.seen[line]}"


def _finding(kind: str, place: Placed, line: int, mypy: str, torch: str, ran: TorchResult) -> Finding:
    step = place.step_of.get(line)
    program = place.program
    op = program.steps[step].op if step is not None else "(signature)"
    detail = program.steps[step].detail if step is not None else ""
    if kind == "missed" and not torch:
        torch = ran.error or ""
    return Finding(kind, program, step, line, op, detail, mypy, torch)


def _normalise(text: str) -> str:
    text = re.sub(r"torch\._tensor\.|tyr\._static\.", "", text)
    text = re.sub(r"\b(v|n|m|ps)\d+\b", "<var>", text)
    text = re.sub(r"-?\b\d+\b", "N", text)
    text = re.sub(r"\b[A-Z]\b", "S", text)
    return text[:160]


# -- reproductions -------------------------------------------------------------------------------


def pretty(text: str) -> str:
    """A revealed type, shortened: `Tensor[B, 8, "D//2"]`."""
    text = text.replace("torch._tensor.Tensor", "Tensor").replace("tyr._static.Dim", "Dim")
    text = re.sub(r"tyr\._static\.DimExpr\[Literal\['([^']*)'\](?:, [A-Za-z_]\w*)*\]", r'"\1"', text)
    text = re.sub(r"Literal\[(-?\d+)\]", r"\1", text)
    return text.replace("*tuple[Any, ...]", "...")


def repro(finding: Finding, place: Placed, ran: TorchResult, report: MypyReport, path: str) -> str:
    """The program cut to the failing step and what it depends on, with what mypy and torch said."""
    program = place.program
    revealed = report.revealed.get(path, {})
    errors = report.errors.get(path, {})
    keep = set(range(len(program.steps))) if finding.step is None else _needed(program, finding.step)
    sliced = program.slice_to(finding.step) if finding.step is not None else program
    out = [render_program(sliced)[0]]
    line = place.def_line
    if finding.step is None:
        out[0] += f"  # <- mypy: {'; '.join(errors.get(line, []))}"
    for index, step in enumerate(program.steps):
        for text in step.lines:
            line += 1
            if index in keep:
                note = ""
                if line == finding.line or line == ran.failed_line or errors.get(line):
                    note = f"  # <- mypy: {'; '.join(errors.get(line, [])) or 'no error'}"
                    if ran.failed_line == line:
                        note += f" | torch: {ran.error}"
                out.append(f"    {text}{note}")
        for name in step.reveals:
            line += 1
            if index in keep:
                got = ran.seen.get(line)
                shown = got if got is not None else "not reached"
                out.append(f"    reveal_type({name})  # mypy: {pretty(revealed.get(line, '?'))}   torch: {shown}")
        if index == finding.step:
            break
    values = ", ".join(f"{k}={v}" for k, v in sorted(program.values.items()))
    return "\n".join([f"# sizes: {values}", *out])


def _needed(program: Program, index: int) -> set[int]:
    keep: set[int] = set()
    todo = [index]
    while todo:
        i = todo.pop()
        if i not in keep:
            keep.add(i)
            todo.extend(program.steps[i].uses)
    return keep


# -- the report ------------------------------------------------------------------------------------


def summary(totals: Totals, seconds: dict[str, float] | None = None) -> str:
    t = totals
    rows = [
        f"programs           {t.programs} ({t.steps} steps): torch ran {t.ran} through, raised in {t.raised}",
        f"false alarms       {t.false_alarms} lines in {t.false_alarm_programs} programs",
        f"wrong shapes       {t.wrong_shapes} reveals in {t.wrong_shape_programs} programs",
        f"caught             {t.caught}/{t.raised} of torch's failures on their line ({100 * t.caught_share:.1f}%), missed {t.missed}",
        f"coverage           {t.tensors_known}/{t.tensors} revealed tensor shapes fully known ({100 * t.coverage:.1f}%); "
        f"sizes {t.sizes_known}/{t.sizes}; {t.gaps} unknown although the sizes mypy knew determine them",
        f"internal errors    {t.internal} [tyr-internal], mypy crashed on {t.crashed} programs",
    ]
    if seconds:
        rows.append("time               " + ", ".join(f"{k} {v:.1f}s" for k, v in seconds.items()))
    return "\n".join(rows)


def catalogue(findings: list[Finding], every: bool = False, examples: int = 1) -> str:
    """The findings grouped by kind, then op, then pattern, with the shortest reproduction of each pattern.

    Root findings come first; findings that may only follow from an earlier one (after a wrong
    shape, or a failure on values mypy did not know) are counted by their cause after them.
    """
    out: list[str] = []
    for kind in KINDS:
        mine = [f for f in findings if f.kind == kind]
        if not mine:
            continue
        roots = [f for f in mine if not f.after]
        later = [f for f in mine if f.after]
        out.append(f"\n==== {kind}: {len(mine)} ({len(roots)} root, {len(later)} following an earlier finding) ====")
        out += _groups(kind, roots, every, examples)
        if later:
            out.append(f"\n--- {kind} following an earlier finding:")
            for (after, op), n in Counter((f.after, f.op) for f in later).most_common():
                out.append(f"  [{n}x] {op}, {after}")
            if every:
                out += _groups(kind, later, every, examples)
    return "\n".join(out)


def _groups(kind: str, findings: list[Finding], every: bool, examples: int) -> list[str]:
    out: list[str] = []
    by_op: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_op[f.op].append(f)
    for op, group in sorted(by_op.items(), key=lambda kv: -len(kv[1])):
        patterns: dict[str, list[Finding]] = defaultdict(list)
        for f in group:
            patterns[f.signature].append(f)
        out.append(f"\n--- {kind} / {op}: {len(group)} ({len(patterns)} patterns)")
        for signature, same in sorted(patterns.items(), key=lambda kv: -len(kv[1])):
            same.sort(key=lambda f: f.repro.count("\n"))
            out.append(f"\n  [{len(same)}x] {signature.split(' | ', 2)[2]}")
            for f in same if every else same[:examples]:
                said = f"{f.detail}: {f.reason}" if f.kind == "wrong shape" else pretty(f.mypy)[:300]
                if f.kind == "unknown":
                    said = f"{f.detail}: revealed {pretty(f.mypy)[:200]}"
                out.append(f"    {f.program.name} line {f.line}: mypy: {said} | torch: {f.torch[:200]}")
                out.append("      " + f.repro.replace("\n", "\n      "))
    return out


def counts_by_op(findings: list[Finding]) -> str:
    rows = Counter((f.kind, f.op) for f in findings)
    return "\n".join(f"  {kind:15} {op:25} {n}" for (kind, op), n in rows.most_common())
