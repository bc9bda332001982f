"""Static scan of trusted modules and the mock classification (05 MOCK-2, MOCK-3)."""

from __future__ import annotations

import os
from pathlib import Path

from clauz3.layers.mockscan import classify, scan_mocks
from clauz3.layers.scan import domain_of_trusted_root, module_name_for, scan_module, scan_root


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


EFFECTS = '''\
"""Mail."""
import clauz3 as c
from clauz3 import mock as simulated

raise RuntimeError("importing this module fails")


@c.trusted
@simulated
@c.requires(lambda addr, msg, *, dry_run=True: "@" in addr, message="addr needs @")
@c.ensures(lambda result: result is None)
def send_email(addr: str, msg: str, *, dry_run: bool = True) -> None:
    """Send msg to addr.

    Second paragraph."""


if True:
    @c.trusted
    def stub(x: int, /) -> int:
        """Does nothing."""
        return 0

try:
    @c.trusted()
    def real(x: int) -> int:
        """Really works."""
        return x + 1
except Exception:
    pass


def plain(x):
    return x
'''

CONTRACTS = '''\
from clauz3 import contract
import clauz3.spec


@contract(description="at most {count} emails")
def at_most(count: int = 1) -> clauz3.spec.ContractSpec:
    return None


@clauz3.spec.contract
def documented(addr: str):
    """Only mail to addr is sent.

    Details."""
'''


def test_effects_and_helpers_are_scanned_without_importing(tmp_path: Path) -> None:
    write(tmp_path, {"tools/email/trusted/effects.py": EFFECTS, "tools/email/trusted/contracts.py": CONTRACTS})
    scan = scan_root(tmp_path / "tools/email/trusted")
    assert scan.domain == "email" and scan.errors == []
    effects = {e.name: e for e in scan.effects}
    assert list(effects) == ["send_email", "stub", "real"]
    send = effects["send_email"]
    assert send.module == "tools.email.trusted.effects" and send.mock and send.status == "mock"
    assert [(p.name, p.annotation, p.default, p.kind) for p in send.params] == [
        ("addr", "str", None, "positional_or_keyword"),
        ("msg", "str", None, "positional_or_keyword"),
        ("dry_run", "bool", "True", "keyword_only"),
    ]
    assert send.returns == "None" and send.description == "Send msg to addr."
    assert [(c.kind, c.body_source, c.message) for c in send.conditions] == [
        ("requires", '"@" in addr', "addr needs @"),
        ("ensures", "result is None", None),
    ]
    assert effects["stub"].status == "unmarked" and effects["stub"].params[0].kind == "positional_only"
    assert effects["real"].status == "real"
    helpers = {h.name: h for h in scan.helpers}
    assert helpers["at_most"].template == "at most {count} emails"
    assert helpers["at_most"].params[0].default == "1"
    assert helpers["documented"].template is None
    assert helpers["documented"].description == "Only mail to addr is sent."


def test_module_names_and_trusted_root_shapes(tmp_path: Path) -> None:
    assert module_name_for(Path("x/tools/acme/lims/trusted/effects.py")) == ("tools.acme.lims.trusted.effects", False)
    assert module_name_for(Path("x/tools/d/trusted/__init__.py")) == ("tools.d.trusted", True)
    assert domain_of_trusted_root(Path("/p/tools/acme/lims/trusted")) == ("acme/lims", Path("/p"))
    assert domain_of_trusted_root(Path("/p/tools/email/trusted")) == ("email", Path("/p"))
    assert domain_of_trusted_root(Path("/p/tools/class/trusted")) is None  # keyword
    assert domain_of_trusted_root(Path("/p/lib/email/trusted")) is None


def test_relative_imports_resolve_to_the_package(tmp_path: Path) -> None:
    write(tmp_path, {"tools/d/trusted/contracts.py": "from .effects import f\nfrom . import effects as e\n"})
    scan = scan_module(tmp_path / "tools/d/trusted/contracts.py")
    assert scan.imports.names["f"] == "tools.d.trusted.effects.f"
    assert scan.imports.names["e"] == "tools.d.trusted.effects"


def _effect(name: str, body: str, mock: bool) -> str:
    marker = "@clauz3.mock\n" if mock else ""
    return f"@clauz3.trusted\n{marker}def {name}() -> None:\n    {body}\n\n\n"


def test_mock_kinds(tmp_path: Path) -> None:
    cases = {
        "allmock": [("a", "pass", True), ("b", "return None", True)],
        "mixed": [("a", "pass", True), ("b", "print(1)", False)],
        "unmarked": [("a", '"""doc"""\n    ...', False), ("b", "print(1)", False)],
        "real": [("a", "print(1)", False)],
    }
    for domain, effects in cases.items():
        text = "import clauz3\n\n\n" + "".join(_effect(n, b, m) for n, b, m in effects)
        write(tmp_path, {f"tools/{domain}/trusted/effects.py": text})
    kinds = {d: scan_mocks([tmp_path / f"tools/{d}/trusted"]).kind for d in cases}
    assert kinds == {"allmock": "mock", "mixed": "mixed", "unmarked": "unmarked", "real": "real"}
    report = scan_mocks([tmp_path / "tools/mixed/trusted"]).to_json()
    assert report == {"kind": "mixed", "effects": [{"name": "a", "status": "mock"}, {"name": "b", "status": "real"}],
                      "errors": []}


def test_scan_errors_make_a_domain_unmarked(tmp_path: Path) -> None:
    write(tmp_path, {"tools/d/trusted/effects.py": "import clauz3\n\n" + _effect("a", "print(1)", False),
                     "tools/d/trusted/broken.py": "def (:\n"})
    report = scan_mocks([tmp_path / "tools/d/trusted"])
    assert report.kind == "unmarked"
    assert len(report.errors) == 1 and "broken.py" in report.errors[0] and "cannot parse" in report.errors[0]


def test_symlinked_file_is_an_error_not_scanned(tmp_path: Path) -> None:
    write(tmp_path, {"outside.py": "import clauz3\n\n" + _effect("evil", "pass", True),
                     "tools/d/trusted/effects.py": "import clauz3\n\n" + _effect("a", "pass", True)})
    os.symlink(tmp_path / "outside.py", tmp_path / "tools/d/trusted/linked.py")
    report = scan_mocks([tmp_path / "tools/d/trusted"])
    assert [e["name"] for e in report.effects] == ["a"]
    assert report.kind == "mock" and any("linked.py" in e for e in report.errors)


def test_no_effects_is_never_called_mock() -> None:
    assert classify([], []) == "real"
    assert classify([], ["x: cannot read"]) == "unmarked"
