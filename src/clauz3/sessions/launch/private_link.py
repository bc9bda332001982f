"""Open the person's browser on the private sign-in link without putting the key in a command line.

``webbrowser.open(url)`` starts the browser with the URL as an argument, and a process's arguments are
readable by every local user (``/proc/<pid>/cmdline``) for as long as the browser runs. The browser is
given instead a ``file://`` page in the launcher's private directory (0600 in 0700) that leads to the
link, so the key stays readable by the person's own account only, as the printed link is.
"""

from __future__ import annotations

import html
import json
import os
import secrets
import webbrowser
from pathlib import Path


def private_page(url: str, directory: str | os.PathLike[str]) -> Path:
    """Write the page that leads to ``url`` (atomically, 0600) and return its path."""
    folder = Path(directory)
    path = folder / f"open-{secrets.token_hex(8)}.html"
    shown = html.escape(url, quote=True)
    body = ("<!doctype html><meta charset=utf-8><meta name=referrer content=no-referrer>"
            f"<meta http-equiv=refresh content=\"0;url={shown}\"><title>clauz3</title>"
            f"<script>location.replace({json.dumps(url)})</script>"
            f"<p><a href=\"{shown}\">Open the clauz3 workspace</a></p>\n")
    tmp = folder / f".{path.name}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, body.encode("utf-8"))
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return path


def open_private_link(url: str, directory: str | os.PathLike[str] | None) -> bool:
    """Open ``url`` in the browser through a private page; False when no browser could be started.
    Without a private directory the browser is not opened at all: the printed link still works."""
    if not directory or not os.path.isdir(directory):
        return False
    try:
        page = private_page(url, directory)
        return bool(webbrowser.open(page.as_uri()))
    except Exception:  # a missing browser or an unwritable folder: the caller prints the link instead
        return False
