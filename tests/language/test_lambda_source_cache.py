"""Conditions' lambdas are found by parsing their file once per text (issue 15 review: re-parsing the
contracts file for every lambda was ~40 % of checking time) — and a changed file is parsed again."""

from __future__ import annotations

import ast
import importlib.util
import linecache
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import clauz3.vocabulary.meta as meta


def _load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = meta.parse_ast

    def counting(source: str | bytes, *args: Any, **kwargs: Any) -> Any:
        seen.append(source if isinstance(source, str) else source.decode())
        return real(source, *args, **kwargs)

    monkeypatch.setattr(meta, "parse_ast", counting)
    monkeypatch.setattr(meta, "_LAMBDAS", {})
    return seen


def _bound(fn: Callable[..., Any]) -> int:
    node = meta.lambda_node(fn)
    assert isinstance(node, ast.Lambda)
    assert isinstance(node.body, ast.Compare) and isinstance(node.body.comparators[0], ast.Constant)
    value = node.body.comparators[0].value
    assert isinstance(value, int)
    return value


def test_one_parse_serves_every_lambda_of_an_unchanged_file(tmp_path: Path, parses: list[str]) -> None:
    path = tmp_path / "conds_once.py"
    path.write_text("a = lambda x: x > 1\nb = lambda x: x > 2\nc, d = (lambda x: x > 3), (lambda x: x > 4)\n")
    mod = _load(path, "conds_once")
    assert [_bound(mod.a), _bound(mod.b), _bound(mod.c), _bound(mod.d)] == [1, 2, 3, 4]
    assert _bound(mod.a) == 1
    assert len(parses) == 1
    assert meta.lambda_source(mod.d) == "lambda x: x > 4"


def test_a_changed_file_is_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    path = tmp_path / "conds_changed.py"
    path.write_text("a = lambda x: x > 1\n")
    first = _load(path, "conds_changed")
    assert _bound(first.a) == 1
    # Same path, same size, same line: only the text tells the two versions apart.
    path.write_text("a = lambda x: x > 7\n")
    linecache.checkcache(str(path))
    second = _load(path, "conds_changed")
    assert _bound(second.a) == 7
    assert len(parses) == 2 and parses[0] != parses[1]


def test_a_file_that_does_not_parse_gives_no_node(tmp_path: Path, parses: list[str]) -> None:
    path = tmp_path / "conds_broken.py"
    path.write_text("a = lambda x: x > 1\n")
    mod = _load(path, "conds_broken")
    path.write_text("a = lambda x: x >\n")
    linecache.checkcache(str(path))
    assert meta.lambda_node(mod.a) is None
