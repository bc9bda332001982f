"""The launch configuration ``ui.json`` (02 LAUNCH-2, LAUNCH-3).

Written once by the launcher (0600, ``O_CREAT|O_EXCL|O_NOFOLLOW`` in the 0700 ``<tmp>``), read once by
the service, which unlinks it at once. It holds the first login token; no signing key and no
submission token ever (03 CRED-1).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
CONFIG_ENV = "CLAUZ3_UI_CONFIG"


@dataclass
class LaunchConfig:
    agent: str
    project: str
    data_dir: str
    tmp_dir: str
    port: int
    login_token: str
    unrestricted: bool = False
    tutorial: str | None = None
    model: str | None = None
    prompt: str | None = None
    policy: str | None = None
    skills_dirs: list[str] = field(default_factory=list)
    setup: bool = False
    debug: bool = False
    claude_fallback: bool = False  # LAUNCH-10: no AGENT given and claude missing
    # 03 CLI-9 approval flags: for the in-process authority and, through the bootstrap, the bridges.
    policy_timeout: float | None = None
    approval_wait: float | None = None
    proof_timeout: float | None = None
    require_sandbox: bool = False
    # Only tests set these: the bridge argv (module form) and extra entry env. None → clauz3.bridge.
    bridge_argv: list[str] | None = None
    bridge_env: dict[str, str] | None = None
    skip_bridge_check: bool = False

    @property
    def mode(self) -> str:
        return "unrestricted" if self.unrestricted else "restricted"


def write_config(path: Path, config: LaunchConfig) -> None:
    data = json.dumps({"schema_version": SCHEMA_VERSION, **asdict(config)}).encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def read_config_once(path: Path) -> LaunchConfig:
    """Read and unlink ``ui.json``; raises ``ValueError`` for anything malformed."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        raw = b""
        while chunk := os.read(fd, 65536):
            raw += chunk
            if len(raw) > 1024 * 1024:
                raise ValueError("ui.json is too large")
    finally:
        os.close(fd)
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    obj: Any = json.loads(raw.decode("utf-8"))
    if not isinstance(obj, dict) or obj.pop("schema_version", None) != SCHEMA_VERSION:
        raise ValueError("ui.json has an unknown schema")
    known = set(LaunchConfig.__dataclass_fields__)
    return LaunchConfig(**{k: v for k, v in obj.items() if k in known})
