"""The conversation store: ``<data>/conversations.sqlite`` (02 §6.1–6.4).

A :class:`ConversationStore` is bound to one project; every query filters by it, so another
project's ids behave as unknown (STORE-5). Retained frames are appended together with
``bytes``/``turns``/``updated`` (STORE-6), each frame atomic (a savepoint); the frames appended in one
turn of the event loop are committed together. A conversation holds at most
8,000,000 bytes of frames (STORE-9); past that nothing more is kept and ``history_limited`` is
persisted in its state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.sessions.agent.acp_messages import AgentText, message_of, upgrade
from clauz3.sessions.errors import SessionError
from clauz3.sessions.store import store_search
from clauz3.sessions.store.store_schema import MIGRATIONS, has_fts5
from clauz3.storage.migrations import MigrationError, open_store, recorded, transaction

log = logging.getLogger("clauz3.sessions.store")

LIMIT_BYTES = 8_000_000
DEFAULT_TITLE = "New conversation"
UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
INCOMPATIBLE = "conversations.sqlite was written by a newer clauz3; upgrade clauz3"


class StoreError(SessionError):
    """Startup refusal: ``code`` is ``store_incompatible`` or ``store_unreadable`` (02 LAUNCH-6)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Conversation:
    id: str
    project: str
    title: str
    agent: str
    frontend: str
    created: float
    updated: float
    turns: int
    bytes: int
    state: dict[str, Any]

    @property
    def history_limited(self) -> bool:
        return self.state.get("history_limited") is True


@dataclass(frozen=True)
class Summary:
    id: str
    title: str
    updated: float
    agent: str
    turns: int
    snippet: str | None = None


@dataclass(frozen=True)
class Appended:
    """``saved``: the frame was retained. ``limit_reached``: this frame hit the limit (notify once)."""

    saved: bool
    limit_reached: bool


