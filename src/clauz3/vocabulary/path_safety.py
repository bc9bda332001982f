"""The four path predicates of 01 PUB-2, written in the checked subset so the prover inlines them.

Every function here uses only: ``if``/``return``, ``for`` over literal tuples (unrolled), ``==``,
``in``, ``len``, ``str.startswith``/``endswith``/``find`` and slices with constant bounds, and
boolean operators, so proofs model them exactly (no ``split``/``lower``, which are abstract in
proofs, no loops over the string itself, no regular expressions). Where the exact rule cannot be
written that way the predicate is STRICTER than the rule (it refuses more), never looser; each
such place is documented on the function. Property tests compare every predicate with a plain
reference implementation (tests/vocabulary/test_path_safety.py).
"""

from __future__ import annotations


def has_no_parent_segments(p: str) -> bool:
    """True iff no ``/``-separated segment of ``p`` equals ``..`` (exact)."""
    if p == "..":
        return False
    if p.startswith("../") or p.endswith("/..") or "/../" in p:
        return False
    return True


def is_single_path_component(s: str) -> bool:
    """True iff ``s`` is non-empty, not ``.``/``..``, and holds no ``/``, backslash or NUL (exact)."""
    if s == "" or s == "." or s == "..":
        return False
    if "/" in s or "\\" in s or "\x00" in s:
        return False
    return True


def is_plain_path(p: str) -> bool:
    """True iff ``p`` is a relative path of the 05 §11.1 grammar (directory form allowed).

    Grammar: 1–4,096 UTF-8 bytes, segments ≤ 255 bytes, optional leading ``./``, no leading
    ``/``, no empty segment, no ``.`` segment (except the leading ``./``), no ``..`` segment, no
    backslash, no NUL; a single trailing ``/`` is allowed and ``.`` (or ``./``) is the root.

    Stricter than the grammar, because byte lengths cannot be measured in the checked subset
    (only code points, and a code point takes up to 4 bytes):
    * at most 1,024 code points in total (≤ 4,096 bytes whatever the characters);
    * every segment at most 63 code points (≤ 252 bytes);
    * at most 32 segments.
    Paths beyond these bounds (e.g. an ASCII file name of 64–255 characters) are refused here
    although ``FilePath``/``DirectoryPath`` accept them.
    """
    if len(p) == 0 or len(p) > 1024:
        return False
    if p == ".":
        return True
    if p.startswith("/") or "\\" in p or "\x00" in p:
        return False
    q = p
    if p.startswith("./"):
        q = p[2:]
    if q == "":
        return True
    if q.startswith("/") or "//" in q:
        return False
    if q == "." or q.startswith("./") or q.endswith("/.") or "/./" in q:
        return False
    if q == ".." or q.startswith("../") or q.endswith("/..") or "/../" in q:
        return False
    # Walk the segments with find(); the loop is over a literal tuple, so proofs unroll it.
    i = -1
    done = False
    ok = True
    for _step in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31):
        if not done:
            j = q.find("/", i + 1)
            if j < 0:
                if len(q) - i - 1 > 63:
                    ok = False
                done = True
            else:
                if j - i - 1 > 63:
                    ok = False
                i = j
    return ok and done


def url_has_no_parent_segments(u: str) -> bool:
    """True iff the path of URL ``u`` has no ``.`` or ``..`` segment, literal or percent-encoded.

    The dot spellings are ``.``, ``%2e`` and ``%2E`` (the only case variants), alone or paired.
    Stricter than the rule, because the subset cannot cut the path out of the URL:
    * the whole text is searched, so a dot segment in the query or fragment (``?x=/../``) or a
      host written ``.`` is refused too;
    * a backslash counts as a segment separator (URL parsers turn it into ``/`` for http(s)), and
      a dot segment right after a ``:`` counts too (``x:../a`` has path ``../a``; a port never
      looks like one);
    * any tab, CR or LF refuses the URL (URL parsers delete them, which can join ``.\t.``).
    A relative reference (no scheme) is checked from its start as well.
    """
    if "\t" in u or "\r" in u or "\n" in u:
        return False
    ok = True
    for d in (".", "%2e", "%2E", "..", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e", "%2e%2E", "%2E%2e", "%2E%2E"):
        if u == d:
            ok = False
        for left in ("/", "\\", ":"):
            if u.endswith(left + d):
                ok = False
        for r in ("/", "\\", "?", "#"):
            if u.startswith(d + r):
                ok = False
            for left in ("/", "\\", ":"):
                if left + d + r in u:
                    ok = False
    return ok
