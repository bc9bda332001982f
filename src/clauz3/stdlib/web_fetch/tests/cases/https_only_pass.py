"""Both requests use https."""

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url, post_url

import clauz3


@clauz3.guarantee(web.https_only())
def main() -> None:
    fetch_url("https://a.example.com/")
    post_url("https://a.example.com/api", "x")
