"""06 §4 counts printed by `just bench` (the test suite asserts them; here they are counted):

- qb11_receipts_accepted: tampered receipts accepted (every single-byte change of a valid receipt,
  re-signed claims under another key, wrong binding, expiry, reuse, reuse after reopening) — bar 0.
- qb14_files_escapes: files-endpoint reads that returned anything from outside the workspace
  (traversal and absolute paths, symlinks, a FIFO, a device, and a symlink swapped in by a racing
  thread during 10,000 reads) — bar 0.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from _common import Sample

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
    from clauz3.sessions.files import FilesError, browse, parse_query

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


def collect(reps: int) -> list[Sample]:
    receipts, tried = qb11_receipts_accepted()
    escapes, reads = qb14_files_escapes()
    print(f"  qb11: {tried} tampered receipts tried; qb14: {reads} file reads tried", file=sys.stderr)
    return [Sample("qb11_receipts_accepted", [float(receipts)], unit="count", target=0, kind="count"),
            Sample("qb14_files_escapes", [float(escapes)], unit="count", target=0, kind="count")]
