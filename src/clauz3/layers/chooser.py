"""The terminal library chooser of ``clauz3 start`` (05 INS-14); installs through the normal pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target

NO_TTY = "no terminal for library setup; run clauz3 install stdlib:filesystem first"
MENU = ("1) File work: filesystem (recommended)\n2) Choose from the catalogue\n3) Continue without libraries\n"
        "q) Cancel\n")


def _choices(project: Path, data: Path | None) -> list[dict[str, Any]]:
    from clauz3.layers.catalogue import build_catalogue

    out = []
    for rec in build_catalogue(project, data=data):
        cached_remote = rec["visibility"] == "repository" and rec["domains"]
        if not rec["installed"] and (rec["visibility"] in ("bundled", "global") or cached_remote):
            out.append(rec)
    return out


def _install(target: Target, source: str, out: TextIO) -> None:
    from clauz3.layers.apply import apply_review
    from clauz3.layers.review import prepare_install

    record = prepare_install(target, source, cwd=target.project,
                             warn=lambda m: print(f"warning: {m}", file=out))
    print(f"Review: {record['action']} {record['source']} into {record['into']}", file=out)
    for change in record["changes"]:
        print(f"{change['domain']}: {len(change['added'])} added · {len(change['changed'])} changed · "
              f"{len(change['removed'])} removed", file=out)
    if record["requirements"]:
        print("Requires: " + "; ".join(record["requirements"]), file=out)
    result = apply_review(target, record["id"])
    for d in result.domains:
        print(f"installed {d} (from {result.source}) → {result.into / d}", file=out)


def run_chooser(project: Path, *, stdin: TextIO, out: TextIO, is_tty: bool, data: Path | None = None) -> str:
    """Returns ``"installed"``, ``"continue"`` or ``"cancel"`` (EOF counts as cancel; exit 0, nothing started).

    The caller holds the workspace lease. No terminal → :class:`LibraryError` (exit 2).
    """
    if not is_tty:
        raise LibraryError(NO_TTY, "invalid_request")
    target = Target.for_project(project, data)
    out.write(MENU + "Choose [1]: ")
    out.flush()
    line = stdin.readline()
    if not line:
        return "cancel"
    answer = line.strip().lower() or "1"
    if answer == "q":
        return "cancel"
    if answer == "3":
        return "continue"
    if answer == "1":
        _install(target, "stdlib:filesystem", out)
        return "installed"
    if answer != "2":
        print(f"unknown choice {answer!r}; nothing installed", file=out)
        return "cancel"
    choices = _choices(project, data)
    for i, rec in enumerate(choices, 1):
        reqs = f" — requires: {'; '.join(rec['requirements'])}" if rec["requirements"] else ""
        print(f"{i}) {rec['source']}: {rec['title']}{reqs}", file=out)
    out.write("Numbers, comma-separated (empty cancels): ")
    out.flush()
    picked = stdin.readline().strip()
    if not picked:
        return "cancel"
    try:
        indexes = [int(p) for p in picked.split(",") if p.strip()]
    except ValueError:
        print("not a list of numbers; nothing installed", file=out)
        return "cancel"
    if not indexes or any(not 1 <= i <= len(choices) for i in indexes):
        print("choice out of range; nothing installed", file=out)
        return "cancel"
    for i in dict.fromkeys(indexes):
        _install(target, choices[i - 1]["source"], out)
    return "installed"
