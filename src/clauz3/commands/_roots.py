"""The shared trusted/import root flags (05 §2.2) and their validation (01 TL-1)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from clauz3.commands._errors import CommandError
from clauz3.layers.discovery import default_import_roots
from clauz3.layers.scan import domain_of_trusted_root

TL1_SHAPE = "not <import root>/tools/<domain>/trusted"


def add_root_arguments(parser: argparse.ArgumentParser, *, discovers: bool = False) -> None:
    """Add the four root flags; ``discovers`` says whether the command finds every domain when none is given."""
    default = "every project domain" if discovers else "none"
    parser.add_argument("--trusted-root", action="append", default=[], metavar="PATH",
                        help=f"a trusted root tools/<domain>/trusted (repeatable; default: {default})")
    parser.add_argument("--trusted-roots", nargs="+", action="extend", default=[], metavar="PATH",
                        help="several trusted roots, up to the next option")
    parser.add_argument("--import-root", action="append", default=[], metavar="PATH",
                        help="an import root holding tools/ (repeatable; default: <project>/.clauz3, <project>)")
    parser.add_argument("--import-roots", nargs="+", action="extend", default=[], metavar="PATH",
                        help="several import roots, up to the next option")


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _under_import_root(trusted: Path, import_root: Path) -> bool:
    try:
        rel = _real(trusted).relative_to(_real(import_root))
    except ValueError:
        return False
    parts = rel.parts
    if len(parts) not in (3, 4) or parts[0] != "tools":
        return False
    located = domain_of_trusted_root(Path("/", *parts))
    return located is not None and located[1] == Path("/")


def resolve_roots(
    args: argparse.Namespace, project: Path | None = None, program: Path | None = None
) -> tuple[list[Path], list[Path]]:
    """``(trusted_roots, import_roots)`` as absolute paths, validated; errors raise ``CommandError`` (exit 2).

    Without import-root flags the defaults of 05 CLI-10 apply, followed by the folder holding
    ``tools/`` of each given trusted root, so ``--trusted-root examples/email/tools/email/trusted``
    works from anywhere.
    """
    project = Path.cwd() if project is None else project
    given_trusted = [*getattr(args, "trusted_root", []), *getattr(args, "trusted_roots", [])]
    given_import = [*getattr(args, "import_root", []), *getattr(args, "import_roots", [])]
    for text in given_import:
        if not Path(text).is_dir():
            raise CommandError(f"--import-root {text}: no such directory")
    pairs: list[tuple[str, Path]] = []
    for text in given_trusted:
        path = Path(os.path.normpath(Path(text).absolute()))
        if not path.is_dir():
            raise CommandError(f"--trusted-root {text}: no such directory")
        if all(path != p for _, p in pairs):
            pairs.append((text, path))
    trusted = [p for _, p in pairs]
    if given_import:
        imports = []
        for text in given_import:
            p = Path(os.path.normpath(Path(text).absolute()))
            if p not in imports:
                imports.append(p)
    else:
        imports = default_import_roots(project, program)
        for path in trusted:
            located = domain_of_trusted_root(path)
            if located is not None and not any(_real(located[1]) == _real(r) for r in imports):
                imports.append(located[1])
    for text, path in pairs:
        if not any(_under_import_root(path, root) for root in imports):
            raise CommandError(f"--trusted-root {text}: {TL1_SHAPE}")
    return trusted, imports
