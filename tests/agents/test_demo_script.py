"""The demo's phrase matching and program templates, as pure functions."""

from __future__ import annotations

import ast

import pytest

from clauz3.agents.demo.paths import PathRuleError, canonical_path
from clauz3.agents.demo.programs import Modules, build
from clauz3.agents.demo.replies import code_block, outcome
from clauz3.agents.demo.script import (
    STARTERS,
    TEMPLATE_INTENTS,
    AppendFile,
    BadArgument,
    Count,
    CountLines,
    Email,
    Fallback,
    Help,
    ListDir,
    NativeTool,
    ReadFile,
    SubmitProgram,
    ToolQuery,
    WriteFile,
    parse,
)


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("help", Help()),
        ("What can you do?", Help()),
        ("check runs", ToolQuery("status")),
        ("List Tools", ToolQuery("tools")),
        ("read guide builtin:clauz3-authoring", ToolQuery("read_skill", {"id": "builtin:clauz3-authoring"})),
        ('email bob@example.com "Hi there"', Email("bob@example.com", "Hi there", ("bob@example.com",))),
        ("send an email to ann@example.com saying lunch?", Email("ann@example.com", "lunch?", ("ann@example.com",))),
        ("email eve@example.com \u201chi\u201d only to bob@example.com, ann@example.com",
         Email("eve@example.com", "hi", ("bob@example.com", "ann@example.com"))),
        ("list files under ./notes/", ListDir("notes")),
        ("list files in .", ListDir(".")),
        ("read notes/groceries.txt", ReadFile("notes/groceries.txt")),
        ("count the lines of notes/a.txt", CountLines("notes/a.txt")),
        ('write "hello" to out/h.txt', WriteFile("hello", "out/h.txt")),
        ('append the line "milk" to notes/groceries.txt', AppendFile("milk", "notes/groceries.txt")),
        ("count to 10000", Count(10000, False)),
        ("count to 5 slowly", Count(5, True)),
        ("try a native tool", NativeTool()),
        ("refactor everything", Fallback()),
    ],
)
def test_phrases(text: str, intent: object) -> None:
    assert parse(text).intent == intent


@pytest.mark.parametrize(
    "text", ["read ../etc/passwd", "list files under /", "read notes/", "email bob@@x \"hi\"", "count to 10001",
             "count to 1001 slowly", "count to 0", 'email bob@example.com ""']
)
def test_bad_arguments_explain_a_rule(text: str) -> None:
    assert isinstance(parse(text).intent, BadArgument)


def test_starters_match_with_curly_quotes_and_host_notes() -> None:
    starter = next(iter(STARTERS))
    curly = starter.replace('"Hi from clauz3"', "\u201cHi from clauz3\u201d").replace(" ", "  ")
    parsed = parse("[clauz3] Library change since your last message — added email.\n\n" + curly.upper())
    assert parsed.intent == STARTERS[starter] and parsed.host_note


def test_path_grammar() -> None:
    assert canonical_path("./a/b/", directory=True) == "a/b"
    for bad in ("/abs", "a//b", "a/./b", "a/../b", "a\\b", "x" * 256, "", "a\x00"):
        with pytest.raises(PathRuleError):
            canonical_path(bad, directory=True)
    with pytest.raises(PathRuleError):
        canonical_path(".", directory=False)


@pytest.mark.parametrize("starter", [s for s in STARTERS if isinstance(STARTERS[s], TEMPLATE_INTENTS)])
def test_starter_programs_are_valid_python_with_guarantees(starter: str) -> None:
    intent = STARTERS[starter]
    domain = "email" if isinstance(intent, Email) else "filesystem"
    program = build(intent, Modules.default(domain))
    tree = ast.parse(program.source)
    main = next(node for node in tree.body if isinstance(node, ast.FunctionDef))
    assert main.name == "main" and main.args.args == []
    assert len(main.decorator_list) == len(program.guarantees) >= 2
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert all(n.module.startswith(f"tools.{domain}.trusted") for n in imports)


def test_email_program_exact_source() -> None:
    program = build(Email("bob@example.com", "Hi from clauz3", ("bob@example.com",)), Modules.default("email"))
    assert program.source == (
        '"""Written by the clauz3 demo agent."""\n\n'
        "import clauz3\n"
        "from tools.email.trusted import contracts as email\n"
        "from tools.email.trusted.effects import send_email\n\n\n"
        "@clauz3.guarantee(email.only(addresses=['bob@example.com']))\n"
        "@clauz3.guarantee(email.at_most(count=1))\n"
        "@clauz3.guarantee(email.unique_recipients())\n"
        "def main() -> None:\n"
        "    send_email('bob@example.com', 'Hi from clauz3')\n"
    )


