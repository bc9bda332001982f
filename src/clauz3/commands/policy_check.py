"""``clauz3 policy-check``: what an operator policy would decide for a program (03 §17.4, CLI-7).

The program is proved as the runner proves it; then the policy is evaluated with the authority's
own rule walk (``evaluate_policy``) without executing anything or contacting a service. Entailment
is the authority's own: ``clauz3.prover.entailment.entails`` proves each rule's clauses as added
guarantees on the target (POL-3) in a child process.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path

from clauz3.commands._errors import CommandError

HELP = "Show what an approval policy decides for a program, without running it."

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
EXPECT = ("auto_approved", "auto_rejected", "ask")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from clauz3.commands._roots import add_root_arguments

    parser.add_argument("program", nargs="?", default=None, metavar="PROGRAM|-", help="the agent program (- = stdin)")
    parser.add_argument("--policy", required=True, metavar="FILE", help="the operator policy JSON file")
    add_root_arguments(parser)
    parser.add_argument("--allow-import", action="append", default=[], metavar="MOD",
                        help="add a module or dotted prefix to the import allowlist (default: none)")
    parser.add_argument("--target", default="main", help="function to check (default: main)")
    parser.add_argument("--expect", choices=EXPECT, default=None,
                        help="exit 1 unless the outcome is this one (default: no expectation)")
    parser.add_argument("--policy-timeout", default="20", metavar="S",
                        help="total seconds for rule evaluation, 1–120 (default: 20)")


def run(args: argparse.Namespace) -> int:
    from clauz3.approvals.policies import PolicyError, evaluate_policy, load_policy
    from clauz3.approvals.provenance import flow_warnings
    from clauz3.approvals.reach import effect_names, not_decided
    from clauz3.commands._roots import resolve_roots
    from clauz3.prover.entailment import entailment
    from clauz3.prover.pipeline import ProofRequest, prove_file

    if not _IDENT.match(args.target) or len(args.target) > 128:
        raise CommandError(f"--target must be an identifier of at most 128 characters, got {args.target!r}")
    try:
        timeout = float(args.policy_timeout)
    except ValueError:
        raise CommandError(f"--policy-timeout must be a number of seconds, got {args.policy_timeout!r}") from None
    if not 1 <= timeout <= 120:
        raise CommandError(f"--policy-timeout must be 1–120 seconds, got {args.policy_timeout}")
    try:
        policy = load_policy(Path(args.policy))
    except PolicyError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot read --policy {args.policy}: {exc.strerror or exc}") from None
    if args.program is None:
        raise CommandError("no program given (see clauz3 policy-check --help)")
    project = Path.cwd()
    # Read once: the bytes proved here are the bytes the policy is evaluated on (issue 11 §2).
    if args.program == "-":
        path, data = Path("<stdin>"), sys.stdin.buffer.read(262_145)
    else:
        path = Path(args.program)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {args.program}: {exc.strerror or exc}") from None
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"cannot read {args.program}: {exc}") from None
    trusted, imports = resolve_roots(args, project=project, program=None if args.program == "-" else path)
    outcome = prove_file(ProofRequest(path=path, trusted_roots=trusted, import_roots=imports, target=args.target,
                                      allow_imports=list(args.allow_import), source=data), project_root=project)
    for line in outcome.stderr:
        print(line, file=sys.stderr)
    if outcome.entry.refused:
        return 2
    from clauz3.prover.render import render_entry

    if outcome.verdict != "proved":
        sys.stdout.write(render_entry(outcome.entry))
        print("not submittable: proof failed")
        return 1
    from clauz3.prover.facts import effect_facts

    # Issue 19: an allow rule decides only a program whose every effect its clauses constrain.
    program = outcome.program
    if program is None:  # a cache hit keeps no checked program: check the same bytes again (no proving)
        from clauz3.language import check_source
        from clauz3.prover.pipeline import layer_for

        program = check_source(data, str(path), layer_for(trusted, imports), args.target, list(args.allow_import))
    facts = effect_facts(program)
    listed = effect_names(facts)
    result = asyncio.run(evaluate_policy(
        policy, program=source, target=args.target, trusted_roots=tuple(str(p) for p in trusted),
        import_roots=tuple(str(p) for p in imports), project=str(project), entails=entailment, timeout=timeout,
        effects=frozenset(listed) if listed is not None else None))
    for item in result.uncovered:
        print(not_decided(item["rule"], item["outside"], remembered=False), file=sys.stderr)
    for item in result.undecidable:
        print(f"undecidable: {item['rule']}: {item['why']}", file=sys.stderr)
    if result.deny is not None:
        got = "auto_rejected"
        print(f"auto_rejected: {result.deny.name} ({result.deny.reason})")
    elif result.allow is not None and facts is not None and (flows := flow_warnings(facts)):
        # Issue 20: what the program reads reaches what it sends in the same run; the authority never lets an
        # allow rule decide that (provenance warnings), whatever the conversation held.
        got = "ask"
        for line in flows:
            print(f"provenance: {line}", file=sys.stderr)
        print(f"ask: {result.allow.name} matches, but what this program reads may reach what it sends; a person "
              "decides")
    elif result.allow is not None:
        got = "auto_approved"
        print(f"auto_approved: {result.allow.name} ({result.allow.reason})")
    else:
        got = "ask"
        print("ask: no rule matched; a person decides")
    return 1 if args.expect is not None and args.expect != got else 0
