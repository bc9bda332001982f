"""Default import roots (05 CLI-10), domain discovery (SRC-2) and the both-trees rule (CLI-11)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clauz3.layers.discovery import (
    DiscoveryError,
    default_import_roots,
    discover_domains,
    discover_trusted_roots,
)


def mk(root: Path, *rels: str) -> None:
    for rel in rels:
        (root / rel).mkdir(parents=True, exist_ok=True)


def test_default_import_roots_order_and_duplicates(tmp_path: Path) -> None:
    assert default_import_roots(tmp_path) == [tmp_path / ".clauz3", tmp_path]
    prog = tmp_path / "sub" / "main.py"
    assert default_import_roots(tmp_path, prog) == [
        tmp_path / ".clauz3", tmp_path, tmp_path / "sub", tmp_path / "sub" / ".clauz3"
    ]
    # A program in the project folder adds nothing new.
    assert default_import_roots(tmp_path, tmp_path / "main.py") == [tmp_path / ".clauz3", tmp_path]


def test_discovers_plain_and_org_domains(tmp_path: Path) -> None:
    mk(tmp_path, "tools/email/trusted", "tools/acme/lims/trusted", "tools/email/inner/trusted",
       "tools/notadomain/misc", ".clauz3/tools/bank/trusted")
    domains = discover_domains(default_import_roots(tmp_path))
    assert [(d.name, d.package) for d in domains] == [
        ("bank", "tools.bank.trusted"),
        ("acme/lims", "tools.acme.lims.trusted"),
        ("email", "tools.email.trusted"),
    ]
    assert domains[0].import_root == tmp_path / ".clauz3"
    assert discover_trusted_roots([tmp_path])[1] == tmp_path / "tools/email/trusted"


def test_invalid_names_and_symlinks_are_skipped_with_warnings(tmp_path: Path) -> None:
    mk(tmp_path, "tools/my-lib/trusted", "tools/class/trusted", "elsewhere/trusted", "tools/ok/trusted")
    os.symlink(tmp_path / "elsewhere", tmp_path / "tools" / "linked")
    warnings: list[str] = []
    names = [d.name for d in discover_domains([tmp_path], warn=warnings.append)]
    assert names == ["ok"]
    assert len(warnings) == 3
    assert any("symbolic link" in w and "linked" in w for w in warnings)
    assert any("my-lib" in w for w in warnings) and any("class" in w for w in warnings)


def test_domain_in_both_trees_is_an_error(tmp_path: Path) -> None:
    mk(tmp_path, "tools/email/trusted", ".clauz3/tools/email/trusted")
    with pytest.raises(DiscoveryError, match=r"^domain email is provided by both \.clauz3/tools and tools$"):
        discover_domains(default_import_roots(tmp_path))


def test_tools_init_is_an_error(tmp_path: Path) -> None:
    mk(tmp_path, "tools/email/trusted")
    (tmp_path / "tools/__init__.py").write_text("")
    with pytest.raises(DiscoveryError, match=r"__init__\.py must not exist"):
        discover_domains([tmp_path])
