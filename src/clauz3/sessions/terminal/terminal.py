"""The terminal frontend of ``clauz3 start`` and ``clauz3 resume`` (05 TRM-3, TRM-4, TRM-10, TRM-11).

The workspace service runs in this process — the same :func:`build_service` the ``ui`` launcher's
service uses, served by uvicorn on a pre-bound 127.0.0.1 socket — so approvals, run records,
the store and the agent's lifecycle are exactly the browser's. The terminal is one more
observer of the host's publisher (the page stays its one WebSocket subscriber) and sends the
same commands the page sends (``session/prompt``, ``session/cancel``).

Ctrl-C during a turn stops it (02 TURN-5); a second Ctrl-C, or Ctrl-C at the prompt, ends the
command with 130. ``/exit``, ``/quit`` and end of input end it with 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from clauz3.approvals.tokens import generate_token
from clauz3.sessions.conversation.agent_status import AgentStatus
from clauz3.sessions.launch.config import LaunchConfig
from clauz3.sessions.launch.errors import LaunchError
from clauz3.sessions.launch.launcher import bind_loopback
from clauz3.sessions.launch.private_link import open_private_link
from clauz3.sessions.terminal.terminal_input import LineReader
from clauz3.sessions.terminal.terminal_output import Renderer
from clauz3.sessions.web.service import Service, StartupError, build_service

RELOAD_FAILED = ("this agent could not reload the session; its history is kept — open it in clauz3 ui or start a "
                 "new conversation")
SLASH_HELP = "[clauz3] Terminal commands: /exit, /quit, /handoff. Agent slash commands are not available here."


@dataclass
class TerminalOptions:
    conversation_id: str
    open_browser: bool = True
    first_prompt: str | None = None
    resuming: bool = False
    claude_cli: str | None = None  # set: run Claude Code's own terminal UI instead (04 CLD-7)


class TerminalFrontend:
    def __init__(self, config: LaunchConfig, options: TerminalOptions, *, out: TextIO | None = None,
                 err: TextIO | None = None, stdin_fd: int = 0) -> None:
        self.config = config
        self.options = options
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.stdin_fd = stdin_fd
        self.service: Service | None = None
        self.renderer = Renderer(self.out, self.err, self._fresh_link)
        self._changed: asyncio.Event | None = None
        self._quit = False
        self._exit = 0
        self._in_turn = False
        self._cancelling = False
        self._turn_ended: int | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- entry ----------------------------------------------------------------------------------

    def run(self) -> int:
        return asyncio.run(self.main())

    async def main(self) -> int:
        self._changed = asyncio.Event()
        tmp = Path(tempfile.mkdtemp(prefix="clauz3-term-"))
        os.chmod(tmp, 0o700)
        try:
            listener = bind_loopback(self.config.port)
            self.config.port = listener.getsockname()[1]
            self.config.tmp_dir = str(tmp)
            self.config.login_token = generate_token()
            try:
                self.service = await build_service(self.config, tmp)
            except StartupError as exc:
                listener.close()
                raise LaunchError(exc.code, exc.message) from None
            try:
                try:
                    server, serving = await self._serve(listener)
                except BaseException:
                    await self.service.close()
                    raise
                ended = False
                try:
                    code = await self._session()
                    ended = True
                    return code
                finally:
                    await self._shutdown(server, serving, announce=ended)
            finally:
                listener.close()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    async def _serve(self, listener: Any) -> tuple[Any, asyncio.Task[None]]:
        import uvicorn

        assert self.service is not None
        server = uvicorn.Server(uvicorn.Config(
            self.service.app, log_level="critical", access_log=False, lifespan="off", ws_ping_interval=20,
            ws_ping_timeout=20, ws_max_size=1024 * 1024, timeout_graceful_shutdown=2))
        # uvicorn would capture SIGINT/SIGTERM while serving; this command owns those signals.
        setattr(server, "capture_signals", contextlib.nullcontext)  # noqa: B010
        serving = asyncio.create_task(server.serve(sockets=[listener]), name="terminal.http")
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        if serving.done():
            raise LaunchError("approval_service_not_started", "the approval service did not start")
        return server, serving

    async def _shutdown(self, server: Any, serving: asyncio.Task[None], *, announce: bool) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError, RuntimeError):
                loop.remove_signal_handler(sig)
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # cleanup is not interruptible (CLI-7)
        try:
            server.should_exit = True
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(serving, 5)
            if self.service is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(self.service.close(), 10)
            self.renderer.end_of_turn()
            if announce:  # after a refusal (e.g. TRM-11) "resume" would only fail again
                self.renderer.note("Approval service stopped; session saved.")
                self.renderer.note(f"Resume with: clauz3 resume {self.options.conversation_id}")
        finally:
            signal.signal(signal.SIGINT, old)

    # -- the session ------------------------------------------------------------------------------

    async def _session(self) -> int:
        service = self.service
        assert service is not None
        host = service.host
        conv = host.conversation
        if conv is None or conv.id != self.options.conversation_id:
            raise LaunchError("reopen_failed", f"conversation {self.options.conversation_id} could not be reopened")
        # One more observer of the host's publisher; the page stays its one subscriber.
        host.publisher.observe(self._on_frame, self._on_state)
        self.renderer.seen_runs(list(conv.runs.values()))
        # 00 DEC-8: the first link of a terminal session stays valid until it is used.
        service.sign_in.tokens.adopt(self.config.login_token, now=math.inf)
        url = service.sign_in.login_url(self.config.port, self.config.login_token)
        self.renderer.note(f"Approver UI (keep private): {url}")
        self.renderer.note(f"Clauz3 conversation: {conv.id}")
        if self.options.open_browser:
            self._open_browser(url)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, self._interrupt)
        loop.add_signal_handler(signal.SIGTERM, self._terminate)
        if self.options.claude_cli is not None:
            from clauz3.sessions.terminal.terminal_native import run_native

            return await run_native(host, conv, claude=self.options.claude_cli, resume=self.options.resuming,
                                    prompt=self.options.first_prompt)
        code = await self._start_agent()
        if code is not None:
            return code
        reader = LineReader(self.stdin_fd)
        try:
            return await self._repl(reader)
        finally:
            reader.close()

    async def _repl(self, reader: LineReader) -> int:
        interactive = os.isatty(self.stdin_fd)
        if self.options.first_prompt:
            await self._turn(self.options.first_prompt)
        while not self._quit:
            if interactive:
                self.renderer.prompt()
            line = await self._next_line(reader)
            if line is None:
                break
            text = line.strip()
            if not text:
                continue
            if text in ("/exit", "/quit"):
                break
            if text == "/handoff":
                self._handoff()
                continue
            if text.startswith("/"):
                self.renderer.note(SLASH_HELP)
                continue
            await self._turn(line)
        return self._exit

    def _open_browser(self, url: str) -> None:
        opened = open_private_link(url, self.config.tmp_dir)  # never the key in the browser's argv
        if not opened:
            self.renderer.note("warning: couldn't open a browser; open the Approver UI link above")

    async def _start_agent(self) -> int | None:
        """Start (or reload, TRM-11) the agent before the first prompt; an exit code on failure."""
        assert self.service is not None
        conv = self.service.host.conversation
        assert conv is not None
        saved_session = conv.saved.session_id
        if self.options.resuming and conv.turn >= 1 and not saved_session:
            raise LaunchError("reload_failed", RELOAD_FAILED)
        conv.ensure_agent()
        await self._wait_until(lambda: conv.status in (AgentStatus.READY, AgentStatus.UNAVAILABLE) or conv.error is not None)
        if self._quit:
            return self._exit
        if conv.status != AgentStatus.READY:
            raise LaunchError("agent_not_started", conv.error or f"{conv.label} could not start")
        if self.options.resuming and conv.turn >= 1 and conv.resume_notice is not None:
            # A fresh agent never silently takes over the old identity: keep the saved session id.
            conv.saved.session_id = saved_session
            conv.save_state()
            raise LaunchError("reload_failed", RELOAD_FAILED)
        return None

    async def _next_line(self, reader: LineReader) -> str | None:
        get = asyncio.ensure_future(reader.next())
        quit_wait = asyncio.ensure_future(self._wait_until(lambda: False))
        try:
            done, _ = await asyncio.wait({get, quit_wait}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            quit_wait.cancel()
        if get not in done:
            get.cancel()
            return None
        return get.result()

    async def _turn(self, text: str) -> None:
        """Send one prompt; return when the turn and any run it started have ended (TRM-4)."""
        assert self.service is not None
        host = self.service.host
        conv = host.conversation
        if conv is None:
            return
        before = conv.turn
        self._cancelling = False
        self._turn_ended = None
        self.renderer.own_prompts.append(text)
        self._in_turn = True
        try:
            await host.command("session/prompt", {"conversation_id": conv.id, "prompt": text})
            if conv.turn == before:  # refused: the notice was printed
                with contextlib.suppress(ValueError):
                    self.renderer.own_prompts.remove(text)
                return
            turn = conv.turn
            await self._wait_until(lambda: self._turn_ended == turn)
            await self._wait_until(lambda: not conv.run_active())
        finally:
            self._in_turn = False
            self.renderer.end_of_turn()

    async def _wait_until(self, predicate: Callable[[], bool]) -> None:
        """Event-driven: re-checked after every frame and state change the host publishes."""
        assert self._changed is not None
        while not predicate() and not self._quit:
            self._changed.clear()
            await self._changed.wait()

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()

    # -- observers ----------------------------------------------------------------------------------

    def _on_frame(self, frame: dict[str, Any]) -> None:
        try:
            self.renderer.frame(frame)
            if frame.get("method") == "clauz3/turn_end":
                params = frame.get("params") or {}
                turn = params.get("turn")
                if isinstance(turn, int):
                    self._turn_ended = turn
        finally:
            self._wake()

    def _on_state(self) -> None:
        try:
            conv = self.service.host.conversation if self.service else None
            if conv is not None:
                self.renderer.runs(list(conv.runs.values()))
        finally:
            self._wake()

    # -- signals ------------------------------------------------------------------------------------

    def _interrupt(self) -> None:
        if self._in_turn and not self._cancelling and self.service is not None:
            self._cancelling = True
            self.renderer.note("Stopping this turn… (press Ctrl-C again to quit)")
            task = asyncio.ensure_future(self.service.host.command("session/cancel", {}))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        self.renderer.end_of_turn()
        self._quit = True
        self._exit = 130
        self._wake()

    def _terminate(self) -> None:
        self._quit = True
        self._exit = 143
        self._wake()

    # -- terminal commands ------------------------------------------------------------------------

    def _fresh_link(self) -> str:
        assert self.service is not None
        return self.service.new_login()

    def _handoff(self) -> None:
        """05 HND-5: ``/handoff`` writes the same snapshot ``Copy handoff`` does and prints its text."""
        from clauz3.sessions.conversation.handoff import HandoffTooLarge, HandoffUnsafe, write_handoff

        assert self.service is not None
        host = self.service.host
        conv = host.conversation
        if conv is None:
            return
        conv.save_state()
        try:
            result = write_handoff(host.data_dir, conversation_id=conv.id, title=conv.title, project=host.project,
                                   agent=conv.agent, model=host.config.model, state=conv.persisted(),
                                   history=list(conv.history), secrets_to_hide=host.secret_values())
        except (HandoffTooLarge, HandoffUnsafe, OSError) as exc:
            self.renderer.note(f"error: {exc}")
            return
        self.renderer.end_of_turn()
        with contextlib.suppress(BrokenPipeError, ValueError):
            self.out.write(result["text"] + "\n")
            self.out.flush()


def run_terminal(config: LaunchConfig, options: TerminalOptions) -> int:
    return TerminalFrontend(config, options).run()
