"""Prove generated programs with the real checker and prover, then run every proved one.

``python tests/soundness/gen_check.py [--programs N] [--runs R] [--seed S] [--engine hypothesis|random]
[--probes N] [--survey] [--shrink]`` (one layer per process, 01 TL-6, so this runs as its own process).
Each proved program runs R times in the real interpreter with sampled trusted results that satisfy the
effects' postconditions: (a) under the monitor, where any stop or exception means the proof was
wrong, and (b) with the monitor off, where the recorded real calls are judged against every proved
guarantee in plain Python (the harm an end-state guarantee cannot undo). Then ``--probes`` small
programs of known verdict (``generator.build_probe``): one a sound checker refuses must be refused
(a finding of kind ``accepted`` otherwise), one that raises must not prove (its run shows it if it
does). The last stdout line is a JSON summary; violations print their program.
"""

from __future__ import annotations

import argparse
import copy
import inspect
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_coverage import Coverage  # noqa: E402
from generator import Chooser, DrawChooser, Program, RandomChooser, build, build_probe  # noqa: E402

IMPORT_ROOT = HERE / "gen_layers"
TRUSTED_ROOT = IMPORT_ROOT / "tools" / "gen" / "trusted"
STEP_BUDGET = 20_000


@dataclass
class Violation:
    kind: str  # monitor | exception | budget | effect (judged on the real calls)
    run: int
    message: str
    source: str

    def render(self) -> str:
        return f"--- violation ({self.kind}, run {self.run}): {self.message}\n{self.source}"


@dataclass
class Counts:
    generated: int = 0
    refused: int = 0
    proved: int = 0
    runs: int = 0
    incomplete: int = 0
    guarantees_proved: int = 0
    probes: int = 0  # programs built to be refused (each must be)
    refusal_codes: dict[str, int] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)

    coverage: Coverage = field(default_factory=Coverage)

    def summary(self, seconds: float) -> dict[str, Any]:
        return {"coverage": self.coverage.to_json(), "shortfall": self.coverage.shortfall(),
                "generated": self.generated, "refused": self.refused, "proved": self.proved, "runs": self.runs,
                "incomplete": self.incomplete, "guarantees_proved": self.guarantees_proved, "probes": self.probes,
                "violations": len(self.violations), "seconds": round(seconds, 2),
                "refusal_codes": dict(sorted(self.refusal_codes.items(), key=lambda kv: -kv[1])[:12])}


# ------------------------------------------------------------------------------ judging real calls


def fluent_state(calls: list[tuple[str, dict[str, Any]]]) -> dict[str, bool]:
    state: dict[str, bool] = {}
    for name, args in calls:
        if name in ("lock", "unlock"):
            state[args["door"]] = name == "lock"
    return state


