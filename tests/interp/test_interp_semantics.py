"""INT-6: pure-subset programs give the same output, result and exception as CPython's exec (tests only)."""

from __future__ import annotations

import contextlib
import io
import textwrap

import pytest
from _irkit import build

from clauz3.interp import execute

PROGRAMS: dict[str, str] = {
    "arith": """
def main():
    a = 7
    b = -3
    print(a + b, a - b, a * b, a / b, a // b, a % b, a ** 2, -a, +b, ~a)
    print(a & 5, a | 8, a ^ 2, a << 3, a >> 1, 2 ** 100, 10 ** 30 // 7)
    print(0.1 + 0.2, 0.1 + 0.2 == 0.3, 1e308 * 10, -7 // 2, -7 % 2, 7.5 // 2, 2 ** -1)
    x = 5
    x += 3
    x *= 2
    x -= 1
    x //= 4
    x **= 3
    x %= 7
    print(x, True + True, True * 3, 3 / 2)
    return x
""",
    "strings": """
def main():
    s = "Hello, Wörld 😀"
    print(len(s), s[0], s[-1], s[2:5], s[:3], s[4:], s[-3:], s.lower(), s.upper())
    print(s.startswith("He"), s.endswith("😀"), s.find("W"), s.find("zz"), s.index("o"), "l" in s, "q" not in s)
    print(s.count("l"), s.split(", "), "a b  c".split(), "  x ".strip(), "xxhixx".strip("x"), " a".lstrip(), "a ".rstrip())
    print("-".join(["a", "b", "c"]), s.replace("l", "L"), ord("😀"), chr(97), str(12), str(True), str(1.5))
    print(f"v={len(s)} ok={s == 'x'} {s}!", "ab" * 3, "a" < "b", "😀" > "z")
    return s[1:3]
""",
    "collections": """
def main():
    xs = [3, 1, 2]
    xs.append(10)
    xs.extend([4, 5])
    xs[0] = 99
    d = {"a": 1, "b": 2}
    d["c"] = 3
    st = {1, 2}
    st.add(3)
    st.add(2)
    print(xs, len(xs), xs[1:3], xs.index(10), xs.count(2), sum(xs), min(xs), max(xs), min(4, 2, 8), max("a", "b"))
    print(d, d.get("a"), d.get("z"), d.get("z", 0), list(d.keys()), list(d.values()), list(d.items()), "a" in d)
    print(sorted_like(st), len(st), 2 in st, tuple(xs), list("abc"), dict([("k", 1)]), set([1, 1]))
    ys = [x * 2 for x in xs if x > 2]
    zs = [(i, c) for i, c in enumerate("ab")]
    print(ys, zs, [c for c in "hey"], (1,), (1, 2) + (3,), [1] * 3, [] == [], {} == {})
    a, b = 1, 2
    a, b = b, a
    (p, q), r = (1, 2), 3
    print(a, b, p, q, r)
    return ys
def sorted_like(s):
    out = []
    for v in [1, 2, 3, 4]:
        if v in s:
            out.append(v)
    return out
""",
    "control": """
def helper(n, k=2):
    if n > 5:
        return n * k
    elif n > 2:
        return n + k
    return -n
def main():
    total = 0
    for i in range(10):
        if i == 3:
            continue
        if i == 8:
            break
        total += helper(i)
    for i in range(1, 10, 3):
        total += i
    for k, v in {"a": 1, "b": 2}.items():
        print(k, v)
    x = 0 or "" or [] or None
    y = 1 and "s" and [1]
    z = 0 and 1
    print(total, x, y, z, 1 if total else 2, 1 < 2 < 3, 1 < 3 < 2, 3 > 2 == 2, None is None, x is not None)
    print(helper(7), helper(4, k=10), helper(1))
    return total
""",
    "numbers": """
import math
def main():
    print(abs(-3), abs(-2.5), int(3.9), int(-3.9), int("42"), int(" -7 "), float(3), float("1.5"), float("inf"))
    print(bool(0), bool(""), bool([0]), round_like(2.5), math.floor(-2.5), math.ceil(2.1), math.trunc(-2.7))
    print(math.isclose(0.1 + 0.2, 0.3), math.isinf(math.inf), math.isnan(float("nan")), math.pi)
    print(10 / 4, 10 // 4, -10 // 4, 10 % -3, 2 ** 0.5, 1 / 3, 1e-7, 123456789.0 * 10, 5e-324, 1e16)
    print(sum([0.1] * 10), sum([1, 2], 10), max([1.5, 2]), min([True, 0]))
    return 0.1 * 3
def round_like(x):
    return int(x + 0.5)
""",
    "zerodiv": """
def main():
    n = 0
    print("before")
    return 1 / n
""",
    "intdiv": """
def main():
    return 5 // 0
""",
    "index": """
def main():
    xs = [1, 2]
    return xs[5]
""",
    "key": """
def main():
    d = {"a": 1}
    return d["b"]
""",
    "value": """
def main():
    return int("x1")
""",
    "strindex": """
def main():
    return "abc".index("z")
""",
    "assert_msg": """
def main():
    x = 3
    assert x > 1
    assert x > 5, f"x is {x}"
""",
    "assert_bare": """
def main():
    assert 1 == 2
""",
    "raise": """
def main():
    raise ValueError("bad value", 3)
""",
    "unpack": """
def main():
    a, b = [1, 2, 3]
""",
    "unpack_few": """
def main():
    a, b, c = "ab"
""",
    "chr_range": """
def main():
    return chr(1114112)
""",
    "listindex": """
def main():
    return [1, 2].index(7)
""",
    "overflow": """
def main():
    return 10.0 ** 400
""",
    "typeerror": """
def main():
    return "a" + 1
""",
    "setitem_range": """
def main():
    xs = [1]
    xs[3] = 2
""",
}


