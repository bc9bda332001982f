"""``clauz3 run``: prove, ask for approval, then execute one program under a worker (03 §17.1).

The CLI is itself the supervisor of a worker started exactly as the bridge starts one (RUN-13).
Nothing (URL, token, key) is read from inside the workspace, which the agent can write (CLI-1). The
approval service, verifying key and library roots come from the record the project's own approval
service published in the data dir; any other value from a flag or variable needs a person at a
terminal to confirm it (issue 11 §3).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clauz3.commands._errors import CommandError
from clauz3.runs.records import Phase, RunRecord

if TYPE_CHECKING:  # the supervisor is imported only when a run starts (keeps `clauz3 --help` fast)
    from clauz3.approvals.anchor import AnchorRecord
    from clauz3.runs.supervisor import RunConfig, RunResult

HELP = "Prove a program, request approval and run it."

MAX_PROGRAM_BYTES = 262_144
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from clauz3.commands._roots import add_root_arguments

    parser.add_argument("program", nargs="?", default=None, metavar="PROGRAM|-", help="the agent program (- = stdin)")
    add_root_arguments(parser)
    parser.add_argument("--allow-import", action="append", default=[], metavar="MOD",
                        help="add a module or dotted prefix to the import allowlist (default: none)")
    parser.add_argument("--target", default="main", help="function to run (default: main)")
    parser.add_argument("--request-id", default=None, metavar="ID",
                        help="idempotency key ^[A-Za-z0-9_-]{8,64}$ (default: generated)")
    parser.add_argument("--approval-service", default=None, metavar="URL",
                        help="loopback approval service URL (default: $CLAUZ3_APPROVAL_SERVICE)")
    parser.add_argument("--token-file", default=None, metavar="PATH",
                        help="file holding the submission token (default: $CLAUZ3_APPROVAL_TOKEN)")
    parser.add_argument("--token-fd", default=None, metavar="FD",
                        help="read the submission token from this open descriptor, e.g. 3 3<token-file")
    parser.add_argument("--verify-key-file", default=None, metavar="PATH",
                        help="file holding the verifying key (default: $CLAUZ3_APPROVAL_VERIFY_KEY)")
    parser.add_argument("--approval-timeout", default="300", metavar="S",
                        help="seconds to wait for a decision, 1–86400 (default: 300)")
    parser.add_argument("--proof-timeout", default=None, metavar="S",
                        help="seconds for start-up, checking and proving, 0 < S ≤ 600 (default: 30)")
    parser.add_argument("--timeout", default="60", metavar="S", help="execution timeout, 1–300 s (default: 60)")
    parser.add_argument("--step-budget", default="1000000", metavar="N",
                        help="interpreter step budget, ≥ 1 (default: 1000000)")
    parser.add_argument("--require-sandbox", action="store_true",
                        help="refuse to run without the Landlock sandbox (default: $CLAUZ3_REQUIRE_SANDBOX)")
    parser.add_argument("--no-cache", action="store_true", help="bypass the proof cache (default: use it)")


def _int(raw: str, what: str, low: int, high: int | None) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise CommandError(f"{what} must be an integer, got {raw!r}") from None
    if value < low or (high is not None and value > high):
        bound = f"{low}–{high}" if high is not None else f"at least {low}"
        raise CommandError(f"{what} must be {bound}, got {raw}")
    return value


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
    except ValueError:
        return False
    return True


def _secret_text(flag_path: str | None, env_name: str, flag: str, workspace: Path, *, secret: bool) -> str | None:
    from clauz3.storage.secretfiles import InsecureFileError, read_secret

    if flag_path:
        path = Path(flag_path)
        if _inside(path, workspace):
            raise CommandError(f"{flag} {flag_path} lies inside the workspace; keep credentials outside it")
        try:
            data = read_secret(path) if secret else path.read_bytes()[:4096]
            return data.decode("ascii").strip()
        except InsecureFileError as exc:
            raise CommandError(str(exc)) from None
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {flag} {flag_path}: {exc}") from None
    return (os.environ.get(env_name) or "").strip() or None


def _token_from_fd(raw: str) -> str:
    fd = _int(raw, "--token-fd", 3, 1 << 20)
    try:
        with os.fdopen(fd, "rb", closefd=True) as fh:
            data = fh.read(4097)
    except OSError as exc:
        raise CommandError(f"cannot read --token-fd {raw}: {exc.strerror or exc}") from None
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError:
        raise CommandError(f"--token-fd {raw} does not hold an ASCII token") from None
    if not text or len(data) > 4096:
        raise CommandError(f"--token-fd {raw} holds no token of at most 4096 bytes")
    return text


def _read_program(name: str | None) -> tuple[str, str]:
    if name is None:
        raise CommandError("no program given (see clauz3 run --help)")
    if name == "-":
        data = sys.stdin.buffer.read(MAX_PROGRAM_BYTES + 1)
        source_name = "<stdin>"
    else:
        try:
            data = Path(name).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror or exc}") from None
        source_name = str(Path(name).absolute())
    if len(data) > MAX_PROGRAM_BYTES:
        raise CommandError(f"program exceeds {MAX_PROGRAM_BYTES} bytes")
    try:
        return data.decode("utf-8"), source_name
    except UnicodeDecodeError:
        raise CommandError("program is not UTF-8 text") from None


def run(args: argparse.Namespace) -> int:
    from clauz3.prover.pipeline import parse_timeout, timeout_from_env
    from clauz3.runs.client import ServiceURLError, parse_service_url
    from clauz3.runs.supervisor import RunConfig
    from clauz3.storage.paths import RelativeHomeError, data_dir

    step_budget = _int(args.step_budget, "--step-budget", 1, None)  # RUN-3: before anything else
    if not _IDENT.match(args.target) or len(args.target) > 128:
        raise CommandError(f"--target must be an identifier of at most 128 characters, got {args.target!r}")
    if args.request_id is not None and not _REQUEST_ID.match(args.request_id):
        raise CommandError("--request-id must match ^[A-Za-z0-9_-]{8,64}$")
    approval_timeout = _int(args.approval_timeout, "--approval-timeout", 1, 86400)
    execution_timeout = _int(args.timeout, "--timeout", 1, 300)
    try:
        if args.proof_timeout is not None:
            proof_timeout = parse_timeout(args.proof_timeout, "--proof-timeout", 0, 600, False)
        else:
            proof_timeout = timeout_from_env("CLAUZ3_PROOF_TIMEOUT_SECONDS", 30.0, 0, 600, False)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    workspace = Path.cwd()
    from clauz3.runs.envsecret import take
    from clauz3.runs.interpreter import writable_interpreter

    env_token = take("CLAUZ3_APPROVAL_TOKEN")  # out of /proc/<pid>/environ before anything else runs
    _refuse_workspace_on_path(workspace)
    refusal = writable_interpreter(workspace)
    if refusal is not None:
        raise CommandError(refusal)
    try:
        data = data_dir()
    except RelativeHomeError as exc:
        raise CommandError(str(exc)) from None
    from clauz3.approvals.anchor import read_anchor

    anchor = read_anchor(data, workspace)  # issue 11 §3: the person's own authority, told by itself
    url_given = args.approval_service or os.environ.get("CLAUZ3_APPROVAL_SERVICE") or ""
    url = url_given or (anchor.service_url if anchor is not None else "")
    if not url:
        raise CommandError("no approval service configured; set CLAUZ3_APPROVAL_SERVICE")
    try:
        parse_service_url(url)
    except ServiceURLError as exc:
        raise CommandError(str(exc)) from None
    if args.token_fd is not None:
        token: str | None = _token_from_fd(args.token_fd)
    elif args.token_file:
        token = _secret_text(args.token_file, "CLAUZ3_APPROVAL_TOKEN", "--token-file", workspace, secret=True)
    else:
        token = env_token
    key_given = _secret_text(args.verify_key_file, "CLAUZ3_APPROVAL_VERIFY_KEY", "--verify-key-file", workspace,
                             secret=False)
    verify_key = key_given or (anchor.verify_key if anchor is not None else None)
    if not verify_key:
        raise CommandError("refusing to run: no approval verifying key configured")
    if not token:
        raise CommandError("no submission token configured; set CLAUZ3_APPROVAL_TOKEN")
    source, source_name = _read_program(args.program)
    program_path = Path(args.program) if args.program not in (None, "-") else None
    trusted, imports = _roots(args, workspace, program_path, anchor)
    _confirm_caller_trust(_doubts(anchor, url_given, key_given, trusted, imports))
    require = args.require_sandbox or os.environ.get("CLAUZ3_REQUIRE_SANDBOX") == "1"
    config = RunConfig(
        source=source, project=workspace, trusted_roots=[str(p) for p in trusted],
        import_roots=[str(p) for p in imports], service_url=url, submission_token=token, verify_key=verify_key,
        data_dir=data, request_id=args.request_id, source_name=source_name, target=args.target,
        allow_imports=list(args.allow_import), proof_timeout_seconds=proof_timeout,
        execution_timeout_seconds=execution_timeout, approval_timeout_seconds=approval_timeout,
        step_budget=step_budget, require_sandbox=require, use_cache=not args.no_cache,
    )
    return _supervise(config)


def _refuse_workspace_on_path(workspace: Path) -> None:
    """Issue 11 §4 for this process itself: a PYTHONPATH entry that is empty, relative or inside the
    workspace puts files the agent (or an approved program) wrote on the path of the process that holds
    the submission token and picks the verifying key; ``export PYTHONPATH=$PYTHONPATH:/opt/x`` with
    PYTHONPATH unset is the common way to get one. Refuse before anything is read or sent."""
    raw = os.environ.get("PYTHONPATH")
    if raw is None or sys.flags.ignore_environment:
        return
    for entry in raw.split(os.pathsep):
        if not entry or not os.path.isabs(entry) or _inside(Path(entry), workspace):
            shown = repr(entry) if entry else "an empty entry"
            raise CommandError(f"refusing to run: PYTHONPATH holds {shown}, which puts the workspace on this "
                               "command's import path; remove it (export PYTHONPATH=/opt/x, not "
                               "$PYTHONPATH:/opt/x)")


def _roots(args: argparse.Namespace, workspace: Path, program: Path | None,
           anchor: AnchorRecord | None) -> tuple[list[Path], list[Path]]:
    """The root flags, else the layer the project's approval service authorised, else CLI-10's defaults."""
    from clauz3.approvals.anchor import AUTHORITY
    from clauz3.commands._roots import resolve_roots

    flags = [*args.trusted_root, *args.trusted_roots, *args.import_root, *args.import_roots]
    if not flags and anchor is not None and anchor.kind == AUTHORITY and anchor.trusted_roots is not None:
        return [Path(p) for p in anchor.trusted_roots], [Path(p) for p in anchor.import_roots or ()]
    return resolve_roots(args, project=workspace, program=program)


def _doubts(anchor: AnchorRecord | None, url_given: str, key_given: str | None, trusted: list[Path],
            imports: list[Path]) -> list[str]:
    """Why the trust inputs are the caller's choice rather than the person's authority's (issue 11 §3).

    Every trust input a flag or variable can set is checked against the record the project's own
    approval service published in the data dir: the URL (a planted one would receive the request and
    answer it), the verifying key (the holder of its signing key approves anything) and the library
    roots (the worker imports them as trusted code before anyone approves)."""
    from clauz3.approvals.anchor import AUTHORITY

    if anchor is None:
        return ["no approval service started for this project is running, so the approval service and "
                "verifying key come from a flag or environment variable"]
    doubts = []
    if url_given and url_given.rstrip("/") != anchor.service_url.rstrip("/"):
        doubts.append(f"the approval service {url_given} is not the one running for this project "
                      f"({anchor.service_url})")
    if key_given and key_given != anchor.verify_key:
        doubts.append("the verifying key given is another key than the one of the approval service running "
                      "for this project")
    if anchor.kind == AUTHORITY and anchor.trusted_roots is not None:
        given = (tuple(os.path.realpath(p) for p in trusted), tuple(os.path.realpath(p) for p in imports))
        if given != (anchor.trusted_roots, tuple(anchor.import_roots or ())):
            doubts.append("the library roots differ from the ones the approval service of this project "
                          "authorised")
    return doubts


def _confirm_caller_trust(doubts: list[str]) -> None:
    """Caller-chosen trust inputs run only when a person at a terminal says so; nothing was sent yet."""
    if not doubts:
        return
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CommandError(f"refusing to run: {doubts[0]}; confirm at a terminal, or start `clauz3 "
                           "approval-service` for this project")
    for doubt in doubts:
        print(f"warning: {doubt}", flush=True)
    try:
        answer = input("Trust this approval service, key and libraries for this run? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise CommandError("not confirmed; nothing was sent and nothing ran")


class _Printer:
    """CLI-2's stdout, in order, driven by the supervisor's record changes."""

    def __init__(self) -> None:
        self.supervisor: Any = None
        self.proofs_printed = False
        self.approval_printed = False

    def proofs(self, text: str) -> None:
        if not self.proofs_printed and text:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            sys.stdout.flush()
        self.proofs_printed = self.proofs_printed or bool(text)

    def on_record(self, record: RunRecord) -> None:
        sup = self.supervisor
        if record.phase in (Phase.SUBMITTING_APPROVAL, Phase.AWAITING_APPROVAL, Phase.EXECUTING):
            self.proofs(sup.proof_text)
        if record.phase == Phase.EXECUTING and not self.approval_printed:
            self.approval_printed = True
            approval = record.approval or {}
            print(f"approval: {approval.get('decision')} receipt={sup.receipt_nonce}")
            rule = approval.get("rule")
            if approval.get("decided_by") in ("policy", "profile") and isinstance(rule, dict):
                print(f"rule: {approval.get('decided_by')}:{rule.get('name')} ({rule.get('reason')})")
            detail = record.sandbox_detail
            print(f"sandbox: {record.sandbox}" + (f" ({detail})" if detail else ""), flush=True)

    @staticmethod
    def on_stdout(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()


def _supervise(config: RunConfig) -> int:
    from clauz3.runs.supervisor import Supervisor

    printer = _Printer()
    sup = Supervisor(config, on_record=printer.on_record, on_stdout=printer.on_stdout)
    printer.supervisor = sup
    got: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        got.append(signum)
        sup.cancel("stopped")

    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        result = sup.run()
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    return _report(result, printer, got)


def _report(result: RunResult, printer: _Printer, signals: list[int]) -> int:
    record = result.record
    reason, phase = record.reason, record.phase
    if reason in ("proof_failed", "proof_deadline"):
        printer.proofs(result.proof_text)
    if record.recorded:
        print(f"recorded: {record.request_id} {phase}" + (f" ({reason})" if reason else ""))
    executed = printer.approval_printed or phase == Phase.COMPLETED
    if executed and result.stderr:
        sys.stderr.write(result.stderr)
    if phase == Phase.COMPLETED or (executed and phase == Phase.FAILED):
        if phase == Phase.COMPLETED:
            print(f"executed: {record.target}")
        print(f"effects: {len(result.effects)}")
        for line in result.effects:
            print(f"  {line}")
    if reason == "denied":
        approval = record.approval or {}
        print(f"approval: {approval.get('decision')}")
        print(f"feedback: {approval.get('feedback') or ''}")
    elif reason is not None or phase != Phase.COMPLETED:
        for line in result.diagnostics:
            print(line, file=sys.stderr)
        message = record.message or reason or phase
        if not result.diagnostics or reason not in ("structural", "import_not_allowed"):
            print(f"error: {message}", file=sys.stderr)
    sys.stdout.flush()
    code = record.exit_code
    if code is None:
        if phase == Phase.CANCELLED and signals:
            return 130 if signals[0] == signal.SIGINT else 143
        return 2
    return int(code)
