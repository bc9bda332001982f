"""Filesystem sandbox with Linux Landlock (03 §14), through raw syscalls via ctypes.

:func:`probe` only asks the kernel for its ABI version (no side effects). :func:`build_rules`
computes the SBX-3 rule list as plain data (tested everywhere); :func:`apply` sets
no-new-privileges and restricts the calling process — irreversibly — to those rules.

DEC-3: rules on non-directories (``/dev/null``, the resolv.conf target, a library file) carry only
the rights that apply to files, or the kernel rejects the rule with EINVAL.
"""

from __future__ import annotations

import ctypes
import errno
import glob
import os
import platform
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from clauz3.runs.errors import RunError

# Syscall numbers are shared by x86_64, aarch64 and the other generic-table architectures.
SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
IOCTL_DEV = 1 << 15  # ABI 5

READ_RIGHTS = EXECUTE | READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV

# ABI 4: TCP bind/connect are handled rights; a ruleset that handles them and allows no port denies both.
NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1
# ABI 6: no connecting to abstract Unix sockets or signalling processes outside the sandbox (the service,
# the supervisor, the person's shell), whatever the filesystem rules say.
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1
NET_ABI = 4
SCOPE_ABI = 6


def handled_rights(abi: int) -> int:
    """Every filesystem right the kernel's ABI knows (SBX-3 handles them all)."""
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


@dataclass(frozen=True)
class Probe:
    mode: str  # "landlock" | "unavailable"
    abi: int | None
    detail: str


@dataclass(frozen=True)
class Rule:
    path: str
    access: int
    is_dir: bool


class SandboxError(RunError):
    """Applying the ruleset failed (the run ends ``sandbox_failed``)."""

    code = "sandbox_failed"


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _is_within(child: Path, parent: Path) -> bool:
    try:
        child.relative_to(parent)
    except ValueError:
        return False
    return True


def probe(*, workspace: Path | None = None, data_dir: Path | None = None,
          env: dict[str, str] | None = None) -> Probe:
    """SBX-1: the kernel's Landlock ABI, or why the sandbox is unavailable."""
    env = dict(os.environ) if env is None else env
    if env.get("CLAUZ3_SANDBOX", "").strip().lower() == "off":
        return Probe("unavailable", None, "disabled by CLAUZ3_SANDBOX=off")
    if platform.system() != "Linux":
        return Probe("unavailable", None, f"Landlock needs Linux (this is {platform.system()})")
    if workspace is not None and data_dir is not None:
        if _is_within(Path(os.path.realpath(data_dir)), Path(os.path.realpath(workspace))):
            return Probe("unavailable", None, "the clauz3 data directory lies inside the workspace")
    try:
        libc = _libc()
        abi = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                           ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))
        err = ctypes.get_errno()
    except (OSError, AttributeError) as exc:
        return Probe("unavailable", None, f"cannot call the Landlock syscalls ({exc})")
    if abi < 1:
        if err == errno.EOPNOTSUPP:
            return Probe("unavailable", None, "Landlock is disabled in this kernel")
        return Probe("unavailable", None, f"kernel without Landlock ABI ≥ 1 ({os.strerror(err)})")
    return Probe("landlock", int(abi), f"Landlock ABI {abi}")


def _system_read_paths() -> list[str]:
    paths = ["/usr", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys", "/dev", *sorted(glob.glob("/lib*"))]
    resolv = os.path.realpath("/etc/resolv.conf")
    if resolv != "/etc/resolv.conf":
        paths.append(resolv)
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        paths.append(prefix)
    paths.extend(p for p in sys.path if p)
    return paths


def build_rules(*, abi: int, workspace: Path, scratch: Path, trusted_roots: Sequence[str | Path] = (),
                import_roots: Sequence[str | Path] = (), extra_read: Iterable[str | Path] = (),
                extra_write: Iterable[str | Path] = (), system_paths: Iterable[str] | None = None) -> list[Rule]:
    """The SBX-3 table as rules; missing paths are skipped, duplicates merged (rights or-ed)."""
    all_rights = handled_rights(abi)
    wanted: dict[str, int] = {}

    def add(path: str | Path, access: int) -> None:
        text = os.path.realpath(os.fspath(path))
        if not os.path.exists(text):
            return
        wanted[text] = wanted.get(text, 0) | access

    for p in (_system_read_paths() if system_paths is None else system_paths):
        add(p, READ_RIGHTS)
    for read_root in [*trusted_roots, *import_roots, workspace, *extra_read]:
        add(read_root, READ_RIGHTS)
    for write_root in [workspace, scratch, "/dev/null", *extra_write]:
        add(write_root, all_rights)
    rules: list[Rule] = []
    for path, access in sorted(wanted.items()):
        is_dir = os.path.isdir(path)
        rules.append(Rule(path, access & all_rights if is_dir else access & all_rights & FILE_RIGHTS, is_dir))
    return [r for r in rules if r.access]


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


def _attr_size(abi: int) -> int:
    """The kernel rejects fields it does not know (E2BIG), so pass only the ABI's prefix of the struct."""
    return 24 if abi >= SCOPE_ABI else 16 if abi >= NET_ABI else 8


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def apply(rules: Sequence[Rule], abi: int, *, deny_tcp: bool = False) -> None:
    """Restrict this thread (and its future children) to ``rules``; raises :class:`SandboxError`.

    ``deny_tcp`` (ABI >= 4) also handles TCP bind and connect with no port allowed; from ABI 6 the
    ruleset always scopes abstract Unix sockets and signals to the sandbox."""
    libc = _libc()
    net = NET_BIND_TCP | NET_CONNECT_TCP if deny_tcp and abi >= NET_ABI else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= SCOPE_ABI else 0
    attr = _RulesetAttr(handled_rights(abi), net, scoped)
    ruleset = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(_attr_size(abi)),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        raise SandboxError(f"landlock_create_ruleset failed: {os.strerror(ctypes.get_errno())}")
    try:
        for rule in rules:
            try:
                fd = os.open(rule.path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # vanished since the rules were built: nothing to grant
            try:
                beneath = _PathBeneathAttr(rule.access, fd)
                rc = libc.syscall(SYS_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset),
                                  ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH), ctypes.byref(beneath), ctypes.c_uint32(0))
                if rc != 0:
                    raise SandboxError(f"landlock_add_rule({rule.path}) failed: {os.strerror(ctypes.get_errno())}")
            finally:
                os.close(fd)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise SandboxError(f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(ctypes.get_errno())}")
        if libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise SandboxError(f"landlock_restrict_self failed: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(ruleset)
