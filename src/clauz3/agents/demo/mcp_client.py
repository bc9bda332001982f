"""The official MCP SDK's client half, loaded without the SDK's package ``__init__`` (06 ``tree_rss``).

``import mcp.client.session`` first runs ``mcp/__init__.py`` and ``mcp/client/__init__.py``, which
import the whole SDK: the HTTP client, Starlette, uvicorn, cryptography, click — about 20 MiB that a
stdio client never calls. :func:`load` registers those two packages as plain namespaces (their
``__path__``, nothing executed) and then imports the modules the demo uses, unchanged; every class is
the SDK's own. Call it before anything in this process imports ``mcp``; names come from the module
that defines them (``mcp.client.session.ClientSession``, ``mcp_types.TextContent``).
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
    if name in sys.modules:  # already imported (in full, or bare by an earlier call): nothing to skip
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.submodule_search_locations is None:
        raise ImportError(f"{name} is not an installed package")
    module = importlib.util.module_from_spec(spec)  # __path__, __spec__, __file__; __init__ never runs
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
