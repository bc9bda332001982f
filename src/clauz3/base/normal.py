"""How the provenance classifier spells a text before it compares (issue 20; red team w2): NFKC without invisible
characters, the letters and digits of a value alone, the words of a phrase, the values an amount may stand for.
Nothing here imports anything of clauz3 (``clauz3.base.provenance`` and ``clauz3.language.sensitive`` use it)."""

from __future__ import annotations

import re
import unicodedata

# Characters that draw nothing (Unicode category Cf: zero-width space and joiners, soft hyphen, word joiner,
# bidi controls, BOM, tags; and the variation selectors and the combining grapheme joiner), so
# ``www.secure\u200b-systems-252.com`` reads as the link it hides; NFKC keeps them, so they are dropped before it
# (redteam w2). Written out (a scan of every code point costs half a second at import); a test checks that
# every Cf character of this Python's Unicode database is here.
_INVISIBLE_RANGES = ((0xAD, 0xAD), (0x34F, 0x34F), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD), (0x70F, 0x70F),
                     (0x890, 0x891), (0x8E2, 0x8E2), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                     (0x2060, 0x2064), (0x2066, 0x206F), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB),
                     (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F), (0xE0100, 0xE01EF))
_INVISIBLE = re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in _INVISIBLE_RANGES) + "]")


def normalise(text: str) -> str:
    """NFKC without invisible format characters: full-width letters, ligatures and compatibility forms
    become their plain spelling, zero-width characters go."""
    if not text.isascii():
        text = _INVISIBLE.sub("", text)
        # The ideographic full stop (U+3002; NFKC makes U+FF61 it) separates a host's labels under IDNA
        # (UTS 46), so ``www。secure-systems-252。com`` is a working link: read it with dots (red team rt20).
        return unicodedata.normalize("NFKC", text).replace("\u3002", ".")
    return unicodedata.normalize("NFKC", text)


_PHRASE_WORD = re.compile(r"[^\W_]+")


def phrase_words(text: str) -> list[str]:
    """The words of a text as phrases are compared: NFKC, case-folded, letters and digits (a number is a word)."""
    return _PHRASE_WORD.findall(normalise(text).casefold())


# An amount as a program passes it (``98.7``, ``1250.0``) is the ``98.70 EUR`` or ``1,250.00`` read: amounts are
# also compared by their value, every plausible reading of separators counted (``1,250`` is 1250 and 1.25;
# redteam w2).
AMOUNT = re.compile(r"(?<![\d.,'])\d{1,3}(?: \d{3})+(?:[.,]\d+)?(?!\d)|(?<![\d.,'])\d+(?:[.,']\d+)*(?!\d)")
MAX_AMOUNT_CHARS = 32


def amount_keys(text: str) -> set[str]:
    """The values ``text`` (one number, written with separators or not) may stand for, as canonical decimals."""
    from decimal import Decimal, InvalidOperation

    groups = re.split(r"[.,' ]", text)
    if len(text) > MAX_AMOUNT_CHARS or not all(g.isdigit() and g.isascii() for g in groups):
        return set()
    readings = {"".join(groups)}  # every separator a thousands one
    if len(groups) > 1:
        readings.add("".join(groups[:-1]) + "." + groups[-1])  # the last one the decimal point
    out: set[str] = set()
    for r in readings:
        try:
            out.add(format(Decimal(r).normalize(), "f"))
        except InvalidOperation:
            continue
    return out


def skeleton(text: str) -> str:
    """The letters and digits of ``text`` alone, case-folded, every decimal digit as an ASCII one:
    ``GB33-BUKB 2020`` → ``gb33bukb2020``, ``٤٨١`` → ``481``."""
    out: list[str] = []
    for ch in normalise(text).casefold():
        if ch.isdecimal():
            out.append(str(unicodedata.decimal(ch)))
        elif ch.isalnum():
            out.append(ch)
    return "".join(out)
