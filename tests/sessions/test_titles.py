"""Issue 22 item 10: titles summarise the first turn, stay short and unique (no model)."""

from __future__ import annotations

from clauz3.sessions.conversation.titles import MAX_CHARS, title_from, unique


def test_first_sentence_not_the_first_80_characters() -> None:
    text = ('Use the mock email library to send bob@example.com the message "Hi from clauz3". Guarantee that '
            "only bob@example.com can receive email.")
    title = title_from(text)
    assert "Guarantee" not in title and len(title) <= MAX_CHARS and title.startswith("Use the mock email")
    assert title_from("hello") == "hello"
    assert title_from('Prepare a mock email saying "Lunch at noon?". Then stop.') == \
        'Prepare a mock email saying "Lunch at noon?"'


def test_a_program_is_titled_by_its_summary_line() -> None:
    program = 'Run this program:\n```python\n"""Send the weekly digest."""\ndef main() -> None:\n    pass\n```'
    assert title_from(program) == "Send the weekly digest"
    generic = 'Run this program:\n```python\n"""Written by the clauz3 demo agent."""\ndef report():\n    pass\n```'
    assert title_from(generic) == "Program report"
    assert not title_from("Run this program:\n```python\ndef main():\n  print(1\n```").startswith("Run this program")


def test_titles_stay_unique() -> None:
    assert unique("Digest", set()) == "Digest"
    assert unique("Digest", {"Digest"}) == "Digest (2)"
    assert unique("Digest", {"Digest", "Digest (2)"}) == "Digest (3)"
