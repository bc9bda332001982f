"""Read-only trusted code inside a writable workspace, and no view of the data dir (issue 19 §3).

Landlock only grants: a write grant on the workspace root covers every folder beneath it, so it
cannot keep the program away from trusted roots, ``tools/`` or ``.clauz3/`` that live in the
workspace. The worker therefore starts, still single-threaded, in a private mount namespace (its
own user namespace when it is not root) where each top-level workspace entry holding protected
code is bind-mounted read-only: the whole entry, so renaming a parent cannot swap the code
either, and a mount point cannot be renamed or removed. Right before the program runs, the data
directory is covered by an empty read-only tmpfs, so the service's control socket, keys and
ledgers are not even visible. Landlock, applied after both, forbids the program every mount
operation, so neither can be undone.

Nothing here is visible outside the worker: the namespace's mounts are private and die with it.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
# statvfs flag → mount flag: a bind remount must repeat the flags the original mount locks.
_LOCKED = ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
           (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME))


@dataclass
class Confinement:
    """What :func:`enter` achieved: ``mode`` is ``mounts`` or ``unavailable`` (then ``detail`` says why)."""

    mode: str
    detail: str
    read_only: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.mode == "mounts"


def _within(child: str, parent: str) -> bool:
    return child == parent or child.startswith(parent.rstrip("/") + "/")


def protected_entries(workspace: Path, trusted_roots: Iterable[str | Path]) -> list[str]:
    """The top-level workspace entries to make read-only: those holding a trusted root, ``tools``,
    ``.clauz3`` and ``.git`` (each only if it exists; ``.clauz3`` is created, see :func:`enter`)."""
    ws = os.path.realpath(workspace)
    wanted: set[str] = set()
    for root in trusted_roots:
        real = os.path.realpath(root)
        if real != ws and _within(real, ws):
            wanted.add(os.path.join(ws, os.path.relpath(real, ws).split(os.sep)[0]))
    for name in ("tools", ".clauz3", ".git"):
        wanted.add(os.path.join(ws, name))
    return sorted(p for p in wanted if os.path.isdir(p) and not os.path.islink(p))


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    libc = _libc()
    rc = libc.mount(source.encode() if source else None, target.encode(), fstype.encode() if fstype else None,
                    ctypes.c_ulong(flags), data.encode() if data else None)
    if rc != 0:
        raise OSError(ctypes.get_errno(), f"mount {target}: {os.strerror(ctypes.get_errno())}")


def _unshare() -> None:
    """A private mount namespace: as root directly, else inside a user namespace mapping only ourselves."""
    libc = _libc()
    uid, gid = os.geteuid(), os.getegid()
    if uid == 0 and libc.unshare(CLONE_NEWNS) == 0:
        return
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), f"unshare: {os.strerror(ctypes.get_errno())}")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w", encoding="ascii") as fh:
            fh.write(text)


_PROBED: list[str | None] = []  # the probe's answer, kept by the warm prover for the workers it forks


def _try_in_child() -> str | None:
    """Why a namespace cannot be had here (None: it can), found in a throwaway child: a user namespace
    entered without the right to map or mount in it (AppArmor, a container's seccomp) cannot be left.
    Root needs no user namespace (a failed mount leaves it in a harmless private copy): no probe."""
    if os.geteuid() == 0:
        return None
    if _PROBED:
        return _PROBED[0]
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            _unshare()
            _mount(None, "/", None, MS_REC | MS_PRIVATE)
            code = 0
        except BaseException:
            pass
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    _PROBED.append(None if os.waitstatus_to_exitcode(status) == 0 else "this system allows no private mount namespace")
    return _PROBED[0]


def probe_once() -> None:
    """Ask once, ahead of the runs (the warm prover calls this before it forks workers)."""
    if os.geteuid() != 0 and os.path.isdir("/proc/self/ns"):
        _try_in_child()


def _read_only_bind(path: str) -> None:
    _mount(path, path, None, MS_BIND | MS_REC)
    flags = os.statvfs(path).f_flag
    locked = 0
    for st_flag, ms_flag in _LOCKED:
        if flags & st_flag:
            locked |= ms_flag
    _mount(None, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY | locked)


def enter(workspace: Path, trusted_roots: Sequence[str | Path]) -> Confinement:
    """Call before any thread starts (a user namespace needs a single-threaded process)."""
    if not os.path.isdir("/proc/self/ns"):
        return Confinement("unavailable", "no Linux namespaces")
    dot = Path(os.path.realpath(workspace)) / ".clauz3"
    try:
        # Absent, a program could create it and plant the workspace's libraries or settings.
        dot.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        pass
    entries = protected_entries(workspace, trusted_roots)
    why = _try_in_child()
    if why is not None:
        return Confinement("unavailable", why)
    try:
        _unshare()
        _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing mounted here propagates outside
        for entry in entries:
            _read_only_bind(entry)
    except OSError as exc:
        return Confinement("unavailable", f"no private mount namespace ({exc.strerror or exc})")
    return Confinement("mounts", "read-only: " + ", ".join(entries) if entries else "nothing to protect", entries)


PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """No capability for the executing thread: a worker run as root would otherwise keep, e.g.,
    CAP_DAC_READ_SEARCH, and open_by_handle_at reaches a file through the writable mount of a folder
    that is read-only here. Raises OSError when the kernel refuses."""
    libc = _libc()
    try:
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as fh:
            last = int(fh.read().strip())
    except (OSError, ValueError):
        last = 40
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for cap in range(last + 1):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # fails without CAP_SETPCAP: the capset below still holds
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), f"capset: {os.strerror(ctypes.get_errno())}")


def cover(path: Path, workspace: Path) -> None:
    """An empty read-only tmpfs over ``path`` (never over the workspace or one of its ancestors)."""
    real, ws = os.path.realpath(path), os.path.realpath(workspace)
    if _within(ws, real) or not os.path.isdir(real):
        return
    _mount("clauz3-hidden", real, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0500")