def holds(helper: str, args: Mapping[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> bool:
    """The gen layer's contracts, evaluated directly on the calls the effects received."""
    of = {k: [a for n, a in calls if n == k] for k in ("pay", "send", "note")}
    state = fluent_state(calls)
    if helper == "max_pay":
        return sum(a["amount"] for a in of["pay"]) <= args["limit"]
    if helper == "pays_at_most":
        return len(of["pay"]) <= args["n"]
    if helper == "messages_at_most":
        return sum(a["n"] for a in of["send"]) <= args["n"]
    if helper == "never_to":
        return all(a["to"] != args["who"] for a in of["send"])
    if helper == "only_to":
        return all(a["to"] in args["allowed"] for a in of["send"])
    if helper == "notes_are_numbers":
        return all(a["x"] == a["x"] for a in of["note"])
    if helper == "notes_below":
        return all(a["x"] < args["limit"] for a in of["note"])
    if helper == "locked_at_end":
        return state.get(args["door"], True) is True
    if helper == "unlocked_at_end":
        return state.get(args["door"], True) is False
    if helper == "all_locked_at_end":
        return all(state.values())
    if helper == "no_outgoing_to":
        return all(a["to"] != args["who"] for a in of["send"])
    if helper == "outgoing_at_most":
        return len(of["send"]) <= args["n"]
    if helper == "spent_at_most":
        return sum(a["amount"] for a in of["pay"]) <= args["limit"]
    if helper == "to_contacts":  # by value: the monitor's run judges provenance itself
        emails = {e for n, a in calls if n == "contacts:result" for e in a["emails"]}
        return all(a["to"] in emails for a in of["send"])
    raise KeyError(f"no judge for {helper}")


# ------------------------------------------------------------------------------ the lab


OUT_OF_TIME = ("timeout", "deadline", "resource-limit")


def out_of_time(obligations: Any) -> bool:
    """Some obligation ran out of time or resources: a safe "cannot prove" on a loaded machine."""
    return any(o.conclusion == "unknown" and any(w in f"{o.reason} {o.result}" for w in OUT_OF_TIME)
               for o in obligations)


class Lab:
    """One process's layer, prover and interpreter."""

    def __init__(self, workdir: Path) -> None:
        from clauz3.language import ir
        from clauz3.language.layer import load_layer

        # execute() hashes the whole IR on every run (for INT-1 and reports); 40 runs of one program
        # need it once. Memoised by identity, holding the program so the id cannot be reused.
        real_hash = ir.ir_sha256
        memo: dict[int, tuple[Any, str]] = {}

        def ir_sha256(program: Any) -> str:
            hit = memo.get(id(program))
            if hit is None or hit[0] is not program:
                memo.clear()
                hit = memo[id(program)] = (program, real_hash(program))
            return hit[1]

        ir.ir_sha256 = ir_sha256  # type: ignore[assignment]
        self.workdir = workdir
        self.layer = load_layer([TRUSTED_ROOT], [IMPORT_ROOT])
        self.counts = Counts()
        self.counts.coverage.install()

    def prove(self, source: str, name: str) -> tuple[Any, list[Any] | None, str]:
        """(program, proved guarantees, reason): guarantees None when the program is not approvable."""
        from clauz3.language import Refused, check_source
        from clauz3.prover.api import prove

        path = self.workdir / f"{name}.py"
        path.write_text(source)
        try:
            program = check_source(source.encode(), str(path), self.layer, "main")
        except Refused as exc:
            codes = [d.code for d in exc.diagnostics if d.severity == "error"] or ["refused"]
            return None, None, f"refused {codes[0]}"
        try:
            result = prove(program, obligation_timeout=5.0)
        except Exception as exc:  # the prover must never crash (issue 18): a finding, not the end of the check
            return program, None, f"crash {type(exc).__name__}: {exc}"
        # An obligation that ran out of time or resources (a loaded machine) is a safe "cannot prove"; the
        # reason says so, so checks that compare verdicts across runs can leave it out.
        late = " (out of time)" if out_of_time(result.obligations) else ""
        others = [o for o in result.obligations if o.kind not in ("guarantee", "required")]
        if any(o.conclusion != "proved" for o in others):
            bad = next(o for o in others if o.conclusion != "proved")
            return program, None, f"{bad.kind} {bad.conclusion}{late}"
        verdicts = [o for o in result.obligations if o.kind in ("guarantee", "required")]
        proved = [g for g, o in zip(program.guarantees, verdicts, strict=True) if o.conclusion == "proved"]
        return program, (proved or None), "proved" if proved else f"no guarantee proved{late}"

    def stubs(self, program: Any, rng: random.Random, calls: list[tuple[str, dict[str, Any]]], literals: Any
              ) -> dict[str, Callable[..., Any]]:
        from clauz3.difftest.run import StubFactory

        factory = StubFactory(program, self.layer.effects, self.counts.coverage.sampler(rng, program, 3, literals))
        out: dict[str, Callable[..., Any]] = {}
        for name, effect in sorted(program.effects.items()):
            out[name] = recording(factory.stub(effect), effect.short, calls)
        return out

    def run(self, program: Any, proved: list[Any], runs: int, seed: str, source: str) -> list[Violation]:
        from clauz3.difftest.run import Incomplete
        from clauz3.difftest.sample import program_literals
        from clauz3.interp import execute

        found: list[Violation] = []
        literals = program_literals(program)
        target = program.functions[program.target]
        for i in range(1, runs + 1):
            # The same target arguments and trusted results for the monitored and the unmonitored run.
            sampler = self.counts.coverage.sampler(random.Random(f"{seed}|{i}|args"), program, 3, literals)
            arguments = {p.name: sampler.value(p.type) for p in target.params if p.default is None}
            for monitored in (True, False):
                calls: list[tuple[str, dict[str, Any]]] = []
                stubs = self.stubs(program, random.Random(f"{seed}|{i}"), calls, literals)
                self.counts.runs += 1
                try:
                    res = execute(program, stubs, guarantees_to_monitor=proved if monitored else (),
                                  stdout=io.StringIO(), step_budget=STEP_BUDGET, write_report=False,
                                  arguments=arguments)
                except Incomplete:
                    self.counts.incomplete += 1
                    continue
                if res.outcome != "completed":
                    kind = "budget" if "step" in (res.error or "") else (
                        "monitor" if res.outcome == "soundness_violation" else "exception")
                    found.append(Violation(kind, i, f"{'monitored' if monitored else 'unmonitored'} run: "
                                                    f"{res.outcome}: {res.error} (arguments {arguments})", source))
                if not monitored:
                    for g in proved:
                        helper = g.helper.rsplit(".", 1)[-1]
                        if not holds(helper, dict(g.args), calls):
                            found.append(Violation("effect", i, f"the run's real calls break {g.bound_call}: "
                                                                f"{calls}", source))
                if found:
                    return found
        return found

    def check(self, prog: Program, runs: int, seed: str) -> list[Violation]:
        return self.check_source(prog.source(), runs, seed, prog.expect)

    def check_source(self, source: str, runs: int, seed: str, expect: str = "") -> list[Violation]:
        self.counts.generated += 1
        program, proved, reason = self.prove(source, f"gen_{self.counts.generated}")
        if reason.startswith("crash "):
            return [Violation("prover-crash", 0, reason, source)]
        if expect == "refuse":
            self.counts.probes += 1
            if not reason.startswith("refused"):
                # The generator built this program to be refused (gen_families.Families.probe): the checker's
                # facts are an over-approximation, and one that lets it through has a hole, whatever the
                # prover behind it then makes of the program.
                return [Violation("accepted", 0, f"the checker accepted a program a sound checker refuses "
                                                 f"(then: {reason})", source)]
        if proved is None:
            if reason.startswith("refused"):
                self.counts.refused += 1
                code = reason.split(" ", 1)[1]
                self.counts.refusal_codes[code] = self.counts.refusal_codes.get(code, 0) + 1
            return []
        self.counts.proved += 1
        self.counts.guarantees_proved += len(proved)
        return self.run(program, proved, runs, seed, source)

    def shrink(self, prog: Program, runs: int, seed: str) -> Program:
        """Greedy: drop statements, then guarantees, while the program still proves and breaks."""

        def still_fails(p: Program) -> bool:
            program, proved, _ = self.prove(p.source(), "shrink")
            return bool(proved) and bool(self.run(program, proved, runs, seed, p.source()))

        current = prog
        changed = True
        while changed:
            changed = False
            for i in range(len(current.statements)):
                trial = replace(current, statements=current.statements[:i] + current.statements[i + 1:])
                if trial.statements and still_fails(trial):
                    current, changed = trial, True
                    break
            else:
                for i in range(len(current.guarantees)):
                    trial = replace(current, guarantees=current.guarantees[:i] + current.guarantees[i + 1:])
                    if trial.guarantees and still_fails(trial):
                        current, changed = trial, True
                        break
        return current


def recording(stub: Callable[..., Any], short: str, calls: list[tuple[str, dict[str, Any]]]) -> Callable[..., Any]:
    sig = inspect.signature(stub)

    def effect(*args: Any, **kwargs: Any) -> Any:
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        calls.append((short, copy.deepcopy(dict(bound.arguments))))
        result = stub(*args, **kwargs)
        if short == "contacts":
            calls.append(("contacts:result", {"emails": [row.email for row in result]}))
        return result

    effect.__signature__ = sig  # type: ignore[attr-defined]
    effect.__name__ = short
    return effect


# ------------------------------------------------------------------------------ drivers


def random_mode(lab: Lab, args: argparse.Namespace) -> None:
    for k in range(args.programs):
        ch: Chooser = RandomChooser(random.Random(f"{args.seed}|{k}"))
        prog = build(ch)
        found = lab.check(prog, args.runs, f"{args.seed}|{k}")
        if found:
            if args.shrink:
                prog = lab.shrink(prog, args.runs, f"{args.seed}|{k}")
                found = lab.run(*_proved(lab, prog), args.runs, f"{args.seed}|{k}", prog.source()) or found
            lab.counts.violations.append(found[0])
            print(found[0].render(), flush=True)
            if not args.survey:
                return


def probe_mode(lab: Lab, args: argparse.Namespace) -> None:
    """Small programs whose verdict the generator knows (generator.build_probe): each a checker or prover
    question, cheap (most are refused or unproved, so nothing runs)."""
    for k in range(args.probes):
        seed = f"{args.seed}|probe|{k}"
        prog = build_probe(RandomChooser(random.Random(seed)))
        found = lab.check(prog, args.runs, seed)
        if found:
            lab.counts.violations.append(found[0])
            print(found[0].render(), flush=True)
            if not args.survey:
                return


def top_up(lab: Lab, args: argparse.Namespace) -> None:
    """Programs about each table entry (and statement kind) still under the coverage floor: the generator
    covers what the checker accepts, not only what random choice happened to reach."""
    import gen_stanzas

    for attempt in range(args.top_up):
        short = lab.counts.coverage.shortfall()
        focus = sorted({line.split(": ")[0].split(" ", 1)[1] for line in short if line.startswith("operation ")})
        if any(line.startswith("IR node ") for line in short):
            focus.append("small")
        if not focus:
            return
        for key in focus:
            gen_stanzas.FOCUS[0] = key
            seed = f"{args.seed}|top-up|{key}|{attempt}"
            try:
                prog = build(RandomChooser(random.Random(seed)))
            finally:
                gen_stanzas.FOCUS[0] = None
            found = lab.check(prog, args.runs, seed)
            if found:
                lab.counts.violations.append(found[0])
                print(found[0].render(), flush=True)
                if not args.survey:
                    return


def _proved(lab: Lab, prog: Program) -> tuple[Any, list[Any]]:
    program, proved, _ = lab.prove(prog.source(), "shrunk")
    return program, proved or []


def files_mode(lab: Lab, args: argparse.Namespace) -> None:
    """Regression programs (shrunk findings) over the gen layer: each must prove and run clean."""
    for path in args.program:
        found = lab.check_source(Path(path).read_text(), args.runs, str(args.seed))
        if found:
            lab.counts.violations.append(found[0])
            print(found[0].render(), flush=True)


def hypothesis_mode(lab: Lab, args: argparse.Namespace) -> None:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    generating = [True]

    @settings(max_examples=args.programs, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
              print_blob=False)
    @given(st.data())
    def one(data: Any) -> None:
        prog = build(DrawChooser(data.draw))
        found = lab.check(prog, args.runs, str(args.seed)) if generating[0] else lab.check(prog, args.runs, "s")
        if found:
            raise AssertionError(found[0].render())

    try:
        one()
    except AssertionError as exc:
        # Hypothesis re-raises the shrunk example's failure: its program is the one to read.
        lab.counts.violations.append(Violation("shrunk", 0, "see program", str(exc)))
        print(str(exc), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=200)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engine", choices=("hypothesis", "random"), default="hypothesis")
    ap.add_argument("--survey", action="store_true", help="random engine: keep going after a violation")
    ap.add_argument("--shrink", action="store_true", help="random engine: shrink each violation")
    ap.add_argument("--top-up", type=int, default=6, metavar="ROUNDS",
                    help="rounds of programs about entries still under the coverage floor (0: none)")
    ap.add_argument("--probes", type=int, default=None, metavar="N",
                    help="small programs of known verdict besides the generated ones (default: --programs)")
    ap.add_argument("--all-families", action="store_true",
                    help="also generate the families whose fix is still open (gen_stanzas.OPEN_*)")
    ap.add_argument("--program", action="append", default=[], metavar="FILE",
                    help="check these programs instead of generating (regressions)")
    args = ap.parse_args(argv)
    if args.all_families:
        import gen_stanzas

        gen_stanzas.ALL_FAMILIES[0] = True
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="clauz3-gen-") as tmp:
        lab = Lab(Path(tmp))
        if args.program:
            files_mode(lab, args)
        else:
            (random_mode if args.engine == "random" else hypothesis_mode)(lab, args)
            if args.probes is None:
                args.probes = args.programs
            if args.survey or not lab.counts.violations:
                probe_mode(lab, args)
            if args.survey or not lab.counts.violations:
                top_up(lab, args)
    print(json.dumps(lab.counts.summary(time.monotonic() - started)))
    return 1 if lab.counts.violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
