"""Contracts over HTTP requests: where they go, and whether anything is posted."""

from tools.http.trusted.effects import http_get, http_post

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="promises nothing about HTTP requests")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="every request goes to {prefix} or below it")
def host_only(prefix: str) -> ContractSpec:
    # A URL is inside the prefix when it equals it or continues it at "/", "?" or "#", so
    # "https://a.example.com.evil/" and "https://a.example.com@evil/" are outside "https://a.example.com".
    # A prefix that already ends in "/" may be continued by anything.
    open_ended = prefix.endswith("/")
    return effect(http_get, http_post).all(lambda e: e.url == prefix or (open_ended and e.url.startswith(prefix)) or e.url.startswith(prefix + "/") or e.url.startswith(prefix + "?") or e.url.startswith(prefix + "#"))


@contract(description="nothing is posted")
def no_posts() -> ContractSpec:
    return effect(http_post).empty()
