"""env, web_search, web_fetch and db effects against real processes, sockets and SQLite files."""

from __future__ import annotations

import http.server
import socket
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tools.db.trusted import effects as db
from tools.db.trusted.schemas import TaskRow
from tools.env.trusted.effects import read_env
from tools.web_fetch.trusted.effects import fetch_url
from tools.web_search.trusted.effects import web_search

from clauz3.errors import PreconditionError
from clauz3.stdlib import webfetch
from clauz3.stdlib.sqlitedb import DbError


def test_read_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("L1_SAMPLE", "value")
    assert read_env("L1_SAMPLE") == "value"
    assert read_env("L1_UNSET_VARIABLE") == ""
    with pytest.raises(PreconditionError):
        read_env("CLAUZ3_APPROVAL_TOKEN")
    with pytest.raises(ValueError, match="not a variable name"):
        read_env("A-B")


def test_web_search_is_deterministic_and_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_socket(*args: object, **kwargs: object) -> None:
        raise AssertionError("web_search opened a socket")

    monkeypatch.setattr(socket, "socket", no_socket)
    first = web_search("python testing")
    assert first == web_search("python testing") and 0 < len(first) <= 5
    assert first[0] == "Testing Python with pytest — https://example.org/guides/pytest"
    assert web_search("zzzz") == []


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "http://example.com/")
            self.end_headers()
            return
        body = f"hello {self.headers['User-Agent']}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[int]:
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_fetch_refuses_loopback_redirect_and_dot_segments(server: int) -> None:
    with pytest.raises(webfetch.FetchError, match=r"refused address 127\.0\.0\.1"):
        fetch_url(f"http://127.0.0.1:{server}/")
    allow_all = lambda address: True  # noqa: E731 - injected for the local server only
    assert webfetch.request("GET", f"http://127.0.0.1:{server}/", allow_address=allow_all).startswith("hello clauz3")
    with pytest.raises(webfetch.FetchError, match=r"redirects .*http://example\.com/"):
        webfetch.request("GET", f"http://127.0.0.1:{server}/redirect", allow_address=allow_all)
    with pytest.raises(PreconditionError):
        fetch_url("https://a.example.com/docs/%2e%2e/x")
    assert webfetch.url_problem("https://u@a.example.com/") == "has userinfo"
    assert webfetch.url_problem("https://a.example.com:443/") == "has an explicit default port"


def test_db_roundtrip_and_refusals(project: Path) -> None:
    (project / "data").mkdir()
    db.create_table(TaskRow, "data/tasks.db", "tasks")
    db.insert_row("data/tasks.db", "tasks", {"title": "a", "priority": 2, "done": False})
    db.insert_row("data/tasks.db", "tasks", {"title": "b", "priority": 1, "done": True})
    rows = db.read_rows(TaskRow, "data/tasks.db", "tasks", {"done": True})
    assert rows == [TaskRow(title="b", priority=1, done=True)]
    with pytest.raises(DbError, match="already exists"):
        db.create_table(TaskRow, "data/tasks.db", "tasks")
    with pytest.raises(DbError, match="not a plain identifier"):
        db.read_rows(TaskRow, "data/tasks.db", "x; DROP", {})
    with pytest.raises(DbError, match=r"constraint"):
        db.insert_row("data/tasks.db", "tasks", {"title": "c", "priority": 1, "done": 5})
    count = sqlite3.connect(project / "data" / "tasks.db").execute("SELECT count(*) FROM tasks").fetchone()[0]
    assert count == 2
    (project / "link.db").symlink_to(project / "data" / "tasks.db")
    with pytest.raises(DbError, match="symbolic link refused"):
        db.read_rows(TaskRow, "link.db", "tasks", {})
