"""Requests elsewhere on the same host."""

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url, post_url

import clauz3


@clauz3.guarantee(web.never_fetch_under("https://a.example.com/admin"))
def main() -> None:
    fetch_url("https://a.example.com/administrator")
    post_url("https://a.example.com/docs", "x")
