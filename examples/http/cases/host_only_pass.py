"""Fetch a page and post it back, all below one API prefix."""

import clauz3
from tools.http.trusted import contracts as web
from tools.http.trusted.effects import http_get, http_post


@clauz3.guarantee(web.host_only("https://api.example.com"))
def main() -> None:
    page = http_get("https://api.example.com/items?page=1")
    if len(page) > 0:
        http_post("https://api.example.com/log", page)
    http_get("https://api.example.com")
    http_get("https://api.example.com#top")
