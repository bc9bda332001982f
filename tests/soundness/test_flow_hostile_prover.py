"""Issue 20: programs that try to launder a web page past flows.never, through the real checker and prover.

Each laundering program must not be proved (tests/interp/test_flow_labels_hostile.py runs the same tricks
against the run-time monitor); each clean one must be proved, so the test fails either way.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent / "flow_layer"
HEADER = '''import clauz3
from tools.flow.trusted import contracts as flow
from tools.flow.trusted.effects import log, read_num, read_web, read_words, send


def pick(t: str) -> str:
    if "phish" in t:
        return "yes"
    return "no"


@clauz3.guarantee(flow.web_not_in_send())
def main() -> None:
    page = read_web("u")
'''
LAUNDERING = {
    "direct": 'send("alice", "see " + page)',
    "via_len": 'send("alice", str(len(page)))',
    "via_branch": 'leak = "no"\nif "phish" in page:\n    leak = "yes"\nsend("alice", leak)',
    "via_branch_not_taken": 'leak = "yes"\nif "zz" in page:\n    leak = "no"\nsend("alice", leak)',
    "via_call_under_branch": 'if page.startswith("www"):\n    send("alice", "hello")',
    "via_loop_counter": 'n = 0\nfor c in ["a", "b", "c"]:\n    if c in page:\n        n += 1\nsend("alice", str(n))',
    "via_dict_keys": 'd = {"k": 1}\nd[page] = 2\nsend("alice", ",".join(list(d.keys())))',
    "via_min": 'words = [page[:3], "m"]\nsend("alice", min(words))',
    "via_list_append": 'out = ["a"]\nout.append(page)\nsend("alice", out[1])',
    "via_comprehension": 'picked = [w for w in ["a", "b"] if w in page]\nsend("alice", str(len(picked)))',
    "via_early_return": 'if "phish" not in page:\n    return\nsend("alice", "hello")',
    "via_break": ('last = "none"\nfor w in ["www", "zzz"]:\n    if w in page:\n        break\n    last = w\n'
                  'send("alice", last)'),
    "via_exception": 'table = {"www": 1}\nx = table[page]\nsend("alice", "went on")',
    "via_int_exception": 'n = int(page[:1] == "w")\nlog(n)\nsend("alice", "went on")',
    "via_helper": 'send("alice", pick(page))',
    "via_ifexp": 'send("alice", "a" if len(page) > 3 else "b")',
    "via_recipient": 'send(page[:3], "hi")',
    "via_fstring": 'send("alice", f"{page[:2]}!")',
    # An earlier call that received page data could fail on it: whether the later call happens depends on it.
    "via_a_call_that_may_fail": 'log(len(page))\nsend("bob", "done")',
}
CLEAN = {
    "literal_after_read": 'send("alice", "I read the page.")',
    "overwritten": 'text = page\ntext = "fixed"\nsend("alice", text)',
    "unrelated_branch": 'n = 3\nif n > 2:\n    send("alice", "three")',
    "loop_over_literals": 'for who in ["alice", "bob"]:\n    send(who, "hello " + who)',
    "read_data_goes_last": 'send("bob", "done")\nlog(len(page))',
}


@pytest.fixture(scope="module")
def layer() -> Any:
    from inproc_layer import load_test_layer

    return load_test_layer([ROOT / "tools" / "flow" / "trusted"], [ROOT])


def verdict(layer: Any, tmp_path: Path, body: str) -> tuple[str, str]:
    from clauz3.language import check_source
    from clauz3.prover.api import prove

    source = HEADER + textwrap.indent(body, "    ") + "\n"
    path = tmp_path / "main.py"
    path.write_text(source)
    program = check_source(source.encode(), str(path), layer, "main")
    result = prove(program, obligation_timeout=5.0)
    g = next(o for o in result.obligations if o.kind == "guarantee")
    return g.conclusion, g.result or ""


@pytest.mark.parametrize("name", sorted(LAUNDERING))
def test_laundering_is_not_proved(layer: Any, tmp_path: Path, name: str) -> None:
    conclusion, why = verdict(layer, tmp_path, LAUNDERING[name])
    assert conclusion in ("violated", "unknown"), (name, conclusion)
    assert "read_web(…) at line 14 → page (line 14)" in why, why


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_is_proved(layer: Any, tmp_path: Path, name: str) -> None:
    assert verdict(layer, tmp_path, CLEAN[name])[0] == "proved", name


SENT: list[tuple[str, str]] = []


def _effects() -> dict[str, Any]:
    def read_web(url: str) -> str:
        return "www.phish.example buy now"

    def read_num(key: str) -> int:
        return 1

    def read_words(key: str) -> list[str]:
        return ["a"]

    def send(to: str, body: str) -> None:
        SENT.append((to, body))

    def log(n: int) -> None:
        return None

    return {f"tools.flow.trusted.effects.{f.__name__}": f for f in (read_web, read_num, read_words, send, log)}


def run(layer: Any, tmp_path: Path, body: str) -> Any:
    import io

    from clauz3.interp.api import execute
    from clauz3.language import check_source

    source = HEADER + textwrap.indent(body, "    ") + "\n"
    path = tmp_path / "main.py"
    path.write_text(source)
    program = check_source(source.encode(), str(path), layer, "main")
    SENT.clear()
    return execute(program, _effects(), stdout=io.StringIO(), write_report=False)


@pytest.mark.parametrize("name", sorted(LAUNDERING))
def test_the_monitor_stops_the_laundered_call_on_the_real_run(layer: Any, tmp_path: Path, name: str) -> None:
    result = run(layer, tmp_path, LAUNDERING[name])
    assert SENT == [], (name, SENT)  # nothing derived from the page went out, whichever way the run ended
    if name == "via_exception":  # the page is not a key: the run stops at the lookup, before the send
        assert result.outcome == "runtime_error", result.outcome
        return
    assert result.outcome == "soundness_violation", (name, result.outcome, result.error)
    assert result.guarantee is not None and result.guarantee.bound_call == "flow.web_not_in_send()"
    assert "carries read_web(…) at line 14 → page (line 14)" in result.error, result.error


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_programs_run_to_the_end(layer: Any, tmp_path: Path, name: str) -> None:
    result = run(layer, tmp_path, CLEAN[name])
    assert result.outcome == "completed", (name, result.error)
    assert SENT, name
