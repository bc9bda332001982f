"""Recipe documents ``builtin:recipe:<name>`` (05 SKL-4).

Each recipe is package data (``clauz3/stdlib/recipes/<name>.md``): one complete program plus
caveats, written against the bundled standard libraries. A recipe is offered only when every
library it uses is selected and its selected copy is byte-identical (``*.py``) to the bundled
version: a recipe proved against the bundled code says nothing about an edited copy.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import clauz3

RECIPES_DIR = Path(clauz3.__file__).resolve().parent / "stdlib" / "recipes"
STDLIB_DIR = RECIPES_DIR.parent
PREFIX = "builtin:recipe:"
MAX_PREVIEW = 200

# name → the bundled libraries (domain = stdlib source name) its program imports.
USES: dict[str, tuple[str, ...]] = {
    "read-file": ("filesystem",),
    "count-lines": ("filesystem",),
    "write-file": ("filesystem",),
    "write-and-read": ("filesystem",),
    "replace-text": ("filesystem",),
    "grep-files": ("filesystem",),
    "list-files": ("filesystem",),
    "sqlite-table": ("db",),
}
_PROGRAM = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class Recipe:
    id: str
    name: str
    preview: str
    content: str
    uses: tuple[str, ...]

    @property
    def program(self) -> str:
        """The one complete program the document holds."""
        found = _PROGRAM.findall(self.content)
        if len(found) != 1:
            raise ValueError(f"recipe {self.name} must hold exactly one python block")
        return str(found[0])


def _load(name: str) -> Recipe:
    text = (RECIPES_DIR / f"{name}.md").read_text(encoding="utf-8")
    title = text.splitlines()[0].removeprefix("# ").strip()
    return Recipe(PREFIX + name, name, title[:MAX_PREVIEW], text, USES[name])


def all_recipes() -> list[Recipe]:
    """Every bundled recipe, sorted by id (what tests prove)."""
    return sorted((_load(name) for name in USES), key=lambda r: r.id)


def bundled_domain(domain: str) -> Path:
    return STDLIB_DIR / domain / "tools" / domain


def _py_files(domain_dir: Path) -> dict[str, bytes] | None:
    """Relative path → bytes of every ``*.py`` under the domain; None when anything is a link or unreadable."""
    out: dict[str, bytes] = {}
    try:
        if stat.S_ISLNK(os.lstat(domain_dir).st_mode) or not domain_dir.is_dir():
            return None
        for folder, dirs, files in os.walk(domain_dir, followlinks=False):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in dirs:
                if os.path.islink(os.path.join(folder, name)):
                    return None
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                if not stat.S_ISREG(os.lstat(path).st_mode):
                    return None
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                with os.fdopen(fd, "rb") as fh:
                    out[os.path.relpath(path, domain_dir)] = fh.read()
    except OSError:
        return None
    return out


def matches_bundled(domain: str, domain_dir: Path) -> bool:
    """True iff the ``*.py`` files of ``domain_dir`` equal the bundled library's, byte for byte."""
    mine = _py_files(domain_dir)
    return mine is not None and mine == _py_files(bundled_domain(domain))


def domain_of_root(root: Path) -> tuple[str, Path] | None:
    """``(domain, domain dir)`` of a trusted root ``…/tools/<d>/trusted`` or ``…/tools/<org>/<d>/trusted``."""
    parts = root.parts
    if parts[-1:] != ("trusted",):
        return None
    at = max((i for i, part in enumerate(parts[:-2]) if part == "tools"), default=None)  # the last `tools`
    return None if at is None else ("/".join(parts[at + 1:-1]), root.parent)


def available_recipes(selected: Mapping[str, Path]) -> list[Recipe]:
    """Recipes whose every library is in ``selected`` (domain → domain dir) and unmodified."""
    identical: dict[str, bool] = {}
    out = []
    for recipe in all_recipes():
        ok = True
        for domain in recipe.uses:
            if domain not in identical:
                identical[domain] = domain in selected and matches_bundled(domain, Path(selected[domain]))
            ok = ok and identical[domain]
        if ok:
            out.append(recipe)
    return out


def recipes_for_roots(project: Path, trusted_roots: Iterable[str]) -> list[Recipe]:
    """:func:`available_recipes` for a bridge's trusted roots (absolute or project-relative)."""
    selected: dict[str, Path] = {}
    for root in trusted_roots:
        path = Path(root) if os.path.isabs(root) else project / root
        found = domain_of_root(path)
        if found is not None:
            selected[found[0]] = found[1]
    return available_recipes(selected)
