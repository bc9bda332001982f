"""How read data may spell a value so that only a reader puts it together again (issue 20, red team rt20).

:func:`clauz3.base.provenance.extract` looks at what the agent *read* a second time through the lines below, so a
value the page wrote in disguise and the program writes plainly is *from read data*, naming the page, rather than
*new*: a link cut by a hard wrap or by HTML markup, a JSON or Python-repr escape (``\\u002e``, ``\\n`` glued to the
next word), a base64 run, a reversed line, a host spelt with Cyrillic or Greek lookalike letters. Each is exact
(a decoding, never a fuzzy match) and only ever adds read keys: nothing here can make a value *from you*. IDNA
(punycode ⇄ Unicode hosts) is in :func:`host_unicode`, used on both sides so the two spellings share one key.

Each decoding runs only on a line that can hold it (a cheap test first): most text is prose. :func:`decoded` (escapes
and defanged dots) applies to both sides. Nothing here imports anything of clauz3 but :mod:`clauz3.base.normal`.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
from collections.abc import Iterator
from itertools import pairwise
from urllib.parse import unquote

from clauz3.base.normal import normalise

# Lookalike letters of the Cyrillic and Greek alphabets and the Latin letter each passes for (UTS 39's confusables,
# the letters a phishing host uses): a read ``www.secure-systеms-252.com`` with a Cyrillic е is the Latin link.
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "Ѕ": "S", "І": "I", "Ј": "J", "Һ": "H", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
})
# A backslash escape as JSON and Python's repr write it (a tool result in JSON, a run that printed a list).
_BACKSLASH = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([ntr/\"'\\]))")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\n", "/": "/", '"': '"', "'": "'", "\\": "\\"}
_TAG = re.compile(r"</?[A-Za-z][^<>]{0,200}>")
_B64 = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
MAX_B64 = 4096  # a longer run is data (an image), not a value for the agent to decode
# A reversed link or address: its top-level domain first (``moc.``, ``ten.``…), or ``www`` last (``.www``).
_REVERSED_HINTS = ("moc.", "ten.", "gro.", "oi.", "ofni.", "zib.", "ppa.", "ved.", "elpmaxe.", ".www", "//:")
# A line ending where a hard wrap cuts a link or address (``www.secure-systems-`` / ``252.com``).
_WRAP_END = ("-", ".", "/", "@", "_")
_WRAP_START = (".", "-", "/", "@")


def _unescape(m: re.Match[str]) -> str:
    if m.group(1):
        return chr(int(m.group(1), 16))
    if m.group(2):
        return chr(int(m.group(2), 16))
    return _SIMPLE[m.group(3)]


def _base64_texts(line: str) -> list[str]:
    out: list[str] = []
    for m in _B64.finditer(line):
        run = m.group(0)
        if len(run) > MAX_B64:
            continue
        try:
            text = base64.b64decode(run + "=" * (-len(run) % 4), validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if text.isprintable():
            out.append(text)
    return out


def disguised(line: str) -> list[str]:
    """The readings of one line of read data beyond the line itself (see the module's docstring); usually none."""
    out: list[str] = []
    if "\\" in line:
        out.extend(_BACKSLASH.sub(_unescape, line).split("\n"))
    if "<" in line and ">" in line:
        out.append(_TAG.sub("", line))
    if not line.isascii():
        folded = line.translate(_CONFUSABLE)
        if folded != line:
            out.append(folded)
    if any(h in line for h in _REVERSED_HINTS):
        out.append(line[::-1])
    if len(line) >= 16:
        out.extend(_base64_texts(line))
    return [v for v in out if v and v != line]


def unwrapped(lines: list[str]) -> list[str]:
    """Two adjacent lines joined where a hard wrap may have cut a link or address between them."""
    out: list[str] = []
    for a, b in pairwise(lines):
        if a.endswith(_WRAP_END) or b.startswith(_WRAP_START):
            out.append(a.rsplit(" ", 1)[-1] + b.split(" ", 1)[0])
    return out


def fold_confusables(text: str) -> str:
    """Cyrillic and Greek lookalike letters as the Latin ones they pass for."""
    return text.translate(_CONFUSABLE)


def host_unicode(host: str) -> str:
    """A host with its punycode labels (``xn--…``) decoded: ``www.xn--scure-systems-252-kqb.com`` and
    ``www.sécure-systems-252.com`` are one host (IDNA), so both spellings share one key."""
    if "xn--" not in host:
        return host
    labels = []
    for label in host.split("."):
        if label.startswith("xn--"):
            try:
                label = label[4:].encode("ascii").decode("punycode")
            except (UnicodeError, ValueError):
                pass
        labels.append(label)
    return ".".join(labels)


_PERCENT_OR_ENTITY = re.compile(r"%[0-9A-Fa-f]{2}|&#?\w+;")


# A link written for a person to put together again: ``www[.]site[.]com``, ``site (dot) com``, ``site dot com``.
_DEFANG = re.compile(r"(?i)\s*[\[({]\s*(?:\.|dot)\s*[\])}]\s*|\s+dot\s+")


def decoded(line: str) -> list[str]:
    """The line, and where it holds %-escapes, HTML character references or a defanged dot, the line decoded too
    (``www%2Esecure-systems-252%2Ecom`` and ``secure-systems-252 dot com`` are the link; redteam w2)."""
    out = [line]
    if _DEFANG.search(line):
        out.append(_DEFANG.sub(".", line))
    if not _PERCENT_OR_ENTITY.search(line):
        return out
    for decode in (unquote, html.unescape):
        text = normalise(decode(line))
        if text not in out:
            out.append(text)
    return out


# Scripts whose letters look like Latin ones (and like each other): a word mixing two of them is spelt to look
# like another (``www.sеcure-systems-252.com`` with a Cyrillic е is no link anyone read, nor one anyone wrote).
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"})
_CHUNK = re.compile(r"\S+")


def mixed_script_pieces(text: str) -> Iterator[tuple[str, set[str]]]:
    """Each piece of ``text`` (a run without spaces: a link, an address, a word) whose letters come from two
    scripts that look alike, with those scripts. Pure ASCII pieces are skipped at once."""
    for chunk in _CHUNK.findall(text):
        if chunk.isascii():
            continue
        scripts = {unicodedata.name(ch, "?").split(" ", 1)[0] for ch in chunk if ch.isalpha()} & LOOKALIKE_SCRIPTS
        if len(scripts) > 1:
            yield chunk, scripts
