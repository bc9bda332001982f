"""06 §4 counts printed by `just bench` (the test suite asserts them; here they are counted):

- qb11_receipts_accepted: tampered receipts accepted (every single-byte change of a valid receipt,
  re-signed claims under another key, wrong binding, expiry, reuse, reuse after reopening) — bar 0.
- qb14_files_escapes: files-endpoint reads that returned anything from outside the workspace
  (traversal and absolute paths, symlinks, a FIFO, a device, and a symlink swapped in by a racing
  thread during 10,000 reads) — bar 0.
- qb13…qb20 (kill -9 points, WebSocket fuzz, inert output, output flood, transcript limit, concurrency,
  secrets): the suite's real-path checks of each bar (the real launcher, demo agent, bridge, worker,
  authority and Chromium), run here in one pytest process; the count is the checks that failed, of those
  tried — bar 0. A check that was skipped or not collected makes its entry unmeasured, never 0.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

from _common import ROOT, Sample, unmeasured

SECRET = "outside-secret-7f3a"


def qb11_receipts_accepted() -> tuple[int, int]:
    """(accepted, tried)."""
    from clauz3.approvals.keys import SigningKey, b64u_decode, b64u_encode
    from clauz3.approvals.receipts import (
        ReceiptError,
        consent_sha256,
        issue_receipt,
        program_sha256,
        verify_receipt,
    )
    from clauz3.runs.ledger_schema import open_ledger
    from clauz3.runs.nonces import consume_now
    from clauz3.storage.paths import project_sha256

    program = "def main() -> None:\n    pass\n"
    guarantees = ["emails.at_most(1)"]
    coverage = [{"domain": "email", "status": "covered", "missing_required": [], "missing_recommended": []}]
    key, other = SigningKey.generate(), SigningKey.generate()
    tmp = Path(tempfile.mkdtemp(prefix="clauz3-bench-receipts-"))
    project = str(tmp / "project")
    binding = dict(request_id="req_bench0001", program=program, guarantees=guarantees, coverage=coverage,
                   target="main", project=project, workspace_generation="g1")

    def issue(signer: SigningKey = key, **over: object) -> str:
        args: dict[str, object] = dict(
            request_id="req_bench0001", program_sha256=program_sha256(program),
            consent_sha256=consent_sha256(coverage, guarantees, "main"), decision="approved_once",
            workspace_generation="g1", project_sha256=project_sha256(project))
        args.update(over)
        return issue_receipt(signer, **args)[0]  # type: ignore[arg-type]

    def accepted(receipt: str | None, **over: object) -> bool:
        try:
            verify_receipt(receipt, key.verify_key, **{**binding, **over})  # type: ignore[arg-type]
        except ReceiptError:
            return False
        return True

    good = issue()
    if not accepted(good):
        raise RuntimeError("a valid receipt was refused: the tamper count would mean nothing")
    prefix, payload, signature = good.split(".")
    claims = json.loads(b64u_decode(payload))
    body = b64u_encode(json.dumps({**claims, "decision": "approved_remember"}, sort_keys=True,
                                  separators=(",", ":")).encode())
    cases: list[tuple[str | None, dict[str, object]]] = []
    for i, ch in enumerate(good):  # every single-character change
        cases.append((good[:i] + ("B" if ch != "B" else "C") + good[i + 1:], {}))
    cases += [
        (issue(other), {}),
        (f"{prefix}.{body}.{signature}", {}),
        (f"{prefix}.{body}.{b64u_encode(other.sign(f'{prefix}.{body}'.encode()))}", {}),
        (good, {"request_id": "req_bench0002"}), (good, {"program": program + "#"}),
        (good, {"guarantees": ["emails.at_most(2)"]}), (good, {"coverage": []}), (good, {"target": "other"}),
        (good, {"project": project + "-other"}), (good, {"workspace_generation": "g2"}),
        (good, {"now": claims["expires_at"] + 1}), (good + "=", {}), ("", {}), (None, {}),
    ]
    count = sum(1 for receipt, over in cases if accepted(receipt, **over))
    # single use: once consumed, the same receipt is refused, also through a reopened ledger
    verified = verify_receipt(good, key.verify_key, **binding)  # type: ignore[arg-type]
    path = tmp / "runs.sqlite"
    try:
        conn = open_ledger(path)
        consume_now(conn, verified)
        for attempt in range(2):
            try:
                consume_now(conn, verified)
                count += 1
            except ReceiptError:
                pass
            if attempt == 0:
                conn.close()
                conn = open_ledger(path)  # "after restart"
        conn.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return count, len(cases) + 2


def qb14_files_escapes(tries: int = 10_000) -> tuple[int, int]:
    """(escapes, reads)."""
    from clauz3.sessions.web.files import FilesError, browse, parse_query

    tmp = Path(tempfile.mkdtemp(prefix="clauz3-bench-files-"))
    try:
        root, outside = tmp / "workspace", tmp / "outside"
        root.mkdir()
        outside.mkdir()
        (outside / "secret.txt").write_text(SECRET)
        (root / "notes.txt").write_text("inside\n")
        (root / "sub").mkdir()
        (root / "link-file").symlink_to(outside / "secret.txt")
        (root / "link-dir").symlink_to(outside)
        (root / "sub" / "up").symlink_to("../../outside")
        os.mkfifo(root / "fifo")
        with contextlib.suppress(OSError):
            (root / "null").symlink_to("/dev/null")
        paths = ["../outside/secret.txt", "/etc/passwd", str(outside / "secret.txt"), "sub/../../outside/secret.txt",
                 "link-file", "link-dir/secret.txt", "link-dir", "sub/up/secret.txt", "sub/up", "fifo", "null",
                 "..", ".", "sub//notes.txt", "sub\\..\\..\\outside", "notes.txt\x00", "%2e%2e/outside"]
        escapes = reads = 0
        outcomes: dict[str, int] = {}

        def read(path: str) -> None:
            nonlocal escapes, reads
            reads += 1
            try:
                answer = browse(str(root), *parse_query(path, "true"))
            except FilesError as exc:
                outcomes[exc.code] = outcomes.get(exc.code, 0) + 1
                return
            outcomes[answer["kind"]] = outcomes.get(answer["kind"], 0) + 1
            text = json.dumps(answer)
            if SECRET in text or "secret.txt" in text or "root:" in text:
                escapes += 1

        for path in paths:
            read(path)
        outcomes.clear()
        # the race: a thread swaps `race` between an inner file and a symlink to the secret
        race, stop = root / "race", threading.Event()
        (root / "inner.txt").write_text("inner\n")

        def swap() -> None:
            spare = root / ".race-tmp"
            while not stop.is_set():
                for target in (outside / "secret.txt", root / "inner.txt"):
                    with contextlib.suppress(OSError):
                        if target.parent == root:
                            shutil.copyfile(target, spare)
                        else:
                            spare.symlink_to(target)
                        os.replace(spare, race)

        swapper = threading.Thread(target=swap, daemon=True)
        swapper.start()
        try:
            for _ in range(tries):
                read("race")
        finally:
            stop.set()
            swapper.join()
        # the race only means something if both states were seen
        print(f"  qb14 race outcomes: {dict(sorted(outcomes.items()))}", file=sys.stderr)
        return escapes, reads
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# Each bar's real-path checks in the suite (06 §4). Soak items are included: the transcript limit at its
# real 8,000,000 bytes and the 10,000-read symlink race are what the bars name.
SUITE_BARS: dict[str, tuple[str, tuple[str, ...]]] = {
    "qb13_kill_failures": ("kill -9 points", (
        "tests/e2e/test_qb13_kill_points.py::test_kill_9_leaves_no_orphans_restores_and_never_reruns",
        "tests/e2e/test_qb13_kill_points.py::test_kill_9_while_executing_records_the_run_uncertain",
        "tests/e2e/test_service_kill.py")),
    "qb15_ws_fuzz_failures": ("WebSocket fuzz checks", (
        "tests/sessions/test_ws_connection.py::test_fuzzed_frames_never_break_the_socket",
        "tests/sessions/test_ws_connection.py::test_huge_and_binary_frames")),
    "qb16_inert_failures": ("inert-output browser checks", (
        "tests/browser/test_inert_and_markdown.py::test_hostile_text_everywhere_stays_inert",
        "tests/browser/test_inert_and_markdown.py::test_hostile_tool_result_stays_inert")),
    "qb17_flood_failures": ("runs flooding 1 GiB per stream", ("tests/security/test_output_flood.py",)),
    "qb18_limit_failures": ("transcript-limit checks", ("tests/sessions/test_transcript_limit.py",)),
    "qb19_concurrency_failures": ("concurrency scenarios", ("tests/e2e/test_qb19_concurrency.py",)),
    "qb20_secret_failures": ("full-flow secret searches", ("tests/security/test_secrets_full_flow.py",)),
}


Bars = dict[str, tuple[str, tuple[str, ...]]]


def _bar_of(case: ET.Element, bars: Bars) -> str | None:
    """The bar a JUnit test case (xunit1: it names its file) belongs to."""
    file = (case.get("file") or "").replace(os.sep, "/")
    node = f"{file}::{case.get('name', '').split('[')[0]}"
    for bar, (_, targets) in bars.items():
        if node in targets or file in targets:
            return bar
    return None


def suite_bars(bars: Bars = SUITE_BARS, cwd: Path = ROOT) -> list[Sample]:
    """Run every bar's checks in one pytest process (serial, soak included) and count failures per bar."""
    targets = [t for _, ts in bars.values() for t in ts]
    with tempfile.TemporaryDirectory(prefix="clauz3-bench-bars-") as tmp:
        report = Path(tmp) / "junit.xml"
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-m", "soak or not soak", "-rs",
                               "-o", "junit_family=xunit1", f"--junitxml={report}", *targets], cwd=cwd, env=env,
                              capture_output=True, text=True)
        if not report.exists():
            tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
            reason = f"pytest wrote no report (exit {done.returncode}): {' | '.join(tail)[:300]}"
            return [unmeasured(bar, reason) for bar in bars]
        tree = ET.parse(report)
    tried: dict[str, int] = dict.fromkeys(bars, 0)
    failed: dict[str, list[str]] = {bar: [] for bar in bars}
    skipped: dict[str, list[str]] = {bar: [] for bar in bars}
    for case in tree.iter("testcase"):
        bar = _bar_of(case, bars)
        if bar is None:
            continue
        name = case.get("name", "?")
        if case.find("skipped") is not None:
            reason = case.find("skipped").get("message", "")  # type: ignore[union-attr]
            skipped[bar].append(f"{name} skipped: {reason[:120]}")
            continue
        tried[bar] += 1
        broke = case.find("failure")
        broke = broke if broke is not None else case.find("error")
        if broke is not None:
            failed[bar].append(name)
            why = " ".join((broke.get("message") or broke.text or "").split())[:300]
            print(f"  {bar}: {name} failed: {why}", file=sys.stderr)
    samples: list[Sample] = []
    for bar, (what, _) in bars.items():
        if skipped[bar]:
            samples.append(unmeasured(bar, "; ".join(skipped[bar])))
        elif tried[bar] == 0:
            samples.append(unmeasured(bar, f"no check ran (pytest exit {done.returncode})"))
        else:
            note = f"{tried[bar]} {what} tried" + (f"; failed: {', '.join(failed[bar])}" if failed[bar] else "")
            samples.append(Sample(bar, [float(len(failed[bar]))], unit="count", target=0, kind="count", note=note))
    return samples


def collect(reps: int) -> list[Sample]:
    receipts, tried = qb11_receipts_accepted()
    escapes, reads = qb14_files_escapes()
    print(f"  qb11: {tried} tampered receipts tried; qb14: {reads} file reads tried", file=sys.stderr)
    return [Sample("qb11_receipts_accepted", [float(receipts)], unit="count", target=0, kind="count",
                   note=f"{tried} tampered receipts tried"),
            Sample("qb14_files_escapes", [float(escapes)], unit="count", target=0, kind="count",
                   note=f"{reads} reads tried"),
            *suite_bars()]
