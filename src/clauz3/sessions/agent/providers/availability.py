"""Is a provider installed, and at the pinned version? (04 PRV-2, PRV-3, SUP-2)

Checked without running agent code: the command is looked up on PATH, its realpath's nearest
named ``package.json`` gives package and version. Only Node itself is run (``node --version``,
≤ 10 s) for Pi's hard floor and Claude's soft one. Call off the event loop.

These are the checks' parts; which one an agent uses is its provider's ``availability`` (:mod:`.registry`,
whose :func:`~.registry.check` is the one entry point).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from clauz3.sessions.agent.providers.table import (
    CLAUDE_NODE_MIN,
    CODEX_ACP_OLD_PACKAGE,
    PI_NODE_MIN,
    ProviderRow,
)

CHECK_TIMEOUT = 10.0
PI_NODE_HINT = "npm install --prefix <dir> node@22, then put <dir>/node_modules/.bin first on PATH"
_NODE_VERSION = re.compile(r"^v(\d+)\.(\d+)\.(\d+)")


@dataclass(frozen=True)
class Availability:
    """The result of one check. ``argv`` is the adapter command, ``argv[0]`` absolute (SUP-2).

    ``reason`` says why it is unavailable; ``hint`` is what to run to fix it (the exact install
    hint, or PRV-3's version note); ``warning`` is set for an available provider whose version
    or Node differs from what clauz3 was tested with.
    """

    available: bool
    reason: str = ""
    argv: tuple[str, ...] = ()
    hint: str = ""
    version: str | None = None
    warning: str = ""
    package_dir: str | None = None

    def error_line(self, label: str) -> str:
        """PRV-4's one line (without the ``error: `` prefix the CLI adds)."""
        return f"{label} can't start: {self.reason.rstrip('.')}. Install it with: {self.hint}"


@dataclass(frozen=True)
class PackageInfo:
    name: str
    version: str
    directory: Path


def nearest_package(executable: str) -> PackageInfo | None:
    """The first ``package.json`` with a string ``name`` above the executable's realpath."""
    here = Path(os.path.realpath(executable)).parent
    for folder in [here, *here.parents]:
        manifest = folder / "package.json"
        if not manifest.is_file():
            continue
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            version = data.get("version")
            return PackageInfo(data["name"], version if isinstance(version, str) else "", folder)
    return None


def node_version(path: str | None = None) -> tuple[str, tuple[int, int, int] | None]:
    """``(text, parsed)`` for ``node --version`` on PATH; ``("", None)`` when there is no node."""
    node = shutil.which("node", path=path)
    if node is None:
        return "", None
    try:
        out = subprocess.run(
            [os.path.abspath(node), "--version"], capture_output=True, text=True, timeout=CHECK_TIMEOUT,
            stdin=subprocess.DEVNULL, check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "", None
    match = _NODE_VERSION.match(out)
    return out, (tuple(int(g) for g in match.groups()) if match else None)  # type: ignore[return-value]  # the pattern has exactly three groups: (major, minor, patch)


def python_adapter_argv(module: str) -> tuple[str, ...]:
    """A Python adapter runs on the host's interpreter, unresolved (a venv symlink stays the venv)."""
    return (sys.executable, "-P", "-m", module)


def on_path(row: ProviderRow, path: str | None) -> str | Availability:
    """The absolute path of ``row.command`` on PATH, or the PRV-2 "not on PATH" result."""
    assert row.command is not None
    found = shutil.which(row.command, path=path)
    if found is None:
        return Availability(False, f"{row.command} is not on PATH", hint=row.install_hint)
    return os.path.abspath(found)


def npm_adapter(
    row: ProviderRow, path: str | None, *, args: tuple[str, ...] = (), node_warning: bool = False,
) -> Availability:
    """PRV-2/PRV-3 for an adapter that is an npm package's command, run as ``(command, *args)``.

    ``node_warning`` adds Claude's soft Node floor (CLAUDE_NODE_MIN) to an otherwise clean result.
    """
    executable = on_path(row, path)
    if isinstance(executable, Availability):
        return executable
    package = nearest_package(executable)
    if package is None or package.name != row.package:
        return _wrong_package(row, package)
    argv = (executable, *args)
    if package.version != row.pin:
        if row.exact_pin:
            return Availability(
                False, f"clauz3 needs {row.package} {row.pin}, found {package.version or 'no version'}",
                hint=row.install_hint, version=package.version,
            )
        note = f"tested with {row.pin}, found {package.version or 'no version'}"
        return Availability(
            True, argv=argv, hint=note, version=package.version, warning=note, package_dir=str(package.directory),
        )
    warning = _claude_node_warning(path) if node_warning else ""
    return Availability(
        True, argv=argv, hint=warning or row.install_hint, version=package.version,
        warning=warning, package_dir=str(package.directory),
    )


def native_adapter(row: ProviderRow, path: str | None, module: str) -> Availability:
    """A native adapter (agy): its runtime's command on PATH; the adapter is clauz3's own ``module``."""
    executable = on_path(row, path)
    if isinstance(executable, Availability):
        return executable
    return Availability(True, argv=python_adapter_argv(module))


def _wrong_package(row: ProviderRow, package: PackageInfo | None) -> Availability:
    if package is not None and package.name == CODEX_ACP_OLD_PACKAGE:
        reason = f"{row.command} on PATH is the older {CODEX_ACP_OLD_PACKAGE}; clauz3 needs {row.package}"
    else:
        reason = f"{row.command} on PATH is not the {row.package} package"
    return Availability(False, reason, hint=row.install_hint)


def _claude_node_warning(path: str | None) -> str:
    text, parsed = node_version(path)
    if parsed is not None and parsed < CLAUDE_NODE_MIN:
        return f"Claude's adapter declares Node.js 22 or newer (found {text}); it may fail to start"
    return ""


def pi_adapter(row: ProviderRow, path: str | None, module: str) -> Availability:
    """Pi (PI-1): the pinned package exactly, its ``dist/index.js``, and Node at least PI_NODE_MIN."""
    executable = on_path(row, path)
    if isinstance(executable, Availability):
        return executable
    package = nearest_package(executable)
    if package is None or package.name != row.package:
        return _wrong_package(row, package)
    if package.version != row.pin:
        return Availability(
            False, f"clauz3 needs {row.package} {row.pin}, found {package.version or 'no version'}",
            hint=row.install_hint, version=package.version,
        )
    if not (package.directory / "dist" / "index.js").is_file():
        return Availability(False, f"{row.package} {row.pin} has no dist/index.js", hint=row.install_hint)
    text, parsed = node_version(path)
    if parsed is None or parsed < PI_NODE_MIN:
        found = text or "no node on PATH"
        return Availability(
            False,
            f"Pi needs Node.js 22.19 or newer (found {found}); Pi {row.pin} crashes at startup on Node 20.",
            hint=PI_NODE_HINT, version=package.version,
        )
    return Availability(
        True, argv=python_adapter_argv(module), hint=row.install_hint, version=package.version,
        package_dir=str(package.directory),
    )
