"""Differential testing of proved programs (01 §6).

``python -m clauz3.difftest [--trusted-root DIR]… [--import-root DIR]… [--runs N] [--seed S]
[--max-rows N] [--json] PATH…``. PATH is a program, or a folder whose ``cases/`` or
``tests/cases/`` ``*_pass.py`` files are used. Each fully proved program is run ``--runs`` times
on stubbed effects with the monitor on. A program that is not fully proved (a fail case, a refused
program, a ``*_pass.py`` case that does not prove) cannot be tested, so it fails the check (``not
proved``); so does a check that ran fewer programs than it was given pass cases, or none at all —
it never passes on nothing.

One layer per process (TL-6): when the PATHs need several layers, each layer's programs are
tested in a child process and the parent merges their JSON reports in PATH order.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from clauz3.base.errors import Clauz3Error
from clauz3.difftest.run import Finding, run_program

if TYPE_CHECKING:
    from clauz3.prover.entry import ProofEntry


class UsageError(Clauz3Error):
    pass


@dataclass
class Group:
    """Programs sharing one layer."""

    trusted: list[Path]
    imports: list[Path]
    programs: list[Path] = field(default_factory=list)

    def key(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(map(str, self.trusted)), tuple(map(str, self.imports))


@dataclass
class Summary:
    programs: int = 0
    runs: int = 0
    incomplete: int = 0
    pass_cases: int = 0
    findings: list[Finding] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    not_proved: list[tuple[str, str]] = field(default_factory=list)

    def merge(self, other: Summary) -> None:
        self.programs += other.programs
        self.runs += other.runs
        self.incomplete += other.incomplete
        self.pass_cases += other.pass_cases
        self.findings.extend(other.findings)
        self.skipped.extend(other.skipped)
        self.not_proved.extend(other.not_proved)

    @property
    def failed(self) -> bool:
        """Findings, a program that does not prove (so was not run), fewer programs run than pass
        cases given, or no program run at all."""
        return bool(self.findings or self.not_proved or self.skipped) or self.programs < self.pass_cases \
            or self.programs == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": 1,
            "findings": [f.to_json() for f in self.findings],
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
            "not_proved": [{"path": p, "reason": r} for p, r in self.not_proved],
            "summary": {"programs": self.programs, "runs": self.runs, "findings": len(self.findings),
                        "incomplete": self.incomplete, "pass_cases": self.pass_cases},
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Summary:
        s = doc["summary"]
        return cls(
            programs=s["programs"], runs=s["runs"], incomplete=s["incomplete"], pass_cases=s["pass_cases"],
            findings=[Finding(f["kind"], f["path"], f["run"], f["message"]) for f in doc["findings"]],
            skipped=[(x["path"], x["reason"]) for x in doc["skipped"]],
            not_proved=[(x["path"], x["reason"]) for x in doc["not_proved"]],
        )

    def render(self, out: TextIO) -> None:
        for path, reason in self.skipped:
            out.write(f"not proved: {path}: {reason} (only a fully proved program can be run and checked)\n")
        for path, reason in self.not_proved:
            out.write(f"not proved: {path}: {reason} (a pass case must prove)\n")
        for f in self.findings:
            out.write(f.line() + "\n")
        if self.programs < self.pass_cases:
            out.write(f"error: {self.pass_cases} pass cases but only {self.programs} programs ran\n")
        elif self.programs == 0:
            out.write("error: no program was fully proved, so nothing ran: the check tested nothing\n")
        out.write(f"{self.programs} programs, {self.runs} runs, {len(self.findings)} findings, "
                  f"{self.incomplete} incomplete\n")


def _library_root_of(path: Path) -> Path | None:
    for parent in [path.parent, *path.parent.parents]:
        if (parent / "tools").is_dir():
            return parent
    return None


def _cases(folder: Path) -> list[Path]:
    for sub in (folder / "cases", folder / "tests" / "cases"):
        if sub.is_dir():
            found = sorted(p for p in sub.glob("*_pass.py") if p.is_file())
            if not found:  # a check over no program would pass on nothing
                raise UsageError(f"{sub}: no *_pass.py cases")
            return found
    raise UsageError(f"{folder}: no cases/ or tests/cases/ folder")


def plan(paths: Sequence[str], trusted: Sequence[str], imports: Sequence[str]) -> list[Group]:
    """Group the programs of PATHs by layer, in PATH order."""
    from clauz3.prover.casetest import CaseError, library_roots

    groups: dict[tuple[tuple[str, ...], tuple[str, ...]], Group] = {}
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise UsageError(f"{raw}: no such file or folder")
        files = _cases(p) if p.is_dir() else [p]
        if trusted:
            t = [Path(x) for x in trusted]
            i = [Path(x) for x in imports] or [t[0].parent.parent.parent]
        else:
            base = p if p.is_dir() and (p / "tools").is_dir() else _library_root_of(p if p.is_file() else p / "x")
            if base is None:
                raise UsageError(f"{raw}: no trusted library (tools/<domain>/trusted) found; pass --trusted-root")
            try:
                t, i = library_roots(base)
            except CaseError as exc:
                raise UsageError(str(exc)) from None
            if imports:
                i = [Path(x) for x in imports]
        group = Group(t, i)
        groups.setdefault(group.key(), group).programs.extend(files)
    return list(groups.values())


def _not_proved(entry: ProofEntry) -> str | None:
    if entry.refused:
        codes = [c for c in entry.diagnostic_codes() if c]
        return f"refused {codes[0]}" if codes else "refused"
    o = entry.first_open()
    return None if o is None else f"not fully proved ({o.conclusion} {o.kind})"


def is_pass_case(path: Path) -> bool:
    return path.name.endswith("_pass.py")


def check_group(group: Group, *, runs: int, seed: int, max_rows: int) -> Summary:
    """Prove and differentially run one layer's programs in this process."""
    from clauz3.prover.pipeline import ProofRequest, prove_file

    summary = Summary()
    for path in group.programs:
        label = str(path)
        summary.pass_cases += is_pass_case(path)
        req = ProofRequest(path, group.trusted, group.imports, use_cache=False)
        outcome = prove_file(req, project_root=group.imports[0])
        reason = _not_proved(outcome.entry)
        if reason is None and outcome.program is None:
            reason = "no checked program"
        if reason is not None:
            (summary.not_proved if is_pass_case(path) else summary.skipped).append((label, reason))
            continue
        effects = dict(getattr(outcome.layer, "effects", {}) or {})
        assert outcome.program is not None  # else reason was set above
        report = run_program(outcome.program, effects, path=label, runs=runs, seed=seed, max_rows=max_rows)
        summary.programs += 1
        summary.runs += report.runs
        summary.incomplete += report.incomplete
        summary.findings.extend(report.findings)
    return summary


