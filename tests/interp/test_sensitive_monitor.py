"""Issue 20: no_sensitive_values_in is checked by the monitor at the call, with the real argument."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _irkit import build, effect, guarantee, relation

from clauz3.interp import execute
from clauz3.language import ir
from clauz3.language.sensitive import contains_sensitive, digests

SENT: list[tuple[str, str]] = []
PROFILE = "Emma Johnson, passport HGK137803"


@pytest.fixture(autouse=True)
def _isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    SENT.clear()
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "home"))


def send_email(addr: str, msg: str) -> None:
    SENT.append((addr, msg))


def read_profile() -> str:
    return PROFILE


SEND = effect("t.send_email", [("addr", ir.STR), ("msg", ir.STR)])
READ = effect("t.read_profile", [], ir.STR)
LAYER = {"t.send_email": send_email, "t.read_profile": read_profile}
TABLE = digests(("HGK137803",))
NO_PASSPORT = guarantee(ir.NoSensitiveSpec(relation("t.send_email"), "msg", TABLE, "your passport number"),
                        "travel.no_personal_numbers()")


def run(source: str) -> Any:
    program = build(textwrap.dedent(source), effects=[SEND, READ], guarantees=(NO_PASSPORT,))
    return execute(program, LAYER, stdout=io.StringIO())


def test_the_read_passport_number_never_leaves_in_the_email() -> None:
    result = run("""
    def main():
        info = read_profile()
        send_email("jane@x.y", "Details: " + info[15:])
    """)
    assert result.outcome == "soundness_violation"
    assert SENT == []


def test_a_message_without_it_is_sent() -> None:
    result = run("""
    def main():
        info = read_profile()
        send_email("jane@x.y", "Hello " + info[:4])
    """)
    assert result.outcome == "completed", result.error
    assert SENT == [("jane@x.y", "Hello Emma")]


def test_the_test_is_a_substring_after_nfkc_and_case_folding() -> None:
    assert contains_sensitive("id: ｈｇｋ137803.", TABLE)
    assert contains_sensitive("HGK137803", TABLE)
    assert not contains_sensitive("HGK13780", TABLE)
    assert not contains_sensitive("", TABLE)
    assert "HGK137803" not in repr(NO_PASSPORT)  # the IR holds digests, never the value
