"""Memory a long-lived process need not hold (06 ``tree_rss``): imports nothing of clauz3.

:func:`give_back`: Python returns small objects to its own arenas and z3 frees its solver state with
``free``; glibc keeps both in the process's heap until told otherwise, so a process that proved once holds
its peak while it waits. ``malloc_trim(0)`` hands the free pages back. Called where a process is about to
wait (the authority's prover child after an answer is sent, the warm template before its first fork), never
on a path someone is waiting for.

:func:`bare_packages`: an SDK whose package ``__init__`` re-exports everything (``mcp``) costs its whole
transport stack to import one module of it. The bridge's process registers such packages bare and imports
only the modules it uses (the demo agent, which imports nothing of clauz3, has its own copy in
``agents/demo/mcp_client.py``).
"""

from __future__ import annotations

import ctypes
import gc
import importlib.util
import sys
import threading


def give_back() -> None:
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to hand back this way
        pass


def bare_packages(*names: str) -> None:
    """Register each package (parents first) without running its ``__init__``; submodules import as usual.

    A package already imported is left alone. The first name looked up on a bare package itself (``from mcp
    import ClientSession``) runs its ``__init__`` then, in the same module object: nothing differs from a
    plain import but the cost."""
    for name in names:
        if name not in sys.modules:
            _bare(name)


def _bare(name: str) -> None:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        raise ImportError(f"{name} is not an installed package")
    module = importlib.util.module_from_spec(spec)  # __path__, __spec__, __file__; __init__ not run
    loader = spec.loader
    lock = threading.Lock()

    def __getattr__(attr: str) -> object:
        if attr.startswith("__"):
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        with lock:
            if module.__dict__.pop("__getattr__", None) is not None:
                loader.exec_module(module)
        return getattr(module, attr)

    module.__dict__["__getattr__"] = __getattr__
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
