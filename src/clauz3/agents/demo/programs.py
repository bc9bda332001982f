"""The program sources the demo submits to the bridge's ``run`` tool (04 §12.3). Pure.

Each template imports only from ``tools.<domain>.trusted``, defines ``main()``, and passes literal
arguments only, so every tutorial starter's program proves (05 TUT-7). Literals are written with
``repr`` so any message text stays one valid Python string literal.
"""

from __future__ import annotations

from dataclasses import dataclass

from .script import (
    AppendFile,
    AppendTwoFiles,
    CountLines,
    Email,
    Intent,
    ListDir,
    ReadFile,
    WriteFile,
    WriteSummary,
)


@dataclass(frozen=True)
class Program:
    domain: str
    effects: tuple[str, ...]  # effect names main() calls; the tools listing must offer them
    action: str  # what the program does, in words
    guarantees: tuple[str, ...]  # each guarantee, in words
    source: str


@dataclass(frozen=True)
class Modules:
    """Where a domain's effects and contract helpers live (from the ``tools`` listing)."""

    effects: str
    contracts: str

    @staticmethod
    def default(domain: str) -> Modules:
        return Modules(f"tools.{domain}.trusted.effects", f"tools.{domain}.trusted.contracts")


def domain_of(intent: Intent) -> str:
    return "email" if isinstance(intent, Email) else "filesystem"


def effects_of(intent: Intent) -> tuple[str, ...]:
    return build(intent, Modules.default(domain_of(intent))).effects


def build(intent: Intent, modules: Modules) -> Program:
    if isinstance(intent, Email):
        return _email(intent, modules)
    if isinstance(intent, ListDir):
        d = intent.directory
        return _fs(
            modules, ("list_dir",), f"list the names in {d}",
            [("read_only()", "it only reads (no writes, creations, deletions or mode changes)"),
             (f"only_list_under(dir={d!r})", f"it lists only under {d}"),
             ("lists_at_most(n=1)", "it lists at most one directory")],
            [f"names = list_dir({d!r})", "for name in names:", "    print(name)"],
        )
    if isinstance(intent, ReadFile):
        f = intent.path
        return _fs(
            modules, ("read_file",), f"read {f} and print it",
            [("read_only()", "it only reads (no writes, creations, deletions or mode changes)"),
             (f"only_read_files(paths=[{f!r}])", f"it reads only {f}"),
             ("reads_at_most(n=1)", "it reads at most once")],
            [f"print(read_file({f!r}))"],
        )
    if isinstance(intent, CountLines):
        f = intent.path
        parent = f.rpartition("/")[0] or "."
        return _fs(
            modules, ("read_lines",), f"count the lines of {f}",
            [("read_only()", "it only reads (no writes, creations, deletions or mode changes)"),
             (f"only_read_under(dir={parent!r})", f"it reads only files under {parent}"),
             ("reads_at_most(n=1)", "it reads at most once")],
            [f"lines = read_lines({f!r})", "print(len(lines))"],
        )
    if isinstance(intent, WriteSummary):
        return _fs(
            modules, ("read_lines", "write_file"),
            "read notes/meeting.md and write its first line to output/summary.txt",
            [("only_read_under(dir='notes')", "reads stay under notes"),
             ("only_write_under(dir='output')", "writes stay under output"),
             ("writes_at_most(n=1)", "there is at most one write")],
            ["lines = read_lines('notes/meeting.md')",
             "first = lines[0] if len(lines) > 0 else ''",
             "write_file('output/summary.txt', first)"],
        )
    if isinstance(intent, WriteFile):
        f = intent.path
        return _fs(
            modules, ("write_file",), f"write the given text to {f}",
            [("no_reads()", "it reads no file"),
             (f"only_write_files(paths=[{f!r}])", f"it writes only {f}"),
             ("writes_at_most(n=1)", "there is at most one write"),
             ("no_deletes()", "it deletes nothing")],
            [f"write_file({f!r}, {intent.text!r})"],
        )
    if isinstance(intent, AppendFile):
        f = intent.path
        return _fs(
            modules, ("append_file",), f"append the line {intent.text!r} to {f}",
            [(f"only_write_files(paths=[{f!r}])", f"it writes only {f}"),
             ("writes_at_most(n=1)", "there is at most one write"),
             ("no_deletes()", "it deletes nothing")],
            [f"append_file({f!r}, {intent.text + chr(10)!r})"],
        )
    if isinstance(intent, AppendTwoFiles):
        first, second = intent.paths
        line = intent.text + chr(10)
        return _fs(
            modules, ("append_file",), f"append the line {intent.text!r} to {first} and {second}",
            [(f"only_write_files(paths=[{first!r}, {second!r}])", f"it writes only {first} and {second}"),
             ("writes_at_most(n=2)", "there are at most two writes"),
             ("no_deletes()", "it deletes nothing")],
            [f"append_file({first!r}, {line!r})", f"append_file({second!r}, {line!r})"],
        )
    raise ValueError(f"no program template for {type(intent).__name__}")


def _email(intent: Email, modules: Modules) -> Program:
    only = list(intent.only)
    guarantees = [
        (f"only(addresses={only!r})", "only " + ", ".join(only) + " can receive email"),
        ("at_most(count=1)", "at most one email is sent"),
    ]
    if intent.guarantee_unique:
        guarantees.append(("unique_recipients()", "no address gets two emails"))
    body = [f"send_email({intent.address!r}, {intent.message!r})"]
    return _program(
        "email", modules, ("send_email",),
        f"send one mock email to {intent.address} saying {intent.message!r}", guarantees, body,
    )


def read_inbox_program(modules: Modules) -> Program:
    """The first step of the provenance starter: print the mock inbox, send nothing."""
    return _program("email", modules, ("read_inbox",), "read the newest email in the mock inbox and show it",
                    [("none()", "no email is sent")], ["print(read_inbox())"])


def _fs(
    modules: Modules, effects: tuple[str, ...], action: str, guarantees: list[tuple[str, str]], body: list[str]
) -> Program:
    return _program("filesystem", modules, effects, action, guarantees, body)


def _program(
    domain: str,
    modules: Modules,
    effects: tuple[str, ...],
    action: str,
    guarantees: list[tuple[str, str]],
    body: list[str],
) -> Program:
    parent, _, leaf = modules.contracts.rpartition(".")
    lines = [
        '"""Written by the clauz3 demo agent."""',
        "",
        "import clauz3",
        f"from {parent} import {leaf} as {domain}",
        f"from {modules.effects} import {', '.join(sorted(set(effects)))}",
        "",
        "",
    ]
    lines += [f"@clauz3.guarantee({domain}.{code})" for code, _ in guarantees]
    lines.append("def main() -> None:")
    lines += ["    " + line for line in body]
    return Program(domain, effects, action, tuple(words for _, words in guarantees), "\n".join(lines) + "\n")
