"""Two listed hosts, one with a port."""

from tools.web_fetch.trusted import contracts as web
from tools.web_fetch.trusted.effects import fetch_url

import clauz3


@clauz3.guarantee(web.only_hosts(["a.example.com", "b.example.org"]))
def main() -> None:
    fetch_url("https://a.example.com/x")
    fetch_url("http://b.example.org:8080/y")
    fetch_url("https://b.example.org")
