"""QB-13: ``kill -9`` of the service at five points of a conversation, through the real launcher.

Each point drives ``clauz3 ui demo --no-browser --port 0`` over its WebSocket (and the authority's
HTTP decision route with the session cookie, as the page does), records every process in the
service's tree from ``/proc`` just before the kill, kills the service with SIGKILL and then checks:

- after 2 s none of those processes is alive (supervisor, demo agent, bridge, warm prover, worker);
- ``clauz3 ui`` again on the same CLAUZ3_HOME and project reopens the same conversation;
- a run killed before execution never executes; a run killed while executing is recorded
  ``uncertain`` in the run ledger and never runs again (its effect marker holds exactly one line).

The proof point uses a copy of the email library whose ``only`` contract also excludes a captured list
of 200,000 addresses, so proving that guarantee takes seconds (up to the proof deadline). The
execution point's ``send_email`` appends a marker line and then sleeps, so the kill lands mid-call.

The five points take about 32 s together (under the 40 s allowed for them in the default tier), so all
five run in the default tier; ``soak`` repeats the five-point loop three more times (00 DEC-2). The
idle point overlaps ``test_service_kill.py``.

Regression guard: the executing run once stayed ``executing`` in the ledger after the restart (and the
page showed it ``cancelled``); a run left executing by a dead service is now recorded ``uncertain``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from page_client import PAGE_HEADER, page_socket, signed_in
from test_ui_launcher import env_for, first_link

from clauz3.tutorials import EMAIL

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for proc_tree
import proc_tree
from proc_tree import alive, children

pytestmark = pytest.mark.soak  # kill -9 at every point: a long loop (00 DEC-2)

REPO = Path(__file__).resolve().parents[2]
TUTORIAL_TOOLS = REPO / "src" / "clauz3" / "tutorials" / "email" / "tools"
STARTER = EMAIL.starters[0].text  # "Use the mock email library to send bob@example.com …"
PRE_EXECUTION = {"checking", "proving", "submitting_approval", "awaiting_approval"}

SLOW_CONTRACTS = '''"""The email contracts with a slow `only`: it also excludes a long captured list."""

from tools.email.trusted.effects import send_email

from clauz3.spec import ContractSpec, contract, effect

BLOCKED = ["blocked%d@example.com" % i for i in range({blocked})]


@contract(description="every email goes to one of {{addresses}}")
def only(addresses: list[str]) -> ContractSpec:
    return effect(send_email).all(lambda e: e.addr in addresses and e.addr not in BLOCKED)


@contract(description="at most {{count}} emails are sent")
def at_most(count: int) -> ContractSpec:
    return effect(send_email).count() <= count


@contract(description="no address receives two emails")
def unique_recipients() -> ContractSpec:
    return effect(send_email).distinct(lambda e: e.addr)
'''

MARKING_EFFECTS = '''"""An email effect for the kill tests: it leaves a marker line, then takes its time."""

import os
import time

import clauz3


@clauz3.trusted
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr must contain @")
def send_email(addr: str, msg: str) -> None:
    """Record one line in the marker file, then wait (nothing is delivered)."""
    with open({marker!r}, "a") as fh:
        fh.write(str(os.getpid()) + "\\n")
    time.sleep(120)
'''


# ----------------------------------------------------------------------------------- the service


@dataclass
class Workspace:
    """One CLAUZ3_HOME and project that a service is launched on, twice."""

    tmp: Path
    tutorial: bool
    project: Path
    marker: Path

    @property
    def data(self) -> Path:
        return self.tmp / "data"

    def launch(self) -> subprocess.Popen[str]:
        args = ["demo", "--tutorial"] if self.tutorial else ["demo"]
        return subprocess.Popen([sys.executable, "-m", "clauz3", "ui", *args, "--no-browser", "--port", "0"],
                                cwd=self.tmp if self.tutorial else self.project, env=env_for(self.tmp),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)

    def ledger_rows(self) -> list[dict[str, Any]]:
        found = sorted(self.data.glob("workspaces/*/runs.sqlite"))
        rows: list[dict[str, Any]] = []
        for path in found:
            with contextlib.closing(sqlite3.connect(path)) as conn:
                conn.row_factory = sqlite3.Row
                rows += [dict(r) for r in conn.execute("SELECT request_id, project, phase, reason FROM runs")]
        return rows

    def marker_lines(self) -> list[str]:
        return self.marker.read_text().splitlines() if self.marker.exists() else []


def tutorial_workspace(tmp: Path) -> Workspace:
    return Workspace(tmp, True, tmp / "data" / "tutorials" / "email", tmp / "no-marker")


def custom_workspace(tmp: Path, *, blocked: int = 0) -> Workspace:
    """A project holding the email library, with the marking effect and (optionally) the slow contract."""
    project = tmp / "project"
    shutil.copytree(TUTORIAL_TOOLS, project / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    project = Path(os.path.realpath(project))
    marker = project / "effect-marker.txt"  # inside the workspace: the sandbox allows writes there
    trusted = project / "tools" / "email" / "trusted"
    (trusted / "effects.py").write_text(MARKING_EFFECTS.format(marker=str(marker)))
    if blocked:
        (trusted / "contracts.py").write_text(SLOW_CONTRACTS.format(blocked=blocked))
    return Workspace(tmp, False, project, marker)


@dataclass
class Session:
    """A signed-in page: the cookie and one WebSocket, with every frame kept."""

    base: str
    cookie: tuple[str, str]
    ws: Any
    cid: str = ""
    frames: list[dict[str, Any]] = field(default_factory=list)
    secret: str = ""  # the page secret (issue 19), sent with the cookie

    @classmethod
    async def open(cls, url: str) -> Session:
        base = url.split("/ui/login")[0]
        async with httpx.AsyncClient(timeout=90.0, trust_env=False) as client:
            response = await client.get(url)
            name, value, secret = signed_in(response)
        ws = await page_socket(base.replace("http", "ws") + "/api/chat/acp", origin=base, cookie=f"{name}={value}",
                               secret=secret, max_size=None, open_timeout=90)
        return cls(base, (name, value), ws, secret=secret)

    @property
    def page(self) -> dict[str, str]:
        return {PAGE_HEADER: self.secret}

    async def next(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 60.0) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), max(0.1, deadline - loop.time())))
            self.frames.append(frame)
            if predicate(frame):
                return frame

    async def send(self, method: str, **params: Any) -> None:
        await self.ws.send(json.dumps({"method": method, "params": params}))

    async def decide(self, request_id: str, decision: str) -> httpx.Response:
        async with httpx.AsyncClient(timeout=90.0, trust_env=False, base_url=self.base, cookies=dict([self.cookie]),
                                     headers=self.page) as client:
            return await client.post(f"/api/requests/{request_id}/decision", json={"decision": decision},
                                     headers={"Origin": self.base})

    async def conversations(self) -> list[dict[str, Any]]:
        async with httpx.AsyncClient(timeout=90.0, trust_env=False, base_url=self.base, cookies=dict([self.cookie]),
                                     headers=self.page) as client:
            return (await client.get("/api/chat/conversations")).json()["conversations"]


def state(frame: dict[str, Any]) -> dict[str, Any] | None:
    if frame.get("method") == "clauz3/state":
        return frame["params"]
    if frame.get("method") == "clauz3/restore":
        return frame["params"]["state"]
    return None


def agent_ready(frame: dict[str, Any]) -> bool:
    st = state(frame)
    return st is not None and st.get("agent_status") == "ready"


def run_in(*phases: str) -> Callable[[dict[str, Any]], bool]:
    def check(frame: dict[str, Any]) -> bool:
        st = state(frame)
        return st is not None and any(r.get("phase") in phases for r in st.get("runs", []))
    return check


def chunk(frame: dict[str, Any]) -> bool:
    return frame.get("method") == "clauz3/agent" and frame.get("params", {}).get("kind") == "text"


# ----------------------------------------------------------------------------------- the points


async def idle(s: Session, ws: Workspace) -> None:
    await s.send("session/prompt", conversation_id=s.cid, prompt="hello")
    await s.next(lambda f: (st := state(f)) is not None and st.get("turn") == 1
                 and st["activity"]["kind"] == "idle" and st["agent_status"] == "ready")


async def streaming(s: Session, ws: Workspace) -> None:
    await s.send("session/prompt", conversation_id=s.cid, prompt="count to 1000 slowly")
    for _ in range(3):
        await s.next(chunk)


async def proving(s: Session, ws: Workspace) -> None:
    await s.send("session/prompt", conversation_id=s.cid, prompt=STARTER)
    await s.next(run_in("proving"), timeout=120)


async def awaiting(s: Session, ws: Workspace) -> None:
    await s.send("session/prompt", conversation_id=s.cid, prompt=STARTER)
    card = await s.next(lambda f: f.get("method") == "clauz3/approval")
    assert card["params"]["record"]["state"] == "pending"
    await s.next(run_in("awaiting_approval"))


async def executing(s: Session, ws: Workspace) -> None:
    await s.send("session/prompt", conversation_id=s.cid, prompt=STARTER)
    card = await s.next(lambda f: f.get("method") == "clauz3/approval", timeout=60)
    await s.next(run_in("awaiting_approval"))
    response = await s.decide(card["params"]["record"]["request_id"], "approved_once")
    assert response.status_code == 200, response.text
    await s.next(run_in("executing"))
    deadline = time.monotonic() + 90  # the worker claims, then calls send_email, which writes the marker
    while not ws.marker_lines() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert len(ws.marker_lines()) == 1


Point = Callable[[Session, Workspace], Awaitable[None]]


@dataclass
class Killed:
    cid: str
    descendants: list[int]
    survivors: list[int]


async def drive(url: str, ws: Workspace, point: Point) -> Session:
    s = await Session.open(url)
    restore = await s.next(lambda f: f.get("method") == "clauz3/restore", timeout=90)
    s.cid = restore["params"]["state"]["conversation_id"]
    if not agent_ready(restore):  # the agent starts with the service: it may be ready before we connect
        await s.next(agent_ready)
    await point(s, ws)
    return s


COLD = "clauz3.runs.worker"
WARM = "clauz3.bridge.warm"


def kill_at(ws: Workspace, point: Point, needs: tuple[str, ...]) -> Killed:
    launcher = ws.launch()
    descendants: list[int] = []
    try:
        url = first_link(launcher)

        async def scenario() -> Killed:
            s = await drive(url, ws, point)
            services = children(launcher.pid)
            assert len(services) == 1
            # The demo agent answers session/new before its bridge is up (the first minute, issue 13), so
            # "ready" does not yet mean every process of the point exists: wait for them, then kill.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while True:
                descendants[:] = proc_tree.descendants(services[0])
                names = {p: cmdline(p) for p in descendants}
                if all(part == WORKER or any(part in text for text in names.values()) for part in needs) \
                        or loop.time() > deadline:
                    break
                await asyncio.sleep(0.1)
            for part in needs:  # the point really has these processes in the tree
                if part == WORKER:  # a cold worker, or a child forked by the warm prover (DEC-7)
                    texts = list(names.values())
                    assert any(COLD in t for t in texts) or sum(WARM in t for t in texts) >= 2, names
                else:
                    assert any(part in text for text in names.values()), (part, names)
            os.kill(services[0], signal.SIGKILL)
            # Each child notices its parent's death (a closed pipe, the parent-death signal) and ends; a big
            # process can take a while to tear down on a busy machine, so wait for the event with a generous
            # deadline rather than a fixed delay: an orphan is one still alive after it.
            deadline = loop.time() + 60
            while (survivors := [p for p in descendants if alive(p)]) and loop.time() < deadline:
                await asyncio.sleep(0.1)
            with contextlib.suppress(Exception):
                await s.ws.close()
            return Killed(s.cid, list(descendants), survivors)

        killed = asyncio.run(scenario())
        assert launcher.wait(90) != 0
        return killed
    finally:
        for pid in descendants:  # leave nothing behind even when the check failed
            with contextlib.suppress(OSError):
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()


def cmdline(pid: int) -> str:
    """The argv as one string, each argument followed by a space, so ``BRIDGE`` ("clauz3.bridge ") does
    not also match the warm prover's ``clauz3.bridge.warm``; ``""`` once the process is gone."""
    return "".join(f"{arg} " for arg in proc_tree.cmdline(pid))


