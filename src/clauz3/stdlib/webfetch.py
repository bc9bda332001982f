"""Bodies of the ``web_fetch`` effects (05 WEB-1): checked URLs, checked addresses, no redirects.

The URL rules are checked again here in full (the preconditions state what a prover can read).
The host is resolved once; every address must be public (not loopback, link-local, unspecified or
multicast) and the connection goes to that checked address, so DNS cannot change the answer
between check and connect. ``allow_address`` is injectable so tests can reach a local server.
"""

from __future__ import annotations

import http.client
import ipaddress
import re
import socket
import ssl
from collections.abc import Callable
from urllib.parse import urlsplit

from clauz3.stdlib.errors import StdlibError

__all__ = ["FetchError", "public_address", "request", "url_problem"]

MAX_URL = 2048
MAX_BODY = 2 * 1024 * 1024
TIMEOUT = 30.0
_DOT_SEGMENT = re.compile(r"^(\.|%2e){1,2}$", re.IGNORECASE)


class FetchError(StdlibError):
    """A refused or failed request; the message names the URL."""


def url_problem(url: str) -> str | None:
    """Why ``url`` breaks WEB-1's preconditions, or None."""
    if len(url) > MAX_URL:
        return f"longer than {MAX_URL} characters"
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        return "contains whitespace or a control character"
    if "\\" in url:
        return "contains a backslash"
    if not (url.startswith("http://") or url.startswith("https://")):
        return "scheme must be lowercase http or https"
    lowered = url.lower()
    if "%2f" in lowered or "%5c" in lowered:
        return "contains an encoded slash or backslash (%2f, %5c)"
    parts = urlsplit(url)
    if "#" in url:
        return "has a fragment"
    if "@" in parts.netloc:
        return "has userinfo"
    host = parts.hostname or ""
    if not host:
        return "has no host"
    if parts.netloc.split(":")[0] != parts.netloc.split(":")[0].lower() or host != host.lower():
        return "host must be lowercase"
    try:
        port = parts.port
    except ValueError:
        return "has an invalid port"
    if port is not None and port == (443 if parts.scheme == "https" else 80):
        return "has an explicit default port"
    if any(_DOT_SEGMENT.match(seg) for seg in parts.path.split("/")):
        return "has a '.' or '..' path segment"
    return None


def public_address(address: str) -> bool:
    """WEB-1: not loopback, link-local, unspecified or multicast (IPv4-mapped IPv6 unwrapped)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _checked_address(host: str, port: int, allow: Callable[[str], bool], url: str) -> str:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise FetchError(f"cannot resolve the host of {url}: {exc.strerror}") from None
    addresses = [str(info[4][0]) for info in infos]  # always a str for the stream sockets asked for
    if not addresses:
        raise FetchError(f"cannot resolve the host of {url}")
    refused = [a for a in addresses if not allow(a)]
    if refused:
        raise FetchError(f"refused address {refused[0]} for {url}: loopback, link-local, unspecified or multicast")
    return addresses[0]


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]  # HTTPSConnection keeps its SSLContext in _context (typeshed leaves it out)


def request(method: str, url: str, body: str | None = None, *,
            allow_address: Callable[[str], bool] = public_address, user_agent: str = "clauz3-web-fetch") -> str:
    """Perform one GET or POST and return the decoded body; 3xx, ≥ 400 and oversize bodies raise."""
    problem = url_problem(url)
    if problem is not None:
        raise FetchError(f"refused URL {url}: {problem}")
    parts = urlsplit(url)
    https = parts.scheme == "https"
    host = parts.hostname or ""
    port = parts.port or (443 if https else 80)
    address = _checked_address(host, port, allow_address, url)
    conn_cls = _PinnedHTTPS if https else _PinnedHTTP
    conn = conn_cls(host, port, address, TIMEOUT)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = {"User-Agent": user_agent, "Accept-Encoding": "identity"}
    data = None
    if body is not None:
        data = body.encode("utf-8")
        headers["Content-Type"] = "text/plain; charset=utf-8"
    try:
        conn.request(method, target, body=data, headers=headers)
        response = conn.getresponse()
        if 300 <= response.status < 400:
            raise FetchError(f"{url} redirects (HTTP {response.status}) to {response.getheader('Location')!r};"
                             " redirects are not followed")
        if response.status >= 400:
            raise FetchError(f"{url} answered HTTP {response.status}")
        raw = response.read(MAX_BODY + 1)
        if len(raw) > MAX_BODY:
            raise FetchError(f"{url}: body larger than 2 MiB")
        charset = response.headers.get_content_charset() or "utf-8"
    except (OSError, http.client.HTTPException) as exc:
        raise FetchError(f"request to {url} failed: {exc}") from None
    finally:
        conn.close()
    try:
        return raw.decode(charset, errors="replace")
    except LookupError:
        return raw.decode("utf-8", errors="replace")
