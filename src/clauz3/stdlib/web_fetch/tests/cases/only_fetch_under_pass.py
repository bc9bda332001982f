"""The prefix itself, a sub-path and a query are under it."""

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.only_fetch_under("https://a.example.com/docs"))
def main() -> None:
    fetch_url("https://a.example.com/docs")
    fetch_url("https://a.example.com/docs/a/b")
    fetch_url("https://a.example.com/docs?page=2")
