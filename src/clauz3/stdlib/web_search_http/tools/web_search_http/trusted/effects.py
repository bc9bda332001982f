"""The web_search effect, real: POSTs the query to the service at CLAUZ3_SEARCH_URL."""

import json
import os
import urllib.error
import urllib.request

import clauz3

_MAX_BODY = 2 * 1024 * 1024
# Issue 19: this effect talks to a search service, so a run that calls it keeps the network.
CLAUZ3_NETWORK = True


@clauz3.trusted
@clauz3.requires(lambda query: len(query) > 0, message="query must not be empty")
@clauz3.ensures(lambda result: len(result) <= 5)
def web_search(query: str) -> list[str]:
    """Return at most 5 results "<title> — <url>" for query from the configured search service."""
    url = os.environ.get("CLAUZ3_SEARCH_URL") or ""
    if not url:
        raise RuntimeError("CLAUZ3_SEARCH_URL is not set")
    if not url.startswith(("https://", "http://")):
        raise RuntimeError("CLAUZ3_SEARCH_URL must be an http(s) URL")
    headers = {"Content-Type": "application/json", "Accept": "application/json",
               "User-Agent": f"clauz3-web-search/{clauz3.__version__}"}
    key = os.environ.get("CLAUZ3_SEARCH_API_KEY") or ""
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(url, data=json.dumps({"query": query}).encode("utf-8"), headers=headers,
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read(_MAX_BODY + 1)
    except urllib.error.HTTPError as exc:
        raise RuntimeError(f"search service answered HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise RuntimeError(f"search service unreachable: {getattr(exc, 'reason', exc)}") from None
    if len(raw) > _MAX_BODY:
        raise RuntimeError("search service answer is larger than 2 MiB")
    try:
        items = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise RuntimeError("search service did not answer with JSON") from None
    if not isinstance(items, list):
        raise RuntimeError("search service did not answer with a JSON array")
    out = []
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("title"), str) and isinstance(item.get("url"), str):
            out.append(f"{item['title']} — {item['url']}")
        if len(out) == 5:
            break
    return out
