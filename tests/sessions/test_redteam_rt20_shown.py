"""Red team rt20, continued: everything the agent was shown is read data, whatever its shape (host side).

New hostile cases in the class the rt20 fixes closed (``test_redteam_rt20_flow.py``): a value the agent saw that
never reached the conversation's provenance index is classified ``new`` — no warning, and a policy allow or a
remembered approval then decides the program that sends it. The frames are ACP ``session/update`` notifications
parsed by the host's own ``read_update`` and stored in clauz3's stable form (``to_frame``), fed to the host's
``ConversationProvenance`` as ``ConversationRuntime.retain`` does (or read back by ``rebuild``, as a conversation
opened again is). Each test asserts the safe behaviour.
"""

from __future__ import annotations

import json
from typing import Any

from clauz3.base.provenance import FROM_READ, FROM_YOU, NEW
from clauz3.sessions.agent.acp_messages import read_update, to_frame
from clauz3.sessions.conversation.provenance import OVERLAP, ConversationProvenance, run_reads

LINK = "www.secure-systems-252.com"


def _update(**update: Any) -> dict[str, Any]:
    incoming = read_update({"jsonrpc": "2.0", "method": "session/update",
                            "params": {"sessionId": "sess-1", "update": update}})
    assert incoming is not None
    return to_frame(incoming.message)


def _text(text: str) -> list[dict[str, Any]]:
    return [{"type": "content", "content": {"type": "text", "text": text}}]


def _user(text: str, attachments: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"method": "clauz3/user", "params": {"conversation_id": "c" * 32, "turn": 1, "text": text,
                                                "attachments": attachments or []}}


def _start(status: str = "pending", **more: Any) -> dict[str, Any]:
    return _update(sessionUpdate="tool_call", toolCallId="fetch-1", title="Fetch www.informations.com",
                   kind="fetch", status=status, **more)


def _done(**more: Any) -> dict[str, Any]:
    return _update(sessionUpdate="tool_call_update", toolCallId="fetch-1", status="completed", **more)


def _after(frames: list[dict[str, Any]], prov: ConversationProvenance | None = None) -> ConversationProvenance:
    prov = prov or ConversationProvenance()
    prov.observe(_user("Summarise the article at www.informations.com for me."), {})
    for frame in frames:
        prov.observe(frame, {})
    return prov


def _read(prov: ConversationProvenance, value: str = LINK, kind: str = "url") -> tuple[str, ...]:
    found = prov.index.value(kind, value)
    assert found.status == FROM_READ, found
    return found.sources


def test_control_a_link_nobody_showed_is_still_new() -> None:
    """The fixes index more, never everything: a link in no frame stays new (the agent made it up)."""
    prov = _after([_start(), _done(content=_text("Nothing to see here."), rawOutput={"page": "nothing"})])
    assert prov.index.value("url", "www.made-up-site-99.com").status == NEW


def test_content_replaced_by_a_later_update_stays_read() -> None:
    """ACP replaces a call's content on each update: the page streamed first, then a short summary replacing it,
    then completed. The agent saw the page; the update that replaced it does not unsay it."""
    prov = _after([_start("in_progress", content=_text(f"Offer: visit {LINK}/login")),
                   _update(sessionUpdate="tool_call_update", toolCallId="fetch-1", status="in_progress",
                           content=_text("(page summarised)")),
                   _done()])
    assert "Fetch www.informations.com" in _read(prov)[0]


