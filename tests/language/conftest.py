"""Shared test layer for the checker tests (one layer per process, TL-6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

FIXTURE_ROOT = Path(__file__).parent / "fixtures" / "layer"


@pytest.fixture(scope="session")
def lab_layer() -> Any:
    from inproc_layer import load_test_layer

    return load_test_layer([FIXTURE_ROOT / "tools" / "lab" / "trusted"], [FIXTURE_ROOT])


HEADER = (
    "import clauz3\n"
    "from tools.lab.trusted import contracts as c\n"
    "from tools.lab.trusted.effects import send_email, balance, withdraw, users, write, unlock, fetch, shout, "
    "lookup, maybe, bad_helper\n"
    "from tools.lab.trusted.schemas import UserRow\n"
)


@pytest.fixture
def check(lab_layer: Any, tmp_path: Path) -> Any:
    """check(body_source, header=True) → CheckedProgram; raises Refused."""
    from clauz3.language import check_program

    def run(src: str, header: bool = True, name: str = "prog.py", target: str = "main") -> Any:
        path = tmp_path / name
        path.write_text((HEADER if header else "") + src)
        return check_program(path, lab_layer, target=target)

    return run


@pytest.fixture
def refused(check: Any) -> Any:
    """refused(source) → the Refused exception (fails if the program is accepted)."""
    from clauz3.language import Refused

    def run(src: str, **kw: Any) -> Any:
        with pytest.raises(Refused) as info:
            check(src, **kw)
        return info.value

    return run


HEADER_LINES = HEADER.count("\n")
