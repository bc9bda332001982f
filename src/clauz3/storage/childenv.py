"""The environment and interpreter flags of every child that checks, proves or runs agent code.

Issue 11 §4: such a child starts from an allow-list, never from the parent's environment minus a few
names, and under ``python -I`` (no ``PYTHONPATH``, no user site, no current directory on
``sys.path``), so neither a switch set in the bridge's or service's environment nor a file an approved
program wrote into the workspace (``sitecustomize.py``) reaches it. The caller adds exactly the values
it decided itself (``TMPDIR``, the data and cache dirs) through ``overrides``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

# Locale, identity and the command search path: what ordinary libraries expect, and nothing that
# steers Python (every PYTHON* variable is ignored under -I anyway) or clauz3 (no CLAUZ3_* switch).
ALLOWED_NAMES = frozenset({"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM"})
ALLOWED_PREFIXES = ("LC_",)
# Settings read by trusted effects at run time (web_search_http's service, the network's proxies and
# CA bundle); they configure an effect, never a verdict, and reach run workers only (``effects=True``),
# not the entailment child.
EFFECT_SETTINGS = frozenset({
    "CLAUZ3_SEARCH_URL", "CLAUZ3_SEARCH_API_KEY", "SSL_CERT_FILE", "SSL_CERT_DIR",
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
})
# -I isolates from the environment and user site; -B keeps workers from writing bytecode next to
# trusted sources; -X utf8 replaces PYTHONIOENCODING (ignored under -I) for utf-8 streams.
PYTHON_FLAGS = ("-I", "-B", "-X", "utf8")


def clean_environment(source: Mapping[str, str] | None = None, *, effects: bool = False,
                      overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """The allow-listed part of ``source`` (default ``os.environ``) plus ``overrides``."""
    import os

    env = dict(os.environ if source is None else source)
    kept = {k: v for k, v in env.items()
            if k in ALLOWED_NAMES or k.startswith(ALLOWED_PREFIXES) or (effects and k in EFFECT_SETTINGS)}
    kept.update(overrides or {})
    return kept


def python_module_argv(module: str, *args: str) -> list[str]:
    """``[python, -I, -B, -X, utf8, -m, module, *args]`` for an isolated child."""
    return [sys.executable, *PYTHON_FLAGS, "-m", module, *args]


__all__ = ["ALLOWED_NAMES", "ALLOWED_PREFIXES", "EFFECT_SETTINGS", "PYTHON_FLAGS", "clean_environment",
           "python_module_argv"]
