"""No network for a run unless its library says it needs one (issue 19 §3).

Two layers, applied by the worker to its executing thread right before the program runs:

* a seccomp filter that makes ``socket()`` fail with EACCES for every family: internet sockets of
  any kind (TCP, UDP, raw: Landlock sees TCP only) and Unix sockets too, because Landlock does not
  mediate connecting to a socket file (the service's ``control.sock``, the user's D-Bus session bus,
  which can start programs outside any sandbox). ``socketpair()`` stays (it reaches nothing), and
  ``io_uring_setup`` is refused (io_uring opens sockets without the ``socket`` system call). It needs
  only no-new-privileges, so it works on any Linux kernel with seccomp, on the architectures below;
* where the kernel's Landlock ABI is >= 4, the Landlock ruleset also handles TCP bind and connect
  with no port allowed (:func:`clauz3.runs.sandbox.apply`), so a socket that existed before the
  filter cannot connect either.

A run may use the network only when an effect it calls lives in a trusted module that declares
``CLAUZ3_NETWORK = True`` (stdlib smtp, web_fetch, web_search_http do). :func:`plan` decides
this once, during ``checking``/``submitting``, and its sentence is what the card shows.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType

from clauz3.runs.errors import RunError

DECLARATION = "CLAUZ3_NETWORK"

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
EACCES = 13

# BPF opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_JMP|BPF_JGE|BPF_K, BPF_RET|BPF_K.
LD_ABS, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
# struct seccomp_data: nr at 0, arch at 4.
NR, ARCH = 0, 4
X32_BIT = 0x40000000

# machine → (AUDIT_ARCH_*, socket, io_uring_setup)
ARCHES = {
    "x86_64": (0xC000003E, 41, 425),
    "aarch64": (0xC00000B7, 198, 425),
}


class NetGuardError(RunError):
    code = "sandbox_failed"


@dataclass(frozen=True)
class NetPlan:
    """What the run's network is: ``mode`` ∈ landlock | seccomp | declared | unavailable."""

    mode: str
    text: str  # the card's sentence
    declared_by: tuple[str, ...] = ()

    @property
    def deny(self) -> bool:
        return self.mode in ("landlock", "seccomp")

    @property
    def gap(self) -> str | None:
        """The missing protection, in words, or None (an unavailable guard turns automatic approvals off)."""
        return self.text if self.mode == "unavailable" else None

    def to_json(self) -> dict[str, object]:
        return {"mode": self.mode, "text": self.text, "declared_by": list(self.declared_by)}


def declaring_modules(effect_names: Iterable[str], modules: Mapping[str, ModuleType]) -> list[str]:
    """The trusted modules among the program's effects that declare ``CLAUZ3_NETWORK = True``."""
    found: list[str] = []
    for name in effect_names:
        module = modules.get(name.rsplit(".", 1)[0])
        if module is not None and getattr(module, DECLARATION, False) is True:
            found.append(module.__name__)
    return sorted(set(found))


def seccomp_available() -> bool:
    return platform.system() == "Linux" and platform.machine() in ARCHES and sys.byteorder == "little"


def plan(declared_by: Iterable[str], landlock_abi: int | None, *, sandboxed: bool) -> NetPlan:
    names = tuple(declared_by)
    if names:
        libs = ", ".join(sorted({n.split(".trusted")[0].removeprefix("tools.") for n in names}))
        return NetPlan("declared", f"This run can use the network: its library {libs} declares it.", names)
    if not sandboxed:
        return NetPlan("unavailable", "This run can use the network: the sandbox is unavailable.")
    if landlock_abi is not None and landlock_abi >= 4 and seccomp_available():
        return NetPlan("landlock", "This run cannot use the network (Landlock).")
    if seccomp_available():
        return NetPlan("seccomp", "This run cannot use the network (seccomp).")
    return NetPlan("unavailable", "This run can use the network: this kernel offers neither Landlock network "
                                  "rules nor seccomp here.")


def _filter(audit_arch: int, nr_socket: int, nr_uring: int) -> bytes:
    deny = SECCOMP_RET_ERRNO | EACCES
    prog = [
        (LD_ABS, 0, 0, ARCH),
        (JEQ, 1, 0, audit_arch),          # our architecture: go on; another (a compat entry): deny
        (RET, 0, 0, deny),
        (LD_ABS, 0, 0, NR),
        (JGE, 0, 1, X32_BIT),             # x32 system calls (nr | 0x40000000): deny
        (RET, 0, 0, deny),
        (JEQ, 0, 1, nr_uring),
        (RET, 0, 0, deny),
        (JEQ, 0, 1, nr_socket),
        (RET, 0, 0, deny),
        (RET, 0, 0, SECCOMP_RET_ALLOW),
    ]
    return b"".join(struct.pack("=HBBI", *ins) for ins in prog)


def deny_sockets() -> None:
    """Install the filter on the calling thread (and what it starts); raises :class:`NetGuardError`."""
    if not seccomp_available():
        raise NetGuardError(f"seccomp network filter unsupported on {platform.machine()}")
    audit_arch, nr_socket, nr_uring = ARCHES[platform.machine()]
    code = _filter(audit_arch, nr_socket, nr_uring)
    buf = ctypes.create_string_buffer(code, len(code))

    class _Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = _Prog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise NetGuardError(f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(ctypes.get_errno())}")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise NetGuardError(f"seccomp filter refused: {os.strerror(ctypes.get_errno())}")
