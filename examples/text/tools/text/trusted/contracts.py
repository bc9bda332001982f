"""Contracts over messages (length, content, count) and file edits (where, how long)."""

from tools.text.trusted.effects import edit_file, send_message

from clauz3 import DirectoryPath, spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="promises nothing about messages or edits")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="every message is at most {n} characters long")
def length_at_most(n: int) -> ContractSpec:
    return effect(send_message).all(lambda e: len(e.text) <= n)


@contract(description="every message is at least {n} characters long")
def length_at_least(n: int) -> ContractSpec:
    return effect(send_message).all(lambda e: len(e.text) >= n)


@contract(description="every message is between {lo} and {hi} characters long")
def length_between(lo: int, hi: int) -> ContractSpec:
    return effect(send_message).all(lambda e: lo <= len(e.text) and len(e.text) <= hi)


@contract(description="every message contains {s}")
def must_contain(s: str) -> ContractSpec:
    return effect(send_message).all(lambda e: s in e.text)


@contract(description="no message contains {s}")
def must_not_contain(s: str) -> ContractSpec:
    return effect(send_message).all(lambda e: s not in e.text)


@contract(description="no message contains a regular-expression metacharacter")
def no_regex_metacharacters() -> ContractSpec:
    return effect(send_message).all(lambda e: not ("." in e.text or "^" in e.text or "$" in e.text or "*" in e.text or "+" in e.text or "?" in e.text or "{" in e.text or "}" in e.text or "[" in e.text or "]" in e.text or "\\" in e.text or "|" in e.text or "(" in e.text or ")" in e.text))


@contract(description="at most {count} messages are sent")
def sends_at_most(count: int) -> ContractSpec:
    return effect(send_message).count() <= count


@contract(description="no file is edited")
def no_edits() -> ContractSpec:
    return effect(edit_file).empty()


@contract(description="only files under {root} are edited")
def only_edit_under(root: DirectoryPath) -> ContractSpec:
    # Component-wise, so "notes2/a" is not under "notes"; "." (the project root) covers every relative path.
    return effect(edit_file).all(lambda e: (root == "." and not e.path.startswith("/")) or e.path == root or e.path.startswith(root + "/"))


@contract(description="every edit writes at most {n} characters")
def edit_length_at_most(n: int) -> ContractSpec:
    return effect(edit_file).all(lambda e: len(e.new_text) <= n)
