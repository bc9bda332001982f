"""Loopback-only HTTP client to the approval authority (03 NET-9, §4): submit, long-poll, cancel.

``http.client`` talks straight to the socket, so ``HTTP_PROXY``/``ALL_PROXY`` settings can never
route the submission token elsewhere; the URL itself must name a loopback host.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from clauz3.runs.errors import RunError

MAX_RESPONSE_BYTES = 4 * 1024 * 1024


class ServiceURLError(RunError, ValueError):
    """The configured URL is not ``http://<loopback>[:port]`` (exit 2, nothing contacted)."""

    code = "invalid_service_url"


class ServiceError(RunError):
    """Unreachable service, HTTP error or an answer that is not the expected JSON.

    ``code`` is ``service_error`` (the run's outcome reason); ``service_code`` is the error code
    the service answered with, if any.
    """

    code = "service_error"

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None,
                 unreachable: bool = False, body: Any = None) -> None:
        super().__init__(message)
        self.status = status
        self.service_code = code
        self.unreachable = unreachable
        self.body = body


@dataclass(frozen=True)
class ServiceURL:
    host: str
    port: int

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def parse_service_url(url: str) -> ServiceURL:
    """Accept only ``http://127.0.0.1|localhost|[::1][:port]`` with no path beyond ``/``."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise ServiceURLError(f"invalid approval service URL {url!r}") from exc
    if parts.scheme != "http" or not parts.hostname or parts.username or parts.password:
        raise ServiceURLError(f"approval service URL must be http://127.0.0.1:<port>, got {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ServiceURLError(f"approval service URL must not carry a path or query, got {url!r}")
    host = parts.hostname
    if host != "localhost":
        try:
            if not ipaddress.ip_address(host).is_loopback:
                raise ServiceURLError(f"refusing non-loopback approval service URL {url!r}")
        except ValueError as exc:
            raise ServiceURLError(f"refusing non-loopback approval service URL {url!r}") from exc
    else:
        host = "127.0.0.1"
    return ServiceURL(host, port or 80)


class ApprovalClient:
    """One submitter's view of the authority; every call opens a fresh loopback connection."""

    def __init__(self, url: str, token: str, *, timeout: float = 10.0) -> None:
        self.url = parse_service_url(url)
        self._token = token
        self.timeout = timeout

    def __repr__(self) -> str:  # never show the token
        return f"ApprovalClient({self.url.host_header})"

    def _call(self, method: str, path: str, body: Any = None, *, timeout: float | None = None) -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPConnection(self.url.host, self.url.port, timeout=timeout or self.timeout)
        headers = {"Host": self.url.host_header, "Authorization": f"Bearer {self._token}",
                   "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read(MAX_RESPONSE_BYTES + 1)
            status = resp.status
        except (OSError, http.client.HTTPException) as exc:
            raise ServiceError(f"approval service unreachable ({type(exc).__name__})", unreachable=True) from None
        finally:
            conn.close()
        if len(raw) > MAX_RESPONSE_BYTES:
            raise ServiceError("approval service answer is too large", status=status)
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ServiceError(f"approval service answered HTTP {status} without JSON", status=status) from None
        if status >= 400:
            err = doc.get("error") if isinstance(doc, dict) else None
            code = err.get("code") if isinstance(err, dict) else None
            message = err.get("message") if isinstance(err, dict) else None
            raise ServiceError(f"approval service answered HTTP {status} {code or ''}: {message or ''}".strip(),
                               status=status, code=code if isinstance(code, str) else None, body=doc)
        if not isinstance(doc, dict):
            raise ServiceError("approval service answered with a non-object", status=status)
        return status, doc

    def submit(self, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """``POST /api/requests`` → (201 new | 200 existing, record)."""
        return self._call("POST", "/api/requests", request)

    def get(self, request_id: str, wait: int = 0) -> dict[str, Any]:
        """``GET /api/requests/{id}?wait=`` — returns once the record is final or ``wait`` passed."""
        path = f"/api/requests/{quote(request_id, safe='')}"
        if wait:
            path += f"?wait={int(wait)}"
        return self._call("GET", path, timeout=self.timeout + wait)[1]

    def cancel(self, request_id: str) -> dict[str, Any]:
        return self._call("POST", f"/api/requests/{quote(request_id, safe='')}/cancel", {})[1]