def test_hostile_message_stays_one_literal() -> None:
    message = "\"\"\" ') + __import__('os')\n"
    program = build(Email("a@b.co", message, ("a@b.co",)), Modules.default("email"))
    call = ast.parse(program.source).body[-1].body[0].value
    assert isinstance(call, ast.Call) and call.args[1].value == message


def test_outcome_sentences() -> None:
    assert outcome({"phase": "completed", "exit_code": 0, "stdout": "x```y"}, "", False) == (
        "Done: the program ran once after approval (exit code 0).\n````\nx```y\n````"
    )
    assert outcome({"phase": "refused", "reason": "denied", "approval": {"feedback": "no"}}, "", True).startswith(
        "It wasn't approved, so nothing ran"
    )
    # Each refusal says what its name says (issue 12): three different replies.
    said = {d: outcome({"phase": "refused", "reason": "denied", "approval": {"decision": d, "feedback": "why?"}}, "", True)
            for d in ("rejected", "rejected_contract", "request_more")}
    assert len(set(said.values())) == 3
    assert "you rejected this program" in said["rejected"] and "Feedback: why?" in said["rejected"]
    assert "rejected its contract" in said["rejected_contract"]
    assert "asked for more information" in said["request_more"] and "Your question: why?" in said["request_more"]
    assert outcome({"phase": "cancelled"}, "", True) == "The run was stopped before it executed."
    assert outcome({"phase": "cancelled", "executed_partially": True}, "", True).startswith(
        "The run was stopped after it had started executing")
    assert "nothing is known to have run" in outcome(None, "boom", True)
    assert code_block("a") == "```\na\n```"


def test_run_this_program_submits_the_fenced_source_verbatim() -> None:
    source = 'import clauz3\n\n\ndef main() -> None:\n    print("two  spaces")\n'
    assert parse(f"Run this program:\n```python\n{source}```").intent == SubmitProgram(source)
    assert parse(f"[clauz3] Tools changed.\n\nrun this program:\n```\n{source}```\n").intent == SubmitProgram(source)
    assert parse(f"Run this program as request gate-0001:\n```python\n{source}```").intent == SubmitProgram(
        source, "gate-0001")
    # Without a closing fence, or with text after it, it is not the phrase.
    assert not isinstance(parse(f"Run this program:\n```python\n{source}").intent, SubmitProgram)
    assert not isinstance(parse(f"Run this program:\n```python\n{source}```\nthanks").intent, SubmitProgram)


def test_help_offers_only_what_works_here(tmp_path) -> None:
    from clauz3.agents.demo.replies import capabilities

    email_only = capabilities({"email"}, str(tmp_path))
    assert 'email bob@example.com "Hi"' in email_only and "output/hello.txt" not in email_only
    assert "need the filesystem library" in email_only
    bare = capabilities({"filesystem"}, str(tmp_path))  # no notes/ or output/ folder here
    assert "email bob@" not in bare and "notes/" not in bare and "output/" not in bare
    assert "`list files under .`" in bare
    (tmp_path / "output").mkdir()
    assert '`write "hello" to output/hello.txt`' in capabilities({"filesystem"}, str(tmp_path))


def test_reply_starter_and_output_placeholders() -> None:
    """Issue 20: the provenance starter reads first; `{{output:KEY}}` copies what the last run printed."""
    from clauz3.agents.demo.programs import read_inbox_program
    from clauz3.agents.demo.replies import sender_of
    from clauz3.agents.demo.script import ReplyToInbox, fill_from_output

    reply = [k for k, v in STARTERS.items() if isinstance(v, ReplyToInbox)]
    assert len(reply) == 1 and STARTERS[reply[0]] == ReplyToInbox("Thanks, got it")
    read = read_inbox_program(Modules.default("email"))
    assert "print(read_inbox())" in read.source and "@clauz3.guarantee(email.none())" in read.source
    assert sender_of("From: dana@northwind-traders.example\nSubject: x") == "dana@northwind-traders.example"
    assert sender_of("Subject: nothing") is None
    assert fill_from_output("to = {{output:From}}", "From: a@b.example\n") == "to = 'a@b.example'"
    assert fill_from_output("to = {{output:To}}", "From: a@b.example\n") is None