def _child(group: Group, args: argparse.Namespace) -> Summary:
    cmd = [sys.executable, "-m", "clauz3.difftest", "--json", "--runs", str(args.runs), "--seed", str(args.seed),
           "--max-rows", str(args.max_rows)]
    for t in group.trusted:
        cmd += ["--trusted-root", str(t)]
    for i in group.imports:
        cmd += ["--import-root", str(i)]
    cmd += ["--", *map(str, group.programs)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    try:
        return Summary.from_json(json.loads(proc.stdout))
    except (ValueError, KeyError):
        text = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise UsageError(f"difftest child for {group.trusted[0]} failed: {text}") from None


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m clauz3.difftest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--trusted-root", action="append", default=[], metavar="DIR")
    ap.add_argument("--trusted-roots", nargs="+", default=[], metavar="DIR")
    ap.add_argument("--import-root", action="append", default=[], metavar="DIR")
    ap.add_argument("--import-roots", nargs="+", default=[], metavar="DIR")
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-rows", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("paths", nargs="+", metavar="PATH")
    return ap


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = parser().parse_args(argv)
    if args.runs < 1 or args.max_rows < 0:
        print("error: --runs must be ≥ 1 and --max-rows ≥ 0", file=sys.stderr)
        return 2
    try:
        groups = plan(args.paths, [*args.trusted_root, *args.trusted_roots], [*args.import_root, *args.import_roots])
        summary = Summary()
        if len(groups) == 1:
            summary.merge(check_group(groups[0], runs=args.runs, seed=args.seed, max_rows=args.max_rows))
        else:
            for group in groups:
                summary.merge(_child(group, args))
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a layer error or similar: one line, never a traceback
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out.write(json.dumps(summary.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        summary.render(out)
    return 1 if summary.failed else 0

