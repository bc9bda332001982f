"""Issue 23: the approval card and ``clauz3 lint`` read the same stubs the same way (05 MOCK-2, MOCK-3).

The same trusted sources go through both user-facing paths — the authority's static layer scan (what
the card shows as a library's kind) and ``clauz3 lint`` run as a real process (C3L015 "undeclared
stub") plus ``clauz3 libraries``' scan — and every path must give the MOCK-2 answer.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from clauz3.approvals.layerscan import scan_layer
from clauz3.layers.mockscan import scan_mocks

# domain → (effect body, MOCK-2 status of a trusted effect without @clauz3.mock)
CASES: dict[str, tuple[str, str]] = {
    "docstring_only": ('"""Sends nothing."""', "unmarked"),
    "pass_only": ("pass", "unmarked"),
    "ellipsis_only": ("...", "unmarked"),
    "docstring_then_pass": ('"""Sends nothing."""\n    pass', "unmarked"),
    "return_constant": ("return 0", "unmarked"),
    "return_none": ("return None", "unmarked"),
    "bare_return": ("return", "unmarked"),
    "return_constant_expression": ("return 1 + 1", "real"),
    "return_negative": ("return -1", "real"),
    "return_name": ("return count", "real"),
    "raise": ('raise RuntimeError("not yet")', "real"),
    "late_string": ('x = count\n    "not a docstring"', "real"),
    "second_string": ('"""Doc."""\n    "another string"', "real"),
    "number_statement": ("1", "real"),
}


def _write_project(root: Path) -> None:
    for name, (body, _status) in CASES.items():
        trusted = root / "tools" / name / "trusted"
        trusted.mkdir(parents=True)
        (trusted / "effects.py").write_text(
            "import clauz3\n\n\n"
            f"@clauz3.trusted\ndef act(count: int) -> int:\n    {body}\n\n\n"
            "if True:\n"
            f"    @clauz3.trusted\n    @clauz3.mock\n    def declared(count: int) -> int:\n        {body}\n"
        )


def _lint_stubs(root: Path) -> set[str]:
    """Domains whose ``act`` draws C3L015 from ``clauz3 lint`` run as a process."""
    done = subprocess.run([sys.executable, "-m", "clauz3", "lint", str(root)], capture_output=True, text=True,
                          timeout=120, check=False)
    out = done.stdout + done.stderr
    assert "tools/" in out or done.returncode == 0, out
    flagged: set[str] = set()
    for line in out.splitlines():
        if " C3L015 " in line:
            assert re.search(r"undeclared stub: act does nothing", line), line  # never the declared mock
            flagged.add(Path(line.split(":", 1)[0]).parent.parent.name)
    return flagged


def test_card_lint_and_libraries_agree_on_every_stub_shape(tmp_path: Path) -> None:
    _write_project(tmp_path)
    roots = tuple(str(tmp_path / "tools" / name / "trusted") for name in CASES)
    card = scan_layer(roots, (str(tmp_path),))
    assert card.errors == []
    card_kinds = {d: info.mock for d, info in card.domains.items()}
    # One declared mock beside the undeclared effect: "mixed" whatever the stub is; so read the
    # undeclared effect's own status from the per-effect scan and check the card against MOCK-3.
    libraries = {name: scan_mocks([tmp_path / "tools" / name / "trusted"]) for name in CASES}
    statuses = {name: {e["name"]: e["status"] for e in rep.effects} for name, rep in libraries.items()}
    expected = {name: {"act": status, "declared": "mock"} for name, (_body, status) in CASES.items()}
    assert statuses == expected
    assert card_kinds == {name: "mixed" for name in CASES} == {n: r.kind for n, r in libraries.items()}
    assert _lint_stubs(tmp_path) == {name for name, (_b, status) in CASES.items() if status == "unmarked"}


def test_card_kind_follows_the_stub_alone(tmp_path: Path) -> None:
    """Without the declared mock beside it, each stub decides the domain's kind: unmarked or real."""
    for name, (body, _status) in CASES.items():
        trusted = tmp_path / "tools" / name / "trusted"
        trusted.mkdir(parents=True)
        (trusted / "effects.py").write_text(
            f"from clauz3 import trusted\n\n\n@trusted\ndef act(count: int) -> int:\n    {body}\n")
    roots = tuple(str(tmp_path / "tools" / name / "trusted") for name in CASES)
    card = {d: info.mock for d, info in scan_layer(roots, (str(tmp_path),)).domains.items()}
    libraries = {name: scan_mocks([tmp_path / "tools" / name / "trusted"]).kind for name in CASES}
    assert card == libraries == {name: status for name, (_b, status) in CASES.items()}
    assert _lint_stubs(tmp_path) == {name for name, (_b, status) in CASES.items() if status == "unmarked"}