@contextlib.contextmanager
def relaunched(ws: Workspace) -> Iterator[str]:
    launcher = ws.launch()
    try:
        yield first_link(launcher)
    finally:
        launcher.send_signal(signal.SIGINT)
        try:
            launcher.wait(90)
        except subprocess.TimeoutExpired:
            launcher.kill()
            launcher.wait()


async def reopen(url: str, cid: str) -> tuple[Session, dict[str, Any]]:
    s = await Session.open(url)
    restore = await s.next(lambda f: f.get("method") == "clauz3/restore", timeout=90)
    listed = await s.conversations()
    assert cid in [c["id"] for c in listed]
    assert restore["params"]["state"]["conversation_id"] == cid
    if not agent_ready(restore):  # the agent (and its bridge) start again for the restored conversation
        await s.next(agent_ready)
    return s, restore


# ----------------------------------------------------------------------------------- checks

SUPERVISOR = "clauz3.sessions.agent.supervisor"
AGENT = "clauz3.agents.demo"
BRIDGE = "clauz3.bridge "
WORKER = "worker"
TREE = (SUPERVISOR, AGENT, BRIDGE)
POINTS: dict[str, tuple[Callable[[Path], Workspace], Point, tuple[str, ...]]] = {
    "idle": (tutorial_workspace, idle, TREE),
    "streaming": (tutorial_workspace, streaming, TREE),
    "proof": (lambda tmp: custom_workspace(tmp, blocked=200_000), proving, (*TREE, WORKER)),
    "approval": (tutorial_workspace, awaiting, (*TREE, WORKER)),
    "execution": (custom_workspace, executing, (*TREE, WORKER)),
}


