"""The web_fetch effects: one real HTTP(S) GET or POST each, no redirects, no local addresses."""

import clauz3
from clauz3.paths import url_has_no_parent_segments
from clauz3.stdlib import webfetch

# Issue 19: these effects talk to servers, so a run that calls one keeps the network.
CLAUZ3_NETWORK = True


def plain_url(url: str) -> bool:
    """The WEB-1 URL rules a prover can read: http(s), ≤ 2,048 characters, no fragment, space, encoded slash or dot segment."""
    if not (url.startswith("http://") or url.startswith("https://")):
        return False
    if len(url) > 2048 or "#" in url or " " in url or "\t" in url or "\n" in url or "\r" in url:
        return False
    if "%2f" in url or "%2F" in url or "%5c" in url or "%5C" in url or "\\" in url:
        return False
    return url_has_no_parent_segments(url)


@clauz3.trusted
@clauz3.requires(lambda url: plain_url(url), message="url must be a plain http(s) URL (see the library description)")
@clauz3.ensures(lambda result: len(result) <= 2097152)
@clauz3.protected(url="url")
@clauz3.reads_data("the web page {url}")
def fetch_url(url: str) -> str:
    """GET url and return the response body as text (redirects are errors; at most 2 MiB)."""
    return webfetch.request("GET", url, user_agent=f"clauz3-web-fetch/{clauz3.__version__}")


@clauz3.trusted
@clauz3.requires(lambda url, body: plain_url(url), message="url must be a plain http(s) URL (see the library description)")
@clauz3.protected(url="url", body="text")
def post_url(url: str, body: str) -> str:
    """POST body as text/plain to url and return the response body as text (redirects are errors)."""
    return webfetch.request("POST", url, body, user_agent=f"clauz3-web-fetch/{clauz3.__version__}")
