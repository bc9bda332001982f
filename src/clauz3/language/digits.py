"""int <-> decimal text with a fixed digit limit, the same for the interpreter and the prover.

CPython refuses int/str conversions past ``sys.get_int_max_str_digits()`` digits, a limit the
environment may change (``PYTHONINTMAXSTRDIGITS``, ``-X int_max_str_digits``; at least 640). The
checked subset's meaning must not depend on it (DEC-15): ``int(str)`` accepts at most 4,300 digits
(CPython's default) and ``str(int)`` has no limit. Both only ever hand CPython pieces of fewer than
640 digits, which it converts under any setting.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

# Below this many bits an int has fewer than 640 decimal digits.
_STR_SAFE_BITS = 2_000
_SAFE_DIGITS = 600
INT_DIGIT_LIMIT = 4_300  # what int(str) accepts


def parse_int(text: str) -> int:
    """``int(text)`` (base 10) with the digit limit fixed at 4,300, whatever the environment sets."""
    body = text.strip()
    digits = body.lstrip("+-").replace("_", "")
    if len(digits) <= _SAFE_DIGITS:
        return int(text)
    sign, rest = (body[0], body[1:]) if body[:1] in "+-" else ("", body)
    digits = rest.replace("_", "")
    if rest.startswith("_") or rest.endswith("_") or "__" in rest or not digits.isdecimal():
        raise ValueError(f"invalid literal for int() with base 10: {text!r}"[:200])
    if len(digits) > INT_DIGIT_LIMIT:
        raise ValueError(f"Exceeds the limit ({INT_DIGIT_LIMIT} digits) for integer string conversion: "
                         f"value has {len(digits)} digits; use sys.set_int_max_str_digits() to increase the limit")
    value = 0
    for k in range(0, len(digits), _SAFE_DIGITS):
        chunk = digits[k:k + _SAFE_DIGITS]
        value = value * 10 ** len(chunk) + int(chunk)
    return -value if sign == "-" else value


def int_text(n: int) -> str:
    """``str(n)`` for any size: CPython's digit limit would raise ``ValueError`` past 4,300 digits."""
    if n.bit_length() <= _STR_SAFE_BITS:
        return int.__repr__(n)
    sign = "-" if n < 0 else ""
    n = abs(n)
    digits = (n.bit_length() * 3) // 20  # about half the decimal digits (log10 2 ≈ 0.30)
    high, low = divmod(n, 10 ** digits)
    return sign + int_text(high) + int_text(low).rjust(digits, "0")


@contextmanager
def fixed_digit_limit() -> Iterator[None]:
    """Parse program text under CPython's default 4,300-digit limit for int literals, whatever the
    environment sets (PYTHONINTMAXSTRDIGITS would otherwise decide whether a program is refused)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(INT_DIGIT_LIMIT)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)
