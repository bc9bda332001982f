"""The official MCP SDK's client half, loaded without the SDK's package ``__init__`` (06 ``tree_rss``).

``import mcp.client.session`` first runs ``mcp/__init__.py`` and ``mcp/client/__init__.py``, which
import the whole SDK: the HTTP client, Starlette, uvicorn, cryptography, click — about 20 MiB that a
stdio client never calls. :func:`load` registers those two packages as plain namespaces (their
``__path__``, nothing executed) and then imports the modules the demo uses, unchanged; every class is
the SDK's own. Names come from the module that defines them (``mcp.client.session.ClientSession``,
``mcp_types.TextContent``); a name asked of a bare package itself runs its ``__init__`` then, so a later
``from mcp import ClientSession`` in the same process still works (it just pays for the whole SDK).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading

# The packages whose __init__ only re-exports (and so imports) the rest of the SDK.
BARE = ("mcp", "mcp.client")
USED = ("mcp.client.session", "mcp.shared.message", "mcp_types")
_LOCK = threading.Lock()  # two sessions may load at once, each on its own worker thread


def _bare(name: str) -> None:
    """``name`` as a package whose ``__init__`` has not run; the first name looked up on it runs it then."""
    if name in sys.modules:  # already imported (in full, or bare by an earlier call): nothing to skip
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        raise ImportError(f"{name} is not an installed package")
    module = importlib.util.module_from_spec(spec)  # __path__, __spec__, __file__; __init__ not run
    loader = spec.loader
    lock = threading.Lock()

    def __getattr__(attr: str) -> object:
        # Someone wants the package's own names (``from mcp import ClientSession``): run its __init__ after
        # all, in this very module object, so nothing differs from a plain import but the cost.
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


def load() -> None:
    """Import the client modules the demo uses (idempotent, from any thread)."""
    with _LOCK:
        for name in BARE:
            _bare(name)
        for name in USED:
            importlib.import_module(name)