@dataclass
class Outcome:
    name: str
    killed: Killed
    before: list[dict[str, Any]]  # ledger rows right after the kill
    after: list[dict[str, Any]]  # ledger rows once the restarted service's agent and bridge are up
    restore: dict[str, Any]  # the restarted service's first frame
    marker: list[str]  # effect marker lines after the restart


def kill_and_restart(tmp: Path, name: str) -> Outcome:
    make, point, needs = POINTS[name]
    tmp.mkdir(parents=True, exist_ok=True)
    ws = make(tmp)
    killed = kill_at(ws, point, needs)
    before = ws.ledger_rows()
    with relaunched(ws) as url:
        async def after() -> dict[str, Any]:
            s, restore = await reopen(url, killed.cid)
            # The new bridge reconciles its status file with the ledger on start, then writes the file
            # (03 SNAP-2/3): once it exists, whatever reconciling happens has happened.
            deadline = time.monotonic() + 90
            while not list((ws.tmp / "tmpdir").glob(f"**/runs-*-{killed.cid}.json")):
                assert time.monotonic() < deadline, "the restarted bridge never wrote its status file"
                await asyncio.sleep(0.05)
            await s.ws.close()
            return restore

        restore = asyncio.run(after())
        rows = ws.ledger_rows()
    return Outcome(name, killed, before, rows, restore, ws.marker_lines())


