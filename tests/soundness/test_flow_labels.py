"""Issue 20: a differential test of label propagation (flows.never / flows.only).

Random programs (``flow_gen.py``) over ``flow_layer`` go through the real checker and prover, then run
in the real interpreter with run-time labels (``LabelMachine``) several times, each run changing what
some read effects return. For every program:

* every label the run carries into an effect parameter is one the static analysis found there
  (the prover's labels over-approximate the interpreter's);
* for every flow guarantee the prover proved, no run carries a forbidden label into its parameters, and
  the values passed there are the same whichever data the forbidden effects returned (non-interference:
  the guarantee's meaning, checked on the values themselves, not on labels).

The coverage report lists which operations propagated labels; the test fails when one it needs is missing.
``FLOW_PROGRAMS`` (default 40) and ``FLOW_SEED`` scale and move it.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from flow_gen import program as generate  # noqa: E402

ROOT = HERE / "flow_layer"
WEB, NUM, WORDS, SEND, LOG = (f"tools.flow.trusted.effects.{n}" for n in
                              ("read_web", "read_num", "read_words", "send", "log"))
READS = (WEB, NUM, WORDS)
BASE = {WEB: "www alpha x", NUM: 3, WORDS: ["www", "p"]}
_WEBS = ("zz", "x", "", "www", "w p", "alpha")
_WORDS = ([], ["p"], ["x", "www", "a", "b"], ["q", "www", "rr"])
# Each variant changes some reads of BASE; the check of a guarantee compares BASE with the variants that
# change only the reads it forbids.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "web": [{**BASE, WEB: w} for w in _WEBS],
    "all": [{WEB: w, NUM: n, WORDS: ws} for w, n, ws in zip(_WEBS, (0, 5, 1, 2, 3, 4), _WORDS * 2, strict=False)],
    "not_num": [{**BASE, WEB: w, WORDS: ws} for w, ws in zip(_WEBS, _WORDS * 2, strict=False)],
}
# Which reads each guarantee forbids, where it looks, and the variant that changes exactly those reads.
CHECKS = {
    "flow.web_not_in_send()": ("never", (WEB,), ((SEND, "to"), (SEND, "body")), "web"),
    "flow.nothing_read_in_log()": ("never", READS, ((LOG, "n"),), "all"),
    "flow.bodies_only_from_num()": ("only", (NUM,), ((SEND, "body"),), "not_num"),
}
NEEDED_OPS = {"binop + (str)", "FString", "ListExpr", "Slice", "builtin len", "builtin str", "builtin min",
              "ListComp", "IfExp", "If (implicit)", "For (implicit)", "Compare", "SetItem", "method list.append",
              "method dict.get", "method str.join", "Subscript", "UnaryOp not", "HelperCall"}


def _layer_effects(values: dict[str, Any], calls: list[tuple[int, str, dict[str, Any]]]) -> dict[str, Any]:
    def read_web(url: str) -> str:
        return str(values[WEB])

    def read_num(key: str) -> int:
        return int(values[NUM])

    def read_words(key: str) -> list[str]:
        return list(values[WORDS])

    def send(to: str, body: str) -> None:
        calls.append((0, SEND, {"to": to, "body": body}))

    def log(n: int) -> None:
        calls.append((0, LOG, {"n": n}))

    return {WEB: read_web, NUM: read_num, WORDS: read_words, SEND: send, LOG: log}


def _run(program: Any, values: dict[str, Any]) -> tuple[str, list[tuple[int, str, dict[str, Any]]], Any]:
    """(how it ended, sink calls with site and values, the run's label state)."""
    from clauz3.interp.effects import Gateway
    from clauz3.interp.errors import RunStop, StepBudgetExceeded
    from clauz3.interp.flowtrack import LabelMachine
    from clauz3.interp.monitor import Monitor
    from clauz3.interp.trace import Trace

    calls: list[tuple[int, str, dict[str, Any]]] = []
    machine = LabelMachine(program, stdout=io.StringIO(), step_budget=20_000)
    trace = Trace(program)
    machine.gateway = Gateway(program, _layer_effects(values, calls), Monitor(machine, program, []), trace)
    outcome = "completed"
    try:
        machine.run_function(program.functions[program.target], [])
    except StepBudgetExceeded:
        outcome = "budget"
    except RunStop as stop:
        outcome = type(stop).__name__
    sites = [r.site for r in trace.records if r.effect in (SEND, LOG)]
    return outcome, [(site, eff, args) for site, (_, eff, args) in zip(sites, calls, strict=False)], machine.flow


@pytest.fixture(scope="module")
def layer() -> Any:
    from inproc_layer import load_test_layer

    return load_test_layer([ROOT / "tools" / "flow" / "trusted"], [ROOT])


def test_labels_the_prover_proves_absent_never_reach_the_parameter(layer: Any, tmp_path: Path) -> None:
    from clauz3.language import Refused, check_source
    from clauz3.language.flowlabels import FlowAnalysis, forbidden
    from clauz3.language.ir import FlowSpec
    from clauz3.prover.api import prove

    count = int(os.environ.get("FLOW_PROGRAMS", "40"))
    seed0 = int(os.environ.get("FLOW_SEED", "2026"))
    static_ops: Counter[str] = Counter()
    run_ops: Counter[str] = Counter()
    proved: Counter[str] = Counter()
    not_proved: Counter[str] = Counter()
    findings: list[str] = []
    runs = refused = 0
    for k in range(count):
        source = generate(seed0 + k)
        path = tmp_path / f"p{k}.py"
        path.write_text(source)
        try:
            program = check_source(source.encode(), str(path), layer, "main")
        except Refused:
            refused += 1
            continue
        fa = FlowAnalysis(program).run()
        static_ops.update(fa.coverage)
        result = prove(program, obligation_timeout=5.0)
        verdicts = {g.bound_call: o.conclusion for g, o in zip(program.guarantees,
                                                                [o for o in result.obligations
                                                                 if o.kind == "guarantee"], strict=True)}
        results = {"base": [_run(program, BASE)], **{n: [_run(program, v) for v in vs] for n, vs in VARIANTS.items()}}
        runs += sum(len(r) for r in results.values())
        for name, (_, _, flow) in ((n, one) for n, many in results.items() for one in many):
            run_ops.update(flow.coverage)
            # (1) the run's labels are among the analysis' labels, parameter by parameter.
            for site, eff, labels in flow.calls:
                for param, labs in labels.items():
                    extra = set(labs) - set(fa.sites.get(site, {}).get(param, {}))
                    if extra:
                        findings.append(f"program {k} run {name}: {eff} {param} at site {site} carries {extra} "
                                        f"the analysis did not find\n{source}")
        for call, (mode, sources, sinks, variant) in CHECKS.items():
            if verdicts.get(call) != "proved":
                not_proved[call] += 1
                continue
            proved[call] += 1
            spec = FlowSpec(mode, sources, sinks)
            for name, (_, _, flow) in ((n, one) for n, many in results.items() for one in many):
                for _site, eff, labels in flow.calls:
                    for e, param in sinks:
                        if e == eff and forbidden(spec, labels.get(param, {})):
                            findings.append(f"program {k}: {call} proved but run {name} carries "
                                            f"{forbidden(spec, labels[param])} into {param}\n{source}")
            end_a, calls_a, _ = results["base"][0]
            wanted = {e for e, _ in sinks}
            seen_a = [(s, [args[p] for e, p in sinks if e == eff]) for s, eff, args in calls_a if eff in wanted]
            for end_b, calls_b, _ in results[variant]:
                if "budget" in (end_a, end_b):
                    continue
                seen_b = [(s, [args[p] for e, p in sinks if e == eff]) for s, eff, args in calls_b if eff in wanted]
                if seen_a != seen_b:
                    findings.append(f"program {k}: {call} proved, but changing {variant} changed what reached its "
                                    f"parameters: {seen_a} vs {seen_b}\n{source}")
    report = {"programs": count, "refused": refused, "runs": runs, "proved": dict(proved), "not_proved": dict(not_proved),
              "static_ops": dict(sorted(static_ops.items())), "run_ops": dict(sorted(run_ops.items()))}
    print("flow-label coverage:", json.dumps(report, indent=1))
    assert not findings, findings[0]
    assert refused <= count // 4, report
    missing = NEEDED_OPS - set(static_ops) - set(run_ops)
    assert not missing, f"no generated program propagated a label through {sorted(missing)}"
    assert NEEDED_OPS <= set(run_ops), sorted(NEEDED_OPS - set(run_ops))
    for call in CHECKS:  # the test can fail both ways: some programs prove each guarantee, some do not
        assert proved[call] > 0 and not_proved[call] > 0, (call, report)
