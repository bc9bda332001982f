"""The keys values are compared by in the transcript index (issue 20): a link, a host, an e-mail address,
each folded so two spellings of one value meet (case, scheme, ``www.``, a trailing slash, IDNA)."""

from __future__ import annotations

import re

from clauz3.base.disguise import host_unicode
from clauz3.base.normal import normalise

TRAILING = ".,;:!?)]}>'\""  # punctuation after a value in prose, never part of it


def fold(text: str) -> str:
    return normalise(text).casefold()


def url_key(text: str) -> str:
    """A link as compared: case-folded, without its scheme or a trailing slash (the same page)."""
    key = fold(text).rstrip(TRAILING)
    key = re.sub(r"^(?:https?|ftp)://", "", key)
    return idna_key(site_of(key.rstrip("/")))


def idna_key(key: str) -> str:
    """A link or host key with its punycode host labels decoded (one key for both IDNA spellings; red team rt20)."""
    if "xn--" not in key:
        return key
    host = re.split(r"[/?#@:]", key, maxsplit=1)[0]
    return fold(host_unicode(host)) + key[len(host):]


def email_key(text: str) -> str:
    local, _, domain = text.casefold().rpartition("@")
    return f"{local}@{idna_key(domain)}"


def site_of(key: str) -> str:
    """A link or host key without a leading ``www.``: ``secure-systems-252.com`` is the page read as
    ``www.secure-systems-252.com`` (redteam w2)."""
    return key[4:] if key.startswith("www.") and len(key) > 4 else key


def host_of(url_key: str) -> str:
    """The host of a link key (scheme already gone): up to the first ``/``, ``?`` or ``#``, without a port."""
    host = re.split(r"[/?#]", url_key, maxsplit=1)[0]
    return site_of(host.rsplit("@", 1)[-1].split(":", 1)[0])
