"""Soundness reports (MON-3): ``<data>/logs/soundness-<UTC stamp>-<pid>.json``, mode 0600.

They record engine, program, layer fingerprint, IR hash, trace and the broken obligation — never
environment values (nothing from ``os.environ`` beyond locating the data directory).
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from clauz3.interp.trace import Trace
from clauz3.language import ir

INTERP_SEMANTICS_ID = "clauz3-interp-1"


def data_dir() -> Path:
    """``$CLAUZ3_HOME``, else ``$XDG_DATA_HOME/clauz3``, else ``~/.local/share/clauz3`` (absolute only)."""
    from clauz3.storage.paths import data_dir as shared

    return shared(strict=False)


def engine() -> str:
    from clauz3._version import __version__

    return f"{__version__}+{INTERP_SEMANTICS_ID}"


def _guarantee_json(g: ir.Guarantee | None) -> dict[str, Any] | None:
    if g is None:
        return None
    return {
        "kind": g.kind,
        "expression": g.expression,
        "bound_call": g.bound_call,
        "helper": g.helper,
        "library": g.library,
        "class": g.cls,
        "line": g.line,
        "spec": ir.to_jsonable(g.spec),
    }


def write_soundness_report(
    program: ir.CheckedProgram,
    trace: Trace,
    *,
    message: str,
    kind: str,
    guarantee: ir.Guarantee | None,
    detail: str,
    ir_hash: str,
) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    logs = data_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = logs / f"soundness-{stamp}-{os.getpid()}.json"
    doc = {
        "schema_version": 1,
        "engine": engine(),
        "program": {"path": program.path, "target": program.target, "source_sha256": program.source_sha256},
        "layer_sha256": program.layer_sha256,
        "ir_sha256": ir_hash,
        "kind": kind,
        "guarantee": _guarantee_json(guarantee),
        "detail": detail,
        "message": message,
        "trace": trace.to_json(),
    }
    data = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False).encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.chmod(path, 0o600)
    return path
