"""Issue 22 item 9: the demo understands what people actually type, and every example its help lists
works as typed (code spans copied with or without their backticks)."""

from __future__ import annotations

import re

import pytest

from clauz3.agents.demo.replies import capabilities
from clauz3.agents.demo.script import (
    BadArgument,
    Count,
    CountLines,
    Email,
    Fallback,
    ListDir,
    ReadFile,
    SubmitProgram,
    WriteFile,
    parse,
)

BOB = "bob@example.com"


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        # The issue's own case: a message in quotes, then the guarantees in a sentence of their own.
        (f'Send {BOB} "Hi there". Guarantee that only {BOB} can receive email and at most one email is sent.',
         Email(BOB, "Hi there", (BOB,), guarantee_unique=False)),
        (f'Send {BOB} the message "Hi there". Guarantee only {BOB} can receive it, at most one email, '
         "and no address gets two.", Email(BOB, "Hi there", (BOB,))),
        (f'send "Lunch?" to {BOB}', Email(BOB, "Lunch?", (BOB,))),
        (f'Send an email to {BOB} saying "See you at 3".', Email(BOB, "See you at 3", (BOB,))),
        (f'Please email {BOB} "Hi".', Email(BOB, "Hi", (BOB,))),
        (f"email {BOB} 'It works'", Email(BOB, "It works", (BOB,))),
        (f'Prepare a mock email to {BOB} saying "Hi". Guarantee only {BOB} can receive it.',
         Email(BOB, "Hi", (BOB,), guarantee_unique=False)),
        (f'Use the mock email library to send {BOB} the message "Hello". Submit it for approval.',
         Email(BOB, "Hello", (BOB,))),
        (f'email {BOB} "Hi" only to {BOB} and ann@example.com', Email(BOB, "Hi", (BOB, "ann@example.com"))),
        (f"send an email to {BOB}: running late", Email(BOB, "running late", (BOB,))),
        ("count to 20.", Count(20, False)),
        ("Count to 20 please", Count(20, False)),
        ("`count to 20 slowly`", Count(20, True)),
        ("read notes/groceries.txt.", ReadFile("notes/groceries.txt")),
        ("Read the file notes/groceries.txt", ReadFile("notes/groceries.txt")),
        ("list the files in notes", ListDir("notes")),
        ("How many lines are in notes/groceries.txt?", CountLines("notes/groceries.txt")),
        ('Write "hello" to output/hello.txt.', WriteFile("hello", "output/hello.txt")),
        ("please help", parse("help").intent),
        ("refactor everything.", Fallback()),
    ],
)
def test_what_people_type(text: str, intent: object) -> None:
    assert parse(text).intent == intent


@pytest.mark.parametrize("text", [f'Send {BOB} Hi there', 'send "Hi" to bob@@example', "email bob"])
def test_unclear_emails_still_explain_the_rule(text: str) -> None:
    assert isinstance(parse(text).intent, BadArgument)


def help_examples() -> list[str]:
    """Every code span of the help lists (all libraries, and a workspace without the file examples)."""
    texts = (capabilities(None, None) + "\n" + capabilities(["email"], "/nonexistent")).replace("```python", "")
    return sorted({span for span in re.findall(r"`([^`]+)`", texts) if not span.startswith("```")})


@pytest.mark.parametrize("example", help_examples())
def test_every_help_example_works_as_typed(example: str) -> None:
    for typed in (example, f"`{example}`", example[0].upper() + example[1:]):
        intent = parse(typed).intent
        assert not isinstance(intent, (Fallback, BadArgument)), (typed, intent)


def test_help_program_example_works() -> None:
    typed = "run this program:\n```python\ndef main() -> None:\n    print('hi')\n```"
    assert isinstance(parse(typed).intent, SubmitProgram)
