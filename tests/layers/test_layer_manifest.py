"""Manifest loading and validation (05 §4, MAN-1, MAN-2)."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from clauz3.layers.manifest import ManifestError, load_manifest

DOMAIN = """\
schema_version: 1
name: lims
title: Lab automation
summary: Pipette and order oligos.
description: |
  Tools for a lab.
documentation: https://example.com/lims
dependencies: [stdlib:filesystem]
requirements:
  python: ">=3.11"
  tools:
    - name: lab-cli
      description: The lab command line.
  setup:
    - id: login
      kind: authentication
      title: Sign in
      description: Sign in to the lab service.
      instructions: Run lab-cli login.
      applies_to: [pipette]
"""


def manifest(tmp_path: Path, text: str, rel: str = "tools/lims/clauz3.yaml") -> Path:
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def error(path: Path) -> ManifestError:
    with pytest.raises(ManifestError) as info:
        load_manifest(path, display="M")
    return info.value


def test_valid_domain_manifest(tmp_path: Path) -> None:
    data = load_manifest(manifest(tmp_path, DOMAIN))
    assert data["name"] == "lims" and data["requirements"]["setup"][0]["kind"] == "authentication"


def test_bad_enum_names_the_field_path(tmp_path: Path) -> None:
    text = DOMAIN.replace("kind: authentication", "kind: magic")
    exc = error(manifest(tmp_path, text))
    assert str(exc) == ("invalid manifest M: requirements.setup[0].kind: must be one of authentication, "
                        "configuration, service, access")
    assert exc.line == text.splitlines().index("      kind: magic") + 1


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda t: t + "kind: domain\n", "kind: unknown field"),
        (lambda t: t.replace("name: lims", "name: other"), "name: must equal the folder below tools/ (lims)"),
        (lambda t: t.replace("title: Lab automation", "title: '   '"), "title: must not be blank"),
        (lambda t: t.replace("schema_version: 1", "schema_version: 2"), "schema_version: must be 1"),
        (lambda t: t.replace("summary: Pipette and order oligos.\n", ""), "summary: is required"),
        (lambda t: t.replace("https://example.com/lims", "ftp://x"), "documentation: must be an http(s):// URL"),
        (lambda t: t.replace("title: Lab automation", "title: a\ntitle: b"), "title: duplicate key"),
        (lambda t: t.replace("title: Lab automation", "title: &t Lab\nsummary2: *t"), "anchors and aliases"),
        (lambda t: t.replace("title: Lab automation", "title: !!str Lab"), "tags are not allowed"),
        (lambda t: t + "1: x\n", "keys must be strings"),
        (lambda t: "- a\n- b\n", "top level must be a mapping"),
        (lambda t: t + "  nope: [\n", "not valid YAML"),
    ],
)
def test_invalid_domain_manifests(tmp_path: Path, change, expected: str) -> None:
    assert expected in str(error(manifest(tmp_path, change(DOMAIN))))


def test_null_means_absent(tmp_path: Path) -> None:
    data = load_manifest(manifest(tmp_path, DOMAIN.replace("documentation: https://example.com/lims",
                                                           "documentation: null")))
    assert "documentation" not in data


def test_duplicate_setup_ids(tmp_path: Path) -> None:
    setup = DOMAIN.split("  setup:\n")[1]
    text = DOMAIN + setup
    assert "requirements.setup[1].id: duplicate id 'login'" in str(error(manifest(tmp_path, text)))


def test_size_and_symlink_limits(tmp_path: Path) -> None:
    big = manifest(tmp_path, DOMAIN + "#" * 200_000 + "\n")
    assert "larger than 131072 bytes" in str(error(big))
    real = manifest(tmp_path, DOMAIN, "elsewhere.yaml")
    link = tmp_path / "tools/lims/clauz3.yaml"
    link.unlink()
    os.symlink(real, link)
    assert "symbolic link" in str(error(link))


def test_package_manifest(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    text = "schema_version: 1\nkind: package\nname: acme-lab\ntitle: Acme\n"
    assert load_manifest(manifest(tmp_path, text, "clauz3.yaml"))["kind"] == "package"
    bad = text + ("requirements:\n  setup:\n    - {id: a, kind: access, title: T, description: D, "
                  "instructions: I, applies_to: [x]}\n")
    assert "requirements.setup[0].applies_to: unknown field" in str(error(manifest(tmp_path, bad, "clauz3.yaml")))
    assert "kind: must be \"package\"" in str(error(manifest(tmp_path, text.replace("package", "domain", 1),
                                                             "clauz3.yaml")))


def test_org_domain_name(tmp_path: Path) -> None:
    text = DOMAIN.replace("name: lims", "name: acme/lims")
    assert load_manifest(manifest(tmp_path, text, "tools/acme/lims/clauz3.yaml"))["name"] == "acme/lims"


def test_shipped_example_manifests_validate() -> None:
    root = Path(__file__).resolve().parents[2]
    paths = sorted(glob.glob(str(root / "examples/*/tools/**/clauz3.yaml"), recursive=True))
    for path in paths:
        load_manifest(Path(path))


def test_a_manifest_read_again_is_the_same_and_any_edit_is_seen(tmp_path: Path) -> None:
    """The validated-manifest cache is keyed by the file's bytes: a caller's edit of the returned dict
    never leaks into the next read, and an edit that keeps size and mtime is parsed afresh."""
    path = manifest(tmp_path, DOMAIN)
    first = load_manifest(path)
    first["title"] = "changed by a caller"
    assert load_manifest(path)["title"] == "Lab automation"
    stat = path.stat()
    path.write_text(DOMAIN.replace("Lab automation", "Lab automatiom"))  # same size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert load_manifest(path)["title"] == "Lab automatiom"
    path.write_text(DOMAIN.replace("title: Lab automation", "title: [1, 2]"))
    with pytest.raises(ManifestError):  # a broken edit is refused, never answered from the cache
        load_manifest(path)