def frame_text(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def is_conversation_id(value: Any) -> bool:
    return isinstance(value, str) and UUID_RE.fullmatch(value) is not None


class ConversationStore:
    def __init__(self, conn: sqlite3.Connection, project: str, *, limit_bytes: int, fts: bool) -> None:
        self._conn = conn
        self.project = project
        self.limit_bytes = limit_bytes
        self.fts = fts
        self._batch_open = False  # a BEGIN IMMEDIATE holding appended frames not yet committed
        self._commit_scheduled = False

    @classmethod
    def open(cls, data_dir: Path, project: str, *, limit_bytes: int = LIMIT_BYTES) -> ConversationStore:
        """Open (or create) the store, refusing symlinks, newer versions and corrupt files."""
        path = data_dir / "conversations.sqlite"
        for candidate in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if candidate.is_symlink():
                raise StoreError("store_unreadable", f"{candidate} is a symbolic link")
        old_umask = os.umask(0o077)  # SQLite creates -wal/-shm itself; keep them private too
        try:
            _probe(path)
            try:
                conn = open_store(path, MIGRATIONS)
            except MigrationError as exc:
                raise StoreError("store_incompatible", INCOMPATIBLE) from exc
            except sqlite3.DatabaseError as exc:
                raise StoreError("store_unreadable", f"conversations.sqlite is unreadable: {exc}") from exc
        finally:
            os.umask(old_umask)
        conn.execute("PRAGMA busy_timeout = 5000")
        fts = has_fts5(conn) and _is_virtual(conn)
        return cls(conn, project, limit_bytes=limit_bytes, fts=fts)

    def close(self) -> None:
        self.flush()
        self._conn.close()

    # -- group commit ------------------------------------------------------------------------
    # A streamed reply is thousands of frames; one COMMIT each wrote the same few pages to the WAL
    # thousands of times (a third of the service's CPU in stream_10k). Frames appended in one turn of
    # the event loop share one transaction, committed as soon as the loop is free (call_soon); any
    # other write commits the batch first. Each frame is its own savepoint, so a failing frame takes
    # nothing else with it.

    def _open_batch(self) -> None:
        if self._batch_open:
            return
        self._conn.execute("BEGIN IMMEDIATE")
        self._batch_open = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_soon(self.flush)
        self._commit_scheduled = True

    def flush(self) -> None:
        """Commit the frames appended since the last commit (a no-op when there are none)."""
        self._commit_scheduled = False
        if not self._batch_open:
            return
        self._batch_open = False
        try:
            self._conn.execute("COMMIT")
        except sqlite3.Error:
            log.exception("the conversation store could not commit streamed frames")
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")

    def _transaction(self) -> transaction:
        self.flush()
        return transaction(self._conn)

    # -- conversations -----------------------------------------------------------------------

    def create(
        self, *, agent: str, state: dict[str, Any] | None = None, frontend: str = "browser",
        title: str = DEFAULT_TITLE, conversation_id: str | None = None,
    ) -> Conversation:
        cid = conversation_id or str(uuid.uuid4())
        if not is_conversation_id(cid):
            raise ValueError("a conversation id is a canonical lowercase UUID4")
        now = time.time()
        with self._transaction():
            self._conn.execute(
                "INSERT INTO conversations (id, project, title, agent, frontend, created, updated, state)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (cid, self.project, title, agent, frontend, now, now, json.dumps(state or {})),
            )
            self._conn.execute(
                "INSERT INTO conversation_search (title, body, conversation, turn) VALUES (?, '', ?, 0)",
                (title, cid),
            )
        created = self.get(cid)
        assert created is not None
        return created

    def get(self, conversation_id: str) -> Conversation | None:
        if not is_conversation_id(conversation_id):
            return None
        row = self._conn.execute(
            "SELECT id, project, title, agent, frontend, created, updated, turns, bytes, state"
            " FROM conversations WHERE id = ? AND project = ?",
            (conversation_id, self.project),
        ).fetchone()
        return _conversation(row) if row else None

    def latest(self) -> Conversation | None:
        """The project's most recently updated conversation (STORE-11)."""
        row = self._conn.execute(
            "SELECT id, project, title, agent, frontend, created, updated, turns, bytes, state"
            " FROM conversations WHERE project = ? ORDER BY updated DESC, rowid DESC LIMIT 1",
            (self.project,),
        ).fetchone()
        return _conversation(row) if row else None

    def listing(self, *, limit: int = 200, current: str | None = None) -> tuple[list[Summary], bool]:
        """Conversations with ≥ 1 turn plus ``current``, newest first; and whether more exist."""
        if not 1 <= limit <= 500:
            raise ValueError("limit must be 1–500")
        rows = self._conn.execute(
            "SELECT id, title, updated, agent, turns FROM conversations"
            " WHERE project = ? AND (turns >= 1 OR id = ?) ORDER BY updated DESC, rowid DESC LIMIT ?",
            (self.project, current, limit + 1),
        ).fetchall()
        return [Summary(*row) for row in rows[:limit]], len(rows) > limit

    def rename(self, conversation_id: str, title: str) -> bool:
        """Set the title (the caller validates 1–120 chars) and its turn-0 search row."""
        if self.get(conversation_id) is None:
            return False
        with self._transaction():
            self._conn.execute(
                "UPDATE conversations SET title = ?, updated = ? WHERE id = ? AND project = ?",
                (title, time.time(), conversation_id, self.project),
            )
            self._conn.execute(
                "UPDATE conversation_search SET title = ? WHERE conversation = ? AND turn = 0", (title, conversation_id)
            )
        return True

    def set_state(self, conversation_id: str, state: dict[str, Any]) -> bool:
        """Persist ``state`` if it differs from the saved one (STORE-4); True when written."""
        text = json.dumps(state, sort_keys=True)
        with self._transaction():
            row = self._conn.execute(
                "SELECT state FROM conversations WHERE id = ? AND project = ?", (conversation_id, self.project)
            ).fetchone()
            if row is None or json.dumps(json.loads(row[0]), sort_keys=True) == text:
                return False
            self._conn.execute("UPDATE conversations SET state = ? WHERE id = ?", (text, conversation_id))
        return True

    def delete(self, conversation_id: str) -> bool:
        if self.get(conversation_id) is None:
            return False
        with self._transaction():
            self._conn.execute("DELETE FROM conversation_search WHERE conversation = ?", (conversation_id,))
            self._conn.execute(
                "DELETE FROM conversations WHERE id = ? AND project = ?", (conversation_id, self.project)
            )
        return True

    def prune_empty(self, *, keep: str | None = None) -> int:
        """Delete this project's 0-turn conversations except ``keep`` (STORE-11)."""
        ids = [
            row[0] for row in self._conn.execute(
                "SELECT id FROM conversations WHERE project = ? AND turns = 0 AND id IS NOT ?", (self.project, keep)
            )
        ]
        for cid in ids:
            self.delete(cid)
        return len(ids)

    # -- transcript --------------------------------------------------------------------------

    def append(
        self, conversation_id: str, *, turn: int, method: str, frame: dict[str, Any],
        state: dict[str, Any] | None = None,
    ) -> Appended:
        """Retain one frame with its counters (and optionally new state) in one transaction."""
        text = frame_text(frame)
        size = len(text.encode("utf-8"))
        self._open_batch()
        self._conn.execute("SAVEPOINT frame")
        try:
            result = self._append(conversation_id, turn, method, text, size, state)
        except BaseException:
            self._conn.execute("ROLLBACK TO frame")
            self._conn.execute("RELEASE frame")
            raise
        self._conn.execute("RELEASE frame")
        if not self._commit_scheduled:
            self.flush()  # no event loop here: the frame is committed before append returns
        return result

    def _append(
        self, conversation_id: str, turn: int, method: str, text: str, size: int, state: dict[str, Any] | None
    ) -> Appended:
        row = self._conn.execute(
            "SELECT bytes, state FROM conversations WHERE id = ? AND project = ?", (conversation_id, self.project)
        ).fetchone()
        if row is None:
            raise KeyError(conversation_id)
        used, saved_state = row[0], json.loads(row[1])
        new_state = dict(state) if state is not None else saved_state
        if saved_state.get("history_limited") is True:
            if state is not None:  # the frame is dropped, the state change is not
                new_state["history_limited"] = True
                self._conn.execute(
                    "UPDATE conversations SET state = ? WHERE id = ?", (json.dumps(new_state), conversation_id)
                )
            return Appended(False, False)
        if used + size > self.limit_bytes:
            new_state["history_limited"] = True
            self._conn.execute(
                "UPDATE conversations SET state = ? WHERE id = ?", (json.dumps(new_state), conversation_id)
            )
            return Appended(False, True)
        self._conn.execute(
            "INSERT INTO messages (turn, method, conversation, frame) VALUES (?, ?, ?, ?)",
            (turn, method, conversation_id, text),
        )
        self._conn.execute(
            "UPDATE conversations SET bytes = bytes + ?, turns = max(turns, ?), updated = ?, state = ?"
            " WHERE id = ?",
            (size, turn, time.time(), json.dumps(new_state), conversation_id),
        )
        return Appended(True, False)

    def history(self, conversation_id: str) -> list[dict[str, Any]]:
        if self.get(conversation_id) is None:
            return []
        rows = self._conn.execute(
            "SELECT frame FROM messages WHERE conversation = ? ORDER BY sequence", (conversation_id,)
        )
        # Older versions kept raw ACP frames: they are read in today's stable form.
        return [frame for row in rows if (frame := upgrade(json.loads(row[0]))) is not None]

    def index_turn(self, conversation_id: str, turn: int) -> None:
        """Upsert the search row of one turn: user text plus assistant text (STORE-7)."""
        conversation = self.get(conversation_id)
        if conversation is None or turn < 1:
            return
        parts: list[str] = []
        for row in self._conn.execute(
            "SELECT method, frame FROM messages WHERE conversation = ? AND turn = ? ORDER BY sequence",
            (conversation_id, turn),
        ):
            parts.append(_searchable_text(row[0], json.loads(row[1])))
        body = "".join(parts)
        with self._transaction():
            self._conn.execute(
                "DELETE FROM conversation_search WHERE conversation = ? AND turn = ?", (conversation_id, turn)
            )
            self._conn.execute(
                "INSERT INTO conversation_search (title, body, conversation, turn) VALUES ('', ?, ?, ?)",
                (body, conversation_id, turn),
            )

    # -- search ------------------------------------------------------------------------------

    def search(self, query: str) -> list[Summary]:
        """STORE-10: raises :class:`store_search.BadQuery` for an empty or over-long query."""
        words = store_search.terms(query)
        if not words:
            return []
        if self.fts:
            expression = store_search.fts_expression(words)
            recent = self._recent_matches(expression, words)
            if recent is not None:
                return recent
            rows = self._conn.execute(
                "SELECT c.id, c.title, c.updated, c.agent, c.turns, s.title || ' ' || s.body"
                " FROM conversation_search s JOIN conversations c ON c.id = s.conversation"
                " WHERE conversation_search MATCH ? AND c.project = ?"
                " ORDER BY bm25(conversation_search), c.updated DESC LIMIT 1000",
                (expression, self.project),
            ).fetchall()
        else:
            where = " AND ".join(["lower(s.title || ' ' || s.body) LIKE ? ESCAPE '\\'"] * len(words))
            rows = self._conn.execute(
                "SELECT c.id, c.title, c.updated, c.agent, c.turns, s.title || ' ' || s.body"
                " FROM conversation_search s JOIN conversations c ON c.id = s.conversation"
                f" WHERE c.project = ? AND {where} ORDER BY c.updated DESC LIMIT 1000",
                (self.project, *[store_search.like_pattern(w) for w in words]),
            ).fetchall()
        hits: dict[str, Summary] = {}
        for cid, title, updated, agent, turns, text in rows:
            if cid not in hits:
                hits[cid] = Summary(cid, title, updated, agent, turns, store_search.snippet(text, words))
            if len(hits) == store_search.MAX_RESULTS:
                break
        return list(hits.values())

    def _recent_matches(self, expression: str, words: list[str]) -> list[Summary] | None:
        """Issue 22: a term common to most turns is answered from a bounded scan of the newest matching
        turns (FTS5 walks rowids newest first and stops), most recently updated conversation first; None
        when the term is rare enough (at most ``RECENT_SCAN`` matching turns) to rank every match exactly.

        The last word is matched as a prefix, which FTS5 (without a prefix index) answers only after
        merging every longer word's matches; so the newest turns with the last word as a whole word are
        scanned first, and when they are common they are the first page (a whole-word match ranks before
        a longer word that merely starts with it). Otherwise the prefix form is scanned the same way."""
        whole = store_search.fts_expression(words, prefix=False)
        found = self._newest(whole, words)
        if found is not None and len(found) >= store_search.MAX_RESULTS:
            return found
        return self._newest(expression, words)  # a page the whole word cannot fill: the prefix form

    def _newest(self, expression: str, words: list[str]) -> list[Summary] | None:
        limit = store_search.RECENT_SCAN
        while True:
            rows = self._conn.execute(
                "SELECT rowid, conversation FROM conversation_search WHERE conversation_search MATCH ?"
                " ORDER BY rowid DESC LIMIT ?", (expression, limit + 1)).fetchall()
            if limit == store_search.RECENT_SCAN and len(rows) <= limit:
                return None
            newest: dict[str, int] = {}
            for rowid, cid in rows:
                newest.setdefault(cid, rowid)
            marks = ",".join("?" * len(newest))
            found = self._conn.execute(
                f"SELECT id, title, updated, agent, turns FROM conversations WHERE project = ? AND id IN ({marks})"
                " ORDER BY updated DESC, rowid DESC LIMIT ?",
                (self.project, *newest, store_search.MAX_RESULTS)).fetchall() if newest else []
            if len(found) >= store_search.MAX_RESULTS or len(rows) <= limit:
                break
            limit *= 8  # other projects' turns filled the scan: look further back
        wanted = [newest[row[0]] for row in found]
        texts = dict(self._conn.execute(
            f"SELECT rowid, title || ' ' || body FROM conversation_search WHERE rowid IN ({','.join('?' * len(wanted))})",
            wanted).fetchall()) if wanted else {}
        return [Summary(cid, title, updated, agent, turns, store_search.snippet(texts.get(newest[cid], ""), words))
                for cid, title, updated, agent, turns in found]

    def integrity_ok(self) -> bool:
        return self._conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _probe(path: Path) -> None:
    """Refuse a corrupt file before anything writes to it (STORE-2); ``open_store`` refuses a newer one."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError("store_unreadable", f"conversations.sqlite is unreadable: {exc}") from exc
    if ok != "ok":
        raise StoreError("store_unreadable", "conversations.sqlite is damaged")


def _read_only(data_dir: Path) -> sqlite3.Connection | None:
    """A read-only connection for commands that run before any service (05 TRM-5); None without a store."""
    path = data_dir / "conversations.sqlite"
    if not path.is_file() or path.is_symlink():
        return None
    try:
        known = {m.name for m in MIGRATIONS}
        if not set(recorded(path)) <= known:  # a newer clauz3's file: its tables may mean other things
            raise StoreError("store_incompatible", INCOMPATIBLE)
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("PRAGMA busy_timeout = 5000")
        conn.execute("SELECT 1 FROM conversations LIMIT 1")
    except sqlite3.Error as exc:
        raise StoreError("store_unreadable", f"conversations.sqlite is unreadable: {exc}") from None
    return conn


def turned_conversations(data_dir: Path, project: str) -> list[Summary]:
    """Read-only: the project's conversations with at least one turn, newest first (never creates the file)."""
    conn = _read_only(data_dir)
    if conn is None:
        return []
    try:
        rows = conn.execute("SELECT id, title, updated, agent, turns FROM conversations WHERE project = ?"
                            " AND turns >= 1 ORDER BY updated DESC, rowid DESC", (project,)).fetchall()
    except sqlite3.Error as exc:
        raise StoreError("store_unreadable", f"conversations.sqlite is unreadable: {exc}") from None
    finally:
        conn.close()
    return [Summary(str(r[0]), str(r[1]), float(r[2]), str(r[3]), int(r[4])) for r in rows]


def newest_elsewhere(data_dir: Path, project: str, limit: int = 3) -> list[tuple[str, str, int]]:
    """Read-only: other projects with saved conversations, newest first, as (project, newest id, count)."""
    conn = _read_only(data_dir)
    if conn is None:
        return []
    try:
        rows = conn.execute(
            "SELECT project, count(*), max(updated) FROM conversations WHERE project != ? AND turns >= 1"
            " GROUP BY project ORDER BY max(updated) DESC LIMIT ?", (project, limit)).fetchall()
        out = []
        for other, count, _updated in rows:
            newest = conn.execute("SELECT id FROM conversations WHERE project = ? AND turns >= 1"
                                  " ORDER BY updated DESC, rowid DESC LIMIT 1", (other,)).fetchone()
            out.append((str(other), str(newest[0]), int(count)))
    except sqlite3.Error as exc:
        raise StoreError("store_unreadable", f"conversations.sqlite is unreadable: {exc}") from None
    finally:
        conn.close()
    return out


def project_of(data_dir: Path, conversation_id: str) -> str | None:
    """Read-only: the project a conversation belongs to, looked up across every project (05 TRM-5)."""
    conn = _read_only(data_dir)
    if conn is None:
        return None
    try:
        row = conn.execute("SELECT project FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
    except sqlite3.Error as exc:
        raise StoreError("store_unreadable", f"conversations.sqlite is unreadable: {exc}") from None
    finally:
        conn.close()
    return str(row[0]) if row else None


def _is_virtual(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'conversation_search'").fetchone()
    return bool(row) and "VIRTUAL" in row[0].upper()


def _searchable_text(method: str, frame: dict[str, Any]) -> str:
    raw_params = frame.get("params")
    params = raw_params if isinstance(raw_params, dict) else {}
    if method == "clauz3/user" and isinstance(params.get("text"), str):
        return params["text"] + "\n"
    message = message_of(frame)
    return message.chunk if isinstance(message, AgentText) else ""


def _conversation(row: tuple[Any, ...]) -> Conversation:
    *head, state = row
    return Conversation(*head, state=json.loads(state))  # type: ignore[misc]  # head: the columns before state, in field order
