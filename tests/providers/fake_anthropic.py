"""A scripted stand-in for the Anthropic Messages API on 127.0.0.1 (04 TST-6).

The real ``claude`` CLI that claude-agent-acp spawns honours ``ANTHROPIC_BASE_URL``; pointed here it
gets answers from a per-test script instead of a model. Every request is recorded (path, body,
whether its stream was cut short), so a test can assert what the CLI offered the model (system
text, tool names) and what it sent back (a ``tool_result`` after a tool call).

``POST /v1/messages`` answers with SSE when ``stream`` is true (``message_start``,
``content_block_start``, ``content_block_delta`` with ``text_delta`` or ``input_json_delta``,
``content_block_stop``, ``message_delta`` with ``stop_reason``, ``message_stop``) and with one JSON
message otherwise; ``POST /v1/messages/count_tokens`` answers ``{"input_tokens": n}``; anything
else is a logged 404. A plain threading server keeps it independent of the test's event loop, and
``Connection: close`` ends every response, so a cancelled stream shows up as a broken write.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HELLO = "hello from the fake model"
RUN_TOOL = "mcp__clauz3__run"


@dataclass(frozen=True)
class Text:
    """A text block streamed as these deltas (one ``text_delta`` each)."""

    chunks: tuple[str, ...]


@dataclass(frozen=True)
class ToolUse:
    """A ``tool_use`` block whose input is streamed as ``input_json_delta`` pieces."""

    name: str
    input: dict[str, Any]
    id: str = field(default_factory=lambda: "toolu_" + secrets.token_hex(12))


@dataclass(frozen=True)
class Reply:
    blocks: tuple[Text | ToolUse, ...]
    stop_reason: str = "end_turn"
    delay: float = 0.0  # seconds before each delta; "go slow" uses this


@dataclass
class Request:
    """One request the fake received."""

    method: str
    path: str
    body: Any
    stream: bool = False
    cut_short: bool = False  # the client went away before message_stop
    events_sent: int = 0
    reply: Reply | None = None  # what the script answered

    @property
    def is_messages(self) -> bool:
        return self.method == "POST" and self.path.split("?", 1)[0] == "/v1/messages"

    def tool_names(self) -> list[str]:
        tools = self.body.get("tools") if isinstance(self.body, dict) else None
        return [t.get("name", "") for t in tools or [] if isinstance(t, dict)]

    def system_text(self) -> str:
        system = self.body.get("system") if isinstance(self.body, dict) else None
        if isinstance(system, str):
            return system
        return "\n".join(b.get("text", "") for b in system or [] if isinstance(b, dict))

    def messages(self) -> list[dict[str, Any]]:
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return [m for m in messages or [] if isinstance(m, dict)]

    def last_user(self) -> list[dict[str, Any]]:
        """The content blocks of the last user message (a string becomes one text block)."""
        for message in reversed(self.messages()):
            if message.get("role") == "user":
                content = message.get("content")
                if isinstance(content, str):
                    return [{"type": "text", "text": content}]
                return [b for b in content or [] if isinstance(b, dict)]
        return []

    def last_user_text(self) -> str:
        return "\n".join(b.get("text", "") for b in self.last_user() if b.get("type") == "text")

    def tool_results(self) -> list[dict[str, Any]]:
        return [b for b in self.last_user() if b.get("type") == "tool_result"]

    def all_text(self) -> str:
        """Every text of every message: what the model would see of the conversation so far."""
        out: list[str] = []
        for message in self.messages():
            content = message.get("content")
            if isinstance(content, str):
                out.append(content)
                continue
            for block in content or []:
                if isinstance(block, dict) and isinstance(block.get("text"), str):
                    out.append(block["text"])
        return "\n".join(out)


def result_text(block: dict[str, Any]) -> str:
    """The text of a ``tool_result`` block (a string or a list of text blocks)."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(c.get("text", "") for c in content or [] if isinstance(c, dict))


Script = Callable[[Request], Reply]