def run_cpython(source: str) -> tuple[str, object, str | None]:
    namespace: dict[str, object] = {}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(source, "main.py", "exec"), namespace)  # tests only (INT-6)
        try:
            value = namespace["main"]()  # type: ignore[operator]
        except Exception as exc:
            text = str(exc)
            return buf.getvalue(), None, f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return buf.getvalue(), value, None


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_matches_cpython(name: str) -> None:
    source = textwrap.dedent(PROGRAMS[name])
    expected_out, expected_value, expected_error = run_cpython(source)
    program = build(source)
    out = io.StringIO()
    result = execute(program, {}, stdout=out)
    assert out.getvalue() == expected_out
    if expected_error is None:
        assert result.outcome == "completed", result.error
        assert repr(result.return_value) == repr(expected_value)
        assert type(result.return_value) is type(expected_value)
    else:
        assert result.outcome == "runtime_error"
        assert result.error is not None
        assert result.error.startswith("main.py:")
        assert result.error.split(": ", 1)[1] == expected_error


def test_error_names_the_failing_line() -> None:
    source = textwrap.dedent(PROGRAMS["zerodiv"])
    result = execute(build(source), {}, stdout=io.StringIO())
    assert result.error == "main.py:5: ZeroDivisionError: division by zero"


def test_step_budget_on_unrolled_loop() -> None:
    source = "def main():\n    total = 0\n    for i in range(1000):\n        total += i\n    return total\n"
    result = execute(build(source), {}, stdout=io.StringIO(), step_budget=1000)
    assert result.outcome == "runtime_error"
    assert result.error is not None
    assert result.error.startswith("step budget of 1000 exceeded at line ")
    assert result.error.rsplit(" ", 1)[1] in {"3", "4"}
    ok = execute(build(source), {}, stdout=io.StringIO(), step_budget=100_000)
    assert ok.outcome == "completed" and ok.return_value == 499500


def test_step_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        execute(build("def main():\n    pass\n"), {}, stdout=io.StringIO(), step_budget=0)


def test_print_flushes_each_call() -> None:
    class Recorder(io.StringIO):
        flushes = 0

        def flush(self) -> None:
            Recorder.flushes += 1
            super().flush()

    out = Recorder()
    execute(build("def main():\n    print('a', 1, True, None)\n    print()\n"), {}, stdout=out)
    assert out.getvalue() == "a 1 True None\n\n"
    assert Recorder.flushes >= 2


def test_target_defaults_and_arguments() -> None:
    source = "def main(n=3, s='x'):\n    return s * n\n"
    assert execute(build(source), {}, stdout=io.StringIO()).return_value == "xxx"
    result = execute(build(source), {}, stdout=io.StringIO(), arguments={"n": 2, "s": "ab"})
    assert result.return_value == "abab"


def test_ir_hash_mismatch_refuses() -> None:
    from clauz3.interp import IRHashMismatch
    from clauz3.language import ir

    program = build("def main():\n    return 1\n")
    assert execute(program, {}, stdout=io.StringIO(), ir_hash=ir.ir_sha256(program)).return_value == 1
    with pytest.raises(IRHashMismatch):
        execute(program, {}, stdout=io.StringIO(), ir_hash="0" * 64)


def test_the_ir_is_hashed_to_bind_a_run_to_its_proof_and_not_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """Differential tests run one program thousands of times without a proved hash: nothing to bind, so
    no hashing; a run that names its proved hash is hashed every time, just before it starts."""
    from clauz3.language import ir

    program = build("def main():\n    return 1\n")
    proved = ir.ir_sha256(program)
    hashed: list[ir.CheckedProgram] = []
    real = ir.ir_sha256

    def counting(p: ir.CheckedProgram) -> str:
        hashed.append(p)
        return real(p)

    monkeypatch.setattr(ir, "ir_sha256", counting)
    for _ in range(3):
        assert execute(program, {}, stdout=io.StringIO()).return_value == 1
    assert hashed == []
    for _ in range(2):
        assert execute(program, {}, stdout=io.StringIO(), ir_hash=proved).return_value == 1
    assert hashed == [program, program]
