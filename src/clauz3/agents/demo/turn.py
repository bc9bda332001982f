"""One demo turn: stream text, announce tool calls, ask permission, call the bridge (04 DEMO-5..9).

Cancellation arrives as ``CancelledError`` in :meth:`Turn.run`; every announced tool call then
gets its final ``failed`` update and the turn reports ``cancelled``. Output is deterministic.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import TYPE_CHECKING, Any

import acp
from acp.schema import PermissionOption, ToolCallStatus, ToolCallUpdate

from . import replies
from .bridge_client import UNAVAILABLE, BridgeUnavailable, ToolResult
from .programs import Modules, build, domain_of, effects_of, read_inbox_program
from .script import (
    OUTPUT_PLACEHOLDER,
    TEMPLATE_INTENTS,
    BadArgument,
    Count,
    Fallback,
    Help,
    Intent,
    NativeTool,
    ReplyToInbox,
    SubmitProgram,
    ToolQuery,
    WriteFile,
    fill_from_output,
    parse,
)

if TYPE_CHECKING:
    from .session import DemoSession

CHUNK_CHARS = 64
SLOW_COUNT_SECONDS = 0.25
TOOL_TITLES = {
    "status": "Show status",
    "tools": "List tools",
    "libraries": "Show libraries",
    "list_skills": "List guides",
    "read_skill": "Read guide",
}


def chunks(text: str) -> list[str]:
    return [text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS)] or [""]


class Turn:
    def __init__(self, conn: Any, session: DemoSession, prompt: list[Any]) -> None:
        self._conn = conn
        self._session = session
        self._prompt = prompt
        self._open_tools: set[str] = set()
        self._said: list[str] = []

    async def run(self) -> str:
        text, notes = _read_prompt(self._prompt)
        record = self._session.record
        record.add("user", text)
        try:
            for note in notes:
                await self.say(note + "\n")
            parsed = parse(text)
            if parsed.host_note:
                self._session.refresh_tools = True
            await self._act(parsed.intent)
            return "end_turn"
        except asyncio.CancelledError:
            await self._close_open_tools()
            return "cancelled"
        finally:
            if self._said:
                record.add("agent", "".join(self._said))
            try:
                record.save()
            except OSError:
                pass  # the history is a convenience; a full disk must not end the turn badly

    # -- actions ---------------------------------------------------------------------------

    async def _act(self, intent: Intent) -> None:
        if isinstance(intent, Help | Fallback):
            # A message it doesn't understand calls no tool: the list then uses what it already knows.
            domains = await self._domains(fetch=isinstance(intent, Help))
            await self.say(replies.capabilities(domains, self._session.record.cwd))
        elif isinstance(intent, BadArgument):
            await self.say(intent.explanation)
        elif isinstance(intent, Count):
            for i in range(1, intent.n + 1):
                await self.say(f"{i}\n")
                if intent.slowly and i < intent.n:
                    await asyncio.sleep(SLOW_COUNT_SECONDS)
        elif isinstance(intent, NativeTool):
            await self._native_tool()
        elif self._session.bridge is None:
            await self.say(replies.NO_BRIDGE)
        elif isinstance(intent, ToolQuery):
            await self._query(intent)
        elif isinstance(intent, TEMPLATE_INTENTS):
            await self._template(intent)
        elif isinstance(intent, SubmitProgram):
            source = intent.source
            if OUTPUT_PLACEHOLDER.search(source):
                filled = fill_from_output(source, self._session.last_output)
                if filled is None:
                    await self.say(replies.NO_OUTPUT_VALUE)
                    return
                source = filled
            await self.say(replies.SUBMITTING_GIVEN + "\n")
            await self._submit(source, intent.request_id)
        elif isinstance(intent, ReplyToInbox):
            await self._reply_to_inbox(intent)

    async def _query(self, intent: ToolQuery) -> None:
        result = await self._tool(intent.tool, intent.arguments, TOOL_TITLES[intent.tool])
        if result is None:
            return
        text = result.text[:2000] if intent.tool == "read_skill" else result.text
        await self.say(replies.code_block(text or "(empty)"))

    async def _domains(self, *, fetch: bool) -> set[str] | None:
        """The libraries this conversation has (from the tools listing), or None when unknown."""
        if self._session.bridge is None:
            return None
        listing = self._session.tools_listing
        if fetch and (listing is None or self._session.refresh_tools):
            listing = await self._tools_listing()
        if listing is None:
            return None
        return {str(e.get("domain")) for e in listing.get("entries", []) if isinstance(e, dict) and e.get("domain")}

    async def _template(self, intent: Intent) -> None:
        folder = _missing_folder(intent, self._session.record.cwd)
        if folder is not None:
            await self.say(replies.missing_folder(folder))
            return
        domain = domain_of(intent)
        listing = await self._tools_listing()
        if listing is None:
            return
        modules = _modules_for(listing, domain, effects_of(intent))
        if modules is None:
            await self.say(replies.missing_library(domain))
            return
        program = build(intent, modules)
        await self.say(replies.plan_message(program.action, program.guarantees) + "\n")
        await self._submit(program.source)

    async def _submit(self, source: str, request_id: str | None = None) -> ToolResult | None:
        arguments = {"source": source} | ({"request_id": request_id} if request_id else {})
        call_id = self._next_id("run")
        await self._update(acp.start_tool_call(
            call_id, "Run program", kind="execute", status="pending", raw_input=arguments
        ), tool="run")
        allowed = await self._ask_permission(call_id, "run")
        if not allowed:
            await self._finish(call_id, "failed", replies.PERMISSION_DENIED)
            await self.say(replies.PERMISSION_DENIED)
            return None
        await self._update(acp.update_tool_call(call_id, status="in_progress"), tool="run")
        result = await self._call(call_id, "run", arguments)
        if result is None:
            return None
        record = result.structured
        if isinstance(record, dict) and record.get("phase") == "completed":
            stdout = record.get("stdout")
            self._session.last_output = stdout if isinstance(stdout, str) else ""
        elif isinstance(record, dict) and record.get("phase") == "failed":
            # What a failed run's record said is read too (an error quoting a page): `{{output:KEY}}` copies
            # from it, as an injected agent would (issue 20 red team, w2).
            told = [record.get(k) for k in ("stdout", "message")]
            self._session.last_output = "\n".join(t for t in told if isinstance(t, str) and t)
        await self.say(replies.outcome(result.structured, result.text, result.is_error))
        return result

    async def _reply_to_inbox(self, intent: ReplyToInbox) -> None:
        """Read the inbox in one run, then reply to the sender it names in a second (issue 20's starter)."""
        listing = await self._tools_listing()
        if listing is None:
            return
        modules = _modules_for(listing, "email", ("read_inbox", "send_email"))
        if modules is None:
            await self.say(replies.missing_library("email"))
            return
        read = read_inbox_program(modules)
        await self.say(replies.plan_message(read.action, read.guarantees) + "\n")
        result = await self._submit(read.source)
        record = result.structured if result is not None else None
        if not isinstance(record, dict) or record.get("phase") != "completed":
            return
        sender = replies.sender_of(self._session.last_output)
        if sender is None:
            await self.say(replies.NO_SENDER)
            return
        from .script import Email

        reply = build(Email(sender, intent.message, (sender,), guarantee_unique=False), modules)
        await self.say(replies.plan_message(reply.action, reply.guarantees) + "\n")
        await self._submit(reply.source)

    async def _tools_listing(self) -> dict[str, Any] | None:
        session = self._session
        if session.tools_listing is None or session.refresh_tools:
            result = await self._tool("tools", {}, TOOL_TITLES["tools"])
            if result is None:
                return None
            if result.is_error or result.structured is None:
                await self.say("The clauz3 tools listing failed, so I can't check the libraries. Nothing ran.")
                return None
            session.tools_listing = result.structured
            session.refresh_tools = False
        return session.tools_listing

    async def _native_tool(self) -> None:
        call_id = self._next_id("native")
        await self._update(acp.start_tool_call(
            call_id, "Run a shell command", kind="execute", status="pending", raw_input={"command": "echo hello"}
        ))
        allowed = await self._ask_permission(call_id, None)
        message = replies.NATIVE_ALLOWED if allowed else replies.NATIVE_REFUSED
        await self._finish(call_id, "failed", message)
        await self.say(message)

    # -- tool-call plumbing ----------------------------------------------------------------

    async def _tool(self, tool: str, arguments: dict[str, Any], title: str) -> ToolResult | None:
        call_id = self._next_id(tool)
        await self._update(acp.start_tool_call(
            call_id, title, kind="read" if tool != "run" else "execute", status="pending", raw_input=arguments
        ), tool=tool)
        await self._update(acp.update_tool_call(call_id, status="in_progress"), tool=tool)
        return await self._call(call_id, tool, arguments)

    async def _call(self, call_id: str, tool: str, arguments: dict[str, Any]) -> ToolResult | None:
        bridge = self._session.bridge
        assert bridge is not None

        async def progress(value: float, total: float | None, message: str | None) -> None:
            raw: Any = message
            if message is not None:
                try:
                    raw = json.loads(message)
                except ValueError:
                    raw = message
            await self._update(acp.update_tool_call(call_id, status="in_progress", raw_output=raw), tool=tool)

        try:
            result = await bridge.call(tool, arguments, progress if tool == "run" else None)
        except BridgeUnavailable as exc:  # the session's bridge did not start (DEMO-3's -32603 reason)
            text = f"{UNAVAILABLE}: {exc}"
            await self._finish(call_id, "failed", text)
            await self.say(text + (" Nothing ran." if tool == "run" else ""))
            return None
        except Exception as exc:
            text = f"The clauz3 {tool} tool failed: {exc}"
            await self._finish(call_id, "failed", text)
            await self.say(text + (" Nothing ran." if tool == "run" else ""))
            return None
        status: ToolCallStatus = "failed" if result.is_error else "completed"
        await self._finish(call_id, status, result.text, raw_output=result.structured, tool=tool)
        return result

    async def _ask_permission(self, call_id: str, tool: str | None) -> bool:
        options = [
            PermissionOption(option_id="allow", name="Allow", kind="allow_once"),
            PermissionOption(option_id="reject", name="Reject", kind="reject_once"),
        ]
        meta = {"clauz3": {"tool": tool}} if tool else None
        tool_call = ToolCallUpdate(tool_call_id=call_id, status="pending", field_meta=meta)
        response = await self._conn.request_permission(
            session_id=self._session.id, tool_call=tool_call, options=options
        )
        outcome = getattr(response, "outcome", None)
        return getattr(outcome, "outcome", None) == "selected" and getattr(outcome, "option_id", None) == "allow"

    async def _finish(
        self, call_id: str, status: ToolCallStatus, text: str, *, raw_output: Any = None, tool: str | None = None
    ) -> None:
        content = [acp.tool_content(acp.text_block(text))] if text else None
        update = acp.update_tool_call(call_id, status=status, content=content, raw_output=raw_output)
        await self._update(update, tool=tool)
        self._open_tools.discard(call_id)

    async def _close_open_tools(self) -> None:
        for call_id in sorted(self._open_tools):
            try:
                await self._finish(call_id, "failed", replies.CANCELLED_TOOL)
            except (ConnectionError, OSError):
                return

    async def _update(self, update: Any, *, tool: str | None = None) -> None:
        if tool is not None:
            update.field_meta = {"clauz3": {"tool": tool}}
        if getattr(update, "session_update", None) == "tool_call":
            self._open_tools.add(update.tool_call_id)
        await self._conn.session_update(self._session.id, update)

    def _next_id(self, prefix: str) -> str:
        self._session.tool_counter += 1
        return f"{prefix}-{self._session.tool_prefix}-{self._session.tool_counter}"

    async def say(self, text: str) -> None:
        self._said.append(text)
        for piece in chunks(text):
            await self._conn.session_update(self._session.id, acp.update_agent_message_text(piece))


def _read_prompt(blocks: list[Any]) -> tuple[str, list[str]]:
    """Join text blocks; describe attachments by name and size only (DEMO-9)."""
    texts: list[str] = []
    notes: list[str] = []
    for block in blocks:
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(block.text)
        elif kind == "resource_link":
            notes.append(replies.attachment_note(block.name, block.size))
        elif kind == "resource":
            resource = block.resource
            body = getattr(resource, "text", None) or getattr(resource, "blob", None) or ""
            notes.append(replies.attachment_note(resource.uri.rsplit("/", 1)[-1], len(body.encode("utf-8"))))
    return "\n".join(texts), notes


def _missing_folder(intent: Intent, cwd: str) -> str | None:
    """The folder a new file would need that does not exist (the library does not create folders);
    appends name an existing file, so the library's own answer covers them."""
    if not isinstance(intent, WriteFile):
        return None
    folder = os.path.dirname(intent.path)
    if folder and not os.path.isdir(os.path.join(cwd, folder)):
        return folder + "/"
    return None


def _modules_for(listing: dict[str, Any], domain: str, effects: tuple[str, ...]) -> Modules | None:
    """Where the listing says ``domain``'s effects and contracts live; None if an effect is missing."""
    entries = [e for e in listing.get("entries", []) if isinstance(e, dict) and e.get("domain") == domain]
    default = Modules.default(domain)
    found: dict[str, str] = {}
    contracts_module = None
    for entry in entries:
        name = str(entry.get("name", "")).rpartition(".")[2]
        module = entry.get("module")
        if entry.get("kind") == "effect" and name in effects:
            found[name] = module if isinstance(module, str) and module else default.effects
        elif entry.get("kind") == "contract" and contracts_module is None and isinstance(module, str) and module:
            contracts_module = module
    if set(found) != set(effects):
        return None
    places = set(found.values())
    effects_module = places.pop() if len(places) == 1 else default.effects
    return Modules(effects_module, contracts_module or default.contracts)