def assert_no_orphans_restored_never_rerun(out: Outcome) -> None:
    assert out.killed.survivors == [], {p: cmdline(p) for p in out.killed.survivors}
    state = out.restore["params"]["state"]
    assert state["conversation_id"] == out.killed.cid
    history = json.dumps(out.restore["params"]["history"])
    prompt = {"idle": "hello", "streaming": "count to 1000 slowly"}.get(out.name, "bob@example.com")
    assert prompt in history
    if out.name in ("idle", "streaming"):
        assert out.before == out.after == []
    elif out.name in ("proof", "approval"):
        assert len(out.before) == 1 and out.before[0]["phase"] in PRE_EXECUTION, out.before
        assert len(out.after) == 1 and out.after[0]["phase"] not in ("executing", "completed", "uncertain")
        assert out.marker == []
    else:
        assert [r["phase"] for r in out.before] == ["executing"], out.before
        assert len(out.after) == 1 and out.after[0]["phase"] != "completed"
        assert len(out.marker) == 1  # the effect ran once, before the kill, and never again


class Outcomes:
    """Each point killed once per module run; the uncertain check reuses the execution point's outcome."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.done: dict[str, Outcome] = {}

    def __getitem__(self, name: str) -> Outcome:
        if name not in self.done:
            self.done[name] = kill_and_restart(self.factory.mktemp(f"qb13-{name}"), name)
        return self.done[name]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    return Outcomes(tmp_path_factory)


@pytest.mark.parametrize("name", list(POINTS))
def test_kill_9_leaves_no_orphans_restores_and_never_reruns(outcomes: Outcomes, name: str) -> None:
    assert_no_orphans_restored_never_rerun(outcomes[name])


def test_kill_9_while_executing_records_the_run_uncertain(outcomes: Outcomes) -> None:
    out = outcomes["execution"]
    assert [(r["phase"], r["reason"]) for r in out.after] == [("uncertain", "worker_lost")]
    assert [r["phase"] for r in out.restore["params"]["state"]["runs"]] == ["uncertain"]


@pytest.mark.soak
@pytest.mark.parametrize("round_", range(3))
def test_kill_9_loop(tmp_path: Path, round_: int) -> None:
    """DEC-2's soak loop: the five points again, three more rounds, each on fresh data."""
    for name in POINTS:
        assert_no_orphans_restored_never_rerun(kill_and_restart(tmp_path / name, name))
