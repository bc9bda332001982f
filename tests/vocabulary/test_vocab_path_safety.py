"""The PUB-2 path predicates against plain reference implementations, and their subset shape."""

from __future__ import annotations

import ast
import inspect
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from clauz3.paths import path_error
from clauz3.vocabulary import path_safety as _path_safety
from clauz3.vocabulary.path_safety import (
    has_no_parent_segments,
    is_plain_path,
    is_single_path_component,
    url_has_no_parent_segments,
)

ATOMS = ["a", "b", ".", "..", "/", ":", "\\", "\x00", "%2e", "%2E", "%2f", "?", "#", "é", "😀", "x" * 40, "\t"]
text = st.lists(st.sampled_from(ATOMS), max_size=10).map("".join) | st.text(max_size=12)


def ref_no_parent(p: str) -> bool:
    return ".." not in p.split("/")


def ref_single(s: str) -> bool:
    return s not in ("", ".", "..") and not any(c in s for c in "/\\\x00")


def ref_plain_exact(p: str) -> bool:
    return path_error(p, directory=True) is None


def ref_plain_strict(p: str) -> bool:
    """The documented stricter bounds: ≤ 1024 code points, segments ≤ 63, ≤ 32 segments."""
    if not ref_plain_exact(p) or len(p) > 1024:
        return False
    body = p[2:] if p.startswith("./") else p
    if body in ("", "."):
        return True
    segs = body.split("/")
    return len(segs) <= 32 and all(len(s) <= 63 for s in segs)


def ref_url_strict(u: str) -> bool:
    """Documented strict reading: a dot spelling after start, ``/``, ``\\`` or ``:`` and before
    ``/``, ``\\``, ``?``, ``#`` or the end is a dot segment; tab/CR/LF refuse."""
    if any(c in u for c in "\t\r\n"):
        return False
    return re.search(r"(?:(?<=[/\\:])|^)(?:\.|%2[eE]){1,2}(?=[/\\?#]|$)", u) is None


@given(text)
def test_has_no_parent_segments(p: str) -> None:
    assert has_no_parent_segments(p) == ref_no_parent(p)


@given(text)
def test_is_single_path_component(s: str) -> None:
    assert is_single_path_component(s) == ref_single(s)


@settings(max_examples=300)
@given(text | st.lists(st.sampled_from(["a", "bb", "/", "x" * 63, "x" * 64, "./", "é" * 70]), max_size=40).map("".join))
def test_is_plain_path_is_never_looser(p: str) -> None:
    got = is_plain_path(p)
    assert got == ref_plain_strict(p)
    if got:
        assert ref_plain_exact(p)


def test_is_plain_path_examples() -> None:
    assert is_plain_path(".") and is_plain_path("./") and is_plain_path("a/b") and is_plain_path("./a/b/")
    assert is_plain_path("/".join(["s"] * 32)) and not is_plain_path("/".join(["s"] * 33))
    assert is_plain_path("x" * 63) and not is_plain_path("x" * 64)
    for bad in ("", "/a", "a//b", "a/./b", "a/..", "../a", "./.", "a\\b", "a\x00", "././a"):
        assert not is_plain_path(bad), bad


@given(text)
def test_url_predicate(u: str) -> None:
    assert url_has_no_parent_segments(u) == ref_url_strict(u)


def test_url_examples() -> None:
    ok = ["https://example.com:8080/a/b?x=1", "https://h/a?.", "https://h/a#.", "https://h/a/.hidden", "https://h/..a/", "https://h/"]
    bad = ["https://h/a/../b", "https://h/%2E%2e/b", "https://h/a/.", "https://h/a/%2e?q", "../x", "https://h/a\\..\\b",
           "https://h/.\t./x", "x:../a"]
    assert all(url_has_no_parent_segments(u) for u in ok)
    assert not any(url_has_no_parent_segments(u) for u in bad)


ALLOWED_NODES = (
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.If, ast.For, ast.Assign, ast.Expr,
    ast.Name, ast.Load, ast.Store, ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Call,
    ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.And, ast.Or, ast.Not, ast.Add, ast.Sub, ast.USub,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.ImportFrom, ast.alias,
)


def test_predicates_stay_in_the_checked_subset() -> None:
    tree = ast.parse(inspect.getsource(_path_safety))
    for node in ast.walk(tree):
        assert isinstance(node, ALLOWED_NODES), ast.dump(node)
        if isinstance(node, ast.Call):
            assert (isinstance(node.func, ast.Attribute) and node.func.attr in ("startswith", "endswith", "find")) \
                or (isinstance(node.func, ast.Name) and node.func.id == "len"), ast.dump(node)
        if isinstance(node, ast.For):
            assert isinstance(node.iter, ast.Tuple)
            assert not any(isinstance(n, ast.Return) for n in ast.walk(node))
        if isinstance(node, ast.Slice):
            assert all(b is None or isinstance(b, ast.Constant) for b in (node.lower, node.upper, node.step))
