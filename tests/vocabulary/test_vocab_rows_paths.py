"""Row schemas (ROW-1, ROW-2) and typed paths (ROW-3, 05 §11.1)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

import clauz3
from clauz3 import ColumnRef, DirectoryPath, FilePath, Row


class UserRow(Row):
    email: str
    age: int
    admin: bool


class AdminRow(UserRow):
    level: int


def test_row_construction_and_immutability() -> None:
    r = UserRow(email="a@b", age=3, admin=False)
    assert (r.email, r.age, r.admin) == ("a@b", 3, False)
    assert r == UserRow(email="a@b", age=3, admin=False) and hash(r) == hash(UserRow(email="a@b", age=3, admin=False))
    assert r != UserRow(email="a@b", age=4, admin=False)
    with pytest.raises(AttributeError):
        r.email = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        UserRow("a@b", 3, False)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        UserRow(email="a@b", age=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        UserRow(email="a@b", age=3, admin=False, extra=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        UserRow(email="a@b", age=True, admin=False)
    assert copy.deepcopy(r) == r
    a = AdminRow(email="x", age=1, admin=True, level=2)
    assert list(a.__row_fields__) == ["email", "age", "admin", "level"]


def test_column_refs() -> None:
    ref = UserRow.email
    assert isinstance(ref, ColumnRef) and ref.schema is UserRow and ref.field == "email"
    assert ref == ColumnRef(UserRow, "email") and ref != AdminRow.email
    assert clauz3.ColumnRef is ColumnRef


def test_row_class_errors() -> None:
    with pytest.raises(TypeError):
        type("R1", (Row,), {"__annotations__": {"x": float}})
    with pytest.raises(TypeError):
        type("R2", (Row,), {"__annotations__": {"x": int}, "x": 3})
    base = type("R3", (Row,), {"__annotations__": {"x": int}})
    with pytest.raises(TypeError):
        type("R4", (base,), {"x": 3})


def reference_error(text: str, directory: bool) -> bool:
    """Straightforward reading of 05 §11.1 (a FilePath may also be absolute, issue 10); True when valid."""
    b = text.encode("utf-8", "surrogatepass")
    if not 1 <= len(b) <= 4096 or "\\" in text or "\x00" in text:
        return False
    if text.startswith("/"):
        if directory or text.endswith("/"):
            return False
        return all(s not in ("", ".", "..") and len(s.encode("utf-8", "surrogatepass")) <= 255
                   for s in text[1:].split("/"))
    if text in (".", "./"):
        return directory
    body = text[2:] if text.startswith("./") else text
    if text.endswith("/"):
        if not directory:
            return False
        body = body[:-1]
    segs = body.split("/")
    return all(s not in ("", ".", "..") and len(s.encode("utf-8", "surrogatepass")) <= 255 for s in segs)


path_text = st.lists(st.sampled_from(["a", "b", ".", "..", "", "/", "./", "\\", "\x00", "é", "x" * 130, "😀"]),
                     max_size=8).map("".join)


@given(path_text)
def test_typed_paths_match_reference(text: str) -> None:
    for cls, directory in ((FilePath, False), (DirectoryPath, True)):
        ok = reference_error(text, directory)
        if ok:
            value = cls(text)
            assert isinstance(value, str) and isinstance(value, cls)
            assert not value.startswith("./") and (value == "." or not value.endswith("/"))
            assert cls(value) == value  # canonical is a fixed point
        else:
            with pytest.raises(ValueError, match=f"^invalid {cls.__name__}: "):
                cls(text)


def test_typed_path_examples() -> None:
    assert FilePath("./a/b") == "a/b" and repr(FilePath("./a/b")) == 'FilePath("a/b")'
    assert DirectoryPath("./") == "." and DirectoryPath(".") == "." and DirectoryPath("a/b/") == "a/b"
    assert repr(DirectoryPath("a")) == 'DirectoryPath("a")'
    for bad in (".", "a/", "a//b", "a/./b", "../a", "a\\b", "", "x" * 256, "./.", "/", "//a", "/a/../b", "/./a", "/a/"):
        with pytest.raises(ValueError):
            FilePath(bad)
    # A file anywhere (a database file) may be absolute (issue 10); a directory scope may not.
    assert FilePath("/var/data/app.db") == "/var/data/app.db"
    with pytest.raises(ValueError):
        DirectoryPath("/var/data")
    with pytest.raises(TypeError):
        FilePath(3)  # type: ignore[arg-type]
    p = FilePath("a")
    assert copy.deepcopy(p) is p and type(copy.copy(p)) is FilePath