def test_a_link_split_across_two_updates_of_a_growing_result_is_read() -> None:
    """A result streamed as a growing text, longer than the overlap the host re-indexes: the link straddles the
    point where the first update ended, so neither the old text nor the new tail alone holds it."""
    head = ("lorem ipsum dolor sit amet\n" * (2 * OVERLAP // 27)) + "Offer: visit www.secure-sys"
    prov = _after([_start("in_progress", content=_text(head)),
                   _update(sessionUpdate="tool_call_update", toolCallId="fetch-1", status="in_progress",
                           content=_text(head + "tems-252.com/login now")),
                   _done()])
    _read(prov)


def test_a_link_deep_in_nested_raw_output_lists_is_read() -> None:
    raw = {"results": [[{"snippet": ["top stories", {"more": [f"Offer of the day:\n{LINK}/login"]}]}]]}
    _read(_after([_start(), _done(rawOutput=raw)]))


def test_a_link_that_is_a_raw_output_key_is_read() -> None:
    _read(_after([_start(), _done(rawOutput={"links": {f"https://{LINK}/login": "the offer"}})]))


def test_a_raw_output_string_holding_json_escapes_is_read() -> None:
    """rawOutput as a string of JSON (a tool that reports its result serialised): its ``\\n`` and ``\\u`` escapes
    are decoded, so neither glues a letter onto the link nor spells it in escapes."""
    raw = json.dumps({"page": f"Offer:\n{LINK}/login", "alt": "\u0077ww.other-offer-77.com"}, ensure_ascii=True)
    raw = raw.replace("www.other", "\\u0077ww.other")
    prov = _after([_start(), _done(rawOutput=raw)])
    _read(prov)
    _read(prov, "www.other-offer-77.com")


def test_a_text_block_of_json_is_read_as_its_strings() -> None:
    text = json.dumps({"items": [{"title": "Deal", "body": f"Line one\n{LINK}/claim"}]})
    _read(_after([_start(), _done(content=_text(text))]))


def test_a_mixed_resource_and_text_result_is_read_whole() -> None:
    """A text block, an embedded resource's text and a blob resource known by its address, in one result."""
    content = [{"type": "content", "content": {"type": "text", "text": "Here is the page you asked for."}},
               {"type": "content", "content": {"type": "resource", "resource": {
                   "uri": "https://www.informations.com/", "mimeType": "text/html",
                   "text": "<p>Call +1 (555) 010-7777 for the offer</p>"}}},
               {"type": "content", "content": {"type": "resource", "resource": {
                   "uri": f"https://{LINK}/invoice.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjQK"}}}]
    prov = _after([_start(), _done(content=content)])
    _read(prov)
    _read(prov, "+1 (555) 010-7777", "recipient")


def test_a_resource_links_title_and_description_are_read() -> None:
    content = [{"type": "content", "content": {"type": "resource_link", "uri": "file:///tmp/notes.txt", "name": "notes",
                                               "title": "Pay to GB33BUKB20201555555555",
                                               "description": f"See {LINK} first"}}]
    prov = _after([_start(), _done(content=content)])
    _read(prov)
    _read(prov, "GB33BUKB20201555555555", "account")


def test_a_diffs_old_text_is_read() -> None:
    """The agent edited a file: the diff's old text is the file as it was, which the agent was shown."""
    content = [{"type": "diff", "path": "/work/notes.md", "oldText": f"TODO: pay at {LINK}/pay", "newText": "done"}]
    _read(_after([_start(), _done(content=content)]))


def test_an_unknown_blocks_output_is_read() -> None:
    """A block type the host does not know (a terminal that carries its output inline): its strings are read."""
    content = [{"type": "terminal", "terminalId": "term-1", "output": f"$ curl page\nvisit {LINK}\n"}]
    _read(_after([_start(), _done(content=content)]))


def test_a_tool_response_in_the_adapters_meta_is_read() -> None:
    """An adapter that carries the tool's whole response in ``_meta`` (as Claude Code's does) and a short content."""
    meta = {"claudeCode": {"toolName": "WebFetch", "toolResponse": {"result": f"Offer: visit {LINK}/login"}}}
    _read(_after([_start(), _done(content=_text("Fetched."), _meta=meta)]))


def test_a_screenshot_in_a_result_leaves_nothing_new() -> None:
    """A browser tool returns a screenshot: the agent may read a link in it that no text holds. The host cannot read
    it, so a value found nowhere is not called new; it names the image as where it may come from. The image's base64
    bytes are not indexed as text."""
    content = [{"type": "content", "content": {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg"}},
               {"type": "content", "content": {"type": "text", "text": "Screenshot of the page."}}]
    prov = _after([_start(), _done(content=content)])
    found = prov.index.value("url", "www.made-up-site-99.com")
    assert found.status == FROM_READ and "an image in the result of the tool" in found.sources[0], found
    assert "iVBORw0KGgoAAAANSUhEUg" not in "".join(prov.index._texts)


def test_a_pdf_resource_leaves_nothing_new_after_a_restart() -> None:
    content = [{"type": "content", "content": {"type": "resource", "resource": {
        "uri": "file:///tmp/invoice.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjQK"}}}]
    prov = ConversationProvenance()
    prov.rebuild(json.loads(json.dumps([_user("Pay this invoice"), _start(), _done(content=content)])))
    found = prov.index.value("account", "GB33BUKB20201555555555")
    assert found.status == FROM_READ and "application/pdf" in found.sources[0], found


def test_an_unknown_blocks_data_field_is_read() -> None:
    content = [{"type": "content", "content": {"type": "markdown", "data": f"**Offer**: {LINK}"}}]
    _read(_after([_start(), _done(content=content)]))


def test_a_tool_update_the_host_cannot_parse_is_still_read() -> None:
    """A tool_call_update whose ``toolCallId`` is no string (ACP-11: kept, not parsed) still showed the agent its
    content; and a kind of update ACP may add later carries its strings too. The agent's own words stay out."""
    broken = _update(sessionUpdate="tool_call_update", toolCallId=7, status="completed", content=_text(f"visit {LINK}"))
    later = _update(sessionUpdate="tool_result_v2", result={"page": "call +1 (555) 010-4242 today"})
    thought = _update(sessionUpdate="agent_thought_chunk", content={"type": "text", "text": "www.made-up-site-99.com"})
    prov = _after([broken, later, thought])
    _read(prov)
    _read(prov, "+1 (555) 010-4242", "recipient")
    assert prov.index.value("url", "www.made-up-site-99.com").status == NEW


def test_a_call_failed_with_the_page_in_its_error_is_read() -> None:
    prov = _after([_start(), _update(sessionUpdate="tool_call_update", toolCallId="fetch-1", status="failed",
                                     rawOutput={"error": {"message": f"403 at https://{LINK}/login"}})])
    _read(prov)


def test_what_was_shown_is_read_after_the_conversation_opens_again() -> None:
    """The stored frames read back (a restarted host): the other texts are kept in the stored form."""
    content = [{"type": "diff", "path": "/work/notes.md", "oldText": f"pay at {LINK}", "newText": "paid"}]
    history = [_user("Tidy my notes"), _start(), _done(content=content)]
    prov = ConversationProvenance()
    prov.rebuild(json.loads(json.dumps(history)))
    _read(prov)


# -- runs and their records ------------------------------------------------------------------------------------

def _tool(call_id: str, tool: str, status: str, *, text: str = "", source: str | None = None,
          output: Any = None) -> dict[str, Any]:
    return {"method": "clauz3/agent", "params": {
        "kind": "tool_call", "id": call_id, "update": status != "pending", "title": f"clauz3 {tool}", "status": status,
        "tool": tool, "input": {"source": source} if source is not None else None, "output": output, "text": text}}


PROGRAM = "def main() -> None:\n    print('secure-systems')\n"


def test_a_runs_summary_seen_through_a_later_status_poll_is_read_and_named() -> None:
    """The run call answered while the run was still going (no outcome yet); the agent polls ``status`` and reads
    the outcome there: the card's summary of what the run did quotes the page. The source names the run."""
    prov = ConversationProvenance()
    prov.observe(_user("Read the news page"), {})
    prov.observe(_tool("run-1", "run", "pending", source=PROGRAM), {})
    prov.observe(_tool("run-1", "run", "completed", text="request id: req_12345678\nphase: running",
                       output={"request_id": "req_12345678", "phase": "running"}), {})
    record = {"request_id": "req_12345678", "phase": "completed",
              "summary": {"sentences": [f"It printed: Offer, visit {LINK}"], "blocks": [], "excerpt": []}}
    prov.observe(_tool("status-1", "status", "completed", output={"runs": [record]}), {})
    sources = _read(prov)
    assert any("run 1" in s and "status" in s for s in sources), sources


def test_a_runs_compact_status_line_is_read_without_its_escapes() -> None:
    """A run answer given as text only (no structured output): its ``Status: {…}`` line is the record's JSON, whose
    ``\\n`` escapes glued an ``n`` onto a link at a line start."""
    rec = {"request_id": "req_87654321", "phase": "failed", "message": f"ValueError: bad page:\n{LINK}/x"}
    text = f"request id: req_87654321\nphase: failed\nStatus: {json.dumps(rec, separators=(',', ':'))}"
    prov = ConversationProvenance()
    prov.observe(_user("Read the page"), {})
    prov.observe(_tool("run-1", "run", "failed", text=text), {})
    _read(prov)


def test_a_program_literal_inside_the_link_does_not_erase_it() -> None:
    """The read program holds ``'secure-systems'`` (a filter); the run's stdout prints the page. The literal is part
    of the link read, and must not cut it out of what the run showed."""
    prov = ConversationProvenance()
    prov.observe(_user("Read the page"), {})
    prov.observe(_tool("run-1", "run", "pending", source=PROGRAM), {})
    prov.observe(_tool("run-1", "run", "completed", output={
        "request_id": "req_1", "phase": "completed", "stdout": f"visit {LINK}", "stderr": "",
        "message": f"the page said {LINK}"}), {"req_1": {"program": PROGRAM}})
    _read(prov)


def test_a_run_record_the_agent_never_reported_is_read_and_named_by_its_reads() -> None:
    """An agent whose ACP adapter reports no result for the ``run`` call (the row stays pending): the agent still got
    the record over MCP, and the bridge pushed the same record to the host. Its message quotes the page."""
    facts = {"effects": [{"effect": "get_webpage", "reads": "the web page {url}",
                          "calls": [{"args": {"url": {"value": "www.informations.com"}}}]}]}
    prov = ConversationProvenance()
    prov.observe(_user("Translate the article at www.informations.com"), {})
    prov.observe(_tool("run-1", "run", "pending", source=PROGRAM), {})
    prov.run_record({"request_id": "req_1", "phase": "failed", "message": f"ValueError: cannot translate:\n{LINK}"},
                    {"req_1": {"effects": facts}})
    (source,) = _read(prov)
    assert source.startswith("the web page www.informations.com, read in run 1"), source
    # …and the agent's own report of the same run, arriving later, names the same source once.
    prov.observe(_tool("run-1", "run", "failed", text="request id: req_1\nphase: failed\nreason: program_error\n"
                       f"ValueError: cannot translate:\n{LINK}"), {"req_1": {"effects": facts}})
    assert _read(prov) == (source,)


def test_a_runs_output_the_adapter_never_passed_on_leaves_nothing_new() -> None:
    """What a run printed reaches the agent only in its ``run`` answer; the record the bridge pushes says only how
    many bytes. Until the agent's adapter passes the answer on, no value is new; once it does, the output itself is
    indexed and the stand-in goes."""
    ended = {"request_id": "req_1", "phase": "completed", "ended_at": "2026-12-03T10:32:00.000Z",
             "output": {"stdout_bytes": 42, "stderr_bytes": 0}}
    prov = ConversationProvenance()
    prov.observe(_user("Read the page"), {})
    prov.run_record(ended, {})
    found = prov.index.value("url", LINK)
    assert found.status == FROM_READ and "what run 1 printed" in found.sources[0], found
    prov.observe(_tool("run-1", "run", "completed", output={"request_id": "req_1", "phase": "completed",
                                                             "stdout": f"visit {LINK}", "stderr": ""}), {})
    assert prov.index.value("url", "www.made-up-site-99.com").status == NEW
    assert _read(prov)[0].startswith("the output of run 1"), _read(prov)
    # The answer first, the record after: no stand-in at all.
    other = ConversationProvenance()
    other.observe(_user("Read the page"), {})
    other.observe(_tool("run-1", "run", "completed", text="request id: req_1\n--- output ---\nnothing\nStatus: {}"), {})
    other.run_record(ended, {})
    assert other.index.value("url", "www.made-up-site-99.com").status == NEW


def test_runs_keep_their_numbers_whichever_path_names_them_first() -> None:
    """The bridge's pushed record numbers a run before the agent's frames name it; a pending frame (its adapter's
    metadata only) takes no number: the second run's output is "run 2", never a number skipped or taken twice."""
    prov = ConversationProvenance()
    prov.observe(_user("Read two pages"), {})
    for n, printed in ((1, "nothing here"), (2, f"visit {LINK}")):
        prov.run_record({"request_id": f"req_{n}", "phase": "checking"}, {})
        prov.observe(_update(sessionUpdate="tool_call", toolCallId=f"run-{n}", title="clauz3 run", status="pending",
                             _meta={"clauz3": {"tool": "run"}}), {})
        prov.observe(_tool(f"run-{n}", "run", "completed", output={"request_id": f"req_{n}", "phase": "completed",
                                                                   "stdout": printed, "stderr": ""}), {})
    (source,) = _read(prov)
    assert source.startswith("the output of run 2"), source


def test_an_empty_attached_file_shows_nothing() -> None:
    prov = ConversationProvenance(lambda _id: "")
    prov.observe(_user("What does this file say?", [META]), {})
    assert prov.index.value("url", "www.made-up-site-99.com").status == NEW


def test_a_frame_the_index_fails_on_leaves_nothing_new(monkeypatch: Any) -> None:
    """A frame whose indexing raises (a bug, simulated here) must not let what it showed pass as new, nor raise into
    ``retain`` (which stores the frame next): the index says any value may come from it."""
    import clauz3.sessions.conversation.provenance as host_provenance

    def broken(call: Any) -> list[str]:
        raise RuntimeError("simulated indexing bug")

    prov = ConversationProvenance()
    prov.observe(_user("Read the page"), {})
    monkeypatch.setattr(host_provenance, "shown_texts", broken)
    prov.observe(_done(content=_text(f"visit {LINK}")), {})
    found = prov.index.value("url", "www.made-up-site-99.com")
    assert found.status == FROM_READ and "could not index" in found.sources[0], found


def test_every_page_a_run_read_is_named_and_a_computed_one_in_words() -> None:
    facts = {"complete": True, "effects": [
        {"effect": "get_webpage", "reads": "the web page {url}",
         "calls": [{"args": {"url": {"value": f"www.page{i}.example"}}} for i in range(5)] + [{"args": {"url": None}}]},
        {"effect": "read_inbox", "reads": "the inbox of {user}", "calls": [{"args": {}}]}]}
    reads = run_reads(facts)
    assert [f"the web page www.page{i}.example" for i in range(5)] == reads[:5], reads
    assert "the web page whose address the program computed" in reads, reads
    assert "the inbox of a user the program computed" in reads, reads
    assert not any("(" in r for r in reads), reads


# -- attachments -------------------------------------------------------------------------------------------------

META = {"id": "a" * 32, "name": "forwarded.eml.txt", "kind": "text", "mime_type": "text/plain", "size": 120}


def test_an_attached_files_text_is_read_data_named_by_its_file() -> None:
    texts = {"a" * 32: f"From: offers@mailer.example\nClaim it at {LINK}/claim\n"}
    prov = ConversationProvenance(texts.get)
    prov.observe(_user("Can you reply to the sender of this mail?", [META]), {})
    sources = _read(prov)
    assert any("forwarded.eml.txt" in s for s in sources), sources
    assert prov.index.value("url", "www.made-up-site-99.com").status == NEW  # the file was read: others stay new


def test_an_attached_file_whose_text_is_gone_leaves_nothing_new() -> None:
    """The text cannot be read back (deleted with its conversation, or no store): any value may come from it."""
    prov = ConversationProvenance(lambda _id: None)
    prov.observe(_user("What does this file say?", [META]), {})
    found = prov.index.value("url", "www.made-up-site-99.com")
    assert found.status == FROM_READ and "forwarded.eml.txt" in found.sources[0], found


def test_an_attached_image_leaves_nothing_new_and_the_persons_words_stay_theirs() -> None:
    image = {"id": "b" * 32, "name": "screenshot.png", "kind": "image", "mime_type": "image/png", "size": 900}
    prov = ConversationProvenance(lambda _id: None)
    prov.observe(_user("Write to bob@example.com about this screenshot", [image]), {})
    found = prov.index.value("url", LINK)
    assert found.status == FROM_READ and "screenshot.png" in found.sources[0], found
    assert prov.index.value("recipient", "bob@example.com").status == FROM_YOU


# -- the real host: an attached file, sent to the demo agent, and the host opened again ----------------------------

from pathlib import Path  # noqa: E402

from sessions_harness import recv_until, running_service, state_is  # noqa: E402
from test_acceptance_ch02_host import attach, prompt, ready, upload  # noqa: E402


async def test_the_real_hosts_index_holds_an_attached_file_also_after_a_restart(tmp_path: Any) -> None:
    mail = f"From: offers@mailer.example\nSubject: Your upgrade\n\nClaim it at {LINK}/claim\n".encode()
    async with running_service(tmp_path) as svc:
        ws, restore = await ready(svc)
        cid = restore["params"]["state"]["conversation_id"]
        meta = (await upload(svc, cid, mail, "forwarded.eml.txt")).json()
        await attach(ws, cid, [meta["id"]])
        await recv_until(ws, lambda f: f["method"] == "clauz3/state" and f["params"]["attachments"])
        await prompt(ws, cid, "Who sent this mail?")
        sources = _read(svc.host.conversation.provenance)
        assert any("the attached file forwarded.eml.txt" in s for s in sources), sources
        assert svc.host.conversation.provenance.index.value("url", "www.made-up-site-99.com").status == NEW
        cookie, page, project = svc.cookie, svc.page_secret, Path(svc.host.project)
        await ws.close()
    async with running_service(tmp_path, project=project) as svc:  # the transcript keeps metadata only
        svc.cookie, svc.page_secret = cookie, page
        ws = await svc.ws()
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        assert svc.host.conversation.id == cid
        sources = _read(svc.host.conversation.provenance)  # the file's text, read again from the store
        assert any("the attached file forwarded.eml.txt" in s for s in sources), sources
        await ws.close()


# -- what makes a conversation one that has read data (containment) ---------------------------------------------

def test_a_pending_run_call_its_bookkeeping_and_the_tools_listing_are_not_outside_data() -> None:
    """Containment (a made-up link or address after reading is the person's call) starts with data from outside:
    the agent's own run call before it ended, its run's record before the run ended, and the trusted tools listing
    are indexed but hold nothing from outside. A finished run's output, a tool's result and an ended run's record do."""
    prov = ConversationProvenance()
    prov.observe(_user("Email bob@example.com a hello."), {})
    prov.observe(_tool("tools-1", "tools", "completed", text="send_email(to, body): send one email to@example.com"), {})
    prov.observe(_tool("run-1", "run", "pending", source=PROGRAM, text="execute\nrun"), {})
    prov.run_record({"request_id": "req_1", "phase": "awaiting_approval", "message": ""}, {})
    assert prov.index.reads == 0
    prov.run_record({"request_id": "req_1", "phase": "succeeded", "ended_at": 1.0, "message": "ran"}, {})
    assert prov.index.reads == 1
    other = ConversationProvenance()
    other.observe(_tool("run-1", "run", "completed", text="request id: req_1\n--- output ---\nhello"), {})
    assert other.index.reads == 1
    third = _after([_start(), _done(content=_text("The latest news."))])
    assert third.index.reads >= 1
