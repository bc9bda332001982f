"""history_search (FTS over 10,000 conversations × 50 messages) and files_list (a 2,000-entry folder
through the running workspace service's files endpoint).

The history database is built once into bench/results/cache/ (git-ignored) and reused; delete the
folder to rebuild it. Rows are written with the store's own schema and frame format, in bulk,
because 500,000 one-frame transactions would take longer than the whole benchmark suite.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

from _common import ROOT, Sample, spawn_ui, stop_tree

CONVERSATIONS = 10_000
MESSAGES = 50  # per conversation: 25 turns of a user prompt and an agent reply
CACHE = ROOT / "bench" / "results" / "cache" / "history-10k"
PROJECT = "/bench/history-project"
SEED = 6_2026
BUILD_VERSION = "2"  # bump when the generated data changes
# Typical searches: topical words of several frequencies, two words, a prefix being typed, a rare word.
QUERIES = ["invoice", "deploy staging", "migrat", "quixotic", "quarterly report", "database"]
# The worst case a person can type: the most frequent word, matching nearly every turn.
COMMON_QUERY = "the"


def _vocabulary(rng: random.Random) -> tuple[list[str], list[float]]:
    """English-like text with Zipf weights: function words on top, topical words spread over ranks
    150–3,000 (as in ordinary prose: a few percent of turns mention "report"), then a long tail."""
    common = ("the a to of and in is for on it with that this be as at by from or an are was not we you "
              "i can will do have has if then so but all what when how please").split()
    topical = ("report migrate invoice deploy staging migration quarterly budget customer release schedule "
               "meeting backup restore database server upload contract summary review migrated draft approve "
               "reject archive calendar payment refund ticket support quixotic").split()
    letters = "abcdefghijklmnopqrstuvwxyz"
    tail = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(4, 11))) for _ in range(30_000)})
    words = [*common, *tail]
    for i, word in enumerate(topical):  # ranks 150, 250, … 3,050
        words.insert(150 + 100 * i, word)
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    return words, weights


def _frame_user(text: str, turn: int) -> dict[str, object]:
    return {"method": "clauz3/user", "params": {"text": text, "turn": turn}}


def _frame_agent(text: str) -> dict[str, object]:
    return {"method": "session/update", "params": {"update": {
        "sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}}}


def build_history(path: Path) -> None:
    from clauz3.sessions.store.store import ConversationStore, frame_text

    path.mkdir(parents=True, exist_ok=True)
    ConversationStore.open(path, PROJECT).close()  # the real schema, through the real migrations
    rng = random.Random(SEED)
    words, weights = _vocabulary(rng)
    cum: list[float] = []
    total = 0.0
    for w in weights:
        total += w
        cum.append(total)

    def sentence(low: int, high: int) -> str:
        return " ".join(rng.choices(words, cum_weights=cum, k=rng.randint(low, high)))

    conn = sqlite3.connect(path / "conversations.sqlite")
    now = time.time()
    with conn:
        for c in range(CONVERSATIONS):
            cid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            title = sentence(2, 5)[:120]
            frames: list[tuple[int, str, str]] = []
            search: list[tuple[str, str, int]] = [(title, "", 0)]
            for turn in range(1, MESSAGES // 2 + 1):
                prompt, reply = sentence(8, 20), sentence(20, 80)
                frames.append((turn, "clauz3/user", frame_text(_frame_user(prompt, turn))))
                frames.append((turn, "session/update", frame_text(_frame_agent(reply))))
                search.append(("", prompt + "\n" + reply, turn))
            size = sum(len(f[2].encode()) for f in frames)
            updated = now - (CONVERSATIONS - c) * 60
            conn.execute("INSERT INTO conversations (id, project, title, agent, frontend, created, updated, turns,"
                         " bytes, state) VALUES (?, ?, ?, 'demo', 'browser', ?, ?, ?, ?, '{}')",
                         (cid, PROJECT, title, updated, updated, MESSAGES // 2, size))
            conn.executemany("INSERT INTO messages (turn, method, conversation, frame) VALUES (?, ?, ?, ?)",
                             [(t, m, cid, f) for t, m, f in frames])
            conn.executemany("INSERT INTO conversation_search (title, body, conversation, turn) VALUES (?, ?, ?, ?)",
                             [(t, b, cid, n) for t, b, n in search])
    conn.execute("PRAGMA optimize")
    conn.close()


def _history_store():  # type: ignore[no-untyped-def]
    from clauz3.sessions.store.store import ConversationStore
    from clauz3.sessions.store.store_schema import MIGRATIONS

    marker = CACHE / "built"
    # the recorded migration list is the store's version (issue 15): a new migration rebuilds the cache
    stamp = f"{BUILD_VERSION}/{'+'.join(m.name for m in MIGRATIONS)}/{CONVERSATIONS}x{MESSAGES}"
    if not marker.exists() or marker.read_text() != stamp:
        shutil.rmtree(CACHE, ignore_errors=True)
        print(f"  building the 10,000-conversation history once into {CACHE} …", file=sys.stderr, flush=True)
        start = time.perf_counter()
        build_history(CACHE)
        marker.write_text(stamp)
        print(f"  built in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return ConversationStore.open(CACHE, PROJECT)


def history_search(reps: int) -> tuple[list[float], list[float]]:
    store = _history_store()
    try:
        if not store.fts:
            print("  note: this SQLite has no FTS5; search uses the substring fallback", file=sys.stderr)
        for query in [*QUERIES, COMMON_QUERY]:  # warm the page cache as a running service would have it
            if not store.search(query):
                raise RuntimeError(f"search {query!r} found nothing")
        typical, common = [], []
        for i in range(max(reps, 2 * len(QUERIES))):
            start = time.perf_counter()
            store.search(QUERIES[i % len(QUERIES)])
            typical.append(time.perf_counter() - start)
        for _ in range(reps):
            start = time.perf_counter()
            store.search(COMMON_QUERY)
            common.append(time.perf_counter() - start)
        return typical, common
    finally:
        store.close()


def files_list(reps: int) -> list[float]:
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix="clauz3-bench-files-"))
    try:
        project = tmp / "project"
        big = project / "big"
        big.mkdir(parents=True)
        for i in range(2000):
            if i % 10 == 0:
                (big / f"folder-{i:04d}").mkdir()
            else:
                (big / f"file-{i:04d}.txt").write_text(f"entry {i}\n")
        launched = spawn_ui("demo", home=tmp / "home", cwd=project)
        try:
            with httpx.Client(base_url=launched.base, trust_env=False, timeout=30) as client:
                landing = client.get(launched.link)  # signs in: the session cookie lands in the client's jar
                # Issue 19: API calls also carry the page secret the sign-in page hands its tab (a <meta>).
                found = re.search(r'<meta name="clauz3-page" content="([^"]+)"', landing.text)
                if found is None:
                    raise RuntimeError("the sign-in answer carried no page secret")
                headers = {"Sec-Fetch-Site": "same-origin", "X-Clauz3-Page": found.group(1)}
                times = []
                for i in range(max(reps, 20) + 1):
                    start = time.perf_counter()
                    answer = client.get("/api/workspace/files", params={"path": "big"}, headers=headers)
                    elapsed = time.perf_counter() - start
                    listing = answer.json()
                    if answer.status_code != 200 or len(listing.get("entries", [])) != 2000:
                        raise RuntimeError(f"files endpoint answered {answer.status_code}: {json.dumps(listing)[:200]}")
                    if i:
                        times.append(elapsed)
                return times
        finally:
            stop_tree(launched.proc)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def collect(reps: int) -> list[Sample]:
    typical, common = history_search(reps)
    return [Sample("history_search", typical, target=0.05),
            Sample("history_search_common", common, target=0.05),
            Sample("files_list", files_list(reps), target=0.05)]
