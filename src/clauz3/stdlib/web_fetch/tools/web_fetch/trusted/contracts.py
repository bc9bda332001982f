"""Contracts over fetch_url and post_url: where requests go, whether anything is posted, how often.

"Under" compares URL components: same scheme, host and port, and the prefix's path segments lead
the URL's, so https://a.example.com/docs2 is not under https://a.example.com/docs and
https://a.example.com.evil/docs is not under https://a.example.com/docs. Scope contracts cover
both GET and POST requests.
"""

from urllib.parse import urlsplit

from tools.web_fetch.trusted.effects import fetch_url, post_url

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect

_NEVER = "\x00"  # padding host: no URL passing the preconditions contains NUL after its scheme


def _base(prefix: str) -> str:
    # Runs at prove time on the literal: a query or fragment makes the guarantee a contract error.
    parts = urlsplit(prefix)
    if parts.scheme not in ("http", "https") or not prefix.startswith(parts.scheme + "://"):
        raise ValueError(f"prefix {prefix!r} must start with http:// or https://")
    if parts.query or parts.fragment or "?" in prefix or "#" in prefix:
        raise ValueError(f"prefix {prefix!r} must not have a query or fragment")
    if not parts.hostname or "@" in parts.netloc or parts.netloc != parts.netloc.lower():
        raise ValueError(f"prefix {prefix!r} must name a lowercase host without userinfo")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def _under(prefix: str, inside: bool) -> ContractSpec:
    base = _base(prefix)
    slash = base + "/"
    query = base + "?"
    requests = effect(fetch_url, post_url)
    if inside:
        return requests.all(lambda e: e.url == base or e.url.startswith(slash) or e.url.startswith(query))
    return requests.all(lambda e: not (e.url == base or e.url.startswith(slash) or e.url.startswith(query)))


@contract(description="promises nothing about web requests")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="no page is fetched (GET)")
def no_fetches() -> ContractSpec:
    return effect(fetch_url).empty()


@contract(description="nothing is posted")
def no_posts() -> ContractSpec:
    return effect(post_url).empty()


@contract(description="every request (GET or POST) goes to {prefix} or below it")
def only_fetch_under(prefix: str) -> ContractSpec:
    return _under(prefix, True)


@contract(description="no request (GET or POST) goes to {prefix} or below it")
def never_fetch_under(prefix: str) -> ContractSpec:
    return _under(prefix, False)


@contract(description="every request (GET or POST) goes to one of the hosts {hosts}, on any port")
def only_hosts(hosts: list[str]) -> ContractSpec:
    if not 1 <= len(hosts) <= 8:
        raise ValueError("only_hosts takes 1 to 8 hosts")
    for h in hosts:
        if not h or h != h.lower() or any(c in h for c in "/?#@:\\ "):
            raise ValueError(f"host {h!r} must be a lowercase host name without port or path")
    h0, h1, h2, h3, h4, h5, h6, h7 = (list(hosts) + [_NEVER] * 8)[:8]
    exact = [s + h for h in hosts for s in ("http://", "https://")]
    # One host matches when the URL's authority is exactly it, optionally with a port.
    return effect(fetch_url, post_url).all(lambda e: e.url in exact
        or e.url.startswith("http://" + h0 + "/") or e.url.startswith("https://" + h0 + "/") or e.url.startswith("http://" + h0 + "?") or e.url.startswith("https://" + h0 + "?") or e.url.startswith("http://" + h0 + ":") or e.url.startswith("https://" + h0 + ":")
        or e.url.startswith("http://" + h1 + "/") or e.url.startswith("https://" + h1 + "/") or e.url.startswith("http://" + h1 + "?") or e.url.startswith("https://" + h1 + "?") or e.url.startswith("http://" + h1 + ":") or e.url.startswith("https://" + h1 + ":")
        or e.url.startswith("http://" + h2 + "/") or e.url.startswith("https://" + h2 + "/") or e.url.startswith("http://" + h2 + "?") or e.url.startswith("https://" + h2 + "?") or e.url.startswith("http://" + h2 + ":") or e.url.startswith("https://" + h2 + ":")
        or e.url.startswith("http://" + h3 + "/") or e.url.startswith("https://" + h3 + "/") or e.url.startswith("http://" + h3 + "?") or e.url.startswith("https://" + h3 + "?") or e.url.startswith("http://" + h3 + ":") or e.url.startswith("https://" + h3 + ":")
        or e.url.startswith("http://" + h4 + "/") or e.url.startswith("https://" + h4 + "/") or e.url.startswith("http://" + h4 + "?") or e.url.startswith("https://" + h4 + "?") or e.url.startswith("http://" + h4 + ":") or e.url.startswith("https://" + h4 + ":")
        or e.url.startswith("http://" + h5 + "/") or e.url.startswith("https://" + h5 + "/") or e.url.startswith("http://" + h5 + "?") or e.url.startswith("https://" + h5 + "?") or e.url.startswith("http://" + h5 + ":") or e.url.startswith("https://" + h5 + ":")
        or e.url.startswith("http://" + h6 + "/") or e.url.startswith("https://" + h6 + "/") or e.url.startswith("http://" + h6 + "?") or e.url.startswith("https://" + h6 + "?") or e.url.startswith("http://" + h6 + ":") or e.url.startswith("https://" + h6 + ":")
        or e.url.startswith("http://" + h7 + "/") or e.url.startswith("https://" + h7 + "/") or e.url.startswith("http://" + h7 + "?") or e.url.startswith("https://" + h7 + "?") or e.url.startswith("http://" + h7 + ":") or e.url.startswith("https://" + h7 + ":"))


@contract(description="every request (GET or POST) uses https")
def https_only() -> ContractSpec:
    return effect(fetch_url, post_url).all(lambda e: e.url.startswith("https://"))


@contract(description="at most {n} pages are fetched (GET)")
def fetches_at_most(n: int) -> ContractSpec:
    return effect(fetch_url).count() <= n


@contract(description="at most {n} posts are made")
def posts_at_most(n: int) -> ContractSpec:
    return effect(post_url).count() <= n


@contract(description="no requested URL contains {text}")
def no_url_contains(text: str) -> ContractSpec:
    return effect(fetch_url, post_url).all(lambda e: text not in e.url)


@contract(description="every requested URL is at most {n} characters long")
def url_length_at_most(n: int) -> ContractSpec:
    return effect(fetch_url, post_url).all(lambda e: len(e.url) <= n)


@contract(description="every posted body is at most {n} characters long")
def post_length_at_most(n: int) -> ContractSpec:
    return effect(post_url).all(lambda e: len(e.body) <= n)