def tst6_script(programs: dict[str, str], forbidden_marker: str = "/nonexistent/forbidden-marker") -> Script:
    """The default answers of TST-6, keyed on the last user turn.

    A ``tool_result`` → text quoting it; ``RUN:<case>`` (with the run tool offered) → a ``run``
    tool call with that case's program; ``FORBIDDEN`` → a ``Bash`` call touching
    ``forbidden_marker``; ``go slow`` → 60 deltas 0.2 s apart; else :data:`HELLO`. Side requests
    the CLI makes without tools (session titles) never get a tool call.
    """

    def script(request: Request) -> Reply:
        results = request.tool_results()
        if results:
            quoted = result_text(results[-1])
            return Reply((Text(("The tool said: ", quoted)),))
        text = request.last_user_text()
        if RUN_TOOL in request.tool_names():
            for case, source in programs.items():
                if f"RUN:{case}" in text:
                    return Reply(
                        (Text(("I will submit the program.",)), ToolUse(RUN_TOOL, {"source": source})),
                        stop_reason="tool_use",
                    )
            if "FORBIDDEN" in text:
                return Reply((ToolUse("Bash", {"command": f"touch {forbidden_marker}"}),), stop_reason="tool_use")
        if "go slow" in text:
            return Reply((Text(tuple(f"chunk{i} " for i in range(60))),), delay=0.2)
        words = HELLO.split(" ")
        return Reply((Text(tuple(w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words))),))

    return script


class FakeAnthropic:
    """``with FakeAnthropic(script) as api:`` — ``api.url`` is the ``ANTHROPIC_BASE_URL``."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[Request] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                fake._handle(self)

            def do_GET(self) -> None:
                fake._handle(self)

            def do_HEAD(self) -> None:
                fake._handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="fake-anthropic", daemon=True)

    def __enter__(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- what tests read -------------------------------------------------------------------------

    def messages(self) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.is_messages]

    def others(self) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if not r.is_messages]

    def wait_for(self, predicate: Callable[[Request], bool], timeout: float = 60.0) -> Request:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for request in self.messages():
                if predicate(request):
                    return request
            time.sleep(0.05)
        raise AssertionError(f"no matching /v1/messages request within {timeout:g} s")

    # -- serving ---------------------------------------------------------------------------------

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        request = Request(h.command, h.path, body)
        with self.lock:
            self.requests.append(request)
        path = h.path.split("?", 1)[0]
        if h.command == "POST" and path == "/v1/messages" and isinstance(body, dict):
            request.stream = body.get("stream") is True
            reply = request.reply = self.script(request)
            if request.stream:
                self._stream(h, request, reply, str(body.get("model", "fake")))
            else:
                self._json(h, 200, message(reply, str(body.get("model", "fake"))))
        elif h.command == "POST" and path == "/v1/messages/count_tokens":
            self._json(h, 200, {"input_tokens": max(1, len(raw) // 4)})
        else:
            self._json(h, 404, {"type": "error", "error": {"type": "not_found_error", "message": "not found"}})

    @staticmethod
    def _json(h: BaseHTTPRequestHandler, status: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.send_header("Connection", "close")
        h.end_headers()
        with contextlib.suppress(OSError):
            h.wfile.write(data)
        h.close_connection = True

    def _stream(self, h: BaseHTTPRequestHandler, request: Request, reply: Reply, model: str) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True
        try:
            for name, data in events(reply, model):
                if name == "content_block_delta" and reply.delay:
                    time.sleep(reply.delay)
                h.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                h.wfile.flush()
                request.events_sent += 1
        except OSError:
            request.cut_short = True


def _usage(output: int) -> dict[str, int]:
    return {"input_tokens": 10, "output_tokens": output, "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0}


def message(reply: Reply, model: str) -> dict[str, Any]:
    """The non-streamed answer."""
    content: list[dict[str, Any]] = []
    for block in reply.blocks:
        if isinstance(block, Text):
            content.append({"type": "text", "text": "".join(block.chunks)})
        else:
            content.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input})
    return {"id": "msg_" + secrets.token_hex(12), "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": reply.stop_reason, "stop_sequence": None, "usage": _usage(5)}


def events(reply: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The SSE events of one streamed answer, in wire order."""
    yield "message_start", {"type": "message_start", "message": {
        "id": "msg_" + secrets.token_hex(12), "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": None, "stop_sequence": None, "usage": _usage(1)}}
    for index, block in enumerate(reply.blocks):
        if isinstance(block, Text):
            yield "content_block_start", {"type": "content_block_start", "index": index,
                                          "content_block": {"type": "text", "text": ""}}
            for chunk in block.chunks:
                yield "content_block_delta", {"type": "content_block_delta", "index": index,
                                              "delta": {"type": "text_delta", "text": chunk}}
        else:
            yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": {
                "type": "tool_use", "id": block.id, "name": block.name, "input": {}}}
            raw = json.dumps(block.input)
            step = max(1, len(raw) // 3 + 1)  # a few pieces, as a model streams partial JSON
            for start in range(0, len(raw), step):
                yield "content_block_delta", {"type": "content_block_delta", "index": index,
                                              "delta": {"type": "input_json_delta", "partial_json": raw[start:start + step]}}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": reply.stop_reason,
                                                               "stop_sequence": None}, "usage": {"output_tokens": 5}}
    yield "message_stop", {"type": "message_stop"}
